/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* The test kit for evt components: the counting, ordering,
 * threading, signal, overflow, self-free and flush behaviour every delivery
 * component must have, run against the component named on the command line
 * through the real framework (the component is loaded from the component
 * path and selected by name, as --mca evt NAME does), from the tool's side
 * (MPI_T_*) and the producer's (mca_base_event_*).
 *
 *   ompi-evt-check-component NAME [--expect PROPS] [--path DIR] [--mca K V]...
 *     NAME     the component (OMPI_MCA_evt=NAME)
 *     PROPS    the optional properties it declares, comma-separated, from
 *              deferred, exports, async-signal ("none" for none): checked
 *              against what the module declares (its evtm_flags), so a
 *              component cannot lose one silently
 *     DIR      put DIR first in the component path (an out-of-tree
 *              component)
 *     K V      an MCA parameter the component needs to be selected or to
 *              run (OMPI_MCA_K=V), e.g. --mca evt_mine_port 5000
 * Installed (bin), so that an author tests a component against an
 * installed ompi-evt without its source tree; make check-component and the
 * test kit's tests run it from the build tree.
 *
 * What is generic runs for every component; a property adds its tests:
 *   deferred      a raise does not call back; a drain point does
 *   not deferred  the callback runs inside the raise
 *   exports       an event's gate is open with nobody listening
 *   async-signal  raises from a signal handler are recorded and delivered
 *                 (otherwise they are refused and counted dropped)
 * Every test checks delivered + dropped == raised for each registration.
 * Prints "ok"/"FAIL" per test and "N passed, M failed". */
#include "ompi_config.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpi.h"
#include "ompi/mca/evt/base/base.h"
#include "opal/mca/base/mca_base_event.h"
#include "opal/mca/base/mca_base_event_delivery.h"
#include "test/evt_test_check.h"

typedef struct {
    uint64_t seq;
    uint64_t who;
} kit_payload_t;

/* What one registration saw. */
typedef struct {
    atomic_long delivered;
    atomic_long dropped;
    atomic_int freed;
    atomic_int in_raise;     /* delivered while its raise was running */
    atomic_int order_errors; /* per producer: seq not increasing; timestamps decreasing */
    uint64_t next_seq[16];
    MPI_Count last_ts;
    bool free_self; /* free the handle from the first callback */
    MPI_T_event_registration handle;
} kit_sink_t;

static bool deferred, exports, async_signal;
static mca_base_event_t *kit_ev;
static int kit_index;
static _Thread_local int raising; /* this thread is inside a raise */

static void kit_free_cb(MPI_T_event_registration h, MPI_T_cb_safety s, void *ud)
{
    atomic_fetch_add(&((kit_sink_t *) ud)->freed, 1);
}

static void kit_cb(MPI_T_event_instance inst, MPI_T_event_registration h, MPI_T_cb_safety s,
                   void *ud)
{
    kit_sink_t *k = ud;
    kit_payload_t p;
    MPI_Count ts = 0;

    (void) MPI_T_event_copy(inst, &p);
    (void) MPI_T_event_get_timestamp(inst, &ts);
    if (raising) {
        atomic_fetch_add(&k->in_raise, 1);
    }
    if (p.who < 16) {
        /* one thread produces each who; delivery keeps its order (drops
         * may leave gaps) */
        if (p.seq < k->next_seq[p.who]) {
            atomic_fetch_add(&k->order_errors, 1);
        }
        k->next_seq[p.who] = p.seq + 1;
    }
    if (0 == p.who) {
        /* one producer thread: an ORDERED source never goes back */
        if (ts < k->last_ts) {
            atomic_fetch_add(&k->order_errors, 1);
        }
        k->last_ts = ts;
    }
    atomic_fetch_add(&k->delivered, 1);
    if (k->free_self && 1 == atomic_load(&k->delivered)) {
        (void) MPI_T_event_handle_free(h, k, kit_free_cb);
    }
}

static void kit_dropped(MPI_Count n, MPI_T_event_registration h, int si, MPI_T_cb_safety s,
                        void *ud)
{
    atomic_fetch_add(&((kit_sink_t *) ud)->dropped, (long) n);
}

static void sink_open(kit_sink_t *k, MPI_T_cb_safety level)
{
    memset(k, 0, sizeof(*k));
    CHECK(MPI_SUCCESS == MPI_T_event_handle_alloc(kit_index, NULL, MPI_INFO_NULL, &k->handle),
          "handle_alloc");
    CHECK(MPI_SUCCESS == MPI_T_event_register_callback(k->handle, level, MPI_INFO_NULL, k, kit_cb),
          "register_callback");
    CHECK(MPI_SUCCESS == MPI_T_event_set_dropped_handler(k->handle, kit_dropped),
          "set_dropped_handler");
}

/* A drain point: MPI_T_source_get_timestamp delivers what is pending. */
static void drain_point(void)
{
    MPI_Count ts;
    int src = kit_ev->source->index;
    (void) MPI_T_source_get_timestamp(src, &ts);
}

static void sink_close(kit_sink_t *k, long raised, const char *what)
{
    drain_point();
    if (0 == atomic_load(&k->freed)) {
        CHECK(MPI_SUCCESS == MPI_T_event_handle_free(k->handle, k, kit_free_cb), "%s: free", what);
    }
    drain_point();
    CHECK(1 == atomic_load(&k->freed), "%s: free callback called %d times", what,
          atomic_load(&k->freed));
    CHECK(atomic_load(&k->delivered) + atomic_load(&k->dropped) == raised,
          "%s: delivered %ld + dropped %ld != raised %ld", what, atomic_load(&k->delivered),
          atomic_load(&k->dropped), raised);
    CHECK(0 == atomic_load(&k->order_errors), "%s: %d order errors", what,
          atomic_load(&k->order_errors));
}

static void kit_raise(uint64_t seq, uint64_t who)
{
    kit_payload_t p = {.seq = seq, .who = who};
    raising = 1;
    (void) mca_base_event_raise(kit_ev, NULL, &p);
    raising = 0;
}

/* ---- the tests ---- */

static void test_counting(void)
{
    kit_sink_t k;
    sink_open(&k, MPI_T_CB_REQUIRE_NONE);
    for (int i = 0; i < 1000; ++i) {
        kit_raise((uint64_t) i, 0);
        if (0 == i % 100) {
            drain_point();
        }
    }
    drain_point();
    CHECK(1000 == atomic_load(&k.delivered), "1000 raised with drains, %ld delivered",
          atomic_load(&k.delivered));
    sink_close(&k, 1000, "counting");
}

static void test_flush(void)
{
    kit_sink_t k;
    sink_open(&k, MPI_T_CB_REQUIRE_NONE);
    kit_raise(0, 0);
    if (deferred) {
        CHECK(0 == atomic_load(&k.delivered), "deferred: delivered inside the raise");
        drain_point();
        CHECK(1 == atomic_load(&k.delivered), "deferred: %ld delivered after a drain point",
              atomic_load(&k.delivered));
    } else {
        CHECK(1 == atomic_load(&k.delivered) && 1 == atomic_load(&k.in_raise),
              "inline: the callback did not run inside the raise");
    }
    sink_close(&k, 1, "flush");
}

static void test_ordering(void)
{
    kit_sink_t k;
    sink_open(&k, MPI_T_CB_REQUIRE_NONE);
    for (int i = 0; i < 5000; ++i) {
        kit_raise((uint64_t) i, 0);
        if (0 == i % 512) {
            drain_point();
        }
    }
    sink_close(&k, 5000, "ordering");
}

#define KIT_THREADS    4
#define KIT_PER_THREAD 3000
static atomic_int go;
static void *raiser(void *arg)
{
    uint64_t who = (uint64_t) (uintptr_t) arg;
    while (!atomic_load(&go)) {
    }
    for (uint64_t i = 0; i < KIT_PER_THREAD; ++i) {
        kit_raise(i, who);
    }
    return NULL;
}

static void test_threading(void)
{
    pthread_t t[KIT_THREADS];
    kit_sink_t k;

    /* THREAD_SAFE: callbacks may run on any thread (a drain on another) */
    sink_open(&k, MPI_T_CB_REQUIRE_THREAD_SAFE);
    atomic_store(&go, 0);
    for (int i = 0; i < KIT_THREADS; ++i) {
        CHECK(0 == pthread_create(&t[i], NULL, raiser, (void *) (uintptr_t) (i + 1)), "create");
    }
    atomic_store(&go, 1);
    for (int r = 0; r < 200; ++r) {
        drain_point();
        usleep(100);
    }
    for (int i = 0; i < KIT_THREADS; ++i) {
        (void) pthread_join(t[i], NULL);
    }
    sink_close(&k, KIT_THREADS * KIT_PER_THREAD, "threading");
}

static atomic_long signal_raised;
static void kit_signal(int sig)
{
    kit_payload_t p = {.seq = (uint64_t) atomic_load(&signal_raised), .who = 15};
    (void) mca_base_event_raise_ctx(kit_ev, NULL, NULL, &p,
                                    MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE);
    atomic_fetch_add(&signal_raised, 1);
}

static void test_signal(void)
{
    struct sigaction sa, old;
    kit_sink_t k;

    sink_open(&k, MPI_T_CB_REQUIRE_NONE);
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = kit_signal;
    (void) sigemptyset(&sa.sa_mask);
    (void) sigaction(SIGUSR1, &sa, &old);
    atomic_store(&signal_raised, 0);
    for (int i = 0; i < 200; ++i) {
        (void) raise(SIGUSR1);
        if (0 == i % 50) {
            drain_point();
        }
    }
    (void) sigaction(SIGUSR1, &old, NULL);
    drain_point();
    if (async_signal) {
        CHECK(200 == atomic_load(&k.delivered), "async-signal: %ld of 200 delivered",
              atomic_load(&k.delivered));
    } else {
        CHECK(0 == atomic_load(&k.delivered) && 200 == atomic_load(&k.dropped),
              "no async-signal: %ld delivered, %ld dropped of 200 (all must be refused)",
              atomic_load(&k.delivered), atomic_load(&k.dropped));
    }
    sink_close(&k, 200, "signal");
}

static void test_overflow(void)
{
    const long n = 300000;
    kit_sink_t k;

    sink_open(&k, MPI_T_CB_REQUIRE_NONE);
    for (long i = 0; i < n; ++i) {
        kit_raise((uint64_t) i, 0); /* no drain point: whatever the rings hold */
    }
    drain_point();
    printf("overflow: %ld raised without a drain point: %ld delivered, %ld dropped\n", n,
           atomic_load(&k.delivered), atomic_load(&k.dropped));
    sink_close(&k, n, "overflow");
}

static void test_self_free(void)
{
    kit_sink_t k;

    sink_open(&k, MPI_T_CB_REQUIRE_NONE);
    k.free_self = true;
    for (int i = 0; i < 10; ++i) {
        kit_raise((uint64_t) i, 0);
    }
    drain_point();
    CHECK(1 == atomic_load(&k.freed), "the callback freed its handle: free callback %d times",
          atomic_load(&k.freed));
    CHECK(1 == atomic_load(&k.delivered), "%ld delivered after the handle freed itself",
          atomic_load(&k.delivered));
    /* inline: the raises after the free reach nobody; deferred: all ten
     * were raised while registered, and those pending at the free were
     * counted dropped (reported before the free callback) */
    CHECK((deferred ? 10 : 1) == atomic_load(&k.delivered) + atomic_load(&k.dropped),
          "delivered %ld + dropped %ld != %d raised while registered", atomic_load(&k.delivered),
          atomic_load(&k.dropped), deferred ? 10 : 1);
    kit_raise(10, 0);
    drain_point();
    CHECK(1 == atomic_load(&k.delivered), "a raise after the free was delivered");
}

static void test_exports(void)
{
    /* nobody listens to kit_ev here */
    bool open = mca_base_event_active(kit_ev);
    CHECK(open == exports, "gate %s with nobody listening, exports %d", open ? "open" : "shut",
          exports);
}

static bool has_prop(const char *list, const char *p)
{
    size_t l = strlen(p);
    for (const char *s = list; NULL != (s = strstr(s, p)); s += l) {
        if ((s == list || ',' == s[-1]) && (',' == s[l] || '\0' == s[l])) {
            return true;
        }
    }
    return false;
}

int main(int argc, char **argv)
{
    const mca_base_var_type_t types[2] = {MCA_BASE_VAR_TYPE_UINT64_T, MCA_BASE_VAR_TYPE_UINT64_T};
    const ptrdiff_t offsets[2] = {0, 8};
    const char *name = NULL, *expect = NULL, *path = NULL;
    char env[8192];
    uint32_t flags;
    int provided, si;
    mca_base_event_source_t *src = NULL;

    for (int i = 1; i < argc; ++i) {
        if (0 == strcmp(argv[i], "--expect") && i + 1 < argc) {
            expect = argv[++i];
        } else if (0 == strcmp(argv[i], "--path") && i + 1 < argc) {
            path = argv[++i];
        } else if (0 == strcmp(argv[i], "--mca") && i + 2 < argc) {
            char var[512];
            if (sizeof(var) <= (size_t) snprintf(var, sizeof(var), "OMPI_MCA_%s", argv[i + 1])
                || '\0' == argv[i + 1][0] || NULL != strchr(argv[i + 1], '=')) {
                fprintf(stderr, "ompi-evt-check-component: --mca %s: not a parameter name\n",
                        argv[i + 1]);
                return 2;
            }
            setenv(var, argv[i + 2], 1);
            i += 2;
        } else if (0 == strcmp(argv[i], "--help") || 0 == strcmp(argv[i], "-h")) {
            printf("usage: ompi-evt-check-component NAME [--expect PROPS] [--path DIR] "
                   "[--mca K V]...\n"
                   "  Runs the generic tests every evt component must pass against the\n"
                   "  component NAME, loaded and selected by the real framework.\n"
                   "  --expect PROPS  the properties it declares: deferred, exports,\n"
                   "                  async-signal, comma-separated, or none\n"
                   "  --path DIR      put DIR first in the component path\n"
                   "  --mca K V       set the MCA parameter K (as --mca K V of mpirun)\n"
                   "  Exit 0: every test passed; 1: a test failed; 2: usage.\n");
            return 0;
        } else if (NULL == name && '-' != argv[i][0]) {
            name = argv[i];
        } else {
            name = NULL;
            break;
        }
    }
    if (NULL == name) {
        fprintf(stderr, "usage: ompi-evt-check-component NAME [--expect PROPS] [--path DIR] "
                        "[--mca K V]... (--help)\n");
        return 2;
    }
    setenv("OMPI_MCA_evt", name, 1);
    if (NULL != path) {
        const char *old = getenv("OMPI_MCA_mca_base_component_path");
        (void) snprintf(env, sizeof(env), "%s%s%s", path, old ? ":" : "", old ? old : "");
        setenv("OMPI_MCA_mca_base_component_path", env, 1);
    }
    if (MPI_SUCCESS != MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided)) {
        printf("FAIL: MPI_T_init_thread\n0 passed, 1 failed\n");
        return 1;
    }
    CHECK(NULL != ompi_evt_base.name && 0 == strcmp(ompi_evt_base.name, name),
          "component %s selected, %s asked", ompi_evt_base.name ? ompi_evt_base.name : "none",
          name);
    if (NULL == ompi_evt_base.name || 0 != strcmp(ompi_evt_base.name, name)) {
        return evt_test_report(NULL);
    }
    flags = mca_base_event_delivery_flags();
    deferred = 0 != (flags & MCA_BASE_EVENT_DELIVERY_DEFERRED);
    exports = 0 != (flags & MCA_BASE_EVENT_DELIVERY_EXPORTS);
    async_signal = 0 != (flags & MCA_BASE_EVENT_DELIVERY_ASYNC_SIGNAL_SAFE);
    printf("component %s: deferred %d, exports %d, async-signal %d\n", name, deferred, exports,
           async_signal);
    if (NULL != expect) {
        CHECK(has_prop(expect, "deferred") == deferred && has_prop(expect, "exports") == exports
                  && has_prop(expect, "async-signal") == async_signal,
              "declared properties differ from the expected %s", expect);
    }
    si = mca_base_event_source_register("ompi.kit.source", "test kit source",
                                        MCA_BASE_EVENT_SOURCE_ORDERED, 1000000000, OPAL_COUNT_MAX,
                                        NULL, true, NULL);
    CHECK(0 <= si && OPAL_SUCCESS == mca_base_event_source_get_by_index(si, &src), "source");
    kit_index = mca_base_event_register_ptr("ompi", "kit", NULL, "event", "test kit event",
                                            OPAL_INFO_LVL_4, 2, types, offsets, NULL,
                                            MCA_BASE_VAR_BIND_NO_OBJECT, 0, src, NULL, &kit_ev);
    CHECK(0 <= kit_index, "event");
    if (0 > kit_index) {
        return evt_test_report(NULL);
    }
    test_exports();
    test_flush();
    test_counting();
    test_ordering();
    test_threading();
    test_signal();
    test_self_free();
    test_overflow();
    (void) MPI_T_finalize();
    return evt_test_report(NULL);
}
