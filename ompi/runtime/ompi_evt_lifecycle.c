/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The MPI lifecycle producer: ompi.mpi.initialization at the end of MPI_Init
 * and ompi.mpi.finalization at the start of MPI_Finalize, on source "ompi",
 * with upstream's payloads (ompi_evt_payloads.h):
 *   initialization {i32 model@0, i32 thread_level@4, i32 world_rank@8,
 *                   i32 world_size@12, u64 instance_id@16}
 *   finalization   {i32 model@0, i32 world_rank@4, u64 instance_id@8}
 * instance_id numbers the MPI instances of the process (1 for the first
 * MPI_Init); finalization carries the id of the instance it ends.
 */

#include "ompi_config.h"

#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

#include "ompi/constants.h"
#include "ompi/runtime/ompi_evt_payloads.h"
#include "ompi/runtime/ompi_evt_producers.h"
#include "opal/mca/base/mca_base_event.h"

/* Set once in INIT context; the event objects are never freed. */
static mca_base_event_t *evt_initialization = NULL;
static mca_base_event_t *evt_finalization = NULL;
/* The current MPI instance (0: none yet). Written at the end of MPI_Init
 * only, on the thread calling it. */
static uint64_t evt_instance_id = 0;
static int32_t evt_world_rank = -1;

/* Context: INIT. */
int ompi_evt_lifecycle_register(void)
{
    static const mca_base_var_type_t init_types[5] = {
        MCA_BASE_VAR_TYPE_INT32_T, MCA_BASE_VAR_TYPE_INT32_T, MCA_BASE_VAR_TYPE_INT32_T,
        MCA_BASE_VAR_TYPE_INT32_T, MCA_BASE_VAR_TYPE_UINT64_T};
    static const ptrdiff_t init_offsets[5]
        = {offsetof(ompi_evt_initialization_payload_t, model),
           offsetof(ompi_evt_initialization_payload_t, thread_level),
           offsetof(ompi_evt_initialization_payload_t, world_rank),
           offsetof(ompi_evt_initialization_payload_t, world_size),
           offsetof(ompi_evt_initialization_payload_t, instance_id)};
    static const mca_base_var_type_t fini_types[3] = {
        MCA_BASE_VAR_TYPE_INT32_T, MCA_BASE_VAR_TYPE_INT32_T, MCA_BASE_VAR_TYPE_UINT64_T};
    static const ptrdiff_t fini_offsets[3] = {offsetof(ompi_evt_finalization_payload_t, model),
                                              offsetof(ompi_evt_finalization_payload_t, world_rank),
                                              offsetof(ompi_evt_finalization_payload_t,
                                                       instance_id)};
    /* upstream's field names (Open MPI main) */
    static const char *const init_names[5] = {"model", "thread_level", "world_rank",
                                              "world_size", "instance_id"};
    static const char *const fini_names[3] = {"model", "world_rank", "instance_id"};
    mca_base_event_source_t *source = ompi_evt_ompi_source();
    int ei;

    if (NULL == source) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    ei = mca_base_event_register_ptr("ompi", NULL, NULL, "mpi.initialization",
                                     "MPI was initialized (end of MPI_Init / MPI_Init_thread): "
                                     "model, thread level, rank and size in MPI_COMM_WORLD, "
                                     "instance id",
                                     OPAL_INFO_LVL_1, 5, init_types, init_offsets, NULL,
                                     MCA_BASE_VAR_BIND_NO_OBJECT, 0, source, NULL,
                                     &evt_initialization);
    if (0 > ei) {
        return ei;
    }
    ei = mca_base_event_set_element_names(evt_initialization, init_names);
    if (OPAL_SUCCESS != ei) {
        return ei;
    }
    ei = mca_base_event_register_ptr("ompi", NULL, NULL, "mpi.finalization",
                                     "MPI is being finalized (start of MPI_Finalize): model, "
                                     "rank in MPI_COMM_WORLD, instance id",
                                     OPAL_INFO_LVL_1, 3, fini_types, fini_offsets, NULL,
                                     MCA_BASE_VAR_BIND_NO_OBJECT, 0, source, NULL,
                                     &evt_finalization);
    if (0 > ei) {
        return ei;
    }
    return mca_base_event_set_element_names(evt_finalization, fini_names);
}

/* Context: RAISE (end of MPI_Init, outside every lock). */
void ompi_evt_lifecycle_raise_initialization(int thread_level)
{
    ompi_evt_initialization_payload_t payload;
    int rank = -1;
    int size = 0;

    ++evt_instance_id;
    if (MPI_SUCCESS != PMPI_Comm_rank(MPI_COMM_WORLD, &rank)
        || MPI_SUCCESS != PMPI_Comm_size(MPI_COMM_WORLD, &size)) {
        rank = -1;
        size = 0;
    }
    evt_world_rank = rank;
    if (NULL == evt_initialization) {
        return;
    }
    payload.model = OMPI_EVT_MPI_MODEL_WORLD;
    payload.thread_level = thread_level;
    payload.world_rank = rank;
    payload.world_size = size;
    payload.instance_id = evt_instance_id;
    (void) mca_base_event_raise(evt_initialization, NULL, &payload);
}

/* Context: RAISE (start of MPI_Finalize, outside every lock). */
void ompi_evt_lifecycle_raise_finalization(void)
{
    ompi_evt_finalization_payload_t payload;

    if (NULL == evt_finalization) {
        return;
    }
    payload.model = OMPI_EVT_MPI_MODEL_WORLD;
    payload.world_rank = evt_world_rank;
    payload.instance_id = evt_instance_id;
    (void) mca_base_event_raise(evt_finalization, NULL, &payload);
}
