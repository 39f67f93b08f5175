/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/*
 * The TSC clock's conversion replaced under readers (plain C, runs under
 * TSan). READERS threads read the default clock (mca_base_event_clock =
 * tsc) in a loop while a writer publishes a new conversion again and again
 * (the test seam), anchored alternately now and 100 s in the past: both
 * exact, while a read that mixed the two would be 100 s off; and the
 * readers' own reads refresh it when it runs out:
 *   - every read lies within the two CLOCK_MONOTONIC reads around it, up to
 *     a tolerance far below what a torn conversion gives (a reader must be
 *     held up for three publishes between two loads for a tear: this run
 *     makes it possible, not frequent; TSan checks the accesses);
 *   - no thread sees its clock go back.
 * Skipped (passes, says so) where the TSC is not invariant.
 */
#include "opal_config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

#include "opal/mca/base/mca_base_event.h"
#include "opal/mca/base/mca_base_event_test.h"
#include "opal/runtime/opal.h"

#define READERS      3
#define READS        200000
#define TOLERANCE_NS 100000 /* TSan slows both clocks' reads alike */

static mca_base_event_source_t *src;
static atomic_bool readers_done;
static atomic_long out_of_bracket, backwards, reads;

static int64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void *reader(void *arg)
{
    int64_t last = INT64_MIN;
    long out = 0, back = 0;

    (void) arg;
    for (int i = 0; i < READS; ++i) {
        int64_t a = mono_ns();
        int64_t t = (int64_t) mca_base_event_source_now(src);
        int64_t b = mono_ns();
        out += t < a - TOLERANCE_NS || t > b + TOLERANCE_NS;
        back += t < last;
        last = t;
    }
    atomic_fetch_add(&out_of_bracket, out);
    atomic_fetch_add(&backwards, back);
    atomic_fetch_add(&reads, READS);
    return NULL;
}

static void *writer(void *arg)
{
    long *published = arg;
    int64_t back = 100000000000LL;

    while (!atomic_load(&readers_done)) {
        (void) mca_base_event_test_tsc_skew(0.000001, back, NULL);
        back = 0 == back ? 100000000000LL : 0;
        ++*published;
    }
    return NULL;
}

int main(void)
{
    int passed = 0, failed = 0, si;
    pthread_t r[READERS], w;
    long published = 0;
    uint64_t gen0 = 0, gen1 = 0;

    if (OPAL_SUCCESS != opal_init_util(NULL, NULL) || OPAL_SUCCESS != mca_base_event_init()) {
        return 1;
    }
    if (OPAL_SUCCESS != mca_base_event_clock_set(MCA_BASE_EVENT_CLOCK_TSC)) {
        printf("stress_clock_tsc: no invariant TSC here: skipped\n");
        printf("stress_clock_tsc: 0 passed, 0 failed\n");
        return 0;
    }
    si = mca_base_event_source_register("stress.clock", "tsc clock", MCA_BASE_EVENT_SOURCE_ORDERED,
                                        1000000000, OPAL_COUNT_MAX, NULL, true, NULL);
    if (0 > si || OPAL_SUCCESS != mca_base_event_source_get_by_index(si, &src)) {
        return 1;
    }
    (void) mca_base_event_test_tsc_skew(0.0, 0, &gen0);
    pthread_create(&w, NULL, writer, &published);
    for (int i = 0; i < READERS; ++i) {
        pthread_create(&r[i], NULL, reader, NULL);
    }
    for (int i = 0; i < READERS; ++i) {
        pthread_join(r[i], NULL);
    }
    atomic_store(&readers_done, true);
    pthread_join(w, NULL);
    (void) mca_base_event_test_tsc_skew(0.0, 0, &gen1);

    if (READERS * (long) READS == atomic_load(&reads) && published > 100
        && gen1 - gen0 >= (uint64_t) published) {
        ++passed;
    } else {
        printf("FAIL: %ld reads, %ld conversions published, generation %llu -> %llu\n",
               atomic_load(&reads), published, (unsigned long long) gen0,
               (unsigned long long) gen1);
        ++failed;
    }
    if (0 == atomic_load(&out_of_bracket)) {
        ++passed;
    } else {
        printf("FAIL: %ld reads outside CLOCK_MONOTONIC's by more than %d ns\n",
               atomic_load(&out_of_bracket), TOLERANCE_NS);
        ++failed;
    }
    if (0 == atomic_load(&backwards)) {
        ++passed;
    } else {
        printf("FAIL: a thread's clock went back %ld times\n", atomic_load(&backwards));
        ++failed;
    }
    printf("stress_clock_tsc: %ld reads under %ld conversions; %d passed, %d failed\n",
           atomic_load(&reads), published, passed, failed);
    (void) mca_base_event_finalize();
    opal_finalize_util();
    return 0 == failed ? 0 : 1;
}
