/* Unit tests: handles (validation by value, cap, bound objects, infos,
 * callbacks slots, free callbacks). */
#include <errno.h>
#include <linux/membarrier.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "test_event_common.h"
#include "opal/mca/base/mca_base_event_test.h"

TestSuite(event_handle, .init = evt_test_setup, .fini = evt_test_teardown);

static int calls;
static void count_cb(mca_base_event_record_t *i, mca_base_event_registration_t *r,
                     mca_base_event_cb_safety_t s, void *ud)
{
    ++calls;
}

static mca_base_event_t *unbound(void)
{
    return evt_test_event("h", MCA_BASE_VAR_BIND_NO_OBJECT, 0,
                          evt_test_source("ompi.t", MCA_BASE_EVENT_SOURCE_ORDERED, NULL, NULL));
}

Test(event_handle, alloc_free_valid)
{
    mca_base_event_t *ev = unbound();
    mca_base_event_registration_t *h;
    cr_assert_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &h), OPAL_SUCCESS);
    cr_expect(mca_base_event_handle_is_valid(h));
    cr_expect_eq(mca_base_event_handle_event(h), ev);
    cr_expect_eq(mca_base_event_handle_free(h, NULL, NULL), OPAL_SUCCESS);
    cr_expect_not(mca_base_event_handle_is_valid(h));
    cr_expect_null(mca_base_event_handle_event(h));
    /* double free and use after free rejected */
    cr_expect_eq(mca_base_event_handle_free(h, NULL, NULL), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_base_event_register_callback(h, 0, NULL, NULL, count_cb), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_base_event_set_dropped_handler(h, NULL), OPAL_ERR_BAD_PARAM);
    opal_info_t *info;
    cr_expect_eq(mca_base_event_handle_get_info(h, &info), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_base_event_handle_alloc(NULL, NULL, NULL, &h), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_base_event_handle_alloc(ev, NULL, NULL, NULL), OPAL_ERR_BAD_PARAM);
}

Test(event_handle, stale_handle_after_slot_reuse)
{
    mca_base_event_t *ev = unbound();
    mca_base_event_registration_t *h1, *h2;
    cr_assert_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &h1), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_handle_free(h1, NULL, NULL), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &h2), OPAL_SUCCESS);
    /* the new handle reuses the slot; the old value must stay dead */
    cr_expect_neq(h1, h2);
    cr_expect_not(mca_base_event_handle_is_valid(h1));
    cr_expect(mca_base_event_handle_is_valid(h2));
    cr_expect_eq(mca_base_event_handle_free(h1, NULL, NULL), OPAL_ERR_BAD_PARAM);
    cr_expect(mca_base_event_handle_is_valid(h2));
    cr_expect_eq(mca_base_event_handle_free(h2, NULL, NULL), OPAL_SUCCESS);
}

Test(event_handle, forged_handles)
{
    mca_base_event_t *ev = unbound();
    mca_base_event_registration_t *h;
    cr_assert_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &h), OPAL_SUCCESS);
    void *heap = malloc(64);
    mca_base_event_registration_t *forged[] = {
        NULL, (mca_base_event_registration_t *) (uintptr_t) 1,
        (mca_base_event_registration_t *) (uintptr_t) 0xdeadbeef,
        (mca_base_event_registration_t *) heap, (mca_base_event_registration_t *) ev,
        (mca_base_event_registration_t *) ((uintptr_t) h + 1),
        (mca_base_event_registration_t *) ((uintptr_t) h + ((uintptr_t) 1 << 32))};
    for (size_t i = 0; i < sizeof(forged) / sizeof(forged[0]); ++i) {
        cr_expect_not(mca_base_event_handle_is_valid(forged[i]), "forged %zu", i);
        cr_expect_eq(mca_base_event_handle_free(forged[i], NULL, NULL), OPAL_ERR_BAD_PARAM);
        cr_expect_eq(mca_base_event_register_callback(forged[i], 0, NULL, NULL, count_cb),
                     OPAL_ERR_BAD_PARAM);
    }
    free(heap);
    cr_expect(mca_base_event_handle_is_valid(h));
}

Test(event_handle, bound_needs_object)
{
    mca_base_event_t *ev = evt_test_event("b", MCA_BASE_VAR_BIND_MPI_COMM, 0,
                                          evt_test_source("ompi.t", 0, NULL, NULL));
    mca_base_event_registration_t *h;
    int obj;
    cr_expect_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &h), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_base_event_handle_alloc(ev, &obj, NULL, &h), OPAL_SUCCESS);
}

Test(event_handle_env, cap_from_env, .fini = evt_test_teardown)
{
    setenv("OMPI_MCA_mca_base_event_max_registrations", "3", 1);
    evt_test_setup();
    mca_base_event_t *ev = unbound();
    mca_base_event_registration_t *h[4];
    for (int i = 0; i < 3; ++i) {
        cr_assert_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &h[i]), OPAL_SUCCESS);
    }
    cr_expect_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &h[3]), OPAL_ERR_OUT_OF_RESOURCE);
    cr_assert_eq(mca_base_event_handle_free(h[1], NULL, NULL), OPAL_SUCCESS);
    cr_expect_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &h[3]), OPAL_SUCCESS);
}

Test(event_handle, cap_from_set_value)
{
    int idx = mca_base_var_find("opal", "mca", "base", "event_max_registrations");
    cr_assert_geq(idx, 0);
    int two = 2;
    cr_assert_eq(mca_base_var_set_value(idx, &two, sizeof(two), MCA_BASE_VAR_SOURCE_SET, NULL),
                 OPAL_SUCCESS);
    mca_base_event_t *ev = unbound();
    mca_base_event_registration_t *h;
    cr_assert_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &h), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &h), OPAL_SUCCESS);
    cr_expect_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &h), OPAL_ERR_OUT_OF_RESOURCE);
}

static char *info_get(opal_info_t *info, const char *key)
{
    static char buf[256];
    int flag = 0;
    if (OPAL_SUCCESS != opal_info_get(info, key, sizeof(buf) - 1, buf, &flag) || !flag) {
        return NULL;
    }
    return buf;
}

Test(event_handle, handle_info)
{
    mca_base_event_t *ev = unbound();
    mca_base_event_registration_t *h;
    opal_info_t *in = OBJ_NEW(opal_info_t), *out = NULL;
    opal_info_set(in, "k1", "v1");
    cr_assert_eq(mca_base_event_handle_alloc(ev, NULL, in, &h), OPAL_SUCCESS);
    OBJ_RELEASE(in);
    in = OBJ_NEW(opal_info_t);
    opal_info_set(in, "k2", "v2");
    cr_assert_eq(mca_base_event_handle_set_info(h, in), OPAL_SUCCESS);
    OBJ_RELEASE(in);
    cr_assert_eq(mca_base_event_handle_get_info(h, &out), OPAL_SUCCESS);
    cr_assert_not_null(out);
    cr_expect_str_eq(info_get(out, "k1"), "v1");
    cr_expect_str_eq(info_get(out, "k2"), "v2");
    cr_expect_null(info_get(out, "k3"));
    OBJ_RELEASE(out);
    cr_expect_eq(mca_base_event_handle_get_info(h, NULL), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_base_event_handle_set_info(h, NULL), OPAL_ERR_BAD_PARAM);
}

Test(event_handle, callback_info_and_slots)
{
    mca_base_event_t *ev = unbound();
    mca_base_event_registration_t *h;
    opal_info_t *in = OBJ_NEW(opal_info_t), *out = NULL;
    cr_assert_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &h), OPAL_SUCCESS);
    cr_expect_eq(mca_base_event_callback_get_info(h, MCA_BASE_EVENT_CB_REQUIRE_NONE, &out),
                 OPAL_ERR_NOT_FOUND);
    opal_info_set(in, "cb", "one");
    cr_assert_eq(mca_base_event_register_callback(h, MCA_BASE_EVENT_CB_REQUIRE_THREAD_SAFE, in,
                                                  NULL, count_cb),
                 OPAL_SUCCESS);
    OBJ_RELEASE(in);
    in = OBJ_NEW(opal_info_t);
    opal_info_set(in, "more", "two");
    cr_assert_eq(mca_base_event_callback_set_info(h, MCA_BASE_EVENT_CB_REQUIRE_THREAD_SAFE, in),
                 OPAL_SUCCESS);
    cr_expect_eq(mca_base_event_callback_set_info(h, MCA_BASE_EVENT_CB_REQUIRE_NONE, in),
                 OPAL_ERR_NOT_FOUND);
    OBJ_RELEASE(in);
    cr_assert_eq(mca_base_event_callback_get_info(h, MCA_BASE_EVENT_CB_REQUIRE_THREAD_SAFE, &out),
                 OPAL_SUCCESS);
    cr_expect_str_eq(info_get(out, "cb"), "one");
    cr_expect_str_eq(info_get(out, "more"), "two");
    OBJ_RELEASE(out);
    cr_expect_eq(mca_base_event_register_callback(h, 4, NULL, NULL, count_cb), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_base_event_register_callback(h, -1, NULL, NULL, count_cb), OPAL_ERR_BAD_PARAM);
    /* clearing the slot: info gone, gate closed */
    cr_expect(mca_base_event_active(ev));
    cr_assert_eq(mca_base_event_register_callback(h, MCA_BASE_EVENT_CB_REQUIRE_THREAD_SAFE, NULL,
                                                  NULL, NULL),
                 OPAL_SUCCESS);
    cr_expect_eq(mca_base_event_callback_get_info(h, MCA_BASE_EVENT_CB_REQUIRE_THREAD_SAFE, &out),
                 OPAL_ERR_NOT_FOUND);
    cr_expect_not(mca_base_event_active(ev));
}

Test(event_handle, gate_counts_listeners)
{
    mca_base_event_t *ev = unbound();
    mca_base_event_registration_t *h1, *h2;
    cr_expect_eq(atomic_load(&ev->active), 0);
    cr_assert_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &h1), OPAL_SUCCESS);
    cr_expect_eq(atomic_load(&ev->active), 0); /* no callback yet */
    cr_assert_eq(mca_base_event_register_callback(h1, 0, NULL, NULL, count_cb), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_register_callback(h1, 2, NULL, NULL, count_cb), OPAL_SUCCESS);
    cr_expect_eq(atomic_load(&ev->active), 1);
    cr_assert_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &h2), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_set_dropped_handler(h2, (mca_base_event_dropped_cb_fn_t) count_cb),
                 OPAL_SUCCESS);
    cr_expect_eq(atomic_load(&ev->active), 2);
    cr_assert_eq(mca_base_event_handle_free(h1, NULL, NULL), OPAL_SUCCESS);
    cr_expect_eq(atomic_load(&ev->active), 1);
    cr_assert_eq(mca_base_event_set_dropped_handler(h2, NULL), OPAL_SUCCESS);
    cr_expect_eq(atomic_load(&ev->active), 0);
}

/* ---- free callbacks ---- */
static int free_calls;
static void *free_ud;
static mca_base_event_registration_t *free_reg;
static int in_cb;
static void free_cb(mca_base_event_registration_t *r, mca_base_event_cb_safety_t s, void *ud)
{
    cr_expect_eq(in_cb, 0, "free callback while a callback runs");
    ++free_calls;
    free_ud = ud;
    free_reg = r;
}

Test(event_handle, free_callback_at_once)
{
    mca_base_event_t *ev = unbound();
    mca_base_event_registration_t *h;
    int ud;
    cr_assert_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &h), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_register_callback(h, 0, NULL, NULL, count_cb), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_handle_free(h, &ud, free_cb), OPAL_SUCCESS);
    cr_expect_eq(free_calls, 1);
    cr_expect_eq(free_ud, &ud);
    cr_expect_eq(free_reg, h);
    cr_expect_eq(mca_base_event_finalize(), OPAL_SUCCESS);
    cr_expect_eq(free_calls, 1);
    cr_assert_eq(mca_base_event_init(), OPAL_SUCCESS);
}

static int self_free_ret = 1, after_free_calls;
static void self_freeing_cb(mca_base_event_record_t *i, mca_base_event_registration_t *r,
                            mca_base_event_cb_safety_t s, void *ud)
{
    ++calls;
    in_cb = 1;
    self_free_ret = mca_base_event_handle_free(r, ud, free_cb);
    /* still inside the callback: the free callback must wait */
    after_free_calls = free_calls;
    in_cb = 0;
}

Test(event_handle, free_inside_own_callback)
{
    mca_base_event_t *ev = unbound();
    mca_base_event_registration_t *h;
    int ud;
    evt_test_payload_t p = {1, 2};
    cr_assert_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &h), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_register_callback(h, 0, NULL, &ud, self_freeing_cb), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_raise(ev, NULL, &p), OPAL_SUCCESS);
    cr_expect_eq(self_free_ret, OPAL_SUCCESS);
    cr_expect_eq(calls, 1);
    cr_expect_eq(after_free_calls, 0);
    cr_expect_eq(free_calls, 1); /* ran when the callback returned */
    cr_expect_eq(free_ud, &ud);
    cr_expect_eq(free_reg, h);
    cr_expect_not(mca_base_event_handle_is_valid(h));
    cr_assert_eq(mca_base_event_raise(ev, NULL, &p), OPAL_SUCCESS);
    cr_expect_eq(calls, 1);
    cr_expect_eq(mca_base_event_test_retired_count(), 0);
}

Test(event_handle, finalize_frees_everything)
{
    mca_base_event_t *ev = unbound();
    mca_base_event_registration_t *h;
    cr_assert_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &h), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_register_callback(h, 0, NULL, NULL, count_cb), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_init(), OPAL_SUCCESS); /* refcount 2 */
    cr_assert_eq(mca_base_event_finalize(), OPAL_SUCCESS);
    cr_expect(mca_base_event_handle_is_valid(h));
    cr_assert_eq(mca_base_event_finalize(), OPAL_SUCCESS);
    cr_expect_not(mca_base_event_handle_is_valid(h));
    cr_expect_not(mca_base_event_active(ev));
    cr_expect_eq(mca_base_event_test_retired_count(), 0);
    cr_assert_eq(mca_base_event_init(), OPAL_SUCCESS);
    /* the event type survived */
    mca_base_event_t *again;
    cr_expect_eq(mca_base_event_get_by_name(ev->name, &again), OPAL_SUCCESS);
    cr_expect_eq(again, ev);
}

static void ignore_dropped(opal_count_t count, mca_base_event_registration_t *r, int source_index,
                           mca_base_event_cb_safety_t s, void *ud)
{
}

/* A snapshot retired right after a reclamation's fence carries the stamp
 * that fence recorded; freeing it without a new fence lets the scan miss a
 * reader whose plain announcement is still in its store buffer, a reader
 * that loaded the old snapshot (a use after free seen under ASan when a
 * raising thread reclaimed right after set_dropped_handler). */
Test(event_handle, every_retirement_is_fenced_before_its_free)
{
    mca_base_event_t *ev = unbound();
    mca_base_event_registration_t *h;
    evt_test_payload_t p = {1, 2};
    cr_assert_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &h), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_register_callback(h, 0, NULL, NULL, count_cb), OPAL_SUCCESS);
    uint64_t fences = mca_base_event_test_reclaim_fences();
    /* each change retires the snapshot its own reclamation frees */
    for (int i = 0; i < 3; ++i) {
        cr_assert_eq(mca_base_event_register_callback(h, 0, NULL, NULL, count_cb), OPAL_SUCCESS);
        cr_assert_eq(mca_base_event_test_retired_count(), 0);
        cr_expect_eq(mca_base_event_test_reclaim_fences(), ++fences,
                     "change %d: a snapshot was freed without a fence after its retirement", i);
    }
    /* retires the snapshot; reclaims nothing itself */
    cr_assert_eq(mca_base_event_set_dropped_handler(h, ignore_dropped), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_test_retired_count(), 1);
    /* the raise's exit reclaims */
    cr_assert_eq(mca_base_event_raise(ev, NULL, &p), OPAL_SUCCESS);
    cr_expect_eq(calls, 1);
    cr_expect_eq(mca_base_event_test_retired_count(), 0);
    cr_expect_eq(mca_base_event_test_reclaim_fences(), ++fences,
                 "a raise freed a snapshot without a fence after its retirement");
    /* nothing retired since: the next reclamation needs no fence */
    cr_assert_eq(mca_base_event_raise(ev, NULL, &p), OPAL_SUCCESS);
    cr_expect_eq(mca_base_event_test_reclaim_fences(), fences);
    cr_expect_eq(mca_base_event_handle_free(h, NULL, NULL), OPAL_SUCCESS);
    cr_expect_eq(mca_base_event_test_reclaim_fences(), ++fences);
}

/* The registration for the expedited membarrier costs the kernel an RCU
 * grace period once a process has more than one thread (10-13 ms in
 * MPI_Init): a process that loads the library while it has one thread
 * registers then. Here, before anything of the engine ran, the expedited
 * membarrier works (unregistered, the kernel refuses it with EPERM). */
Test(event_fence, registered_when_the_library_is_loaded)
{
    long cmds = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0);

    if (0 > cmds || 0 == (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED)) {
        cr_skip_test("the kernel has no expedited membarrier (query 0x%lx)", cmds);
    }
    cr_assert_eq(syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0), 0,
                 "the expedited membarrier fails (%s): not registered at load", strerror(errno));
}
