/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file Allocation-failure injection over the engine, the evt framework, the
 * MPI_T bindings and the producers.
 *
 * Each scenario is one operation (register a source, allocate a handle, set
 * a callback, raise, drain, free, MPI_T init/finalize...). For N = 1, 2, ...
 * the scenario runs with the Nth allocation made by ompi-evt code failing
 * (evt_failalloc.h); it must return an error code (or count a drop), leave
 * no half-built state behind, and the same scenario run afterwards without
 * failures must succeed. The loop ends with the first N at which no failure
 * was injected (the operation makes fewer than N allocations). Leaks are
 * left to LeakSanitizer (the ASan tree of make check-sanitize).
 *
 * Mode (argv[1] or EVT_FAILALLOC_MODE): "ours" (default) fails only calls
 * made from ompi-evt's objects; "deep" fails any call made while the
 * operation runs, Open MPI's own allocations included (engine-only
 * scenarios: Open MPI 4.1's OPAL is not itself hardened against them).
 *
 * Prints "N passed, M failed"; exit status non-zero on failure.
 */

#include "opal_config.h"

#include <mpi.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evt_failalloc.h"
#include "ompi/mca/evt/base/base.h"
#include "opal/mca/base/mca_base_event.h"
#include "opal/mca/base/mca_base_event_delivery.h"
#include "opal/util/info.h"
#include "test/evt_test_check.h"
#include "ompi/runtime/ompi_evt_init.h"

static int total_runs = 0, total_injected = 0;
static uint64_t max_n = 0;

/* ------------------------------------------------------------------------
 * Fixture and counters
 * ------------------------------------------------------------------------ */

static mca_base_event_source_t *src;
static mca_base_event_t *ev;
static int scenario_id = 0; /* unique names per attempt */

typedef struct {
    int32_t a;
    uint64_t b;
} evt_test_payload_t;

static atomic_int delivered = 0, free_calls = 0;
static atomic_llong dropped = 0;

static void cb(mca_base_event_record_t *inst, mca_base_event_registration_t *reg,
               mca_base_event_cb_safety_t safety, void *ud)
{
    (void) inst, (void) reg, (void) safety, (void) ud;
    atomic_fetch_add(&delivered, 1);
}

static void drop_cb(opal_count_t n, mca_base_event_registration_t *reg, int si,
                    mca_base_event_cb_safety_t safety, void *ud)
{
    (void) reg, (void) si, (void) safety, (void) ud;
    atomic_fetch_add(&dropped, (long long) n);
}

static void free_cb(mca_base_event_registration_t *reg, mca_base_event_cb_safety_t safety, void *ud)
{
    (void) reg, (void) safety, (void) ud;
    atomic_fetch_add(&free_calls, 1);
}

static void reset_counts(void)
{
    atomic_store(&delivered, 0);
    atomic_store(&dropped, 0);
    atomic_store(&free_calls, 0);
}

static mca_base_event_registration_t *new_reg(bool with_cb)
{
    mca_base_event_registration_t *r = NULL;
    if (OPAL_SUCCESS != mca_base_event_handle_alloc(ev, NULL, NULL, &r)) {
        return NULL;
    }
    if (with_cb) {
        if (OPAL_SUCCESS
            != mca_base_event_register_callback(r, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL, NULL,
                                                cb)) {
            (void) mca_base_event_handle_free(r, NULL, NULL);
            return NULL;
        }
        (void) mca_base_event_set_dropped_handler(r, drop_cb);
    }
    return r;
}

typedef struct {
    mca_base_event_registration_t *reg;
    mca_base_event_registration_t *other; /* a bystander: snapshots are rebuilt */
    opal_info_t *info;
    int aux;
} state_t;

static atomic_int other_delivered = 0;
static void other_cb(mca_base_event_record_t *inst, mca_base_event_registration_t *reg,
                     mca_base_event_cb_safety_t safety, void *ud)
{
    (void) inst, (void) reg, (void) safety, (void) ud;
    atomic_fetch_add(&other_delivered, 1);
}

/* The bystander of setup_reg keeps receiving whatever happened to s->reg. */
static void free_other(state_t *s)
{
    evt_test_payload_t p = {9, 9};
    int before;
    if (NULL == s->other) {
        return;
    }
    before = atomic_load(&other_delivered);
    (void) mca_base_event_raise(ev, src, &p);
    CHECK(before + 1 == atomic_load(&other_delivered), "bystander lost a delivery");
    CHECK(OPAL_SUCCESS == mca_base_event_handle_free(s->other, NULL, NULL), "free bystander");
    s->other = NULL;
}

static opal_info_t *new_info(const char *k, const char *v)
{
    opal_info_t *info = OBJ_NEW(opal_info_t);
    (void) opal_info_set(info, k, v);
    return info;
}

/* ------------------------------------------------------------------------
 * Scenarios. run(state, armed): the operation under test; returns 0 when it
 * succeeded, 1 when it failed cleanly; checks its own invariants. Anything
 * set up before / torn down after runs unarmed.
 * ------------------------------------------------------------------------ */

typedef struct {
    const char *name;
    bool deep_ok; /* engine-only: run in deep mode too */
    void (*setup)(state_t *);
    int (*run)(state_t *);                    /* armed */
    void (*teardown)(state_t *, int outcome); /* unarmed; checks the outcome */
} scenario_t;

static void setup_none(state_t *s)
{
    (void) s;
}

static void setup_info(state_t *s)
{
    s->info = new_info("fault_key", "fault_value");
}

static void setup_reg(state_t *s)
{
    s->other = new_reg(false);
    CHECK(NULL != s->other
              && OPAL_SUCCESS
                     == mca_base_event_register_callback(s->other, MCA_BASE_EVENT_CB_REQUIRE_NONE,
                                                         NULL, NULL, other_cb),
          "setup: no bystander");
    s->reg = new_reg(true);
    CHECK(NULL != s->reg, "setup: no registration");
    s->info = new_info("fault_key", "fault_value");
}

static void setup_reg_nocb(state_t *s)
{
    CHECK(OPAL_SUCCESS == mca_base_event_handle_alloc(ev, NULL, NULL, &s->reg), "setup alloc");
    s->info = new_info("fault_key", "fault_value");
}

/* Common teardown: free the registration (free callback exactly once). */
static void teardown_reg(state_t *s, int outcome)
{
    (void) outcome;
    free_other(s);
    if (NULL != s->info) {
        OBJ_RELEASE(s->info);
    }
    if (NULL != s->reg) {
        int before = atomic_load(&free_calls);
        CHECK(OPAL_SUCCESS == mca_base_event_handle_free(s->reg, NULL, free_cb), "free");
        CHECK(before + 1 == atomic_load(&free_calls), "free callback not run once");
        CHECK(!mca_base_event_handle_is_valid(s->reg), "handle valid after free");
    }
}

/* source_register: an error, or a source that can be looked up */
static int run_source_register(state_t *s)
{
    char name[64];
    snprintf(name, sizeof(name), "fault.src.%d", ++scenario_id);
    s->aux = mca_base_event_source_register(name, "fault source", MCA_BASE_EVENT_SOURCE_ORDERED,
                                            1000000000, OPAL_COUNT_MAX, NULL, true, NULL);
    return 0 > s->aux;
}

static void teardown_source_register(state_t *s, int outcome)
{
    mca_base_event_source_t *x = NULL;
    char name[64];
    snprintf(name, sizeof(name), "fault.src.%d", scenario_id);
    if (outcome) {
        CHECK(OPAL_ERR_OUT_OF_RESOURCE == s->aux, "source_register rc %d", s->aux);
        for (int i = 0; i < mca_base_event_source_get_count(); ++i) {
            CHECK(OPAL_SUCCESS == mca_base_event_source_get_by_index(i, &x) && NULL != x
                      && NULL != x->name && 0 != strcmp(x->name, name),
                  "half-registered source %d", i);
        }
        return;
    }
    CHECK(OPAL_SUCCESS == mca_base_event_source_get_by_index(s->aux, &x) && NULL != x
              && 0 == strcmp(x->name, name),
          "registered source not found");
}

/* event_register: an error and nothing registered, or the event by name */
static int run_event_register(state_t *s)
{
    const mca_base_var_type_t types[2] = {MCA_BASE_VAR_TYPE_INT32_T, MCA_BASE_VAR_TYPE_UINT64_T};
    const ptrdiff_t offsets[2] = {0, 8};
    char name[64];

    snprintf(name, sizeof(name), "ev%d", ++scenario_id);
    s->aux = mca_base_event_register("ompi", "fault", NULL, name, "fault event", OPAL_INFO_LVL_4, 2,
                                     types, offsets, NULL, MCA_BASE_VAR_BIND_NO_OBJECT, 0, src,
                                     NULL);
    return 0 > s->aux;
}

static void teardown_event_register(state_t *s, int outcome)
{
    mca_base_event_t *x = NULL;
    char full[96];
    snprintf(full, sizeof(full), "ompi.fault_ev%d", scenario_id);
    if (outcome) {
        CHECK(OPAL_ERR_OUT_OF_RESOURCE == s->aux, "event_register rc %d", s->aux);
        CHECK(OPAL_SUCCESS != mca_base_event_get_by_name(full, &x), "half-registered %s", full);
        for (int i = 0; i < mca_base_event_get_count(); ++i) {
            CHECK(OPAL_SUCCESS == mca_base_event_get_by_index(i, &x) && NULL != x
                      && NULL != x->name,
                  "index %d has no event", i);
        }
        return;
    }
    CHECK(OPAL_SUCCESS == mca_base_event_get_by_name(full, &x) && NULL != x && s->aux == x->index
              && 2 == x->num_elements,
          "event %s not found", full);
}

/* handle_alloc with an info */
static int run_handle_alloc(state_t *s)
{
    s->aux = mca_base_event_handle_alloc(ev, NULL, s->info, &s->reg);
    return OPAL_SUCCESS != s->aux;
}

static void teardown_handle_alloc(state_t *s, int outcome)
{
    if (outcome) {
        CHECK(OPAL_ERR_OUT_OF_RESOURCE == s->aux, "handle_alloc rc %d", s->aux);
        CHECK(NULL == s->reg, "handle set on failure");
    } else {
        opal_info_t *got = NULL;
        int flag = 0;
        CHECK(OPAL_SUCCESS == mca_base_event_handle_get_info(s->reg, &got), "get_info");
        if (NULL != got) {
            char val[64] = "";
            (void) opal_info_get(got, "fault_key", sizeof(val) - 1, val, &flag);
            CHECK(flag && 0 == strcmp(val, "fault_value"), "info lost");
            OBJ_RELEASE(got);
        }
    }
    teardown_reg(s, outcome);
}

/* register_callback (with an info) on a handle without one; then a raise
 * must reach it exactly when the call succeeded */
static int run_register_callback(state_t *s)
{
    s->aux = mca_base_event_register_callback(s->reg, MCA_BASE_EVENT_CB_REQUIRE_NONE, s->info, NULL,
                                              cb);
    return OPAL_SUCCESS != s->aux;
}

static void teardown_register_callback(state_t *s, int outcome)
{
    evt_test_payload_t p = {1, 2};
    reset_counts();
    CHECK(outcome ? OPAL_ERR_OUT_OF_RESOURCE == s->aux : true, "register_callback rc %d", s->aux);
    CHECK(outcome ? !mca_base_event_active(ev) : mca_base_event_active(ev), "gate wrong");
    (void) mca_base_event_raise(ev, src, &p);
    CHECK((outcome ? 0 : 1) == atomic_load(&delivered), "delivered %d", atomic_load(&delivered));
    teardown_reg(s, outcome);
}

/* set_dropped_handler (snapshot rebuild) */
static int run_set_dropped(state_t *s)
{
    s->aux = mca_base_event_set_dropped_handler(s->reg, drop_cb);
    return OPAL_SUCCESS != s->aux;
}

static void teardown_set_dropped(state_t *s, int outcome)
{
    CHECK(outcome ? OPAL_ERR_OUT_OF_RESOURCE == s->aux : true, "set_dropped rc %d", s->aux);
    CHECK(outcome ? !mca_base_event_active(ev) : mca_base_event_active(ev), "gate wrong");
    teardown_reg(s, outcome);
}

/* handle/callback set_info and get_info */
static int run_set_info(state_t *s)
{
    opal_info_t *got = NULL;
    int rc = mca_base_event_handle_set_info(s->reg, s->info);
    if (OPAL_SUCCESS == rc) {
        rc = mca_base_event_callback_set_info(s->reg, MCA_BASE_EVENT_CB_REQUIRE_NONE, s->info);
    }
    if (OPAL_SUCCESS == rc) {
        rc = mca_base_event_callback_get_info(s->reg, MCA_BASE_EVENT_CB_REQUIRE_NONE, &got);
        if (OPAL_SUCCESS == rc) {
            OBJ_RELEASE(got);
        } else {
            CHECK(NULL == got, "info returned on failure");
            if (NULL != got) {
                OBJ_RELEASE(got);
            }
        }
    }
    s->aux = rc;
    return OPAL_SUCCESS != rc;
}

static void teardown_set_info(state_t *s, int outcome)
{
    CHECK(outcome ? OPAL_ERR_OUT_OF_RESOURCE == s->aux : true, "set_info rc %d", s->aux);
    teardown_reg(s, outcome);
}

/* raise + flush + free: delivered + dropped == raised, free callback once */
static int run_raise(state_t *s)
{
    evt_test_payload_t p = {3, 4};
    reset_counts();
    for (int i = 0; i < 4; ++i) {
        (void) mca_base_event_raise(ev, src, &p);
    }
    (void) ompi_evt_base_flush();
    s->aux = mca_base_event_handle_free(s->reg, NULL, free_cb);
    return OPAL_SUCCESS != s->aux;
}

static void teardown_raise(state_t *s, int outcome)
{
    if (outcome) {
        /* out of memory at the free: nothing changed, the handle is live */
        CHECK(OPAL_ERR_OUT_OF_RESOURCE == s->aux, "handle_free rc %d", s->aux);
        CHECK(mca_base_event_handle_is_valid(s->reg), "handle gone after a failed free");
        CHECK(0 == atomic_load(&free_calls), "free callback ran on a failed free");
        CHECK(OPAL_SUCCESS == mca_base_event_handle_free(s->reg, NULL, free_cb), "free again");
    }
    CHECK(4 == atomic_load(&delivered) + atomic_load(&dropped), "delivered %d + dropped %lld",
          atomic_load(&delivered), (long long) atomic_load(&dropped));
    CHECK(1 == atomic_load(&free_calls), "free callbacks %d", atomic_load(&free_calls));
    s->reg = NULL;
    if (NULL != s->info) {
        OBJ_RELEASE(s->info);
    }
    free_other(s);
}

/* handle_free of a registration with a callback (snapshot rebuild fails:
 * freed still stops delivery) */
static int run_handle_free(state_t *s)
{
    reset_counts();
    s->aux = mca_base_event_handle_free(s->reg, NULL, free_cb);
    return OPAL_SUCCESS != s->aux;
}

static void teardown_handle_free(state_t *s, int outcome)
{
    evt_test_payload_t p = {5, 6};
    if (outcome) {
        CHECK(OPAL_ERR_OUT_OF_RESOURCE == s->aux, "handle_free rc %d", s->aux);
        CHECK(mca_base_event_handle_is_valid(s->reg), "handle gone after a failed free");
        (void) mca_base_event_raise(ev, src, &p);
        CHECK(1 == atomic_load(&delivered), "no delivery after a failed free");
        CHECK(0 == atomic_load(&free_calls), "free callback ran on a failed free");
        CHECK(OPAL_SUCCESS == mca_base_event_handle_free(s->reg, NULL, free_cb), "free again");
        atomic_store(&delivered, 0);
    }
    CHECK(1 == atomic_load(&free_calls), "free callbacks %d", atomic_load(&free_calls));
    CHECK(!mca_base_event_handle_is_valid(s->reg), "valid after free");
    (void) mca_base_event_raise(ev, src, &p);
    CHECK(0 == atomic_load(&delivered), "delivered after free");
    CHECK(OPAL_ERR_BAD_PARAM == mca_base_event_handle_free(s->reg, NULL, free_cb), "double free");
    CHECK(1 == atomic_load(&free_calls), "free callbacks %d", atomic_load(&free_calls));
    s->reg = NULL;
    if (NULL != s->info) {
        OBJ_RELEASE(s->info);
    }
    free_other(s);
}

/* a sink registered and drained */
static atomic_int sink_runs = 0;
static void sink_fn(void *ctx)
{
    (void) ctx;
    atomic_fetch_add(&sink_runs, 1);
}

static int run_sink(state_t *s)
{
    s->aux = mca_base_event_sink_register(sink_fn, NULL);
    if (OPAL_SUCCESS == s->aux) {
        (void) mca_base_event_flush();
    }
    return OPAL_SUCCESS != s->aux;
}

static void teardown_sink(state_t *s, int outcome)
{
    if (outcome) {
        CHECK(OPAL_ERR_OUT_OF_RESOURCE == s->aux, "sink_register rc %d", s->aux);
        return;
    }
    atomic_store(&sink_runs, 0);
    mca_base_event_drain_sinks();
    CHECK(1 == atomic_load(&sink_runs), "sink ran %d", atomic_load(&sink_runs));
    CHECK(OPAL_SUCCESS == mca_base_event_sink_unregister(sink_fn, NULL), "unregister");
}

/* the MPI_T bindings: handle_alloc + register_callback + dropped handler +
 * handle_free through MPI_T_event_* */
static atomic_int mpit_delivered = 0, mpit_freed = 0;
static void mpit_cb(MPI_T_event_instance i, MPI_T_event_registration r, MPI_T_cb_safety s, void *ud)
{
    (void) i, (void) r, (void) s, (void) ud;
    atomic_fetch_add(&mpit_delivered, 1);
}
static void mpit_free_cb(MPI_T_event_registration r, MPI_T_cb_safety s, void *ud)
{
    (void) r, (void) s, (void) ud;
    atomic_fetch_add(&mpit_freed, 1);
}
static void mpit_drop_cb(MPI_Count n, MPI_T_event_registration r, int si, MPI_T_cb_safety s,
                         void *ud)
{
    (void) r, (void) si, (void) s, (void) ud;
    atomic_fetch_add(&dropped, (long long) n);
}

static int run_mpit_handle(state_t *s)
{
    MPI_T_event_registration r = NULL;
    int rc = MPI_T_event_handle_alloc(ev->index, NULL, MPI_INFO_NULL, &r);
    if (MPI_SUCCESS != rc) {
        CHECK(MPI_T_ERR_MEMORY == rc || MPI_T_ERR_OUT_OF_HANDLES == rc, "alloc rc %d", rc);
        s->aux = -1;
        return 1;
    }
    s->reg = r;
    rc = MPI_T_event_register_callback(r, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, NULL, mpit_cb);
    if (MPI_SUCCESS != rc) {
        CHECK(MPI_T_ERR_MEMORY == rc, "register_callback rc %d", rc);
        s->aux = 1;
        return 1;
    }
    rc = MPI_T_event_set_dropped_handler(r, mpit_drop_cb);
    if (MPI_SUCCESS != rc) {
        CHECK(MPI_T_ERR_MEMORY == rc, "set_dropped_handler rc %d", rc);
        s->aux = 2;
        return 1;
    }
    s->aux = 3;
    return 0;
}

static void teardown_mpit_handle(state_t *s, int outcome)
{
    evt_test_payload_t p = {7, 8};
    atomic_store(&mpit_delivered, 0);
    atomic_store(&mpit_freed, 0);
    (void) mca_base_event_raise(ev, src, &p);
    /* stage: -1 alloc failed, 1 register_callback failed, 2 set_dropped
     * failed (the callback is in), 3 all in */
    CHECK((s->aux >= 2 ? 1 : 0) == atomic_load(&mpit_delivered), "delivered %d (stage %d)",
          atomic_load(&mpit_delivered), s->aux);
    if (NULL != s->reg) {
        CHECK(MPI_SUCCESS == MPI_T_event_handle_free(s->reg, NULL, mpit_free_cb), "mpit free");
        CHECK(1 == atomic_load(&mpit_freed), "mpit free callbacks %d", atomic_load(&mpit_freed));
    }
    CHECK(!mca_base_event_active(ev), "gate still open");
}

/* engine init/finalize cycle (nested: a reference is held by the fixture) */
static int run_engine_cycle(state_t *s)
{
    s->aux = mca_base_event_init();
    if (OPAL_SUCCESS != s->aux) {
        return 1;
    }
    s->aux = mca_base_event_finalize();
    return OPAL_SUCCESS != s->aux;
}

static void teardown_engine_cycle(state_t *s, int outcome)
{
    CHECK(!outcome || OPAL_ERR_OUT_OF_RESOURCE == s->aux, "engine cycle rc %d", s->aux);
}

static const scenario_t scenarios[] = {
    {"source_register", true, setup_none, run_source_register, teardown_source_register},
    {"event_register", true, setup_none, run_event_register, teardown_event_register},
    {"handle_alloc", true, setup_info, run_handle_alloc, teardown_handle_alloc},
    {"register_callback", true, setup_reg_nocb, run_register_callback, teardown_register_callback},
    {"set_dropped_handler", true, setup_reg_nocb, run_set_dropped, teardown_set_dropped},
    {"set_info", true, setup_reg, run_set_info, teardown_set_info},
    {"raise_flush_free", true, setup_reg, run_raise, teardown_raise},
    {"handle_free", true, setup_reg, run_handle_free, teardown_handle_free},
    {"sink_drain", true, setup_none, run_sink, teardown_sink},
    {"mpit_handle", false, setup_none, run_mpit_handle, teardown_mpit_handle},
    {"engine_cycle", true, setup_none, run_engine_cycle, teardown_engine_cycle},
};

/* Run @p sc for N = 1.. until no failure is injected; then once more. */
static void run_scenario(const scenario_t *sc, bool deep)
{
    uint64_t n;
    int injected_runs = 0;

    for (n = 1;; ++n) {
        state_t st;
        int outcome;
        bool inj;

        memset(&st, 0, sizeof(st));
        sc->setup(&st);
        evt_failalloc_any_caller(deep);
        evt_failalloc_arm(n);
        outcome = sc->run(&st);
        (void) evt_failalloc_disarm();
        inj = evt_failalloc_injected();
        evt_failalloc_any_caller(false);
        sc->teardown(&st, outcome);
        ++total_runs;
        if (!inj) {
            CHECK(0 == outcome, "%s: failed with no failure injected (N=%llu)", sc->name,
                  (unsigned long long) n);
            break;
        }
        ++injected_runs;
        ++total_injected;
        /* the engine stays usable: the same operation, no failure */
        memset(&st, 0, sizeof(st));
        sc->setup(&st);
        outcome = sc->run(&st);
        sc->teardown(&st, outcome);
        CHECK(0 == outcome, "%s: not usable after a failure at N=%llu", sc->name,
              (unsigned long long) n);
        if (n > 10000) {
            CHECK(false, "%s: no end to allocations", sc->name);
            break;
        }
    }
    if (n > max_n) {
        max_n = n;
    }
    printf("  %-20s %-4s N=1..%llu, %d injected failures\n", sc->name, deep ? "deep" : "ours",
           (unsigned long long) n, injected_runs);
}

/* MPI_T_init_thread / MPI_T_finalize from zero: the framework opens, the
 * sync component is selected, the producers register. */
static void run_mpit_cycles(void)
{
    uint64_t n;
    int injected_runs = 0, provided;

    for (n = 1;; ++n) {
        int rc, rc2 = MPI_SUCCESS;
        bool inj;

        evt_failalloc_arm(n);
        rc = MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided);
        if (MPI_SUCCESS == rc) {
            rc2 = MPI_T_finalize();
        }
        (void) evt_failalloc_disarm();
        inj = evt_failalloc_injected();
        ++total_runs;
        CHECK(MPI_SUCCESS == rc || MPI_T_ERR_MEMORY == rc, "MPI_T_init_thread rc %d", rc);
        CHECK(MPI_SUCCESS == rc2, "MPI_T_finalize rc %d", rc2);
        CHECK(0 == ompi_evt_refcount(), "evt reference left: %d", ompi_evt_refcount());
        /* usable afterwards: a full cycle with a delivery */
        rc = MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided);
        CHECK(MPI_SUCCESS == rc, "MPI_T_init_thread after N=%llu: %d", (unsigned long long) n, rc);
        if (MPI_SUCCESS == rc) {
            int num = 0;
            CHECK(MPI_SUCCESS == MPI_T_event_get_num(&num) && 0 < num, "no events: %d", num);
            CHECK(ompi_evt_base_is_open(), "framework not open after N=%llu",
                  (unsigned long long) n);
            CHECK(MPI_SUCCESS == MPI_T_finalize(), "finalize");
        }
        if (!inj) {
            CHECK(MPI_SUCCESS == rc, "MPI_T cycle failed with no failure injected");
            break;
        }
        ++injected_runs;
        ++total_injected;
        if (n > 10000) {
            CHECK(false, "MPI_T cycle: no end to allocations");
            break;
        }
    }
    if (n > max_n) {
        max_n = n;
    }
    printf("  %-20s %-4s N=1..%llu, %d injected failures\n", "mpit_init_finalize", "ours",
           (unsigned long long) n, injected_runs);
}

int main(int argc, char **argv)
{
    const char *mode = 1 < argc ? argv[1] : getenv("EVT_FAILALLOC_MODE");
    bool deep = NULL != mode && 0 == strcmp(mode, "deep");
    int provided, si, ei;
    const mca_base_var_type_t types[2] = {MCA_BASE_VAR_TYPE_INT32_T, MCA_BASE_VAR_TYPE_UINT64_T};
    const ptrdiff_t offsets[2] = {0, 8};
    int nsc = 0;

    setvbuf(stdout, NULL, _IONBF, 0);
    /* MPI_T cycles first, from a process where nothing is up yet */
    run_mpit_cycles();
    ++nsc;

    if (MPI_SUCCESS != MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided)) {
        fprintf(stderr, "MPI_T_init_thread failed\n");
        return 1;
    }
    si = mca_base_event_source_register("fault.src", "fault source", MCA_BASE_EVENT_SOURCE_ORDERED,
                                        1000000000, OPAL_COUNT_MAX, NULL, true, NULL);
    CHECK(0 <= si && OPAL_SUCCESS == mca_base_event_source_get_by_index(si, &src), "source");
    ei = mca_base_event_register("ompi", "fault", NULL, "main", "fault event", OPAL_INFO_LVL_4, 2,
                                 types, offsets, NULL, MCA_BASE_VAR_BIND_NO_OBJECT, 0, src, NULL);
    CHECK(0 <= ei && OPAL_SUCCESS == mca_base_event_get_by_index(ei, &ev), "event");
    if (NULL == src || NULL == ev) {
        return 1;
    }
    for (size_t i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); ++i) {
        run_scenario(&scenarios[i], false);
        ++nsc;
        if (deep && scenarios[i].deep_ok) {
            run_scenario(&scenarios[i], true);
            ++nsc;
        }
    }
    CHECK(MPI_SUCCESS == MPI_T_finalize(), "MPI_T_finalize");
    printf("%d scenario runs, %d operations, %d with an injected failure, N up to %llu\n", nsc,
           total_runs, total_injected, (unsigned long long) max_n);
    return evt_test_report(NULL);
}
