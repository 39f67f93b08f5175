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
 * entry; persistent, the MPI_Start/Startall; a receive of a matched
 * message (MPI_Mrecv blocking, MPI_Imrecv nonblocking), the entry of the
 * MPI_Mprobe, or the return of the MPI_Improbe, that matched it (where the
 * application waited for the message; without such a probe seen with a
 * listener, the Mrecv/Imrecv's entry). complete_time: when the
 * wrapper saw the completion (after the PMPI call returned; one clock read
 * per Wait/Test call shared by the requests it completed, and none when it
 * raises nothing). A nonblocking request that is already complete when its
 * I-call returns is raised there, with complete_time == start_time (no
 * second clock read). The record's own timestamp is complete_time
 * (mca_base_event_raise_stamped(): the same read): so a completion costs
 * at most one clock read besides its start time, a request complete at its
 * start one read in all, and a request whose event nobody listens to none.
 *
 * Covered: Send, Ssend, Bsend, Rsend, Recv, Sendrecv, Sendrecv_replace;
 * Isend, Issend, Ibsend, Irsend, Irecv; Send_init, Ssend_init, Bsend_init,
 * Rsend_init, Recv_init with Start/Startall; Mprobe and Improbe with Mrecv
 * and Imrecv; completion by Wait, Waitall, Waitany, Waitsome, Test,
 * Testall, Testany, Testsome, and by Request_free of a completed request.
 * Probe, Iprobe, Cancel and Request_get_status complete nothing and raise
 * nothing. Not raised: MPI_PROC_NULL peers (MPI_MESSAGE_NO_PROC), cancelled
 * requests, requests completed with an error. Not covered: partitioned and
 * collective traffic, the Fortran bindings, and nonblocking or persistent
 * requests started while nobody listened (their start was never seen).
 *
 * Identity: an MPI_Request value does not name one operation. Open MPI
 * 4.1's ob1 returns the one static ompi_request_empty for every send it
 * completes inside the I-call (small eager messages, MPI_PROC_NULL), and
 * pml/ucx its one completed_send_req likewise, so an application holds the
 * same value for many operations at once; and a request object freed by a
 * Wait/Test call goes back to libmpi's free list, to be handed to the next
 * operation, possibly on another thread. Hence:
 * - A request complete when its I-call returns (REQUEST_COMPLETE: the
 *   PML's own flag, no progress call) is raised at once and never
 *   tracked. Only requests still pending are tracked; libmpi cannot hand
 *   out a pending request object again before the application completes
 *   or frees it, so while tracked its pointer names one operation.
 * - Persistent requests are tracked from their init (a persistent request
 *   is its own object for its whole life).
 * - A message matched by a probe seen with a listener is tracked, keyed by
 *   the MPI_Message, until its Mrecv/Imrecv takes the entry out (before
 *   the PMPI call, which recycles the message object); an Imrecv request
 *   is then handled as an Irecv's.
 * - The Wait/Test/Request_free wrappers claim the entries of the requests
 *   they pass to PMPI before the call (the key becomes P2P_BUSY, which no
 *   lookup matches), then consume the entry of each request the call
 *   completed and publish the others again. Once libmpi may reuse a
 *   request object, no lookup finds its old entry, and each entry is
 *   consumed at most once per call even if its request appears twice.
 *   A nonblocking request counts as completed by a call when the call
 *   freed its handle (MPI_REQUEST_NULL); a persistent one when the call
 *   says so (return code, flag, index, statuses).
 * - An entry found under a pointer that an I-call just returned again is
 *   stale: its request completed where no wrapper saw it (PMPI_Wait called
 *   directly, the Fortran bindings). It is counted as dropped and reused.
 *
 * Request tracking: a preallocated open-addressing table keyed by the
 * request pointer (P2P_TABLE_SIZE slots; a request may sit in one of
 * P2P_PROBE slots after its hash). Nothing is allocated on the fast path,
 * listening or not (except one scratch array in Wait/Test-all/some/any
 * calls on more than P2P_SCRATCH requests while the table is in use).
 * Counted as one dropped instance for every registration of the event
 * (mca_base_event_count_dropped(), so the tool's dropped handler sees it)
 * and in the test-only stats, never silent: a request whose window is full
 * (not tracked); an active request freed by MPI_Request_free before it
 * completed (its completion is never seen); a stale entry; the requests of
 * an array call whose scratch array could not be allocated. A persistent
 * request that finds no slot at its init counts one drop then; its later
 * starts are not seen (like those of a request made before the listener).
 * A probed message that finds no slot is no drop: its receive is still
 * raised, started at its Mrecv/Imrecv.
 *
 * Gates: the send (recv) wrappers read the send (recv) event's gate first,
 * one relaxed load, and call PMPI directly when it is closed (Mrecv and
 * Imrecv read the table's occupancy too, so that a probe's entry leaves
 * the table after the listener went away). The
 * Wait/Test/Start/Request_free wrappers read the table's occupancy count
 * first (one relaxed load): when no request is tracked they call PMPI
 * directly; when the listener went away with requests still tracked, they
 * keep looking them up so the table empties.
 *
 * Threads: free slots are claimed by CAS (0 -> P2P_BUSY), filled, then
 * published with a release store of the request pointer; lookups acquire.
 * While an entry is keyed by a request, only the thread completing (or
 * freeing) that request touches it (MPI forbids two threads completing one
 * request): its claim to P2P_BUSY is a plain store, ordered before libmpi
 * can recycle the request object by a release fence (p2p_claims_done()).
 */

#include "ompi_config.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "mpi.h"
#include "ompi/communicator/communicator.h"
#include "ompi/message/message.h"
#include "ompi/proc/proc.h"
#include "ompi/request/request.h"
#include "ompi/runtime/ompi_evt_payloads.h"
#include "ompi/runtime/ompi_evt_pmpi_next.h"
#include "ompi/runtime/ompi_evt_producers.h"

/** Slots in the request table (power of two). 8192 outstanding tracked
 *  requests per process; keys are 64 KiB, the rest 384 KiB, static. */
#define P2P_TABLE_SIZE 8192
/** Slots probed after a request's hash: bounds every lookup (2 cache lines
 *  of keys). */
#define P2P_PROBE 16
/** Requests handled on the stack by the *all / *some / *any wrappers. */
#define P2P_SCRATCH 64
/** Key of a slot being filled, or claimed by the thread completing its
 *  request: never a request pointer, so no lookup matches it. */
#define P2P_BUSY ((uintptr_t) 1)
/** Waitsome/Testsome: marks, in the scratch, a slot whose request the call
 *  completed (slot numbers stay below P2P_TABLE_SIZE). */
#define P2P_DONE (1 << 30)

_Static_assert(0 == (P2P_TABLE_SIZE & (P2P_TABLE_SIZE - 1)), "table size is a power of two");
_Static_assert(P2P_TABLE_SIZE < P2P_DONE, "P2P_DONE is above every slot number");

enum { P2P_SEND = 0, P2P_RECV = 1 };
enum {
    P2P_MODE_BLOCKING = OMPI_EVT_P2P_MODE_BLOCKING,
    P2P_MODE_NONBLOCKING = OMPI_EVT_P2P_MODE_NONBLOCKING,
    P2P_MODE_PERSISTENT = OMPI_EVT_P2P_MODE_PERSISTENT,
    /** Not a payload mode: the entry of a message matched by
     *  MPI_Mprobe/MPI_Improbe, keeping the probe's time for its receive. */
    P2P_MODE_PROBED = 3
};

typedef struct {
    int64_t start;
    uint64_t bytes;
    MPI_Comm comm;
    int32_t peer; /**< send: comm rank of dest; recv: unused (status) */
    int32_t tag;
    uint8_t kind;    /**< P2P_SEND, P2P_RECV */
    uint8_t mode;    /**< P2P_MODE_* (P2P_MODE_PROBED: keyed by a message) */
    uint8_t started; /**< persistent: started with a listener, not completed */
} p2p_slot_t;

/** Keys apart from the data so a probe touches few cache lines. */
static _Atomic uintptr_t p2p_keys[P2P_TABLE_SIZE];
static p2p_slot_t p2p_slots[P2P_TABLE_SIZE];
/** Occupied slots: the Wait/Test gate. */
static atomic_long p2p_in_use = 0;
static atomic_ulong p2p_tracked = 0;
static atomic_ulong p2p_dropped = 0;
static atomic_ulong p2p_at_start = 0;

static mca_base_event_t *p2p_events[2] = {NULL, NULL};

typedef ompi_evt_p2p_payload_t p2p_payload_t;

/* Context: INIT, ANY. */
int ompi_evt_p2p_events_register(void)
{
    static const char *const names[2] = {"mpi.p2p_send_complete", "mpi.p2p_recv_complete"};
    static const char *const descs[2]
        = {"A point-to-point send completed: {comm, bytes, start_time, complete_time, peer "
           "(world rank), tag, mode (0 blocking, 1 nonblocking, 2 persistent), comm_peer}",
           "A point-to-point receive completed: {comm, bytes, start_time, complete_time, peer "
           "(world rank), tag, mode (0 blocking, 1 nonblocking, 2 persistent), comm_peer}"};
    const mca_base_var_type_t types[8] = {MCA_BASE_VAR_TYPE_UINT64_T, MCA_BASE_VAR_TYPE_UINT64_T,
                                          MCA_BASE_VAR_TYPE_INT64_T,  MCA_BASE_VAR_TYPE_INT64_T,
                                          MCA_BASE_VAR_TYPE_INT32_T,  MCA_BASE_VAR_TYPE_INT32_T,
                                          MCA_BASE_VAR_TYPE_INT32_T,  MCA_BASE_VAR_TYPE_INT32_T};
    const ptrdiff_t offsets[8] = {offsetof(p2p_payload_t, comm),
                                  offsetof(p2p_payload_t, bytes),
                                  offsetof(p2p_payload_t, start_time),
                                  offsetof(p2p_payload_t, complete_time),
                                  offsetof(p2p_payload_t, peer),
                                  offsetof(p2p_payload_t, tag),
                                  offsetof(p2p_payload_t, mode),
                                  offsetof(p2p_payload_t, comm_peer)};
    /* the payload struct's member names (these events are this project's) */
    static const char *const elem_names[8] = {"comm", "bytes", "start_time", "complete_time",
                                              "peer", "tag",   "mode",       "comm_peer"};
    mca_base_event_source_t *source;
    int ei;

    source = ompi_evt_ompi_source();
    if (NULL == source) {
        return OPAL_ERR_NOT_AVAILABLE;
    }
    for (int k = 0; k < 2; ++k) {
        ei = mca_base_event_register_ptr("ompi", NULL, NULL, names[k], descs[k], OPAL_INFO_LVL_5, 8,
                                         types, offsets, NULL, MCA_BASE_VAR_BIND_NO_OBJECT, 0,
                                         source, NULL, &p2p_events[k]);
        if (0 > ei) {
            return ei;
        }
        ei = mca_base_event_set_element_names(p2p_events[k], elem_names);
        if (OPAL_SUCCESS != ei) {
            return ei;
        }
    }
    return OPAL_SUCCESS;
}

/* Context: ANY. */
void ompi_evt_p2p_test_stats(ompi_evt_p2p_stats_t *stats)
{
    stats->tracked = atomic_load_explicit(&p2p_tracked, memory_order_relaxed);
    stats->dropped = atomic_load_explicit(&p2p_dropped, memory_order_relaxed);
    stats->in_use = (uint64_t) atomic_load_explicit(&p2p_in_use, memory_order_relaxed);
    stats->at_start = atomic_load_explicit(&p2p_at_start, memory_order_relaxed);
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
    return (int64_t) mca_base_event_source_now(p2p_events[kind]->source);
}

/** *@p t, read from the clock on first use (0: not read yet), so that a
 *  Wait/Test call that raises nothing reads no clock. Context: RAISE. */
static inline int64_t p2p_done_time(int64_t *t, int kind)
{
    if (0 == *t) {
        *t = p2p_now(kind);
    }
    return *t;
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

    if ((uintptr_t) req <= P2P_BUSY) {
        return -1; /* a NULL handle (erroneous) would match a free slot */
    }
    for (int i = 0; i < P2P_PROBE; ++i) {
        size_t s = (h + i) & (P2P_TABLE_SIZE - 1);
        /* acquire: pairs with the release stores in p2p_track() and
         * p2p_unclaim(); the slot's data is visible once its key is. */
        if ((uintptr_t) req == atomic_load_explicit(&p2p_keys[s], memory_order_acquire)) {
            return (int) s;
        }
    }
    return -1;
}

/**
 * Claim the entry of @p req, if tracked, for the calling thread, which is
 * about to pass @p req to a PMPI completion or free call: lookups no longer
 * find it. @return its slot, or -1. Context: RAISE.
 */
static inline int p2p_claim(MPI_Request req)
{
    int s = p2p_lookup(req);

    if (0 <= s) {
        /* relaxed: while keyed by req, the slot is touched only by the
         * thread completing req (MPI allows one); p2p_claims_done() orders
         * the claim before libmpi can recycle req. */
        atomic_store_explicit(&p2p_keys[s], P2P_BUSY, memory_order_relaxed);
    }
    return s;
}

/** After the claims, before the PMPI call that may free their requests.
 *  Context: RAISE. */
static inline void p2p_claims_done(void)
{
    /* release: the claims are stored before anything the PMPI call stores,
     * in particular before the store by which libmpi's free list publishes
     * a freed request object to the thread it hands it to next; that
     * thread's p2p_lookup() of the reused pointer (acquire, after it got
     * the object through the free list) cannot find the old entry. */
    atomic_thread_fence(memory_order_release);
}

/** Publish the claimed slot @p s again under @p req: still pending, or an
 *  inactive persistent request. Context: RAISE (the claiming thread). */
static inline void p2p_unclaim(int s, MPI_Request req)
{
    /* release: our writes to the slot (started, start) happen before a
     * later lookup's reads; pairs with the acquire in p2p_lookup(). */
    atomic_store_explicit(&p2p_keys[s], (uintptr_t) req, memory_order_release);
}

/** Free slot @p s; the occupancy count is left to the caller
 *  (p2p_unoccupy()). Context: RAISE (the claiming thread). */
static inline void p2p_release_key(int s)
{
    /* release: our reads of the slot happen before a new owner's writes;
     * pairs with the CAS (acquire) in p2p_track(). */
    atomic_store_explicit(&p2p_keys[s], 0, memory_order_release);
}

/** Take @p n freed slots off the occupancy count: once per Wait/Test call,
 *  not once per request (a locked instruction each). Until then the count
 *  is only higher than the table's (the gate stays open a little longer).
 *  Context: RAISE. */
static inline void p2p_unoccupy(long n)
{
    if (0 != n) {
        atomic_fetch_sub_explicit(&p2p_in_use, n, memory_order_relaxed);
    }
}

/** Release slot @p s. Context: RAISE (the claiming thread). */
static inline void p2p_release(int s)
{
    p2p_release_key(s);
    p2p_unoccupy(1);
}

/** Bump a test-only statistic of the hot path: a relaxed load and store,
 *  no locked instruction (exact for one thread; concurrent threads may
 *  lose increments: statistics only). Context: RAISE. */
static inline void p2p_stat_inc(atomic_ulong *c)
{
    atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + 1,
                          memory_order_relaxed);
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

/** True when the operation in @p slot was started and not yet completed
 *  (a nonblocking request always; a persistent one between a Start seen
 *  with a listener and its completion). Context: RAISE. */
static inline bool p2p_pending(const p2p_slot_t *slot)
{
    return P2P_MODE_PERSISTENT != slot->mode || 0 != slot->started;
}

/**
 * Enter @p req in the table. An entry already keyed by @p req is stale
 * (see the file comment): counted as dropped if its operation was pending,
 * and its slot reused. @return false when no slot was free (nothing
 * tracked; the caller says what that loses). Context: RAISE.
 */
static bool p2p_track(MPI_Request req, int kind, int mode, int started, int64_t start,
                      uint64_t bytes, MPI_Comm comm, int peer, int tag)
{
    size_t h = p2p_hash(req);
    int s = p2p_lookup(req);
    p2p_slot_t *slot;

    if (0 <= s) {
        uintptr_t expected = (uintptr_t) req;
        /* acquire: pairs with the release store that published the entry */
        if (atomic_compare_exchange_strong_explicit(&p2p_keys[s], &expected, P2P_BUSY,
                                                    memory_order_acquire, memory_order_relaxed)) {
            if (p2p_pending(&p2p_slots[s])) {
                p2p_count_drop(p2p_slots[s].kind, p2p_slots[s].start);
            }
        } else {
            s = -1;
        }
    }
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
            return false;
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
    p2p_stat_inc(&p2p_tracked);
    /* release: publishes the slot's data; pairs with the acquire in
     * p2p_lookup(). */
    atomic_store_explicit(&p2p_keys[s], (uintptr_t) req, memory_order_release);
    return true;
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
    /* stamped with the completion time: the one clock read of this
     * completion (none at all when it was the start, done at start) */
    (void) mca_base_event_raise_stamped(p2p_events[kind], NULL, NULL, &payload,
                                        MCA_BASE_EVENT_CB_REQUIRE_NONE, done);
    /* the return of an MPI call: drain when the ring fills or records have
     * waited a while for a point where the tool may call MPI (batched, not
     * per event; the "ompi" source is on the default clock) */
    mca_base_event_call_return(false, done);
}

/** Bytes of @p count elements of @p type. Context: RAISE. */
static inline uint64_t p2p_bytes(int count, MPI_Datatype type)
{
    MPI_Count size = 0;

    (void) PMPI_Type_size_x(type, &size);
    return (uint64_t) count * (uint64_t) size;
}

/**
 * Raise the completion of the operation described by @p slot, completed
 * with @p status (NULL: the call did not report it; nothing raised); @p ok
 * false when it completed with an error (nothing raised). @p done: the
 * completion time, read on first need. Context: RAISE.
 */
static void p2p_report(const p2p_slot_t *slot, const MPI_Status *status, bool ok, int64_t *done)
{
    int kind = slot->kind;

    if (!ok || NULL == status || status->_cancelled || !p2p_listening(kind)) {
        return;
    }
    if (P2P_SEND == kind) {
        p2p_raise(kind, slot->comm, slot->bytes, slot->start, p2p_done_time(done, kind), slot->peer,
                  slot->tag, slot->mode);
    } else {
        p2p_raise(kind, slot->comm, (uint64_t) status->_ucount, slot->start,
                  p2p_done_time(done, kind), status->MPI_SOURCE, status->MPI_TAG, slot->mode);
    }
}

/**
 * A PMPI call completed the request of the claimed slot @p s (@p req: its
 * handle, needed only for a persistent request, which stays tracked,
 * inactive). Raises the completion of a pending operation (see
 * p2p_report()) and frees the slot of a nonblocking one. @return the
 * slots freed (0 or 1), for the caller's p2p_unoccupy(). Context: RAISE
 * (the claiming thread).
 */
static long p2p_complete(int s, MPI_Request req, const MPI_Status *status, bool ok, int64_t *done)
{
    p2p_slot_t slot = p2p_slots[s]; /* a copy: once released, the slot may be reused */
    long freed = 0;

    if (P2P_MODE_PERSISTENT == slot.mode) {
        p2p_slots[s].started = 0;
        p2p_unclaim(s, req);
    } else {
        p2p_release_key(s);
        freed = 1;
    }
    if (p2p_pending(&slot)) {
        p2p_report(&slot, status, ok, done);
    }
    return freed;
}

/**
 * After a PMPI completion call: true when the request of claimed slot @p s
 * is still pending (or is an inactive persistent request) and keeps its
 * entry. A nonblocking request is completed when the call freed its handle
 * (@p handle is MPI_REQUEST_NULL); a persistent one when the call reports
 * it completed (@p reported). Context: RAISE.
 */
static inline bool p2p_stays(int s, MPI_Request handle, bool reported)
{
    return P2P_MODE_PERSISTENT == p2p_slots[s].mode ? !reported : MPI_REQUEST_NULL != handle;
}

/**
 * Settle the claimed slot @p s after the PMPI call: publish it again if
 * its request stays (p2p_stays()), else complete it. @p status: the
 * request's status if the call reported it completed, else NULL.
 * Context: RAISE (the claiming thread).
 */
static void p2p_settle(int s, MPI_Request handle, const MPI_Status *status, bool ok, int64_t *done)
{
    if (p2p_stays(s, handle, NULL != status)) {
        p2p_unclaim(s, handle);
    } else {
        p2p_unoccupy(p2p_complete(s, handle, status, ok, done));
    }
}

/**
 * @p req, just returned by a nonblocking I-call of an operation started at
 * @p start, is already complete (see the file comment): report it now,
 * untracked, completed at @p done (== start when the I-call's entry is the
 * start: no second clock read). Context: RAISE.
 */
static void p2p_done_at_start(MPI_Request req, int kind, int64_t start, int64_t done,
                              uint64_t bytes, MPI_Comm comm, int peer, int tag)
{
    const p2p_slot_t slot = {.start = start,
                             .bytes = bytes,
                             .comm = comm,
                             .peer = peer,
                             .tag = tag,
                             .kind = (uint8_t) kind,
                             .mode = P2P_MODE_NONBLOCKING,
                             .started = 1};

    p2p_stat_inc(&p2p_at_start);
    /* acquire: the status was written before the request was marked
     * complete; pairs with the CAS (or store after the PML's own barrier)
     * in ompi_request_complete(). */
    opal_atomic_rmb();
    p2p_report(&slot, &req->req_status, MPI_SUCCESS == req->req_status.MPI_ERROR, &done);
}

/**
 * The application frees the request of claimed slot @p s with
 * MPI_Request_free: a completed operation is raised now, one still
 * pending counted as dropped (its completion will never be seen).
 * Releases the slot. Context: RAISE (the claiming thread).
 */
static void p2p_freed(int s, MPI_Request req)
{
    p2p_slot_t slot = p2p_slots[s];
    int64_t done = 0;

    p2p_release(s);
    if (!p2p_pending(&slot)) {
        return;
    }
    if (!REQUEST_COMPLETE(req)) {
        p2p_count_drop(slot.kind, slot.start);
        return;
    }
    /* acquire: as in p2p_done_at_start() */
    opal_atomic_rmb();
    p2p_report(&slot, &req->req_status, MPI_SUCCESS == req->req_status.MPI_ERROR, &done);
}

/**
 * The application passes @p req to a call whose completions cannot be
 * followed (no scratch memory): a pending operation counts as dropped now;
 * a nonblocking request leaves the table, a persistent one stays,
 * inactive. Context: RAISE.
 */
static void p2p_abandon(MPI_Request req)
{
    int s = p2p_claim(req);
    p2p_slot_t *slot;

    if (0 > s) {
        return;
    }
    slot = &p2p_slots[s];
    if (p2p_pending(slot)) {
        p2p_count_drop(slot->kind, slot->start);
    }
    if (P2P_MODE_PERSISTENT == slot->mode) {
        slot->started = 0;
        p2p_unclaim(s, req);
    } else {
        p2p_release(s);
    }
}

/* ------------------------------------------------------------------------
 * Blocking calls
 * ------------------------------------------------------------------------ */

/** Shared body of the blocking sends. Context: RAISE. */
#define P2P_BLOCKING_SEND(call)                                                                 \
    do {                                                                                        \
        int64_t t0_;                                                                            \
        int rc_;                                                                                \
        if (OPAL_LIKELY(!p2p_listening(P2P_SEND))) {                                            \
            return call;                                                                        \
        }                                                                                       \
        t0_ = p2p_now(P2P_SEND);                                                                \
        rc_ = call;                                                                             \
        if (MPI_SUCCESS == rc_) {                                                               \
            p2p_raise(P2P_SEND, comm, p2p_bytes(count, datatype), t0_, p2p_now(P2P_SEND), dest, \
                      tag, P2P_MODE_BLOCKING);                                                  \
        }                                                                                       \
        return rc_;                                                                             \
    } while (0)

static int evt_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm)
{
    P2P_BLOCKING_SEND(EVT_CALL_NEXT(Send, (buf, count, datatype, dest, tag, comm)));
}

static int evt_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                     MPI_Comm comm)
{
    P2P_BLOCKING_SEND(EVT_CALL_NEXT(Ssend, (buf, count, datatype, dest, tag, comm)));
}

static int evt_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                     MPI_Comm comm)
{
    P2P_BLOCKING_SEND(EVT_CALL_NEXT(Bsend, (buf, count, datatype, dest, tag, comm)));
}

static int evt_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                     MPI_Comm comm)
{
    P2P_BLOCKING_SEND(EVT_CALL_NEXT(Rsend, (buf, count, datatype, dest, tag, comm)));
}

static int evt_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                    MPI_Status *status)
{
    MPI_Status local;
    int64_t t0;
    int rc;

    if (OPAL_LIKELY(!p2p_listening(P2P_RECV))) {
        return EVT_CALL_NEXT(Recv, (buf, count, datatype, source, tag, comm, status));
    }
    if (MPI_STATUS_IGNORE == status) {
        status = &local;
    }
    t0 = p2p_now(P2P_RECV);
    rc = EVT_CALL_NEXT(Recv, (buf, count, datatype, source, tag, comm, status));
    if (MPI_SUCCESS == rc) {
        p2p_raise(P2P_RECV, comm, (uint64_t) status->_ucount, t0, p2p_now(P2P_RECV),
                  status->MPI_SOURCE, status->MPI_TAG, P2P_MODE_BLOCKING);
    }
    return rc;
}

static int evt_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                        int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                        int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    bool send_on = p2p_listening(P2P_SEND), recv_on = p2p_listening(P2P_RECV);
    MPI_Status local;
    int64_t t0, t1;
    int rc;

    if (OPAL_LIKELY(!send_on && !recv_on)) {
        return EVT_CALL_NEXT(Sendrecv, (sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                                        recvcount, recvtype, source, recvtag, comm, status));
    }
    if (MPI_STATUS_IGNORE == status) {
        status = &local;
    }
    t0 = p2p_now(send_on ? P2P_SEND : P2P_RECV);
    rc = EVT_CALL_NEXT(Sendrecv, (sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                                  recvtype, source, recvtag, comm, status));
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

static int evt_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                                int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    bool send_on = p2p_listening(P2P_SEND), recv_on = p2p_listening(P2P_RECV);
    MPI_Status local;
    int64_t t0, t1;
    int rc;

    if (OPAL_LIKELY(!send_on && !recv_on)) {
        return EVT_CALL_NEXT(Sendrecv_replace,
                             (buf, count, datatype, dest, sendtag, source, recvtag, comm, status));
    }
    if (MPI_STATUS_IGNORE == status) {
        status = &local;
    }
    t0 = p2p_now(send_on ? P2P_SEND : P2P_RECV);
    rc = EVT_CALL_NEXT(Sendrecv_replace,
                       (buf, count, datatype, dest, sendtag, source, recvtag, comm, status));
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

/** Shared body of the nonblocking and persistent send/recv inits: a
 *  nonblocking request already complete is raised at once, any other is
 *  tracked. Context: RAISE. */
#define P2P_START(call, kind, mode, started, bytes, peer)                                    \
    do {                                                                                     \
        int64_t t0_;                                                                         \
        int rc_;                                                                             \
        if (OPAL_LIKELY(!p2p_listening(kind))) {                                             \
            return call;                                                                     \
        }                                                                                    \
        t0_ = p2p_now(kind);                                                                 \
        rc_ = call;                                                                          \
        if (MPI_SUCCESS != rc_ || MPI_REQUEST_NULL == *request) {                            \
            return rc_;                                                                      \
        }                                                                                    \
        if (P2P_MODE_NONBLOCKING == (mode) && REQUEST_COMPLETE(*request)) {                  \
            p2p_done_at_start(*request, kind, t0_, t0_, bytes, comm, peer, tag);             \
        } else if (!p2p_track(*request, kind, mode, started, t0_, bytes, comm, peer, tag)) { \
            p2p_count_drop(kind, t0_);                                                       \
        }                                                                                    \
        return rc_;                                                                          \
    } while (0)

static int evt_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                     MPI_Comm comm, MPI_Request *request)
{
    P2P_START(EVT_CALL_NEXT(Isend, (buf, count, datatype, dest, tag, comm, request)), P2P_SEND,
              P2P_MODE_NONBLOCKING, 1, p2p_bytes(count, datatype), dest);
}

static int evt_Issend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                      MPI_Comm comm, MPI_Request *request)
{
    P2P_START(EVT_CALL_NEXT(Issend, (buf, count, datatype, dest, tag, comm, request)), P2P_SEND,
              P2P_MODE_NONBLOCKING, 1, p2p_bytes(count, datatype), dest);
}

static int evt_Ibsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                      MPI_Comm comm, MPI_Request *request)
{
    P2P_START(EVT_CALL_NEXT(Ibsend, (buf, count, datatype, dest, tag, comm, request)), P2P_SEND,
              P2P_MODE_NONBLOCKING, 1, p2p_bytes(count, datatype), dest);
}

static int evt_Irsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                      MPI_Comm comm, MPI_Request *request)
{
    P2P_START(EVT_CALL_NEXT(Irsend, (buf, count, datatype, dest, tag, comm, request)), P2P_SEND,
              P2P_MODE_NONBLOCKING, 1, p2p_bytes(count, datatype), dest);
}

static int evt_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                     MPI_Comm comm, MPI_Request *request)
{
    P2P_START(EVT_CALL_NEXT(Irecv, (buf, count, datatype, source, tag, comm, request)), P2P_RECV,
              P2P_MODE_NONBLOCKING, 1, 0, source);
}

static int evt_Send_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                         MPI_Comm comm, MPI_Request *request)
{
    P2P_START(EVT_CALL_NEXT(Send_init, (buf, count, datatype, dest, tag, comm, request)), P2P_SEND,
              P2P_MODE_PERSISTENT, 0, p2p_bytes(count, datatype), dest);
}

static int evt_Ssend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                          MPI_Comm comm, MPI_Request *request)
{
    P2P_START(EVT_CALL_NEXT(Ssend_init, (buf, count, datatype, dest, tag, comm, request)), P2P_SEND,
              P2P_MODE_PERSISTENT, 0, p2p_bytes(count, datatype), dest);
}

static int evt_Bsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                          MPI_Comm comm, MPI_Request *request)
{
    P2P_START(EVT_CALL_NEXT(Bsend_init, (buf, count, datatype, dest, tag, comm, request)), P2P_SEND,
              P2P_MODE_PERSISTENT, 0, p2p_bytes(count, datatype), dest);
}

static int evt_Rsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                          MPI_Comm comm, MPI_Request *request)
{
    P2P_START(EVT_CALL_NEXT(Rsend_init, (buf, count, datatype, dest, tag, comm, request)), P2P_SEND,
              P2P_MODE_PERSISTENT, 0, p2p_bytes(count, datatype), dest);
}

static int evt_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                         MPI_Comm comm, MPI_Request *request)
{
    P2P_START(EVT_CALL_NEXT(Recv_init, (buf, count, datatype, source, tag, comm, request)),
              P2P_RECV, P2P_MODE_PERSISTENT, 0, 0, source);
}

/* ------------------------------------------------------------------------
 * Matched probes: MPI_Mprobe/MPI_Improbe, then MPI_Mrecv/MPI_Imrecv
 * ------------------------------------------------------------------------ */

/** Table key of matched message @p msg. A live message and a live request
 *  are distinct objects (each recycled only through its own free list), so
 *  their pointers never name each other's entries. Context: ANY. */
static inline MPI_Request p2p_message_key(MPI_Message msg)
{
    return (MPI_Request) (void *) msg;
}

/** True when @p msg is a message matched by a probe (not MPI_MESSAGE_NULL,
 *  nor MPI_MESSAGE_NO_PROC, the message of an MPI_PROC_NULL source, whose
 *  receive raises nothing). Context: RAISE. */
static inline bool p2p_message_real(MPI_Message msg)
{
    return NULL != msg && MPI_MESSAGE_NULL != msg && MPI_MESSAGE_NO_PROC != msg;
}

/**
 * A probe of @p comm seen with a listener matched @p msg at @p t: keep @p t
 * as the start of its receive (the wait for the message is in the probe).
 * Without a free slot the receive starts at its own call instead; nothing
 * is lost. Context: RAISE.
 */
static void p2p_probed(MPI_Message msg, MPI_Comm comm, int64_t t)
{
    if (p2p_message_real(msg)) {
        (void) p2p_track(p2p_message_key(msg), P2P_RECV, P2P_MODE_PROBED, 1, t, 0, comm,
                         MPI_ANY_SOURCE, MPI_ANY_TAG);
    }
}

/**
 * Before the receive of @p msg: take its probe's entry, if any, out of the
 * table (libmpi recycles the message object inside the receive). @return
 * true with the probe's time and communicator in *@p start, *@p comm.
 * Context: RAISE (the thread receiving @p msg; MPI allows one).
 */
static bool p2p_take_probe(MPI_Message msg, int64_t *start, MPI_Comm *comm)
{
    int s;

    if (!p2p_table_used() || !p2p_message_real(msg)) {
        return false;
    }
    s = p2p_lookup(p2p_message_key(msg));
    if (0 > s || P2P_MODE_PROBED != p2p_slots[s].mode) {
        return false;
    }
    *start = p2p_slots[s].start;
    *comm = p2p_slots[s].comm;
    p2p_release(s);
    return true;
}

/** Where the receive of @p msg starts when no probe of it was seen: now,
 *  on @p msg's communicator. Context: RAISE. */
static inline void p2p_unprobed_start(MPI_Message msg, int64_t *start, MPI_Comm *comm)
{
    *comm = p2p_message_real(msg) ? msg->comm : MPI_COMM_NULL;
    *start = p2p_now(P2P_RECV);
}

static int evt_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
    int64_t t0;
    int rc;

    if (OPAL_LIKELY(!p2p_listening(P2P_RECV))) {
        return EVT_CALL_NEXT(Mprobe, (source, tag, comm, message, status));
    }
    t0 = p2p_now(P2P_RECV);
    rc = EVT_CALL_NEXT(Mprobe, (source, tag, comm, message, status));
    if (MPI_SUCCESS == rc) {
        p2p_probed(*message, comm, t0);
    }
    return rc;
}

static int evt_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                       MPI_Status *status)
{
    int rc;

    if (OPAL_LIKELY(!p2p_listening(P2P_RECV))) {
        return EVT_CALL_NEXT(Improbe, (source, tag, comm, flag, message, status));
    }
    rc = EVT_CALL_NEXT(Improbe, (source, tag, comm, flag, message, status));
    /* the clock only on a match: a polling loop reads it once */
    if (MPI_SUCCESS == rc && *flag) {
        p2p_probed(*message, comm, p2p_now(P2P_RECV));
    }
    return rc;
}

static int evt_Mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
                     MPI_Status *status)
{
    bool listening = p2p_listening(P2P_RECV);
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Status local;
    int64_t start = 0;
    int rc;

    if (OPAL_LIKELY(!listening && !p2p_table_used()) || NULL == message) {
        return EVT_CALL_NEXT(Mrecv, (buf, count, datatype, message, status));
    }
    if (!p2p_take_probe(*message, &start, &comm)) {
        if (!listening) {
            return EVT_CALL_NEXT(Mrecv, (buf, count, datatype, message, status));
        }
        p2p_unprobed_start(*message, &start, &comm);
    }
    if (MPI_STATUS_IGNORE == status) {
        status = &local;
    }
    rc = EVT_CALL_NEXT(Mrecv, (buf, count, datatype, message, status));
    if (MPI_SUCCESS == rc && listening) {
        p2p_raise(P2P_RECV, comm, (uint64_t) status->_ucount, start, p2p_now(P2P_RECV),
                  status->MPI_SOURCE, status->MPI_TAG, P2P_MODE_BLOCKING);
    }
    return rc;
}

static int evt_Imrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
                      MPI_Request *request)
{
    bool listening = p2p_listening(P2P_RECV);
    MPI_Comm comm = MPI_COMM_NULL;
    int64_t start = 0, done = 0;
    int rc;

    if (OPAL_LIKELY(!listening && !p2p_table_used()) || NULL == message) {
        return EVT_CALL_NEXT(Imrecv, (buf, count, datatype, message, request));
    }
    if (!p2p_take_probe(*message, &start, &comm)) {
        if (!listening) {
            return EVT_CALL_NEXT(Imrecv, (buf, count, datatype, message, request));
        }
        p2p_unprobed_start(*message, &start, &comm);
        done = start; /* if complete on return: no second clock read */
    }
    rc = EVT_CALL_NEXT(Imrecv, (buf, count, datatype, message, request));
    if (!listening || MPI_SUCCESS != rc || MPI_REQUEST_NULL == *request) {
        return rc;
    }
    /* from here on, as MPI_Irecv's request */
    if (REQUEST_COMPLETE(*request)) {
        p2p_done_at_start(*request, P2P_RECV, start, 0 != done ? done : p2p_now(P2P_RECV), 0, comm,
                          MPI_ANY_SOURCE, MPI_ANY_TAG);
    } else if (!p2p_track(*request, P2P_RECV, P2P_MODE_NONBLOCKING, 1, start, 0, comm,
                          MPI_ANY_SOURCE, MPI_ANY_TAG)) {
        p2p_count_drop(P2P_RECV, start);
    }
    return rc;
}

/**
 * Mark the persistent request @p req started at *@p t (read on first
 * need, shared by a Startall). Started while nobody listens: not reported
 * at its completion, as a request started before the listener.
 * Context: RAISE.
 */
static inline void p2p_started(MPI_Request req, int64_t *t)
{
    int s = p2p_lookup(req);
    p2p_slot_t *slot;

    if (0 > s) {
        return;
    }
    slot = &p2p_slots[s];
    slot->started = p2p_listening(slot->kind);
    if (slot->started) {
        slot->start = p2p_done_time(t, slot->kind);
    }
}

static int evt_Start(MPI_Request *request)
{
    int64_t t = 0;

    if (OPAL_LIKELY(!p2p_table_used())) {
        return EVT_CALL_NEXT(Start, (request));
    }
    /* Stamp before the start: the operation may progress inside it. */
    p2p_started(*request, &t);
    return EVT_CALL_NEXT(Start, (request));
}

static int evt_Startall(int count, MPI_Request array_of_requests[])
{
    int64_t t = 0;

    if (OPAL_LIKELY(!p2p_table_used())) {
        return EVT_CALL_NEXT(Startall, (count, array_of_requests));
    }
    for (int i = 0; i < count; ++i) {
        p2p_started(array_of_requests[i], &t);
    }
    return EVT_CALL_NEXT(Startall, (count, array_of_requests));
}

static int evt_Request_free(MPI_Request *request)
{
    MPI_Request req;
    int s;

    if (OPAL_LIKELY(!p2p_table_used())) {
        return EVT_CALL_NEXT(Request_free, (request));
    }
    req = *request;
    s = p2p_claim(req);
    if (0 <= s) {
        /* before the call: afterwards req may already be another request */
        p2p_freed(s, req);
    }
    return EVT_CALL_NEXT(Request_free, (request));
}

/* ------------------------------------------------------------------------
 * Completion: the Wait/Test family
 * ------------------------------------------------------------------------ */

static int evt_Wait(MPI_Request *request, MPI_Status *status)
{
    MPI_Status local;
    MPI_Request req;
    int64_t done = 0;
    int s, rc;

    if (OPAL_LIKELY(!p2p_table_used())) {
        return EVT_CALL_NEXT(Wait, (request, status));
    }
    req = *request;
    s = p2p_claim(req);
    if (0 > s) {
        return EVT_CALL_NEXT(Wait, (request, status));
    }
    if (MPI_STATUS_IGNORE == status) {
        status = &local;
    }
    p2p_claims_done();
    rc = EVT_CALL_NEXT(Wait, (request, status));
    /* A tracked request is valid and active or persistent: PMPI_Wait
     * returns once it completed, with its error if it failed. */
    p2p_settle(s, *request, status, MPI_SUCCESS == rc, &done);
    return rc;
}

static int evt_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    MPI_Status local;
    MPI_Request req;
    int64_t done = 0;
    int s, rc;

    if (OPAL_LIKELY(!p2p_table_used())) {
        return EVT_CALL_NEXT(Test, (request, flag, status));
    }
    req = *request;
    s = p2p_claim(req);
    if (0 > s) {
        return EVT_CALL_NEXT(Test, (request, flag, status));
    }
    if (MPI_STATUS_IGNORE == status) {
        status = &local;
    }
    *flag = 0;
    p2p_claims_done();
    rc = EVT_CALL_NEXT(Test, (request, flag, status));
    p2p_settle(s, *request, *flag ? status : NULL, MPI_SUCCESS == rc, &done);
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
 * Claim the entries of the tracked requests of the array (slots[i], -1 if
 * untracked); set up statuses if the caller ignores them. @return the
 * number of entries claimed; 0: the caller just calls PMPI (also when the
 * scratch could not be allocated: the entries were then abandoned, see
 * p2p_abandon()). Context: RAISE.
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
            for (int i = 0; i < count; ++i) {
                p2p_abandon(reqs[i]);
            }
            return 0;
        }
        sc->statuses = (MPI_Status *) sc->heap;
        sc->slots = (int *) (sc->statuses + count);
    }
    if (MPI_STATUSES_IGNORE != user_statuses) {
        sc->statuses = user_statuses;
    }
    for (int i = 0; i < count; ++i) {
        sc->slots[i] = p2p_claim(reqs[i]);
        found += (0 <= sc->slots[i]);
    }
    if (0 == found) {
        free(sc->heap);
        sc->heap = NULL;
    } else {
        p2p_claims_done();
    }
    return found;
}

/** Status of request @p i of Waitall/Testall after the call, NULL if the
 *  call did not complete it. Context: RAISE. */
static inline const MPI_Status *p2p_all_status(int rc, bool flag, const MPI_Status *st)
{
    if (MPI_SUCCESS == rc) {
        return flag ? st : NULL;
    }
    /* MPI_ERR_IN_STATUS: MPI_ERR_PENDING marks the requests not completed */
    return MPI_ERR_IN_STATUS == rc && MPI_ERR_PENDING != st->MPI_ERROR ? st : NULL;
}

/** Shared body of Waitall/Testall once PMPI returned. Context: RAISE. */
static void p2p_all_done(p2p_scratch_t *sc, int count, MPI_Request reqs[], int rc, bool flag)
{
    int64_t done = 0;
    long freed = 0;

    /* pass 1: the requests that stay publish their entries again, so that
     * a callback raised in pass 2 finds them */
    for (int i = 0; i < count; ++i) {
        int s = sc->slots[i];
        if (0 <= s && p2p_stays(s, reqs[i], NULL != p2p_all_status(rc, flag, &sc->statuses[i]))) {
            p2p_unclaim(s, reqs[i]);
            sc->slots[i] = -1;
        }
    }
    for (int i = 0; i < count; ++i) {
        const MPI_Status *st = p2p_all_status(rc, flag, &sc->statuses[i]);
        if (0 <= sc->slots[i]) {
            freed += p2p_complete(sc->slots[i], reqs[i], st,
                                  MPI_SUCCESS == rc || MPI_SUCCESS == sc->statuses[i].MPI_ERROR,
                                  &done);
        }
    }
    p2p_unoccupy(freed);
}

static int evt_Waitall(int count, MPI_Request array_of_requests[], MPI_Status *array_of_statuses)
{
    p2p_scratch_t sc;
    int rc;

    if (OPAL_LIKELY(!p2p_table_used())) {
        return EVT_CALL_NEXT(Waitall, (count, array_of_requests, array_of_statuses));
    }
    if (0 == p2p_scratch_init(&sc, count, array_of_requests, array_of_statuses)) {
        return EVT_CALL_NEXT(Waitall, (count, array_of_requests, array_of_statuses));
    }
    rc = EVT_CALL_NEXT(Waitall, (count, array_of_requests, sc.statuses));
    p2p_all_done(&sc, count, array_of_requests, rc, true);
    free(sc.heap);
    return rc;
}

static int evt_Testall(int count, MPI_Request array_of_requests[], int *flag,
                       MPI_Status array_of_statuses[])
{
    p2p_scratch_t sc;
    int rc;

    if (OPAL_LIKELY(!p2p_table_used())) {
        return EVT_CALL_NEXT(Testall, (count, array_of_requests, flag, array_of_statuses));
    }
    if (0 == p2p_scratch_init(&sc, count, array_of_requests, array_of_statuses)) {
        return EVT_CALL_NEXT(Testall, (count, array_of_requests, flag, array_of_statuses));
    }
    *flag = 0;
    rc = EVT_CALL_NEXT(Testall, (count, array_of_requests, flag, sc.statuses));
    p2p_all_done(&sc, count, array_of_requests, rc, 0 != *flag);
    free(sc.heap);
    return rc;
}

/** Shared body of Waitany/Testany once PMPI returned: request @p index
 *  (-1: none) completed with @p status. Context: RAISE. */
static void p2p_any_done(p2p_scratch_t *sc, int count, MPI_Request reqs[], int index,
                         const MPI_Status *status, bool ok)
{
    int64_t done = 0;
    long freed = 0;

    /* pass 1 as in p2p_all_done() */
    for (int i = 0; i < count; ++i) {
        int s = sc->slots[i];
        if (0 <= s && p2p_stays(s, reqs[i], i == index)) {
            p2p_unclaim(s, reqs[i]);
            sc->slots[i] = -1;
        }
    }
    for (int i = 0; i < count; ++i) {
        if (0 <= sc->slots[i]) {
            freed += p2p_complete(sc->slots[i], reqs[i], i == index ? status : NULL, ok, &done);
        }
    }
    p2p_unoccupy(freed);
}

static int evt_Waitany(int count, MPI_Request array_of_requests[], int *index, MPI_Status *status)
{
    p2p_scratch_t sc;
    MPI_Status local;
    int rc;

    if (OPAL_LIKELY(!p2p_table_used())) {
        return EVT_CALL_NEXT(Waitany, (count, array_of_requests, index, status));
    }
    if (0 == p2p_scratch_init(&sc, count, array_of_requests, MPI_STATUSES_IGNORE)) {
        return EVT_CALL_NEXT(Waitany, (count, array_of_requests, index, status));
    }
    if (MPI_STATUS_IGNORE == status) {
        status = &local;
    }
    *index = MPI_UNDEFINED;
    rc = EVT_CALL_NEXT(Waitany, (count, array_of_requests, index, status));
    p2p_any_done(&sc, count, array_of_requests, 0 <= *index && *index < count ? *index : -1, status,
                 MPI_SUCCESS == rc);
    free(sc.heap);
    return rc;
}

static int evt_Testany(int count, MPI_Request array_of_requests[], int *index, int *flag,
                       MPI_Status *status)
{
    p2p_scratch_t sc;
    MPI_Status local;
    int rc;

    if (OPAL_LIKELY(!p2p_table_used())) {
        return EVT_CALL_NEXT(Testany, (count, array_of_requests, index, flag, status));
    }
    if (0 == p2p_scratch_init(&sc, count, array_of_requests, MPI_STATUSES_IGNORE)) {
        return EVT_CALL_NEXT(Testany, (count, array_of_requests, index, flag, status));
    }
    if (MPI_STATUS_IGNORE == status) {
        status = &local;
    }
    *index = MPI_UNDEFINED;
    *flag = 0;
    rc = EVT_CALL_NEXT(Testany, (count, array_of_requests, index, flag, status));
    p2p_any_done(&sc, count, array_of_requests,
                 *flag && 0 <= *index && *index < count ? *index : -1, status, MPI_SUCCESS == rc);
    free(sc.heap);
    return rc;
}

/** Shared body of Waitsome/Testsome. Context: RAISE. */
static int p2p_some(bool wait, int incount, MPI_Request reqs[], int *outcount, int indices[],
                    MPI_Status statuses[])
{
    p2p_scratch_t sc;
    int64_t done = 0;
    long freed = 0;
    int rc, n;

    if (0 == p2p_scratch_init(&sc, incount, reqs, statuses)) {
        return wait ? EVT_CALL_NEXT(Waitsome, (incount, reqs, outcount, indices, statuses))
                    : EVT_CALL_NEXT(Testsome, (incount, reqs, outcount, indices, statuses));
    }
    *outcount = MPI_UNDEFINED;
    /* The statuses are indexed by completion order, not by request. */
    rc = wait ? EVT_CALL_NEXT(Waitsome, (incount, reqs, outcount, indices, sc.statuses))
              : EVT_CALL_NEXT(Testsome, (incount, reqs, outcount, indices, sc.statuses));
    n = (MPI_SUCCESS == rc || MPI_ERR_IN_STATUS == rc) && MPI_UNDEFINED != *outcount ? *outcount
                                                                                     : 0;
    for (int k = 0; k < n; ++k) {
        if (0 <= sc.slots[indices[k]]) {
            sc.slots[indices[k]] |= P2P_DONE;
        }
    }
    /* pass 1 as in p2p_all_done() */
    for (int i = 0; i < incount; ++i) {
        int s = sc.slots[i];
        if (0 <= s && p2p_stays(s & ~P2P_DONE, reqs[i], 0 != (s & P2P_DONE))) {
            p2p_unclaim(s & ~P2P_DONE, reqs[i]);
            sc.slots[i] = -1;
        }
    }
    for (int i = 0; i < incount; ++i) {
        if (0 <= sc.slots[i] && 0 == (sc.slots[i] & P2P_DONE)) {
            /* freed although not reported: nothing to raise */
            freed += p2p_complete(sc.slots[i], reqs[i], NULL, false, &done);
        }
    }
    for (int k = 0; k < n; ++k) {
        int i = indices[k];
        if (0 <= sc.slots[i]) {
            freed += p2p_complete(sc.slots[i] & ~P2P_DONE, reqs[i], &sc.statuses[k],
                                  MPI_SUCCESS == rc || MPI_SUCCESS == sc.statuses[k].MPI_ERROR,
                                  &done);
        }
    }
    p2p_unoccupy(freed);
    free(sc.heap);
    return rc;
}

static int evt_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount,
                        int array_of_indices[], MPI_Status array_of_statuses[])
{
    if (OPAL_LIKELY(!p2p_table_used())) {
        return EVT_CALL_NEXT(Waitsome, (incount, array_of_requests, outcount, array_of_indices,
                                        array_of_statuses));
    }
    return p2p_some(true, incount, array_of_requests, outcount, array_of_indices,
                    array_of_statuses);
}

static int evt_Testsome(int incount, MPI_Request array_of_requests[], int *outcount,
                        int array_of_indices[], MPI_Status array_of_statuses[])
{
    if (OPAL_LIKELY(!p2p_table_used())) {
        return EVT_CALL_NEXT(Testsome, (incount, array_of_requests, outcount, array_of_indices,
                                        array_of_statuses));
    }
    return p2p_some(false, incount, array_of_requests, outcount, array_of_indices,
                    array_of_statuses);
}

/* ------------------------------------------------------------------------
 * Entry points: MPI_X for the application, PMPI_X for a PMPI tool
 * preloaded before libompi_evt (its MPI_X calls PMPI_X: ours). Both run
 * the wrapper, which reaches the next PMPI_X (libmpi's); libompi_evt's own
 * MPI calls (ompi_evt_pmpi_quiet_enter()) go straight there.
 * ------------------------------------------------------------------------ */

int MPI_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Bsend, (buf, count, datatype, dest, tag, comm));
}
int PMPI_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Bsend, (buf, count, datatype, dest, tag, comm));
}

int MPI_Bsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Bsend_init, (buf, count, datatype, dest, tag, comm, request));
}
int PMPI_Bsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Bsend_init, (buf, count, datatype, dest, tag, comm, request));
}

int MPI_Ibsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Ibsend, (buf, count, datatype, dest, tag, comm, request));
}
int PMPI_Ibsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Ibsend, (buf, count, datatype, dest, tag, comm, request));
}

int MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                MPI_Status *status)
{
    return EVT_PMPI_ENTRY(Improbe, (source, tag, comm, flag, message, status));
}
int PMPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                 MPI_Status *status)
{
    return EVT_PMPI_ENTRY(Improbe, (source, tag, comm, flag, message, status));
}

int MPI_Imrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
               MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Imrecv, (buf, count, datatype, message, request));
}
int PMPI_Imrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
                MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Imrecv, (buf, count, datatype, message, request));
}

int MPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Irecv, (buf, count, datatype, source, tag, comm, request));
}
int PMPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
               MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Irecv, (buf, count, datatype, source, tag, comm, request));
}

int MPI_Irsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Irsend, (buf, count, datatype, dest, tag, comm, request));
}
int PMPI_Irsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Irsend, (buf, count, datatype, dest, tag, comm, request));
}

int MPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
              MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Isend, (buf, count, datatype, dest, tag, comm, request));
}
int PMPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Isend, (buf, count, datatype, dest, tag, comm, request));
}

int MPI_Issend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Issend, (buf, count, datatype, dest, tag, comm, request));
}
int PMPI_Issend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Issend, (buf, count, datatype, dest, tag, comm, request));
}

int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
    return EVT_PMPI_ENTRY(Mprobe, (source, tag, comm, message, status));
}
int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
    return EVT_PMPI_ENTRY(Mprobe, (source, tag, comm, message, status));
}

int MPI_Mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status)
{
    return EVT_PMPI_ENTRY(Mrecv, (buf, count, datatype, message, status));
}
int PMPI_Mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
               MPI_Status *status)
{
    return EVT_PMPI_ENTRY(Mrecv, (buf, count, datatype, message, status));
}

int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
             MPI_Status *status)
{
    return EVT_PMPI_ENTRY(Recv, (buf, count, datatype, source, tag, comm, status));
}
int PMPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Status *status)
{
    return EVT_PMPI_ENTRY(Recv, (buf, count, datatype, source, tag, comm, status));
}

int MPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                  MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Recv_init, (buf, count, datatype, source, tag, comm, request));
}
int PMPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                   MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Recv_init, (buf, count, datatype, source, tag, comm, request));
}

int MPI_Request_free(MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Request_free, (request));
}
int PMPI_Request_free(MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Request_free, (request));
}

int MPI_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Rsend, (buf, count, datatype, dest, tag, comm));
}
int PMPI_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Rsend, (buf, count, datatype, dest, tag, comm));
}

int MPI_Rsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Rsend_init, (buf, count, datatype, dest, tag, comm, request));
}
int PMPI_Rsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Rsend_init, (buf, count, datatype, dest, tag, comm, request));
}

int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Send, (buf, count, datatype, dest, tag, comm));
}
int PMPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Send, (buf, count, datatype, dest, tag, comm));
}

int MPI_Send_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Send_init, (buf, count, datatype, dest, tag, comm, request));
}
int PMPI_Send_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Send_init, (buf, count, datatype, dest, tag, comm, request));
}

int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                 void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                 MPI_Comm comm, MPI_Status *status)
{
    return EVT_PMPI_ENTRY(Sendrecv, (sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                                     recvcount, recvtype, source, recvtag, comm, status));
}
int PMPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                  MPI_Comm comm, MPI_Status *status)
{
    return EVT_PMPI_ENTRY(Sendrecv, (sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                                     recvcount, recvtype, source, recvtag, comm, status));
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                         int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    return EVT_PMPI_ENTRY(Sendrecv_replace,
                          (buf, count, datatype, dest, sendtag, source, recvtag, comm, status));
}
int PMPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                          int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    return EVT_PMPI_ENTRY(Sendrecv_replace,
                          (buf, count, datatype, dest, sendtag, source, recvtag, comm, status));
}

int MPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Ssend, (buf, count, datatype, dest, tag, comm));
}
int PMPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Ssend, (buf, count, datatype, dest, tag, comm));
}

int MPI_Ssend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Ssend_init, (buf, count, datatype, dest, tag, comm, request));
}
int PMPI_Ssend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Ssend_init, (buf, count, datatype, dest, tag, comm, request));
}

int MPI_Start(MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Start, (request));
}
int PMPI_Start(MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Start, (request));
}

int MPI_Startall(int count, MPI_Request array_of_requests[])
{
    return EVT_PMPI_ENTRY(Startall, (count, array_of_requests));
}
int PMPI_Startall(int count, MPI_Request array_of_requests[])
{
    return EVT_PMPI_ENTRY(Startall, (count, array_of_requests));
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    return EVT_PMPI_ENTRY(Test, (request, flag, status));
}
int PMPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    return EVT_PMPI_ENTRY(Test, (request, flag, status));
}

int MPI_Testall(int count, MPI_Request array_of_requests[], int *flag,
                MPI_Status array_of_statuses[])
{
    return EVT_PMPI_ENTRY(Testall, (count, array_of_requests, flag, array_of_statuses));
}
int PMPI_Testall(int count, MPI_Request array_of_requests[], int *flag,
                 MPI_Status array_of_statuses[])
{
    return EVT_PMPI_ENTRY(Testall, (count, array_of_requests, flag, array_of_statuses));
}

int MPI_Testany(int count, MPI_Request array_of_requests[], int *index, int *flag,
                MPI_Status *status)
{
    return EVT_PMPI_ENTRY(Testany, (count, array_of_requests, index, flag, status));
}
int PMPI_Testany(int count, MPI_Request array_of_requests[], int *index, int *flag,
                 MPI_Status *status)
{
    return EVT_PMPI_ENTRY(Testany, (count, array_of_requests, index, flag, status));
}

int MPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount,
                 int array_of_indices[], MPI_Status array_of_statuses[])
{
    return EVT_PMPI_ENTRY(Testsome, (incount, array_of_requests, outcount, array_of_indices,
                                     array_of_statuses));
}
int PMPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount,
                  int array_of_indices[], MPI_Status array_of_statuses[])
{
    return EVT_PMPI_ENTRY(Testsome, (incount, array_of_requests, outcount, array_of_indices,
                                     array_of_statuses));
}

int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
    return EVT_PMPI_ENTRY(Wait, (request, status));
}
int PMPI_Wait(MPI_Request *request, MPI_Status *status)
{
    return EVT_PMPI_ENTRY(Wait, (request, status));
}

int MPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status *array_of_statuses)
{
    return EVT_PMPI_ENTRY(Waitall, (count, array_of_requests, array_of_statuses));
}
int PMPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status *array_of_statuses)
{
    return EVT_PMPI_ENTRY(Waitall, (count, array_of_requests, array_of_statuses));
}

int MPI_Waitany(int count, MPI_Request array_of_requests[], int *index, MPI_Status *status)
{
    return EVT_PMPI_ENTRY(Waitany, (count, array_of_requests, index, status));
}
int PMPI_Waitany(int count, MPI_Request array_of_requests[], int *index, MPI_Status *status)
{
    return EVT_PMPI_ENTRY(Waitany, (count, array_of_requests, index, status));
}

int MPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount,
                 int array_of_indices[], MPI_Status array_of_statuses[])
{
    return EVT_PMPI_ENTRY(Waitsome, (incount, array_of_requests, outcount, array_of_indices,
                                     array_of_statuses));
}
int PMPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount,
                  int array_of_indices[], MPI_Status array_of_statuses[])
{
    return EVT_PMPI_ENTRY(Waitsome, (incount, array_of_requests, outcount, array_of_indices,
                                     array_of_statuses));
}
