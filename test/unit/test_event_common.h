/* Shared set-up of the engine unit tests (one process per Criterion test,
 * so every test starts with an empty engine). */
#ifndef TEST_EVENT_COMMON_H
#define TEST_EVENT_COMMON_H

#include "opal_config.h"

#include <criterion/criterion.h>
#include <string.h>

#include "opal/mca/base/mca_base_event.h"
#include "opal/runtime/opal.h"

static inline void evt_test_setup(void)
{
    cr_assert_eq(opal_init_util(NULL, NULL), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_init(), OPAL_SUCCESS);
}

static inline void evt_test_teardown(void)
{
    (void) mca_base_event_finalize();
}

static inline mca_base_event_source_t *evt_test_source(const char *name,
                                                       mca_base_event_source_order_t order,
                                                       mca_base_event_timestamp_fn_t clock,
                                                       void *ctx)
{
    mca_base_event_source_t *src = NULL;
    int si = mca_base_event_source_register(name, "test source", order, 1000000000,
                                            OPAL_COUNT_MAX, clock, true, ctx);
    cr_assert_geq(si, 0);
    cr_assert_eq(mca_base_event_source_get_by_index(si, &src), OPAL_SUCCESS);
    return src;
}

/* {a:i32@0, b:u64@8} */
static inline mca_base_event_t *evt_test_event(const char *name, int bind, uint32_t flags,
                                               mca_base_event_source_t *src)
{
    const mca_base_var_type_t types[2] = {MCA_BASE_VAR_TYPE_INT32_T, MCA_BASE_VAR_TYPE_UINT64_T};
    const ptrdiff_t offsets[2] = {0, 8};
    mca_base_event_t *ev = NULL;
    int ei = mca_base_event_register("ompi", "test", NULL, name, "test event", OPAL_INFO_LVL_4,
                                     2, types, offsets, NULL, bind, flags, src, NULL);
    cr_assert_geq(ei, 0);
    cr_assert_eq(mca_base_event_get_by_index(ei, &ev), OPAL_SUCCESS);
    return ev;
}

typedef struct {
    int32_t a;
    uint64_t b;
} evt_test_payload_t;

#endif
