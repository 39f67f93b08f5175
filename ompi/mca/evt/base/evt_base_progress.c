/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The framework's opal_progress callbacks (the kit's drain, a component's
 * own), registered through one place because Open MPI's progress engine
 * starts inside MPI_Init and forgets every callback registered before it:
 * a tool that calls MPI_T_init_thread before MPI_Init starts evt (and its
 * callbacks) first. The end of MPI_Init registers them all again
 * (ompi_evt_base_progress_renew()).
 */

#include "ompi_config.h"

#include <stdbool.h>

#include "ompi/mca/evt/base/base.h"
#include "opal/constants.h"
#include "opal/runtime/opal_progress.h"
#include "opal/util/output.h"

/* More than the framework ever holds at once (the kit's drain and one of
 * the installed component's own). */
#define EVT_PROGRESS_MAX 4

typedef struct {
    opal_progress_callback_t cb;
    bool low_priority;
} evt_progress_t;

/* INIT context only. */
static evt_progress_t registered[EVT_PROGRESS_MAX];
static int num_registered = 0;

static int engine_register(const evt_progress_t *p)
{
    return p->low_priority ? opal_progress_register_lp(p->cb) : opal_progress_register(p->cb);
}

/* Context: INIT. */
int ompi_evt_base_progress_register(opal_progress_callback_t cb, bool low_priority)
{
    evt_progress_t p = {cb, low_priority};
    int rc;

    for (int i = 0; i < num_registered; ++i) {
        if (registered[i].cb == cb) {
            return OPAL_EXISTS;
        }
    }
    if (EVT_PROGRESS_MAX == num_registered) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    rc = engine_register(&p);
    if (OPAL_SUCCESS == rc) {
        registered[num_registered++] = p;
    }
    return rc;
}

/* Context: INIT. */
int ompi_evt_base_progress_unregister(opal_progress_callback_t cb)
{
    for (int i = 0; i < num_registered; ++i) {
        if (registered[i].cb == cb) {
            registered[i] = registered[--num_registered];
            return opal_progress_unregister(cb);
        }
    }
    return OPAL_ERR_NOT_FOUND;
}

/* Context: INIT (end of MPI_Init). */
void ompi_evt_base_progress_renew(void)
{
    for (int i = 0; i < num_registered; ++i) {
        /* in vain (OPAL_ERR_NOT_FOUND) when the engine forgot it */
        (void) opal_progress_unregister(registered[i].cb);
        int rc = engine_register(&registered[i]);
        if (OPAL_SUCCESS != rc) {
            opal_output_verbose(1, ompi_evt_base_framework.framework_output,
                                "evt:base: opal_progress_register failed again at the end of "
                                "MPI_Init (%d): a progress callback of evt is lost",
                                rc);
            registered[i--] = registered[--num_registered];
        }
    }
}
