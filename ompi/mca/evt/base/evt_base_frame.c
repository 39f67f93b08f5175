/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The evt framework object: register, open and close.
 *
 * Open MPI 4.1 does not know this framework, so nothing opens it for us:
 * ompi_evt_base_open() is called by ompi_evt_init() (hook at MPI_Init,
 * PMPI wrappers, MPI_T_init_thread) after opal_init_util. The framework name
 * has no '_' (mca_base_framework_open splits variable names on it).
 */

#include "ompi_config.h"

#include <string.h>

#include "opal/mca/base/base.h"
#include "opal/util/output.h"
#include "opal/util/show_help.h"
#include "ompi/constants.h"
#include "ompi/mca/evt/base/base.h"
#include "ompi/mca/evt/evt.h"

ompi_evt_base_t ompi_evt_base = {
    .module = NULL,
    .name = NULL,
    .priority = -1,
    .progress_registered = false,
    .inline_reason = "the evt framework is not open",
    .num_candidates = 0,
};

/* Only the framework's own variables (evt, evt_base_verbose) are registered
 * by mca_base_framework_register(); the base adds none of its own.
 * Context: INIT. */
static int evt_base_register(mca_base_register_flag_t flags)
{
    return OMPI_SUCCESS;
}

/* Context: INIT. */
static int evt_base_open(mca_base_open_flag_t flags)
{
    return mca_base_framework_components_open(&ompi_evt_base_framework, flags);
}

/* Uninstall the module, then close every component still open.
 * Context: INIT (mca_base_framework_close, last reference). */
static int evt_base_close(void)
{
    ompi_evt_base_uninstall();
    ompi_evt_base.inline_reason = "the evt framework is not open";
    return mca_base_framework_components_close(&ompi_evt_base_framework, NULL);
}

MCA_BASE_FRAMEWORK_DECLARE(ompi, evt, "MPI_T event delivery", evt_base_register,
                           evt_base_open, evt_base_close, NULL, MCA_BASE_FRAMEWORK_FLAG_DEFAULT);

/* Context: INIT. */
void ompi_evt_base_help_init(void)
{
    /* Our help file lives outside Open MPI's help folder: the installed copy
     * first, then the source tree's (running from the build tree). */
    (void) opal_show_help_add_dir(OMPI_EVT_HELPDIR);
    (void) opal_show_help_add_dir(OMPI_EVT_SRC_HELPDIR);
}

/* Context: INIT. */
int ompi_evt_base_open(void)
{
    int rc;

    ompi_evt_base_help_init();

    rc = mca_base_framework_open(&ompi_evt_base_framework, MCA_BASE_OPEN_DEFAULT);
    if (OPAL_SUCCESS != rc) {
        ompi_evt_base.inline_reason = "the evt framework could not be opened";
        opal_show_help("help-mca-evt-base.txt", "framework-open-failed", true, rc,
                       NULL == ompi_evt_base_framework.framework_selection
                           ? "(all)"
                           : ompi_evt_base_framework.framework_selection);
        return rc;
    }
    rc = ompi_evt_base_select();
    if (OPAL_ERR_NOT_FOUND == rc) {
        /* Dispatch at the raise is a working configuration, not a failure. */
        rc = OMPI_SUCCESS;
    }
    return rc;
}

/* Context: INIT. */
int ompi_evt_base_close(void)
{
    if (!mca_base_framework_is_open(&ompi_evt_base_framework)) {
        return OMPI_SUCCESS;
    }
    return mca_base_framework_close(&ompi_evt_base_framework);
}

/* Context: ANY. A plain read: open/close run in INIT context only. */
bool ompi_evt_base_is_open(void)
{
    return mca_base_framework_is_open(&ompi_evt_base_framework);
}
