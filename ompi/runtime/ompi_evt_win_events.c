/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Window life cycle: ompi.mpi.win_created {i64 size@0, i32 disp_unit@8,
 * i32 flavor@12, u64 handle@16} and ompi.mpi.win_freed {i32 flavor@0,
 * u64 handle@8}, Open MPI main's names and payloads. flavor is
 * MPI_WIN_FLAVOR_* (1 create, 2 allocate, 3 dynamic, 4 shared); handle is
 * the MPI_Win (ompi_win_t *). size is this process's window size in bytes
 * (0 for a dynamic window, whose memory is attached later).
 *
 * Covered: MPI_Win_create, MPI_Win_allocate, MPI_Win_allocate_shared,
 * MPI_Win_create_dynamic, MPI_Win_free, from C and from the Fortran
 * bindings (which call PMPI_X).
 *
 * Context: every wrapper is RAISE on the calling thread.
 */

#include "ompi_config.h"

#include <stddef.h>
#include <stdint.h>

#include "mpi.h"
#include "ompi/runtime/ompi_evt_payloads.h"
#include "ompi/runtime/ompi_evt_pmpi_next.h"
#include "ompi/runtime/ompi_evt_producers.h"

static mca_base_event_t *win_created_event = NULL;
static mca_base_event_t *win_freed_event = NULL;

/* Context: INIT, ANY. */
int ompi_evt_win_events_register(void)
{
    const mca_base_var_type_t created_types[4] = {MCA_BASE_VAR_TYPE_INT64_T,
                                                  MCA_BASE_VAR_TYPE_INT32_T,
                                                  MCA_BASE_VAR_TYPE_INT32_T,
                                                  MCA_BASE_VAR_TYPE_UINT64_T};
    const ptrdiff_t created_offsets[4] = {offsetof(ompi_evt_win_created_payload_t, size),
                                          offsetof(ompi_evt_win_created_payload_t, disp_unit),
                                          offsetof(ompi_evt_win_created_payload_t, flavor),
                                          offsetof(ompi_evt_win_created_payload_t, handle)};
    const mca_base_var_type_t freed_types[2] = {MCA_BASE_VAR_TYPE_INT32_T,
                                                MCA_BASE_VAR_TYPE_UINT64_T};
    const ptrdiff_t freed_offsets[2] = {offsetof(ompi_evt_win_freed_payload_t, flavor),
                                        offsetof(ompi_evt_win_freed_payload_t, handle)};
    /* upstream's field names (Open MPI main) */
    static const char *const created_names[4] = {"size", "disp_unit", "flavor", "handle"};
    static const char *const freed_names[2] = {"flavor", "handle"};
    mca_base_event_source_t *source;
    int ei;

    source = ompi_evt_ompi_source();
    if (NULL == source) {
        return OPAL_ERR_NOT_AVAILABLE;
    }
    ei = mca_base_event_register_ptr("ompi", NULL, NULL, "mpi.win_created",
                                     "A window was created: {size, disp_unit, flavor, handle}",
                                     OPAL_INFO_LVL_4, 4, created_types, created_offsets, NULL,
                                     MCA_BASE_VAR_BIND_NO_OBJECT, 0, source, NULL,
                                     &win_created_event);
    if (0 > ei) {
        return ei;
    }
    ei = mca_base_event_set_element_names(win_created_event, created_names);
    if (OPAL_SUCCESS != ei) {
        return ei;
    }
    ei = mca_base_event_register_ptr("ompi", NULL, NULL, "mpi.win_freed",
                                     "A window was freed: {flavor, handle}", OPAL_INFO_LVL_4, 2,
                                     freed_types, freed_offsets, NULL, MCA_BASE_VAR_BIND_NO_OBJECT,
                                     0, source, NULL, &win_freed_event);
    if (0 > ei) {
        return ei;
    }
    return mca_base_event_set_element_names(win_freed_event, freed_names);
}

/** Raise win_created if the constructor succeeded; returns @p rc.
 *  Context: RAISE. */
static inline int win_created(int rc, MPI_Aint size, int disp_unit, int flavor,
                              const MPI_Win *newwin)
{
    MPI_Win win;

    mca_base_event_t *ev = win_created_event;
    ompi_evt_win_created_payload_t payload;

    if (OPAL_LIKELY(NULL == ev || !mca_base_event_active(ev))) {
        return rc;
    }
    /* *newwin is read here, after the PMPI call (argument evaluation order
     * is unspecified in C). */
    if (MPI_SUCCESS != rc || MPI_WIN_NULL == *newwin) {
        return rc;
    }
    win = *newwin;
    payload.size = (int64_t) size;
    payload.disp_unit = disp_unit;
    payload.flavor = flavor;
    payload.handle = (uint64_t) (uintptr_t) win;
    (void) mca_base_event_raise(ev, NULL, &payload);
    /* the return of an MPI call: the tool may call MPI here */
    mca_base_event_call_return(true, 0);
    return rc;
}

static int evt_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                          MPI_Win *win)
{
    return win_created(EVT_CALL_NEXT(Win_create, (base, size, disp_unit, info, comm, win)), size,
                       disp_unit, MPI_WIN_FLAVOR_CREATE, win);
}

static int evt_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                            void *baseptr, MPI_Win *win)
{
    return win_created(EVT_CALL_NEXT(Win_allocate, (size, disp_unit, info, comm, baseptr, win)),
                       size, disp_unit, MPI_WIN_FLAVOR_ALLOCATE, win);
}

static int evt_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                                   void *baseptr, MPI_Win *win)
{
    return win_created(EVT_CALL_NEXT(Win_allocate_shared,
                                     (size, disp_unit, info, comm, baseptr, win)),
                       size, disp_unit, MPI_WIN_FLAVOR_SHARED, win);
}

static int evt_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    return win_created(EVT_CALL_NEXT(Win_create_dynamic, (info, comm, win)), 0, 1,
                       MPI_WIN_FLAVOR_DYNAMIC, win);
}

static int evt_Win_free(MPI_Win *win)
{
    mca_base_event_t *ev = win_freed_event;
    ompi_evt_win_freed_payload_t payload;
    int *flavor = NULL;
    int flag = 0, rc;

    if (OPAL_LIKELY(NULL == ev || !mca_base_event_active(ev))) {
        return EVT_CALL_NEXT(Win_free, (win));
    }
    payload.flavor = 0;
    payload.pad = 0;
    payload.handle = (uint64_t) (uintptr_t) *win;
    if (MPI_SUCCESS == PMPI_Win_get_attr(*win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag) && flag
        && NULL != flavor) {
        payload.flavor = *flavor;
    }
    rc = EVT_CALL_NEXT(Win_free, (win));
    if (MPI_SUCCESS == rc) {
        (void) mca_base_event_raise(ev, NULL, &payload);
        /* the return of an MPI call: the tool may call MPI here */
        mca_base_event_call_return(true, 0);
    }
    return rc;
}

/* ------------------------------------------------------------------------
 * Entry points: MPI_X for the application, PMPI_X for a PMPI tool
 * preloaded before libompi_evt (its MPI_X calls PMPI_X: ours). Both run
 * the wrapper, which reaches the next PMPI_X (libmpi's); libompi_evt's own
 * MPI calls (ompi_evt_pmpi_quiet_enter()) go straight there.
 * ------------------------------------------------------------------------ */

int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                     MPI_Win *win)
{
    return EVT_PMPI_ENTRY(Win_allocate, (size, disp_unit, info, comm, baseptr, win));
}
int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                      MPI_Win *win)
{
    return EVT_PMPI_ENTRY(Win_allocate, (size, disp_unit, info, comm, baseptr, win));
}

int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                            void *baseptr, MPI_Win *win)
{
    return EVT_PMPI_ENTRY(Win_allocate_shared, (size, disp_unit, info, comm, baseptr, win));
}
int PMPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                             void *baseptr, MPI_Win *win)
{
    return EVT_PMPI_ENTRY(Win_allocate_shared, (size, disp_unit, info, comm, baseptr, win));
}

int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                   MPI_Win *win)
{
    return EVT_PMPI_ENTRY(Win_create, (base, size, disp_unit, info, comm, win));
}
int PMPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                    MPI_Win *win)
{
    return EVT_PMPI_ENTRY(Win_create, (base, size, disp_unit, info, comm, win));
}

int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    return EVT_PMPI_ENTRY(Win_create_dynamic, (info, comm, win));
}
int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    return EVT_PMPI_ENTRY(Win_create_dynamic, (info, comm, win));
}

int MPI_Win_free(MPI_Win *win)
{
    return EVT_PMPI_ENTRY(Win_free, (win));
}
int PMPI_Win_free(MPI_Win *win)
{
    return EVT_PMPI_ENTRY(Win_free, (win));
}
