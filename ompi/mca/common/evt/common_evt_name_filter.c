/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Event name filters: parsing and matching (common_evt_name_filter.h).
 */

#include "ompi_config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ompi/mca/common/evt/common_evt_name_filter.h"
#include "opal/constants.h"

/* Context: ANY. Iterative, with one backtrack point (the last `*`): linear
 * in practice, at worst |pattern| x |name|. */
bool mca_common_evt_name_glob(const char *pattern, const char *name)
{
    const char *star = NULL, *resume = NULL;

    while ('\0' != *name) {
        if ('*' == *pattern) {
            star = pattern++;
            resume = name;
        } else if (*pattern == *name) {
            ++pattern;
            ++name;
        } else if (NULL != star) {
            /* let the last `*` take one more character */
            pattern = star + 1;
            name = ++resume;
        } else {
            return false;
        }
    }
    while ('*' == *pattern) {
        ++pattern;
    }
    return '\0' == *pattern;
}

static bool pattern_char_ok(char c)
{
    return isalnum((unsigned char) c) || '.' == c || '_' == c || '-' == c || '*' == c;
}

/* Context: INIT. */
int mca_common_evt_name_filter_parse(mca_common_evt_name_filter_t *filter, const char *spec,
                                     const char **error)
{
    const char *why = NULL, *p;
    int n = 1, rc = OPAL_ERR_BAD_PARAM;

    memset(filter, 0, sizeof(*filter));
    if (NULL == spec || '\0' == spec[strspn(spec, " \t")]) {
        return OPAL_SUCCESS; /* every event */
    }
    for (p = spec; '\0' != *p; ++p) {
        n += ',' == *p;
    }
    filter->patterns = calloc((size_t) n, sizeof(*filter->patterns));
    filter->exclude = calloc((size_t) n, sizeof(*filter->exclude));
    if (NULL == filter->patterns || NULL == filter->exclude) {
        rc = OPAL_ERR_OUT_OF_RESOURCE;
        goto fail;
    }
    for (p = spec;;) {
        const char *end = strchr(p, ',');
        size_t len = NULL == end ? strlen(p) : (size_t) (end - p);
        bool exclude = false;

        /* trim blanks */
        while (0 < len && (' ' == *p || '\t' == *p)) {
            ++p;
            --len;
        }
        while (0 < len && (' ' == p[len - 1] || '\t' == p[len - 1])) {
            --len;
        }
        if (0 < len && '^' == *p) {
            exclude = true;
            ++p;
            --len;
        }
        if (0 == len) {
            why = "an empty pattern (two commas in a row, a trailing comma, or a lone ^)";
            goto fail;
        }
        for (size_t i = 0; i < len; ++i) {
            if (!pattern_char_ok(p[i])) {
                why = "a pattern may hold only letters, digits, '.', '_', '-' and '*' (and "
                      "start with '^' to exclude)";
                goto fail;
            }
        }
        filter->patterns[filter->num] = strndup(p, len);
        if (NULL == filter->patterns[filter->num]) {
            rc = OPAL_ERR_OUT_OF_RESOURCE;
            goto fail;
        }
        filter->exclude[filter->num] = exclude;
        filter->num_include += !exclude;
        ++filter->num;
        if (NULL == end) {
            break;
        }
        p = end + 1;
    }
    return OPAL_SUCCESS;

fail:
    if (NULL != error) {
        *error = NULL == why ? "out of memory" : why;
    }
    mca_common_evt_name_filter_free(filter);
    return rc;
}

/* Context: INIT. */
void mca_common_evt_name_filter_free(mca_common_evt_name_filter_t *filter)
{
    for (int i = 0; NULL != filter->patterns && i < filter->num; ++i) {
        free(filter->patterns[i]);
    }
    free(filter->patterns);
    free(filter->exclude);
    memset(filter, 0, sizeof(*filter));
}

/* Context: ANY. */
bool mca_common_evt_name_filter_match(const mca_common_evt_name_filter_t *filter, const char *name)
{
    bool included = 0 == filter->num_include;

    for (int i = 0; i < filter->num; ++i) {
        if (filter->exclude[i]) {
            if (mca_common_evt_name_glob(filter->patterns[i], name)) {
                return false;
            }
        } else if (!included && mca_common_evt_name_glob(filter->patterns[i], name)) {
            included = true;
        }
    }
    return included;
}

/* Context: INIT. */
int mca_common_evt_name_filter_unmatched(const mca_common_evt_name_filter_t *filter,
                                         const char *who, const char *param, const char *spec,
                                         const char *const *names, int n,
                                         void (*say)(const char *line))
{
    char line[512];
    int nselected = 0, said = 0;

    if (0 == filter->num) {
        return 0;
    }
    for (int i = 0; i < n; ++i) {
        nselected += NULL != names[i] && mca_common_evt_name_filter_match(filter, names[i]);
    }
    for (int p = 0; p < filter->num; ++p) {
        bool matched = false;

        for (int i = 0; i < n && !matched; ++i) {
            matched = NULL != names[i] && mca_common_evt_name_glob(filter->patterns[p], names[i]);
        }
        if (!matched) {
            (void) snprintf(line, sizeof(line),
                            "%s: WARNING: %s pattern \"%s%s\" matches none of the %d event types "
                            "known at MPI_Init (ompi-evt-info lists them)",
                            who, param, filter->exclude[p] ? "^" : "", filter->patterns[p], n);
            say(line);
            ++said;
        }
    }
    if (0 == nselected) {
        (void) snprintf(line, sizeof(line),
                        "%s: WARNING: %s \"%s\" selects no event type: nothing will be recorded",
                        who, param, NULL == spec ? "" : spec);
        say(line);
        ++said;
    }
    return said;
}
