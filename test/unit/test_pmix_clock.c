/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Unit tests: evt_pmix_test_clock_skew (parsing, which node it applies
 * to) and the skewed CLOCK_REALTIME reading; which ranks read one clock
 * (one measurement per clock, none for rank 0's); offsets within their
 * uncertainty are 0; and the alignment outside MPI (not available, never a
 * crash). The measurement itself runs under mpirun:
 * test/pmix/test_pmix_clock.sh, test_pmix_samenode.sh. */
#include "ompi_config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
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
    mca_common_evt_wire_offset_t sample = {.offset_ns = 42};

    cr_expect_eq(ompi_evt_pmix_clock_align(&clock, false, 100, &sample), OPAL_ERR_NOT_AVAILABLE);
    cr_expect_eq(sample.offset_ns, 42, "nothing written");
    ompi_evt_pmix_clock_release(&clock);
}

static void key(ompi_evt_pmix_clock_key_t *k, const char *host, const char *boot, int64_t skew)
{
    memset(k, 0, sizeof(*k));
    snprintf(k->host, sizeof(k->host), "%s", host);
    snprintf(k->boot_id, sizeof(k->boot_id), "%s", boot);
    k->skew_ns = skew;
    k->align = 1;
}

/* Two "nodes" on one machine (same boot), nodeB skewed: ranks 0-1 read
 * rank 0's clock, ranks 2-3 another one, led by rank 2. */
Test(pmix_clock, one_measurement_per_clock)
{
    ompi_evt_pmix_clock_key_t keys[4];
    ompi_evt_pmix_clock_t c;

    key(&keys[0], "nodeA", "b1", 0);
    key(&keys[1], "nodeA", "b1", 0);
    key(&keys[2], "nodeB", "b1", 5250000000LL);
    key(&keys[3], "nodeB", "b1", 5250000000LL);
    for (int rank = 0; rank < 4; ++rank) {
        memset(&c, 0, sizeof(c));
        cr_assert_eq(ompi_evt_pmix_clock_groups(&c, keys, rank, 4), OPAL_SUCCESS);
        cr_expect(c.all_align);
        cr_expect_eq(c.reference_clock, rank < 2, "rank %d", rank);
        cr_expect_eq(c.leader, rank < 2 ? 0 : 2, "rank %d", rank);
        cr_expect_eq(c.nfollowers, 2 == rank ? 1 : 0, "rank %d", rank);
        if (2 == rank) {
            cr_expect_eq(c.followers[0], 3);
        }
        cr_expect_eq(c.nleaders, 0 == rank ? 1 : 0, "rank %d", rank);
        if (0 == rank) {
            cr_expect_eq(c.leaders[0], 2, "rank 0 serves only nodeB's leader");
        }
        ompi_evt_pmix_clock_release(&c);
    }
}

/* Only the skew differs, or only the boot: not the same clock. */
Test(pmix_clock, skew_or_boot_makes_another_clock)
{
    ompi_evt_pmix_clock_key_t a, b;

    key(&a, "vm", "b1", 0);
    key(&b, "vm", "b1", 0);
    cr_expect(ompi_evt_pmix_clock_same(&a, &b));
    b.skew_ns = 1;
    cr_expect(!ompi_evt_pmix_clock_same(&a, &b));
    key(&b, "vm", "b2", 0);
    cr_expect(!ompi_evt_pmix_clock_same(&a, &b));
    key(&b, "vm2", "b1", 0);
    cr_expect(!ompi_evt_pmix_clock_same(&a, &b));
}

/* One rank without alignment: nobody measures. */
Test(pmix_clock, one_rank_without_alignment)
{
    ompi_evt_pmix_clock_key_t keys[2];
    ompi_evt_pmix_clock_t c = {0};

    key(&keys[0], "vm", "b1", 0);
    key(&keys[1], "vm", "b1", 0);
    keys[0].align = 0;
    cr_assert_eq(ompi_evt_pmix_clock_groups(&c, keys, 1, 2), OPAL_SUCCESS);
    cr_expect(!c.all_align);
    ompi_evt_pmix_clock_release(&c);
}

Test(pmix_clock, noise_is_zero)
{
    mca_common_evt_wire_offset_t s = {.offset_ns = -1000, .uncertainty_ns = 1700};

    ompi_evt_pmix_clock_drop_noise(&s);
    cr_expect_eq(s.offset_ns, 0);
    s.offset_ns = 1699;
    ompi_evt_pmix_clock_drop_noise(&s);
    cr_expect_eq(s.offset_ns, 0);
    s.offset_ns = -1700;
    ompi_evt_pmix_clock_drop_noise(&s);
    cr_expect_eq(s.offset_ns, -1700, "as large as its uncertainty: kept");
    s.offset_ns = 5250000000LL;
    ompi_evt_pmix_clock_drop_noise(&s);
    cr_expect_eq(s.offset_ns, 5250000000LL);
}
