/* Unit tests: the PMIx producer's decoding of a PMIX_MONITOR_RESUSAGE_UPDATE
 * event (ompi_evt_pmix_resusage_parse(), ompi/runtime/ompi_evt_pmix.h):
 * the container of this process becomes a payload with every process
 * field of PMIx_Process_monitor(3), containers of other processes and
 * malformed ones are skipped, fields of an unexpected type stay unknown
 * (-1), more containers than room are counted. Built with PMIx's
 * headers, no PMIx server needed. */
#include "opal_config.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include <pmix.h>

#include "ompi/runtime/ompi_evt_pmix.h"
#include "ompi/runtime/ompi_evt_pmix_keys.h"
#include "test/pmix/evt_test_resusage_info.h"

static pmix_proc_t me, other;

static void up(void)
{
    PMIX_PROC_LOAD(&me, "job-1", 3);
    PMIX_PROC_LOAD(&other, "job-1", 4);
}

TestSuite(resusage, .init = up);

/* A PMIX_PROC_RESOURCE_USAGE info about @p who with every field. */
static void container(pmix_info_t *out, const pmix_proc_t *who, float rss)
{
    const evt_test_resusage_t v = {
        .state = "R",
        .cpu_time = {.tv_sec = 12, .tv_usec = 345678},
        .percent_cpu = 42.5f,
        .pss = 10.25f,
        .vsize = 300.5f,
        .rss = rss,
        .peak_vsize = 310.0f,
        .priority = 20,
        .num_threads = 5,
        .cpu = 1,
        .sample_time = 1700000000,
    };

    evt_test_resusage_info(out, who, &v);
}

Test(resusage, own_container_every_field)
{
    pmix_info_t info[3];
    ompi_evt_pmix_resource_usage_payload_t p[4];
    size_t over = 99, n;
    uint32_t rate = 1;

    PMIX_INFO_LOAD(&info[0], PMIX_MONITOR_RESOURCE_RATE, &rate, PMIX_UINT32); /* not a container */
    container(&info[1], &other, 1.0f);                                        /* someone else */
    container(&info[2], &me, 64.5f);
    n = ompi_evt_pmix_resusage_parse(&me, info, 3, p, 4, &over);
    cr_assert_eq(n, 1);
    cr_expect_eq(over, 0);
    cr_expect_eq(p[0].rank, 3);
    cr_expect_eq(p[0].pid, (int32_t) getpid());
    cr_expect_eq(p[0].origin, OMPI_EVT_PMIX_ORIGIN_PMIX);
    cr_expect_eq(p[0].state, 'R');
    cr_expect_eq(p[0].cpu_time_usec, 12345678);
    cr_expect_float_eq(p[0].percent_cpu, 42.5, 1e-6);
    cr_expect_eq(p[0].priority, 20);
    cr_expect_eq(p[0].num_threads, 5);
    cr_expect_float_eq(p[0].pss_mb, 10.25, 1e-6);
    cr_expect_float_eq(p[0].vsize_mb, 300.5, 1e-6);
    cr_expect_float_eq(p[0].rss_mb, 64.5, 1e-6);
    cr_expect_float_eq(p[0].peak_vsize_mb, 310.0, 1e-6);
    cr_expect_eq(p[0].cpu, 1);
    cr_expect_eq(p[0].sample_time, 1700000000);
    for (int i = 0; i < 3; ++i) {
        PMIX_INFO_DESTRUCT(&info[i]);
    }
}

Test(resusage, malformed_containers_are_skipped)
{
    pmix_info_t info[4];
    pmix_data_array_t *da;
    ompi_evt_pmix_resource_usage_payload_t p[4];
    uint32_t x = 7;

    /* the subject not first */
    container(&info[0], &me, 1.0f);
    da = info[0].value.data.darray;
    {
        pmix_info_t tmp = ((pmix_info_t *) da->array)[0];

        ((pmix_info_t *) da->array)[0] = ((pmix_info_t *) da->array)[1];
        ((pmix_info_t *) da->array)[1] = tmp;
    }
    /* not an array of infos */
    PMIX_INFO_CONSTRUCT(&info[1]);
    PMIX_LOAD_KEY(info[1].key, PMIX_PROC_RESOURCE_USAGE);
    PMIX_DATA_ARRAY_CREATE(da, 1, PMIX_UINT32);
    memcpy(da->array, &x, sizeof(x));
    info[1].value.type = PMIX_DATA_ARRAY;
    info[1].value.data.darray = da;
    /* the right key with a scalar */
    PMIX_INFO_LOAD(&info[2], PMIX_PROC_RESOURCE_USAGE, &x, PMIX_UINT32);
    /* empty array */
    PMIX_INFO_CONSTRUCT(&info[3]);
    PMIX_LOAD_KEY(info[3].key, PMIX_PROC_RESOURCE_USAGE);
    da = calloc(1, sizeof(*da)); /* PMIX_DATA_ARRAY_CREATE(.., 0, ..) warns */
    cr_assert_not_null(da);
    da->type = PMIX_INFO;
    info[3].value.type = PMIX_DATA_ARRAY;
    info[3].value.data.darray = da;

    cr_expect_eq(ompi_evt_pmix_resusage_parse(&me, info, 4, p, 4, NULL), 0);
    cr_expect_eq(ompi_evt_pmix_resusage_parse(NULL, info, 4, p, 4, NULL), 0);
    cr_expect_eq(ompi_evt_pmix_resusage_parse(&me, NULL, 4, p, 4, NULL), 0);
    for (int i = 0; i < 4; ++i) {
        PMIX_INFO_DESTRUCT(&info[i]);
    }
}

Test(resusage, unexpected_types_stay_unknown)
{
    pmix_info_t info;
    pmix_info_t *f;
    ompi_evt_pmix_resource_usage_payload_t p;
    double rss = 12.0; /* a double where a float is expected: still a number */

    container(&info, &me, 1.0f);
    f = (pmix_info_t *) info.value.data.darray->array;
    PMIX_INFO_DESTRUCT(&f[EVT_TEST_RESUSAGE_RSS]);
    PMIX_INFO_LOAD(&f[EVT_TEST_RESUSAGE_RSS], PMIX_PROC_RSS, &rss, PMIX_DOUBLE);
    PMIX_INFO_DESTRUCT(&f[EVT_TEST_RESUSAGE_PERCENT_CPU]);
    PMIX_INFO_LOAD(&f[EVT_TEST_RESUSAGE_PERCENT_CPU], PMIX_PROC_PERCENT_CPU, "high",
                   PMIX_STRING); /* not a number */
    PMIX_INFO_DESTRUCT(&f[EVT_TEST_RESUSAGE_STATE]);
    PMIX_INFO_LOAD(&f[EVT_TEST_RESUSAGE_STATE], PMIX_PROC_OS_STATE, "", PMIX_STRING); /* no state */
    cr_assert_eq(ompi_evt_pmix_resusage_parse(&me, &info, 1, &p, 1, NULL), 1);
    cr_expect_float_eq(p.rss_mb, 12.0, 1e-9);
    cr_expect_float_eq(p.percent_cpu, -1.0, 1e-9);
    cr_expect_eq(p.state, -1);
    cr_expect_eq(p.num_threads, 5);
    PMIX_INFO_DESTRUCT(&info);
}

Test(resusage, more_containers_than_room_are_counted)
{
    pmix_info_t info[5];
    ompi_evt_pmix_resource_usage_payload_t p[2];
    size_t over = 0;

    for (int i = 0; i < 5; ++i) {
        container(&info[i], &me, (float) i);
    }
    cr_expect_eq(ompi_evt_pmix_resusage_parse(&me, info, 5, p, 2, &over), 2);
    cr_expect_eq(over, 3);
    cr_expect_float_eq(p[1].rss_mb, 1.0, 1e-9);
    for (int i = 0; i < 5; ++i) {
        PMIX_INFO_DESTRUCT(&info[i]);
    }
}
