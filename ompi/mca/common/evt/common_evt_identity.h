/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Who this process is, as the sender of a batch names it (namespace, rank,
 * node, pid): for any component that carries events out of the process,
 * so that every transport names its ranks the way ompi-evt-listen groups
 * them.
 */

#ifndef MCA_COMMON_EVT_IDENTITY_H
#define MCA_COMMON_EVT_IDENTITY_H

#include "ompi_config.h"

#include <stdbool.h>

#include "ompi/mca/common/evt/common_evt_wire.h"

/**
 * Fill @p who with this process's identity. When PMIx is up in this
 * process (after MPI_Init, or inside it once Open MPI's PMIx client is
 * initialized): the PMIx namespace and rank, and the node name PMIx gives
 * (PMIX_HOSTNAME, which names the node for the whole job: two "nodes" run
 * on one machine under an rsh agent have two names). Before that: the
 * namespace and rank the PMIx server put in the environment
 * (PMIX_NAMESPACE, PMIX_RANK; "unknown" and 0 without them) and the
 * kernel's host name. The pid is getpid(). Names longer than the wire
 * allows are cut at MCA_COMMON_EVT_WIRE_NSPACE_MAX / _HOST_MAX bytes.
 *
 * Takes and drops a PMIx_Init reference of its own when PMIx is up, so it
 * neither starts nor ends PMIx for the caller.
 *
 * @return true when PMIx gave the identity, false when it came from the
 *         environment (@p who is filled either way)
 *
 * Context: INIT.
 */
OMPI_DECLSPEC bool mca_common_evt_identity(mca_common_evt_wire_sender_t *who);

#endif /* MCA_COMMON_EVT_IDENTITY_H */
