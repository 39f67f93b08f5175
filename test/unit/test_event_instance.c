/* Unit tests: instance accessors (read, copy, timestamp, source). */
#include "test_event_common.h"

TestSuite(event_instance, .init = evt_test_setup, .fini = evt_test_teardown);

static int checked;
static opal_count_t now_ts = 4242;
static opal_count_t fixed_clock(void *ctx)
{
    return *(opal_count_t *) ctx;
}

static void check_cb(mca_base_event_record_t *inst, mca_base_event_registration_t *r,
                     mca_base_event_cb_safety_t s, void *ud)
{
    mca_base_event_source_t *src = ud;
    int32_t a = 0;
    uint64_t b = 0;
    evt_test_payload_t copy;
    opal_count_t ts = 0;
    int si = -1;
    cr_expect_eq(mca_base_event_read(inst, 0, &a), OPAL_SUCCESS);
    cr_expect_eq(a, -17);
    cr_expect_eq(mca_base_event_read(inst, 1, &b), OPAL_SUCCESS);
    cr_expect_eq(b, 0x1122334455667788ULL);
    cr_expect_eq(mca_base_event_read(inst, 2, &b), OPAL_ERR_NOT_FOUND);
    cr_expect_eq(mca_base_event_read(inst, -1, &b), OPAL_ERR_NOT_FOUND);
    cr_expect_eq(mca_base_event_read(inst, 0, NULL), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_base_event_read(NULL, 0, &a), OPAL_ERR_BAD_PARAM);
    memset(&copy, 0, sizeof(copy));
    cr_expect_eq(mca_base_event_copy(inst, &copy), OPAL_SUCCESS);
    cr_expect_eq(copy.a, -17);
    cr_expect_eq(copy.b, 0x1122334455667788ULL);
    cr_expect_eq(mca_base_event_copy(inst, NULL), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_base_event_get_timestamp(inst, &ts), OPAL_SUCCESS);
    cr_expect_eq(ts, 4242);
    cr_expect_eq(mca_base_event_get_timestamp(inst, NULL), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_base_event_get_source(inst, &si), OPAL_SUCCESS);
    cr_expect_eq(si, src->index);
    cr_expect_eq(mca_base_event_get_source(NULL, &si), OPAL_ERR_BAD_PARAM);
    ++checked;
}

Test(event_instance, accessors)
{
    (void) evt_test_source("ompi.first", 0, NULL, NULL); /* so the index is not 0 */
    mca_base_event_source_t *src = evt_test_source("ompi.fixed", MCA_BASE_EVENT_SOURCE_UNORDERED,
                                                   fixed_clock, &now_ts);
    cr_assert_eq(src->index, 1);
    mca_base_event_t *ev = evt_test_event("inst", MCA_BASE_VAR_BIND_NO_OBJECT, 0, src);
    mca_base_event_registration_t *h;
    cr_assert_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &h), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_register_callback(h, 0, NULL, src, check_cb), OPAL_SUCCESS);
    evt_test_payload_t p = {-17, 0x1122334455667788ULL};
    cr_assert_eq(mca_base_event_raise(ev, src, &p), OPAL_SUCCESS);
    cr_expect_eq(checked, 1);
}
