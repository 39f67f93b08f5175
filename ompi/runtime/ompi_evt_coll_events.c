/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The collective completion event (payload, numbering and rules:
 * ompi_evt_coll.h): its registration, the per-communicator numbering, and
 * how a completion becomes a raised event.
 */

#include "ompi_config.h"

#include <stdlib.h>

#include "ompi/runtime/ompi_evt_coll.h"

/** Counters per page of context ids, and pages: 2^20 context ids. */
#define COLL_PAGE_SIZE 1024
#define COLL_PAGES     1024

typedef _Atomic uint64_t coll_page_t[COLL_PAGE_SIZE];

/** Pages of per-context-id counters, allocated on first use, never freed
 *  while the process runs (a page is 8 KiB; a job uses few). */
static _Atomic(coll_page_t *) coll_pages[COLL_PAGES];

/* Context: INIT, ANY. */
int ompi_evt_coll_events_register(void)
{
    const mca_base_var_type_t types[14] = {MCA_BASE_VAR_TYPE_UINT64_T, MCA_BASE_VAR_TYPE_UINT64_T,
                                           MCA_BASE_VAR_TYPE_UINT64_T, MCA_BASE_VAR_TYPE_UINT64_T,
                                           MCA_BASE_VAR_TYPE_INT64_T,  MCA_BASE_VAR_TYPE_INT64_T,
                                           MCA_BASE_VAR_TYPE_INT32_T,  MCA_BASE_VAR_TYPE_INT32_T,
                                           MCA_BASE_VAR_TYPE_INT32_T,  MCA_BASE_VAR_TYPE_INT32_T,
                                           MCA_BASE_VAR_TYPE_UINT32_T, MCA_BASE_VAR_TYPE_INT32_T,
                                           MCA_BASE_VAR_TYPE_INT32_T,  MCA_BASE_VAR_TYPE_UINT32_T};
    const ptrdiff_t offsets[14] = {offsetof(ompi_evt_coll_payload_t, comm),
                                   offsetof(ompi_evt_coll_payload_t, seq),
                                   offsetof(ompi_evt_coll_payload_t, bytes_sent),
                                   offsetof(ompi_evt_coll_payload_t, bytes_recv),
                                   offsetof(ompi_evt_coll_payload_t, start_time),
                                   offsetof(ompi_evt_coll_payload_t, complete_time),
                                   offsetof(ompi_evt_coll_payload_t, kind),
                                   offsetof(ompi_evt_coll_payload_t, root),
                                   offsetof(ompi_evt_coll_payload_t, op),
                                   offsetof(ompi_evt_coll_payload_t, mode),
                                   offsetof(ompi_evt_coll_payload_t, cid),
                                   offsetof(ompi_evt_coll_payload_t, comm_size),
                                   offsetof(ompi_evt_coll_payload_t, comm_rank),
                                   offsetof(ompi_evt_coll_payload_t, flags)};
    static const char *const names[14] = {"comm",       "seq",           "bytes_sent", "bytes_recv",
                                          "start_time", "complete_time", "kind",       "root",
                                          "op",         "mode",          "cid",        "comm_size",
                                          "comm_rank",  "flags"};
    mca_base_event_source_t *source = ompi_evt_ompi_source();
    int ei;

    if (NULL == source) {
        return OPAL_ERR_NOT_AVAILABLE;
    }
    ei = mca_base_event_register_ptr(
        "ompi", NULL, NULL, "mpi.coll_complete",
        "A collective operation completed on this rank: {comm, seq (its number on comm, equal on "
        "every rank), bytes_sent, bytes_recv, start_time, complete_time, kind (0 barrier, 1 bcast, "
        "2 gather, 3 gatherv, 4 scatter, 5 scatterv, 6 allgather, 7 allgatherv, 8 alltoall, "
        "9 alltoallv, 10 alltoallw, 11 reduce, 12 allreduce, 13 reduce_scatter, "
        "14 reduce_scatter_block, 15 scan, 16 exscan, 17 neighbor_allgather, 18 "
        "neighbor_allgatherv, 19 neighbor_alltoall, 20 neighbor_alltoallv, 21 neighbor_alltoallw), "
        "root (-1 none), op (0 none, 1 max ... 15 "
        "user), mode (0 blocking, 1 nonblocking), cid (context id), comm_size, comm_rank, flags "
        "(1 intercommunicator)}",
        OPAL_INFO_LVL_5, 14, types, offsets, NULL, MCA_BASE_VAR_BIND_NO_OBJECT, 0, source, NULL,
        &ompi_evt_p2p_event[P2P_COLL]);
    if (0 > ei) {
        return ei;
    }
    return mca_base_event_set_element_names(ompi_evt_p2p_event[P2P_COLL], names);
}

/** The counter of context id @p cid, or NULL (beyond the pages, or no
 *  memory for a new page). */
static _Atomic uint64_t *coll_counter(uint32_t cid, bool create)
{
    size_t page = cid / COLL_PAGE_SIZE;
    coll_page_t *p, *expected = NULL;

    if (page >= COLL_PAGES) {
        return NULL;
    }
    /* acquire: the page's zeroed contents before its pointer */
    p = atomic_load_explicit(&coll_pages[page], memory_order_acquire);
    if (OPAL_UNLIKELY(NULL == p)) {
        if (!create) {
            return NULL;
        }
        p = calloc(1, sizeof(*p));
        if (NULL == p) {
            return NULL;
        }
        /* release: publishes the zeroed page; another thread may have
         * published one first (then ours goes) */
        if (!atomic_compare_exchange_strong_explicit(&coll_pages[page], &expected, p,
                                                     memory_order_acq_rel, memory_order_acquire)) {
            free(p);
            p = expected;
        }
    }
    return &(*p)[cid % COLL_PAGE_SIZE];
}

uint64_t ompi_evt_coll_next_seq(MPI_Comm comm)
{
    _Atomic uint64_t *c = coll_counter(comm->c_contextid, true);
    uint64_t seq;

    if (OPAL_UNLIKELY(NULL == c)) {
        return UINT64_MAX;
    }
    /* relaxed load and store, no locked instruction: collectives on one
     * communicator are ordered by the application (MPI forbids concurrent
     * ones), so one thread at a time counts here */
    seq = atomic_load_explicit(c, memory_order_relaxed);
    atomic_store_explicit(c, seq + 1, memory_order_relaxed);
    return seq;
}

uint32_t ompi_evt_coll_cid(MPI_Comm comm)
{
    if (NULL == comm || MPI_COMM_NULL == comm || MPI_COMM_WORLD == comm || MPI_COMM_SELF == comm
        || ompi_comm_invalid(comm)) {
        return UINT32_MAX;
    }
    return comm->c_contextid;
}

void ompi_evt_coll_forget(uint32_t cid)
{
    _Atomic uint64_t *c;

    if (UINT32_MAX == cid) {
        return;
    }
    c = coll_counter(cid, false);
    if (NULL != c) {
        atomic_store_explicit(c, 0, memory_order_relaxed);
    }
}

int32_t ompi_evt_coll_op(MPI_Op op)
{
    static const struct {
        MPI_Op op;
        int32_t value;
    } ops[] = {{MPI_MAX, OMPI_EVT_COLL_OP_MAX},         {MPI_MIN, OMPI_EVT_COLL_OP_MIN},
               {MPI_SUM, OMPI_EVT_COLL_OP_SUM},         {MPI_PROD, OMPI_EVT_COLL_OP_PROD},
               {MPI_LAND, OMPI_EVT_COLL_OP_LAND},       {MPI_BAND, OMPI_EVT_COLL_OP_BAND},
               {MPI_LOR, OMPI_EVT_COLL_OP_LOR},         {MPI_BOR, OMPI_EVT_COLL_OP_BOR},
               {MPI_LXOR, OMPI_EVT_COLL_OP_LXOR},       {MPI_BXOR, OMPI_EVT_COLL_OP_BXOR},
               {MPI_MAXLOC, OMPI_EVT_COLL_OP_MAXLOC},   {MPI_MINLOC, OMPI_EVT_COLL_OP_MINLOC},
               {MPI_REPLACE, OMPI_EVT_COLL_OP_REPLACE}, {MPI_NO_OP, OMPI_EVT_COLL_OP_NO_OP}};

    for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); ++i) {
        if (ops[i].op == op) {
            return ops[i].value;
        }
    }
    return OMPI_EVT_COLL_OP_USER;
}

void ompi_evt_coll_raise(MPI_Comm comm, uint64_t seq, const coll_args_t *args, int64_t start,
                         int64_t done, int mode)
{
    ompi_evt_coll_payload_t payload;

    payload.comm = (uint64_t) (uintptr_t) comm;
    payload.seq = seq;
    payload.bytes_sent = args->sent;
    payload.bytes_recv = args->recv;
    payload.start_time = start;
    payload.complete_time = done;
    payload.kind = args->kind;
    payload.root = args->root;
    payload.op = args->op;
    payload.mode = mode;
    payload.cid = comm->c_contextid;
    payload.comm_size = ompi_comm_size(comm);
    payload.comm_rank = ompi_comm_rank(comm);
    payload.flags = OMPI_COMM_IS_INTER(comm) ? OMPI_EVT_COLL_FLAG_INTER : 0;
    /* stamped with the completion time: no clock read of its own */
    (void) mca_base_event_raise_stamped(ompi_evt_p2p_event[P2P_COLL], NULL, NULL, &payload,
                                        MCA_BASE_EVENT_CB_REQUIRE_NONE, done);
    /* the return of an MPI call (see ompi_evt_p2p_raise()) */
    mca_base_event_call_return(false, done);
}

/** The slot describing a collective. */
static void coll_describe(p2p_slot_t *slot, MPI_Comm comm, uint64_t seq, const coll_args_t *args,
                          int64_t start)
{
    *slot = (p2p_slot_t){.start = start,
                         .bytes = args->sent,
                         .comm = comm,
                         .peer = args->root,
                         .tag = args->kind,
                         .coll_seq = seq,
                         .coll_bytes_recv = args->recv,
                         .coll_op = args->op,
                         .kind = P2P_COLL,
                         .mode = P2P_MODE_NONBLOCKING,
                         .started = 1};
}

void ompi_evt_coll_started(MPI_Request req, MPI_Comm comm, uint64_t seq, const coll_args_t *args,
                           int64_t start)
{
    p2p_slot_t slot;

    coll_describe(&slot, comm, seq, args, start);
    if (REQUEST_COMPLETE(req)) {
        ompi_evt_p2p_done_at_start_slot(req, &slot, coll_now());
    } else if (!ompi_evt_p2p_track_slot(req, &slot)) {
        ompi_evt_p2p_count_drop(P2P_COLL, start);
    }
}

void ompi_evt_coll_report(const p2p_slot_t *slot, int64_t done)
{
    const coll_args_t args = {.sent = slot->bytes,
                              .recv = slot->coll_bytes_recv,
                              .kind = slot->tag,
                              .root = slot->peer,
                              .op = slot->coll_op};

    ompi_evt_coll_raise(slot->comm, slot->coll_seq, &args, slot->start, done, slot->mode);
}
