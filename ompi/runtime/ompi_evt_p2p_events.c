/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Point-to-point completion events (beyond Open MPI main, which has none):
 * ompi.mpi.p2p_send_complete and ompi.mpi.p2p_recv_complete, one per
 * completed message, same layout:
 *
 *   u64 comm@0           the MPI_Comm (ompi_communicator_t *)
 *   u64 bytes@8          send: count * type size; recv: bytes received
 *   i64 start_time@16    when the operation started (source "ompi" ticks, ns)
 *   i64 complete_time@24 when its completion was seen (same clock)
 *   i32 peer@32          the peer's rank in MPI_COMM_WORLD of its job
 *                        (the vpid; for a spawned peer, in its own job)
 *   i32 tag@36           send: the tag given; recv: the tag received
 *   i32 mode@40          0 blocking, 1 nonblocking, 2 persistent
 *   i32 comm_peer@44     the peer's rank in comm (remote group if inter)
 *
 * start_time: for a blocking call, its entry; nonblocking, the I-call's
 * entry; persistent, the MPI_Start/Startall. complete_time: when the
 * wrapper saw the completion (after the PMPI call returned; one clock read
 * per Wait/Test call shared by the requests it completed). The record's
 * own timestamp is the raise time (>= complete_time).
 *
 * Covered: Send, Ssend, Bsend, Rsend, Recv, Sendrecv, Sendrecv_replace;
 * Isend, Issend, Ibsend, Irsend, Irecv; Send_init, Ssend_init, Bsend_init,
 * Rsend_init, Recv_init with Start/Startall; completion by Wait, Waitall,
 * Waitany, Waitsome, Test, Testall, Testany, Testsome; Request_free drops
 * the tracking. Not raised: MPI_PROC_NULL peers, cancelled requests,
 * requests completed with an error. Not covered: matched probes
 * (Mrecv/Imrecv), partitioned and collective traffic, the Fortran bindings,
 * and nonblocking or persistent requests started while nobody listened
 * (their start was never seen).
 *
 * Request tracking: a nonblocking request started while someone listens is
 * entered in a preallocated open-addressing table keyed by the request
 * pointer (P2P_TABLE_SIZE slots; a request may sit in one of P2P_PROBE
 * slots after its hash). Nothing is allocated on the fast path, listening
 * or not (except one scratch array in Wait/Test-all/some calls on more than
 * P2P_SCRATCH requests while the table is in use). When the request's
 * window is full the request is not tracked: that is counted as one
 * dropped instance for every registration of the event
 * (mca_base_event_count_dropped(), so the tool's dropped handler sees it)
 * and in the test-only stats; never silent.
 *
 * Gates: the send (recv) wrappers read the send (recv) event's gate first,
 * one relaxed load, and call PMPI directly when it is closed. The
 * Wait/Test/Start/Request_free wrappers read the table's occupancy count
 * first (one relaxed load): when no request is tracked they call PMPI
 * directly; when the listener went away with requests still tracked, they
 * keep looking them up so the table empties.
 *
 * Threads: slots are claimed by CAS (0 -> P2P_BUSY), filled, then
 * published with a release store of the request pointer; lookups acquire.
 * Only the thread that completes (or frees) a request touches its slot
 * afterwards (MPI forbids two threads completing one request).
 */

#include "ompi_config.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "mpi.h"
#include "ompi/communicator/communicator.h"
#include "ompi/proc/proc.h"
#include "ompi/runtime/ompi_evt_producers.h"

/** Slots in the request table (power of two). 8192 outstanding tracked
 *  requests per process; keys are 64 KiB, the rest 384 KiB, static. */
#define P2P_TABLE_SIZE 8192
/** Slots probed after a request's hash: bounds every lookup (2 cache lines
 *  of keys). */
#define P2P_PROBE 16
/** Requests handled on the stack by the *all / *some wrappers. */
#define P2P_SCRATCH 64
/** A claimed slot being filled. */
#define P2P_BUSY ((uintptr_t) 1)

_Static_assert(0 == (P2P_TABLE_SIZE & (P2P_TABLE_SIZE - 1)), "table size is a power of two");

enum { P2P_SEND = 0, P2P_RECV = 1 };
enum { P2P_MODE_BLOCKING = 0, P2P_MODE_NONBLOCKING = 1, P2P_MODE_PERSISTENT = 2 };

typedef struct {
    int64_t start;
    uint64_t bytes;
    MPI_Comm comm;
    int32_t peer;      /**< send: comm rank of dest; recv: unused (status) */
    int32_t tag;
    uint8_t kind;      /**< P2P_SEND, P2P_RECV */
    uint8_t mode;      /**< P2P_MODE_* */
    uint8_t started;   /**< persistent: between Start and completion */
} p2p_slot_t;

/** Keys apart from the data so a probe touches few cache lines. */
static _Atomic uintptr_t p2p_keys[P2P_TABLE_SIZE];
static p2p_slot_t p2p_slots[P2P_TABLE_SIZE];
/** Occupied slots: the Wait/Test gate. */
static atomic_long p2p_in_use = 0;
static atomic_ulong p2p_tracked = 0;
static atomic_ulong p2p_dropped = 0;

static mca_base_event_t *p2p_events[2] = {NULL, NULL};

typedef struct {
    uint64_t comm;
    uint64_t bytes;
    int64_t start_time;
    int64_t complete_time;
    int32_t peer;
    int32_t tag;
    int32_t mode;
    int32_t comm_peer;
} p2p_payload_t;

_Static_assert(48 == sizeof(p2p_payload_t), "payload layout matches the registration");

/* Context: INIT, ANY. */
int ompi_evt_p2p_events_register(void)
{
    static const char *const names[2] = {"mpi.p2p_send_complete", "mpi.p2p_recv_complete"};
    static const char *const descs[2] = {
        "A point-to-point send completed: {comm, bytes, start_time, complete_time, peer "
        "(world rank), tag, mode (0 blocking, 1 nonblocking, 2 persistent), comm_peer}",
        "A point-to-point receive completed: {comm, bytes, start_time, complete_time, peer "
        "(world rank), tag, mode (0 blocking, 1 nonblocking, 2 persistent), comm_peer}"};
    const mca_base_var_type_t types[8] = {
        MCA_BASE_VAR_TYPE_UINT64_T, MCA_BASE_VAR_TYPE_UINT64_T, MCA_BASE_VAR_TYPE_INT64_T,
        MCA_BASE_VAR_TYPE_INT64_T,  MCA_BASE_VAR_TYPE_INT32_T,  MCA_BASE_VAR_TYPE_INT32_T,
        MCA_BASE_VAR_TYPE_INT32_T,  MCA_BASE_VAR_TYPE_INT32_T};
    const ptrdiff_t offsets[8] = {0, 8, 16, 24, 32, 36, 40, 44};
    mca_base_event_source_t *source;
    mca_base_event_t *ev;
    int ei;

    source = ompi_evt_ompi_source();
    if (NULL == source) {
        return OPAL_ERR_NOT_AVAILABLE;
    }
    for (int k = 0; k < 2; ++k) {
        ei = mca_base_event_register("ompi", NULL, NULL, names[k], descs[k], OPAL_INFO_LVL_5, 8,
                                     types, offsets, NULL, MCA_BASE_VAR_BIND_NO_OBJECT, 0, source,
                                     NULL);
        if (0 > ei || OPAL_SUCCESS != mca_base_event_get_by_index(ei, &ev)) {
            return 0 > ei ? ei : OPAL_ERROR;
        }
        p2p_events[k] = ev;
    }
    return OPAL_SUCCESS;
}

/* Context: ANY. */
void ompi_evt_p2p_test_stats(ompi_evt_p2p_stats_t *stats)
{
    stats->tracked = atomic_load_explicit(&p2p_tracked, memory_order_relaxed);
    stats->dropped = atomic_load_explicit(&p2p_dropped, memory_order_relaxed);
    stats->in_use = (uint64_t) atomic_load_explicit(&p2p_in_use, memory_order_relaxed);
}

/** The gate of event @p kind: one relaxed load. Context: RAISE. */
static inline bool p2p_listening(int kind)
{
    mca_base_event_t *ev = p2p_events[kind];

    return NULL != ev && mca_base_event_active(ev);
}

/** The Wait/Test gate: one relaxed load. Context: RAISE. */
static inline bool p2p_table_used(void)
{
    /* relaxed: a request tracked by this thread was counted by this thread
     * (program order); one tracked by another thread reached us through
     * the application's own synchronisation, which orders the count too. */
    return 0 != atomic_load_explicit(&p2p_in_use, memory_order_relaxed);
}

/** Now, on the "ompi" source's clock. Context: RAISE. */
static inline int64_t p2p_now(int kind)
{
    mca_base_event_source_t *source = p2p_events[kind]->source;

    return (int64_t) source->get_timestamp(source->ctx);
}

static inline size_t p2p_hash(MPI_Request req)
{
    uint64_t h = (uint64_t) (uintptr_t) req;

    h = (h >> 4) * UINT64_C(0x9E3779B97F4A7C15);
    return (size_t) (h >> 51) & (P2P_TABLE_SIZE - 1); /* 13 bits: 8192 */
}

_Static_assert(8192 == P2P_TABLE_SIZE, "p2p_hash() takes 13 bits");

/** Slot of @p req, or -1. Context: RAISE. */
static inline int p2p_lookup(MPI_Request req)
{
    size_t h = p2p_hash(req);

    for (int i = 0; i < P2P_PROBE; ++i) {
        size_t s = (h + i) & (P2P_TABLE_SIZE - 1);
        /* acquire: pairs with the release store in p2p_track(); the slot's
         * data is visible once its key is. */
        if ((uintptr_t) req == atomic_load_explicit(&p2p_keys[s], memory_order_acquire)) {
            return (int) s;
        }
    }
    return -1;
}

/** Release slot @p s. Context: RAISE (the request's completing thread). */
static inline void p2p_release(int s)
{
    /* release: our reads of the slot happen before a new owner's writes;
     * pairs with the CAS (acquire) in p2p_track(). */
    atomic_store_explicit(&p2p_keys[s], 0, memory_order_release);
    atomic_fetch_sub_explicit(&p2p_in_use, 1, memory_order_relaxed);
}

/** Count one drop of event @p kind for every registration. Context: RAISE. */
static void p2p_count_drop(int kind, int64_t now)
{
    mca_base_event_record_t record = {
        .event = p2p_events[kind],
        .source = p2p_events[kind]->source,
        .obj = NULL,
        .timestamp = now,
        .epoch = UINT64_MAX, /* every live registration */
        .data = NULL,
    };

    atomic_fetch_add_explicit(&p2p_dropped, 1, memory_order_relaxed);
    mca_base_event_count_dropped(&record);
}

/**
 * Enter @p req in the table (or update its slot if the pointer is there
 * already, e.g. a request recycled by libmpi whose previous life was not
 * completed through a wrapper). Context: RAISE.
 */
static void p2p_track(MPI_Request req, int kind, int mode, int started, int64_t start,
                      uint64_t bytes, MPI_Comm comm, int peer, int tag)
{
    size_t h = p2p_hash(req);
    int s = p2p_lookup(req);
    p2p_slot_t *slot;

    if (0 > s) {
        for (int i = 0; i < P2P_PROBE && 0 > s; ++i) {
            size_t c = (h + i) & (P2P_TABLE_SIZE - 1);
            uintptr_t expected = 0;
            /* acquire on success: the previous owner's reads of this slot
             * (before its release in p2p_release()) happen before ours. */
            if (atomic_compare_exchange_strong_explicit(&p2p_keys[c], &expected, P2P_BUSY,
                                                        memory_order_acquire,
                                                        memory_order_relaxed)) {
                s = (int) c;
            }
        }
        if (0 > s) {
            p2p_count_drop(kind, start);
            return;
        }
        atomic_fetch_add_explicit(&p2p_in_use, 1, memory_order_relaxed);
    }
    slot = &p2p_slots[s];
    slot->start = start;
    slot->bytes = bytes;
    slot->comm = comm;
    slot->peer = peer;
    slot->tag = tag;
    slot->kind = (uint8_t) kind;
    slot->mode = (uint8_t) mode;
    slot->started = (uint8_t) started;
    atomic_fetch_add_explicit(&p2p_tracked, 1, memory_order_relaxed);
    /* release: publishes the slot's data; pairs with the acquire in
     * p2p_lookup(). */
    atomic_store_explicit(&p2p_keys[s], (uintptr_t) req, memory_order_release);
}

/** World rank (vpid) of rank @p rank of @p comm's remote group.
 *  Context: RAISE, after a successful PMPI call on that rank. */
static inline int32_t p2p_world_rank(MPI_Comm comm, int rank)
{
    ompi_proc_t *proc = ompi_comm_peer_lookup(comm, rank);

    return NULL != proc ? (int32_t) proc->super.proc_name.vpid : -1;
}

/** Raise one completion. Context: RAISE. */
static void p2p_raise(int kind, MPI_Comm comm, uint64_t bytes, int64_t start, int64_t done,
                      int comm_peer, int tag, int mode)
{
    p2p_payload_t payload;

    if (MPI_PROC_NULL == comm_peer || 0 > comm_peer) {
        return;
    }
    payload.comm = (uint64_t) (uintptr_t) comm;
    payload.bytes = bytes;
    payload.start_time = start;
    payload.complete_time = done;
    payload.peer = p2p_world_rank(comm, comm_peer);
    payload.tag = tag;
    payload.mode = mode;
    payload.comm_peer = comm_peer;
    (void) mca_base_event_raise(p2p_events[kind], NULL, &payload);
}

/** Bytes of @p count elements of @p type. Context: RAISE. */
static inline uint64_t p2p_bytes(int count, MPI_Datatype type)
{
    MPI_Count size = 0;

    (void) PMPI_Type_size_x(type, &size);
    return (uint64_t) count * (uint64_t) size;
}

/**
 * The request in slot @p s completed with @p status; @p ok false when it
 * completed with an error (nothing raised). Raises if someone listens and
 * releases the slot (persistent requests keep it, inactive).
 * Context: RAISE.
 */
static void p2p_complete(int s, const MPI_Status *status, bool ok, int64_t done)
{
    p2p_slot_t *slot = &p2p_slots[s];
    int kind = slot->kind;
    bool report;

    if (P2P_MODE_PERSISTENT == slot->mode) {
        report = 0 != slot->started;
        slot->started = 0;
    } else {
        report = true;
        p2p_release(s);
    }
    if (!report || !p2p_listening(kind)) {
        return;
    }
    if (!ok || status->_cancelled) {
        return;
    }
    if (P2P_SEND == kind) {
        p2p_raise(kind, slot->comm, slot->bytes, slot->start, done, slot->peer, slot->tag,
                  slot->mode);
    } else {
        p2p_raise(kind, slot->comm, (uint64_t) status->_ucount, slot->start, done,
                  status->MPI_SOURCE, status->MPI_TAG, slot->mode);
    }
}

/* ------------------------------------------------------------------------
 * Blocking calls
 * ------------------------------------------------------------------------ */

/** Shared body of the blocking sends. Context: RAISE. */
#define P2P_BLOCKING_SEND(call)                                                                    \
    do {                                                                                           \
        int64_t t0_;                                                                               \
        int rc_;                                                                                   \
        if (OPAL_LIKELY(!p2p_listening(P2P_SEND))) {                                               \
            return call;                                                                           \
        }                                                                                          \
        t0_ = p2p_now(P2P_SEND);                                                                   \
        rc_ = call;                                                                                \
        if (MPI_SUCCESS == rc_) {                                                                  \
            p2p_raise(P2P_SEND, comm, p2p_bytes(count, datatype), t0_, p2p_now(P2P_SEND), dest,    \
                      tag, P2P_MODE_BLOCKING);                                                     \
        }                                                                                          \
        return rc_;                                                                                \
    } while (0)

int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    P2P_BLOCKING_SEND(PMPI_Send(buf, count, datatype, dest, tag, comm));
}

int MPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    P2P_BLOCKING_SEND(PMPI_Ssend(buf, count, datatype, dest, tag, comm));
}

int MPI_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    P2P_BLOCKING_SEND(PMPI_Bsend(buf, count, datatype, dest, tag, comm));
}

int MPI_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    P2P_BLOCKING_SEND(PMPI_Rsend(buf, count, datatype, dest, tag, comm));
}

int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
             MPI_Status *status)
{
    MPI_Status local;
    int64_t t0;
    int rc;

    if (OPAL_LIKELY(!p2p_listening(P2P_RECV))) {
        return PMPI_Recv(buf, count, datatype, source, tag, comm, status);
    }
    if (MPI_STATUS_IGNORE == status) {
        status = &local;
    }
    t0 = p2p_now(P2P_RECV);
    rc = PMPI_Recv(buf, count, datatype, source, tag, comm, status);
    if (MPI_SUCCESS == rc) {
        p2p_raise(P2P_RECV, comm, (uint64_t) status->_ucount, t0, p2p_now(P2P_RECV),
                  status->MPI_SOURCE, status->MPI_TAG, P2P_MODE_BLOCKING);
    }
    return rc;
}

int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                 void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                 MPI_Comm comm, MPI_Status *status)
{
    bool send_on = p2p_listening(P2P_SEND), recv_on = p2p_listening(P2P_RECV);
    MPI_Status local;
    int64_t t0, t1;
    int rc;

    if (OPAL_LIKELY(!send_on && !recv_on)) {
        return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                             recvtype, source, recvtag, comm, status);
    }
    if (MPI_STATUS_IGNORE == status) {
        status = &local;
    }
    t0 = p2p_now(send_on ? P2P_SEND : P2P_RECV);
    rc = PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                       source, recvtag, comm, status);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    t1 = p2p_now(send_on ? P2P_SEND : P2P_RECV);
    if (send_on) {
        p2p_raise(P2P_SEND, comm, p2p_bytes(sendcount, sendtype), t0, t1, dest, sendtag,
                  P2P_MODE_BLOCKING);
    }
    if (recv_on) {
        p2p_raise(P2P_RECV, comm, (uint64_t) status->_ucount, t0, t1, status->MPI_SOURCE,
                  status->MPI_TAG, P2P_MODE_BLOCKING);
    }
    return rc;
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                         int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    bool send_on = p2p_listening(P2P_SEND), recv_on = p2p_listening(P2P_RECV);
    MPI_Status local;
    int64_t t0, t1;
    int rc;

    if (OPAL_LIKELY(!send_on && !recv_on)) {
        return PMPI_Sendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm,
                                     status);
    }
    if (MPI_STATUS_IGNORE == status) {
        status = &local;
    }
    t0 = p2p_now(send_on ? P2P_SEND : P2P_RECV);
    rc = PMPI_Sendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm, status);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    t1 = p2p_now(send_on ? P2P_SEND : P2P_RECV);
    if (send_on) {
        p2p_raise(P2P_SEND, comm, p2p_bytes(count, datatype), t0, t1, dest, sendtag,
                  P2P_MODE_BLOCKING);
    }
    if (recv_on) {
        p2p_raise(P2P_RECV, comm, (uint64_t) status->_ucount, t0, t1, status->MPI_SOURCE,
                  status->MPI_TAG, P2P_MODE_BLOCKING);
    }
    return rc;
}

/* ------------------------------------------------------------------------
 * Nonblocking and persistent starts
 * ------------------------------------------------------------------------ */

/** Shared body of the nonblocking and persistent send/recv inits.
 *  Context: RAISE. */
#define P2P_START(call, kind, mode, started, bytes, peer)                                          \
    do {                                                                                           \
        int64_t t0_;                                                                               \
        int rc_;                                                                                   \
        if (OPAL_LIKELY(!p2p_listening(kind))) {                                                   \
            return call;                                                                           \
        }                                                                                          \
        t0_ = p2p_now(kind);                                                                       \
        rc_ = call;                                                                                \
        if (MPI_SUCCESS == rc_ && MPI_REQUEST_NULL != *request) {                                  \
            p2p_track(*request, kind, mode, started, t0_, bytes, comm, peer, tag);                 \
        }                                                                                          \
        return rc_;                                                                                \
    } while (0)

int MPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
              MPI_Request *request)
{
    P2P_START(PMPI_Isend(buf, count, datatype, dest, tag, comm, request), P2P_SEND,
              P2P_MODE_NONBLOCKING, 1, p2p_bytes(count, datatype), dest);
}

int MPI_Issend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request *request)
{
    P2P_START(PMPI_Issend(buf, count, datatype, dest, tag, comm, request), P2P_SEND,
              P2P_MODE_NONBLOCKING, 1, p2p_bytes(count, datatype), dest);
}

int MPI_Ibsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request *request)
{
    P2P_START(PMPI_Ibsend(buf, count, datatype, dest, tag, comm, request), P2P_SEND,
              P2P_MODE_NONBLOCKING, 1, p2p_bytes(count, datatype), dest);
}

int MPI_Irsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request *request)
{
    P2P_START(PMPI_Irsend(buf, count, datatype, dest, tag, comm, request), P2P_SEND,
              P2P_MODE_NONBLOCKING, 1, p2p_bytes(count, datatype), dest);
}

int MPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Request *request)
{
    P2P_START(PMPI_Irecv(buf, count, datatype, source, tag, comm, request), P2P_RECV,
              P2P_MODE_NONBLOCKING, 1, 0, source);
}

int MPI_Send_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm, MPI_Request *request)
{
    P2P_START(PMPI_Send_init(buf, count, datatype, dest, tag, comm, request), P2P_SEND,
              P2P_MODE_PERSISTENT, 0, p2p_bytes(count, datatype), dest);
}

int MPI_Ssend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Request *request)
{
    P2P_START(PMPI_Ssend_init(buf, count, datatype, dest, tag, comm, request), P2P_SEND,
              P2P_MODE_PERSISTENT, 0, p2p_bytes(count, datatype), dest);
}

int MPI_Bsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Request *request)
{
    P2P_START(PMPI_Bsend_init(buf, count, datatype, dest, tag, comm, request), P2P_SEND,
              P2P_MODE_PERSISTENT, 0, p2p_bytes(count, datatype), dest);
}

int MPI_Rsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Request *request)
{
    P2P_START(PMPI_Rsend_init(buf, count, datatype, dest, tag, comm, request), P2P_SEND,
              P2P_MODE_PERSISTENT, 0, p2p_bytes(count, datatype), dest);
}

int MPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                  MPI_Request *request)
{
    P2P_START(PMPI_Recv_init(buf, count, datatype, source, tag, comm, request), P2P_RECV,
              P2P_MODE_PERSISTENT, 0, 0, source);
}

/** Mark the persistent request @p req started now. Context: RAISE. */
static inline void p2p_started(MPI_Request req)
{
    int s = p2p_lookup(req);

    if (0 <= s) {
        p2p_slots[s].start = p2p_now(p2p_slots[s].kind);
        p2p_slots[s].started = 1;
    }
}

int MPI_Start(MPI_Request *request)
{
    int rc;

    if (OPAL_LIKELY(!p2p_table_used())) {
        return PMPI_Start(request);
    }
    /* Stamp before the start: the operation may progress inside it. */
    p2p_started(*request);
    rc = PMPI_Start(request);
    return rc;
}

int MPI_Startall(int count, MPI_Request array_of_requests[])
{
    if (OPAL_LIKELY(!p2p_table_used())) {
        return PMPI_Startall(count, array_of_requests);
    }
    for (int i = 0; i < count; ++i) {
        p2p_started(array_of_requests[i]);
    }
    return PMPI_Startall(count, array_of_requests);
}

int MPI_Request_free(MPI_Request *request)
{
    int s;

    if (OPAL_LIKELY(!p2p_table_used())) {
        return PMPI_Request_free(request);
    }
    s = p2p_lookup(*request);
    if (0 <= s) {
        /* No completion will be seen: stop tracking (an active request
         * freed this way completes unobserved). */
        p2p_release(s);
    }
    return PMPI_Request_free(request);
}

/* ------------------------------------------------------------------------
 * Completion: the Wait/Test family
 * ------------------------------------------------------------------------ */

int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
    MPI_Status local;
    int s, rc;

    if (OPAL_LIKELY(!p2p_table_used())) {
        return PMPI_Wait(request, status);
    }
    s = p2p_lookup(*request);
    if (0 > s) {
        return PMPI_Wait(request, status);
    }
    if (MPI_STATUS_IGNORE == status) {
        status = &local;
    }
    rc = PMPI_Wait(request, status);
    if (MPI_SUCCESS == rc) {
        p2p_complete(s, status, true, p2p_now(p2p_slots[s].kind));
    }
    return rc;
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    MPI_Status local;
    int s, rc;

    if (OPAL_LIKELY(!p2p_table_used())) {
        return PMPI_Test(request, flag, status);
    }
    s = p2p_lookup(*request);
    if (0 > s) {
        return PMPI_Test(request, flag, status);
    }
    if (MPI_STATUS_IGNORE == status) {
        status = &local;
    }
    rc = PMPI_Test(request, flag, status);
    if (MPI_SUCCESS == rc && *flag) {
        p2p_complete(s, status, true, p2p_now(p2p_slots[s].kind));
    }
    return rc;
}

/** Scratch for the array calls: slots and statuses, on the stack up to
 *  P2P_SCRATCH requests. */
typedef struct {
    int slots_buf[P2P_SCRATCH];
    MPI_Status status_buf[P2P_SCRATCH];
    int *slots;
    MPI_Status *statuses;
    void *heap;
} p2p_scratch_t;

/**
 * Look up every request of the array; set up statuses if the caller
 * ignores them. @return the number of tracked requests found (0: the
 * caller just calls PMPI), -1 on allocation failure (same).
 * Context: RAISE.
 */
static int p2p_scratch_init(p2p_scratch_t *sc, int count, MPI_Request reqs[],
                            MPI_Status *user_statuses)
{
    int found = 0;

    sc->heap = NULL;
    sc->slots = sc->slots_buf;
    sc->statuses = sc->status_buf;
    if (count > P2P_SCRATCH) {
        sc->heap = malloc((size_t) count * (sizeof(int) + sizeof(MPI_Status)));
        if (NULL == sc->heap) {
            return -1;
        }
        sc->statuses = (MPI_Status *) sc->heap;
        sc->slots = (int *) (sc->statuses + count);
    }
    if (MPI_STATUSES_IGNORE != user_statuses) {
        sc->statuses = user_statuses;
    }
    for (int i = 0; i < count; ++i) {
        sc->slots[i] = (MPI_REQUEST_NULL != reqs[i]) ? p2p_lookup(reqs[i]) : -1;
        found += (0 <= sc->slots[i]);
    }
    if (0 == found) {
        free(sc->heap);
        sc->heap = NULL;
    }
    return found;
}

int MPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status *array_of_statuses)
{
    p2p_scratch_t sc;
    int64_t done;
    int rc;

    if (OPAL_LIKELY(!p2p_table_used())) {
        return PMPI_Waitall(count, array_of_requests, array_of_statuses);
    }
    if (0 >= p2p_scratch_init(&sc, count, array_of_requests, array_of_statuses)) {
        return PMPI_Waitall(count, array_of_requests, array_of_statuses);
    }
    rc = PMPI_Waitall(count, array_of_requests, sc.statuses);
    if (MPI_SUCCESS == rc || MPI_ERR_IN_STATUS == rc) {
        done = p2p_now(P2P_SEND);
        for (int i = 0; i < count; ++i) {
            /* With MPI_ERR_IN_STATUS, MPI_ERR_PENDING marks the ones not
             * completed: they stay tracked. */
            if (0 > sc.slots[i]) {
                continue;
            }
            if (MPI_SUCCESS == rc) {
                p2p_complete(sc.slots[i], &sc.statuses[i], true, done);
            } else if (MPI_ERR_PENDING != sc.statuses[i].MPI_ERROR) {
                p2p_complete(sc.slots[i], &sc.statuses[i],
                             MPI_SUCCESS == sc.statuses[i].MPI_ERROR, done);
            }
        }
    }
    free(sc.heap);
    return rc;
}

int MPI_Testall(int count, MPI_Request array_of_requests[], int *flag,
                MPI_Status array_of_statuses[])
{
    p2p_scratch_t sc;
    int64_t done;
    int rc;

    if (OPAL_LIKELY(!p2p_table_used())) {
        return PMPI_Testall(count, array_of_requests, flag, array_of_statuses);
    }
    if (0 >= p2p_scratch_init(&sc, count, array_of_requests, array_of_statuses)) {
        return PMPI_Testall(count, array_of_requests, flag, array_of_statuses);
    }
    rc = PMPI_Testall(count, array_of_requests, flag, sc.statuses);
    if (MPI_SUCCESS == rc && *flag) {
        done = p2p_now(P2P_SEND);
        for (int i = 0; i < count; ++i) {
            if (0 <= sc.slots[i]) {
                p2p_complete(sc.slots[i], &sc.statuses[i], true, done);
            }
        }
    }
    free(sc.heap);
    return rc;
}

/** Shared body of Waitany/Testany once PMPI returned. Context: RAISE. */
static void p2p_any_done(int s, MPI_Status *status)
{
    if (0 <= s) {
        p2p_complete(s, status, true, p2p_now(p2p_slots[s].kind));
    }
}

int MPI_Waitany(int count, MPI_Request array_of_requests[], int *index, MPI_Status *status)
{
    p2p_scratch_t sc;
    MPI_Status local;
    int rc;

    if (OPAL_LIKELY(!p2p_table_used())) {
        return PMPI_Waitany(count, array_of_requests, index, status);
    }
    if (0 >= p2p_scratch_init(&sc, count, array_of_requests, MPI_STATUSES_IGNORE)) {
        return PMPI_Waitany(count, array_of_requests, index, status);
    }
    if (MPI_STATUS_IGNORE == status) {
        status = &local;
    }
    rc = PMPI_Waitany(count, array_of_requests, index, status);
    if (MPI_SUCCESS == rc && MPI_UNDEFINED != *index) {
        p2p_any_done(sc.slots[*index], status);
    }
    free(sc.heap);
    return rc;
}

int MPI_Testany(int count, MPI_Request array_of_requests[], int *index, int *flag,
                MPI_Status *status)
{
    p2p_scratch_t sc;
    MPI_Status local;
    int rc;

    if (OPAL_LIKELY(!p2p_table_used())) {
        return PMPI_Testany(count, array_of_requests, index, flag, status);
    }
    if (0 >= p2p_scratch_init(&sc, count, array_of_requests, MPI_STATUSES_IGNORE)) {
        return PMPI_Testany(count, array_of_requests, index, flag, status);
    }
    if (MPI_STATUS_IGNORE == status) {
        status = &local;
    }
    rc = PMPI_Testany(count, array_of_requests, index, flag, status);
    if (MPI_SUCCESS == rc && *flag && MPI_UNDEFINED != *index) {
        p2p_any_done(sc.slots[*index], status);
    }
    free(sc.heap);
    return rc;
}

/** Shared body of Waitsome/Testsome. Context: RAISE. */
static int p2p_some(bool wait, int incount, MPI_Request reqs[], int *outcount, int indices[],
                    MPI_Status statuses[])
{
    p2p_scratch_t sc;
    int64_t done;
    int rc;

    if (0 >= p2p_scratch_init(&sc, incount, reqs, statuses)) {
        return wait ? PMPI_Waitsome(incount, reqs, outcount, indices, statuses)
                    : PMPI_Testsome(incount, reqs, outcount, indices, statuses);
    }
    /* The statuses are indexed by completion order, not by request. */
    rc = wait ? PMPI_Waitsome(incount, reqs, outcount, indices, sc.statuses)
              : PMPI_Testsome(incount, reqs, outcount, indices, sc.statuses);
    if ((MPI_SUCCESS == rc || MPI_ERR_IN_STATUS == rc) && MPI_UNDEFINED != *outcount) {
        done = p2p_now(P2P_SEND);
        for (int k = 0; k < *outcount; ++k) {
            int i = indices[k];
            if (0 <= sc.slots[i]) {
                p2p_complete(sc.slots[i], &sc.statuses[k],
                             MPI_SUCCESS == rc || MPI_SUCCESS == sc.statuses[k].MPI_ERROR, done);
            }
        }
    }
    free(sc.heap);
    return rc;
}

int MPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount,
                 int array_of_indices[], MPI_Status array_of_statuses[])
{
    if (OPAL_LIKELY(!p2p_table_used())) {
        return PMPI_Waitsome(incount, array_of_requests, outcount, array_of_indices,
                             array_of_statuses);
    }
    return p2p_some(true, incount, array_of_requests, outcount, array_of_indices,
                    array_of_statuses);
}

int MPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount,
                 int array_of_indices[], MPI_Status array_of_statuses[])
{
    if (OPAL_LIKELY(!p2p_table_used())) {
        return PMPI_Testsome(incount, array_of_requests, outcount, array_of_indices,
                             array_of_statuses);
    }
    return p2p_some(false, incount, array_of_requests, outcount, array_of_indices,
                    array_of_statuses);
}
