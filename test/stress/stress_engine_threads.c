/*
 * Engine stress (plain C, runs under TSan): 4 threads raise while 2 others
 * allocate and free registrations and callbacks.
 *
 * Exact counting: each raiser thread owns one event type, so a registration
 * sees one raiser, whose raises are sequential (seq 0, 1, 2 ...). Every 4th
 * raise (seq % 4 == 3) is raised in a THREAD_SAFE context while the
 * registrations only have a NONE callback: a drop, reported to the dropped
 * handler right before the next delivery (also when another thread's flush
 * point reports it: the delivery waits for that report). Per registration,
 * over the window from the first instance it observed to its last delivery:
 *   delivered + dropped == raised in the window (no gap, no duplicate), and
 * the free callback runs exactly once, never before or during a callback.
 * Drops after the last delivery are reported too (at a flush point or at
 * the free, before the free callback): the THREAD_SAFE raise right after
 * the last delivery, and raises that found the registration freed by its
 * allocator while they walked the snapshot that still named it. Each is a
 * raise between the last delivery and the free callback (which runs after
 * the grace period, so after every such raise): at most seq_at_free - last.
 */
#include "opal_config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "opal/mca/base/mca_base_event.h"
#include "opal/runtime/opal.h"

#define RAISERS 4
#define ALLOCATORS 2
#define REGS_PER_ALLOCATOR 300
#define RAISES_PER_THREAD 200000

typedef struct {
    uint64_t seq;
} payload_t;

typedef struct {
    int event;             /* which raiser's event */
    /* written by the raiser thread (callback) only */
    int64_t window_start, last;
    uint64_t delivered, dropped, pending_drop;
    int errors;
    /* free callback */
    atomic_int freed_cb;
    atomic_int in_cb;
    int cb_after_free;
    int64_t bad_seq;
    uint64_t bad_pending;
    /* the raiser's last raised seq when the free callback ran */
    int64_t seq_at_free;
    /* its handle (set before the registration listens) */
    _Atomic(mca_base_event_registration_t *) handle;
} track_t;

static mca_base_event_t *events[RAISERS];
static track_t tracks[ALLOCATORS][REGS_PER_ALLOCATOR];
static atomic_int raisers_done = 0;
/* seq each raiser is raising (stored before the raise) */
static _Atomic int64_t raising_seq[RAISERS];
static atomic_int allocators_done = 0;

static void cb(mca_base_event_record_t *inst, mca_base_event_registration_t *r,
               mca_base_event_cb_safety_t s, void *ud)
{
    track_t *t = ud;
    payload_t p;
    atomic_fetch_add(&t->in_cb, 1);
    if (0 != atomic_load(&t->freed_cb)) {
        t->cb_after_free++;
    }
    (void) mca_base_event_copy(inst, &p);
    int64_t seq = (int64_t) p.seq;
    if (0 > t->last) {
        /* first delivery: the drops reported before it (THREAD_SAFE raises,
         * and every instance while the registration had only its dropped
         * handler) are the instances just before it */
        t->window_start = seq - (int64_t) t->pending_drop;
    } else {
        int64_t expect = t->last + 1 + ((t->last + 1) % 4 == 3 ? 1 : 0);
        uint64_t expect_drop = expect - t->last - 1;
        if (seq != expect || t->pending_drop != expect_drop) {
            t->errors |= 4;
            t->bad_seq = seq;
            t->bad_pending = t->pending_drop;
        }
    }
    if (3 == seq % 4) {
        t->errors |= 8; /* a THREAD_SAFE raise must not reach a NONE callback */
    }
    t->dropped += t->pending_drop;
    t->pending_drop = 0;
    t->delivered++;
    t->last = seq;
    atomic_fetch_sub(&t->in_cb, 1);
}

/* live registration of each allocator (a dropped-only registration reports
 * with NULL user_data: find its track by handle) */
static _Atomic(mca_base_event_registration_t *) live_handle[ALLOCATORS];
static track_t *_Atomic live_track[ALLOCATORS];

static void dropped(opal_count_t count, mca_base_event_registration_t *r, int si,
                    mca_base_event_cb_safety_t s, void *ud)
{
    track_t *t = ud;
    for (int a = 0; NULL == t && a < ALLOCATORS; ++a) {
        if (atomic_load(&live_handle[a]) == r) {
            t = atomic_load(&live_track[a]);
        }
    }
    /* A dispatch that loaded its snapshot earlier may report a registration
     * its allocator already freed (legitimately: before its free callback)
     * and replaced: find it among every track. */
    for (int a = 0; NULL == t && a < ALLOCATORS; ++a) {
        for (int i = 0; NULL == t && i < REGS_PER_ALLOCATOR; ++i) {
            if (atomic_load(&tracks[a][i].handle) == r) {
                t = &tracks[a][i];
            }
        }
    }
    if (NULL == t) {
        abort(); /* a dropped handler for a registration nobody owns */
    }
    if (0 != atomic_load(&t->freed_cb)) {
        t->errors |= 32; /* a dropped call after the free callback */
    }
    t->pending_drop += (uint64_t) count;
}

static void free_cb(mca_base_event_registration_t *r, mca_base_event_cb_safety_t s, void *ud)
{
    track_t *t = ud;
    if (0 != atomic_load(&t->in_cb)) {
        t->errors |= 16;
    }
    /* after the grace period: every raise that could still count a drop
     * for this registration has left dispatch, so has stored its seq */
    t->seq_at_free = atomic_load(&raising_seq[t->event]);
    atomic_fetch_add(&t->freed_cb, 1);
}

static void *raiser(void *arg)
{
    int id = (int) (intptr_t) arg;
    /* raise until every allocator is done (at least RAISES_PER_THREAD) */
    for (uint64_t seq = 0;
         seq < RAISES_PER_THREAD || ALLOCATORS > atomic_load(&allocators_done); ++seq) {
        payload_t p = {seq};
        atomic_store(&raising_seq[id], (int64_t) seq);
        (void) mca_base_event_raise_ctx(events[id], NULL, NULL, &p,
                                        3 == seq % 4 ? MCA_BASE_EVENT_CB_REQUIRE_THREAD_SAFE
                                                     : MCA_BASE_EVENT_CB_REQUIRE_NONE);
    }
    atomic_fetch_add(&raisers_done, 1);
    return NULL;
}

static void *allocator(void *arg)
{
    int id = (int) (intptr_t) arg;
    unsigned seed = 1234 + id;
    for (int i = 0; i < REGS_PER_ALLOCATOR; ++i) {
        track_t *t = &tracks[id][i];
        mca_base_event_registration_t *h;
        t->event = rand_r(&seed) % RAISERS;
        t->last = -1;
        if (OPAL_SUCCESS != mca_base_event_handle_alloc(events[t->event], NULL, NULL, &h)) {
            t->errors++;
            continue;
        }
        atomic_store(&t->handle, h);
        atomic_store(&live_track[id], t);
        atomic_store(&live_handle[id], h);
        /* the dropped handler first, so no drop of the window goes unreported */
        if (OPAL_SUCCESS != mca_base_event_set_dropped_handler(h, dropped)
            || OPAL_SUCCESS != mca_base_event_register_callback(h, MCA_BASE_EVENT_CB_REQUIRE_NONE,
                                                                NULL, t, cb)) {
            t->errors++;
        }
        /* churn a second slot (set, then clear): MPI_RESTRICTED serves
         * neither NONE (its own slot is set) nor THREAD_SAFE contexts, so the
         * counts above stay exact while snapshots are republished */
        (void) mca_base_event_register_callback(h, MCA_BASE_EVENT_CB_REQUIRE_MPI_RESTRICTED, NULL,
                                                t, cb);
        (void) mca_base_event_register_callback(h, MCA_BASE_EVENT_CB_REQUIRE_MPI_RESTRICTED, NULL,
                                                NULL, NULL);
        for (volatile int spin = 0; spin < 100000 + rand_r(&seed) % 100000; ++spin) {
        }
        if (OPAL_SUCCESS != mca_base_event_handle_free(h, t, free_cb)) {
            t->errors++;
        }
    }
    atomic_fetch_add(&allocators_done, 1);
    return NULL;
}

int main(void)
{
    const mca_base_var_type_t types[1] = {MCA_BASE_VAR_TYPE_UINT64_T};
    const ptrdiff_t offsets[1] = {0};
    pthread_t th[RAISERS + ALLOCATORS];
    mca_base_event_source_t *src;
    int passed = 0, failed = 0, si;

    if (OPAL_SUCCESS != opal_init_util(NULL, NULL) || OPAL_SUCCESS != mca_base_event_init()) {
        printf("0 passed, 1 failed (init)\n");
        return 1;
    }
    si = mca_base_event_source_register("ompi.stress", "", MCA_BASE_EVENT_SOURCE_ORDERED,
                                        1000000000, OPAL_COUNT_MAX, NULL, true, NULL);
    if (0 > si || OPAL_SUCCESS != mca_base_event_source_get_by_index(si, &src)) {
        printf("0 passed, 1 failed (source)\n");
        return 1;
    }
    for (int i = 0; i < RAISERS; ++i) {
        char name[32];
        snprintf(name, sizeof(name), "ev%d", i);
        int ei = mca_base_event_register(NULL, "stress", NULL, name, "", OPAL_INFO_LVL_4, 1, types,
                                         offsets, NULL, MCA_BASE_VAR_BIND_NO_OBJECT, 0, src, NULL);
        if (0 > ei || OPAL_SUCCESS != mca_base_event_get_by_index(ei, &events[i])) {
            printf("0 passed, 1 failed (event)\n");
            return 1;
        }
    }
    for (int i = 0; i < RAISERS; ++i) {
        pthread_create(&th[i], NULL, raiser, (void *) (intptr_t) i);
    }
    for (int i = 0; i < ALLOCATORS; ++i) {
        pthread_create(&th[RAISERS + i], NULL, allocator, (void *) (intptr_t) i);
    }
    for (int i = 0; i < RAISERS + ALLOCATORS; ++i) {
        pthread_join(th[i], NULL);
    }
    uint64_t total_delivered = 0, total_dropped = 0, total_late = 0;
    int observed = 0;
    for (int a = 0; a < ALLOCATORS; ++a) {
        for (int i = 0; i < REGS_PER_ALLOCATOR; ++i) {
            track_t *t = &tracks[a][i];
            int ok = 0 == t->errors && 1 == atomic_load(&t->freed_cb) && 0 == t->cb_after_free;
            if (0 <= t->last) {
                ++observed;
                ok = ok
                     && t->delivered + t->dropped == (uint64_t) (t->last - t->window_start + 1);
                /* after the last delivery: only raises made before the
                 * free callback */
                ok = ok && t->pending_drop <= (uint64_t) (t->seq_at_free - t->last);
                total_late += t->pending_drop;
            }
            total_delivered += t->delivered;
            total_dropped += t->dropped;
            if (ok) {
                ++passed;
            } else {
                ++failed;
                if (failed < 5) {
                    fprintf(stderr,
                            "reg %d/%d: errors %d freed_cb %d after_free %d delivered %llu "
                            "dropped %llu window [%lld, %lld] bad seq %lld pending %llu "
                            "late %llu (seq at free %lld)\n",
                            a, i, t->errors, atomic_load(&t->freed_cb), t->cb_after_free,
                            (unsigned long long) t->delivered, (unsigned long long) t->dropped,
                            (long long) t->window_start, (long long) t->last,
                            (long long) t->bad_seq, (unsigned long long) t->bad_pending,
                            (unsigned long long) t->pending_drop, (long long) t->seq_at_free);
                }
            }
        }
    }
    /* the run must have exercised delivery and drops at all */
    if (observed < 10 || 0 == total_dropped) {
        ++failed;
        fprintf(stderr, "too little overlap: %d registrations observed, %llu drops\n", observed,
                (unsigned long long) total_dropped);
    } else {
        ++passed;
    }
    (void) mca_base_event_finalize();
    printf("%d passed, %d failed (%d registrations saw instances; %llu delivered, %llu dropped, "
           "%llu dropped after the last delivery)\n",
           passed, failed, observed, (unsigned long long) total_delivered,
           (unsigned long long) total_dropped, (unsigned long long) total_late);
    return 0 == failed ? 0 : 1;
}
