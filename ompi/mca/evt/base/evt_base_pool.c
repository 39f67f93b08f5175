/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The kit's ring pool: every ring is allocated when the kit opens, so the
 * raise path never allocates. A thread's first raise claims a FREE ring
 * with one compare-and-swap and keeps it in an initial-exec TLS pointer
 * (no __tls_get_addr call, async-signal-safe). At thread exit a pthread key
 * destructor makes the ring FREE again at once: its records stay queued
 * and are drained like any other, and the next thread to claim it goes on
 * producing after them (the state word's release/acquire hands the producer
 * side over). So short-lived threads never exhaust the pool between drains.
 *
 * NUMA placement: anonymous ring buffers come from hwloc_alloc() (Open MPI's
 * topology, when it is loaded) or mmap(): pages mapped but not touched. The
 * first thread to claim a ring touches every page (first touch), so with
 * Linux's default local policy the ring lands on that thread's NUMA node,
 * and the raise path never takes a page fault later. Why not
 * hwloc_alloc_membind() or hwloc_set_area_membind() at claim: the node is
 * only known when a thread claims, and binding then is an mbind() system
 * call on the raise path, which may be a signal handler. A ring reused by a
 * thread on another node keeps its first node. Rings in a component's
 * storage (a file mapping) are placed by that component, and touched at
 * first claim the same way, after the component's claim() made their pages
 * safe to write (evt/file reserves their blocks then): a ring no thread
 * claims costs nothing.
 */

#include "ompi_config.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "opal/constants.h"
#include "opal/mca/hwloc/base/base.h"
#include "ompi/constants.h"
#include "ompi/mca/evt/base/evt_base_kit_internal.h"

__thread ompi_evt_kit_ring_t *ompi_evt_kit_mine __attribute__((tls_model("initial-exec")));
__thread unsigned int ompi_evt_kit_mine_gen __attribute__((tls_model("initial-exec")));

/* glibc keeps the first PTHREAD_KEY_2NDLEVEL_SIZE (32, not exported) keys
 * of a thread in a static array inside its descriptor: pthread_setspecific
 * on such a key is two plain stores, no allocation, no lock, so it can be
 * called from a signal handler or inside free()/munmap(). Elsewhere (a
 * larger key, another libc) a claim in SIGNAL context defers the key to the
 * thread's next raise in a normal context. */
#define KIT_KEY_FIRST_LEVEL 32

/* The page size for first touch (a smaller step only touches more). */
#define KIT_TOUCH_STEP 4096

/* Key destructors running now: a closing kit waits for them before it
 * frees its pool (ompi_evt_kit_pool_exits_wait()). */
static atomic_int kit_exits_running;

/* pthread key destructor: the thread exits; its ring goes back to the pool
 * at once, records and all, unless the kit closed meanwhile (its pool may be
 * freed: a deleted key does not stop a destructor already running).
 * Context: thread exit (ANY). */
static void kit_thread_exit(void *arg)
{
    ompi_evt_kit_ring_t *ring = arg;

    if (NULL == ring || ring != ompi_evt_kit_mine) {
        return;
    }
    ompi_evt_kit_mine = OMPI_EVT_KIT_EXITED;
    /* seq_cst, with the generation's load: the Dekker pair with the close,
     * which moves the generation on and then waits for this count */
    atomic_fetch_add_explicit(&kit_exits_running, 1, memory_order_seq_cst);
    if (ompi_evt_kit_mine_gen
        == atomic_load_explicit(&ompi_evt_kit.generation, memory_order_seq_cst)) {
        /* release: our last commits and private producer fields are visible
         * to the next owner (pairs with the acquire CAS in ring_claim());
         * the drainer reaches the records through tail as always. */
        atomic_store_explicit(&ring->pool.state, OMPI_EVT_KIT_RING_FREE, memory_order_release);
    }
    /* release: the store above comes before the close sees the count fall */
    atomic_fetch_sub_explicit(&kit_exits_running, 1, memory_order_release);
}

/* Context: INIT (the kit closing, its generation moved on). */
void ompi_evt_kit_pool_exits_wait(void)
{
    /* a destructor runs a few instructions and no user code */
    while (0 != atomic_load_explicit(&kit_exits_running, memory_order_seq_cst)) {
        sched_yield();
    }
}

/* Context: INIT. */
int ompi_evt_kit_pool_key_create(void)
{
    evt_kit_t *k = &ompi_evt_kit;

    if (k->key_created) {
        return OMPI_SUCCESS;
    }
    if (0 != pthread_key_create(&k->key, kit_thread_exit)) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    k->key_created = true;
#if defined(__GLIBC__)
    k->key_signal_safe = (unsigned long) k->key < KIT_KEY_FIRST_LEVEL;
#else
    k->key_signal_safe = false;
#endif
    return OMPI_SUCCESS;
}

/* Context: INIT (no thread produces into the pool any more). */
void ompi_evt_kit_pool_key_delete(void)
{
    evt_kit_t *k = &ompi_evt_kit;

    if (k->key_created) {
        /* No destructor runs after this: threads still alive keep a stale
         * pointer that the generation check ignores. */
        (void) pthread_key_delete(k->key);
        k->key_created = false;
    }
}

/* Anonymous storage for ring @p i. Context: INIT. */
static int anon_alloc(evt_kit_pool_t *pool, int i, ompi_evt_ring_ctl_t **ctl, void **data)
{
    void *p;

    if (pool->data_from_hwloc) {
        p = hwloc_alloc(opal_hwloc_topology, pool->ring_size);
    } else {
        p = mmap(NULL, pool->ring_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
                 0);
        p = MAP_FAILED == p ? NULL : p;
    }
    if (NULL == p) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    pool->data[i] = p;
    *ctl = &pool->ctls[i];
    *data = p;
    return OMPI_SUCCESS;
}

/* Context: INIT. */
int ompi_evt_kit_pool_create(const ompi_evt_base_kit_params_t *params, evt_kit_pool_t **out)
{
    evt_kit_pool_t *pool;
    int rc = OMPI_SUCCESS;

    *out = NULL;
    if (params->ring_size < OMPI_EVT_KIT_MIN_RING_SIZE
        || params->ring_size > OMPI_EVT_RING_MAX_CAPACITY
        || 0 != (params->ring_size & (params->ring_size - 1)) || 1 > params->pool_size) {
        return OPAL_ERR_BAD_PARAM;
    }
    pool = calloc(1, sizeof(*pool));
    if (NULL == pool) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    pool->size = params->pool_size;
    pool->ring_size = params->ring_size;
    pool->overwrite = OMPI_EVT_OVERFLOW_OVERWRITE == params->overflow;
    pool->storage = params->storage;
    if (0 != posix_memalign((void **) &pool->rings, OMPI_EVT_CACHE_LINE,
                            (size_t) pool->size * sizeof(ompi_evt_kit_ring_t))) {
        pool->rings = NULL;
        rc = OPAL_ERR_OUT_OF_RESOURCE;
        goto cleanup;
    }
    memset(pool->rings, 0, (size_t) pool->size * sizeof(ompi_evt_kit_ring_t));
    pool->heads = calloc((size_t) pool->size, sizeof(*pool->heads));
    pool->data = calloc((size_t) pool->size, sizeof(void *));
    if (NULL == pool->heads || NULL == pool->data) {
        rc = OPAL_ERR_OUT_OF_RESOURCE;
        goto cleanup;
    }
    if (NULL == pool->storage) {
        if (0 != posix_memalign((void **) &pool->ctls, OMPI_EVT_CACHE_LINE,
                                (size_t) pool->size * sizeof(ompi_evt_ring_ctl_t))) {
            pool->ctls = NULL;
            rc = OPAL_ERR_OUT_OF_RESOURCE;
            goto cleanup;
        }
        memset(pool->ctls, 0, (size_t) pool->size * sizeof(ompi_evt_ring_ctl_t));
        pool->data_from_hwloc = NULL != opal_hwloc_topology;
    }
    for (int i = 0; i < pool->size; ++i) {
        ompi_evt_ring_ctl_t *ctl = NULL;
        void *data = NULL;

        if (NULL == pool->storage) {
            rc = anon_alloc(pool, i, &ctl, &data);
        } else {
            rc = pool->storage->alloc(pool->storage->ctx, i, pool->ring_size, &ctl, &data);
            pool->data[i] = OMPI_SUCCESS == rc ? data : NULL;
        }
        if (OMPI_SUCCESS != rc) {
            goto cleanup;
        }
        if (!ompi_evt_ring_spsc_init(&pool->rings[i].buf, ctl, data,
                                     (unsigned int) pool->ring_size, 0, pool->overwrite)) {
            rc = OPAL_ERR_BAD_PARAM;
            goto cleanup;
        }
        pool->rings[i].pool.index = i;
        pool->rings[i].pool.touched = false;
        atomic_init(&pool->rings[i].pool.state, OMPI_EVT_KIT_RING_FREE);
    }
    *out = pool;
    return OMPI_SUCCESS;

cleanup:
    ompi_evt_kit_pool_release(pool);
    return rc;
}

/* Context: INIT, or the end of a drain (an orphaned pool): no producer and
 * no other consumer can reach it. */
void ompi_evt_kit_pool_release(evt_kit_pool_t *pool)
{
    if (NULL == pool) {
        return;
    }
    for (int i = 0; NULL != pool->data && i < pool->size; ++i) {
        if (NULL == pool->data[i]) {
            continue;
        }
        if (NULL != pool->storage) {
            if (NULL != pool->storage->release) {
                pool->storage->release(pool->storage->ctx, i, pool->rings[i].buf.g.ctl,
                                       pool->data[i], pool->ring_size);
            }
        } else if (pool->data_from_hwloc) {
            (void) hwloc_free(opal_hwloc_topology, pool->data[i], pool->ring_size);
        } else {
            (void) munmap(pool->data[i], pool->ring_size);
        }
    }
    free(pool->data);
    free(pool->ctls);
    free(pool->heads);
    free(pool->rings);
    free(pool);
}

/* Free bytes of @p ring as a claimer sees them (a hint: the consumer may
 * release more meanwhile). */
static unsigned int ring_room(ompi_evt_kit_ring_t *ring)
{
    const ompi_evt_ring_ctl_t *ctl = ring->buf.g.ctl;
    /* relaxed: a hint for choosing among free rings */
    unsigned int used = atomic_load_explicit(&ctl->p.tail, memory_order_relaxed)
                        - atomic_load_explicit(&ctl->c.head, memory_order_relaxed);
    return used > ring->buf.g.capacity ? 0 : ring->buf.g.capacity - used;
}

/* Take @p ring (FREE -> OWNED) for this thread. Context: RAISE, SIGNAL. */
static bool ring_take(evt_kit_pool_t *pool, int i, bool signal_context)
{
    evt_kit_t *k = &ompi_evt_kit;
    ompi_evt_kit_ring_t *ring = &pool->rings[i];
    int expected = OMPI_EVT_KIT_RING_FREE;
    int hw;

    /* acquire: pairs with the release store of FREE by the previous owner's
     * exit (or the pool's creation): its producer fields and commits are
     * visible, so we go on after its records. */
    if (!atomic_compare_exchange_strong_explicit(&ring->pool.state, &expected,
                                                 OMPI_EVT_KIT_RING_OWNED, memory_order_acquire,
                                                 memory_order_relaxed)) {
        return false;
    }
    if (!ring->pool.touched && NULL != pool->storage && NULL != pool->storage->claim
        && OPAL_SUCCESS != pool->storage->claim(pool->storage->ctx, i)) {
        /* its pages cannot be written safely: never again (relaxed: nothing
         * of the ring was written) */
        atomic_store_explicit(&ring->pool.state, OMPI_EVT_KIT_RING_UNUSABLE, memory_order_relaxed);
        return false;
    }
    /* The drain scans [0, high_water): raise it to cover this ring.
     * release: pairs with the acquire load in the drain, which then reads
     * the ring's positions we may have written. */
    hw = atomic_load_explicit(&pool->high_water, memory_order_relaxed);
    while (hw < i + 1
           && !atomic_compare_exchange_weak_explicit(&pool->high_water, &hw, i + 1,
                                                     memory_order_release, memory_order_relaxed)) {
    }
    if (!ring->pool.touched) {
        /* First touch from the first owning thread (see the file comment).
         * The ring is empty and was never written: a plain write of zero
         * changes nothing a reader can see. */
        for (size_t off = 0; off < ring->buf.g.capacity; off += KIT_TOUCH_STEP) {
            ((volatile unsigned char *) ring->buf.g.data)[off] = 0;
        }
        ring->pool.touched = true;
    }
    /* Without the key the thread-exit destructor never gives the ring back:
     * set it now whenever that is safe here. */
    ring->own.needs_key = signal_context && !k->key_signal_safe;
    if (!ring->own.needs_key && k->key_created) {
        (void) pthread_setspecific(k->key, ring);
    }
    return true;
}

/* Claim a FREE ring: an empty one if there is one (a ring handed back by an
 * exited thread may still hold its records), else the FREE one with the most
 * room. Context: RAISE, SIGNAL (lock-free: loads and CAS only). */
static ompi_evt_kit_ring_t *ring_claim(evt_kit_pool_t *pool, bool signal_context)
{
    for (int attempt = 0; attempt < 4; ++attempt) {
        unsigned int best_room = 0;
        int best = -1;

        for (int i = 0; i < pool->size; ++i) {
            ompi_evt_kit_ring_t *ring = &pool->rings[i];
            unsigned int room;

            /* relaxed pre-check: skip owned rings without a locked instruction */
            if (OMPI_EVT_KIT_RING_FREE
                != atomic_load_explicit(&ring->pool.state, memory_order_relaxed)) {
                continue;
            }
            room = ring_room(ring);
            if (room == ring->buf.g.capacity) {
                if (ring_take(pool, i, signal_context)) {
                    return ring;
                }
                continue;
            }
            if (0 > best || room > best_room) {
                best = i;
                best_room = room;
            }
        }
        if (0 > best) {
            return NULL;
        }
        if (ring_take(pool, best, signal_context)) {
            return &pool->rings[best];
        }
    }
    return NULL;
}

/* The slow part of evt_kit_mine(): first raise of this thread (or of this
 * kit generation), or a ring claimed from a signal handler whose key is
 * still to be set. Context: RAISE, SIGNAL. */
ompi_evt_kit_ring_t *ompi_evt_kit_pool_mine_slow(bool signal_context)
{
    evt_kit_t *k = &ompi_evt_kit;
    /* relaxed: the generation changes only in INIT context, while no raise
     * reaches the kit. */
    unsigned int gen = atomic_load_explicit(&k->generation, memory_order_relaxed);
    ompi_evt_kit_ring_t *ring, *claimed, *none = NULL;
    evt_kit_pool_t *pool;

    /* A signal handler on this thread may run anywhere below and claim a
     * ring of its own (its raise finds none either). This thread's pointer
     * changes only by compare-and-swap: NULL while a claim is under way, so
     * that a handler neither takes a stale ring for this generation's nor
     * has the ring it published overwritten; the claim that publishes
     * second gives its ring back. */
    do {
        ring = ompi_evt_kit_mine;
        if (OPAL_UNLIKELY(OMPI_EVT_KIT_EXITED == ring)) {
            return NULL; /* after the thread's destructors: see OMPI_EVT_KIT_EXITED */
        }
        if (OPAL_LIKELY(NULL != ring && gen == ompi_evt_kit_mine_gen)) {
            if (OPAL_UNLIKELY(ring->own.needs_key) && !signal_context) {
                ring->own.needs_key = false;
                (void) pthread_setspecific(k->key, ring);
            }
            return ring;
        }
    } while (!__atomic_compare_exchange_n(&ompi_evt_kit_mine, &ring, NULL, false, __ATOMIC_RELAXED,
                                          __ATOMIC_RELAXED));
    /* acquire: the pool was built before it was published (kit open) */
    pool = atomic_load_explicit(&k->pool, memory_order_acquire);
    if (NULL == pool) {
        return NULL;
    }
    claimed = ring_claim(pool, signal_context);
    if (NULL == claimed) {
        /* relaxed: statistics */
        atomic_fetch_add_explicit(&pool->dropped_pool, 1, memory_order_relaxed);
        return NULL;
    }
    ompi_evt_kit_mine_gen = gen;
    if (__atomic_compare_exchange_n(&ompi_evt_kit_mine, &none, claimed, false, __ATOMIC_RELAXED,
                                    __ATOMIC_RELAXED)) {
        return claimed;
    }
    /* a handler published its ring during our claim: keep that one (its
     * raises are in it), give ours back unused (release: as a thread's exit
     * does), and point the key at the one kept, which our claim may have
     * set to ours */
    atomic_store_explicit(&claimed->pool.state, OMPI_EVT_KIT_RING_FREE, memory_order_release);
    ring = none;
    if (k->key_created && (!signal_context || k->key_signal_safe)) {
        ring->own.needs_key = false;
        (void) pthread_setspecific(k->key, ring);
    } else {
        ring->own.needs_key = true; /* until a raise outside a handler */
    }
    return ring;
}

/* Context: the atfork child handler (one thread; no drain runs). */
void ompi_evt_kit_pool_atfork_child(evt_kit_pool_t *pool)
{
    ompi_evt_kit_ring_t *mine = ompi_evt_kit_mine;

    for (int i = 0; i < pool->size; ++i) {
        ompi_evt_kit_ring_t *ring = &pool->rings[i];

        /* the records are the parent's: it delivers them, not us */
        ompi_evt_ring_spsc_discard(&ring->buf);
        atomic_store_explicit(&ring->blocked.ctx, 0, memory_order_relaxed);
        if (ring != mine) {
            /* its owner is a thread of the parent */
            atomic_store_explicit(&ring->pool.state, OMPI_EVT_KIT_RING_FREE,
                                  memory_order_relaxed);
            atomic_store_explicit(&ring->buf.p.busy, 0, memory_order_relaxed);
        }
    }
}

/* Test seam: as if this thread exited. Context: ANY. */
void ompi_evt_base_kit_test_thread_exit(void)
{
    evt_kit_t *k = &ompi_evt_kit;
    ompi_evt_kit_ring_t *ring = ompi_evt_kit_mine;

    if (NULL != ring && OMPI_EVT_KIT_EXITED != ring
        && ompi_evt_kit_mine_gen == atomic_load(&k->generation)) {
        if (k->key_created) {
            (void) pthread_setspecific(k->key, NULL);
        }
        kit_thread_exit(ring);
    }
    ompi_evt_kit_mine = NULL;
}
