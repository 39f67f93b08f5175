/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The engine's side of the name filters: the check of a filter against
 * the event types registered now (common_evt_name_filter.h). Apart from
 * common_evt_name_filter.c, which needs nothing of the engine (the fuzz
 * harnesses build it alone).
 */

#include "ompi_config.h"

#include <stdlib.h>

#include "ompi/mca/common/evt/common_evt_name_filter.h"
#include "opal/mca/base/mca_base_event.h"
#include "opal/mca/base/mca_base_event_delivery.h"
#include "opal/util/output.h"

static void say_on_stderr(const char *line)
{
    /* straight to stderr: Open MPI 4.1.4's mpirun may lose forwarded help
     * messages */
    opal_output(0, "%s", line);
}

/* Context: INIT. */
void mca_common_evt_name_filter_check_registered(const mca_common_evt_name_filter_t *filter,
                                                 const char *who, const char *param,
                                                 const char *spec)
{
    int n = mca_base_event_get_count();
    const char **names;

    if (0 == filter->num || NULL == (names = calloc((size_t) n + 1, sizeof(*names)))) {
        return;
    }
    for (int i = 0; i < n; ++i) {
        const mca_base_event_t *ev = mca_base_event_lookup((uint32_t) i);
        names[i] = NULL == ev ? NULL : ev->name;
    }
    (void) mca_common_evt_name_filter_unmatched(filter, who, param, spec, names, n, say_on_stderr);
    free(names);
}
