/*
 * Raise-path benchmark (never part of make check): ns per operation, medians
 * of REPS repetitions, with the ratios the goals are stated in.
 *   empty loop iteration | raise, no listener | source clock read alone |
 *   inline delivery to 1 and to 8 registrations (no-op callback) |
 *   mallocs during the timed delivery loops (malloc interposer; expect 0).
 */
#include "opal_config.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_common.h"
#include "opal/mca/base/mca_base_event.h"
#include "opal/runtime/opal.h"

#define N    2000000
#define REPS 7

/* malloc interposer: counts calls while counting is on */
static atomic_long mallocs = 0;
static atomic_bool counting = false;
void *malloc(size_t size)
{
    static void *(*real)(size_t) = NULL;
    if (NULL == real) {
        real = (void *(*) (size_t)) dlsym(RTLD_NEXT, "malloc");
    }
    if (atomic_load_explicit(&counting, memory_order_relaxed)) {
        atomic_fetch_add_explicit(&mallocs, 1, memory_order_relaxed);
    }
    return real(size);
}

static mca_base_event_t *ev;
static volatile int32_t sink_v;

static double t_empty(void)
{
    double t0 = bench_now_ns();
    for (int i = 0; i < N; ++i) {
        BENCH_CLOBBER();
    }
    return (bench_now_ns() - t0) / N;
}

static double t_raise(void)
{
    int32_t v = 1;
    double t0 = bench_now_ns();
    for (int i = 0; i < N; ++i) {
        mca_base_event_raise(ev, NULL, &v);
        BENCH_CLOBBER();
    }
    return (bench_now_ns() - t0) / N;
}

static double t_clock(void)
{
    opal_count_t acc = 0;
    double t0 = bench_now_ns();
    for (int i = 0; i < N; ++i) {
        acc += ev->source->get_timestamp(ev->source->ctx);
    }
    sink_v = (int32_t) acc;
    return (bench_now_ns() - t0) / N;
}

static double run(double (*fn)(void))
{
    double v[REPS];
    for (int r = 0; r < REPS; ++r) {
        v[r] = fn();
    }
    return bench_median(v, REPS);
}

int main(void)
{
    const mca_base_var_type_t types[1] = {MCA_BASE_VAR_TYPE_INT32_T};
    const ptrdiff_t offsets[1] = {0};
    mca_base_event_source_t *src;
    mca_base_event_registration_t *h[8];

    if (OPAL_SUCCESS != opal_init_util(NULL, NULL) || OPAL_SUCCESS != mca_base_event_init()) {
        return 1;
    }
    int si = mca_base_event_source_register("ompi.bench", "", MCA_BASE_EVENT_SOURCE_ORDERED,
                                            1000000000, OPAL_COUNT_MAX, NULL, true, NULL);
    (void) mca_base_event_source_get_by_index(si, &src);
    int ei = mca_base_event_register("ompi", "bench", NULL, "raise", "", OPAL_INFO_LVL_4, 1, types,
                                     offsets, NULL, MCA_BASE_VAR_BIND_NO_OBJECT, 0, src, NULL);
    (void) mca_base_event_get_by_index(ei, &ev);

    double empty = run(t_empty);
    double nolisten = run(t_raise);
    double clk = run(t_clock);

    double one = 0, eight = 0;
    long allocs = 0;
    for (int n = 1; n <= 8; n += 7) {
        for (int i = 0; i < n; ++i) {
            (void) mca_base_event_handle_alloc(ev, NULL, NULL, &h[i]);
            (void) mca_base_event_register_callback(h[i], MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL,
                                                    NULL, bench_noop_cb);
        }
        (void) t_raise(); /* warm: the thread record is claimed here */
        atomic_store(&mallocs, 0);
        atomic_store(&counting, true);
        double t = run(t_raise);
        atomic_store(&counting, false);
        allocs += atomic_load(&mallocs);
        if (1 == n) {
            one = t;
        } else {
            eight = t;
        }
        for (int i = 0; i < n; ++i) {
            (void) mca_base_event_handle_free(h[i], NULL, NULL);
        }
    }

    printf("bench_raise: medians of %d x %d iterations (ns/op)\n", REPS, N);
    printf("  empty loop iteration        %7.2f\n", empty);
    printf("  raise, no listener          %7.2f   (- empty: %+.2f ns; goal <= 1)\n", nolisten,
           nolisten - empty);
    printf("  source clock read           %7.2f\n", clk);
    printf("  inline delivery, 1 reg      %7.2f   (- clock: %+.2f ns; goal <= 20; ratio %.2fx "
           "clock)\n",
           one, one - clk, one / clk);
    printf(
        "  inline delivery, 8 regs     %7.2f   (- clock: %+.2f ns = %.2f ns/reg; goal <= 12/reg)\n",
        eight, eight - clk, (eight - clk) / 8);
    printf("  mallocs in the timed delivery loops: %ld (goal 0)\n", allocs);
    (void) mca_base_event_finalize();
    return 0 == allocs ? 0 : 1;
}
