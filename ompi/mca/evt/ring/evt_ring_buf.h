/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The ring primitive of evt/ring: a single-producer single-consumer byte
 * ring of variable-length records, inline (the fast path lives in a header,
 * as opal/mca/threads does for its mutexes and wait_sync, so the raise path
 * costs no call).
 *
 * Correctness contract of the ompi_evt_ring_spsc_* family:
 *   - ONE producer: the thread that owns the ring, plus signal handlers that
 *     interrupt that same thread. Handing a ring to another producer thread
 *     needs a release/acquire hand-off outside this file (evt_ring_pool.c
 *     does it with the ring's state word).
 *   - ONE consumer at a time (any thread; evt_ring_module.c serialises its
 *     drainers with an atomic trylock).
 *   - The producer never waits: a full ring makes reserve return NULL and
 *     the caller counts the drop. A producer nested inside another
 *     reservation on the same ring (a signal handler that interrupted the
 *     owner between ompi_evt_ring_spsc_enter() and ompi_evt_ring_spsc_exit())
 *     is refused by enter() and must drop and count, as BPF does in NMI:
 *     it never spins on the interrupted reservation (which cannot finish
 *     until the handler returns).
 *
 * Positions: head (consumer) and tail (producer) are free-running unsigned
 * 32-bit byte counters; only their difference (tail - head, in [0, capacity])
 * means anything, so they may wrap through UINT_MAX freely. The capacity is
 * a power of two <= 2^31, so the difference never becomes ambiguous and
 * "pos & mask" is the offset in the buffer.
 *
 * Records: an 8-byte header {size, kind} followed by the caller's bytes,
 * rounded up to 8 bytes, so a 16-byte payload takes 24 bytes of ring plus
 * what the caller stores beside it. A record never straddles the end of the
 * buffer: when it does not fit in the bytes left before the end, those
 * bytes become one SKIP record and the record starts at offset 0. Why a
 * skip record and not a double mapping (BPF's trick of mapping the pages
 * twice so that a straddling record is contiguous in virtual memory): the
 * double mapping needs a memfd or shm object and two mmap()s per ring with
 * page-multiple sizes, which complicates the NUMA placement (hwloc) and the
 * pool; the skip costs at most one record's size per lap of the ring and one
 * predictable branch on reserve. Records are at most capacity/2 bytes, so a
 * record always fits into an empty ring, skip included.
 *
 * Cache lines: the producer's fields (tail, its cached view of head, its
 * pending reservation, the busy flag) sit on one line, the consumer's (head,
 * its private position and cached view of tail) on another, the read-only
 * geometry on a third. The producer reads head only when the ring looks
 * full (a line moving between the cores costs ~118 ns here); the consumer
 * reads tail once per drain pass and publishes head once per batch.
 *
 * Atomics: C11 <stdatomic.h>, as the engine (mca_base_event.h explains why:
 * ThreadSanitizer sees C11 atomics, not Open MPI 4.1's volatile ones).
 */

#ifndef MCA_EVT_RING_BUF_H
#define MCA_EVT_RING_BUF_H

#include "ompi_config.h"

#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "opal/prefetch.h"

BEGIN_C_DECLS

#ifndef OMPI_EVT_CACHE_LINE
/** Cache line size for padding. OPAL's opal_cache_line_size is a run-time
 *  value and cannot size a type; 64 is right for x86-64 and most arm64. */
#    define OMPI_EVT_CACHE_LINE 64
#endif

/* The producer may run in a signal handler: its atomics must be lock-free
 * (C11: value 2 means always lock-free). */
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "evt ring positions need lock-free atomic_uint");

/** Record alignment and header size. */
#define OMPI_EVT_RING_ALIGN 8
/** Smallest ring (bytes). */
#define OMPI_EVT_RING_MIN_CAPACITY 64
/** Largest ring: positions are 32-bit and compared by difference. */
#define OMPI_EVT_RING_MAX_CAPACITY (1u << 31)

/** Record kinds. Callers use kinds >= OMPI_EVT_RING_KIND_USER. */
enum {
    OMPI_EVT_RING_KIND_SKIP = 0, /**< padding up to the end of the buffer */
    OMPI_EVT_RING_KIND_USER = 1,
};

/** A record header; the caller's bytes follow it. */
typedef struct ompi_evt_ring_hdr_t {
    uint32_t size; /**< bytes of the record, header included, multiple of 8 */
    uint32_t kind; /**< OMPI_EVT_RING_KIND_* */
} ompi_evt_ring_hdr_t;
_Static_assert(sizeof(ompi_evt_ring_hdr_t) == OMPI_EVT_RING_ALIGN, "header is one alignment unit");

/** An SPSC ring. Positions are byte counts, see the file comment. */
typedef struct ompi_evt_ring_spsc_t {
    /* ---- producer line: written by the producer only ---- */
    struct {
        /** End of the committed records. Published by commit() (release),
         *  read by the consumer's refresh() (acquire). */
        atomic_uint tail;
        /** The producer's view of head: refreshed only when the ring looks
         *  full. Producer-private. */
        unsigned int cached_head;
        /** End of the current reservation (tail until commit). Private. */
        unsigned int pending;
        /** Non-zero while the producer is between enter() and exit(): a
         *  signal handler on the same thread finds it set and drops.
         *  Only the owning thread and its handlers touch it. */
        atomic_uint busy;
    } __attribute__((aligned(OMPI_EVT_CACHE_LINE))) p;

    /* ---- consumer line: written by the (single) consumer only ---- */
    struct {
        /** Start of the unconsumed records. Published by release()
         *  (release), read by reserve() when the ring looks full (acquire). */
        atomic_uint head;
        /** The consumer's private read position (>= head, <= cached_tail). */
        unsigned int pos;
        /** The consumer's view of tail, set by refresh(). */
        unsigned int cached_tail;
    } __attribute__((aligned(OMPI_EVT_CACHE_LINE))) c;

    /* ---- read-only after init: shared, never bouncing ---- */
    struct {
        unsigned char *data; /**< capacity bytes, 8-byte aligned */
        unsigned int capacity;
        unsigned int mask; /**< capacity - 1 */
    } __attribute__((aligned(OMPI_EVT_CACHE_LINE))) g;
} ompi_evt_ring_spsc_t;

/** Bytes a record of @p len caller bytes takes in the ring. Context: any. */
static inline unsigned int ompi_evt_ring_record_size(size_t len)
{
    return (unsigned int) ((sizeof(ompi_evt_ring_hdr_t) + len + OMPI_EVT_RING_ALIGN - 1)
                           & ~(size_t) (OMPI_EVT_RING_ALIGN - 1));
}

/**
 * Initialise an empty ring over @p buf.
 *
 * @param[out] ring
 * @param[in]  buf       @p capacity bytes, 8-byte aligned, owned by the caller
 * @param[in]  capacity  a power of two in [OMPI_EVT_RING_MIN_CAPACITY, 2^31]
 * @param[in]  start     initial value of head and tail, a multiple of 8 (0
 *                       normally; tests start near UINT_MAX to cross the
 *                       wrap of the counters at once)
 * @retval true   initialised
 * @retval false  capacity not a power of two or out of range, buf or start
 *                not 8-byte aligned
 *
 * Context: INIT, or by the consumer while no producer can reach the ring
 * (the pool hands it over with a release store afterwards).
 */
static inline bool ompi_evt_ring_spsc_init(ompi_evt_ring_spsc_t *ring, void *buf,
                                           unsigned int capacity, unsigned int start)
{
    if (NULL == ring || NULL == buf || capacity < OMPI_EVT_RING_MIN_CAPACITY
        || capacity > OMPI_EVT_RING_MAX_CAPACITY || 0 != (capacity & (capacity - 1))
        || 0 != ((uintptr_t) buf & (OMPI_EVT_RING_ALIGN - 1))
        || 0 != (start & (OMPI_EVT_RING_ALIGN - 1))) {
        return false;
    }
    ring->g.data = (unsigned char *) buf;
    ring->g.capacity = capacity;
    ring->g.mask = capacity - 1;
    /* relaxed: nobody else can see the ring yet (contract above). */
    atomic_store_explicit(&ring->p.tail, start, memory_order_relaxed);
    ring->p.cached_head = start;
    ring->p.pending = start;
    atomic_store_explicit(&ring->p.busy, 0, memory_order_relaxed);
    atomic_store_explicit(&ring->c.head, start, memory_order_relaxed);
    ring->c.pos = start;
    ring->c.cached_tail = start;
    return true;
}

/* ------------------------------------------------------------------------
 * Producer side (one producer: the owning thread and its signal handlers)
 * ------------------------------------------------------------------------ */

/**
 * Enter the producer side. Must bracket reserve/commit when the ring's
 * owner can be interrupted by a signal handler that produces too.
 *
 * @retval true   the caller owns the producer side until exit()
 * @retval false  a producer on this thread is already inside (this is a
 *                nested call from a signal handler): drop and count
 *
 * Why a plain load and store and not an atomic exchange: the only
 * competitor is a handler on the SAME thread (the contract excludes other
 * producer threads), and a handler runs to completion before the thread
 * resumes. If one interrupts between the load and the store, it sees 0, does
 * a whole enter/reserve/commit/exit and leaves busy 0 again; the interrupted
 * call then stores 1 and reads the ring state after the handler's update
 * (the signal fence keeps those reads after the store). So no locked
 * instruction is needed (an xchg costs ~5 ns here, a quarter of the budget).
 *
 * Context: RAISE, SIGNAL.
 */
static inline bool ompi_evt_ring_spsc_enter(ompi_evt_ring_spsc_t *ring)
{
    /* relaxed: same-thread flag, see above. */
    if (0 != atomic_load_explicit(&ring->p.busy, memory_order_relaxed)) {
        return false;
    }
    atomic_store_explicit(&ring->p.busy, 1, memory_order_relaxed);
    /* Compiler-only barrier: the ring accesses below stay after the store
     * above, so a handler arriving after it sees busy set. Pairs with the
     * signal fence in ompi_evt_ring_spsc_exit(). */
    atomic_signal_fence(memory_order_seq_cst);
    return true;
}

/** Leave the producer side (after commit or an abandoned reserve).
 *  Context: RAISE, SIGNAL. */
static inline void ompi_evt_ring_spsc_exit(ompi_evt_ring_spsc_t *ring)
{
    /* Compiler-only barrier: every ring access of this producer call is done
     * before busy is cleared; pairs with the fence in enter(). */
    atomic_signal_fence(memory_order_seq_cst);
    atomic_store_explicit(&ring->p.busy, 0, memory_order_relaxed);
}

/**
 * Reserve room for @p len bytes.
 *
 * @param[in] ring
 * @param[in] len   caller bytes; the record takes ompi_evt_ring_record_size(len)
 * @param[in] kind  >= OMPI_EVT_RING_KIND_USER, stored in the header
 * @return where to write the @p len bytes, or NULL when the ring is full or
 *         the record is larger than capacity/2 (nothing changed: the caller
 *         counts the drop)
 *
 * At most one reservation is open at a time; commit() publishes it, and a
 * new reserve() without commit() abandons it.
 *
 * Context: RAISE, SIGNAL (inside enter()/exit() if handlers produce too).
 * Ordering: acquire-loads head only when the ring looks full.
 */
static inline void *ompi_evt_ring_spsc_reserve(ompi_evt_ring_spsc_t *ring, size_t len,
                                               uint32_t kind)
{
    /* relaxed: tail is written only by this producer. */
    unsigned int pos = atomic_load_explicit(&ring->p.tail, memory_order_relaxed);
    unsigned int size = ompi_evt_ring_record_size(len);
    unsigned int off, contig, need;
    ompi_evt_ring_hdr_t *hdr;

    if (OPAL_UNLIKELY(len > ring->g.capacity / 2 || size > ring->g.capacity / 2)) {
        return NULL;
    }
    off = pos & ring->g.mask;
    contig = ring->g.capacity - off;
    /* The record plus, if it does not fit before the end, the skip record
     * that pads to the end. */
    need = size + (contig < size ? contig : 0);
    /* Free space by difference: capacity - (pos - head), valid across the
     * wrap of the counters. */
    if (OPAL_UNLIKELY(need > ring->g.capacity - (pos - ring->p.cached_head))) {
        /* Looks full: refresh the view of head. Acquire pairs with the
         * release store in ompi_evt_ring_spsc_release(): the consumer has
         * finished reading the bytes before head, so they may be
         * overwritten now. */
        ring->p.cached_head = atomic_load_explicit(&ring->c.head, memory_order_acquire);
        if (need > ring->g.capacity - (pos - ring->p.cached_head)) {
            return NULL;
        }
    }
    if (contig < size) {
        /* Pad to the end (contig is a multiple of 8, >= 8): a skip record
         * the consumer steps over. */
        hdr = (ompi_evt_ring_hdr_t *) (ring->g.data + off);
        hdr->size = contig;
        hdr->kind = OMPI_EVT_RING_KIND_SKIP;
        pos += contig;
        off = 0;
    }
    hdr = (ompi_evt_ring_hdr_t *) (ring->g.data + off);
    hdr->size = size;
    hdr->kind = kind;
    ring->p.pending = pos + size;
    return hdr + 1;
}

/**
 * Publish the open reservation (and the skip record before it, if any).
 * Context: RAISE, SIGNAL.
 * Ordering: release store of tail; pairs with the acquire load in
 * ompi_evt_ring_spsc_refresh(): the record's bytes are visible before the
 * consumer can see the new tail.
 */
static inline void ompi_evt_ring_spsc_commit(ompi_evt_ring_spsc_t *ring)
{
    atomic_store_explicit(&ring->p.tail, ring->p.pending, memory_order_release);
}

/** Copy @p len bytes in as one record: reserve + memcpy + commit.
 *  @retval false  full (nothing written; the caller counts the drop)
 *  Context: RAISE, SIGNAL (inside enter()/exit() if handlers produce too). */
static inline bool ompi_evt_ring_spsc_push(ompi_evt_ring_spsc_t *ring, const void *buf,
                                           size_t len, uint32_t kind)
{
    void *dst = ompi_evt_ring_spsc_reserve(ring, len, kind);
    if (OPAL_UNLIKELY(NULL == dst)) {
        return false;
    }
    memcpy(dst, buf, len);
    ompi_evt_ring_spsc_commit(ring);
    return true;
}

/* ------------------------------------------------------------------------
 * Consumer side (one consumer at a time)
 * ------------------------------------------------------------------------ */

/**
 * Take a new view of the producer's tail.
 * @return bytes committed and not yet consumed
 * Context: the consumer (PROGRESS, ANY).
 * Ordering: acquire; pairs with the release store in
 * ompi_evt_ring_spsc_commit(): records up to the tail read are complete.
 */
static inline unsigned int ompi_evt_ring_spsc_refresh(ompi_evt_ring_spsc_t *ring)
{
    ring->c.cached_tail = atomic_load_explicit(&ring->p.tail, memory_order_acquire);
    return ring->c.cached_tail - ring->c.pos;
}

/**
 * The next record up to the last refresh(), skip records stepped over.
 * @return its header (the caller's bytes follow it; hdr->size - 8 of them,
 *         rounded up), or NULL when everything seen is consumed
 * Context: the consumer. Does not reload tail: call refresh() for that, so
 * that a drain works on a snapshot and terminates.
 */
static inline const ompi_evt_ring_hdr_t *ompi_evt_ring_spsc_peek(ompi_evt_ring_spsc_t *ring)
{
    const ompi_evt_ring_hdr_t *hdr;

    while (ring->c.pos != ring->c.cached_tail) {
        hdr = (const ompi_evt_ring_hdr_t *) (ring->g.data + (ring->c.pos & ring->g.mask));
        if (OPAL_LIKELY(OMPI_EVT_RING_KIND_SKIP != hdr->kind)) {
            return hdr;
        }
        ring->c.pos += hdr->size;
    }
    return NULL;
}

/** Step over the record peek() returned. The bytes stay readable until
 *  release(). Context: the consumer. */
static inline void ompi_evt_ring_spsc_consume(ompi_evt_ring_spsc_t *ring,
                                              const ompi_evt_ring_hdr_t *hdr)
{
    ring->c.pos += hdr->size;
}

/** Bytes consumed but not yet released to the producer. Context: the consumer. */
static inline unsigned int ompi_evt_ring_spsc_unreleased(ompi_evt_ring_spsc_t *ring)
{
    /* relaxed: head is written only by the consumer. */
    return ring->c.pos - atomic_load_explicit(&ring->c.head, memory_order_relaxed);
}

/**
 * Give the consumed bytes back to the producer (once per batch, not per
 * record: each call may move a cache line between the cores).
 * Context: the consumer.
 * Ordering: release store of head; pairs with the acquire load of head in
 * ompi_evt_ring_spsc_reserve(): our reads of the records are done before the
 * producer may overwrite them.
 */
static inline void ompi_evt_ring_spsc_release(ompi_evt_ring_spsc_t *ring)
{
    atomic_store_explicit(&ring->c.head, ring->c.pos, memory_order_release);
}

/** No record committed beyond what the consumer has consumed? (A fresh
 *  look at tail; skip records do not count.) Context: the consumer.
 *  Ordering: as refresh(). */
static inline bool ompi_evt_ring_spsc_empty(ompi_evt_ring_spsc_t *ring)
{
    (void) ompi_evt_ring_spsc_refresh(ring);
    return NULL == ompi_evt_ring_spsc_peek(ring);
}

END_C_DECLS

#endif /* MCA_EVT_RING_BUF_H */
