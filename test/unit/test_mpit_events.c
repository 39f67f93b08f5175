/*
 * Unit tests: the MPI_T events tool API (ompi/mpi/tool/), as a singleton
 * MPI_T process (PMPI_T_init_thread, no mpirun). Test events are registered
 * through the engine API; the info round trips also call MPI_Init, since
 * Open MPI 4.1 creates MPI_Info objects only after it.
 */
#include "opal_config.h"

#include <criterion/criterion.h>
#include <limits.h>
#include <mpi.h> /* the shim: Open MPI's mpi.h + mpi_t_events.h */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "opal/mca/base/mca_base_event.h"
#include "opal/mca/base/mca_base_var_group.h"

/* ------------------------------------------------------------------------
 * Fixture: two sources, three event types, two variable groups.
 * ------------------------------------------------------------------------ */

typedef struct {
    int32_t a;
    uint32_t pad;
    uint64_t b;
    double c;
} payload_t;

static mca_base_event_source_t *src, *src_noadhoc;
static mca_base_event_t *ev, *ev_bound, *ev_fw;
static int src_index, src_noadhoc_index;

/* The clock of the no-ad-hoc source: milliseconds of a fake clock. */
static opal_count_t fake_clock(void *ctx)
{
    return 777;
}

static void mpit_up(void)
{
    int provided;

    cr_assert_eq(PMPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided), MPI_SUCCESS);
    cr_assert_eq(mca_base_event_init(), OPAL_SUCCESS);
}

static void mpit_down(void)
{
    cr_assert_eq(mca_base_event_finalize(), OPAL_SUCCESS);
    cr_assert_eq(PMPI_T_finalize(), MPI_SUCCESS);
}

static void register_fixture(void)
{
    const mca_base_var_type_t types[3] = {MCA_BASE_VAR_TYPE_INT32_T, MCA_BASE_VAR_TYPE_UINT64_T,
                                          MCA_BASE_VAR_TYPE_DOUBLE};
    const ptrdiff_t offsets[3] = {offsetof(payload_t, a), offsetof(payload_t, b),
                                  offsetof(payload_t, c)};
    const mca_base_var_type_t t1[1] = {MCA_BASE_VAR_TYPE_UINT64_T};
    const ptrdiff_t o1[1] = {0};
    int idx;

    cr_assert_geq(mca_base_var_group_register("ompi", "mpittest", NULL, "test framework"), 0);
    cr_assert_geq(mca_base_var_group_register("ompi", "mpittest", "comp", "test component"), 0);

    src_index = mca_base_event_source_register("mpit_test.src", "test source",
                                               MCA_BASE_EVENT_SOURCE_ORDERED, 1000000000LL,
                                               OPAL_COUNT_MAX, NULL, true, NULL);
    cr_assert_geq(src_index, 0);
    cr_assert_eq(mca_base_event_source_get_by_index(src_index, &src), OPAL_SUCCESS);
    src_noadhoc_index = mca_base_event_source_register("mpit_test.noadhoc", "no ad-hoc reads",
                                                       MCA_BASE_EVENT_SOURCE_UNORDERED, 1000,
                                                       1000000, fake_clock, false, NULL);
    cr_assert_geq(src_noadhoc_index, 0);
    cr_assert_eq(mca_base_event_source_get_by_index(src_noadhoc_index, &src_noadhoc), OPAL_SUCCESS);

    idx = mca_base_event_register("ompi", "mpittest", "comp", "ev", "the test event",
                                  OPAL_INFO_LVL_4, 3, types, offsets, NULL,
                                  MCA_BASE_VAR_BIND_NO_OBJECT, 0, src, NULL);
    cr_assert_geq(idx, 0);
    cr_assert_eq(mca_base_event_get_by_index(idx, &ev), OPAL_SUCCESS);
    idx = mca_base_event_register("ompi", "mpittest", "comp", "bound", "bound to MPI_COMM",
                                  OPAL_INFO_LVL_1, 1, t1, o1, NULL, MCA_BASE_VAR_BIND_MPI_COMM, 0,
                                  src, NULL);
    cr_assert_geq(idx, 0);
    cr_assert_eq(mca_base_event_get_by_index(idx, &ev_bound), OPAL_SUCCESS);
    idx = mca_base_event_register("ompi", "mpittest", NULL, "fwev", "framework level", OPAL_INFO_LVL_9,
                                  1, t1, o1, NULL, MCA_BASE_VAR_BIND_NO_OBJECT, 0, src_noadhoc,
                                  NULL);
    cr_assert_geq(idx, 0);
    cr_assert_eq(mca_base_event_get_by_index(idx, &ev_fw), OPAL_SUCCESS);
}

static void setup(void)
{
    mpit_up();
    register_fixture();
}

static void teardown(void)
{
    mpit_down();
}

static MPI_T_event_registration alloc_handle(mca_base_event_t *event)
{
    MPI_T_event_registration reg = NULL;

    cr_assert_eq(MPI_T_event_handle_alloc(event->index, NULL, MPI_INFO_NULL, &reg), MPI_SUCCESS);
    cr_assert_not_null(reg);
    return reg;
}

static void raise_ev(int32_t a, uint64_t b, double c)
{
    payload_t p = {.a = a, .pad = 0, .b = b, .c = c};

    cr_assert_eq(mca_base_event_raise(ev, NULL, &p), OPAL_SUCCESS);
}

/* ------------------------------------------------------------------------
 * NOT_INITIALIZED: every function, before init and after finalize.
 * ------------------------------------------------------------------------ */

static int dummy_buf[64];

static void cb_noop(MPI_T_event_instance i, MPI_T_event_registration r, MPI_T_cb_safety s,
                    void *u)
{
}

static int count_not_initialized(void)
{
    MPI_T_event_registration reg = (MPI_T_event_registration) dummy_buf;
    MPI_T_event_instance inst = (MPI_T_event_instance) dummy_buf;
    MPI_Info info;
    MPI_Count ts;
    int n = 0, x, len = 8;
    char name[8];

#define NI(call) n += (MPI_T_ERR_NOT_INITIALIZED == (call))
    NI(MPI_T_event_get_num(&x));
    NI(MPI_T_event_get_info(0, name, &len, &x, NULL, NULL, NULL, NULL, NULL, NULL, NULL, &x));
    NI(MPI_T_event_get_index("ompi.mpittest_comp_ev", &x));
    NI(MPI_T_event_handle_alloc(0, NULL, MPI_INFO_NULL, &reg));
    NI(MPI_T_event_handle_free(reg, NULL, NULL));
    NI(MPI_T_event_handle_set_info(reg, MPI_INFO_NULL));
    NI(MPI_T_event_handle_get_info(reg, &info));
    NI(MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, NULL, cb_noop));
    NI(MPI_T_event_callback_set_info(reg, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL));
    NI(MPI_T_event_callback_get_info(reg, MPI_T_CB_REQUIRE_NONE, &info));
    NI(MPI_T_event_set_dropped_handler(reg, NULL));
    NI(MPI_T_event_read(inst, 0, dummy_buf));
    NI(MPI_T_event_copy(inst, dummy_buf));
    NI(MPI_T_event_get_timestamp(inst, &ts));
    NI(MPI_T_event_get_source(inst, &x));
    NI(MPI_T_source_get_num(&x));
    NI(MPI_T_source_get_info(0, name, &len, NULL, NULL, NULL, NULL, NULL, NULL));
    NI(MPI_T_source_get_timestamp(0, &ts));
    NI(MPI_T_category_get_num_events(0, &x));
    NI(MPI_T_category_get_events(0, 1, &x));
#undef NI
    return n;
}

Test(mpit_init, not_initialized_before_init)
{
    cr_expect_eq(count_not_initialized(), 20);
}

Test(mpit_init, not_initialized_after_finalize)
{
    int x = -1;

    setup();
    cr_assert_eq(MPI_T_event_get_num(&x), MPI_SUCCESS);
    cr_expect_geq(x, 3);
    teardown();
    cr_expect_eq(count_not_initialized(), 20);
    /* and again after a second cycle: indexes are stable */
    mpit_up();
    cr_expect_eq(MPI_T_event_get_index("ompi.mpittest_comp_ev", &x), MPI_SUCCESS);
    cr_expect_eq(x, ev->index);
    mpit_down();
    cr_expect_eq(count_not_initialized(), 20);
}

/* ------------------------------------------------------------------------
 * Queries
 * ------------------------------------------------------------------------ */

TestSuite(mpit_query, .init = setup, .fini = teardown);

Test(mpit_query, get_num_and_index)
{
    int n = -1, idx = -1;

    cr_expect_eq(MPI_T_event_get_num(&n), MPI_SUCCESS);
    cr_expect_eq(n, mca_base_event_get_count());
    cr_expect_eq(MPI_T_event_get_index("ompi.mpittest_comp_ev", &idx), MPI_SUCCESS);
    cr_expect_eq(idx, ev->index);
    cr_expect_eq(MPI_T_event_get_index("ompi.mpittest_comp_bound", &idx), MPI_SUCCESS);
    cr_expect_eq(idx, ev_bound->index);
    cr_expect_eq(MPI_T_event_get_index("ompi.no_such_event", &idx), MPI_T_ERR_INVALID_NAME);
    cr_expect_eq(MPI_T_event_get_index("mpittest_comp_ev", &idx), MPI_T_ERR_INVALID_NAME);
    cr_expect_eq(MPI_T_event_get_index(NULL, &idx), MPI_T_ERR_INVALID);
    cr_expect_eq(MPI_T_event_get_index("ompi.mpittest_comp_ev", NULL), MPI_T_ERR_INVALID);
    cr_expect_eq(MPI_T_event_get_num(NULL), MPI_T_ERR_INVALID);
    cr_expect_eq(MPI_T_source_get_num(NULL), MPI_T_ERR_INVALID);
    cr_expect_eq(MPI_T_source_get_num(&n), MPI_SUCCESS);
    cr_expect_eq(n, mca_base_event_source_get_count());
    cr_expect_geq(n, 2);
}

Test(mpit_query, event_get_info_layout)
{
    MPI_Datatype types[4] = {MPI_DATATYPE_NULL, MPI_DATATYPE_NULL, MPI_DATATYPE_NULL,
                             MPI_DATATYPE_NULL};
    MPI_Aint displs[4] = {-1, -1, -1, -1};
    int num = 4, verbosity = -1, bind = -1, name_len = 64, desc_len = 64;
    MPI_T_enum enumtype = (MPI_T_enum) dummy_buf;
    MPI_Info info = (MPI_Info) dummy_buf;
    char name[64], desc[64];

    cr_assert_eq(MPI_T_event_get_info(ev->index, name, &name_len, &verbosity, types, displs, &num,
                                      &enumtype, &info, desc, &desc_len, &bind),
                 MPI_SUCCESS);
    cr_expect_str_eq(name, "ompi.mpittest_comp_ev");
    cr_expect_eq(name_len, (int) strlen("ompi.mpittest_comp_ev") + 1);
    cr_expect_str_eq(desc, "the test event");
    cr_expect_eq(desc_len, (int) strlen("the test event") + 1);
    cr_expect_eq(verbosity, MPI_T_VERBOSITY_TUNER_BASIC); /* OPAL_INFO_LVL_4 */
    cr_expect_eq(num, 3);
    cr_expect(types[0] == MPI_INT32_T);
    cr_expect(types[1] == MPI_UINT64_T);
    cr_expect(types[2] == MPI_DOUBLE);
    cr_expect(types[3] == MPI_DATATYPE_NULL, "no entry beyond the event's elements");
    cr_expect_eq(displs[0], 0);
    cr_expect_eq(displs[1], 8);
    cr_expect_eq(displs[2], 16);
    cr_expect_eq(displs[3], -1);
    cr_expect(enumtype == MPI_T_ENUM_NULL);
    cr_expect(info == MPI_INFO_NULL, "no MPI_Info before MPI_Init in Open MPI 4.1");
    cr_expect_eq(bind, MPI_T_BIND_NO_OBJECT);

    /* arrays shorter than the event: only num (in) entries written */
    types[0] = types[1] = MPI_DATATYPE_NULL;
    displs[0] = displs[1] = -1;
    num = 1;
    cr_assert_eq(MPI_T_event_get_info(ev->index, NULL, NULL, NULL, types, displs, &num, NULL,
                                      NULL, NULL, NULL, NULL),
                 MPI_SUCCESS);
    cr_expect_eq(num, 3);
    cr_expect(types[0] == MPI_INT32_T);
    cr_expect(types[1] == MPI_DATATYPE_NULL);
    cr_expect_eq(displs[1], -1);

    /* num 0 with NULL arrays: the count only */
    num = 0;
    cr_expect_eq(MPI_T_event_get_info(ev->index, NULL, NULL, NULL, NULL, NULL, &num, NULL, NULL,
                                      NULL, NULL, NULL),
                 MPI_SUCCESS);
    cr_expect_eq(num, 3);
    /* a negative length for an array that is there: invalid, nothing written */
    types[0] = MPI_DATATYPE_NULL;
    displs[0] = -1;
    num = -1;
    cr_expect_eq(MPI_T_event_get_info(ev->index, NULL, NULL, NULL, types, NULL, &num, NULL, NULL,
                                      NULL, NULL, NULL),
                 MPI_T_ERR_INVALID);
    cr_expect_eq(num, -1);
    cr_expect(types[0] == MPI_DATATYPE_NULL);
    num = -1;
    cr_expect_eq(MPI_T_event_get_info(ev->index, NULL, NULL, NULL, NULL, displs, &num, NULL, NULL,
                                      NULL, NULL, NULL),
                 MPI_T_ERR_INVALID);
    cr_expect_eq(displs[0], -1);

    cr_expect_eq(MPI_T_event_get_info(ev_bound->index, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                      NULL, NULL, NULL, &bind),
                 MPI_SUCCESS);
    cr_expect_eq(bind, MPI_T_BIND_MPI_COMM);
    cr_expect_eq(MPI_T_event_get_info(ev_fw->index, NULL, NULL, &verbosity, NULL, NULL, NULL,
                                      NULL, NULL, NULL, NULL, NULL),
                 MPI_SUCCESS);
    cr_expect_eq(verbosity, MPI_T_VERBOSITY_MPIDEV_ALL);
}

/* An INOUT length (num_elements, name_len, desc_len) is only read where its
 * buffer is given: with NULL buffers nothing is written, so the input means
 * nothing and tools pass whatever the variable holds to learn the size
 * first (Open MPI main and MPICH answer with the size). */
static const int garbage_lengths[] = {-1, INT_MIN, 12345, 0};

Test(mpit_query, inout_lengths_with_null_buffers_are_output_only)
{
    const int need_name = (int) strlen("ompi.mpittest_comp_ev") + 1;
    const int need_desc = (int) strlen("the test event") + 1;
    const int need_src_name = (int) strlen("mpit_test.src") + 1;
    const int need_src_desc = (int) strlen("test source") + 1;

    for (size_t i = 0; i < sizeof(garbage_lengths) / sizeof(garbage_lengths[0]); ++i) {
        const int g = garbage_lengths[i];
        int num = g, name_len = g, desc_len = g;

        cr_expect_eq(MPI_T_event_get_info(ev->index, NULL, &name_len, NULL, NULL, NULL, &num, NULL,
                                          NULL, NULL, &desc_len, NULL),
                     MPI_SUCCESS, "event_get_info, NULL buffers, lengths %d", g);
        cr_expect_eq(num, 3, "num_elements in %d", g);
        cr_expect_eq(name_len, need_name, "name_len in %d", g);
        cr_expect_eq(desc_len, need_desc, "desc_len in %d", g);

        /* the count alone */
        num = g;
        cr_expect_eq(MPI_T_event_get_info(ev->index, NULL, NULL, NULL, NULL, NULL, &num, NULL, NULL,
                                          NULL, NULL, NULL),
                     MPI_SUCCESS, "event_get_info, count only, num_elements in %d", g);
        cr_expect_eq(num, 3, "num_elements in %d", g);

        name_len = desc_len = g;
        cr_expect_eq(MPI_T_source_get_info(src_index, NULL, &name_len, NULL, &desc_len, NULL, NULL,
                                           NULL, NULL),
                     MPI_SUCCESS, "source_get_info, NULL buffers, lengths %d", g);
        cr_expect_eq(name_len, need_src_name, "source name_len in %d", g);
        cr_expect_eq(desc_len, need_src_desc, "source desc_len in %d", g);
    }
}

Test(mpit_query, bad_indexes)
{
    int n = mca_base_event_get_count(), ns = mca_base_event_source_get_count();
    MPI_T_event_registration reg;
    MPI_Count ts;
    int len = 0;

    cr_expect_eq(MPI_T_event_get_info(-1, NULL, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                      NULL, NULL),
                 MPI_T_ERR_INVALID_INDEX);
    cr_expect_eq(MPI_T_event_get_info(n, NULL, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                      NULL, NULL),
                 MPI_T_ERR_INVALID_INDEX);
    cr_expect_eq(MPI_T_event_handle_alloc(-1, NULL, MPI_INFO_NULL, &reg), MPI_T_ERR_INVALID_INDEX);
    cr_expect_eq(MPI_T_event_handle_alloc(n, NULL, MPI_INFO_NULL, &reg), MPI_T_ERR_INVALID_INDEX);
    cr_expect_eq(MPI_T_source_get_info(-1, NULL, &len, NULL, NULL, NULL, NULL, NULL, NULL),
                 MPI_T_ERR_INVALID_INDEX);
    cr_expect_eq(MPI_T_source_get_info(ns, NULL, &len, NULL, NULL, NULL, NULL, NULL, NULL),
                 MPI_T_ERR_INVALID_INDEX);
    cr_expect_eq(MPI_T_source_get_timestamp(-1, &ts), MPI_T_ERR_INVALID_INDEX);
    cr_expect_eq(MPI_T_source_get_timestamp(ns, &ts), MPI_T_ERR_INVALID_INDEX);
    cr_expect_eq(MPI_T_category_get_num_events(-1, &len), MPI_T_ERR_INVALID_INDEX);
    cr_expect_eq(MPI_T_category_get_num_events(mca_base_var_group_get_count(), &len),
                 MPI_T_ERR_INVALID_INDEX);
    cr_expect_eq(MPI_T_category_get_events(-1, 1, &len), MPI_T_ERR_INVALID_INDEX);
}

Test(mpit_query, string_rules)
{
    const char *full = "ompi.mpittest_comp_ev";
    int need = (int) strlen(full) + 1, len;
    char buf[64];

    /* len 0: nothing written, needed length returned */
    memset(buf, 'x', sizeof(buf));
    len = 0;
    cr_assert_eq(MPI_T_event_get_info(ev->index, buf, &len, NULL, NULL, NULL, NULL, NULL, NULL,
                                      NULL, NULL, NULL),
                 MPI_SUCCESS);
    cr_expect_eq(len, need);
    cr_expect_eq(buf[0], 'x');
    /* NULL buffer with a length: needed length */
    len = 10;
    cr_assert_eq(MPI_T_event_get_info(ev->index, NULL, &len, NULL, NULL, NULL, NULL, NULL, NULL,
                                      NULL, NULL, NULL),
                 MPI_SUCCESS);
    cr_expect_eq(len, need);
    /* too small: truncated to len - 1 characters + NUL, len = written */
    memset(buf, 'x', sizeof(buf));
    len = 5;
    cr_assert_eq(MPI_T_event_get_info(ev->index, buf, &len, NULL, NULL, NULL, NULL, NULL, NULL,
                                      NULL, NULL, NULL),
                 MPI_SUCCESS);
    cr_expect_str_eq(buf, "ompi");
    cr_expect_eq(len, 5);
    cr_expect_eq(buf[5], 'x', "nothing written past len");
    /* exactly the needed size */
    len = need;
    cr_assert_eq(MPI_T_event_get_info(ev->index, buf, &len, NULL, NULL, NULL, NULL, NULL, NULL,
                                      NULL, NULL, NULL),
                 MPI_SUCCESS);
    cr_expect_str_eq(buf, full);
    cr_expect_eq(len, need);
    /* the same rule for sources, for name and desc */
    len = 3;
    int dlen = 0;
    cr_assert_eq(MPI_T_source_get_info(src_index, buf, &len, NULL, &dlen, NULL, NULL, NULL, NULL),
                 MPI_SUCCESS);
    cr_expect_str_eq(buf, "mp");
    cr_expect_eq(len, 3);
    cr_expect_eq(dlen, (int) strlen("test source") + 1);
}

Test(mpit_query, source_info_and_timestamp)
{
    MPI_T_source_order order = MPI_T_SOURCE_UNORDERED;
    MPI_Count tps = 0, max = 0, t1 = -1, t2 = -1;
    MPI_Info info = (MPI_Info) dummy_buf;
    int name_len = 64, desc_len = 64;
    char name[64], desc[64];

    cr_assert_eq(MPI_T_source_get_info(src_index, name, &name_len, desc, &desc_len, &order, &tps,
                                       &max, &info),
                 MPI_SUCCESS);
    cr_expect_str_eq(name, "mpit_test.src");
    cr_expect_str_eq(desc, "test source");
    cr_expect_eq(order, MPI_T_SOURCE_ORDERED);
    cr_expect_eq(tps, 1000000000LL);
    cr_expect_eq(max, OPAL_COUNT_MAX);
    cr_expect(info == MPI_INFO_NULL);
    cr_assert_eq(MPI_T_source_get_info(src_noadhoc_index, NULL, NULL, NULL, NULL, &order, &tps,
                                       &max, NULL),
                 MPI_SUCCESS);
    cr_expect_eq(order, MPI_T_SOURCE_UNORDERED);
    cr_expect_eq(tps, 1000);
    cr_expect_eq(max, 1000000);

    cr_expect_eq(MPI_T_source_get_timestamp(src_index, &t1), MPI_SUCCESS);
    cr_expect_eq(MPI_T_source_get_timestamp(src_index, &t2), MPI_SUCCESS);
    cr_expect_geq(t1, 0);
    cr_expect_geq(t2, t1, "monotonic clock");
    cr_expect_eq(MPI_T_source_get_timestamp(src_noadhoc_index, &t1), MPI_T_ERR_NOT_SUPPORTED);
    cr_expect_eq(MPI_T_source_get_timestamp(src_index, NULL), MPI_T_ERR_INVALID);
}

/* ------------------------------------------------------------------------
 * Handles
 * ------------------------------------------------------------------------ */

TestSuite(mpit_handle, .init = setup, .fini = teardown);

Test(mpit_handle, alloc_free_and_invalid_handles)
{
    MPI_T_event_registration reg = alloc_handle(ev);
    MPI_T_event_registration forged = (MPI_T_event_registration) dummy_buf;
    MPI_Info info;

    cr_expect_eq(MPI_T_event_handle_alloc(ev->index, NULL, MPI_INFO_NULL, NULL), MPI_T_ERR_INVALID);
    cr_expect_eq(MPI_T_event_handle_get_info(reg, &info), MPI_SUCCESS);
    cr_expect(info == MPI_INFO_NULL);
    cr_expect_eq(MPI_T_event_handle_get_info(reg, NULL), MPI_T_ERR_INVALID);
    cr_expect_eq(MPI_T_event_handle_set_info(reg, MPI_INFO_NULL), MPI_SUCCESS);
    cr_expect_eq(MPI_T_event_handle_free(reg, NULL, NULL), MPI_SUCCESS);

    /* freed and forged handles, every function that takes one */
    MPI_T_event_registration bad[3] = {reg, forged, NULL};
    for (int i = 0; i < 3; ++i) {
        cr_expect_eq(MPI_T_event_handle_free(bad[i], NULL, NULL), MPI_T_ERR_INVALID_HANDLE);
        cr_expect_eq(MPI_T_event_handle_set_info(bad[i], MPI_INFO_NULL), MPI_T_ERR_INVALID_HANDLE);
        cr_expect_eq(MPI_T_event_handle_get_info(bad[i], &info), MPI_T_ERR_INVALID_HANDLE);
        cr_expect_eq(MPI_T_event_register_callback(bad[i], MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL,
                                                   NULL, cb_noop),
                     MPI_T_ERR_INVALID_HANDLE);
        cr_expect_eq(MPI_T_event_callback_set_info(bad[i], MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL),
                     MPI_T_ERR_INVALID_HANDLE);
        cr_expect_eq(MPI_T_event_callback_get_info(bad[i], MPI_T_CB_REQUIRE_NONE, &info),
                     MPI_T_ERR_INVALID_HANDLE);
        cr_expect_eq(MPI_T_event_set_dropped_handler(bad[i], NULL), MPI_T_ERR_INVALID_HANDLE);
    }
}

/* Regression (fuzz_mpit, seed 1 step 22): callback_set_info with
 * MPI_INFO_NULL returned MPI_SUCCESS for a level without a callback, while
 * the same call with keys (and callback_get_info) returns MPI_T_ERR_INVALID. */
Test(mpit_handle, callback_set_info_null_info_without_callback)
{
    MPI_T_event_registration reg = alloc_handle(ev);

    cr_expect_eq(MPI_T_event_callback_set_info(reg, MPI_T_CB_REQUIRE_THREAD_SAFE, MPI_INFO_NULL),
                 MPI_T_ERR_INVALID);
    cr_assert_eq(MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_THREAD_SAFE, MPI_INFO_NULL,
                                               NULL, cb_noop),
                 MPI_SUCCESS);
    cr_expect_eq(MPI_T_event_callback_set_info(reg, MPI_T_CB_REQUIRE_THREAD_SAFE, MPI_INFO_NULL),
                 MPI_SUCCESS);
    cr_expect_eq(MPI_T_event_callback_set_info(reg, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL),
                 MPI_T_ERR_INVALID);
    cr_assert_eq(MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_THREAD_SAFE, MPI_INFO_NULL,
                                               NULL, NULL),
                 MPI_SUCCESS);
    cr_expect_eq(MPI_T_event_callback_set_info(reg, MPI_T_CB_REQUIRE_THREAD_SAFE, MPI_INFO_NULL),
                 MPI_T_ERR_INVALID);
    cr_expect_eq(MPI_T_event_handle_free(reg, NULL, NULL), MPI_SUCCESS);
}

Test(mpit_handle, bad_safety_levels)
{
    MPI_T_event_registration reg = alloc_handle(ev);
    MPI_T_cb_safety bad[2] = {(MPI_T_cb_safety) 4, (MPI_T_cb_safety) -1};
    MPI_Info info;

    for (int i = 0; i < 2; ++i) {
        cr_expect_eq(MPI_T_event_register_callback(reg, bad[i], MPI_INFO_NULL, NULL, cb_noop),
                     MPI_T_ERR_INVALID);
        cr_expect_eq(MPI_T_event_callback_set_info(reg, bad[i], MPI_INFO_NULL), MPI_T_ERR_INVALID);
        cr_expect_eq(MPI_T_event_callback_get_info(reg, bad[i], &info), MPI_T_ERR_INVALID);
    }
    cr_expect_eq(MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE,
                                               MPI_INFO_NULL, NULL, cb_noop),
                 MPI_SUCCESS);
    cr_expect_eq(MPI_T_event_callback_get_info(reg, MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE, NULL),
                 MPI_T_ERR_INVALID);
    cr_expect_eq(MPI_T_event_callback_get_info(reg, MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE, &info),
                 MPI_SUCCESS);
    /* no callback at that level */
    cr_expect_eq(MPI_T_event_callback_get_info(reg, MPI_T_CB_REQUIRE_NONE, &info),
                 MPI_T_ERR_INVALID);
    cr_expect_eq(MPI_T_event_handle_free(reg, NULL, NULL), MPI_SUCCESS);
}

/* ------------------------------------------------------------------------
 * Callbacks: delivery, instance accessors, free from inside, dropped.
 * ------------------------------------------------------------------------ */

typedef struct {
    int calls;
    int32_t a;
    uint64_t b;
    double c;
    payload_t copy;
    MPI_Count ts;
    int source;
    MPI_T_cb_safety safety;
    MPI_T_event_registration reg;
    int rc_bad_index, rc_null_buf, rc_null_inst, rc_neg_index, rc_null_ts, rc_null_src;
    int free_calls;
    void *free_ud;
    int free_in_cb_rc;
} seen_t;

static void cb_noop_count(MPI_T_event_instance inst, MPI_T_event_registration reg,
                          MPI_T_cb_safety safety, void *user_data)
{
    ((seen_t *) user_data)->calls++;
}

static void cb_record(MPI_T_event_instance inst, MPI_T_event_registration reg,
                      MPI_T_cb_safety safety, void *user_data)
{
    seen_t *s = user_data;
    char big[8];

    s->calls++;
    s->reg = reg;
    s->safety = safety;
    (void) MPI_T_event_read(inst, 0, &s->a);
    (void) MPI_T_event_read(inst, 1, &s->b);
    (void) MPI_T_event_read(inst, 2, &s->c);
    (void) MPI_T_event_copy(inst, &s->copy);
    (void) MPI_T_event_get_timestamp(inst, &s->ts);
    (void) MPI_T_event_get_source(inst, &s->source);
    s->rc_bad_index = MPI_T_event_read(inst, 3, big);
    s->rc_neg_index = MPI_T_event_read(inst, -1, big);
    s->rc_null_buf = MPI_T_event_read(inst, 0, NULL);
    s->rc_null_inst = MPI_T_event_read(NULL, 0, big);
    s->rc_null_ts = MPI_T_event_get_timestamp(inst, NULL);
    s->rc_null_src = MPI_T_event_get_source(inst, NULL);
}

Test(mpit_callback, read_copy_inside_callback, .init = setup, .fini = teardown)
{
    MPI_T_event_registration reg = alloc_handle(ev);
    seen_t s;
    MPI_Count before, after;

    memset(&s, 0, sizeof(s));
    s.safety = (MPI_T_cb_safety) -1;
    cr_assert_eq(MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, &s,
                                               cb_record),
                 MPI_SUCCESS);
    cr_assert_eq(MPI_T_source_get_timestamp(src_index, &before), MPI_SUCCESS);
    raise_ev(-7, 0x1122334455667788ULL, 2.5);
    cr_assert_eq(MPI_T_source_get_timestamp(src_index, &after), MPI_SUCCESS);

    cr_assert_eq(s.calls, 1);
    cr_expect(s.reg == reg);
    cr_expect_eq(s.safety, MPI_T_CB_REQUIRE_NONE);
    cr_expect_eq(s.a, -7);
    cr_expect_eq(s.b, 0x1122334455667788ULL);
    cr_expect_eq(s.c, 2.5);
    cr_expect_eq(s.copy.a, -7);
    cr_expect_eq(s.copy.b, 0x1122334455667788ULL);
    cr_expect_eq(s.copy.c, 2.5);
    cr_expect_eq(s.source, src_index);
    cr_expect_geq(s.ts, before);
    cr_expect_leq(s.ts, after);
    cr_expect_eq(s.rc_bad_index, MPI_T_ERR_INVALID_INDEX);
    cr_expect_eq(s.rc_neg_index, MPI_T_ERR_INVALID_INDEX);
    cr_expect_eq(s.rc_null_buf, MPI_T_ERR_INVALID);
    cr_expect_eq(s.rc_null_inst, MPI_T_ERR_INVALID_HANDLE);
    cr_expect_eq(s.rc_null_ts, MPI_T_ERR_INVALID);
    cr_expect_eq(s.rc_null_src, MPI_T_ERR_INVALID);
    cr_expect_eq(MPI_T_event_copy(NULL, &s.copy), MPI_T_ERR_INVALID_HANDLE);
    cr_expect_eq(MPI_T_event_get_source(NULL, &s.source), MPI_T_ERR_INVALID_HANDLE);
    cr_expect_eq(MPI_T_event_get_timestamp(NULL, &s.ts), MPI_T_ERR_INVALID_HANDLE);

    /* clearing the callback stops delivery */
    cr_assert_eq(MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, NULL,
                                               NULL),
                 MPI_SUCCESS);
    raise_ev(1, 2, 3.0);
    cr_expect_eq(s.calls, 1);
    cr_expect_eq(MPI_T_event_handle_free(reg, NULL, NULL), MPI_SUCCESS);
}

Test(mpit_callback, replaced_callback_gets_its_own_user_data, .init = setup, .fini = teardown)
{
    MPI_T_event_registration reg = alloc_handle(ev);
    seen_t s1, s2;

    memset(&s1, 0, sizeof(s1));
    memset(&s2, 0, sizeof(s2));
    cr_assert_eq(MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, &s1,
                                               cb_record),
                 MPI_SUCCESS);
    raise_ev(1, 1, 1.0);
    cr_assert_eq(MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, &s2,
                                               cb_record),
                 MPI_SUCCESS);
    raise_ev(2, 2, 2.0);
    cr_expect_eq(s1.calls, 1);
    cr_expect_eq(s2.calls, 1);
    cr_expect_eq(s2.a, 2);
    cr_expect_eq(MPI_T_event_handle_free(reg, NULL, NULL), MPI_SUCCESS);
}

static void free_cb(MPI_T_event_registration reg, MPI_T_cb_safety safety, void *user_data)
{
    seen_t *s = user_data;

    s->free_calls++;
    s->free_ud = user_data;
    s->reg = reg;
}

static void cb_free_self(MPI_T_event_instance inst, MPI_T_event_registration reg,
                         MPI_T_cb_safety safety, void *user_data)
{
    seen_t *s = user_data;

    s->calls++;
    s->free_in_cb_rc = MPI_T_event_handle_free(reg, s, free_cb);
    /* still inside the callback: the free callback has not run yet */
    s->rc_bad_index = s->free_calls;
    /* the instance is still readable */
    (void) MPI_T_event_read(inst, 0, &s->a);
}

Test(mpit_callback, handle_free_inside_callback, .init = setup, .fini = teardown)
{
    MPI_T_event_registration reg = alloc_handle(ev);
    seen_t s;

    memset(&s, 0, sizeof(s));
    cr_assert_eq(MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, &s,
                                               cb_free_self),
                 MPI_SUCCESS);
    raise_ev(42, 0, 0.0);
    cr_expect_eq(s.calls, 1);
    cr_expect_eq(s.free_in_cb_rc, MPI_SUCCESS);
    cr_expect_eq(s.rc_bad_index, 0, "free callback ran inside the callback");
    cr_expect_eq(s.free_calls, 1);
    cr_expect(s.free_ud == &s);
    cr_expect(s.reg == reg);
    cr_expect_eq(s.a, 42);
    raise_ev(43, 0, 0.0);
    cr_expect_eq(s.calls, 1, "no delivery after free");
    cr_expect_eq(MPI_T_event_handle_free(reg, NULL, NULL), MPI_T_ERR_INVALID_HANDLE);
}

Test(mpit_callback, free_callback_outside, .init = setup, .fini = teardown)
{
    MPI_T_event_registration reg = alloc_handle(ev);
    seen_t s;

    memset(&s, 0, sizeof(s));
    cr_assert_eq(MPI_T_event_handle_free(reg, &s, free_cb), MPI_SUCCESS);
    cr_expect_eq(s.free_calls, 1);
    cr_expect(s.reg == reg);
}

/* Each delivery raises the event again: past the dispatch-depth cap the
 * nested raise is dropped and counted; the dropped handler hears of it
 * before the next delivery. */
typedef struct {
    int calls, raised, dropped_calls;
    MPI_Count dropped;
    int dropped_source;
    void *dropped_ud;
    MPI_T_event_registration dropped_reg;
    bool recurse;
} chain_t;

static void cb_chain(MPI_T_event_instance inst, MPI_T_event_registration reg,
                     MPI_T_cb_safety safety, void *user_data)
{
    chain_t *c = user_data;
    payload_t p = {0};

    c->calls++;
    if (c->recurse && c->raised < 100) {
        c->raised++;
        (void) mca_base_event_raise(ev, NULL, &p);
    }
}

static void dropped_cb(MPI_Count count, MPI_T_event_registration reg, int source_index,
                       MPI_T_cb_safety safety, void *user_data)
{
    chain_t *c = user_data;

    if (NULL == c) {
        return; /* would fail the expectations below */
    }
    c->dropped_calls++;
    c->dropped += count;
    c->dropped_source = source_index;
    c->dropped_reg = reg;
    c->dropped_ud = user_data;
}

Test(mpit_callback, dropped_handler, .init = setup, .fini = teardown)
{
    MPI_T_event_registration reg = alloc_handle(ev);
    payload_t p = {0};
    chain_t c;

    memset(&c, 0, sizeof(c));
    c.recurse = true;
    cr_assert_eq(MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, &c,
                                               cb_chain),
                 MPI_SUCCESS);
    cr_assert_eq(MPI_T_event_set_dropped_handler(reg, dropped_cb), MPI_SUCCESS);
    c.raised = 1;
    (void) mca_base_event_raise(ev, NULL, &p);
    cr_expect_lt(c.calls, c.raised, "the depth cap dropped a nested raise");
    cr_expect_leq(c.calls, MCA_BASE_EVENT_MAX_DEPTH + 1);
    /* the next delivery (or this flush point) reports the drops */
    c.recurse = false;
    (void) mca_base_event_raise(ev, NULL, &p);
    c.raised++;
    cr_expect_geq(c.dropped_calls, 1);
    cr_expect_eq(c.calls + c.dropped, c.raised, "delivered + dropped == raised");
    cr_expect_eq(c.dropped_source, src_index);
    cr_expect(c.dropped_reg == reg);
    cr_expect(c.dropped_ud == &c, "the tool's user_data, not the binding's");
    cr_expect_eq(MPI_T_event_set_dropped_handler(reg, NULL), MPI_SUCCESS);
    cr_expect_eq(MPI_T_event_handle_free(reg, NULL, NULL), MPI_SUCCESS);
}

/* ------------------------------------------------------------------------
 * Bound events
 * ------------------------------------------------------------------------ */

Test(mpit_callback, bound_event_obj_handle, .init = setup, .fini = teardown)
{
    MPI_T_event_registration reg = NULL;
    MPI_Comm world = MPI_COMM_WORLD, self = MPI_COMM_SELF, null_comm = NULL;
    uint64_t v = 5;
    seen_t s;

    memset(&s, 0, sizeof(s));
    cr_expect_eq(MPI_T_event_handle_alloc(ev_bound->index, NULL, MPI_INFO_NULL, &reg),
                 MPI_T_ERR_INVALID);
    cr_expect_eq(MPI_T_event_handle_alloc(ev_bound->index, &null_comm, MPI_INFO_NULL, &reg),
                 MPI_T_ERR_INVALID);
    cr_assert_eq(MPI_T_event_handle_alloc(ev_bound->index, &world, MPI_INFO_NULL, &reg),
                 MPI_SUCCESS);
    cr_assert_eq(MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, &s,
                                               cb_noop_count),
                 MPI_SUCCESS);
    /* producers raise with the internal object, which is the handle's value */
    cr_assert_eq(mca_base_event_raise_bound(ev_bound, NULL, (void *) self, &v), OPAL_SUCCESS);
    cr_expect_eq(s.calls, 0, "not for another communicator");
    cr_assert_eq(mca_base_event_raise_bound(ev_bound, NULL, (void *) world, &v), OPAL_SUCCESS);
    cr_expect_eq(s.calls, 1);
    cr_expect_eq(MPI_T_event_handle_free(reg, NULL, NULL), MPI_SUCCESS);
}

/* A registration made through the engine API gets a shim on first MPI_T use. */
Test(mpit_callback, engine_allocated_handle, .init = setup, .fini = teardown)
{
    mca_base_event_registration_t *reg = NULL;
    seen_t s;

    memset(&s, 0, sizeof(s));
    cr_assert_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &reg), OPAL_SUCCESS);
    cr_assert_eq(MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_THREAD_SAFE, MPI_INFO_NULL,
                                               &s, cb_record),
                 MPI_SUCCESS);
    raise_ev(9, 9, 9.0);
    cr_expect_eq(s.calls, 1);
    cr_expect_eq(s.a, 9);
    /* the callback is told the requirement of the calling context (a plain
     * thread raising: NONE), not the level it was registered at */
    cr_expect_eq(s.safety, MPI_T_CB_REQUIRE_NONE);
    cr_expect_eq(MPI_T_event_handle_free(reg, &s, free_cb), MPI_SUCCESS);
    cr_expect_eq(s.free_calls, 1);
}

/* ------------------------------------------------------------------------
 * Info objects: real MPI_Info between MPI_Init and MPI_Finalize.
 * ------------------------------------------------------------------------ */

static void expect_key(MPI_Info info, const char *key, const char *value)
{
    char buf[MPI_MAX_INFO_VAL + 1];
    int flag = 0;

    cr_assert_eq(MPI_Info_get(info, key, MPI_MAX_INFO_VAL, buf, &flag), MPI_SUCCESS);
    cr_expect(flag, "key %s present", key);
    if (flag) {
        cr_expect_str_eq(buf, value);
    }
}

Test(mpit_info, round_trips_through_mpi_info)
{
    MPI_T_event_registration reg;
    MPI_Info in, out = MPI_INFO_NULL;
    int nkeys = -1;

    setup();
    cr_assert_eq(MPI_Init(NULL, NULL), MPI_SUCCESS);

    cr_assert_eq(MPI_Info_create(&in), MPI_SUCCESS);
    cr_assert_eq(MPI_Info_set(in, "k1", "v1"), MPI_SUCCESS);
    cr_assert_eq(MPI_T_event_handle_alloc(ev->index, NULL, in, &reg), MPI_SUCCESS);
    cr_assert_eq(MPI_T_event_handle_get_info(reg, &out), MPI_SUCCESS);
    cr_assert(out != MPI_INFO_NULL);
    expect_key(out, "k1", "v1");
    cr_expect_eq(MPI_Info_free(&out), MPI_SUCCESS);

    /* set_info merges */
    cr_assert_eq(MPI_Info_set(in, "k2", "v2"), MPI_SUCCESS);
    cr_assert_eq(MPI_Info_delete(in, "k1"), MPI_SUCCESS);
    cr_assert_eq(MPI_T_event_handle_set_info(reg, in), MPI_SUCCESS);
    cr_assert_eq(MPI_T_event_handle_get_info(reg, &out), MPI_SUCCESS);
    expect_key(out, "k1", "v1");
    expect_key(out, "k2", "v2");
    cr_expect_eq(MPI_Info_free(&out), MPI_SUCCESS);
    cr_expect_eq(MPI_Info_free(&in), MPI_SUCCESS);

    /* callback infos */
    cr_assert_eq(MPI_Info_create(&in), MPI_SUCCESS);
    cr_assert_eq(MPI_Info_set(in, "cb", "first"), MPI_SUCCESS);
    cr_assert_eq(MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_MPI_RESTRICTED, in, NULL,
                                               cb_noop),
                 MPI_SUCCESS);
    cr_expect_eq(MPI_T_event_callback_set_info(reg, MPI_T_CB_REQUIRE_NONE, in), MPI_T_ERR_INVALID,
                 "no callback at that level");
    cr_assert_eq(MPI_Info_set(in, "cb2", "second"), MPI_SUCCESS);
    cr_assert_eq(MPI_T_event_callback_set_info(reg, MPI_T_CB_REQUIRE_MPI_RESTRICTED, in),
                 MPI_SUCCESS);
    cr_assert_eq(MPI_T_event_callback_get_info(reg, MPI_T_CB_REQUIRE_MPI_RESTRICTED, &out),
                 MPI_SUCCESS);
    expect_key(out, "cb", "first");
    expect_key(out, "cb2", "second");
    cr_expect_eq(MPI_Info_free(&out), MPI_SUCCESS);
    cr_expect_eq(MPI_Info_free(&in), MPI_SUCCESS);

    /* the query functions return real (empty) infos too */
    cr_assert_eq(MPI_T_event_get_info(ev->index, NULL, NULL, NULL, NULL, NULL, NULL, NULL, &out,
                                      NULL, NULL, NULL),
                 MPI_SUCCESS);
    cr_assert(out != MPI_INFO_NULL);
    cr_expect_eq(MPI_Info_get_nkeys(out, &nkeys), MPI_SUCCESS);
    cr_expect_eq(nkeys, 0);
    cr_expect_eq(MPI_Info_free(&out), MPI_SUCCESS);
    cr_assert_eq(MPI_T_source_get_info(src_index, NULL, NULL, NULL, NULL, NULL, NULL, NULL, &out),
                 MPI_SUCCESS);
    cr_assert(out != MPI_INFO_NULL);
    cr_expect_eq(MPI_Info_free(&out), MPI_SUCCESS);

    cr_expect_eq(MPI_T_event_handle_free(reg, NULL, NULL), MPI_SUCCESS);
    cr_expect_eq(mca_base_event_finalize(), OPAL_SUCCESS);
    /* MPI_T stays initialised: MPI_T_finalize after MPI_Finalize crashes
     * Open MPI 4.1.4 and is not this suite's subject. */
    cr_expect_eq(MPI_Finalize(), MPI_SUCCESS);
}

/* ------------------------------------------------------------------------
 * Categories
 * ------------------------------------------------------------------------ */

TestSuite(mpit_category, .init = setup, .fini = teardown);

static int group_index(const char *full_name)
{
    int idx = -1;

    cr_assert_eq(MPI_T_category_get_index(full_name, &idx), MPI_SUCCESS, "%s", full_name);
    return idx;
}

Test(mpit_category, events_in_the_most_specific_group)
{
    int comp = group_index("ompi_mpittest_comp"), fw = group_index("ompi_mpittest");
    int n = -1, idx[4] = {-1, -1, -1, -1};

    cr_assert_eq(MPI_T_category_get_num_events(comp, &n), MPI_SUCCESS);
    cr_expect_eq(n, 2);
    cr_assert_eq(MPI_T_category_get_events(comp, 4, idx), MPI_SUCCESS);
    cr_expect_eq(idx[0], ev->index);
    cr_expect_eq(idx[1], ev_bound->index);
    cr_expect_eq(idx[2], -1, "no more than num_events written");
    /* len shorter than the category */
    idx[0] = idx[1] = -1;
    cr_assert_eq(MPI_T_category_get_events(comp, 1, idx), MPI_SUCCESS);
    cr_expect_eq(idx[0], ev->index);
    cr_expect_eq(idx[1], -1);
    cr_expect_eq(MPI_T_category_get_events(comp, 0, NULL), MPI_SUCCESS);

    cr_assert_eq(MPI_T_category_get_num_events(fw, &n), MPI_SUCCESS);
    cr_expect_eq(n, 1);
    cr_assert_eq(MPI_T_category_get_events(fw, 4, idx), MPI_SUCCESS);
    cr_expect_eq(idx[0], ev_fw->index);

    cr_expect_eq(MPI_T_category_get_num_events(comp, NULL), MPI_T_ERR_INVALID);
    cr_expect_eq(MPI_T_category_get_events(comp, 1, NULL), MPI_T_ERR_INVALID);
    cr_expect_eq(MPI_T_category_get_events(comp, -1, idx), MPI_T_ERR_INVALID);
}

Test(mpit_category, mpi_and_mca_names)
{
    const mca_base_var_type_t t1[1] = {MCA_BASE_VAR_TYPE_UINT64_T};
    const ptrdiff_t o1[1] = {0};
    int e_mpi, e_mca, g_mpi, g_mca, n, idx[8];
    bool found;

    e_mpi = mca_base_event_register(NULL, NULL, NULL, "mpi.mpittest_thing", "", OPAL_INFO_LVL_1,
                                    1, t1, o1, NULL, MCA_BASE_VAR_BIND_NO_OBJECT, 0, src, NULL);
    e_mca = mca_base_event_register(NULL, NULL, NULL, "mca.mpitmem.patch.released", "",
                                    OPAL_INFO_LVL_1, 1, t1, o1, NULL, MCA_BASE_VAR_BIND_NO_OBJECT,
                                    0, src, NULL);
    cr_assert_geq(e_mpi, 0);
    cr_assert_geq(e_mca, 0);
    cr_assert_geq(mca_base_var_group_register("opal", "mpitmem", "patch", "memory-like"), 0);
    g_mca = group_index("opal_mpitmem_patch");
    /* the group of framework "mpi" (mpi_* parameters, registered at MPI_T init) */
    g_mpi = mca_base_var_group_find("ompi", "mpi", NULL);
    cr_assert_geq(g_mpi, 0);

    cr_assert_eq(MPI_T_category_get_num_events(g_mca, &n), MPI_SUCCESS);
    cr_expect_eq(n, 1);
    cr_assert_eq(MPI_T_category_get_events(g_mca, 8, idx), MPI_SUCCESS);
    cr_expect_eq(idx[0], e_mca);

    cr_assert_eq(MPI_T_category_get_num_events(g_mpi, &n), MPI_SUCCESS);
    cr_assert_geq(n, 1);
    cr_assert_leq(n, 8);
    cr_assert_eq(MPI_T_category_get_events(g_mpi, 8, idx), MPI_SUCCESS);
    found = false;
    for (int i = 0; i < n; ++i) {
        found = found || idx[i] == e_mpi;
    }
    cr_expect(found, "ompi.mpi.mpittest_thing is in the mpi category");
}

/* Across every category: get_events agrees with get_num_events, and no event
 * is in two categories. */
Test(mpit_category, consistent_over_all_categories)
{
    int ncat = 0, nev = mca_base_event_get_count(), total = 0, n;
    int *seen = calloc(nev, sizeof(int)), *idx = calloc(nev + 1, sizeof(int));

    cr_assert_eq(MPI_T_category_get_num(&ncat), MPI_SUCCESS);
    for (int c = 0; c < ncat; ++c) {
        if (MPI_SUCCESS != MPI_T_category_get_num_events(c, &n)) {
            continue; /* deregistered group */
        }
        cr_assert_leq(n, nev);
        for (int i = 0; i <= nev; ++i) {
            idx[i] = -1;
        }
        cr_assert_eq(MPI_T_category_get_events(c, nev + 1, idx), MPI_SUCCESS);
        for (int i = 0; i < n; ++i) {
            cr_assert_geq(idx[i], 0);
            cr_assert_lt(idx[i], nev);
            seen[idx[i]]++;
        }
        cr_expect_eq(idx[n], -1);
        total += n;
    }
    for (int e = 0; e < nev; ++e) {
        cr_expect_leq(seen[e], 1, "event %d in %d categories", e, seen[e]);
    }
    cr_expect_geq(total, 3, "the fixture's events are categorised");
    free(seen);
    free(idx);
}
