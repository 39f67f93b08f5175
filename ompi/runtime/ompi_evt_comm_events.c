/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Communicator life cycle: ompi.mpi.communicator_created {i32 size@0,
 * u64 handle@8}, ompi.mpi.communicator_freed {u64 handle@0} and
 * ompi.mpi.communicator_name_set {u64 handle@0} (bound to MPI_COMM,
 * synchronous), Open MPI main's names and payloads.
 *
 * handle is the MPI_Comm, i.e. the ompi_communicator_t * (the same value a
 * tool's MPI_Comm holds), so created and freed pair by equality. size is
 * the local group's size (for an intercommunicator, MPI_Comm_size).
 *
 * Covered constructors (PMPI wrappers): Comm_dup, Comm_dup_with_info,
 * Comm_idup, Comm_split, Comm_split_type, Comm_create, Comm_create_group,
 * Cart_create, Cart_sub, Graph_create, Dist_graph_create,
 * Dist_graph_create_adjacent, Intercomm_create, Intercomm_merge,
 * Comm_spawn, Comm_spawn_multiple, Comm_connect, Comm_accept, Comm_join, and
 * Comm_get_parent (the parent intercommunicator is made inside MPI_Init:
 * it is reported once, at the first Comm_get_parent that returns it, so
 * that its later free or disconnect pairs). Destructors: Comm_free,
 * Comm_disconnect. A constructor that returns MPI_COMM_NULL (split with
 * MPI_UNDEFINED, create with a group the caller is not in) raises nothing.
 *
 * Comm_idup: raised at the call, not at completion. Open MPI 4.1 stores
 * the new handle in *newcomm before MPI_Comm_idup returns and the handle
 * (and its size) never changes afterwards; raising at the call keeps the
 * event independent of which Wait/Test completes the request and of a
 * listener that attaches in between. A tool must not communicate on it
 * before the request completes (as for the application).
 *
 * Not covered: MPI_COMM_WORLD and MPI_COMM_SELF (predefined, never
 * created or freed by the application), communicators made inside libmpi
 * without an MPI_ call (e.g. by collectives components). Calls through the
 * Fortran bindings are covered: they call PMPI_X.
 *
 * Context: every wrapper is RAISE on the calling thread.
 */

#include "ompi_config.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "mpi.h"
#include "ompi/runtime/ompi_evt_coll.h"
#include "ompi/runtime/ompi_evt_payloads.h"
#include "ompi/runtime/ompi_evt_pmpi_next.h"
#include "ompi/runtime/ompi_evt_producers.h"

static mca_base_event_t *comm_created_event = NULL;
static mca_base_event_t *comm_freed_event = NULL;
static mca_base_event_t *comm_name_set_event = NULL;

/** Set once the parent intercommunicator has been reported. */
static atomic_int parent_reported = 0;

/* Context: INIT, ANY. */
int ompi_evt_comm_events_register(void)
{
    const mca_base_var_type_t created_types[2] = {MCA_BASE_VAR_TYPE_INT32_T,
                                                  MCA_BASE_VAR_TYPE_UINT64_T};
    const ptrdiff_t created_offsets[2] = {offsetof(ompi_evt_comm_created_payload_t, size),
                                          offsetof(ompi_evt_comm_created_payload_t, handle)};
    const mca_base_var_type_t handle_types[1] = {MCA_BASE_VAR_TYPE_UINT64_T};
    const ptrdiff_t handle_offsets[1] = {offsetof(ompi_evt_comm_handle_payload_t, handle)};
    /* upstream's field names (Open MPI main) */
    static const char *const created_names[2] = {"size", "handle"};
    static const char *const handle_names[1] = {"handle"};
    mca_base_event_source_t *source;
    int ei;

    source = ompi_evt_ompi_source();
    if (NULL == source) {
        return OPAL_ERR_NOT_AVAILABLE;
    }
    ei = mca_base_event_register_ptr("ompi", NULL, NULL, "mpi.communicator_created",
                                     "A communicator was created: {size, handle}", OPAL_INFO_LVL_4,
                                     2, created_types, created_offsets, NULL,
                                     MCA_BASE_VAR_BIND_NO_OBJECT, 0, source, NULL,
                                     &comm_created_event);
    if (0 > ei) {
        return ei;
    }
    ei = mca_base_event_set_element_names(comm_created_event, created_names);
    if (OPAL_SUCCESS != ei) {
        return ei;
    }
    ei = mca_base_event_register_ptr("ompi", NULL, NULL, "mpi.communicator_freed",
                                     "A communicator was freed or disconnected: {handle}",
                                     OPAL_INFO_LVL_4, 1, handle_types, handle_offsets, NULL,
                                     MCA_BASE_VAR_BIND_NO_OBJECT, 0, source, NULL,
                                     &comm_freed_event);
    if (0 > ei) {
        return ei;
    }
    ei = mca_base_event_set_element_names(comm_freed_event, handle_names);
    if (OPAL_SUCCESS != ei) {
        return ei;
    }
    ei = mca_base_event_register_ptr("ompi", NULL, NULL, "mpi.communicator_name_set",
                                     "The name of the bound communicator was set; read it with "
                                     "MPI_Comm_get_name in the callback: {handle}",
                                     OPAL_INFO_LVL_4, 1, handle_types, handle_offsets, NULL,
                                     MCA_BASE_VAR_BIND_MPI_COMM, MCA_BASE_EVENT_FLAG_SYNCHRONOUS,
                                     source, NULL, &comm_name_set_event);
    if (0 > ei) {
        return ei;
    }
    return mca_base_event_set_element_names(comm_name_set_event, handle_names);
}

/**
 * Raise communicator_created for *@p newcomm if the constructor succeeded.
 * @param[in] rc       the PMPI call's return code
 * @param[in] newcomm  where the PMPI call stored the new communicator (read
 *                     here, after the call: C leaves the evaluation order of
 *                     arguments unspecified)
 * @return @p rc unchanged
 * Context: RAISE.
 */
static inline int comm_created(int rc, const MPI_Comm *newcomm)
{
    MPI_Comm comm;

    mca_base_event_t *ev = comm_created_event;
    ompi_evt_comm_created_payload_t payload;
    int size = 0;

    if (OPAL_LIKELY(NULL == ev || !mca_base_event_active(ev))) {
        return rc;
    }
    if (MPI_SUCCESS != rc || MPI_COMM_NULL == *newcomm) {
        return rc;
    }
    comm = *newcomm;
    (void) PMPI_Comm_size(comm, &size);
    payload.size = size;
    payload.pad = 0;
    payload.handle = (uint64_t) (uintptr_t) comm;
    (void) mca_base_event_raise(ev, NULL, &payload);
    /* the return of an MPI call: the tool may call MPI here */
    mca_base_event_call_return(true, 0);
    return rc;
}

/**
 * Raise communicator_freed for @p handle if the destructor succeeded.
 * Context: RAISE.
 */
static inline int comm_freed(int rc, uint64_t handle)
{
    mca_base_event_t *ev = comm_freed_event;
    ompi_evt_comm_handle_payload_t payload;

    if (OPAL_LIKELY(NULL == ev || !mca_base_event_active(ev))) {
        return rc;
    }
    if (MPI_SUCCESS == rc) {
        payload.handle = handle;
        (void) mca_base_event_raise(ev, NULL, &payload);
        /* the return of an MPI call: the tool may call MPI here */
        mca_base_event_call_return(true, 0);
    }
    return rc;
}

static int evt_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    return comm_created(EVT_CALL_NEXT(Comm_dup, (comm, newcomm)), newcomm);
}

static int evt_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    return comm_created(EVT_CALL_NEXT(Comm_dup_with_info, (comm, info, newcomm)), newcomm);
}

static int evt_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
    /* At the call: see the file comment. */
    return comm_created(EVT_CALL_NEXT(Comm_idup, (comm, newcomm, request)), newcomm);
}

static int evt_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    return comm_created(EVT_CALL_NEXT(Comm_split, (comm, color, key, newcomm)), newcomm);
}

static int evt_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info,
                               MPI_Comm *newcomm)
{
    return comm_created(EVT_CALL_NEXT(Comm_split_type, (comm, split_type, key, info, newcomm)),
                        newcomm);
}

static int evt_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    return comm_created(EVT_CALL_NEXT(Comm_create, (comm, group, newcomm)), newcomm);
}

static int evt_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    return comm_created(EVT_CALL_NEXT(Comm_create_group, (comm, group, tag, newcomm)), newcomm);
}

static int evt_Cart_create(MPI_Comm old_comm, int ndims, const int dims[], const int periods[],
                           int reorder, MPI_Comm *comm_cart)
{
    return comm_created(EVT_CALL_NEXT(Cart_create,
                                      (old_comm, ndims, dims, periods, reorder, comm_cart)),
                        comm_cart);
}

static int evt_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *new_comm)
{
    return comm_created(EVT_CALL_NEXT(Cart_sub, (comm, remain_dims, new_comm)), new_comm);
}

static int evt_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[],
                            int reorder, MPI_Comm *comm_graph)
{
    return comm_created(EVT_CALL_NEXT(Graph_create,
                                      (comm_old, nnodes, index, edges, reorder, comm_graph)),
                        comm_graph);
}

static int evt_Dist_graph_create(MPI_Comm comm_old, int n, const int nodes[], const int degrees[],
                                 const int targets[], const int weights[], MPI_Info info,
                                 int reorder, MPI_Comm *newcomm)
{
    return comm_created(EVT_CALL_NEXT(Dist_graph_create, (comm_old, n, nodes, degrees, targets,
                                                          weights, info, reorder, newcomm)),
                        newcomm);
}

static int evt_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                          const int sourceweights[], int outdegree,
                                          const int destinations[], const int destweights[],
                                          MPI_Info info, int reorder, MPI_Comm *comm_dist_graph)
{
    return comm_created(EVT_CALL_NEXT(Dist_graph_create_adjacent,
                                      (comm_old, indegree, sources, sourceweights, outdegree,
                                       destinations, destweights, info, reorder, comm_dist_graph)),
                        comm_dist_graph);
}

static int evt_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm bridge_comm,
                                int remote_leader, int tag, MPI_Comm *newintercomm)
{
    return comm_created(EVT_CALL_NEXT(Intercomm_create, (local_comm, local_leader, bridge_comm,
                                                         remote_leader, tag, newintercomm)),
                        newintercomm);
}

static int evt_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintercomm)
{
    return comm_created(EVT_CALL_NEXT(Intercomm_merge, (intercomm, high, newintercomm)),
                        newintercomm);
}

static int evt_Comm_spawn(const char *command, char *argv[], int maxprocs, MPI_Info info, int root,
                          MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[])
{
    return comm_created(EVT_CALL_NEXT(Comm_spawn, (command, argv, maxprocs, info, root, comm,
                                                   intercomm, array_of_errcodes)),
                        intercomm);
}

static int evt_Comm_spawn_multiple(int count, char *array_of_commands[], char **array_of_argv[],
                                   const int array_of_maxprocs[], const MPI_Info array_of_info[],
                                   int root, MPI_Comm comm, MPI_Comm *intercomm,
                                   int array_of_errcodes[])
{
    return comm_created(EVT_CALL_NEXT(Comm_spawn_multiple,
                                      (count, array_of_commands, array_of_argv, array_of_maxprocs,
                                       array_of_info, root, comm, intercomm, array_of_errcodes)),
                        intercomm);
}

static int evt_Comm_connect(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                            MPI_Comm *newcomm)
{
    return comm_created(EVT_CALL_NEXT(Comm_connect, (port_name, info, root, comm, newcomm)),
                        newcomm);
}

static int evt_Comm_accept(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                           MPI_Comm *newcomm)
{
    return comm_created(EVT_CALL_NEXT(Comm_accept, (port_name, info, root, comm, newcomm)),
                        newcomm);
}

static int evt_Comm_join(int fd, MPI_Comm *intercomm)
{
    return comm_created(EVT_CALL_NEXT(Comm_join, (fd, intercomm)), intercomm);
}

static int evt_Comm_get_parent(MPI_Comm *parent)
{
    int rc = EVT_CALL_NEXT(Comm_get_parent, (parent));
    int expected = 0;

    /* Reported once, and only to listeners present at that moment: the
     * flag is set only when the event is actually raised. */
    if (OPAL_LIKELY(NULL == comm_created_event || !mca_base_event_active(comm_created_event))) {
        return rc;
    }
    if (MPI_SUCCESS == rc && MPI_COMM_NULL != *parent
        && atomic_compare_exchange_strong_explicit(&parent_reported, &expected, 1,
                                                   memory_order_relaxed, memory_order_relaxed)) {
        (void) comm_created(rc, parent);
    }
    return rc;
}

/** Body of the wrappers of MPI_Comm_free and MPI_Comm_disconnect (the next
 *  PMPI_@p name on @p comm): a successful release raises
 *  communicator_freed and starts the numbering of the communicator's
 *  collectives again (its context id may be given to a later one). */
#define COMM_RELEASE(name, comm)                                                 \
    do {                                                                         \
        uint64_t handle_ = NULL != (comm) ? (uint64_t) (uintptr_t) * (comm) : 0; \
        uint32_t cid_ = ompi_evt_coll_cid((MPI_Comm) (uintptr_t) handle_);       \
        int rc_ = EVT_CALL_NEXT(name, (comm));                                   \
        if (MPI_SUCCESS == rc_) {                                                \
            ompi_evt_coll_forget(cid_);                                          \
        }                                                                        \
        return comm_freed(rc_, handle_);                                         \
    } while (0)

static int evt_Comm_free(MPI_Comm *comm)
{
    COMM_RELEASE(Comm_free, comm);
}

static int evt_Comm_disconnect(MPI_Comm *comm)
{
    COMM_RELEASE(Comm_disconnect, comm);
}

static int evt_Comm_set_name(MPI_Comm comm, const char *comm_name)
{
    int rc = EVT_CALL_NEXT(Comm_set_name, (comm, comm_name));
    mca_base_event_t *ev = comm_name_set_event;
    ompi_evt_comm_handle_payload_t payload;

    if (OPAL_LIKELY(NULL == ev || !mca_base_event_active(ev)) || MPI_SUCCESS != rc) {
        return rc;
    }
    /* After the name is set, bound to the ompi_communicator_t * the tool's
     * MPI_Comm handle resolves to; the event is SYNCHRONOUS, so the callback
     * runs before this returns and can call MPI_Comm_get_name. */
    payload.handle = (uint64_t) (uintptr_t) comm;
    (void) mca_base_event_raise_bound(ev, NULL, comm, &payload);
    return rc;
}

/* ------------------------------------------------------------------------
 * Entry points: MPI_X for the application, PMPI_X for a PMPI tool
 * preloaded before libompi_evt (its MPI_X calls PMPI_X: ours). Both run
 * the wrapper, which reaches the next PMPI_X (libmpi's); libompi_evt's own
 * MPI calls (ompi_evt_pmpi_quiet_enter()) go straight there.
 * ------------------------------------------------------------------------ */

int MPI_Cart_create(MPI_Comm old_comm, int ndims, const int dims[], const int periods[],
                    int reorder, MPI_Comm *comm_cart)
{
    return EVT_PMPI_ENTRY(Cart_create, (old_comm, ndims, dims, periods, reorder, comm_cart));
}
int PMPI_Cart_create(MPI_Comm old_comm, int ndims, const int dims[], const int periods[],
                     int reorder, MPI_Comm *comm_cart)
{
    return EVT_PMPI_ENTRY(Cart_create, (old_comm, ndims, dims, periods, reorder, comm_cart));
}

int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *new_comm)
{
    return EVT_PMPI_ENTRY(Cart_sub, (comm, remain_dims, new_comm));
}
int PMPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *new_comm)
{
    return EVT_PMPI_ENTRY(Cart_sub, (comm, remain_dims, new_comm));
}

int MPI_Comm_accept(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                    MPI_Comm *newcomm)
{
    return EVT_PMPI_ENTRY(Comm_accept, (port_name, info, root, comm, newcomm));
}
int PMPI_Comm_accept(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                     MPI_Comm *newcomm)
{
    return EVT_PMPI_ENTRY(Comm_accept, (port_name, info, root, comm, newcomm));
}

int MPI_Comm_connect(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                     MPI_Comm *newcomm)
{
    return EVT_PMPI_ENTRY(Comm_connect, (port_name, info, root, comm, newcomm));
}
int PMPI_Comm_connect(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                      MPI_Comm *newcomm)
{
    return EVT_PMPI_ENTRY(Comm_connect, (port_name, info, root, comm, newcomm));
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    return EVT_PMPI_ENTRY(Comm_create, (comm, group, newcomm));
}
int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    return EVT_PMPI_ENTRY(Comm_create, (comm, group, newcomm));
}

int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    return EVT_PMPI_ENTRY(Comm_create_group, (comm, group, tag, newcomm));
}
int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    return EVT_PMPI_ENTRY(Comm_create_group, (comm, group, tag, newcomm));
}

int MPI_Comm_disconnect(MPI_Comm *comm)
{
    return EVT_PMPI_ENTRY(Comm_disconnect, (comm));
}
int PMPI_Comm_disconnect(MPI_Comm *comm)
{
    return EVT_PMPI_ENTRY(Comm_disconnect, (comm));
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    return EVT_PMPI_ENTRY(Comm_dup, (comm, newcomm));
}
int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    return EVT_PMPI_ENTRY(Comm_dup, (comm, newcomm));
}

int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    return EVT_PMPI_ENTRY(Comm_dup_with_info, (comm, info, newcomm));
}
int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    return EVT_PMPI_ENTRY(Comm_dup_with_info, (comm, info, newcomm));
}

int MPI_Comm_free(MPI_Comm *comm)
{
    return EVT_PMPI_ENTRY(Comm_free, (comm));
}
int PMPI_Comm_free(MPI_Comm *comm)
{
    return EVT_PMPI_ENTRY(Comm_free, (comm));
}

int MPI_Comm_get_parent(MPI_Comm *parent)
{
    return EVT_PMPI_ENTRY(Comm_get_parent, (parent));
}
int PMPI_Comm_get_parent(MPI_Comm *parent)
{
    return EVT_PMPI_ENTRY(Comm_get_parent, (parent));
}

int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Comm_idup, (comm, newcomm, request));
}
int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Comm_idup, (comm, newcomm, request));
}

int MPI_Comm_join(int fd, MPI_Comm *intercomm)
{
    return EVT_PMPI_ENTRY(Comm_join, (fd, intercomm));
}
int PMPI_Comm_join(int fd, MPI_Comm *intercomm)
{
    return EVT_PMPI_ENTRY(Comm_join, (fd, intercomm));
}

int MPI_Comm_set_name(MPI_Comm comm, const char *comm_name)
{
    return EVT_PMPI_ENTRY(Comm_set_name, (comm, comm_name));
}
int PMPI_Comm_set_name(MPI_Comm comm, const char *comm_name)
{
    return EVT_PMPI_ENTRY(Comm_set_name, (comm, comm_name));
}

int MPI_Comm_spawn(const char *command, char *argv[], int maxprocs, MPI_Info info, int root,
                   MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[])
{
    return EVT_PMPI_ENTRY(Comm_spawn, (command, argv, maxprocs, info, root, comm, intercomm,
                                       array_of_errcodes));
}
int PMPI_Comm_spawn(const char *command, char *argv[], int maxprocs, MPI_Info info, int root,
                    MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[])
{
    return EVT_PMPI_ENTRY(Comm_spawn, (command, argv, maxprocs, info, root, comm, intercomm,
                                       array_of_errcodes));
}

int MPI_Comm_spawn_multiple(int count, char *array_of_commands[], char **array_of_argv[],
                            const int array_of_maxprocs[], const MPI_Info array_of_info[], int root,
                            MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[])
{
    return EVT_PMPI_ENTRY(Comm_spawn_multiple,
                          (count, array_of_commands, array_of_argv, array_of_maxprocs,
                           array_of_info, root, comm, intercomm, array_of_errcodes));
}
int PMPI_Comm_spawn_multiple(int count, char *array_of_commands[], char **array_of_argv[],
                             const int array_of_maxprocs[], const MPI_Info array_of_info[],
                             int root, MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[])
{
    return EVT_PMPI_ENTRY(Comm_spawn_multiple,
                          (count, array_of_commands, array_of_argv, array_of_maxprocs,
                           array_of_info, root, comm, intercomm, array_of_errcodes));
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    return EVT_PMPI_ENTRY(Comm_split, (comm, color, key, newcomm));
}
int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    return EVT_PMPI_ENTRY(Comm_split, (comm, color, key, newcomm));
}

int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm)
{
    return EVT_PMPI_ENTRY(Comm_split_type, (comm, split_type, key, info, newcomm));
}
int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm)
{
    return EVT_PMPI_ENTRY(Comm_split_type, (comm, split_type, key, info, newcomm));
}

int MPI_Dist_graph_create(MPI_Comm comm_old, int n, const int nodes[], const int degrees[],
                          const int targets[], const int weights[], MPI_Info info, int reorder,
                          MPI_Comm *newcomm)
{
    return EVT_PMPI_ENTRY(Dist_graph_create,
                          (comm_old, n, nodes, degrees, targets, weights, info, reorder, newcomm));
}
int PMPI_Dist_graph_create(MPI_Comm comm_old, int n, const int nodes[], const int degrees[],
                           const int targets[], const int weights[], MPI_Info info, int reorder,
                           MPI_Comm *newcomm)
{
    return EVT_PMPI_ENTRY(Dist_graph_create,
                          (comm_old, n, nodes, degrees, targets, weights, info, reorder, newcomm));
}

int MPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                   const int sourceweights[], int outdegree,
                                   const int destinations[], const int destweights[], MPI_Info info,
                                   int reorder, MPI_Comm *comm_dist_graph)
{
    return EVT_PMPI_ENTRY(Dist_graph_create_adjacent,
                          (comm_old, indegree, sources, sourceweights, outdegree, destinations,
                           destweights, info, reorder, comm_dist_graph));
}
int PMPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                    const int sourceweights[], int outdegree,
                                    const int destinations[], const int destweights[],
                                    MPI_Info info, int reorder, MPI_Comm *comm_dist_graph)
{
    return EVT_PMPI_ENTRY(Dist_graph_create_adjacent,
                          (comm_old, indegree, sources, sourceweights, outdegree, destinations,
                           destweights, info, reorder, comm_dist_graph));
}

int MPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[],
                     int reorder, MPI_Comm *comm_graph)
{
    return EVT_PMPI_ENTRY(Graph_create, (comm_old, nnodes, index, edges, reorder, comm_graph));
}
int PMPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[],
                      int reorder, MPI_Comm *comm_graph)
{
    return EVT_PMPI_ENTRY(Graph_create, (comm_old, nnodes, index, edges, reorder, comm_graph));
}

int MPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm bridge_comm,
                         int remote_leader, int tag, MPI_Comm *newintercomm)
{
    return EVT_PMPI_ENTRY(Intercomm_create, (local_comm, local_leader, bridge_comm, remote_leader,
                                             tag, newintercomm));
}
int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm bridge_comm,
                          int remote_leader, int tag, MPI_Comm *newintercomm)
{
    return EVT_PMPI_ENTRY(Intercomm_create, (local_comm, local_leader, bridge_comm, remote_leader,
                                             tag, newintercomm));
}

int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintercomm)
{
    return EVT_PMPI_ENTRY(Intercomm_merge, (intercomm, high, newintercomm));
}
int PMPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintercomm)
{
    return EVT_PMPI_ENTRY(Intercomm_merge, (intercomm, high, newintercomm));
}
