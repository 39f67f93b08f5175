/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * hook/evt: brings MPI_T event delivery up in every MPI process.
 *
 * Why a hook and not only PMPI wrappers? Open MPI's hook framework loads
 * every mca_hook_*.so found in the component path into every MPI process,
 * without relinking or LD_PRELOAD; the application need not know about
 * ompi-evt. At the bottom of MPI_Init / MPI_Init_thread it calls
 * ompi_evt_mpi_init_bottom() (engine, producers, evt framework open and
 * select, the ompi.mpi.initialization event); at the top of MPI_Finalize
 * ompi_evt_mpi_finalize_top() (ompi.mpi.finalization, flush, close). The
 * PMPI wrappers of libompi_evt call the same functions, which act once per
 * MPI_Init whichever path comes first.
 */

#ifndef MCA_HOOK_EVT_H
#define MCA_HOOK_EVT_H

#include "ompi_config.h"

#include "ompi/mca/hook/hook.h"

BEGIN_C_DECLS

OMPI_DECLSPEC extern const ompi_hook_base_component_1_0_0_t mca_hook_evt_component;

END_C_DECLS

#endif /* MCA_HOOK_EVT_H */
