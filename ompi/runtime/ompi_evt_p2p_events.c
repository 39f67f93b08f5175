/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The point-to-point completion events (layout and rules: ompi_evt_p2p.h):
 * their registration, and how a completion becomes a raised event or a
 * counted drop.
 */

#include "ompi_config.h"

#include "ompi/runtime/ompi_evt_coll.h"
#include "ompi/runtime/ompi_evt_p2p.h"

mca_base_event_t *ompi_evt_p2p_event[P2P_KINDS] = {NULL, NULL, NULL};
atomic_ulong ompi_evt_p2p_stat_tracked = 0;
atomic_ulong ompi_evt_p2p_stat_dropped = 0;
atomic_ulong ompi_evt_p2p_stat_at_start = 0;

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
                                         source, NULL, &ompi_evt_p2p_event[k]);
        if (0 > ei) {
            return ei;
        }
        ei = mca_base_event_set_element_names(ompi_evt_p2p_event[k], elem_names);
        if (OPAL_SUCCESS != ei) {
            return ei;
        }
    }
    return OPAL_SUCCESS;
}

/* Context: ANY. */
void ompi_evt_p2p_test_stats(ompi_evt_p2p_stats_t *stats)
{
    stats->tracked = atomic_load_explicit(&ompi_evt_p2p_stat_tracked, memory_order_relaxed);
    stats->dropped = atomic_load_explicit(&ompi_evt_p2p_stat_dropped, memory_order_relaxed);
    stats->in_use = (uint64_t) atomic_load_explicit(&ompi_evt_p2p_in_use, memory_order_relaxed);
    stats->at_start = atomic_load_explicit(&ompi_evt_p2p_stat_at_start, memory_order_relaxed);
}

void ompi_evt_p2p_count_drop(int kind, int64_t now)
{
    mca_base_event_record_t record = {
        .event = ompi_evt_p2p_event[kind],
        .source = ompi_evt_p2p_event[kind]->source,
        .obj = NULL,
        .timestamp = now,
        .epoch = UINT64_MAX, /* every live registration */
        .data = NULL,
    };

    atomic_fetch_add_explicit(&ompi_evt_p2p_stat_dropped, 1, memory_order_relaxed);
    mca_base_event_count_dropped(&record);
}

/** World rank (vpid) of rank @p rank of @p comm's remote group.
 *  Context: RAISE, after a successful PMPI call on that rank. */
static inline int32_t p2p_world_rank(MPI_Comm comm, int rank)
{
    ompi_proc_t *proc = ompi_comm_peer_lookup(comm, rank);

    return NULL != proc ? (int32_t) proc->super.proc_name.vpid : -1;
}

void ompi_evt_p2p_raise(int kind, MPI_Comm comm, uint64_t bytes, int64_t start, int64_t done,
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
    (void) mca_base_event_raise_stamped(ompi_evt_p2p_event[kind], NULL, NULL, &payload,
                                        MCA_BASE_EVENT_CB_REQUIRE_NONE, done);
    /* the return of an MPI call: drain when the ring fills or records have
     * waited a while for a point where the tool may call MPI (batched, not
     * per event; the "ompi" source is on the default clock) */
    mca_base_event_call_return(false, done);
}

void ompi_evt_p2p_report(const p2p_slot_t *slot, const MPI_Status *status, bool ok, int64_t *done)
{
    int kind = slot->kind;

    if (!ok || NULL == status || status->_cancelled || !p2p_listening(kind)) {
        return;
    }
    if (P2P_COLL == kind) {
        ompi_evt_coll_report(slot, p2p_done_time(done, kind));
    } else if (P2P_SEND == kind) {
        ompi_evt_p2p_raise(kind, slot->comm, slot->bytes, slot->start, p2p_done_time(done, kind),
                           slot->peer, slot->tag, slot->mode);
    } else {
        ompi_evt_p2p_raise(kind, slot->comm, (uint64_t) status->_ucount, slot->start,
                           p2p_done_time(done, kind), status->MPI_SOURCE, status->MPI_TAG,
                           slot->mode);
    }
}
