/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Unit tests: event name filters (common_evt_name_filter.h: evt_pmix_events, --events) and
 * evt_pmix_custom_range. */
#include "ompi_config.h"

#include <criterion/criterion.h>
#include <pmix.h>

#include "ompi/mca/common/evt/common_evt_name_filter.h"
#include "ompi/mca/evt/pmix/evt_pmix.h"
#include "opal/constants.h"

Test(pmix_filter, glob)
{
    cr_assert(mca_common_evt_name_glob("*", ""));
    cr_assert(mca_common_evt_name_glob("*", "ompi.mpi.initialization"));
    cr_assert(mca_common_evt_name_glob("ompi.mpi.*", "ompi.mpi.initialization"));
    cr_assert(mca_common_evt_name_glob("ompi.mpi.*", "ompi.mpi."));
    cr_assert_not(mca_common_evt_name_glob("ompi.mpi.*", "ompi.mpi"));
    cr_assert(mca_common_evt_name_glob("*.p2p_*_complete", "ompi.mpi.p2p_send_complete"));
    cr_assert_not(mca_common_evt_name_glob("*.p2p_*_complete", "ompi.mpi.p2p_send_completed"));
    cr_assert(mca_common_evt_name_glob("a*b*c", "aXbYbZc"));
    cr_assert_not(mca_common_evt_name_glob("a*b*c", "aXcYb"));
    cr_assert(mca_common_evt_name_glob("exact", "exact"));
    cr_assert_not(mca_common_evt_name_glob("exact", "exactly"));
    cr_assert_not(mca_common_evt_name_glob("exactly", "exact"));
    /* only '*' is special: '?' and '[' match themselves */
    cr_assert_not(mca_common_evt_name_glob("a?c", "abc"));
    cr_assert(mca_common_evt_name_glob("**x**", "yyx"));
}

static bool match(const char *spec, const char *name)
{
    mca_common_evt_name_filter_t f;
    const char *why = NULL;
    bool m;

    cr_assert_eq(mca_common_evt_name_filter_parse(&f, spec, &why), OPAL_SUCCESS, "%s: %s", spec,
                 why ? why : "");
    m = mca_common_evt_name_filter_match(&f, name);
    mca_common_evt_name_filter_free(&f);
    return m;
}

Test(pmix_filter, semantics)
{
    /* unset, empty, blank, "*": everything */
    cr_assert(match(NULL, "ompi.mpi.initialization"));
    cr_assert(match("", "ompi.mpi.initialization"));
    cr_assert(match("  ", "ompi.mpi.initialization"));
    cr_assert(match("*", "ompi.anything"));
    /* includes only */
    cr_assert(match("ompi.mpi.*", "ompi.mpi.win_created"));
    cr_assert_not(match("ompi.mpi.*", "ompi.mca.memory.patcher.released"));
    cr_assert(match("ompi.a, ompi.b", "ompi.b"));
    /* excludes only: everything else */
    cr_assert_not(match("^ompi.mca.*", "ompi.mca.memory.patcher.released"));
    cr_assert(match("^ompi.mca.*", "ompi.mpi.initialization"));
    /* mixed: included and not excluded, in any order */
    cr_assert(match("ompi.mpi.*,^ompi.mpi.p2p_*", "ompi.mpi.win_freed"));
    cr_assert_not(match("ompi.mpi.*,^ompi.mpi.p2p_*", "ompi.mpi.p2p_recv_complete"));
    cr_assert_not(match("^ompi.mpi.p2p_*,ompi.mpi.*", "ompi.mpi.p2p_recv_complete"));
    cr_assert_not(match("ompi.mpi.*,^ompi.mpi.p2p_*", "ompi.other"));
    /* an exclude wins over an exact include */
    cr_assert_not(match("ompi.x,^ompi.x", "ompi.x"));
}

static void bad(const char *spec)
{
    mca_common_evt_name_filter_t f;
    const char *why = NULL;

    cr_assert_eq(mca_common_evt_name_filter_parse(&f, spec, &why), OPAL_ERR_BAD_PARAM, "%s", spec);
    cr_assert_not_null(why, "%s: no reason", spec);
    cr_assert_eq(f.num, 0);
    cr_assert_null(f.patterns);
}

Test(pmix_filter, bad_input)
{
    bad("a,,b");
    bad("a,");
    bad(",a");
    bad("^");
    bad("a, ^ ,b");
    bad("a b");
    bad("ompi.mpi.[a]");
    bad("ompi/mpi");
    bad("^^a");
}

Test(pmix_filter, custom_range)
{
    void *procs = NULL;
    size_t n = 0;
    const char *why = NULL;
    pmix_proc_t *p;

    cr_assert_eq(ompi_evt_pmix_parse_custom_range("tool-ns", &procs, &n, &why), OPAL_SUCCESS);
    p = procs;
    cr_assert_eq(n, 1);
    cr_assert_str_eq(p[0].nspace, "tool-ns");
    cr_assert_eq(p[0].rank, PMIX_RANK_WILDCARD);
    free(procs);

    cr_assert_eq(ompi_evt_pmix_parse_custom_range("job@1:3,tool:0,ns:with:colons:7", &procs, &n,
                                                  &why),
                 OPAL_SUCCESS);
    p = procs;
    cr_assert_eq(n, 3);
    cr_assert_str_eq(p[0].nspace, "job@1");
    cr_assert_eq(p[0].rank, 3);
    cr_assert_str_eq(p[1].nspace, "tool");
    cr_assert_eq(p[1].rank, 0);
    cr_assert_str_eq(p[2].nspace, "ns:with:colons");
    cr_assert_eq(p[2].rank, 7);
    free(procs);

    cr_assert_eq(ompi_evt_pmix_parse_custom_range(NULL, &procs, &n, &why), OPAL_ERR_BAD_PARAM);
    cr_assert_eq(ompi_evt_pmix_parse_custom_range("", &procs, &n, &why), OPAL_ERR_BAD_PARAM);
    cr_assert_eq(ompi_evt_pmix_parse_custom_range("a,,b", &procs, &n, &why), OPAL_ERR_BAD_PARAM);
    cr_assert_eq(ompi_evt_pmix_parse_custom_range("ns:x", &procs, &n, &why), OPAL_ERR_BAD_PARAM);
    cr_assert_eq(ompi_evt_pmix_parse_custom_range("ns:", &procs, &n, &why), OPAL_ERR_BAD_PARAM);
    cr_assert_eq(ompi_evt_pmix_parse_custom_range(":3", &procs, &n, &why), OPAL_ERR_BAD_PARAM);
    cr_assert_null(procs);
    cr_assert_not_null(why);
}
