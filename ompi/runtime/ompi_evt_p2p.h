/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Internal to the point-to-point producer (ompi_evt_p2p_events.c: the
 * events and their raise; ompi_evt_p2p_requests.c: the request table;
 * ompi_evt_p2p_wrappers.c: the MPI/PMPI wrappers). Not installed.
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
 * The table also tracks the requests of nonblocking collectives (kind
 * P2P_COLL: ompi_evt_coll.h), so that the Wait/Test wrappers complete
 * them the same way.
 *
 * Covered: Send, Ssend, Bsend, Rsend, Recv, Sendrecv, Sendrecv_replace;
 * Isend, Issend, Ibsend, Irsend, Irecv; Send_init, Ssend_init, Bsend_init,
 * Rsend_init, Recv_init with Start/Startall; Mprobe and Improbe with Mrecv
 * and Imrecv; completion by Wait, Waitall, Waitany, Waitsome, Test,
 * Testall, Testany, Testsome, and by Request_free of a completed request.
 * Probe, Iprobe, Cancel and Request_get_status complete nothing and raise
 * nothing. Not raised: MPI_PROC_NULL peers (MPI_MESSAGE_NO_PROC), cancelled
 * requests, requests completed with an error (a Sendrecv whose receive
 * truncated raises its send, which completed). Not covered: partitioned
 * traffic, the point-to-point traffic inside collectives (a collective has
 * its own event), and nonblocking or persistent requests started while
 * nobody listened (their start was never seen). The Fortran bindings call
 * PMPI_X and are covered.
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
 *   stale: its request completed where no wrapper saw it (a completion
 *   call made while the entry points pass calls straight through:
 *   libompi_evt's own calls, or libmpi's inside another call). It is
 *   counted as dropped and reused.
 *
 * Request tracking: a preallocated open-addressing table keyed by the
 * request pointer (P2P_TABLE_SIZE slots; a request may sit in one of
 * P2P_PROBE slots after its hash, and a lookup scans only as far as any
 * request hashed there was ever entered, ompi_evt_p2p_reach). Nothing is
 * allocated on the fast path, listening or not (except one scratch array
 * in Wait/Test-all/some/any calls on more than P2P_SCRATCH requests while
 * the table is in use).
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
 * The CAS and the occupancy count's atomic adds only under
 * MPI_THREAD_MULTIPLE: below it MPI calls, and so the wrappers, do not
 * overlap (p2p_concurrent()), and plain loads and stores do.
 * While an entry is keyed by a request, only the thread completing (or
 * freeing) that request touches it (MPI forbids two threads completing one
 * request): its claim to P2P_BUSY is a plain store, ordered before libmpi
 * can recycle the request object by a release fence (p2p_claims_done()).
 */

#ifndef OMPI_EVT_P2P_H
#define OMPI_EVT_P2P_H

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
#include "opal/threads/thread_usage.h"

/** Slots in the request table (power of two). 8192 outstanding tracked
 *  requests per process; keys are 64 KiB, the rest 456 KiB, static. */
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

/** What a tracked request stands for, and the index of its event in
 *  ompi_evt_p2p_event[]. */
enum { P2P_SEND = 0, P2P_RECV = 1, P2P_COLL = 2, P2P_KINDS = 3 };
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
    uint64_t bytes; /**< send: bytes; collective: bytes sent */
    MPI_Comm comm;
    int32_t peer;             /**< send: comm rank of dest; recv: unused (status);
                                   collective: root (ompi_evt_coll_payload_t) */
    int32_t tag;              /**< collective: its kind (OMPI_EVT_COLL_*) */
    uint64_t coll_seq;        /**< collective: its number on comm */
    uint64_t coll_bytes_recv; /**< collective: bytes received */
    int32_t coll_op;          /**< collective: OMPI_EVT_COLL_OP_* */
    uint8_t kind;             /**< P2P_SEND, P2P_RECV, P2P_COLL */
    uint8_t mode;             /**< P2P_MODE_* (P2P_MODE_PROBED: keyed by a message) */
    uint8_t started;          /**< persistent: started with a listener, not completed */
} p2p_slot_t;

/** The request table; keys apart from the data so a probe touches few
 *  cache lines (ompi_evt_p2p_requests.c). */
extern _Atomic uintptr_t ompi_evt_p2p_keys[P2P_TABLE_SIZE];
extern p2p_slot_t ompi_evt_p2p_slots[P2P_TABLE_SIZE];
/** Per home slot (p2p_hash()): how many slots from it a lookup scans, one
 *  more than the farthest from it a request hashed there was ever entered.
 *  It only grows, so a lookup sees every entry of its request; with the
 *  table mostly empty nearly every entry sits at its home, and a request
 *  never entered (a new one, being entered) is found absent in one load
 *  instead of P2P_PROBE. */
extern _Atomic uint8_t ompi_evt_p2p_reach[P2P_TABLE_SIZE];
/** Occupied slots: the Wait/Test gate. */
extern atomic_long ompi_evt_p2p_in_use;
/** Test-only statistics (ompi_evt_p2p_test_stats()). */
extern atomic_ulong ompi_evt_p2p_stat_tracked;
extern atomic_ulong ompi_evt_p2p_stat_dropped;
extern atomic_ulong ompi_evt_p2p_stat_at_start;
/** The events of each kind: P2P_SEND and P2P_RECV (ompi_evt_p2p_events.c),
 *  P2P_COLL (ompi_evt_coll_events.c). */
extern mca_base_event_t *ompi_evt_p2p_event[P2P_KINDS];

typedef ompi_evt_p2p_payload_t p2p_payload_t;

/** The gate of event @p kind: one relaxed load. Context: RAISE. */
static inline bool p2p_listening(int kind)
{
    mca_base_event_t *ev = ompi_evt_p2p_event[kind];

    return NULL != ev && mca_base_event_active(ev);
}

/** Whether several threads may be inside MPI calls at once, and so inside
 *  the wrappers, the table's only users: MPI_THREAD_MULTIPLE. Below it the
 *  application serializes its MPI calls, and the table's updates need no
 *  locked instruction (Open MPI's own PML relies on the same rule,
 *  opal_using_threads()). A locked instruction is cheap alone, but waits
 *  for every store before it, here the record just written into a ring
 *  line the cache may not hold yet. Context: RAISE. */
static inline bool p2p_concurrent(void)
{
    return opal_using_threads();
}

/** Add @p n to the occupancy count. Context: RAISE. */
static inline void p2p_occupancy_add(long n)
{
    if (p2p_concurrent()) {
        atomic_fetch_add_explicit(&ompi_evt_p2p_in_use, n, memory_order_relaxed);
    } else {
        /* relaxed: MPI calls are serialized (p2p_concurrent()) */
        atomic_store_explicit(&ompi_evt_p2p_in_use,
                              atomic_load_explicit(&ompi_evt_p2p_in_use, memory_order_relaxed) + n,
                              memory_order_relaxed);
    }
}

/** Take slot @p c from @p expected (a free slot's 0, or a stale entry's
 *  request) to P2P_BUSY for the calling thread. @return false when the key
 *  is not @p expected (another thread took it first). acquire on success:
 *  the previous owner's reads of the slot (before its release store)
 *  happen before ours. Context: RAISE. */
static inline bool p2p_take(size_t c, uintptr_t expected)
{
    if (expected != atomic_load_explicit(&ompi_evt_p2p_keys[c], memory_order_relaxed)) {
        return false;
    }
    if (!p2p_concurrent()) {
        /* relaxed: MPI calls are serialized, so nobody else looks */
        atomic_store_explicit(&ompi_evt_p2p_keys[c], P2P_BUSY, memory_order_relaxed);
        return true;
    }
    return atomic_compare_exchange_strong_explicit(&ompi_evt_p2p_keys[c], &expected, P2P_BUSY,
                                                   memory_order_acquire, memory_order_relaxed);
}

/** The Wait/Test gate: one relaxed load. Context: RAISE. */
static inline bool p2p_table_used(void)
{
    /* relaxed: a request tracked by this thread was counted by this thread
     * (program order); one tracked by another thread reached us through
     * the application's own synchronisation, which orders the count too. */
    return 0 != atomic_load_explicit(&ompi_evt_p2p_in_use, memory_order_relaxed);
}

/** Now, on the "ompi" source's clock. Context: RAISE. */
static inline int64_t p2p_now(int kind)
{
    return (int64_t) mca_base_event_source_now(ompi_evt_p2p_event[kind]->source);
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

/** Whether @p req is one of the two static requests libmpi hands out for
 *  MPI_REQUEST_NULL and for every nonblocking operation it completed inside
 *  its I-call (ob1's small eager sends): never tracked (a request complete
 *  at its start is raised there), and half the array of a Waitall of such
 *  sends and their receives, whose miss would probe P2P_PROBE keys each.
 *  Context: RAISE. */
static inline bool p2p_never_tracked(MPI_Request req)
{
    return MPI_REQUEST_NULL == req || &ompi_request_empty == req;
}

/** Slot of @p req, or -1. Context: RAISE. */
static inline int p2p_lookup(MPI_Request req)
{
    size_t h = p2p_hash(req);

    if ((uintptr_t) req <= P2P_BUSY) {
        return -1; /* a NULL handle (erroneous) would match a free slot */
    }
    if (p2p_never_tracked(req)) {
        return -1;
    }
    /* relaxed: an entry of req was made by this thread, or by one whose
     * hand-over of req to this thread (the application's synchronization)
     * also orders the reach it stored before */
    int reach = atomic_load_explicit(&ompi_evt_p2p_reach[h], memory_order_relaxed);
    for (int i = 0; i < reach; ++i) {
        size_t s = (h + i) & (P2P_TABLE_SIZE - 1);
        /* acquire: pairs with the release stores in ompi_evt_p2p_track() and
         * p2p_unclaim(); the slot's data is visible once its key is. */
        if ((uintptr_t) req == atomic_load_explicit(&ompi_evt_p2p_keys[s], memory_order_acquire)) {
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
        atomic_store_explicit(&ompi_evt_p2p_keys[s], P2P_BUSY, memory_order_relaxed);
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
    atomic_store_explicit(&ompi_evt_p2p_keys[s], (uintptr_t) req, memory_order_release);
}

/** Free slot @p s; the occupancy count is left to the caller
 *  (p2p_unoccupy()). Context: RAISE (the claiming thread). */
static inline void p2p_release_key(int s)
{
    /* release: our reads of the slot happen before a new owner's writes;
     * pairs with the CAS (acquire) in ompi_evt_p2p_track(). */
    atomic_store_explicit(&ompi_evt_p2p_keys[s], 0, memory_order_release);
}

/** Take @p n freed slots off the occupancy count: once per Wait/Test call,
 *  not once per request (a locked instruction each under
 *  MPI_THREAD_MULTIPLE). Until then the count
 *  is only higher than the table's (the gate stays open a little longer).
 *  Context: RAISE. */
static inline void p2p_unoccupy(long n)
{
    if (0 != n) {
        p2p_occupancy_add(-n);
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
/** Keep @p comm while an entry of the table names it: a program may free a
 *  communicator with operations pending, and libmpi destroys it when it
 *  frees the last of their requests, inside the call that completes it,
 *  before the entry is reported (its peer looked up in the communicator).
 *  Context: RAISE (not SIGNAL: a destruction may free memory). */
static inline void p2p_comm_hold(MPI_Comm comm)
{
    if (NULL != comm && MPI_COMM_NULL != comm) {
        OBJ_RETAIN(comm);
    }
}

/** Let go of p2p_comm_hold()'s reference, once reported: the last one
 *  destroys the communicator, as libmpi's own release would have.
 *  Context: RAISE. */
static inline void p2p_comm_drop(MPI_Comm comm)
{
    if (NULL != comm && MPI_COMM_NULL != comm) {
        OBJ_RELEASE(comm);
    }
}

static inline void p2p_stat_inc(atomic_ulong *c)
{
    atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + 1,
                          memory_order_relaxed);
}

/** True when the operation in @p slot was started and not yet completed
 *  (a nonblocking request always; a persistent one between a Start seen
 *  with a listener and its completion). Context: RAISE. */
static inline bool p2p_pending(const p2p_slot_t *slot)
{
    return P2P_MODE_PERSISTENT != slot->mode || 0 != slot->started;
}

/** Bytes of @p count elements of @p type. Context: RAISE. */
static inline uint64_t p2p_bytes(int count, MPI_Datatype type)
{
    MPI_Count size = 0;

    (void) PMPI_Type_size_x(type, &size);
    return (uint64_t) count * (uint64_t) size;
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
    /* a freed handle never stays: Open MPI 4.1's error path
     * (ompi_errhandler_request_invoke()) frees a failed persistent request
     * too */
    if (MPI_REQUEST_NULL == handle) {
        return false;
    }
    return P2P_MODE_PERSISTENT == ompi_evt_p2p_slots[s].mode ? !reported : true;
}

/** Count one drop of event @p kind for every registration. Context: RAISE. */
void ompi_evt_p2p_count_drop(int kind, int64_t now);

/**
 * Enter @p req in the table. An entry already keyed by @p req is stale
 * (see the file comment): counted as dropped if its operation was pending,
 * and its slot reused. @return false when no slot was free (nothing
 * tracked; the caller says what that loses). Context: RAISE.
 */
bool ompi_evt_p2p_track(MPI_Request req, int kind, int mode, int started, int64_t start,
                        uint64_t bytes, MPI_Comm comm, int peer, int tag);

/** ompi_evt_p2p_track() of an operation described by @p desc (its kind,
 *  mode, started and fields as a slot holds them). Context: RAISE. */
bool ompi_evt_p2p_track_slot(MPI_Request req, const p2p_slot_t *desc);

/** Raise one completion. Context: RAISE. */
void ompi_evt_p2p_raise(int kind, MPI_Comm comm, uint64_t bytes, int64_t start, int64_t done,
                        int comm_peer, int tag, int mode);

/**
 * Raise the completion of the operation described by @p slot, completed
 * with @p status (NULL: the call did not report it; nothing raised); @p ok
 * false when it completed with an error (nothing raised). @p done: the
 * completion time, read on first need. Context: RAISE.
 */
void ompi_evt_p2p_report(const p2p_slot_t *slot, const MPI_Status *status, bool ok, int64_t *done);

/**
 * A PMPI call completed the request of the claimed slot @p s (@p req: its
 * handle, needed only for a persistent request, which stays tracked,
 * inactive). Raises the completion of a pending operation (see
 * ompi_evt_p2p_report()) and frees the slot of a nonblocking one. @return the
 * slots freed (0 or 1), for the caller's p2p_unoccupy(). Context: RAISE
 * (the claiming thread).
 */
long ompi_evt_p2p_complete(int s, MPI_Request req, const MPI_Status *status, bool ok,
                           int64_t *done);

/**
 * Settle the claimed slot @p s after the PMPI call: publish it again if
 * its request stays (p2p_stays()), else complete it. @p status: the
 * request's status if the call reported it completed, else NULL.
 * Context: RAISE (the claiming thread).
 */
void ompi_evt_p2p_settle(int s, MPI_Request handle, const MPI_Status *status, bool ok,
                         int64_t *done);

/**
 * @p req, just returned by a nonblocking I-call of an operation started at
 * @p start, is already complete (see the file comment): report it now,
 * untracked, completed at @p done (== start when the I-call's entry is the
 * start: no second clock read). Context: RAISE.
 */
void ompi_evt_p2p_done_at_start(MPI_Request req, int kind, int64_t start, int64_t done,
                                uint64_t bytes, MPI_Comm comm, int peer, int tag);

/** ompi_evt_p2p_done_at_start() of the operation @p desc describes.
 *  Context: RAISE. */
void ompi_evt_p2p_done_at_start_slot(MPI_Request req, const p2p_slot_t *desc, int64_t done);

/**
 * The application frees the request of claimed slot @p s with
 * MPI_Request_free: a completed operation is raised now, one still
 * pending counted as dropped (its completion will never be seen).
 * Releases the slot. Context: RAISE (the claiming thread).
 */
void ompi_evt_p2p_freed(int s, MPI_Request req);

/**
 * The application passes @p req to a call whose completions cannot be
 * followed (no scratch memory): a pending operation counts as dropped now;
 * a nonblocking request leaves the table, a persistent one stays,
 * inactive. Context: RAISE.
 */
void ompi_evt_p2p_abandon(MPI_Request req);

#endif /* OMPI_EVT_P2P_H */
