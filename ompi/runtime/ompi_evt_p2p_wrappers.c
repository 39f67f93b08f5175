/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The point-to-point producer's wrappers (what each covers and when it
 * reads the clock: ompi_evt_p2p.h): libompi_evt defines MPI_X and PMPI_X
 * for the calls below and calls the next PMPI_X (ompi_evt_pmpi_next.h), so
 * other PMPI tools stack with it in either order.
 */

#include "ompi_config.h"

#include <stdlib.h>

#include "ompi/runtime/ompi_evt_p2p.h"

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
            ompi_evt_p2p_raise(P2P_SEND, comm, p2p_bytes(count, datatype), t0_, p2p_now(P2P_SEND), \
                               dest, tag, P2P_MODE_BLOCKING);                                      \
        }                                                                                          \
        return rc_;                                                                                \
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
        ompi_evt_p2p_raise(P2P_RECV, comm, (uint64_t) status->_ucount, t0, p2p_now(P2P_RECV),
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
    /* MPI_ERR_TRUNCATE: only the receive failed; the send completed (Open
     * MPI's Sendrecv waits for its receive after its blocking send) */
    if (MPI_SUCCESS != rc && MPI_ERR_TRUNCATE != rc) {
        return rc;
    }
    t1 = p2p_now(send_on ? P2P_SEND : P2P_RECV);
    if (send_on) {
        ompi_evt_p2p_raise(P2P_SEND, comm, p2p_bytes(sendcount, sendtype), t0, t1, dest, sendtag,
                           P2P_MODE_BLOCKING);
    }
    if (recv_on && MPI_SUCCESS == rc) {
        ompi_evt_p2p_raise(P2P_RECV, comm, (uint64_t) status->_ucount, t0, t1, status->MPI_SOURCE,
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
    /* MPI_ERR_TRUNCATE: only the receive failed; the send completed (Open
     * MPI's Sendrecv waits for its receive after its blocking send) */
    if (MPI_SUCCESS != rc && MPI_ERR_TRUNCATE != rc) {
        return rc;
    }
    t1 = p2p_now(send_on ? P2P_SEND : P2P_RECV);
    if (send_on) {
        ompi_evt_p2p_raise(P2P_SEND, comm, p2p_bytes(count, datatype), t0, t1, dest, sendtag,
                           P2P_MODE_BLOCKING);
    }
    if (recv_on && MPI_SUCCESS == rc) {
        ompi_evt_p2p_raise(P2P_RECV, comm, (uint64_t) status->_ucount, t0, t1, status->MPI_SOURCE,
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
#define P2P_START(call, kind, mode, started, bytes, peer)                                     \
    do {                                                                                      \
        int64_t t0_;                                                                          \
        int rc_;                                                                              \
        if (OPAL_LIKELY(!p2p_listening(kind))) {                                              \
            return call;                                                                      \
        }                                                                                     \
        t0_ = p2p_now(kind);                                                                  \
        rc_ = call;                                                                           \
        if (MPI_SUCCESS != rc_ || MPI_REQUEST_NULL == *request) {                             \
            return rc_;                                                                       \
        }                                                                                     \
        if (P2P_MODE_NONBLOCKING == (mode) && REQUEST_COMPLETE(*request)) {                   \
            ompi_evt_p2p_done_at_start(*request, kind, t0_, t0_, bytes, comm, peer, tag);     \
        } else if (!ompi_evt_p2p_track(*request, kind, mode, started, t0_, bytes, comm, peer, \
                                       tag)) {                                                \
            ompi_evt_p2p_count_drop(kind, t0_);                                               \
        }                                                                                     \
        return rc_;                                                                           \
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
        (void) ompi_evt_p2p_track(p2p_message_key(msg), P2P_RECV, P2P_MODE_PROBED, 1, t, 0, comm,
                                  MPI_ANY_SOURCE, MPI_ANY_TAG);
    }
}

/**
 * Before the receive of @p msg: take its probe's entry, if any, out of the
 * table (libmpi recycles the message object inside the receive). @return
 * true with the probe's time and communicator in *@p start, *@p comm; the
 * entry's hold on the communicator (p2p_comm_hold()) is the caller's to
 * drop. Context: RAISE (the thread receiving @p msg; MPI allows one).
 */
static bool p2p_take_probe(MPI_Message msg, int64_t *start, MPI_Comm *comm)
{
    int s;

    if (!p2p_table_used() || !p2p_message_real(msg)) {
        return false;
    }
    s = p2p_lookup(p2p_message_key(msg));
    if (0 > s || P2P_MODE_PROBED != ompi_evt_p2p_slots[s].mode) {
        return false;
    }
    *start = ompi_evt_p2p_slots[s].start;
    *comm = ompi_evt_p2p_slots[s].comm;
    p2p_release(s);
    return true;
}

/** Where the receive of @p msg starts when no probe of it was seen: now,
 *  on @p msg's communicator, held as p2p_take_probe()'s (the message may
 *  hold the last reference to it). Context: RAISE. */
static inline void p2p_unprobed_start(MPI_Message msg, int64_t *start, MPI_Comm *comm)
{
    *comm = p2p_message_real(msg) ? msg->comm : MPI_COMM_NULL;
    p2p_comm_hold(*comm);
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
        ompi_evt_p2p_raise(P2P_RECV, comm, (uint64_t) status->_ucount, start, p2p_now(P2P_RECV),
                           status->MPI_SOURCE, status->MPI_TAG, P2P_MODE_BLOCKING);
    }
    p2p_comm_drop(comm);
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
        /* nothing to raise */
    } else if (REQUEST_COMPLETE(*request)) {
        /* from here on, as MPI_Irecv's request */
        ompi_evt_p2p_done_at_start(*request, P2P_RECV, start, 0 != done ? done : p2p_now(P2P_RECV),
                                   0, comm, MPI_ANY_SOURCE, MPI_ANY_TAG);
    } else if (!ompi_evt_p2p_track(*request, P2P_RECV, P2P_MODE_NONBLOCKING, 1, start, 0, comm,
                                   MPI_ANY_SOURCE, MPI_ANY_TAG)) {
        ompi_evt_p2p_count_drop(P2P_RECV, start);
    }
    p2p_comm_drop(comm); /* the request's entry holds it now */
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
    slot = &ompi_evt_p2p_slots[s];
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
        ompi_evt_p2p_freed(s, req);
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
    ompi_evt_p2p_settle(s, *request, status, MPI_SUCCESS == rc, &done);
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
    ompi_evt_p2p_settle(s, *request, *flag ? status : NULL, MPI_SUCCESS == rc, &done);
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
 * ompi_evt_p2p_abandon()). Context: RAISE.
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
                ompi_evt_p2p_abandon(reqs[i]);
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
            freed += ompi_evt_p2p_complete(sc->slots[i], reqs[i], st,
                                           MPI_SUCCESS == rc
                                               || MPI_SUCCESS == sc->statuses[i].MPI_ERROR,
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
            freed += ompi_evt_p2p_complete(sc->slots[i], reqs[i], i == index ? status : NULL, ok,
                                           &done);
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
    /* *index is left as the caller gave it: Open MPI 4.1.4's Waitany, under
     * MPI_THREAD_MULTIPLE, can return from its wait with none of its
     * requests complete and then uses *index as it finds it (a completion
     * of the previous call's lands on this call's wait object); a value of
     * ours there would make that a crash the program does not have without
     * us. Trusted on success only (an error before any request was looked
     * at leaves it unset). */
    rc = EVT_CALL_NEXT(Waitany, (count, array_of_requests, index, status));
    p2p_any_done(&sc, count, array_of_requests,
                 MPI_SUCCESS == rc && 0 <= *index && *index < count ? *index : -1, status,
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
            freed += ompi_evt_p2p_complete(sc.slots[i], reqs[i], NULL, false, &done);
        }
    }
    for (int k = 0; k < n; ++k) {
        int i = indices[k];
        if (0 <= sc.slots[i]) {
            freed += ompi_evt_p2p_complete(sc.slots[i] & ~P2P_DONE, reqs[i], &sc.statuses[k],
                                           MPI_SUCCESS == rc
                                               || MPI_SUCCESS == sc.statuses[k].MPI_ERROR,
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
