/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The ring pool: every ring is allocated when the component opens, so the
 * raise path never allocates. A thread's first raise claims a FREE ring
 * with one compare-and-swap and keeps it in an initial-exec TLS pointer
 * (no __tls_get_addr call, async-signal-safe). At thread exit a pthread
 * key destructor marks the ring RELEASED; the drainer empties it and makes
 * it FREE for the next thread.
 *
 * NUMA placement: the ring buffers come from hwloc_alloc() (Open MPI's
 * topology, when it is loaded) or mmap(): in both cases pages that are
 * mapped but not touched. The claiming thread touches every page at claim
 * (first touch), so with Linux's default local policy the ring lands on
 * the NUMA node of the thread that writes it, and the raise path never
 * takes a page fault later. Why not hwloc_alloc_membind() or
 * hwloc_set_area_membind() at claim: the node is only known when a thread
 * claims, and binding then is an mbind() system call on the raise path,
 * which may be a signal handler. A ring reused by a thread on another node
 * keeps its first node (the pool does not migrate pages).
 */

#include "ompi_config.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "opal/constants.h"
#include "opal/mca/hwloc/base/base.h"
#include "ompi/constants.h"
#include "ompi/mca/evt/ring/evt_ring.h"

/* This thread's ring and the pool generation it was claimed from.
 * initial-exec: a fixed offset from the thread pointer, no lazy allocation
 * (so usable in a signal handler); 16 bytes of the static TLS surplus that
 * glibc keeps for dlopen()ed objects. */
__thread ompi_evt_ring_t *ompi_evt_ring_mine __attribute__((tls_model("initial-exec")));
__thread unsigned int ompi_evt_ring_mine_gen __attribute__((tls_model("initial-exec")));


/* glibc keeps the first PTHREAD_KEY_2NDLEVEL_SIZE (32, not exported) keys
 * of a thread in a static array inside its descriptor: pthread_setspecific
 * on such a key is two plain stores, no allocation, no lock, so it can be
 * called from a signal handler or inside free()/munmap(). Elsewhere (a
 * larger key, another libc) a claim in SIGNAL context defers the key to the
 * thread's next raise in a normal context. */
#define RING_KEY_FIRST_LEVEL 32
static bool key_signal_safe;

/* pthread key destructor: the thread exits; its ring goes back to the pool
 * once drained. Context: thread exit (ANY). */
static void ring_thread_exit(void *arg)
{
    ompi_evt_ring_t *ring = arg;

    if (NULL == ring || ring != ompi_evt_ring_mine) {
        return;
    }
    ompi_evt_ring_mine = OMPI_EVT_RING_EXITED;
    /* release: our last commits and private fields are visible to the
     * drainer that sees RELEASED (pairs with the acquire load in
     * ring_drain_snapshot(), evt_ring_module.c) and, through it, to the
     * next owner. */
    atomic_store_explicit(&ring->pool.state, OMPI_EVT_RING_RELEASED, memory_order_release);
}

/* Context: INIT. */
int ompi_evt_ring_pool_open(void)
{
    ompi_evt_ring_component_t *c = &mca_evt_ring_component;
    size_t size = (size_t) c->ring_size;
    int rc = OMPI_SUCCESS;

    if (c->ring_size < OMPI_EVT_RING_MIN_RING_SIZE || 0 != (c->ring_size & (c->ring_size - 1))
        || c->pool_size < 1) {
        return OPAL_ERR_BAD_PARAM;
    }
    if (0 != posix_memalign((void **) &c->rings, OMPI_EVT_CACHE_LINE,
                            (size_t) c->pool_size * sizeof(ompi_evt_ring_t))) {
        c->rings = NULL;
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    memset(c->rings, 0, (size_t) c->pool_size * sizeof(ompi_evt_ring_t));
    c->ring_data = calloc((size_t) c->pool_size, sizeof(void *));
    if (NULL == c->ring_data) {
        rc = OPAL_ERR_OUT_OF_RESOURCE;
        goto cleanup;
    }
    c->data_from_hwloc = NULL != opal_hwloc_topology;
    for (int i = 0; i < c->pool_size; ++i) {
        void *p;
        if (c->data_from_hwloc) {
            p = hwloc_alloc(opal_hwloc_topology, size);
        } else {
            p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            p = MAP_FAILED == p ? NULL : p;
        }
        if (NULL == p) {
            rc = OPAL_ERR_OUT_OF_RESOURCE;
            goto cleanup;
        }
        c->ring_data[i] = p;
        (void) ompi_evt_ring_spsc_init(&c->rings[i].buf, p, (unsigned int) size, 0);
        c->rings[i].pool.index = i;
        atomic_init(&c->rings[i].pool.state, OMPI_EVT_RING_FREE);
    }
    if (0 != pthread_key_create(&c->key, ring_thread_exit)) {
        rc = OPAL_ERR_OUT_OF_RESOURCE;
        goto cleanup;
    }
    c->key_created = true;
#if defined(__GLIBC__)
    key_signal_safe = (unsigned long) c->key < RING_KEY_FIRST_LEVEL;
#else
    key_signal_safe = false;
#endif
    atomic_store_explicit(&c->high_water, 0, memory_order_relaxed);
    atomic_store_explicit(&c->dropped_pool, 0, memory_order_relaxed);
    /* relaxed: published to raising threads by the engine's release store
     * of the delivery (mca_base_event_delivery_set()). */
    atomic_fetch_add_explicit(&c->generation, 1, memory_order_relaxed);
    return OMPI_SUCCESS;

cleanup:
    ompi_evt_ring_pool_close();
    return rc;
}

/* Context: INIT (nobody raises into the pool any more). */
void ompi_evt_ring_pool_close(void)
{
    ompi_evt_ring_component_t *c = &mca_evt_ring_component;

    if (c->key_created) {
        /* No destructor runs after this: threads still alive simply keep a
         * stale pointer that the generation check ignores. */
        (void) pthread_key_delete(c->key);
        c->key_created = false;
    }
    if (NULL != c->ring_data) {
        for (int i = 0; i < c->pool_size; ++i) {
            if (NULL == c->ring_data[i]) {
                continue;
            }
            if (c->data_from_hwloc) {
                (void) hwloc_free(opal_hwloc_topology, c->ring_data[i], (size_t) c->ring_size);
            } else {
                (void) munmap(c->ring_data[i], (size_t) c->ring_size);
            }
        }
        free(c->ring_data);
        c->ring_data = NULL;
    }
    free(c->rings);
    c->rings = NULL;
    /* relaxed: INIT context, see pool_open */
    atomic_fetch_add_explicit(&c->generation, 1, memory_order_relaxed);
}

/* Claim a FREE ring. Context: RAISE, SIGNAL (lock-free: CAS only). */
static ompi_evt_ring_t *ring_claim(bool signal_context)
{
    ompi_evt_ring_component_t *c = &mca_evt_ring_component;
    long page = 4096;

    for (int i = 0; i < c->pool_size; ++i) {
        ompi_evt_ring_t *ring = &c->rings[i];
        int expected = OMPI_EVT_RING_FREE;
        int hw;

        /* relaxed pre-check: skip owned rings without a locked instruction */
        if (OMPI_EVT_RING_FREE != atomic_load_explicit(&ring->pool.state, memory_order_relaxed)) {
            continue;
        }
        /* acquire: pairs with the drainer's release store of FREE in
         * ompi_evt_ring_pool_recycle() (or with pool_open): the ring's
         * positions and the previous owner's fields are visible. */
        if (!atomic_compare_exchange_strong_explicit(&ring->pool.state, &expected,
                                                     OMPI_EVT_RING_OWNED, memory_order_acquire,
                                                     memory_order_relaxed)) {
            continue;
        }
        /* The drain scans [0, high_water): raise it to cover this ring.
         * release: pairs with the acquire load in the drain, which then
         * sees the state OWNED. */
        hw = atomic_load_explicit(&c->high_water, memory_order_relaxed);
        while (hw < i + 1
               && !atomic_compare_exchange_weak_explicit(&c->high_water, &hw, i + 1,
                                                         memory_order_release,
                                                         memory_order_relaxed)) {
        }
        /* First touch from the owning thread: the pages are placed on its
         * NUMA node and never fault on the raise path (see the file comment).
         * A plain write of zero into an empty ring changes nothing visible. */
        for (size_t off = 0; off < (size_t) c->ring_size; off += (size_t) page) {
            ((volatile unsigned char *) ring->buf.g.data)[off] = 0;
        }
        /* Without the key the thread-exit destructor never gives the ring
         * back: set it now whenever that is safe here (key_signal_safe). */
        ring->own.needs_key = signal_context && !key_signal_safe;
        if (!ring->own.needs_key) {
            (void) pthread_setspecific(c->key, ring);
        }
        return ring;
    }
    return NULL;
}

/* The slow part of ompi_evt_ring_pool_mine(): first raise of this thread
 * (or of this pool generation), or a ring claimed from a signal handler
 * whose key is still to be set. Context: RAISE, SIGNAL. */
ompi_evt_ring_t *ompi_evt_ring_pool_mine_slow(bool signal_context)
{
    ompi_evt_ring_component_t *c = &mca_evt_ring_component;
    /* relaxed: the generation changes only in INIT context, while no raise
     * reaches this module. */
    unsigned int gen = atomic_load_explicit(&c->generation, memory_order_relaxed);
    ompi_evt_ring_t *ring = ompi_evt_ring_mine;

    if (OPAL_UNLIKELY(OMPI_EVT_RING_EXITED == ring)) {
        return NULL; /* after the thread's destructors: see OMPI_EVT_RING_EXITED */
    }
    if (OPAL_LIKELY(NULL != ring && gen == ompi_evt_ring_mine_gen)) {
        if (OPAL_UNLIKELY(ring->own.needs_key) && !signal_context) {
            ring->own.needs_key = false;
            (void) pthread_setspecific(c->key, ring);
        }
        return ring;
    }
    if (NULL == c->rings) {
        return NULL;
    }
    ring = ring_claim(signal_context);
    if (NULL != ring) {
        ompi_evt_ring_mine = ring;
        ompi_evt_ring_mine_gen = gen;
    }
    return ring;
}

/* Context: the drainer, drain lock held, ring RELEASED and empty. */
void ompi_evt_ring_pool_recycle(ompi_evt_ring_t *ring)
{
    ompi_evt_ring_spsc_release(&ring->buf);
    /* release: the consumer's release of head and its reads are done before
     * a claimer's acquire CAS in ring_claim() sees FREE. */
    atomic_store_explicit(&ring->pool.state, OMPI_EVT_RING_FREE, memory_order_release);
}

/* Test seam: as if this thread exited. Context: ANY. */
void ompi_evt_ring_test_thread_exit(void)
{
    ompi_evt_ring_t *ring = ompi_evt_ring_mine;

    if (NULL != ring && OMPI_EVT_RING_EXITED != ring
        && ompi_evt_ring_mine_gen == atomic_load(&mca_evt_ring_component.generation)) {
        if (mca_evt_ring_component.key_created) {
            (void) pthread_setspecific(mca_evt_ring_component.key, NULL);
        }
        ring_thread_exit(ring);
    }
    ompi_evt_ring_mine = NULL;
}
