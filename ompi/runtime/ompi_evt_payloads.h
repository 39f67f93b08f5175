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
 * Layouts (`type@offset`; README "Built-in events"); names and payloads
 * of the lifecycle, communicator, window, error handler and memory events
 * are Open MPI main's, the point-to-point ones this project's. Handles are
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

#endif /* OMPI_EVT_PAYLOADS_H */
