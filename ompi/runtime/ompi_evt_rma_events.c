/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The one-sided events (what they carry: ompi_evt_rma.h): their
 * registration and how a call becomes a raised event.
 */

#include "ompi_config.h"

#include <stddef.h>

#include "ompi/group/group.h"
#include "ompi/proc/proc.h"
#include "ompi/runtime/ompi_evt_rma.h"
#include "ompi/win/win.h"

mca_base_event_t *ompi_evt_rma_op_event = NULL;
mca_base_event_t *ompi_evt_rma_sync_event = NULL;

/** Register event @p name of @p n elements (their @p types, @p offsets,
 *  @p names) into *@p ev. */
static int rma_register(mca_base_event_source_t *source, const char *name, const char *desc, int n,
                        const mca_base_var_type_t *types, const ptrdiff_t *offsets,
                        const char *const *names, mca_base_event_t **ev)
{
    int ei = mca_base_event_register_ptr("ompi", NULL, NULL, name, desc, OPAL_INFO_LVL_5, n, types,
                                         offsets, NULL, MCA_BASE_VAR_BIND_NO_OBJECT, 0, source,
                                         NULL, ev);

    if (0 > ei) {
        return ei;
    }
    return mca_base_event_set_element_names(*ev, names);
}

static int rma_register_op(mca_base_event_source_t *source)
{
    const mca_base_var_type_t types[10] = {MCA_BASE_VAR_TYPE_UINT64_T, MCA_BASE_VAR_TYPE_UINT64_T,
                                           MCA_BASE_VAR_TYPE_UINT64_T, MCA_BASE_VAR_TYPE_INT64_T,
                                           MCA_BASE_VAR_TYPE_INT64_T,  MCA_BASE_VAR_TYPE_INT64_T,
                                           MCA_BASE_VAR_TYPE_INT32_T,  MCA_BASE_VAR_TYPE_INT32_T,
                                           MCA_BASE_VAR_TYPE_INT32_T,  MCA_BASE_VAR_TYPE_INT32_T};
    const ptrdiff_t offsets[10] = {offsetof(ompi_evt_rma_op_payload_t, win),
                                   offsetof(ompi_evt_rma_op_payload_t, bytes_sent),
                                   offsetof(ompi_evt_rma_op_payload_t, bytes_recv),
                                   offsetof(ompi_evt_rma_op_payload_t, start_time),
                                   offsetof(ompi_evt_rma_op_payload_t, complete_time),
                                   offsetof(ompi_evt_rma_op_payload_t, target_disp),
                                   offsetof(ompi_evt_rma_op_payload_t, kind),
                                   offsetof(ompi_evt_rma_op_payload_t, target),
                                   offsetof(ompi_evt_rma_op_payload_t, peer),
                                   offsetof(ompi_evt_rma_op_payload_t, op)};
    static const char *const names[10] = {"win",        "bytes_sent",    "bytes_recv",
                                          "start_time", "complete_time", "target_disp",
                                          "kind",       "target",        "peer",
                                          "op"};
    return rma_register(
        source, "mpi.rma_op",
        "A one-sided communication call returned: {win (the MPI_Win), bytes_sent (to the target), "
        "bytes_recv (from the target), start_time, complete_time (the call's entry and return; "
        "the operation completes at a later synchronisation), target_disp, kind (0 put, 1 get, "
        "2 accumulate, 3 get_accumulate, 4 fetch_and_op, 5 compare_and_swap, 6 rput, 7 rget, "
        "8 raccumulate, 9 rget_accumulate), target (rank in the window's group), peer (the "
        "target's rank in MPI_COMM_WORLD), op (0 none, 1 max ... 13 replace, 14 no_op, 15 user)}",
        10, types, offsets, names, &ompi_evt_rma_op_event);
}

static int rma_register_sync(mca_base_event_source_t *source)
{
    const mca_base_var_type_t types[9] = {MCA_BASE_VAR_TYPE_UINT64_T, MCA_BASE_VAR_TYPE_INT64_T,
                                          MCA_BASE_VAR_TYPE_INT64_T,  MCA_BASE_VAR_TYPE_INT32_T,
                                          MCA_BASE_VAR_TYPE_INT32_T,  MCA_BASE_VAR_TYPE_INT32_T,
                                          MCA_BASE_VAR_TYPE_INT32_T,  MCA_BASE_VAR_TYPE_INT32_T,
                                          MCA_BASE_VAR_TYPE_INT32_T};
    const ptrdiff_t offsets[9] = {offsetof(ompi_evt_rma_sync_payload_t, win),
                                  offsetof(ompi_evt_rma_sync_payload_t, start_time),
                                  offsetof(ompi_evt_rma_sync_payload_t, complete_time),
                                  offsetof(ompi_evt_rma_sync_payload_t, kind),
                                  offsetof(ompi_evt_rma_sync_payload_t, target),
                                  offsetof(ompi_evt_rma_sync_payload_t, peer),
                                  offsetof(ompi_evt_rma_sync_payload_t, assert_flags),
                                  offsetof(ompi_evt_rma_sync_payload_t, lock_type),
                                  offsetof(ompi_evt_rma_sync_payload_t, group_size)};
    static const char *const names[9] = {"win",    "start_time", "complete_time",
                                         "kind",   "target",     "peer",
                                         "assert", "lock_type",  "group_size"};
    return rma_register(
        source, "mpi.rma_sync",
        "A one-sided synchronisation call returned: {win (the MPI_Win), start_time, "
        "complete_time (the call's entry and return), kind (0 fence, 1 post, 2 start, "
        "3 complete, 4 wait, 5 test (flag true), 6 lock, 7 unlock, 8 lock_all, 9 unlock_all, "
        "10 flush, 11 flush_all, 12 flush_local, 13 flush_local_all, 14 sync), target (lock, "
        "unlock, flush, flush_local: rank in the window's group; else -1), peer (that rank in "
        "MPI_COMM_WORLD, else -1), assert, lock_type (0 none, 1 exclusive, 2 shared), "
        "group_size (post, start: the group's size; else 0)}",
        9, types, offsets, names, &ompi_evt_rma_sync_event);
}

/* Context: INIT, ANY. */
int ompi_evt_rma_events_register(void)
{
    mca_base_event_source_t *source = ompi_evt_ompi_source();
    int rc;

    if (NULL == source) {
        return OPAL_ERR_NOT_AVAILABLE;
    }
    rc = rma_register_op(source);
    if (OPAL_SUCCESS != rc) {
        return rc;
    }
    return rma_register_sync(source);
}

/** World rank (vpid) of rank @p rank of @p win's group, or -1. */
static int32_t rma_peer(MPI_Win win, int rank)
{
    ompi_proc_t *proc;

    if (0 > rank || rank >= ompi_group_size(win->w_group)) {
        return -1;
    }
    proc = ompi_group_peer_lookup(win->w_group, rank);
    return NULL != proc ? (int32_t) proc->super.proc_name.vpid : -1;
}

void ompi_evt_rma_op_raise(MPI_Win win, const rma_op_args_t *args, int64_t start, int64_t done)
{
    ompi_evt_rma_op_payload_t payload = {.win = (uint64_t) (uintptr_t) win,
                                         .bytes_sent = args->sent,
                                         .bytes_recv = args->recv,
                                         .start_time = start,
                                         .complete_time = done,
                                         .target_disp = args->target_disp,
                                         .kind = args->kind,
                                         .target = args->target,
                                         .peer = rma_peer(win, args->target),
                                         .op = args->op};

    /* stamped with the return: no clock read of its own */
    (void) mca_base_event_raise_stamped(ompi_evt_rma_op_event, NULL, NULL, &payload,
                                        MCA_BASE_EVENT_CB_REQUIRE_NONE, done);
    /* the return of an MPI call: the tool may call MPI here */
    mca_base_event_call_return(false, done);
}

void ompi_evt_rma_sync_raise(MPI_Win win, const rma_sync_args_t *args, int64_t start, int64_t done)
{
    ompi_evt_rma_sync_payload_t payload = {.win = (uint64_t) (uintptr_t) win,
                                           .start_time = start,
                                           .complete_time = done,
                                           .kind = args->kind,
                                           .target = args->target,
                                           .peer = 0 <= args->target ? rma_peer(win, args->target)
                                                                     : -1,
                                           .assert_flags = args->assert_flags,
                                           .lock_type = args->lock_type,
                                           .group_size = args->group_size};

    (void) mca_base_event_raise_stamped(ompi_evt_rma_sync_event, NULL, NULL, &payload,
                                        MCA_BASE_EVENT_CB_REQUIRE_NONE, done);
    mca_base_event_call_return(false, done);
}
