/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/** @file Event sources: registration (idempotent by name), lookup, the
 *  default clock (CLOCK_MONOTONIC in ns) and ad-hoc timestamps. */

#include "opal_config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__)
#    include <cpuid.h>
#    include <x86intrin.h>
#endif

#include "opal/class/opal_hash_table.h"
#include "opal/mca/base/mca_base_event_internal.h"
#include "opal/mca/base/mca_base_event_test.h"

static mca_base_event_source_t **sources = NULL;
static int num_sources = 0;
static int sources_size = 0;
/** name -> index + 1 (lazily constructed, under the mutex). */
static opal_hash_table_t source_names;
static bool source_names_ready = false;

/* ------------------------------------------------------------------------
 * The default clock: CLOCK_MONOTONIC, or (mca_base_event_clock = tsc) the
 * invariant TSC converted to the same nanoseconds.
 *
 * Why a TSC option: a raise must take its timestamp, and clock_gettime()
 * through the vDSO costs ~21-25 ns on the reference machine (it reads the
 * TSC itself, plus the seqlock and scaling of the vDSO data page). rdtsc
 * alone costs less, and the scaling below is one 64x64->128 multiply.
 *
 * Guarantees kept: 1e9 ticks/s; CLOCK_MONOTONIC nanoseconds within about a
 * hundred ns at any time, so that processes of one host, each converting
 * on its own, agree as closely as if they read CLOCK_MONOTONIC; monotonic
 * per thread (a thread-local clamp: a thread moved to a core whose TSC is
 * slightly behind never sees time go back); async-signal-safe (no lock, no
 * system call; see tsc_now()). Only with an invariant TSC (CPUID 0x80000007
 * EDX bit 8: constant rate across P-/C-states); otherwise, and off x86-64,
 * the monotonic clock stays.
 *
 * How the conversion keeps to CLOCK_MONOTONIC: a rate measured once over
 * the few ms a process can spend at start is off by a few ppm (tens of ns
 * of error at each end), tens of us after ten seconds, and CLOCK_MONOTONIC
 * itself is slewed by NTP. So the conversion is anchored on a sample of
 * both clocks (rdtsc bracketed by two clock reads) and lives for a bounded
 * number of cycles: the first raise past it samples again, anchors there,
 * and takes the rate between the two samples. A lifetime of twice the last
 * interval, up to about a second, keeps the drift within a lifetime to a
 * few sampling errors. While the conversion is out of date, and for a
 * raise that another is refreshing it under, the raise reads
 * CLOCK_MONOTONIC (exact, a few ns more). The first rate too is taken by
 * a read, the first one ~10 ms after the first anchor (the clock reads
 * CLOCK_MONOTONIC until then): a process does not wait for it at start.
 * ------------------------------------------------------------------------ */

/** Storage of mca_base_event_clock (MCA_BASE_EVENT_CLOCK_*). */
static int clock_param = MCA_BASE_EVENT_CLOCK_AUTO;
/** The clock in use. Written at INIT (release), read by every raise of a
 *  default-clock source (acquire: the calibration below is visible). */
static atomic_int clock_in_use = MCA_BASE_EVENT_CLOCK_MONOTONIC;

/** Held by the thread that refreshes (never waited for). */
static atomic_bool tsc_refreshing = false;

#if defined(__x86_64__)
/** One conversion: ns = ns0 + ((tsc - tsc0) * mult) >> 32 for
 *  tsc0 <= tsc < tsc0 + life. Fields are relaxed atomics: a reader may
 *  read a slot being rewritten, and then throws the values away. */
typedef struct {
    _Atomic uint64_t tsc0;
    _Atomic int64_t ns0;
    _Atomic uint64_t mult;
    _Atomic uint64_t life;
} tsc_conv_t;

/** Conversions in turn: the one in use is tsc_convs[tsc_gen % TSC_CONVS].
 *  A refresh writes the next slot, then publishes tsc_gen + 1 (release). A
 *  reader that saw generation g read a slot that may have been rewritten
 *  once the generation reached g + TSC_CONVS - 1. */
#define TSC_CONVS 4
static tsc_conv_t tsc_convs[TSC_CONVS];
static _Atomic uint64_t tsc_gen = 0;
/** Lifetime bounds of a conversion, in ns of the clock. */
#define TSC_LIFE_MAX_NS    1000000000LL
#define TSC_CALIBRATION_NS 10000000LL
/** A sample whose bracket is wider than this (a preempted read) anchors
 *  but does not set the rate. */
#define TSC_SAMPLE_MAX_NS 2000
/** Last TSC timestamp of this thread (the per-thread clamp). */
static __thread int64_t tsc_last __attribute__((tls_model("initial-exec")));
#endif

static inline int64_t monotonic_ns(void)
{
    struct timespec ts;
    (void) clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t) ts.tv_sec * 1000000000LL + (int64_t) ts.tv_nsec;
}

#if defined(__x86_64__)
/* One sample of both clocks: the TSC read bracketed by two clock reads,
 * the tightest of a few tries; returns the bracket's width. Context: INIT,
 * RAISE, SIGNAL. */
static int64_t tsc_sample(uint64_t *tsc, int64_t *ns)
{
    int64_t best = INT64_MAX;
    for (int i = 0; i < 8; ++i) {
        int64_t a = monotonic_ns();
        uint64_t t = __rdtsc();
        int64_t b = monotonic_ns();
        if (b - a < best) {
            best = b - a;
            *tsc = t;
            *ns = a + (b - a) / 2;
        }
    }
    return best;
}

/* Cycles in @p ns at @p mult (ns per cycle << 32). */
static uint64_t tsc_cycles(int64_t ns, uint64_t mult)
{
    return (uint64_t) ((((unsigned __int128) ns) << 32) / mult);
}

/* Publish a conversion anchored at (tsc0, ns0). The caller is the only
 * writer (INIT, or holds tsc_refreshing). */
static void tsc_publish(uint64_t tsc0, int64_t ns0, uint64_t mult, uint64_t life)
{
    uint64_t g = atomic_load_explicit(&tsc_gen, memory_order_relaxed) + 1;
    tsc_conv_t *c = &tsc_convs[g % TSC_CONVS];

    /* release: the previous generation's store comes before these; a
     * reader whose loads see one of them sees, after its acquire fence,
     * a generation that tells it the slot was being rewritten */
    atomic_thread_fence(memory_order_release);
    atomic_store_explicit(&c->tsc0, tsc0, memory_order_relaxed);
    atomic_store_explicit(&c->ns0, ns0, memory_order_relaxed);
    atomic_store_explicit(&c->mult, mult, memory_order_relaxed);
    atomic_store_explicit(&c->life, life, memory_order_relaxed);
    /* release: the slot is written before a reader sees it in use */
    atomic_store_explicit(&tsc_gen, g, memory_order_release);
}

/* The conversion @p c (generation @p g) is out of date at @p now: sample,
 * anchor there, rate from the previous anchor. Returns the time (the
 * sample's CLOCK_MONOTONIC, or a clock read when another thread refreshes).
 * Context: RAISE, SIGNAL (a handler that interrupted the refreshing thread
 * finds the flag taken and reads the clock). */
static int64_t tsc_refresh(uint64_t g, uint64_t tsc0, int64_t ns0, uint64_t mult)
{
    uint64_t t, life;
    int64_t n, width;

    /* acquire: pairs with the release below; the previous refresh's slot
     * and generation are visible */
    if (atomic_exchange_explicit(&tsc_refreshing, true, memory_order_acquire)) {
        return monotonic_ns();
    }
    if (g != atomic_load_explicit(&tsc_gen, memory_order_acquire)) {
        /* refreshed since this raise looked */
        atomic_store_explicit(&tsc_refreshing, false, memory_order_release);
        return monotonic_ns();
    }
    width = tsc_sample(&t, &n);
    if (t > tsc0 && n > ns0 && width <= TSC_SAMPLE_MAX_NS) {
        uint64_t m = (uint64_t) ((((unsigned __int128) (n - ns0)) << 32) / (t - tsc0));
        mult = 0 != m ? m : mult;
    }
    if (0 == mult) {
        /* the first rate could not be measured (a preempted sample): the
         * first anchor stays, the next read past it tries again */
        atomic_store_explicit(&tsc_refreshing, false, memory_order_release);
        return n;
    }
    uint64_t longest = tsc_cycles(TSC_LIFE_MAX_NS, mult);
    uint64_t shortest = tsc_cycles(TSC_CALIBRATION_NS, mult);
    life = t > tsc0 ? 2 * (t - tsc0) : 0;
    life = life > longest ? longest : life < shortest ? shortest : life;
    tsc_publish(t, n, mult, life);
    atomic_store_explicit(&tsc_refreshing, false, memory_order_release);
    return n;
}

/* The cases of tsc_now() off its fast path, out of line so that the fast
 * path saves no registers for the calls: a refresh under this read (the
 * slot's values may be torn), a core whose TSC is behind the anchoring
 * one's (@p d negative), no rate yet (@p mult 0: CLOCK_MONOTONIC until a
 * calibration interval has passed since the first anchor, then the first
 * rate), or a conversion out of date. Context: RAISE, SIGNAL. */
static int64_t __attribute__((noinline, cold))
tsc_now_slow(uint64_t g, uint64_t d, uint64_t tsc0, int64_t ns0, uint64_t mult)
{
    if (atomic_load_explicit(&tsc_gen, memory_order_relaxed) - g >= TSC_CONVS - 1) {
        return monotonic_ns();
    }
    if ((int64_t) d < 0) {
        return ns0;
    }
    if (0 == mult) {
        int64_t n = monotonic_ns();
        if (n - ns0 < TSC_CALIBRATION_NS) {
            return n;
        }
    }
    return tsc_refresh(g, tsc0, ns0, mult);
}

/* Context: RAISE, SIGNAL. */
static inline int64_t tsc_now(void)
{
    /* acquire: the slot of this generation is written (tsc_publish()) */
    uint64_t g = atomic_load_explicit(&tsc_gen, memory_order_acquire);
    const tsc_conv_t *c = &tsc_convs[g % TSC_CONVS];
    uint64_t tsc0 = atomic_load_explicit(&c->tsc0, memory_order_relaxed);
    int64_t ns0 = atomic_load_explicit(&c->ns0, memory_order_relaxed);
    uint64_t mult = atomic_load_explicit(&c->mult, memory_order_relaxed);
    uint64_t life = atomic_load_explicit(&c->life, memory_order_relaxed);
    uint64_t d = __rdtsc() - tsc0;
    int64_t ns;

    /* acquire: the slot's loads above come before this look at whether a
     * refresh may have rewritten it (the seqlock reader's rule). A negative
     * d is above every life (life < 2^63). */
    atomic_thread_fence(memory_order_acquire);
    if (OPAL_UNLIKELY(atomic_load_explicit(&tsc_gen, memory_order_relaxed) - g >= TSC_CONVS - 1
                      || d >= life)) {
        ns = tsc_now_slow(g, d, tsc0, ns0, mult);
    } else {
        ns = ns0 + (int64_t) (((unsigned __int128) d * mult) >> 32);
    }
    /* Per-thread clamp. A signal handler between the load and the store may
     * store a later value that this store overwrites: the next read of this
     * thread is still >= what it returned, which is what matters. */
    if (OPAL_UNLIKELY(ns < tsc_last)) {
        return tsc_last;
    }
    tsc_last = ns;
    return ns;
}

/* Context: INIT. */
static bool tsc_invariant(void)
{
    unsigned int a, b, c, d;

    if (0 == __get_cpuid(0x80000000u, &a, &b, &c, &d) || a < 0x80000007u) {
        return false;
    }
    if (0 == __get_cpuid(0x80000007u, &a, &b, &c, &d)) {
        return false;
    }
    return 0 != (d & (1u << 8));
}

/* The first anchor, without a rate: the clock reads CLOCK_MONOTONIC until
 * a calibration interval (~10 ms) has passed, and the first read after it
 * takes the rate between the two samples (tsc_now_slow()): a process does
 * not wait for its calibration at start. Context: INIT. */
static bool tsc_calibrate(void)
{
    uint64_t t0;
    int64_t n0;

    if (!tsc_invariant()) {
        return false;
    }
    (void) tsc_sample(&t0, &n0);
    tsc_publish(t0, n0, 0, 0);
    return true;
}

/* Whether the conversion in use has a rate (the first one is taken by a
 * read, tsc_now_slow()). Context: ANY. */
static bool tsc_rated(void)
{
    /* acquire: as in tsc_now() */
    uint64_t g = atomic_load_explicit(&tsc_gen, memory_order_acquire);

    return 0 != atomic_load_explicit(&tsc_convs[g % TSC_CONVS].mult, memory_order_relaxed);
}
#endif

/* Context: the atfork child handler. */
void mca_base_event_clock_atfork_child(void)
{
    atomic_store_explicit(&tsc_refreshing, false, memory_order_relaxed);
}

/* Test-only. */
int mca_base_event_test_tsc_skew(double ppm, int64_t back_ns, uint64_t *generation)
{
#if defined(__x86_64__)
    if (MCA_BASE_EVENT_CLOCK_TSC != atomic_load_explicit(&clock_in_use, memory_order_relaxed)) {
        return OPAL_ERR_NOT_SUPPORTED;
    }
    if (0.0 != ppm || 0 != back_ns) {
        uint64_t t, mult, life, back;
        int64_t n, waited = 0;
        /* a clock without a rate yet gets its first one (reads past the
         * calibration interval take it) */
        while (!tsc_rated()) {
            struct timespec nap = {0, 1000000};
            if (2000 < ++waited) {
                return OPAL_ERROR;
            }
            (void) nanosleep(&nap, NULL);
            (void) tsc_now();
        }
        while (atomic_exchange_explicit(&tsc_refreshing, true, memory_order_acquire)) {
        }
        const tsc_conv_t *c = &tsc_convs[atomic_load_explicit(&tsc_gen, memory_order_relaxed)
                                         % TSC_CONVS];
        mult = atomic_load_explicit(&c->mult, memory_order_relaxed);
        life = atomic_load_explicit(&c->life, memory_order_relaxed);
        (void) tsc_sample(&t, &n);
        back = tsc_cycles(back_ns, mult);
        tsc_publish(t - back, n - back_ns, (uint64_t) ((double) mult * (1.0 + ppm * 1e-6)),
                    back + life);
        atomic_store_explicit(&tsc_refreshing, false, memory_order_release);
    }
    if (NULL != generation) {
        *generation = atomic_load_explicit(&tsc_gen, memory_order_acquire);
    }
    return OPAL_SUCCESS;
#else
    (void) ppm;
    (void) back_ns;
    (void) generation;
    return OPAL_ERR_NOT_SUPPORTED;
#endif
}

/* CLOCK_MONOTONIC for default_clock(), out of line for the same reason as
 * tsc_now_slow(). Context: RAISE, SIGNAL. */
static opal_count_t __attribute__((noinline)) default_clock_monotonic(void)
{
    return (opal_count_t) monotonic_ns();
}

/* Context: RAISE, SIGNAL (clock_gettime is async-signal-safe, vDSO). */
static opal_count_t default_clock(void *ctx)
{
    (void) ctx;
#if defined(__x86_64__)
    /* acquire: pairs with the release store in mca_base_event_clock_set():
     * the calibration is complete. A plain load on x86-64. */
    if (MCA_BASE_EVENT_CLOCK_TSC == atomic_load_explicit(&clock_in_use, memory_order_acquire)) {
        return (opal_count_t) tsc_now();
    }
#endif
    return default_clock_monotonic();
}

/* Context: INIT. */
int mca_base_event_clock_register(void)
{
    static const mca_base_var_enum_value_t values[] = {
        {MCA_BASE_EVENT_CLOCK_MONOTONIC, "monotonic"},
        {MCA_BASE_EVENT_CLOCK_TSC, "tsc"},
        {MCA_BASE_EVENT_CLOCK_AUTO, "auto"},
        {0, NULL},
    };
    mca_base_var_enum_t *en = NULL;
    int rc;

    rc = mca_base_var_enum_create("mca_base_event_clock", values, &en);
    if (OPAL_SUCCESS != rc) {
        return rc;
    }
    clock_param = MCA_BASE_EVENT_CLOCK_AUTO;
    rc = mca_base_var_register("opal", "mca", "base", "event_clock",
                               "Clock of the event sources that use the default clock "
                               "(CLOCK_MONOTONIC nanoseconds, 1e9 ticks/s, either way): "
                               "monotonic (clock_gettime(CLOCK_MONOTONIC)), tsc (the invariant "
                               "TSC, about half the cost to read, converted by each process and "
                               "kept on CLOCK_MONOTONIC within tens of ns; falls back to "
                               "monotonic when the TSC is not invariant) or auto (tsc where the "
                               "TSC is invariant, else monotonic)",
                               MCA_BASE_VAR_TYPE_INT, en, 0, 0, OPAL_INFO_LVL_5,
                               MCA_BASE_VAR_SCOPE_READONLY, &clock_param);
    OBJ_RELEASE(en);
    if (0 > rc) {
        clock_param = MCA_BASE_EVENT_CLOCK_AUTO;
        return rc;
    }
    return mca_base_event_clock_set(clock_param);
}

/* Context: INIT. */
int mca_base_event_clock_set(int clock)
{
    int requested = clock;

    if (MCA_BASE_EVENT_CLOCK_MONOTONIC != clock && MCA_BASE_EVENT_CLOCK_TSC != clock
        && MCA_BASE_EVENT_CLOCK_AUTO != clock) {
        return OPAL_ERR_BAD_PARAM;
    }
    if (MCA_BASE_EVENT_CLOCK_AUTO == clock) {
        /* the monotonic clock where the TSC cannot serve: not an error */
        (void) mca_base_event_clock_set(MCA_BASE_EVENT_CLOCK_TSC);
        return OPAL_SUCCESS;
    }
    if (MCA_BASE_EVENT_CLOCK_TSC == clock) {
#if defined(__x86_64__)
        /* calibrate once per process: a second calibration would move the
         * anchor under timestamps already taken */
        static bool calibrated = false, usable = false;
        if (!calibrated) {
            usable = tsc_calibrate();
            calibrated = true;
        }
        if (!usable) {
            clock = MCA_BASE_EVENT_CLOCK_MONOTONIC;
        }
#else
        clock = MCA_BASE_EVENT_CLOCK_MONOTONIC;
#endif
    }
    /* release: pairs with the acquire load in default_clock() */
    atomic_store_explicit(&clock_in_use, clock, memory_order_release);
    return clock == requested ? OPAL_SUCCESS : OPAL_ERR_NOT_SUPPORTED;
}

/* Context: ANY. */
int mca_base_event_clock_get(void)
{
    return atomic_load_explicit(&clock_in_use, memory_order_relaxed);
}

/* Context: ANY. */
bool mca_base_event_source_on_host_clock(const mca_base_event_source_t *source)
{
    /* the TSC clock is kept on CLOCK_MONOTONIC (tsc_refresh()) */
    return NULL != source && default_clock == source->get_timestamp;
}

/* Caller holds the mutex. */
bool mca_base_event_source_is_registered(const mca_base_event_source_t *source)
{
    return NULL != source && 0 <= source->index && source->index < num_sources
           && sources[source->index] == source;
}

/* Context: ANY. Caller holds the engine mutex. Is the registered source
 * @p src the one these arguments describe? Its identity is what tools and
 * the raise path see of it: ordering, clock (function and, for a
 * producer's clock, its ctx; ticks_per_second as registered, i.e. 1e9 for
 * the default clock), max_ticks and ad-hoc reads. The description of the
 * first registration is kept. */
static bool same_identity(const mca_base_event_source_t *src,
                          mca_base_event_source_order_t ordering, opal_count_t ticks_per_second,
                          opal_count_t max_ticks, mca_base_event_timestamp_fn_t get_timestamp,
                          bool supports_adhoc, void *ctx)
{
    /* the default clock ignores ctx and always has 1e9 ticks/s */
    bool same_clock = NULL == get_timestamp
                          ? default_clock == src->get_timestamp
                          : (get_timestamp == src->get_timestamp && ctx == src->ctx
                             && ticks_per_second == src->ticks_per_second);

    return same_clock && src->ordering == ordering && src->max_ticks == max_ticks
           && src->supports_adhoc == supports_adhoc;
}

/* Context: INIT, ANY. Locks: takes the engine mutex. */
int mca_base_event_source_register(const char *name, const char *description,
                                   mca_base_event_source_order_t ordering,
                                   opal_count_t ticks_per_second, opal_count_t max_ticks,
                                   mca_base_event_timestamp_fn_t get_timestamp, bool supports_adhoc,
                                   void *ctx)
{
    mca_base_event_source_t *src = NULL;
    void *found = NULL;
    int ret;

    if (NULL == name || '\0' == name[0] || 0 >= ticks_per_second || 0 >= max_ticks
        || (MCA_BASE_EVENT_SOURCE_ORDERED != ordering
            && MCA_BASE_EVENT_SOURCE_UNORDERED != ordering)) {
        return OPAL_ERR_BAD_PARAM;
    }

    opal_mutex_lock(&mca_base_event_lock);
    if (!source_names_ready) {
        OBJ_CONSTRUCT(&source_names, opal_hash_table_t);
        if (OPAL_SUCCESS != opal_hash_table_init(&source_names, 32)) {
            OBJ_DESTRUCT(&source_names);
            ret = OPAL_ERR_OUT_OF_RESOURCE;
            goto cleanup;
        }
        source_names_ready = true;
    }
    if (OPAL_SUCCESS == opal_hash_table_get_value_ptr(&source_names, name, strlen(name), &found)) {
        ret = (int) ((intptr_t) found - 1);
        /* Idempotent only for the same source: its events would otherwise
         * carry timestamps in another clock or order than the caller's. */
        if (!same_identity(sources[ret], ordering, ticks_per_second, max_ticks, get_timestamp,
                           supports_adhoc, ctx)) {
            ret = OPAL_EXISTS;
        }
        goto cleanup;
    }
    if (num_sources == sources_size) {
        int nsize = 0 == sources_size ? 8 : 2 * sources_size;
        mca_base_event_source_t **n = realloc(sources, nsize * sizeof(*n));
        if (NULL == n) {
            ret = OPAL_ERR_OUT_OF_RESOURCE;
            goto cleanup;
        }
        sources = n;
        sources_size = nsize;
    }
    src = calloc(1, sizeof(*src));
    if (NULL == src) {
        ret = OPAL_ERR_OUT_OF_RESOURCE;
        goto cleanup;
    }
    src->name = strdup(name);
    src->description = strdup(NULL == description ? "" : description);
    if (NULL == src->name || NULL == src->description) {
        ret = OPAL_ERR_OUT_OF_RESOURCE;
        goto cleanup;
    }
    src->index = num_sources;
    src->ordering = ordering;
    src->ticks_per_second = NULL == get_timestamp ? 1000000000LL : ticks_per_second;
    src->max_ticks = max_ticks;
    src->get_timestamp = NULL == get_timestamp ? default_clock : get_timestamp;
    src->supports_adhoc = supports_adhoc;
    src->ctx = ctx;
    atomic_init(&src->last_timestamp, 0);
    if (OPAL_SUCCESS
        != opal_hash_table_set_value_ptr(&source_names, name, strlen(name),
                                         (void *) (intptr_t) (src->index + 1))) {
        ret = OPAL_ERR_OUT_OF_RESOURCE;
        goto cleanup;
    }
    sources[num_sources++] = src;
    ret = src->index;
    src = NULL;
cleanup:
    opal_mutex_unlock(&mca_base_event_lock);
    if (NULL != src) {
        free(src->name);
        free(src->description);
        free(src);
    }
    return ret;
}

/* Context: ANY. */
int mca_base_event_source_get_by_index(int index, mca_base_event_source_t **source)
{
    int ret = OPAL_SUCCESS;

    if (NULL == source) {
        return OPAL_ERR_BAD_PARAM;
    }
    opal_mutex_lock(&mca_base_event_lock);
    if (0 > index || index >= num_sources) {
        ret = OPAL_ERR_NOT_FOUND;
    } else {
        *source = sources[index];
    }
    opal_mutex_unlock(&mca_base_event_lock);
    return ret;
}

/* Context: ANY. */
int mca_base_event_source_get_count(void)
{
    int n;
    opal_mutex_lock(&mca_base_event_lock);
    n = num_sources;
    opal_mutex_unlock(&mca_base_event_lock);
    return n;
}

/* Context: TOOL, ANY. A drain point. */
int mca_base_event_source_get_timestamp(int index, opal_count_t *timestamp)
{
    mca_base_event_source_t *src;
    int ret;

    if (NULL == timestamp) {
        return OPAL_ERR_BAD_PARAM;
    }
    ret = mca_base_event_source_get_by_index(index, &src);
    if (OPAL_SUCCESS != ret) {
        return ret;
    }
    if (!src->supports_adhoc) {
        return OPAL_ERR_NOT_SUPPORTED;
    }
    (void) mca_base_event_flush();
    *timestamp = src->get_timestamp(src->ctx);
    return OPAL_SUCCESS;
}
