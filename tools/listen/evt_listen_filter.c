/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * --events PATTERNS: the framework's event name filter (the rule of
 * evt_pmix_events, common_evt_name_filter.h), with the listener's messages.
 */

#include <stdio.h>
#include <string.h>

#include "evt_listen.h"
#include "opal/constants.h"

int listen_filter_parse(listen_filter_t *f, const char *spec, char *err, size_t errlen)
{
    const char *why = NULL;
    int rc = mca_common_evt_name_filter_parse(&f->names, spec, &why);

    if (OPAL_SUCCESS == rc) {
        return 0;
    }
    memset(f, 0, sizeof(*f));
    if (OPAL_ERR_BAD_PARAM == rc) {
        snprintf(err, errlen, "--events \"%s\": %s", spec, NULL == why ? "bad pattern" : why);
    } else {
        snprintf(err, errlen, "out of memory");
    }
    return -1;
}

bool listen_filter_match(const listen_filter_t *f, const char *name)
{
    return mca_common_evt_name_filter_match(&f->names, name);
}

void listen_filter_free(listen_filter_t *f)
{
    mca_common_evt_name_filter_free(&f->names);
}
