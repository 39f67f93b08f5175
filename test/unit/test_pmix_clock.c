/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Unit tests: evt_pmix_test_clock_skew (parsing, which node it applies
 * to) and the skewed CLOCK_REALTIME reading; and the alignment outside MPI
 * (not available, never a crash). The measurement itself runs under
 * mpirun: test/pmix/test_pmix_clock.sh. */
#include "ompi_config.h"

#include <criterion/criterion.h>
#include <time.h>

#include "ompi/mca/evt/pmix/evt_pmix_clock.h"
#include "opal/constants.h"

static int64_t realtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

Test(pmix_clock, skew_parsing)
{
    const char *why = NULL;
    int64_t ns = 1;

    cr_assert_eq(ompi_evt_pmix_clock_parse_skew("nodeB:5", "nodeB", &ns, &why), OPAL_SUCCESS);
    cr_expect_eq(ns, 5000000000LL);
    cr_assert_eq(ompi_evt_pmix_clock_parse_skew("nodeB:-0.25", "nodeB", &ns, &why), OPAL_SUCCESS);
    cr_expect_eq(ns, -250000000LL, "fractional, negative");
    cr_assert_eq(ompi_evt_pmix_clock_parse_skew("nodeB:1.000000001", "nodeB", &ns, &why),
                 OPAL_SUCCESS);
    cr_expect_eq(ns, 1000000001LL, "to the nanosecond");
    cr_assert_eq(ompi_evt_pmix_clock_parse_skew("nodeB:5", "nodeA", &ns, &why), OPAL_SUCCESS);
    cr_expect_eq(ns, 0, "another node: no skew");
    cr_assert_eq(ompi_evt_pmix_clock_parse_skew("nodeB:5", "nodeBB", &ns, &why), OPAL_SUCCESS);
    cr_expect_eq(ns, 0, "the whole name must match");
    cr_assert_eq(ompi_evt_pmix_clock_parse_skew("node", "node", &ns, &why), OPAL_ERR_BAD_PARAM);
    cr_expect_not_null(why);
    cr_expect_eq(ompi_evt_pmix_clock_parse_skew(":5", "", &ns, &why), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(ompi_evt_pmix_clock_parse_skew("nodeB:", "nodeB", &ns, &why), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(ompi_evt_pmix_clock_parse_skew("nodeB:5s", "nodeB", &ns, &why),
                 OPAL_ERR_BAD_PARAM);
    cr_expect_eq(ompi_evt_pmix_clock_parse_skew("nodeB:1e7", "nodeB", &ns, &why),
                 OPAL_ERR_BAD_PARAM, "beyond 1e6 s");
    cr_expect_eq(ompi_evt_pmix_clock_parse_skew("nodeB:nan", "nodeB", &ns, &why),
                 OPAL_ERR_BAD_PARAM);
    cr_expect_eq(ompi_evt_pmix_clock_parse_skew(NULL, "nodeB", &ns, &why), OPAL_ERR_BAD_PARAM);
    /* checked without a host (the component, before PMIx names the node) */
    cr_expect_eq(ompi_evt_pmix_clock_parse_skew("nodeB:2", NULL, &ns, &why), OPAL_SUCCESS);
    cr_expect_eq(ns, 0);
}

Test(pmix_clock, skewed_reading)
{
    int64_t before, got, after;

    ompi_evt_pmix_clock_set_skew(-3000000000LL);
    before = realtime();
    got = ompi_evt_pmix_clock_realtime_ns();
    after = realtime();
    cr_expect(got >= before - 3000000000LL && got <= after - 3000000000LL);
    ompi_evt_pmix_clock_set_skew(0);
    before = realtime();
    got = ompi_evt_pmix_clock_realtime_ns();
    after = realtime();
    cr_expect(got >= before && got <= after);
}

Test(pmix_clock, outside_mpi_not_available)
{
    ompi_evt_pmix_clock_t clock = {0};
    ompi_evt_wire_offset_t sample = {.offset_ns = 42};

    cr_expect_eq(ompi_evt_pmix_clock_align(&clock, false, 100, &sample), OPAL_ERR_NOT_AVAILABLE);
    cr_expect_eq(sample.offset_ns, 42, "nothing written");
    ompi_evt_pmix_clock_release(&clock);
}
