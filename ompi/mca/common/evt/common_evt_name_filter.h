/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Event name filters, the one rule of every "which events" list: evt/pmix's
 * evt_pmix_events and ompi-evt-listen's and ompi-evt-record's --events.
 * A comma-separated list of name patterns. In a pattern, `*` matches any run of characters (also
 * none) and every other character only itself. A pattern starting with `^`
 * excludes; the others include. An event is selected when it matches no
 * exclude pattern and, if the list has include patterns, at least one of
 * them. So "ompi.mpi.*,^ompi.mpi.p2p_*" selects the MPI events but the
 * point-to-point ones, "^ompi.mca.*" everything but the component events,
 * and an empty list (or "*") everything. Blanks around patterns are
 * ignored.
 *
 * Why not fnmatch(): names are matched literally except for `*`, so a
 * name never needs escaping, and the matcher is async-signal-free and
 * allocation-free (it runs under the engine mutex).
 */

#ifndef MCA_COMMON_EVT_NAME_FILTER_H
#define MCA_COMMON_EVT_NAME_FILTER_H

#include "ompi_config.h"

#include <stdbool.h>

BEGIN_C_DECLS

/** A parsed list. */
typedef struct mca_common_evt_name_filter_t {
    int num;         /**< patterns */
    int num_include; /**< of which include patterns */
    char **patterns; /**< without the `^` */
    bool *exclude;   /**< per pattern */
} mca_common_evt_name_filter_t;

/**
 * Parse @p spec (NULL or "" means every event).
 * @param[out] filter  set up on success; holds nothing to free on error
 * @param[out] error   on OPAL_ERR_BAD_PARAM, a static string saying what
 *                     is wrong (may be NULL)
 * @retval OPAL_SUCCESS
 * @retval OPAL_ERR_BAD_PARAM  an empty pattern (",,", a trailing comma, a
 *         lone `^`), or a character outside [A-Za-z0-9._*-]
 * @retval OPAL_ERR_OUT_OF_RESOURCE
 * Context: INIT.
 */
OMPI_DECLSPEC int mca_common_evt_name_filter_parse(mca_common_evt_name_filter_t *filter,
                                                   const char *spec, const char **error);

/** Free what parse allocated; safe on a zeroed filter. Context: INIT. */
OMPI_DECLSPEC void mca_common_evt_name_filter_free(mca_common_evt_name_filter_t *filter);

/** Is the event named @p name selected? No allocation, no lock.
 *  Context: ANY. */
OMPI_DECLSPEC bool mca_common_evt_name_filter_match(const mca_common_evt_name_filter_t *filter,
                                                    const char *name);

/** Does @p pattern (only `*` special) match all of @p name? Context: ANY. */
OMPI_DECLSPEC bool mca_common_evt_name_glob(const char *pattern, const char *name);

/**
 * Say what in a filter cannot be what its user meant: each pattern that
 * matches none of the @p n event type names @p names, and the filter when
 * it selects none of them (a typo records nothing, and the job would
 * still succeed without a word). Each finding is one line given to
 * @p say, e.g. `evt:file: WARNING: evt_file_events pattern "x*" matches
 * none of the 40 event types known at MPI_Init (ompi-evt-info lists them)`.
 * @param[in] who    the component's prefix ("evt:file")
 * @param[in] param  the parameter's name ("evt_file_events")
 * @param[in] spec   its value, as given
 * @return lines said. Context: INIT.
 */
OMPI_DECLSPEC int mca_common_evt_name_filter_unmatched(const mca_common_evt_name_filter_t *filter,
                                                       const char *who, const char *param,
                                                       const char *spec, const char *const *names,
                                                       int n, void (*say)(const char *line));

/**
 * mca_common_evt_name_filter_unmatched() over the event types registered
 * with the engine now, each finding written to stderr (opal_output 0): a
 * component calls it at the end of MPI_Init, from one rank. Context: INIT.
 */
OMPI_DECLSPEC void
mca_common_evt_name_filter_check_registered(const mca_common_evt_name_filter_t *filter,
                                            const char *who, const char *param, const char *spec);

END_C_DECLS

#endif /* MCA_COMMON_EVT_NAME_FILTER_H */
