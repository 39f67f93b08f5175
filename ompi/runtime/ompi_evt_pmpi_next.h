/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * How libompi_evt's PMPI wrappers stack with other PMPI tools. libompi_evt
 * defines both MPI_X and PMPI_X for every function it wraps: the
 * application's MPI_X reaches it directly, and a PMPI tool preloaded before
 * it (LD_PRELOAD=tool.so:libompi_evt.so, as ompi-evt-record composes them)
 * reaches it through its own PMPI_X call. Either way the wrapper runs once
 * and calls the NEXT definition of PMPI_X (libmpi's, or another tool's
 * after us), resolved once when the library is loaded, never the name
 * PMPI_X, which would now be our own.
 *
 * libompi_evt's own MPI calls (evt/pmix's clock alignment) must raise
 * nothing, and no other tool may take them for the program's: they call
 * libmpi's own definitions (EVT_LIBMPI()), not the names PMPI_X, which
 * resolve to the first definition in the process, a PMPI tool's when one
 * is preloaded in front of libompi_evt. They run between
 * ompi_evt_pmpi_quiet_enter() and _exit(), so that the PMPI calls libmpi
 * makes itself inside them go straight to the next PMPI_X, as do those it
 * makes while a wrapper's call into it runs.
 */

#ifndef OMPI_EVT_PMPI_NEXT_H
#define OMPI_EVT_PMPI_NEXT_H

#include "ompi_config.h"

#include <mpi.h>

BEGIN_C_DECLS

/* The functions libompi_evt wraps (the X of MPI_X and PMPI_X). */
#define EVT_PMPI_FUNCTIONS(EVT_PMPI_FN)     \
    EVT_PMPI_FN(Accumulate)                 \
    EVT_PMPI_FN(Allgather)                  \
    EVT_PMPI_FN(Allgatherv)                 \
    EVT_PMPI_FN(Allreduce)                  \
    EVT_PMPI_FN(Alltoall)                   \
    EVT_PMPI_FN(Alltoallv)                  \
    EVT_PMPI_FN(Alltoallw)                  \
    EVT_PMPI_FN(Barrier)                    \
    EVT_PMPI_FN(Bcast)                      \
    EVT_PMPI_FN(Bsend)                      \
    EVT_PMPI_FN(Bsend_init)                 \
    EVT_PMPI_FN(Cart_create)                \
    EVT_PMPI_FN(Cart_sub)                   \
    EVT_PMPI_FN(Comm_accept)                \
    EVT_PMPI_FN(Comm_connect)               \
    EVT_PMPI_FN(Comm_create)                \
    EVT_PMPI_FN(Comm_create_errhandler)     \
    EVT_PMPI_FN(Comm_create_group)          \
    EVT_PMPI_FN(Comm_disconnect)            \
    EVT_PMPI_FN(Comm_dup)                   \
    EVT_PMPI_FN(Comm_dup_with_info)         \
    EVT_PMPI_FN(Comm_free)                  \
    EVT_PMPI_FN(Comm_get_parent)            \
    EVT_PMPI_FN(Comm_idup)                  \
    EVT_PMPI_FN(Comm_join)                  \
    EVT_PMPI_FN(Comm_set_errhandler)        \
    EVT_PMPI_FN(Comm_set_name)              \
    EVT_PMPI_FN(Comm_spawn)                 \
    EVT_PMPI_FN(Comm_spawn_multiple)        \
    EVT_PMPI_FN(Comm_split)                 \
    EVT_PMPI_FN(Comm_split_type)            \
    EVT_PMPI_FN(Compare_and_swap)           \
    EVT_PMPI_FN(Dist_graph_create)          \
    EVT_PMPI_FN(Dist_graph_create_adjacent) \
    EVT_PMPI_FN(Exscan)                     \
    EVT_PMPI_FN(Fetch_and_op)               \
    EVT_PMPI_FN(File_create_errhandler)     \
    EVT_PMPI_FN(File_set_errhandler)        \
    EVT_PMPI_FN(Finalize)                   \
    EVT_PMPI_FN(Gather)                     \
    EVT_PMPI_FN(Gatherv)                    \
    EVT_PMPI_FN(Get)                        \
    EVT_PMPI_FN(Get_accumulate)             \
    EVT_PMPI_FN(Graph_create)               \
    EVT_PMPI_FN(Iallgather)                 \
    EVT_PMPI_FN(Iallgatherv)                \
    EVT_PMPI_FN(Iallreduce)                 \
    EVT_PMPI_FN(Ialltoall)                  \
    EVT_PMPI_FN(Ialltoallv)                 \
    EVT_PMPI_FN(Ialltoallw)                 \
    EVT_PMPI_FN(Ibarrier)                   \
    EVT_PMPI_FN(Ibcast)                     \
    EVT_PMPI_FN(Ibsend)                     \
    EVT_PMPI_FN(Iexscan)                    \
    EVT_PMPI_FN(Igather)                    \
    EVT_PMPI_FN(Igatherv)                   \
    EVT_PMPI_FN(Improbe)                    \
    EVT_PMPI_FN(Imrecv)                     \
    EVT_PMPI_FN(Ineighbor_allgather)        \
    EVT_PMPI_FN(Ineighbor_allgatherv)       \
    EVT_PMPI_FN(Ineighbor_alltoall)         \
    EVT_PMPI_FN(Ineighbor_alltoallv)        \
    EVT_PMPI_FN(Ineighbor_alltoallw)        \
    EVT_PMPI_FN(Init)                       \
    EVT_PMPI_FN(Init_thread)                \
    EVT_PMPI_FN(Intercomm_create)           \
    EVT_PMPI_FN(Intercomm_merge)            \
    EVT_PMPI_FN(Irecv)                      \
    EVT_PMPI_FN(Ireduce)                    \
    EVT_PMPI_FN(Ireduce_scatter)            \
    EVT_PMPI_FN(Ireduce_scatter_block)      \
    EVT_PMPI_FN(Irsend)                     \
    EVT_PMPI_FN(Iscan)                      \
    EVT_PMPI_FN(Iscatter)                   \
    EVT_PMPI_FN(Iscatterv)                  \
    EVT_PMPI_FN(Isend)                      \
    EVT_PMPI_FN(Issend)                     \
    EVT_PMPI_FN(Mprobe)                     \
    EVT_PMPI_FN(Mrecv)                      \
    EVT_PMPI_FN(Neighbor_allgather)         \
    EVT_PMPI_FN(Neighbor_allgatherv)        \
    EVT_PMPI_FN(Neighbor_alltoall)          \
    EVT_PMPI_FN(Neighbor_alltoallv)         \
    EVT_PMPI_FN(Neighbor_alltoallw)         \
    EVT_PMPI_FN(Put)                        \
    EVT_PMPI_FN(Raccumulate)                \
    EVT_PMPI_FN(Recv)                       \
    EVT_PMPI_FN(Recv_init)                  \
    EVT_PMPI_FN(Reduce)                     \
    EVT_PMPI_FN(Reduce_scatter)             \
    EVT_PMPI_FN(Reduce_scatter_block)       \
    EVT_PMPI_FN(Request_free)               \
    EVT_PMPI_FN(Rget)                       \
    EVT_PMPI_FN(Rget_accumulate)            \
    EVT_PMPI_FN(Rput)                       \
    EVT_PMPI_FN(Rsend)                      \
    EVT_PMPI_FN(Rsend_init)                 \
    EVT_PMPI_FN(Scan)                       \
    EVT_PMPI_FN(Scatter)                    \
    EVT_PMPI_FN(Scatterv)                   \
    EVT_PMPI_FN(Send)                       \
    EVT_PMPI_FN(Send_init)                  \
    EVT_PMPI_FN(Sendrecv)                   \
    EVT_PMPI_FN(Sendrecv_replace)           \
    EVT_PMPI_FN(Ssend)                      \
    EVT_PMPI_FN(Ssend_init)                 \
    EVT_PMPI_FN(Start)                      \
    EVT_PMPI_FN(Startall)                   \
    EVT_PMPI_FN(Test)                       \
    EVT_PMPI_FN(Testall)                    \
    EVT_PMPI_FN(Testany)                    \
    EVT_PMPI_FN(Testsome)                   \
    EVT_PMPI_FN(Wait)                       \
    EVT_PMPI_FN(Waitall)                    \
    EVT_PMPI_FN(Waitany)                    \
    EVT_PMPI_FN(Waitsome)                   \
    EVT_PMPI_FN(Win_allocate)               \
    EVT_PMPI_FN(Win_allocate_shared)        \
    EVT_PMPI_FN(Win_complete)               \
    EVT_PMPI_FN(Win_create)                 \
    EVT_PMPI_FN(Win_create_dynamic)         \
    EVT_PMPI_FN(Win_create_errhandler)      \
    EVT_PMPI_FN(Win_fence)                  \
    EVT_PMPI_FN(Win_flush)                  \
    EVT_PMPI_FN(Win_flush_all)              \
    EVT_PMPI_FN(Win_flush_local)            \
    EVT_PMPI_FN(Win_flush_local_all)        \
    EVT_PMPI_FN(Win_free)                   \
    EVT_PMPI_FN(Win_lock)                   \
    EVT_PMPI_FN(Win_lock_all)               \
    EVT_PMPI_FN(Win_post)                   \
    EVT_PMPI_FN(Win_set_errhandler)         \
    EVT_PMPI_FN(Win_start)                  \
    EVT_PMPI_FN(Win_sync)                   \
    EVT_PMPI_FN(Win_test)                   \
    EVT_PMPI_FN(Win_unlock)                 \
    EVT_PMPI_FN(Win_unlock_all)             \
    EVT_PMPI_FN(Win_wait)

/** The next definition of PMPI_X (never ours). */
#define EVT_PMPI_DECLARE_NEXT(name) extern __typeof__(PMPI_##name) *ompi_evt_next_##name;
#pragma GCC visibility push(hidden)
EVT_PMPI_FUNCTIONS(EVT_PMPI_DECLARE_NEXT)
/** Calls of this thread made by libompi_evt itself (nesting count). */
extern __thread int ompi_evt_pmpi_quiet_depth __attribute__((tls_model("initial-exec")));
#pragma GCC visibility pop
#undef EVT_PMPI_DECLARE_NEXT

/** The next definition of PMPI_@p name. */
#define EVT_NEXT(name) (ompi_evt_next_##name)

/** Call the next PMPI_@p name with @p args, quiet: libmpi calls some PMPI
 *  functions itself (MPI_Sendrecv_replace with MPI_PROC_NULL calls
 *  PMPI_Sendrecv), and those calls must not be taken for the
 *  application's. */
#define EVT_CALL_NEXT(name, args)      \
    __extension__({                    \
        int evt_rc_;                   \
        ++ompi_evt_pmpi_quiet_depth;   \
        evt_rc_ = EVT_NEXT(name) args; \
        --ompi_evt_pmpi_quiet_depth;   \
        evt_rc_;                       \
    })

/** Body of the MPI_X and PMPI_X entry points: the wrapper evt_X, or, for
 *  libompi_evt's own calls, the next PMPI_X. */
#define EVT_PMPI_ENTRY(name, args) \
    (OPAL_UNLIKELY(0 != ompi_evt_pmpi_quiet_depth) ? EVT_NEXT(name) args : evt_##name args)

/* The functions libompi_evt (evt/pmix's clock alignment) calls for itself. */
#define EVT_LIBMPI_FUNCTIONS(EVT_LIBMPI_FN) \
    EVT_LIBMPI_FN(Cancel)                   \
    EVT_LIBMPI_FN(Comm_free)                \
    EVT_LIBMPI_FN(Comm_idup)                \
    EVT_LIBMPI_FN(Comm_rank)                \
    EVT_LIBMPI_FN(Comm_set_errhandler)      \
    EVT_LIBMPI_FN(Comm_size)                \
    EVT_LIBMPI_FN(Finalized)                \
    EVT_LIBMPI_FN(Iallgather)               \
    EVT_LIBMPI_FN(Initialized)              \
    EVT_LIBMPI_FN(Irecv)                    \
    EVT_LIBMPI_FN(Isend)                    \
    EVT_LIBMPI_FN(Request_free)             \
    EVT_LIBMPI_FN(Test)

/** libmpi's own definition of PMPI_X (resolved when libompi_evt is loaded). */
#define EVT_LIBMPI_DECLARE(name) \
    OMPI_DECLSPEC extern __typeof__(PMPI_##name) *ompi_evt_libmpi_##name;
EVT_LIBMPI_FUNCTIONS(EVT_LIBMPI_DECLARE)
#undef EVT_LIBMPI_DECLARE

/** libmpi's own PMPI_@p name, for a call libompi_evt makes for itself
 *  (inside ompi_evt_pmpi_quiet_enter() and _exit()). NULL when libmpi was
 *  not found among the loaded objects (ompi_evt_libmpi_ready()). */
#define EVT_LIBMPI(name) (ompi_evt_libmpi_##name)

/** Whether every EVT_LIBMPI() function was found. Context: ANY. */
OMPI_DECLSPEC bool ompi_evt_libmpi_ready(void);

/** Bracket MPI calls libompi_evt (or a component loaded with it) makes for
 *  itself: they raise no event and are not tracked. Nestable, per thread.
 *  Context: ANY. */
OMPI_DECLSPEC void ompi_evt_pmpi_quiet_enter(void);
OMPI_DECLSPEC void ompi_evt_pmpi_quiet_exit(void);

END_C_DECLS

#endif /* OMPI_EVT_PMPI_NEXT_H */
