/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * This process's identity for a batch's sender (common_evt_identity.h).
 */

#include "ompi_config.h"

#include <pmix.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ompi/mca/common/evt/common_evt_identity.h"

/* What the environment says: the PMIx server's PMIX_NAMESPACE and
 * PMIX_RANK, the kernel's host name. */
static void identity_from_env(mca_common_evt_wire_sender_t *who)
{
    const char *ns = getenv("PMIX_NAMESPACE"), *rank = getenv("PMIX_RANK");

    memset(who, 0, sizeof(*who));
    (void) snprintf(who->nspace, sizeof(who->nspace), "%s",
                    NULL == ns || '\0' == ns[0] ? "unknown" : ns);
    who->rank = NULL == rank ? 0 : (uint32_t) strtoul(rank, NULL, 10);
    if (0 != gethostname(who->host, sizeof(who->host) - 1) || '\0' == who->host[0]) {
        (void) snprintf(who->host, sizeof(who->host), "localhost");
    }
    who->pid = (uint32_t) getpid();
}

bool mca_common_evt_identity(mca_common_evt_wire_sender_t *who)
{
    pmix_proc_t me;
    pmix_value_t *val = NULL;

    identity_from_env(who);
    /* PMIx_Init on an initialized client only counts a reference and says
     * who we are; the matching PMIx_Finalize only drops it. */
    if (!PMIx_Initialized() || PMIX_SUCCESS != PMIx_Init(&me, NULL, 0)) {
        return false;
    }
    (void) snprintf(who->nspace, sizeof(who->nspace), "%s", me.nspace);
    who->rank = me.rank;
    if (PMIX_SUCCESS == PMIx_Get(&me, PMIX_HOSTNAME, NULL, 0, &val) && NULL != val
        && PMIX_STRING == val->type && NULL != val->data.string) {
        (void) snprintf(who->host, sizeof(who->host), "%s", val->data.string);
    }
    if (NULL != val) {
        PMIX_VALUE_RELEASE(val);
    }
    (void) PMIx_Finalize(NULL, 0);
    return true;
}
