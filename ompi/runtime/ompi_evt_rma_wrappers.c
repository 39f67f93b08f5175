/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The one-sided producer's wrappers (what they cover and the byte counts:
 * ompi_evt_rma.h): libompi_evt defines MPI_X and PMPI_X for the one-sided
 * communication and synchronisation calls and calls the next PMPI_X
 * (ompi_evt_pmpi_next.h). With nobody listening a wrapper is one relaxed
 * load and the call; with a listener it reads the clock at the entry and
 * the return, and the call's arguments only after the call succeeded (so
 * that erroneous arguments reach libmpi first and get its error).
 */

#include "ompi_config.h"

#include "ompi/group/group.h"
#include "ompi/runtime/ompi_evt_coll.h"
#include "ompi/runtime/ompi_evt_rma.h"

static inline void rma_args(rma_op_args_t *a, int32_t kind, int target, MPI_Aint disp,
                            uint64_t sent, uint64_t recv, int32_t op)
{
    *a = (rma_op_args_t){.sent = sent,
                         .recv = recv,
                         .target_disp = (int64_t) disp,
                         .kind = kind,
                         .target = target,
                         .op = op};
}

/** Origin bytes an accumulating call sends: none with MPI_NO_OP (the
 *  origin buffer is ignored then). */
static inline uint64_t rma_origin_bytes(MPI_Op op, int count, MPI_Datatype type)
{
    return MPI_NO_OP == op ? 0 : p2p_bytes(count, type);
}

static inline void rma_sync_args(rma_sync_args_t *a, int32_t kind, int target, int assert_flags,
                                 int32_t lock_type, int group_size)
{
    *a = (rma_sync_args_t){.kind = kind,
                           .target = target,
                           .assert_flags = assert_flags,
                           .lock_type = lock_type,
                           .group_size = group_size};
}

static inline int rma_group_size(MPI_Group group)
{
    return MPI_GROUP_NULL == group ? 0 : ompi_group_size(group);
}

/** Body of a communication call's wrapper: the next PMPI_@p name with
 *  @p args; @p describe fills rma_op_args_t a_ after a successful call to
 *  a target other than MPI_PROC_NULL. */
#define RMA_OP(name, args, describe)                                                    \
    do {                                                                                \
        mca_base_event_t *ev_ = ompi_evt_rma_op_event;                                  \
        int64_t t0_;                                                                    \
        int rc_;                                                                        \
        rma_op_args_t a_;                                                               \
        if (OPAL_LIKELY(!rma_listening(ev_))) {                                         \
            return EVT_CALL_NEXT(name, args);                                           \
        }                                                                               \
        t0_ = rma_now(ev_);                                                             \
        rc_ = EVT_CALL_NEXT(name, args);                                                \
        if (MPI_SUCCESS == rc_ && MPI_PROC_NULL != target_rank && rma_listening(ev_)) { \
            describe;                                                                   \
            ompi_evt_rma_op_raise(win, &a_, t0_, rma_now(ev_));                         \
        }                                                                               \
        return rc_;                                                                     \
    } while (0)

/** Body of a synchronisation call's wrapper; raised when @p raise holds
 *  after a successful call. */
#define RMA_SYNC(name, args, raise, describe)                      \
    do {                                                           \
        mca_base_event_t *ev_ = ompi_evt_rma_sync_event;           \
        int64_t t0_;                                               \
        int rc_;                                                   \
        rma_sync_args_t a_;                                        \
        if (OPAL_LIKELY(!rma_listening(ev_))) {                    \
            return EVT_CALL_NEXT(name, args);                      \
        }                                                          \
        t0_ = rma_now(ev_);                                        \
        rc_ = EVT_CALL_NEXT(name, args);                           \
        if (MPI_SUCCESS == rc_ && (raise) && rma_listening(ev_)) { \
            describe;                                              \
            ompi_evt_rma_sync_raise(win, &a_, t0_, rma_now(ev_));  \
        }                                                          \
        return rc_;                                                \
    } while (0)

/* ------------------------------------------------------------------------
 * Communication calls
 * ------------------------------------------------------------------------ */

static int evt_Put(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                   int target_rank, MPI_Aint target_disp, int target_count,
                   MPI_Datatype target_datatype, MPI_Win win)
{
    RMA_OP(Put,
           (origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
            target_datatype, win),
           rma_args(&a_, OMPI_EVT_RMA_PUT, target_rank, target_disp,
                    p2p_bytes(origin_count, origin_datatype), 0, OMPI_EVT_COLL_OP_NONE));
}

static int evt_Get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                   int target_rank, MPI_Aint target_disp, int target_count,
                   MPI_Datatype target_datatype, MPI_Win win)
{
    RMA_OP(Get,
           (origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
            target_datatype, win),
           rma_args(&a_, OMPI_EVT_RMA_GET, target_rank, target_disp, 0,
                    p2p_bytes(origin_count, origin_datatype), OMPI_EVT_COLL_OP_NONE));
}

static int evt_Accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                          int target_rank, MPI_Aint target_disp, int target_count,
                          MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    RMA_OP(Accumulate,
           (origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
            target_datatype, op, win),
           rma_args(&a_, OMPI_EVT_RMA_ACCUMULATE, target_rank, target_disp,
                    rma_origin_bytes(op, origin_count, origin_datatype), 0, ompi_evt_coll_op(op)));
}

static int evt_Get_accumulate(const void *origin_addr, int origin_count,
                              MPI_Datatype origin_datatype, void *result_addr, int result_count,
                              MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                              int target_count, MPI_Datatype target_datatype, MPI_Op op,
                              MPI_Win win)
{
    RMA_OP(Get_accumulate,
           (origin_addr, origin_count, origin_datatype, result_addr, result_count, result_datatype,
            target_rank, target_disp, target_count, target_datatype, op, win),
           rma_args(&a_, OMPI_EVT_RMA_GET_ACCUMULATE, target_rank, target_disp,
                    rma_origin_bytes(op, origin_count, origin_datatype),
                    p2p_bytes(result_count, result_datatype), ompi_evt_coll_op(op)));
}

static int evt_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype,
                            int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
    RMA_OP(Fetch_and_op, (origin_addr, result_addr, datatype, target_rank, target_disp, op, win),
           rma_args(&a_, OMPI_EVT_RMA_FETCH_AND_OP, target_rank, target_disp,
                    rma_origin_bytes(op, 1, datatype), p2p_bytes(1, datatype),
                    ompi_evt_coll_op(op)));
}

static int evt_Compare_and_swap(const void *origin_addr, const void *compare_addr,
                                void *result_addr, MPI_Datatype datatype, int target_rank,
                                MPI_Aint target_disp, MPI_Win win)
{
    RMA_OP(Compare_and_swap,
           (origin_addr, compare_addr, result_addr, datatype, target_rank, target_disp, win),
           rma_args(&a_, OMPI_EVT_RMA_COMPARE_AND_SWAP, target_rank, target_disp,
                    p2p_bytes(2, datatype), p2p_bytes(1, datatype), OMPI_EVT_COLL_OP_NONE));
}

static int evt_Rput(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                    int target_rank, MPI_Aint target_disp, int target_count,
                    MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
    RMA_OP(Rput,
           (origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
            target_datatype, win, request),
           rma_args(&a_, OMPI_EVT_RMA_RPUT, target_rank, target_disp,
                    p2p_bytes(origin_count, origin_datatype), 0, OMPI_EVT_COLL_OP_NONE));
}

static int evt_Rget(void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                    int target_rank, MPI_Aint target_disp, int target_count,
                    MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
    RMA_OP(Rget,
           (origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
            target_datatype, win, request),
           rma_args(&a_, OMPI_EVT_RMA_RGET, target_rank, target_disp, 0,
                    p2p_bytes(origin_count, origin_datatype), OMPI_EVT_COLL_OP_NONE));
}

static int evt_Raccumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                           int target_rank, MPI_Aint target_disp, int target_count,
                           MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                           MPI_Request *request)
{
    RMA_OP(Raccumulate,
           (origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
            target_datatype, op, win, request),
           rma_args(&a_, OMPI_EVT_RMA_RACCUMULATE, target_rank, target_disp,
                    rma_origin_bytes(op, origin_count, origin_datatype), 0, ompi_evt_coll_op(op)));
}

static int evt_Rget_accumulate(const void *origin_addr, int origin_count,
                               MPI_Datatype origin_datatype, void *result_addr, int result_count,
                               MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                               int target_count, MPI_Datatype target_datatype, MPI_Op op,
                               MPI_Win win, MPI_Request *request)
{
    RMA_OP(Rget_accumulate,
           (origin_addr, origin_count, origin_datatype, result_addr, result_count, result_datatype,
            target_rank, target_disp, target_count, target_datatype, op, win, request),
           rma_args(&a_, OMPI_EVT_RMA_RGET_ACCUMULATE, target_rank, target_disp,
                    rma_origin_bytes(op, origin_count, origin_datatype),
                    p2p_bytes(result_count, result_datatype), ompi_evt_coll_op(op)));
}

/* ------------------------------------------------------------------------
 * Synchronisation calls
 * ------------------------------------------------------------------------ */

static int evt_Win_fence(int assert, MPI_Win win)
{
    RMA_SYNC(Win_fence, (assert, win), true,
             rma_sync_args(&a_, OMPI_EVT_RMA_SYNC_FENCE, -1, assert, OMPI_EVT_RMA_LOCK_NONE, 0));
}

static int evt_Win_post(MPI_Group group, int assert, MPI_Win win)
{
    RMA_SYNC(Win_post, (group, assert, win), true,
             rma_sync_args(&a_, OMPI_EVT_RMA_SYNC_POST, -1, assert, OMPI_EVT_RMA_LOCK_NONE,
                           rma_group_size(group)));
}

static int evt_Win_start(MPI_Group group, int assert, MPI_Win win)
{
    RMA_SYNC(Win_start, (group, assert, win), true,
             rma_sync_args(&a_, OMPI_EVT_RMA_SYNC_START, -1, assert, OMPI_EVT_RMA_LOCK_NONE,
                           rma_group_size(group)));
}

static int evt_Win_complete(MPI_Win win)
{
    RMA_SYNC(Win_complete, (win), true,
             rma_sync_args(&a_, OMPI_EVT_RMA_SYNC_COMPLETE, -1, 0, OMPI_EVT_RMA_LOCK_NONE, 0));
}

static int evt_Win_wait(MPI_Win win)
{
    RMA_SYNC(Win_wait, (win), true,
             rma_sync_args(&a_, OMPI_EVT_RMA_SYNC_WAIT, -1, 0, OMPI_EVT_RMA_LOCK_NONE, 0));
}

static int evt_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
    RMA_SYNC(Win_lock, (lock_type, rank, assert, win), true,
             rma_sync_args(&a_, OMPI_EVT_RMA_SYNC_LOCK, rank, assert,
                           MPI_LOCK_EXCLUSIVE == lock_type ? OMPI_EVT_RMA_LOCK_EXCLUSIVE
                                                           : OMPI_EVT_RMA_LOCK_SHARED,
                           0));
}

static int evt_Win_unlock(int rank, MPI_Win win)
{
    RMA_SYNC(Win_unlock, (rank, win), true,
             rma_sync_args(&a_, OMPI_EVT_RMA_SYNC_UNLOCK, rank, 0, OMPI_EVT_RMA_LOCK_NONE, 0));
}

static int evt_Win_lock_all(int assert, MPI_Win win)
{
    RMA_SYNC(Win_lock_all, (assert, win), true,
             rma_sync_args(&a_, OMPI_EVT_RMA_SYNC_LOCK_ALL, -1, assert, OMPI_EVT_RMA_LOCK_SHARED,
                           0));
}

static int evt_Win_unlock_all(MPI_Win win)
{
    RMA_SYNC(Win_unlock_all, (win), true,
             rma_sync_args(&a_, OMPI_EVT_RMA_SYNC_UNLOCK_ALL, -1, 0, OMPI_EVT_RMA_LOCK_NONE, 0));
}

static int evt_Win_flush(int rank, MPI_Win win)
{
    RMA_SYNC(Win_flush, (rank, win), true,
             rma_sync_args(&a_, OMPI_EVT_RMA_SYNC_FLUSH, rank, 0, OMPI_EVT_RMA_LOCK_NONE, 0));
}

static int evt_Win_flush_all(MPI_Win win)
{
    RMA_SYNC(Win_flush_all, (win), true,
             rma_sync_args(&a_, OMPI_EVT_RMA_SYNC_FLUSH_ALL, -1, 0, OMPI_EVT_RMA_LOCK_NONE, 0));
}

static int evt_Win_flush_local(int rank, MPI_Win win)
{
    RMA_SYNC(Win_flush_local, (rank, win), true,
             rma_sync_args(&a_, OMPI_EVT_RMA_SYNC_FLUSH_LOCAL, rank, 0, OMPI_EVT_RMA_LOCK_NONE, 0));
}

static int evt_Win_flush_local_all(MPI_Win win)
{
    RMA_SYNC(Win_flush_local_all, (win), true,
             rma_sync_args(&a_, OMPI_EVT_RMA_SYNC_FLUSH_LOCAL_ALL, -1, 0, OMPI_EVT_RMA_LOCK_NONE,
                           0));
}

static int evt_Win_sync(MPI_Win win)
{
    RMA_SYNC(Win_sync, (win), true,
             rma_sync_args(&a_, OMPI_EVT_RMA_SYNC_SYNC, -1, 0, OMPI_EVT_RMA_LOCK_NONE, 0));
}

static int evt_Win_test(MPI_Win win, int *flag)
{
    /* *flag is read after the call, which sets it */
    RMA_SYNC(Win_test, (win, flag), 0 != *flag,
             rma_sync_args(&a_, OMPI_EVT_RMA_SYNC_TEST, -1, 0, OMPI_EVT_RMA_LOCK_NONE, 0));
}

/* ------------------------------------------------------------------------
 * Entry points: MPI_X for the application, PMPI_X for a PMPI tool
 * preloaded before libompi_evt (see ompi_evt_win_events.c).
 * ------------------------------------------------------------------------ */

int MPI_Accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                   int target_rank, MPI_Aint target_disp, int target_count,
                   MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    return EVT_PMPI_ENTRY(Accumulate, (origin_addr, origin_count, origin_datatype, target_rank,
                                       target_disp, target_count, target_datatype, op, win));
}
int PMPI_Accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                    int target_rank, MPI_Aint target_disp, int target_count,
                    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    return EVT_PMPI_ENTRY(Accumulate, (origin_addr, origin_count, origin_datatype, target_rank,
                                       target_disp, target_count, target_datatype, op, win));
}
int MPI_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr,
                         MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win)
{
    return EVT_PMPI_ENTRY(Compare_and_swap, (origin_addr, compare_addr, result_addr, datatype,
                                             target_rank, target_disp, win));
}
int PMPI_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr,
                          MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win)
{
    return EVT_PMPI_ENTRY(Compare_and_swap, (origin_addr, compare_addr, result_addr, datatype,
                                             target_rank, target_disp, win));
}
int MPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype,
                     int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
    return EVT_PMPI_ENTRY(Fetch_and_op,
                          (origin_addr, result_addr, datatype, target_rank, target_disp, op, win));
}
int PMPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype,
                      int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
    return EVT_PMPI_ENTRY(Fetch_and_op,
                          (origin_addr, result_addr, datatype, target_rank, target_disp, op, win));
}
int MPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
            MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    return EVT_PMPI_ENTRY(Get, (origin_addr, origin_count, origin_datatype, target_rank,
                                target_disp, target_count, target_datatype, win));
}
int PMPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    return EVT_PMPI_ENTRY(Get, (origin_addr, origin_count, origin_datatype, target_rank,
                                target_disp, target_count, target_datatype, win));
}
int MPI_Get_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                       void *result_addr, int result_count, MPI_Datatype result_datatype,
                       int target_rank, MPI_Aint target_disp, int target_count,
                       MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    return EVT_PMPI_ENTRY(Get_accumulate, (origin_addr, origin_count, origin_datatype, result_addr,
                                           result_count, result_datatype, target_rank, target_disp,
                                           target_count, target_datatype, op, win));
}
int PMPI_Get_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                        void *result_addr, int result_count, MPI_Datatype result_datatype,
                        int target_rank, MPI_Aint target_disp, int target_count,
                        MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    return EVT_PMPI_ENTRY(Get_accumulate, (origin_addr, origin_count, origin_datatype, result_addr,
                                           result_count, result_datatype, target_rank, target_disp,
                                           target_count, target_datatype, op, win));
}
int MPI_Put(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
            int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
            MPI_Win win)
{
    return EVT_PMPI_ENTRY(Put, (origin_addr, origin_count, origin_datatype, target_rank,
                                target_disp, target_count, target_datatype, win));
}
int PMPI_Put(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
             int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
             MPI_Win win)
{
    return EVT_PMPI_ENTRY(Put, (origin_addr, origin_count, origin_datatype, target_rank,
                                target_disp, target_count, target_datatype, win));
}
int MPI_Raccumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                    int target_rank, MPI_Aint target_disp, int target_count,
                    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Raccumulate,
                          (origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                           target_count, target_datatype, op, win, request));
}
int PMPI_Raccumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                     int target_rank, MPI_Aint target_disp, int target_count,
                     MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Raccumulate,
                          (origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                           target_count, target_datatype, op, win, request));
}
int MPI_Rget(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
             MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Rget, (origin_addr, origin_count, origin_datatype, target_rank,
                                 target_disp, target_count, target_datatype, win, request));
}
int PMPI_Rget(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
              MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
              MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Rget, (origin_addr, origin_count, origin_datatype, target_rank,
                                 target_disp, target_count, target_datatype, win, request));
}
int MPI_Rget_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                        void *result_addr, int result_count, MPI_Datatype result_datatype,
                        int target_rank, MPI_Aint target_disp, int target_count,
                        MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Rget_accumulate, (origin_addr, origin_count, origin_datatype, result_addr,
                                            result_count, result_datatype, target_rank, target_disp,
                                            target_count, target_datatype, op, win, request));
}
int PMPI_Rget_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                         void *result_addr, int result_count, MPI_Datatype result_datatype,
                         int target_rank, MPI_Aint target_disp, int target_count,
                         MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Rget_accumulate, (origin_addr, origin_count, origin_datatype, result_addr,
                                            result_count, result_datatype, target_rank, target_disp,
                                            target_count, target_datatype, op, win, request));
}
int MPI_Rput(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
             int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
             MPI_Win win, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Rput, (origin_addr, origin_count, origin_datatype, target_rank,
                                 target_disp, target_count, target_datatype, win, request));
}
int PMPI_Rput(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
              int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
              MPI_Win win, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Rput, (origin_addr, origin_count, origin_datatype, target_rank,
                                 target_disp, target_count, target_datatype, win, request));
}
int MPI_Win_complete(MPI_Win win)
{
    return EVT_PMPI_ENTRY(Win_complete, (win));
}
int PMPI_Win_complete(MPI_Win win)
{
    return EVT_PMPI_ENTRY(Win_complete, (win));
}
int MPI_Win_fence(int assert, MPI_Win win)
{
    return EVT_PMPI_ENTRY(Win_fence, (assert, win));
}
int PMPI_Win_fence(int assert, MPI_Win win)
{
    return EVT_PMPI_ENTRY(Win_fence, (assert, win));
}
int MPI_Win_flush(int rank, MPI_Win win)
{
    return EVT_PMPI_ENTRY(Win_flush, (rank, win));
}
int PMPI_Win_flush(int rank, MPI_Win win)
{
    return EVT_PMPI_ENTRY(Win_flush, (rank, win));
}
int MPI_Win_flush_all(MPI_Win win)
{
    return EVT_PMPI_ENTRY(Win_flush_all, (win));
}
int PMPI_Win_flush_all(MPI_Win win)
{
    return EVT_PMPI_ENTRY(Win_flush_all, (win));
}
int MPI_Win_flush_local(int rank, MPI_Win win)
{
    return EVT_PMPI_ENTRY(Win_flush_local, (rank, win));
}
int PMPI_Win_flush_local(int rank, MPI_Win win)
{
    return EVT_PMPI_ENTRY(Win_flush_local, (rank, win));
}
int MPI_Win_flush_local_all(MPI_Win win)
{
    return EVT_PMPI_ENTRY(Win_flush_local_all, (win));
}
int PMPI_Win_flush_local_all(MPI_Win win)
{
    return EVT_PMPI_ENTRY(Win_flush_local_all, (win));
}
int MPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
    return EVT_PMPI_ENTRY(Win_lock, (lock_type, rank, assert, win));
}
int PMPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
    return EVT_PMPI_ENTRY(Win_lock, (lock_type, rank, assert, win));
}
int MPI_Win_lock_all(int assert, MPI_Win win)
{
    return EVT_PMPI_ENTRY(Win_lock_all, (assert, win));
}
int PMPI_Win_lock_all(int assert, MPI_Win win)
{
    return EVT_PMPI_ENTRY(Win_lock_all, (assert, win));
}
int MPI_Win_post(MPI_Group group, int assert, MPI_Win win)
{
    return EVT_PMPI_ENTRY(Win_post, (group, assert, win));
}
int PMPI_Win_post(MPI_Group group, int assert, MPI_Win win)
{
    return EVT_PMPI_ENTRY(Win_post, (group, assert, win));
}
int MPI_Win_start(MPI_Group group, int assert, MPI_Win win)
{
    return EVT_PMPI_ENTRY(Win_start, (group, assert, win));
}
int PMPI_Win_start(MPI_Group group, int assert, MPI_Win win)
{
    return EVT_PMPI_ENTRY(Win_start, (group, assert, win));
}
int MPI_Win_sync(MPI_Win win)
{
    return EVT_PMPI_ENTRY(Win_sync, (win));
}
int PMPI_Win_sync(MPI_Win win)
{
    return EVT_PMPI_ENTRY(Win_sync, (win));
}
int MPI_Win_test(MPI_Win win, int *flag)
{
    return EVT_PMPI_ENTRY(Win_test, (win, flag));
}
int PMPI_Win_test(MPI_Win win, int *flag)
{
    return EVT_PMPI_ENTRY(Win_test, (win, flag));
}
int MPI_Win_unlock(int rank, MPI_Win win)
{
    return EVT_PMPI_ENTRY(Win_unlock, (rank, win));
}
int PMPI_Win_unlock(int rank, MPI_Win win)
{
    return EVT_PMPI_ENTRY(Win_unlock, (rank, win));
}
int MPI_Win_unlock_all(MPI_Win win)
{
    return EVT_PMPI_ENTRY(Win_unlock_all, (win));
}
int PMPI_Win_unlock_all(MPI_Win win)
{
    return EVT_PMPI_ENTRY(Win_unlock_all, (win));
}
int MPI_Win_wait(MPI_Win win)
{
    return EVT_PMPI_ENTRY(Win_wait, (win));
}
int PMPI_Win_wait(MPI_Win win)
{
    return EVT_PMPI_ENTRY(Win_wait, (win));
}
