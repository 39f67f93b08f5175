/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Payloads of the built-in events, as C structs: the producers
 * (ompi/runtime/ompi_evt_*.c, opal/mca/memory/patcher/) raise them, and a
 * tool declares one and fills it with MPI_T_event_copy() instead of
 * copying the layout. Installed as <ompi-evt include dir>/ompi/runtime/
 * ompi_evt_payloads.h:
 *
 *     #include "ompi/runtime/ompi_evt_payloads.h"
 *     ompi_evt_win_created_payload_t p;
 *     MPI_T_event_copy(instance, &p);
 *
 * Layouts (`type@offset`; docs/events.md); names and payloads
 * of the lifecycle, communicator, window, error handler and memory events
 * are Open MPI main's, the point-to-point and collective ones this
 * project's. Handles are
 * the C handle values (MPI_Comm, MPI_Win and MPI_Errhandler are pointers in
 * Open MPI), widened to u64. Each layout is pinned below with static
 * assertions on every offset and the size, so a change is a compile error
 * for the producer and for every tool alike.
 *
 * Self-contained on purpose (<stddef.h> and <stdint.h> only, C11 and C++11):
 * no Open MPI header needed.
 *
 * Context: declarations only.
 */

#ifndef OMPI_EVT_PAYLOADS_H
#define OMPI_EVT_PAYLOADS_H

#include <stddef.h>
#include <stdint.h>

/** Values of the "model" element of ompi.mpi.initialization/finalization. */
enum {
    OMPI_EVT_MPI_MODEL_WORLD = 0,    /**< MPI_Init / MPI_Init_thread */
    OMPI_EVT_MPI_MODEL_SESSIONS = 1, /**< MPI_Session_init (not in Open MPI 4.1) */
};

/* ompi.mca.memory.patcher.released / .release: their producer is OPAL's */
#include "opal/mca/memory/patcher/memory_patcher_event_payloads.h"

/* _Static_assert in C, static_assert in C++ (also defined, identically, by
 * memory_patcher_event_payloads.h). */
#ifndef EVT_PAYLOAD_STATIC_ASSERT
#    ifdef __cplusplus
#        define EVT_PAYLOAD_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#    else
#        define EVT_PAYLOAD_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#    endif
#endif

/** ompi.mpi.initialization: {i32 model@0, i32 thread_level@4, i32 world_rank@8,
 *  i32 world_size@12, u64 instance_id@16}. */
typedef struct ompi_evt_initialization_payload_t {
    int32_t model;        /**< OMPI_EVT_MPI_MODEL_* */
    int32_t thread_level; /**< MPI_THREAD_* provided */
    int32_t world_rank;
    int32_t world_size;
    uint64_t instance_id; /**< 1 for the first MPI_Init of the process */
} ompi_evt_initialization_payload_t;
EVT_PAYLOAD_STATIC_ASSERT(0 == offsetof(ompi_evt_initialization_payload_t, model)
                              && 4 == offsetof(ompi_evt_initialization_payload_t, thread_level)
                              && 8 == offsetof(ompi_evt_initialization_payload_t, world_rank)
                              && 12 == offsetof(ompi_evt_initialization_payload_t, world_size)
                              && 16 == offsetof(ompi_evt_initialization_payload_t, instance_id)
                              && 24 == sizeof(ompi_evt_initialization_payload_t),
                          "ompi.mpi.initialization: upstream's layout");

/** ompi.mpi.finalization: {i32 model@0, i32 world_rank@4, u64 instance_id@8}. */
typedef struct ompi_evt_finalization_payload_t {
    int32_t model; /**< OMPI_EVT_MPI_MODEL_* */
    int32_t world_rank;
    uint64_t instance_id; /**< the instance it ends */
} ompi_evt_finalization_payload_t;
EVT_PAYLOAD_STATIC_ASSERT(0 == offsetof(ompi_evt_finalization_payload_t, model)
                              && 4 == offsetof(ompi_evt_finalization_payload_t, world_rank)
                              && 8 == offsetof(ompi_evt_finalization_payload_t, instance_id)
                              && 16 == sizeof(ompi_evt_finalization_payload_t),
                          "ompi.mpi.finalization: upstream's layout");

/** ompi.mpi.communicator_created: {i32 size@0, u64 handle@8}. */
typedef struct ompi_evt_comm_created_payload_t {
    int32_t size; /**< local group size (MPI_Comm_size) */
    int32_t pad;  /**< not an element: 0 */
    uint64_t handle;
} ompi_evt_comm_created_payload_t;
EVT_PAYLOAD_STATIC_ASSERT(0 == offsetof(ompi_evt_comm_created_payload_t, size)
                              && 8 == offsetof(ompi_evt_comm_created_payload_t, handle)
                              && 16 == sizeof(ompi_evt_comm_created_payload_t),
                          "ompi.mpi.communicator_created: upstream's layout");

/** ompi.mpi.communicator_freed and ompi.mpi.communicator_name_set (bound to
 *  MPI_COMM): {u64 handle@0}. */
typedef struct ompi_evt_comm_handle_payload_t {
    uint64_t handle;
} ompi_evt_comm_handle_payload_t;
EVT_PAYLOAD_STATIC_ASSERT(0 == offsetof(ompi_evt_comm_handle_payload_t, handle)
                              && 8 == sizeof(ompi_evt_comm_handle_payload_t),
                          "ompi.mpi.communicator_freed/_name_set: upstream's layout");

/** Values of errhandler_invoked's object_type (Open MPI's
 *  OMPI_ERRHANDLER_TYPE_*, checked where the producer raises). */
enum {
    OMPI_EVT_ERRHANDLER_OBJECT_COMM = 1,
    OMPI_EVT_ERRHANDLER_OBJECT_WIN = 2,
    OMPI_EVT_ERRHANDLER_OBJECT_FILE = 3,
};

/** ompi.mpi.errhandler_invoked: {i32 err_code@0, i32 object_type@4,
 *  u64 errhandler@8, u64 object@16}. */
typedef struct ompi_evt_errhandler_invoked_payload_t {
    int32_t err_code;
    int32_t object_type; /**< OMPI_EVT_ERRHANDLER_OBJECT_* */
    uint64_t errhandler; /**< the MPI_Errhandler about to run */
    uint64_t object;     /**< the MPI_Comm, MPI_Win or MPI_File */
} ompi_evt_errhandler_invoked_payload_t;
EVT_PAYLOAD_STATIC_ASSERT(0 == offsetof(ompi_evt_errhandler_invoked_payload_t, err_code)
                              && 4 == offsetof(ompi_evt_errhandler_invoked_payload_t, object_type)
                              && 8 == offsetof(ompi_evt_errhandler_invoked_payload_t, errhandler)
                              && 16 == offsetof(ompi_evt_errhandler_invoked_payload_t, object)
                              && 24 == sizeof(ompi_evt_errhandler_invoked_payload_t),
                          "ompi.mpi.errhandler_invoked: upstream's layout");

/** ompi.mpi.win_created: {i64 size@0, i32 disp_unit@8, i32 flavor@12,
 *  u64 handle@16}. */
typedef struct ompi_evt_win_created_payload_t {
    int64_t size; /**< bytes of this process's window (0 for dynamic) */
    int32_t disp_unit;
    int32_t flavor; /**< MPI_WIN_FLAVOR_* */
    uint64_t handle;
} ompi_evt_win_created_payload_t;
EVT_PAYLOAD_STATIC_ASSERT(0 == offsetof(ompi_evt_win_created_payload_t, size)
                              && 8 == offsetof(ompi_evt_win_created_payload_t, disp_unit)
                              && 12 == offsetof(ompi_evt_win_created_payload_t, flavor)
                              && 16 == offsetof(ompi_evt_win_created_payload_t, handle)
                              && 24 == sizeof(ompi_evt_win_created_payload_t),
                          "ompi.mpi.win_created: upstream's layout");

/** ompi.mpi.win_freed: {i32 flavor@0, u64 handle@8}. */
typedef struct ompi_evt_win_freed_payload_t {
    int32_t flavor; /**< MPI_WIN_FLAVOR_* */
    int32_t pad;    /**< not an element: 0 */
    uint64_t handle;
} ompi_evt_win_freed_payload_t;
EVT_PAYLOAD_STATIC_ASSERT(0 == offsetof(ompi_evt_win_freed_payload_t, flavor)
                              && 8 == offsetof(ompi_evt_win_freed_payload_t, handle)
                              && 16 == sizeof(ompi_evt_win_freed_payload_t),
                          "ompi.mpi.win_freed: upstream's layout");

/** Values of the p2p events' mode. */
enum {
    OMPI_EVT_P2P_MODE_BLOCKING = 0,
    OMPI_EVT_P2P_MODE_NONBLOCKING = 1,
    OMPI_EVT_P2P_MODE_PERSISTENT = 2,
};

/** ompi.mpi.p2p_send_complete and ompi.mpi.p2p_recv_complete: {u64 comm@0,
 *  u64 bytes@8, i64 start_time@16, i64 complete_time@24, i32 peer@32,
 *  i32 tag@36, i32 mode@40, i32 comm_peer@44}. */
typedef struct ompi_evt_p2p_payload_t {
    uint64_t comm;
    uint64_t bytes;
    int64_t start_time;    /**< source "ompi" ticks (ns) */
    int64_t complete_time; /**< source "ompi" ticks (ns) */
    int32_t peer;          /**< rank in MPI_COMM_WORLD */
    int32_t tag;
    int32_t mode;      /**< OMPI_EVT_P2P_MODE_* */
    int32_t comm_peer; /**< rank in comm */
} ompi_evt_p2p_payload_t;
EVT_PAYLOAD_STATIC_ASSERT(0 == offsetof(ompi_evt_p2p_payload_t, comm)
                              && 8 == offsetof(ompi_evt_p2p_payload_t, bytes)
                              && 16 == offsetof(ompi_evt_p2p_payload_t, start_time)
                              && 24 == offsetof(ompi_evt_p2p_payload_t, complete_time)
                              && 32 == offsetof(ompi_evt_p2p_payload_t, peer)
                              && 36 == offsetof(ompi_evt_p2p_payload_t, tag)
                              && 40 == offsetof(ompi_evt_p2p_payload_t, mode)
                              && 44 == offsetof(ompi_evt_p2p_payload_t, comm_peer)
                              && 48 == sizeof(ompi_evt_p2p_payload_t),
                          "ompi.mpi.p2p_*_complete: the registered layout");

/** Values of ompi.mpi.coll_complete's kind: the collective operation. */
enum {
    OMPI_EVT_COLL_BARRIER = 0,
    OMPI_EVT_COLL_BCAST = 1,
    OMPI_EVT_COLL_GATHER = 2,
    OMPI_EVT_COLL_GATHERV = 3,
    OMPI_EVT_COLL_SCATTER = 4,
    OMPI_EVT_COLL_SCATTERV = 5,
    OMPI_EVT_COLL_ALLGATHER = 6,
    OMPI_EVT_COLL_ALLGATHERV = 7,
    OMPI_EVT_COLL_ALLTOALL = 8,
    OMPI_EVT_COLL_ALLTOALLV = 9,
    OMPI_EVT_COLL_ALLTOALLW = 10,
    OMPI_EVT_COLL_REDUCE = 11,
    OMPI_EVT_COLL_ALLREDUCE = 12,
    OMPI_EVT_COLL_REDUCE_SCATTER = 13,
    OMPI_EVT_COLL_REDUCE_SCATTER_BLOCK = 14,
    OMPI_EVT_COLL_SCAN = 15,
    OMPI_EVT_COLL_EXSCAN = 16,
    OMPI_EVT_COLL_NEIGHBOR_ALLGATHER = 17,
    OMPI_EVT_COLL_NEIGHBOR_ALLGATHERV = 18,
    OMPI_EVT_COLL_NEIGHBOR_ALLTOALL = 19,
    OMPI_EVT_COLL_NEIGHBOR_ALLTOALLV = 20,
    OMPI_EVT_COLL_NEIGHBOR_ALLTOALLW = 21,
    OMPI_EVT_COLL_KINDS = 22 /**< not a kind: how many there are */
};

/** Values of ompi.mpi.coll_complete's op: the reduction operation. */
enum {
    OMPI_EVT_COLL_OP_NONE = 0, /**< not a reduction */
    OMPI_EVT_COLL_OP_MAX = 1,
    OMPI_EVT_COLL_OP_MIN = 2,
    OMPI_EVT_COLL_OP_SUM = 3,
    OMPI_EVT_COLL_OP_PROD = 4,
    OMPI_EVT_COLL_OP_LAND = 5,
    OMPI_EVT_COLL_OP_BAND = 6,
    OMPI_EVT_COLL_OP_LOR = 7,
    OMPI_EVT_COLL_OP_BOR = 8,
    OMPI_EVT_COLL_OP_LXOR = 9,
    OMPI_EVT_COLL_OP_BXOR = 10,
    OMPI_EVT_COLL_OP_MAXLOC = 11,
    OMPI_EVT_COLL_OP_MINLOC = 12,
    OMPI_EVT_COLL_OP_REPLACE = 13,
    OMPI_EVT_COLL_OP_NO_OP = 14,
    OMPI_EVT_COLL_OP_USER = 15 /**< created with MPI_Op_create */
};

/** Values of ompi.mpi.coll_complete's root that are not a rank. */
enum {
    OMPI_EVT_COLL_ROOT_NONE = -1,      /**< the collective has no root */
    OMPI_EVT_COLL_ROOT_PROC_NULL = -2, /**< intercommunicator: MPI_PROC_NULL (root's group,
                                            not the root) */
    OMPI_EVT_COLL_ROOT_SELF = -3,      /**< intercommunicator: MPI_ROOT (this rank is the root) */
};

/** Bits of ompi.mpi.coll_complete's flags. */
enum {
    OMPI_EVT_COLL_FLAG_INTER = 1, /**< comm is an intercommunicator */
};

/** ompi.mpi.coll_complete: {u64 comm@0, u64 seq@8, u64 bytes_sent@16,
 *  u64 bytes_recv@24, i64 start_time@32, i64 complete_time@40, i32 kind@48,
 *  i32 root@52, i32 op@56, i32 mode@60, u32 cid@64, i32 comm_size@68,
 *  i32 comm_rank@72, u32 flags@76}. */
typedef struct ompi_evt_coll_payload_t {
    uint64_t comm;         /**< the MPI_Comm */
    uint64_t seq;          /**< the collective's number on comm: equal on every rank */
    uint64_t bytes_sent;   /**< bytes this rank contributes (docs/events.md) */
    uint64_t bytes_recv;   /**< bytes of this rank's receive buffer the call fills */
    int64_t start_time;    /**< source "ompi" ticks (ns) */
    int64_t complete_time; /**< source "ompi" ticks (ns) */
    int32_t kind;          /**< OMPI_EVT_COLL_* */
    int32_t root;          /**< rank in comm, or OMPI_EVT_COLL_ROOT_* */
    int32_t op;            /**< OMPI_EVT_COLL_OP_* */
    int32_t mode;          /**< OMPI_EVT_P2P_MODE_BLOCKING or _NONBLOCKING */
    uint32_t cid;          /**< comm's context id: equal on every rank */
    int32_t comm_size;     /**< size of comm's local group */
    int32_t comm_rank;     /**< this rank's rank in comm (its local group) */
    uint32_t flags;        /**< OMPI_EVT_COLL_FLAG_* */
} ompi_evt_coll_payload_t;
EVT_PAYLOAD_STATIC_ASSERT(0 == offsetof(ompi_evt_coll_payload_t, comm)
                              && 8 == offsetof(ompi_evt_coll_payload_t, seq)
                              && 16 == offsetof(ompi_evt_coll_payload_t, bytes_sent)
                              && 24 == offsetof(ompi_evt_coll_payload_t, bytes_recv)
                              && 32 == offsetof(ompi_evt_coll_payload_t, start_time)
                              && 40 == offsetof(ompi_evt_coll_payload_t, complete_time)
                              && 48 == offsetof(ompi_evt_coll_payload_t, kind)
                              && 52 == offsetof(ompi_evt_coll_payload_t, root)
                              && 56 == offsetof(ompi_evt_coll_payload_t, op)
                              && 60 == offsetof(ompi_evt_coll_payload_t, mode)
                              && 64 == offsetof(ompi_evt_coll_payload_t, cid)
                              && 68 == offsetof(ompi_evt_coll_payload_t, comm_size)
                              && 72 == offsetof(ompi_evt_coll_payload_t, comm_rank)
                              && 76 == offsetof(ompi_evt_coll_payload_t, flags)
                              && 80 == sizeof(ompi_evt_coll_payload_t),
                          "ompi.mpi.coll_complete: the registered layout");

/** What an ompi.mpi.rma_op event is: the call that issued it. */
enum {
    OMPI_EVT_RMA_PUT = 0,
    OMPI_EVT_RMA_GET = 1,
    OMPI_EVT_RMA_ACCUMULATE = 2,
    OMPI_EVT_RMA_GET_ACCUMULATE = 3,
    OMPI_EVT_RMA_FETCH_AND_OP = 4,
    OMPI_EVT_RMA_COMPARE_AND_SWAP = 5,
    OMPI_EVT_RMA_RPUT = 6,
    OMPI_EVT_RMA_RGET = 7,
    OMPI_EVT_RMA_RACCUMULATE = 8,
    OMPI_EVT_RMA_RGET_ACCUMULATE = 9,
    OMPI_EVT_RMA_KINDS = 10 /**< not a kind: how many there are */
};

/** ompi.mpi.rma_op (beyond Open MPI main, which has no one-sided event):
 *  one per one-sided communication call that returned MPI_SUCCESS
 *  (ompi_evt_rma.h). bytes_sent travel from this rank to the target,
 *  bytes_recv from the target into this rank's buffer (docs/events.md). */
typedef struct ompi_evt_rma_op_payload_t {
    uint64_t win;          /**< the MPI_Win, as ompi.mpi.win_created's handle */
    uint64_t bytes_sent;   /**< origin data sent to the target */
    uint64_t bytes_recv;   /**< data the target returns (get, fetch, result buffer) */
    int64_t start_time;    /**< the call's entry, source "ompi" ticks (ns) */
    int64_t complete_time; /**< the call's return (the operation completes at a later sync) */
    int64_t target_disp;   /**< the displacement given, in the target's disp units */
    int32_t kind;          /**< OMPI_EVT_RMA_* */
    int32_t target;        /**< the target's rank in the window's group */
    int32_t peer;          /**< the target's rank in MPI_COMM_WORLD of its job (vpid) */
    int32_t op;            /**< OMPI_EVT_COLL_OP_* (accumulating kinds), else 0 */
} ompi_evt_rma_op_payload_t;
EVT_PAYLOAD_STATIC_ASSERT(0 == offsetof(ompi_evt_rma_op_payload_t, win)
                              && 8 == offsetof(ompi_evt_rma_op_payload_t, bytes_sent)
                              && 16 == offsetof(ompi_evt_rma_op_payload_t, bytes_recv)
                              && 24 == offsetof(ompi_evt_rma_op_payload_t, start_time)
                              && 32 == offsetof(ompi_evt_rma_op_payload_t, complete_time)
                              && 40 == offsetof(ompi_evt_rma_op_payload_t, target_disp)
                              && 48 == offsetof(ompi_evt_rma_op_payload_t, kind)
                              && 52 == offsetof(ompi_evt_rma_op_payload_t, target)
                              && 56 == offsetof(ompi_evt_rma_op_payload_t, peer)
                              && 60 == offsetof(ompi_evt_rma_op_payload_t, op)
                              && 64 == sizeof(ompi_evt_rma_op_payload_t),
                          "ompi.mpi.rma_op: the registered layout");

/** What an ompi.mpi.rma_sync event is: the synchronisation call. */
enum {
    OMPI_EVT_RMA_SYNC_FENCE = 0,
    OMPI_EVT_RMA_SYNC_POST = 1,
    OMPI_EVT_RMA_SYNC_START = 2,
    OMPI_EVT_RMA_SYNC_COMPLETE = 3,
    OMPI_EVT_RMA_SYNC_WAIT = 4,
    OMPI_EVT_RMA_SYNC_TEST = 5, /**< only a MPI_Win_test that returned flag true */
    OMPI_EVT_RMA_SYNC_LOCK = 6,
    OMPI_EVT_RMA_SYNC_UNLOCK = 7,
    OMPI_EVT_RMA_SYNC_LOCK_ALL = 8,
    OMPI_EVT_RMA_SYNC_UNLOCK_ALL = 9,
    OMPI_EVT_RMA_SYNC_FLUSH = 10,
    OMPI_EVT_RMA_SYNC_FLUSH_ALL = 11,
    OMPI_EVT_RMA_SYNC_FLUSH_LOCAL = 12,
    OMPI_EVT_RMA_SYNC_FLUSH_LOCAL_ALL = 13,
    OMPI_EVT_RMA_SYNC_SYNC = 14,
    OMPI_EVT_RMA_SYNC_KINDS = 15 /**< not a kind: how many there are */
};

/** ompi.mpi.rma_sync's lock_type. */
enum { OMPI_EVT_RMA_LOCK_NONE = 0, OMPI_EVT_RMA_LOCK_EXCLUSIVE = 1, OMPI_EVT_RMA_LOCK_SHARED = 2 };

/** ompi.mpi.rma_sync (beyond Open MPI main): one per one-sided
 *  synchronisation call that returned MPI_SUCCESS (ompi_evt_rma.h). */
typedef struct ompi_evt_rma_sync_payload_t {
    uint64_t win;          /**< the MPI_Win, as ompi.mpi.win_created's handle */
    int64_t start_time;    /**< the call's entry, source "ompi" ticks (ns) */
    int64_t complete_time; /**< the call's return */
    int32_t kind;          /**< OMPI_EVT_RMA_SYNC_* */
    int32_t target;        /**< lock, unlock, flush, flush_local: the rank in the window's
                                group; else -1 */
    int32_t peer;          /**< that rank in MPI_COMM_WORLD of its job (vpid); else -1 */
    int32_t assert_flags;  /**< the assert argument (fence, post, start, lock, lock_all), else 0 */
    int32_t lock_type;     /**< lock: OMPI_EVT_RMA_LOCK_EXCLUSIVE or _SHARED; lock_all: _SHARED;
                                else OMPI_EVT_RMA_LOCK_NONE */
    int32_t group_size;    /**< post, start: the size of the group given; else 0 */
} ompi_evt_rma_sync_payload_t;
EVT_PAYLOAD_STATIC_ASSERT(0 == offsetof(ompi_evt_rma_sync_payload_t, win)
                              && 8 == offsetof(ompi_evt_rma_sync_payload_t, start_time)
                              && 16 == offsetof(ompi_evt_rma_sync_payload_t, complete_time)
                              && 24 == offsetof(ompi_evt_rma_sync_payload_t, kind)
                              && 28 == offsetof(ompi_evt_rma_sync_payload_t, target)
                              && 32 == offsetof(ompi_evt_rma_sync_payload_t, peer)
                              && 36 == offsetof(ompi_evt_rma_sync_payload_t, assert_flags)
                              && 40 == offsetof(ompi_evt_rma_sync_payload_t, lock_type)
                              && 44 == offsetof(ompi_evt_rma_sync_payload_t, group_size)
                              && 48 == sizeof(ompi_evt_rma_sync_payload_t),
                          "ompi.mpi.rma_sync: the registered layout");

/* ------------------------------------------------------------------------
 * Events from PMIx, on source "ompi.pmix" (ompi_evt_pmix_*.c;
 * docs/events.md, "Events from PMIx"). This project's own names and layouts.
 * ------------------------------------------------------------------------ */

/** Rank values of the PMIx events' rank elements that name no single rank. */
enum {
    OMPI_EVT_PMIX_RANK_NONE = -1,     /**< not given (or PMIX_RANK_UNDEF) */
    OMPI_EVT_PMIX_RANK_WILDCARD = -2, /**< PMIX_RANK_WILDCARD: every rank */
};

/** Values of ompi.pmix.proc_resource_usage's origin. */
enum {
    OMPI_EVT_PMIX_ORIGIN_PROC = 0, /**< sampled by this process from /proc/self */
    OMPI_EVT_PMIX_ORIGIN_PMIX = 1, /**< reported by the PMIx server
                                      (PMIX_MONITOR_PROC_RESOURCE_USAGE) */
};

/** ompi.pmix.proc_resource_usage: the process fields of PMIx's
 *  PMIX_PROC_RESOURCE_USAGE for this process, {i32 rank@0, i32 pid@4,
 *  i32 state@8, i32 priority@12, u32 num_threads@16, i32 cpu@20,
 *  u32 origin@24, u32 seq@28, u64 cpu_time_usec@32, double percent_cpu@40,
 *  double pss_mb@48, double vsize_mb@56, double rss_mb@64,
 *  double peak_vsize_mb@72, i64 sample_time@80}. Sizes in MiB (2^20 bytes),
 *  PMIx's "MBytes"; a value the sampler could not read is -1. */
typedef struct ompi_evt_pmix_resource_usage_payload_t {
    int32_t rank; /**< PMIx rank of the process, OMPI_EVT_PMIX_RANK_NONE if none */
    int32_t pid;
    int32_t state;    /**< the OS state character (Linux: 'R', 'S', 'D', ...) */
    int32_t priority; /**< the kernel's priority (Linux /proc stat field 18) */
    uint32_t num_threads;
    int32_t cpu;            /**< processor the process last ran on */
    uint32_t origin;        /**< OMPI_EVT_PMIX_ORIGIN_* */
    uint32_t seq;           /**< samples of this process numbered from 0: gaps are lost samples */
    uint64_t cpu_time_usec; /**< cumulative user + system CPU time */
    double percent_cpu;     /**< CPU time / wall time since the previous sample (the first:
                                 since the process started), in percent of one CPU */
    double pss_mb;          /**< proportional set size */
    double vsize_mb;        /**< virtual memory size */
    double rss_mb;          /**< resident set size */
    double peak_vsize_mb;   /**< peak virtual memory size */
    int64_t sample_time;    /**< when the sample was taken (time_t: seconds since the epoch) */
} ompi_evt_pmix_resource_usage_payload_t;
EVT_PAYLOAD_STATIC_ASSERT(
    0 == offsetof(ompi_evt_pmix_resource_usage_payload_t, rank)
        && 4 == offsetof(ompi_evt_pmix_resource_usage_payload_t, pid)
        && 8 == offsetof(ompi_evt_pmix_resource_usage_payload_t, state)
        && 12 == offsetof(ompi_evt_pmix_resource_usage_payload_t, priority)
        && 16 == offsetof(ompi_evt_pmix_resource_usage_payload_t, num_threads)
        && 20 == offsetof(ompi_evt_pmix_resource_usage_payload_t, cpu)
        && 24 == offsetof(ompi_evt_pmix_resource_usage_payload_t, origin)
        && 28 == offsetof(ompi_evt_pmix_resource_usage_payload_t, seq)
        && 32 == offsetof(ompi_evt_pmix_resource_usage_payload_t, cpu_time_usec)
        && 40 == offsetof(ompi_evt_pmix_resource_usage_payload_t, percent_cpu)
        && 48 == offsetof(ompi_evt_pmix_resource_usage_payload_t, pss_mb)
        && 56 == offsetof(ompi_evt_pmix_resource_usage_payload_t, vsize_mb)
        && 64 == offsetof(ompi_evt_pmix_resource_usage_payload_t, rss_mb)
        && 72 == offsetof(ompi_evt_pmix_resource_usage_payload_t, peak_vsize_mb)
        && 80 == offsetof(ompi_evt_pmix_resource_usage_payload_t, sample_time)
        && 88 == sizeof(ompi_evt_pmix_resource_usage_payload_t),
    "ompi.pmix.proc_resource_usage: the registered layout");

/** Values of ompi.pmix.monitor_alert's kind. */
enum {
    OMPI_EVT_PMIX_MONITOR_HEARTBEAT = 1, /**< PMIX_MONITOR_HEARTBEAT_ALERT */
    OMPI_EVT_PMIX_MONITOR_FILE = 2,      /**< PMIX_MONITOR_FILE_ALERT */
};

/** Bits of the PMIx events' flags. */
enum {
    /** rank / affected_rank is a process of this process's own namespace (job) */
    OMPI_EVT_PMIX_FLAG_SAME_JOB = 0x1,
    /** job_event: the event carried the affected process (PMIX_EVENT_AFFECTED_PROC) */
    OMPI_EVT_PMIX_FLAG_AFFECTED = 0x2,
    /** job_event: the event carried an exit code (PMIX_EXIT_CODE) */
    OMPI_EVT_PMIX_FLAG_EXIT_CODE = 0x4,
    /** job_event: the affected process is this process */
    OMPI_EVT_PMIX_FLAG_SELF = 0x8,
    /** job_event: source_rank is a process of this process's namespace
     *  (otherwise a rank of the reporter's own namespace, e.g. a server's) */
    OMPI_EVT_PMIX_FLAG_SOURCE_SAME_JOB = 0x10,
};

/** ompi.pmix.monitor_alert: a PMIx_Process_monitor alarm {i32 status@0,
 *  i32 kind@4, i32 rank@8, u32 flags@12}: the process @c rank missed its
 *  heartbeats, or its monitored file showed no sign of life. */
typedef struct ompi_evt_pmix_monitor_alert_payload_t {
    int32_t status; /**< the PMIx status of the alert (-109 heartbeat, -110 file) */
    int32_t kind;   /**< OMPI_EVT_PMIX_MONITOR_* */
    int32_t rank;   /**< the silent process (the alert's source), OMPI_EVT_PMIX_RANK_* */
    uint32_t flags; /**< OMPI_EVT_PMIX_FLAG_SAME_JOB */
} ompi_evt_pmix_monitor_alert_payload_t;
EVT_PAYLOAD_STATIC_ASSERT(0 == offsetof(ompi_evt_pmix_monitor_alert_payload_t, status)
                              && 4 == offsetof(ompi_evt_pmix_monitor_alert_payload_t, kind)
                              && 8 == offsetof(ompi_evt_pmix_monitor_alert_payload_t, rank)
                              && 12 == offsetof(ompi_evt_pmix_monitor_alert_payload_t, flags)
                              && 16 == sizeof(ompi_evt_pmix_monitor_alert_payload_t),
                          "ompi.pmix.monitor_alert: the registered layout");

/** ompi.pmix.job_event: a job event the host reported through PMIx (a
 *  process terminated or aborted, the job ended, the connection to the
 *  PMIx server was lost) {i32 status@0, i32 source_rank@4,
 *  i32 affected_rank@8, i32 exit_code@12, u32 flags@16}. */
typedef struct ompi_evt_pmix_job_event_payload_t {
    int32_t status;        /**< the PMIx status code (e.g. -201 PMIX_EVENT_PROC_TERMINATED) */
    int32_t source_rank;   /**< who reported it (OMPI_EVT_PMIX_FLAG_SOURCE_SAME_JOB: a rank of this
                                job; else of the reporter's namespace), OMPI_EVT_PMIX_RANK_* */
    int32_t affected_rank; /**< the process it is about, OMPI_EVT_PMIX_RANK_* */
    int32_t exit_code;     /**< with OMPI_EVT_PMIX_FLAG_EXIT_CODE; else 0 */
    uint32_t flags;        /**< OMPI_EVT_PMIX_FLAG_* */
} ompi_evt_pmix_job_event_payload_t;
EVT_PAYLOAD_STATIC_ASSERT(0 == offsetof(ompi_evt_pmix_job_event_payload_t, status)
                              && 4 == offsetof(ompi_evt_pmix_job_event_payload_t, source_rank)
                              && 8 == offsetof(ompi_evt_pmix_job_event_payload_t, affected_rank)
                              && 12 == offsetof(ompi_evt_pmix_job_event_payload_t, exit_code)
                              && 16 == offsetof(ompi_evt_pmix_job_event_payload_t, flags)
                              && 20 == sizeof(ompi_evt_pmix_job_event_payload_t),
                          "ompi.pmix.job_event: the registered layout");

#endif /* OMPI_EVT_PAYLOADS_H */
