/* The example code of "Writing an MPI_T event producer" (the page of Open
 * MPI main's opal/mca/base/mca_base_event.h), pasted
 * unchanged (its registration code lives in test/mpi/evt_example_producer.h, the
 * one copy in the tree), then a tool-side registration checking the delivered
 * payloads.
 * What the page leaves to the reader (compute_value(), register_bound_event(),
 * the communicator) is supplied around the pasted blocks. */
#include "opal_config.h"

#include <criterion/criterion.h>

#include "opal/runtime/opal.h"

/* ---- the page's registration code, pasted once for the whole tree ---- */
#include "test/mpi/evt_example_producer.h"

static int32_t next_value = 41;
static int32_t compute_value(void)
{
    return ++next_value;
}

/* The page's raise site, pasted unchanged into a function. */
static void my_raise_site(void)
{
    if (NULL != my_event) {
        int32_t value = compute_value();
        mca_base_event_raise(my_event, my_event->source, &value);
    }
}

/* The page's register_bound_event(): the bound variant of the call above. */
static mca_base_event_t *register_bound_event(const char *name, const char *desc,
                                              mca_base_var_info_lvl_t lvl, int bind, int n,
                                              const mca_base_var_type_t *types,
                                              const ptrdiff_t *offsets,
                                              mca_base_event_source_t *source)
{
    mca_base_event_t *ev = NULL;
    int ei = mca_base_event_register("ompi", NULL, NULL, name, desc, lvl, n, types, offsets,
                                     NULL, bind, 0, source, NULL);
    if (0 > ei || OPAL_SUCCESS != mca_base_event_get_by_index(ei, &ev)) {
        return NULL;
    }
    return ev;
}

/* The page's bound example, pasted unchanged into a function (my_event here
 * is the bound event; the outer one is shadowed on purpose). */
static mca_base_event_t *bound_register(mca_base_event_source_t *source)
{
    mca_base_event_t *my_event;
    const mca_base_var_type_t types[1] = {MCA_BASE_VAR_TYPE_UINT64_T};
    const ptrdiff_t offsets[1] = {0};
    my_event = register_bound_event("mpi.communicator_name_set", "...",
                                    OPAL_INFO_LVL_4, MCA_BASE_VAR_BIND_MPI_COMM,
                                    1, types, offsets, source);
    return my_event;
}

static void bound_raise_site(mca_base_event_t *my_event, void *comm)
{
    if (NULL != my_event) {
        struct { uint64_t handle; } payload = { (uint64_t) (uintptr_t) comm };
        mca_base_event_raise_bound(my_event, NULL, comm, &payload);
    }
}

static int32_t got[8];
static int ngot;
static void cb(mca_base_event_record_t *inst, mca_base_event_registration_t *r,
               mca_base_event_cb_safety_t s, void *ud)
{
    cr_assert_eq(mca_base_event_read(inst, 0, &got[ngot++]), OPAL_SUCCESS);
}

static uint64_t got_handle[8];
static int ngot_handle;
static void bound_cb(mca_base_event_record_t *inst, mca_base_event_registration_t *r,
                     mca_base_event_cb_safety_t s, void *ud)
{
    cr_assert_eq(mca_base_event_copy(inst, &got_handle[ngot_handle++]), OPAL_SUCCESS);
}

Test(producer_example, producer_page_code_delivers)
{
    cr_assert_eq(opal_init_util(NULL, NULL), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_init(), OPAL_SUCCESS);
    my_producer_register();
    cr_assert_not_null(my_event);
    cr_expect_str_eq(my_event->name, "ompi.mything_base_happened");
    cr_expect_str_eq(my_event->source->name, "ompi.mything");
    my_producer_register(); /* idempotent */
    cr_expect_eq(mca_base_event_get_count(), 1);

    my_raise_site(); /* nobody listens: nothing */
    mca_base_event_registration_t *h;
    cr_assert_eq(mca_base_event_handle_alloc(my_event, NULL, NULL, &h), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_register_callback(h, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL, NULL,
                                                  cb),
                 OPAL_SUCCESS);
    my_raise_site();
    my_raise_site();
    cr_assert_eq(ngot, 2);
    cr_expect_eq(got[0], 43);
    cr_expect_eq(got[1], 44);

    mca_base_event_t *bev = bound_register(my_event->source);
    cr_assert_not_null(bev);
    cr_expect_str_eq(bev->name, "ompi.mpi.communicator_name_set");
    int comm_a, comm_b;
    mca_base_event_registration_t *hb;
    cr_assert_eq(mca_base_event_handle_alloc(bev, &comm_b, NULL, &hb), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_register_callback(hb, 0, NULL, NULL, bound_cb), OPAL_SUCCESS);
    bound_raise_site(bev, &comm_a); /* not the bound object */
    bound_raise_site(bev, &comm_b);
    cr_assert_eq(ngot_handle, 1);
    cr_expect_eq(got_handle[0], (uint64_t) (uintptr_t) &comm_b);
    cr_expect_eq(mca_base_event_finalize(), OPAL_SUCCESS);
}
