/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The MPI-4.1 events part of the tool information interface (sec. 15.3.7
 * "Categories" for the event queries, 15.3.8 "Events") that Open MPI 4.1's
 * mpi.h lacks: types, constants, callback types and the C bindings of
 * MPI_T_event_*, MPI_T_source_* and MPI_T_category_{get_num_events,get_events},
 * each with its PMPI_ name. Installed as include/ompi-evt/mpi_t_events.h next
 * to the mpi.h shim that includes Open MPI's mpi.h and then this file, so an
 * unmodified MPI-4 tool compiles with
 *     mpicc $(pkg-config --cflags ompi-evt) tool.c $(pkg-config --libs ompi-evt)
 *
 * Needs only Open MPI's mpi.h (included first); never any OPAL header. The
 * handle types point at the engine's structures (opal/mca/base/mca_base_event.h)
 * by tag only, the way Open MPI's own MPI_T_enum does.
 *
 * Choices the standard leaves to the implementation (see also docs/user-guide.md):
 *  - No MPI_T_EVENT_REGISTRATION_NULL: MPI-4.1 defines none (handle_free takes
 *    the handle by value).
 *  - Info objects: Open MPI 4.1 can create MPI_Info objects only between
 *    MPI_Init and MPI_Finalize. Outside that window every info output of
 *    these functions is MPI_INFO_NULL, and MPI_INFO_NULL is the only info
 *    input accepted.
 *  - Categories (4.1's categories are the MCA variable groups): an event is
 *    in the one group that matches its name most specifically. The event's
 *    full name without "ompi." (and without a further "mca." if the shorter
 *    form matches better) must start with the group's "framework" or
 *    "framework_component" followed by a separator ('_' and '.' are the same
 *    separator). ("evt", "ring", "overflow") -> ompi.evt_ring_overflow is in
 *    the group "<project>_evt_ring"; ompi.mpi.initialization in the group of
 *    framework "mpi"; ompi.mca.memory.patcher.released in "opal_memory_patcher".
 *    On a tie the lower group index wins. Events matching no group are in no
 *    category.
 */

#ifndef OMPI_MPI_T_EVENTS_H
#define OMPI_MPI_T_EVENTS_H

#include <mpi.h>

#if defined(c_plusplus) || defined(__cplusplus)
extern "C" {
#endif

/* Error codes of MPI-4 missing from Open MPI 4.1 (its last MPI_T code is
 * MPI_T_ERR_INVALID_NAME = 73). Values above 4.1's last code, below
 * MPI_ERR_LASTCODE (92), clear of the codes later releases gave to ULFM
 * and sessions (74-80). */
#ifndef MPI_T_ERR_NOT_ACCESSIBLE
#    define MPI_T_ERR_NOT_ACCESSIBLE 88
#endif
#ifndef MPI_T_ERR_NOT_SUPPORTED
#    define MPI_T_ERR_NOT_SUPPORTED 89
#endif

/** Handle of one event instance, valid only inside the callback it is passed to. */
typedef struct mca_base_event_record_t *MPI_T_event_instance;
/** Handle of an event registration (MPI_T_event_handle_alloc). */
typedef struct mca_base_event_registration_t *MPI_T_event_registration;

/** Ordering guarantee of an event source. */
typedef enum MPI_T_source_order {
    MPI_T_SOURCE_ORDERED = 0,
    MPI_T_SOURCE_UNORDERED = 1
} MPI_T_source_order;

/** Callback safety requirements, weakest to strictest. */
typedef enum MPI_T_cb_safety {
    MPI_T_CB_REQUIRE_NONE = 0,
    MPI_T_CB_REQUIRE_MPI_RESTRICTED = 1,
    MPI_T_CB_REQUIRE_THREAD_SAFE = 2,
    MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE = 3
} MPI_T_cb_safety;

typedef void MPI_T_event_cb_function(MPI_T_event_instance event_instance,
                                     MPI_T_event_registration event_registration,
                                     MPI_T_cb_safety cb_safety, void *user_data);
typedef void MPI_T_event_free_cb_function(MPI_T_event_registration event_registration,
                                          MPI_T_cb_safety cb_safety, void *user_data);
typedef void MPI_T_event_dropped_cb_function(MPI_Count count,
                                             MPI_T_event_registration event_registration,
                                             int source_index, MPI_T_cb_safety cb_safety,
                                             void *user_data);

/* The bindings, MPI_ then PMPI_ (MPI-4.1 sec. 15.3.7 and 15.3.8). */
#define OMPI_EVT_MPIT_PROTOS(P)                                                                 \
    OMPI_DECLSPEC int P##T_source_get_num(int *num_sources);                                    \
    OMPI_DECLSPEC int P##T_source_get_info(int source_index, char *name, int *name_len,         \
                                           char *desc, int *desc_len,                           \
                                           MPI_T_source_order *ordering,                        \
                                           MPI_Count *ticks_per_second, MPI_Count *max_ticks,   \
                                           MPI_Info *info);                                     \
    OMPI_DECLSPEC int P##T_source_get_timestamp(int source_index, MPI_Count *timestamp);        \
    OMPI_DECLSPEC int P##T_event_get_num(int *num_events);                                      \
    OMPI_DECLSPEC int P##T_event_get_info(int event_index, char *name, int *name_len,           \
                                          int *verbosity, MPI_Datatype array_of_datatypes[],    \
                                          MPI_Aint array_of_displacements[],                    \
                                          int *num_elements, MPI_T_enum *enumtype,              \
                                          MPI_Info *info, char *desc, int *desc_len,            \
                                          int *bind);                                           \
    OMPI_DECLSPEC int P##T_event_get_index(const char *name, int *event_index);                 \
    OMPI_DECLSPEC int P##T_event_handle_alloc(int event_index, void *obj_handle, MPI_Info info,  \
                                              MPI_T_event_registration *event_registration);    \
    OMPI_DECLSPEC int P##T_event_handle_set_info(MPI_T_event_registration event_registration,   \
                                                 MPI_Info info);                                \
    OMPI_DECLSPEC int P##T_event_handle_get_info(MPI_T_event_registration event_registration,   \
                                                 MPI_Info *info_used);                          \
    OMPI_DECLSPEC int P##T_event_register_callback(MPI_T_event_registration event_registration, \
                                                   MPI_T_cb_safety cb_safety, MPI_Info info,    \
                                                   void *user_data,                             \
                                                   MPI_T_event_cb_function *event_cb_function); \
    OMPI_DECLSPEC int P##T_event_callback_set_info(MPI_T_event_registration event_registration, \
                                                   MPI_T_cb_safety cb_safety, MPI_Info info);   \
    OMPI_DECLSPEC int P##T_event_callback_get_info(MPI_T_event_registration event_registration, \
                                                   MPI_T_cb_safety cb_safety,                   \
                                                   MPI_Info *info_used);                        \
    OMPI_DECLSPEC int P##T_event_handle_free(MPI_T_event_registration event_registration,       \
                                             void *user_data,                                   \
                                             MPI_T_event_free_cb_function *free_cb_function);   \
    OMPI_DECLSPEC int P##T_event_set_dropped_handler(                                           \
        MPI_T_event_registration event_registration,                                            \
        MPI_T_event_dropped_cb_function *dropped_cb_function);                                  \
    OMPI_DECLSPEC int P##T_event_read(MPI_T_event_instance event_instance, int element_index,   \
                                      void *buffer);                                            \
    OMPI_DECLSPEC int P##T_event_copy(MPI_T_event_instance event_instance, void *buffer);       \
    OMPI_DECLSPEC int P##T_event_get_timestamp(MPI_T_event_instance event_instance,             \
                                               MPI_Count *event_timestamp);                     \
    OMPI_DECLSPEC int P##T_event_get_source(MPI_T_event_instance event_instance,                \
                                            int *source_index);                                 \
    OMPI_DECLSPEC int P##T_category_get_num_events(int cat_index, int *num_events);             \
    OMPI_DECLSPEC int P##T_category_get_events(int cat_index, int len, int indices[]);

OMPI_EVT_MPIT_PROTOS(MPI_)
OMPI_EVT_MPIT_PROTOS(PMPI_)

#undef OMPI_EVT_MPIT_PROTOS

#if defined(c_plusplus) || defined(__cplusplus)
}
#endif

#endif /* OMPI_MPI_T_EVENTS_H */
