/* Unit tests: sources and event types (naming, idempotence, layouts, lookup). */
#include "test_event_common.h"

TestSuite(event_registry, .init = evt_test_setup, .fini = evt_test_teardown);

static const mca_base_var_type_t t_i32[1] = {MCA_BASE_VAR_TYPE_INT32_T};
static const ptrdiff_t o_0[1] = {0};

static int reg(const char *fw, const char *comp, const char *name, int n,
               const mca_base_var_type_t *types, const ptrdiff_t *offsets,
               mca_base_event_source_t *src)
{
    return mca_base_event_register("whatever", fw, comp, name, "d", OPAL_INFO_LVL_4, n, types,
                                   offsets, NULL, MCA_BASE_VAR_BIND_NO_OBJECT, 0, src, NULL);
}

Test(event_registry, naming_rule)
{
    mca_base_event_source_t *src = evt_test_source("ompi.t", MCA_BASE_EVENT_SOURCE_ORDERED, NULL, NULL);
    mca_base_event_t *ev;
    int a = reg(NULL, NULL, "mpi.initialization", 1, t_i32, o_0, src);
    int b = reg("mything", "base", "happened", 1, t_i32, o_0, src);
    int c = reg("fw", NULL, "x", 1, t_i32, o_0, src);
    cr_assert_eq(mca_base_event_get_by_index(a, &ev), OPAL_SUCCESS);
    cr_expect_str_eq(ev->name, "ompi.mpi.initialization");
    cr_assert_eq(mca_base_event_get_by_index(b, &ev), OPAL_SUCCESS);
    cr_expect_str_eq(ev->name, "ompi.mything_base_happened");
    cr_assert_eq(mca_base_event_get_by_index(c, &ev), OPAL_SUCCESS);
    cr_expect_str_eq(ev->name, "ompi.fw_x");
    /* project ignored: another project gives the same full name, same index */
    cr_expect_eq(mca_base_event_register("opal", "mything", "base", "happened", "d",
                                         OPAL_INFO_LVL_4, 1, t_i32, o_0, NULL,
                                         MCA_BASE_VAR_BIND_NO_OBJECT, 0, src, NULL),
                 b);
    cr_expect_eq(reg(NULL, NULL, NULL, 1, t_i32, o_0, src), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(reg(NULL, NULL, "", 1, t_i32, o_0, src), OPAL_ERR_BAD_PARAM);
}

Test(event_registry, idempotent_and_stable)
{
    mca_base_event_source_t *src = evt_test_source("ompi.t", MCA_BASE_EVENT_SOURCE_ORDERED, NULL, NULL);
    /* the same source again (another description, and a ticks_per_second
     * that the default clock ignores): the same index */
    int s2 = mca_base_event_source_register("ompi.t", "again", MCA_BASE_EVENT_SOURCE_ORDERED, 5,
                                            OPAL_COUNT_MAX, NULL, true, (void *) src);
    cr_expect_eq(s2, src->index);
    cr_expect_str_eq(src->description, "test source", "the first description is kept");
    cr_expect_eq(mca_base_event_source_get_count(), 1);
    int a = reg("f", "c", "one", 1, t_i32, o_0, src);
    int b = reg("f", "c", "two", 1, t_i32, o_0, src);
    cr_expect_neq(a, b);
    cr_expect_eq(reg("f", "c", "one", 1, t_i32, o_0, src), a);
    cr_expect_eq(mca_base_event_get_count(), 2);
    /* indexes survive an engine finalize/init cycle */
    cr_assert_eq(mca_base_event_finalize(), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_init(), OPAL_SUCCESS);
    cr_expect_eq(reg("f", "c", "two", 1, t_i32, o_0, src), b);
    cr_expect_eq(mca_base_event_get_count(), 2);
}

static opal_count_t clock_a(void *ctx)
{
    return 1;
}

static opal_count_t clock_b(void *ctx)
{
    return 2;
}

/* A source name registered again with another identity: OPAL_EXISTS, and
 * the source keeps every attribute of its first registration. */
Test(event_registry, source_redefinition_refused)
{
    int ctx_a, ctx_b;
    int si = mca_base_event_source_register("ompi.def", "d", MCA_BASE_EVENT_SOURCE_ORDERED, 1000,
                                            1000000, clock_a, true, &ctx_a);
    mca_base_event_source_t *src;

    cr_assert_geq(si, 0);
    cr_expect_eq(mca_base_event_source_register("ompi.def", "x", MCA_BASE_EVENT_SOURCE_ORDERED,
                                                1000, 1000000, clock_a, true, &ctx_a),
                 si, "same identity: idempotent");
    cr_expect_eq(mca_base_event_source_register("ompi.def", "d", MCA_BASE_EVENT_SOURCE_UNORDERED,
                                                1000, 1000000, clock_a, true, &ctx_a),
                 OPAL_EXISTS, "ordering");
    cr_expect_eq(mca_base_event_source_register("ompi.def", "d", MCA_BASE_EVENT_SOURCE_ORDERED,
                                                1000000, 1000000, clock_a, true, &ctx_a),
                 OPAL_EXISTS, "ticks_per_second");
    cr_expect_eq(mca_base_event_source_register("ompi.def", "d", MCA_BASE_EVENT_SOURCE_ORDERED,
                                                1000, 2000000, clock_a, true, &ctx_a),
                 OPAL_EXISTS, "max_ticks");
    cr_expect_eq(mca_base_event_source_register("ompi.def", "d", MCA_BASE_EVENT_SOURCE_ORDERED,
                                                1000, 1000000, clock_b, true, &ctx_a),
                 OPAL_EXISTS, "clock");
    cr_expect_eq(mca_base_event_source_register("ompi.def", "d", MCA_BASE_EVENT_SOURCE_ORDERED,
                                                1000, 1000000, NULL, true, &ctx_a),
                 OPAL_EXISTS, "default clock instead of the producer's");
    cr_expect_eq(mca_base_event_source_register("ompi.def", "d", MCA_BASE_EVENT_SOURCE_ORDERED,
                                                1000, 1000000, clock_a, true, &ctx_b),
                 OPAL_EXISTS, "clock ctx");
    cr_expect_eq(mca_base_event_source_register("ompi.def", "d", MCA_BASE_EVENT_SOURCE_ORDERED,
                                                1000, 1000000, clock_a, false, &ctx_a),
                 OPAL_EXISTS, "ad-hoc reads");
    cr_expect_eq(mca_base_event_source_get_count(), 1);
    cr_assert_eq(mca_base_event_source_get_by_index(si, &src), OPAL_SUCCESS);
    cr_expect_eq(src->ordering, MCA_BASE_EVENT_SOURCE_ORDERED);
    cr_expect_eq(src->ticks_per_second, 1000);
    cr_expect_eq(src->max_ticks, 1000000);
    cr_expect_eq(src->get_timestamp, clock_a);
    cr_expect_eq(src->ctx, &ctx_a);
    cr_expect(src->supports_adhoc);

    /* with the default clock, the same rule (ctx and ticks_per_second aside) */
    int sd = mca_base_event_source_register("ompi.defclock", "", MCA_BASE_EVENT_SOURCE_ORDERED,
                                            1000000000, OPAL_COUNT_MAX, NULL, true, NULL);
    cr_assert_geq(sd, 0);
    cr_expect_eq(mca_base_event_source_register("ompi.defclock", "", MCA_BASE_EVENT_SOURCE_ORDERED,
                                                1000000000, OPAL_COUNT_MAX, clock_a, true, NULL),
                 OPAL_EXISTS, "producer's clock instead of the default");
    cr_expect_eq(mca_base_event_source_register("ompi.defclock", "",
                                                MCA_BASE_EVENT_SOURCE_UNORDERED, 1000000000,
                                                OPAL_COUNT_MAX, NULL, true, NULL),
                 OPAL_EXISTS, "ordering, default clock");
    cr_expect_eq(mca_base_event_source_get_count(), 2);
}

/* An event name registered again with another identity (layout, bind,
 * source, flags or verbosity): OPAL_EXISTS, nothing registered, the event
 * unchanged. The same identity stays idempotent, whatever the description,
 * enumerator or ctx. */
Test(event_registry, event_redefinition_refused)
{
    mca_base_event_source_t *src = evt_test_source("ompi.t", MCA_BASE_EVENT_SOURCE_ORDERED, NULL,
                                                   NULL);
    mca_base_event_source_t *other = evt_test_source("ompi.other", MCA_BASE_EVENT_SOURCE_ORDERED,
                                                     NULL, NULL);
    const mca_base_var_type_t t2[2] = {MCA_BASE_VAR_TYPE_INT32_T, MCA_BASE_VAR_TYPE_UINT64_T};
    const mca_base_var_type_t t2_other[2] = {MCA_BASE_VAR_TYPE_INT32_T, MCA_BASE_VAR_TYPE_INT64_T};
    const ptrdiff_t o2[2] = {0, 8};
    const ptrdiff_t o2_other[2] = {0, 16};
    const mca_base_var_type_t t3[3] = {MCA_BASE_VAR_TYPE_INT32_T, MCA_BASE_VAR_TYPE_UINT64_T,
                                       MCA_BASE_VAR_TYPE_DOUBLE};
    const ptrdiff_t o3[3] = {0, 8, 16};
    int ctx;
    mca_base_event_t *ev;
#define REG(desc, lvl, n, types, offsets, bind, flags, source, c)                                  \
    mca_base_event_register("ompi", "redef", NULL, "ev", desc, lvl, n, types, offsets, NULL, bind, \
                            flags, source, c)

    int ei = REG("first", OPAL_INFO_LVL_4, 2, t2, o2, MCA_BASE_VAR_BIND_NO_OBJECT, 0, src, NULL);
    cr_assert_geq(ei, 0);
    cr_expect_eq(REG("second", OPAL_INFO_LVL_4, 2, t2, o2, MCA_BASE_VAR_BIND_NO_OBJECT, 0, src,
                     &ctx),
                 ei, "same identity, another description and ctx: idempotent");
    cr_expect_eq(REG("d", OPAL_INFO_LVL_4, 2, t2_other, o2, MCA_BASE_VAR_BIND_NO_OBJECT, 0, src,
                     NULL),
                 OPAL_EXISTS, "types");
    cr_expect_eq(REG("d", OPAL_INFO_LVL_4, 2, t2, o2_other, MCA_BASE_VAR_BIND_NO_OBJECT, 0, src,
                     NULL),
                 OPAL_EXISTS, "offsets");
    cr_expect_eq(REG("d", OPAL_INFO_LVL_4, 1, t2, o2, MCA_BASE_VAR_BIND_NO_OBJECT, 0, src, NULL),
                 OPAL_EXISTS, "fewer elements");
    cr_expect_eq(REG("d", OPAL_INFO_LVL_4, 3, t3, o3, MCA_BASE_VAR_BIND_NO_OBJECT, 0, src, NULL),
                 OPAL_EXISTS, "more elements");
    cr_expect_eq(REG("d", OPAL_INFO_LVL_4, 2, t2, o2, MCA_BASE_VAR_BIND_MPI_COMM, 0, src, NULL),
                 OPAL_EXISTS, "bind");
    cr_expect_eq(REG("d", OPAL_INFO_LVL_4, 2, t2, o2, MCA_BASE_VAR_BIND_NO_OBJECT, 0, other, NULL),
                 OPAL_EXISTS, "source");
    cr_expect_eq(REG("d", OPAL_INFO_LVL_4, 2, t2, o2, MCA_BASE_VAR_BIND_NO_OBJECT,
                     MCA_BASE_EVENT_FLAG_SYNCHRONOUS, src, NULL),
                 OPAL_EXISTS, "flags");
    cr_expect_eq(REG("d", OPAL_INFO_LVL_9, 2, t2, o2, MCA_BASE_VAR_BIND_NO_OBJECT, 0, src, NULL),
                 OPAL_EXISTS, "verbosity");
#undef REG
    cr_expect_eq(mca_base_event_get_count(), 1);
    cr_assert_eq(mca_base_event_get_by_name("ompi.redef_ev", &ev), OPAL_SUCCESS);
    cr_expect_eq(ev->index, ei);
    cr_expect_str_eq(ev->description, "first");
    cr_expect_eq(ev->num_elements, 2);
    cr_expect_eq(ev->types[1], MCA_BASE_VAR_TYPE_UINT64_T);
    cr_expect_eq(ev->offsets[1], 8);
    cr_expect_eq(ev->extent, 16);
    cr_expect_eq(ev->bind, MCA_BASE_VAR_BIND_NO_OBJECT);
    cr_expect_eq(ev->flags, 0);
    cr_expect_eq(ev->source, src);
    cr_expect_eq(ev->verbosity, OPAL_INFO_LVL_4);
    cr_expect_null(ev->ctx);
}

/* The producer helper: register and keep the event object in one call. */
Test(event_registry, register_ptr)
{
    mca_base_event_source_t *src = evt_test_source("ompi.t", MCA_BASE_EVENT_SOURCE_ORDERED, NULL,
                                                   NULL);
    const ptrdiff_t o_4[1] = {4};
    mca_base_event_t *ev = NULL, *again = NULL, *looked_up = NULL;
    mca_base_event_t *untouched = (mca_base_event_t *) &untouched;
    int ei, ei2;

    ei = mca_base_event_register_ptr("ompi", "ptr", NULL, "ev", "d", OPAL_INFO_LVL_4, 1, t_i32, o_0,
                                     NULL, MCA_BASE_VAR_BIND_NO_OBJECT, 0, src, NULL, &ev);
    cr_assert_geq(ei, 0);
    cr_assert_not_null(ev);
    cr_assert_eq(mca_base_event_get_by_index(ei, &looked_up), OPAL_SUCCESS);
    cr_expect_eq(ev, looked_up);
    cr_expect_eq(ev->index, ei);
    cr_expect_str_eq(ev->name, "ompi.ptr_ev");
    /* idempotent like mca_base_event_register: same index, same object */
    ei2 = mca_base_event_register_ptr("ompi", "ptr", NULL, "ev", "d", OPAL_INFO_LVL_4, 1, t_i32,
                                      o_0, NULL, MCA_BASE_VAR_BIND_NO_OBJECT, 0, src, NULL, &again);
    cr_expect_eq(ei2, ei);
    cr_expect_eq(again, ev);
    /* errors: the register's codes, *event untouched, nothing registered */
    cr_expect_eq(mca_base_event_register_ptr("ompi", "ptr", NULL, "bad", "d", OPAL_INFO_LVL_4, 1,
                                             t_i32, o_4, NULL, MCA_BASE_VAR_BIND_NO_OBJECT, 0, src,
                                             NULL, &untouched),
                 OPAL_ERR_BAD_PARAM);
    cr_expect_eq(untouched, (mca_base_event_t *) &untouched);
    cr_expect_eq(mca_base_event_register_ptr("ompi", "ptr", NULL, "ev", "d", OPAL_INFO_LVL_5, 1,
                                             t_i32, o_0, NULL, MCA_BASE_VAR_BIND_NO_OBJECT, 0, src,
                                             NULL, &untouched),
                 OPAL_EXISTS);
    cr_expect_eq(untouched, (mca_base_event_t *) &untouched);
    cr_expect_eq(mca_base_event_register_ptr("ompi", "ptr", NULL, "noout", "d", OPAL_INFO_LVL_4, 1,
                                             t_i32, o_0, NULL, MCA_BASE_VAR_BIND_NO_OBJECT, 0, src,
                                             NULL, NULL),
                 OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_base_event_get_by_name("ompi.ptr_noout", &looked_up), OPAL_ERR_NOT_FOUND);
    cr_expect_eq(mca_base_event_get_count(), 1);
}

Test(event_registry, layout_rejections)
{
    mca_base_event_source_t *src = evt_test_source("ompi.t", MCA_BASE_EVENT_SOURCE_ORDERED, NULL, NULL);
    const mca_base_var_type_t two_i32[2] = {MCA_BASE_VAR_TYPE_INT32_T, MCA_BASE_VAR_TYPE_INT32_T};
    const mca_base_var_type_t bad_type[1] = {MCA_BASE_VAR_TYPE_SIZE_T};
    const mca_base_var_type_t t_int[1] = {MCA_BASE_VAR_TYPE_INT};
    const mca_base_var_type_t t_u64x2[2] = {MCA_BASE_VAR_TYPE_UINT64_T, MCA_BASE_VAR_TYPE_UINT64_T};
    const ptrdiff_t not_from_0[1] = {4};
    const ptrdiff_t descending[2] = {4, 0};
    const ptrdiff_t overlap[2] = {0, 4};   /* u64 at 0 overlaps element at 4 */
    /* extent MAX_PAYLOAD + 8: refused; extent MAX_PAYLOAD: allowed */
    const ptrdiff_t too_big[2] = {0, MCA_BASE_EVENT_MAX_PAYLOAD};
    const ptrdiff_t fits[2] = {0, MCA_BASE_EVENT_MAX_PAYLOAD - 8};
    const ptrdiff_t equal[2] = {0, 0};

    cr_expect_eq(reg("l", NULL, "a", 1, t_i32, not_from_0, src), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(reg("l", NULL, "b", 2, two_i32, descending, src), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(reg("l", NULL, "c", 2, t_u64x2, overlap, src), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(reg("l", NULL, "d", 1, bad_type, o_0, src), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(reg("l", NULL, "e", 1, t_int, o_0, src), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(reg("l", NULL, "f", 2, t_u64x2, too_big, src), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(reg("l", NULL, "g", 2, two_i32, equal, src), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(reg("l", NULL, "h", -1, t_i32, o_0, src), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(reg("l", NULL, "i", 1, NULL, o_0, src), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(reg("l", NULL, "j", 1, t_i32, o_0, NULL), OPAL_ERR_BAD_PARAM);
    /* nothing registered by any of them */
    cr_expect_eq(mca_base_event_get_count(), 0);
    mca_base_event_t *ev;
    cr_expect_eq(mca_base_event_get_by_name("ompi.l_a", &ev), OPAL_ERR_NOT_FOUND);
    int ok = reg("l", NULL, "k", 2, t_u64x2, fits, src);
    cr_assert_geq(ok, 0);
    cr_assert_eq(mca_base_event_get_by_index(ok, &ev), OPAL_SUCCESS);
    cr_expect_eq(ev->extent, MCA_BASE_EVENT_MAX_PAYLOAD);
    cr_expect_eq(ev->num_elements, 2);
    cr_expect_eq(ev->offsets[1], MCA_BASE_EVENT_MAX_PAYLOAD - 8);
}

Test(event_registry, bad_bind_and_flags)
{
    mca_base_event_source_t *src = evt_test_source("ompi.t", MCA_BASE_EVENT_SOURCE_ORDERED, NULL, NULL);
    cr_expect_eq(mca_base_event_register(NULL, "b", NULL, "x", "d", OPAL_INFO_LVL_4, 1, t_i32,
                                         o_0, NULL, MCA_BASE_VAR_BIND_FIRST_AVAILABLE, 0, src,
                                         NULL),
                 OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_base_event_register(NULL, "b", NULL, "x", "d", OPAL_INFO_LVL_4, 1, t_i32,
                                         o_0, NULL, MCA_BASE_VAR_BIND_NO_OBJECT, 0x80, src, NULL),
                 OPAL_ERR_BAD_PARAM);
    /* a source that was never registered */
    mca_base_event_source_t fake = *src;
    fake.index = 7;
    cr_expect_eq(reg("b", NULL, "y", 1, t_i32, o_0, &fake), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_base_event_get_count(), 0);
}

Test(event_registry, lookup)
{
    mca_base_event_source_t *src = evt_test_source("ompi.t", MCA_BASE_EVENT_SOURCE_ORDERED, NULL, NULL);
    int a = reg("look", "up", "me", 1, t_i32, o_0, src);
    mca_base_event_t *ev = NULL, *ev2 = NULL;
    cr_assert_eq(mca_base_event_get_by_name("ompi.look_up_me", &ev), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_get_by_index(a, &ev2), OPAL_SUCCESS);
    cr_expect_eq(ev, ev2);
    cr_expect_eq(ev->index, a);
    cr_expect_eq(ev->source, src);
    cr_expect_eq(ev->verbosity, OPAL_INFO_LVL_4);
    cr_expect_eq(mca_base_event_get_by_name("ompi.nope", &ev), OPAL_ERR_NOT_FOUND);
    cr_expect_eq(mca_base_event_get_by_name(NULL, &ev), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_base_event_get_by_index(a + 1, &ev), OPAL_ERR_NOT_FOUND);
    cr_expect_eq(mca_base_event_get_by_index(-1, &ev), OPAL_ERR_NOT_FOUND);
    cr_expect_eq(mca_base_event_get_by_index(a, NULL), OPAL_ERR_BAD_PARAM);
}

Test(event_registry, sources)
{
    mca_base_event_source_t *src = evt_test_source("ompi.clock", MCA_BASE_EVENT_SOURCE_ORDERED, NULL, NULL);
    cr_expect_str_eq(src->name, "ompi.clock");
    cr_expect_eq(src->ticks_per_second, 1000000000LL);
    cr_expect_not_null(src->get_timestamp);
    opal_count_t t1, t2;
    cr_assert_eq(mca_base_event_source_get_timestamp(src->index, &t1), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_source_get_timestamp(src->index, &t2), OPAL_SUCCESS);
    cr_expect_geq(t2, t1);
    cr_expect_gt(t1, 0);
    cr_expect_eq(mca_base_event_source_get_timestamp(src->index + 5, &t1), OPAL_ERR_NOT_FOUND);
    cr_expect_eq(mca_base_event_source_get_timestamp(src->index, NULL), OPAL_ERR_BAD_PARAM);
    int na = mca_base_event_source_register("ompi.noadhoc", "", MCA_BASE_EVENT_SOURCE_UNORDERED,
                                            1000, 1000, NULL, false, NULL);
    cr_assert_geq(na, 0);
    cr_expect_eq(mca_base_event_source_get_timestamp(na, &t1), OPAL_ERR_NOT_SUPPORTED);
    cr_expect_eq(mca_base_event_source_register(NULL, "", 0, 1, 1, NULL, true, NULL), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_base_event_source_register("", "", 0, 1, 1, NULL, true, NULL), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_base_event_source_register("x", "", 0, 0, 1, NULL, true, NULL), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_base_event_source_register("x", "", 0, 1, 0, NULL, true, NULL), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_base_event_source_register("x", "", 7, 1, 1, NULL, true, NULL), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_base_event_source_get_count(), 2);
    cr_expect_eq(mca_base_event_source_get_by_index(2, &src), OPAL_ERR_NOT_FOUND);
}

/* Registration before mca_base_event_init() (lazy registry). */
Test(event_registry_early, before_init)
{
    int si = mca_base_event_source_register("ompi.early", "", MCA_BASE_EVENT_SOURCE_ORDERED, 1000000000,
                                            OPAL_COUNT_MAX, NULL, true, NULL);
    cr_assert_geq(si, 0);
    mca_base_event_source_t *src;
    cr_assert_eq(mca_base_event_source_get_by_index(si, &src), OPAL_SUCCESS);
    int ei = reg("early", NULL, "bird", 1, t_i32, o_0, src);
    cr_assert_geq(ei, 0);
    cr_assert_eq(opal_init_util(NULL, NULL), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_init(), OPAL_SUCCESS);
    mca_base_event_t *ev;
    cr_expect_eq(mca_base_event_get_by_name("ompi.early_bird", &ev), OPAL_SUCCESS);
    cr_expect_eq(ev->index, ei);
    cr_expect_eq(mca_base_event_finalize(), OPAL_SUCCESS);
    cr_expect_eq(mca_base_event_finalize(), OPAL_ERR_NOT_INITIALIZED);
}

/* Element names: optional, validated, set once (idempotent), read
 * lock-free, out-of-range reads are NULL. */
Test(event_registry, element_names)
{
    mca_base_event_source_t *src = evt_test_source("ompi.test", MCA_BASE_EVENT_SOURCE_ORDERED,
                                                   NULL, NULL);
    mca_base_event_t *ev = evt_test_event("named", MCA_BASE_VAR_BIND_NO_OBJECT, 0, src);
    const char *const good[2] = {"alpha", "beta_2"};
    const char *const other[2] = {"alpha", "gamma"};
    const char *const dup[2] = {"same", "same"};
    const char *const digit[2] = {"1st", "b"};
    const char *const dot[2] = {"a.b", "c"};
    const char *const empty[2] = {"", "c"};
    const char *const null_entry[2] = {"a", NULL};
    char long_name[300];

    cr_expect_null(mca_base_event_element_name(ev, 0), "no names before they are set");
    cr_expect_eq(mca_base_event_set_element_names(NULL, good), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_base_event_set_element_names(ev, NULL), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_base_event_set_element_names(ev, dup), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_base_event_set_element_names(ev, digit), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_base_event_set_element_names(ev, dot), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_base_event_set_element_names(ev, empty), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_base_event_set_element_names(ev, null_entry), OPAL_ERR_BAD_PARAM);
    memset(long_name, 'x', sizeof(long_name) - 1);
    long_name[sizeof(long_name) - 1] = '\0';
    {
        const char *const too_long[2] = {long_name, "b"};
        cr_expect_eq(mca_base_event_set_element_names(ev, too_long), OPAL_ERR_BAD_PARAM);
    }
    cr_expect_null(mca_base_event_element_name(ev, 0), "a refused set leaves no names");

    cr_assert_eq(mca_base_event_set_element_names(ev, good), OPAL_SUCCESS);
    cr_expect_str_eq(mca_base_event_element_name(ev, 0), "alpha");
    cr_expect_str_eq(mca_base_event_element_name(ev, 1), "beta_2");
    cr_expect_null(mca_base_event_element_name(ev, 2));
    cr_expect_null(mca_base_event_element_name(ev, -1));
    cr_expect_null(mca_base_event_element_name(NULL, 0));
    cr_expect_eq(mca_base_event_set_element_names(ev, good), OPAL_SUCCESS, "same names again");
    cr_expect_eq(mca_base_event_set_element_names(ev, other), OPAL_EXISTS, "names never change");
    cr_expect_str_eq(mca_base_event_element_name(ev, 1), "beta_2");
}
