/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file Soak (make soak; never in make check): 8 threads raising,
 * registering, freeing and draining for SOAK_SECONDS (default 600).
 *
 * Each thread owns registrations bound to its own object, so the number of
 * instances raised for each registration is known exactly (the raises of
 * its owner between its alloc and its free). Other threads' registrations
 * of the same event type live in the same snapshots, so rebuilds, retires
 * and grace periods race across threads all the time. A quarter of the
 * raises are in SIGNAL context (refused by sync: counted drops). At each
 * free: delivered + dropped == raised, the free callback exactly once.
 * Prints the totals and "N passed, M failed".
 */

#include "opal_config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "opal/mca/base/mca_base_event.h"
#include "opal/mca/base/mca_base_event_delivery.h"
#include "opal/runtime/opal.h"

#define NTHREADS 8
#define REGS_PER_THREAD 4

typedef struct {
    mca_base_event_registration_t *handle;
    uint64_t raised;
    atomic_ullong delivered, dropped;
    atomic_int freed;
} soak_reg_t;

static mca_base_event_t *ev;
static mca_base_event_source_t *src;
static atomic_bool stop = false;
static atomic_ullong t_raised, t_delivered, t_dropped, t_regs, t_free_cbs, t_bad;

static void cb(mca_base_event_record_t *i, mca_base_event_registration_t *r,
               mca_base_event_cb_safety_t s, void *ud)
{
    soak_reg_t *sr = ud;
    atomic_fetch_add_explicit(&sr->delivered, 1, memory_order_relaxed);
}

static void drop_cb(opal_count_t n, mca_base_event_registration_t *r, int si,
                    mca_base_event_cb_safety_t s, void *ud)
{
    soak_reg_t *sr = ud;
    atomic_fetch_add_explicit(&sr->dropped, (unsigned long long) n, memory_order_relaxed);
}

static void free_cb(mca_base_event_registration_t *r, mca_base_event_cb_safety_t s, void *ud)
{
    soak_reg_t *sr = ud;
    atomic_fetch_add(&sr->freed, 1);
}

static int reg_new(soak_reg_t *sr, const void *obj)
{
    memset(sr, 0, sizeof(*sr));
    if (OPAL_SUCCESS != mca_base_event_handle_alloc(ev, obj, NULL, &sr->handle)) {
        return -1;
    }
    (void) mca_base_event_register_callback(sr->handle, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL, sr,
                                            cb);
    (void) mca_base_event_set_dropped_handler(sr->handle, drop_cb);
    atomic_fetch_add(&t_regs, 1);
    return 0;
}

static void reg_free(soak_reg_t *sr)
{
    uint64_t d, x;
    while (OPAL_SUCCESS != mca_base_event_handle_free(sr->handle, sr, free_cb)) {
    }
    /* sync delivery: nothing of ours is in flight once free returned, but
     * the free callback may be left to another thread's grace path */
    for (int i = 0; 1 != atomic_load(&sr->freed) && i < 1000000; ++i) {
        (void) mca_base_event_flush();
    }
    d = atomic_load(&sr->delivered);
    x = atomic_load(&sr->dropped);
    if (d + x != sr->raised || 1 != atomic_load(&sr->freed)) {
        atomic_fetch_add(&t_bad, 1);
        fprintf(stderr, "registration: raised %llu delivered %llu dropped %llu free cbs %d\n",
                (unsigned long long) sr->raised, (unsigned long long) d,
                (unsigned long long) x, atomic_load(&sr->freed));
    }
    atomic_fetch_add(&t_raised, sr->raised);
    atomic_fetch_add(&t_delivered, d);
    atomic_fetch_add(&t_dropped, x);
    atomic_fetch_add(&t_free_cbs, (unsigned long long) atomic_load(&sr->freed));
}

static void *worker(void *arg)
{
    static soak_reg_t regs[NTHREADS][REGS_PER_THREAD];
    int me = (int) (intptr_t) arg;
    soak_reg_t *mine = regs[me];
    unsigned seed = 12345u + (unsigned) me;
    char obj; /* this thread's bound object */
    struct {
        int32_t a;
        uint64_t b;
    } p = {me, 0};

    for (int i = 0; i < REGS_PER_THREAD; ++i) {
        (void) reg_new(&mine[i], &obj);
    }
    while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
        int op = rand_r(&seed) % 100;
        if (op < 80) {
            bool signal_ctx = 0 == rand_r(&seed) % 4;
            p.b++;
            (void) mca_base_event_raise_ctx(ev, src, &obj, &p,
                                            signal_ctx ? MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE
                                                       : MCA_BASE_EVENT_CB_REQUIRE_NONE);
            for (int i = 0; i < REGS_PER_THREAD; ++i) {
                if (NULL != mine[i].handle) {
                    mine[i].raised++;
                }
            }
        } else if (op < 90) {
            int i = rand_r(&seed) % REGS_PER_THREAD;
            if (NULL != mine[i].handle) {
                reg_free(&mine[i]);
                mine[i].handle = NULL;
            }
            if (0 != reg_new(&mine[i], &obj)) {
                mine[i].handle = NULL;
            }
        } else {
            (void) mca_base_event_flush();
        }
    }
    for (int i = 0; i < REGS_PER_THREAD; ++i) {
        if (NULL != mine[i].handle) {
            reg_free(&mine[i]);
        }
    }
    return NULL;
}

int main(void)
{
    const mca_base_var_type_t types[2] = {MCA_BASE_VAR_TYPE_INT32_T, MCA_BASE_VAR_TYPE_UINT64_T};
    const ptrdiff_t offsets[2] = {0, 8};
    const char *env = getenv("SOAK_SECONDS");
    int seconds = NULL != env ? atoi(env) : 600;
    pthread_t th[NTHREADS];
    int si, ei;

    if (OPAL_SUCCESS != opal_init_util(NULL, NULL) || OPAL_SUCCESS != mca_base_event_init()) {
        fprintf(stderr, "init failed\n");
        return 1;
    }
    si = mca_base_event_source_register("soak.src", "soak", MCA_BASE_EVENT_SOURCE_ORDERED,
                                        1000000000, OPAL_COUNT_MAX, NULL, true, NULL);
    if (0 > si || OPAL_SUCCESS != mca_base_event_source_get_by_index(si, &src)) {
        fprintf(stderr, "source registration failed\n");
        return 1;
    }
    ei = mca_base_event_register("ompi", "soak", NULL, "ev", "soak event", OPAL_INFO_LVL_4, 2,
                                 types, offsets, NULL, MCA_BASE_VAR_BIND_MPI_COMM, 0, src, NULL);
    if (0 > ei || OPAL_SUCCESS != mca_base_event_get_by_index(ei, &ev)) {
        fprintf(stderr, "registration failed\n");
        return 1;
    }
    src = ev->source;
    printf("soak: %d threads, %d s\n", NTHREADS, seconds);
    for (int i = 0; i < NTHREADS; ++i) {
        pthread_create(&th[i], NULL, worker, (void *) (intptr_t) i);
    }
    sleep((unsigned) seconds);
    atomic_store(&stop, true);
    for (int i = 0; i < NTHREADS; ++i) {
        pthread_join(th[i], NULL);
    }
    (void) mca_base_event_finalize();
    printf("registrations %llu, raised %llu = delivered %llu + dropped %llu, free callbacks "
           "%llu, bad registrations %llu\n",
           (unsigned long long) t_regs, (unsigned long long) t_raised,
           (unsigned long long) t_delivered, (unsigned long long) t_dropped,
           (unsigned long long) t_free_cbs, (unsigned long long) t_bad);
    int ok = 0 == t_bad && t_raised == t_delivered + t_dropped && t_free_cbs == t_regs;
    printf("%d passed, %d failed\n", ok ? 1 : 0, ok ? 0 : 1);
    return ok ? 0 : 1;
}
