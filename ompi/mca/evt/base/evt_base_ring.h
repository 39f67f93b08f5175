/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The kit's ring primitive: a single-producer single-consumer byte ring of
 * variable-length records, inline (the fast path lives in a header, as
 * opal/mca/threads does for its mutexes and wait_sync, so the raise path
 * costs no call).
 *
 * Installed, and what of it is an interface: the layout of the control
 * block (ompi_evt_ring_ctl_t) and of the record header (ompi_evt_ring_hdr_t)
 * is ABI, shared with the flight-recorder file format (common_evt_flight_format.h
 * restates it, and evt/file's static assertions keep the two in step: a
 * change is a new file format version) and with a component's ring
 * storage (ompi_evt_base_storage_t). The inline functions are the kit's
 * own: an installed kit's raise path is compiled into libompi_evt, and a
 * component reaches records through ompi_evt_base_kit_decode(), never by
 * calling these; they may change with any release.
 *
 * Correctness contract of the ompi_evt_ring_spsc_* family:
 *   - ONE producer: the thread that owns the ring, plus signal handlers that
 *     interrupt that same thread. Handing a ring to another producer thread
 *     needs a release/acquire hand-off outside this file (the pool does it
 *     with the ring's state word).
 *   - ONE consumer at a time (any thread; the kit serialises its drainers
 *     with its drain token).
 *   - The producer never waits: a full ring makes reserve return NULL and
 *     the caller drops and counts, or (overwrite mode) evicts the oldest
 *     records. A producer nested inside another reservation on the same
 *     ring (a signal handler that interrupted the owner between
 *     ompi_evt_ring_spsc_enter() and ompi_evt_ring_spsc_exit()) is refused
 *     by enter() and must drop and count, as BPF does in NMI: it never
 *     spins on the interrupted reservation (which cannot finish until the
 *     handler returns).
 *
 * Positions: head (consumer), tail (producer) and oldest (overwrite mode)
 * are free-running unsigned 32-bit byte counters; only differences mean
 * anything, so they may wrap through UINT_MAX freely. The capacity is a
 * power of two <= 2^31, so a difference is never ambiguous and
 * "pos & mask" is the offset in the buffer.
 *
 * The shared positions live in a control block (ompi_evt_ring_ctl_t) that
 * the caller places, next to the data bytes: in process memory, or in a
 * file mapping, where a reader finds after a crash every record committed
 * between oldest (overwrite mode; head otherwise) and tail. The producer's
 * and consumer's private fields stay in ompi_evt_ring_t, in process memory.
 *
 * Records: an 8-byte header {size, kind} followed by the caller's bytes,
 * rounded up to 8 bytes. A record never straddles the end of the buffer:
 * when it does not fit in the bytes left before the end, those bytes
 * become one SKIP record and the record starts at offset 0:
 *
 *     offset 0                                              capacity
 *     | rec C ........ | free ............. | rec A | rec B | SKIP |
 *       ^ tail wrapped here                  ^ head          ^ B ended
 *                                                              too close
 *                                                              to the end
 *
 * Why a skip record and not a double mapping (BPF maps the pages twice so
 * that a straddling record is contiguous in virtual memory): the double
 * mapping needs a memfd and two mmap()s per ring with page-multiple sizes,
 * which complicates the NUMA placement and rings placed by a component;
 * the skip costs at most one record's size per lap and one predictable
 * branch on reserve. Records are at most capacity/2 bytes, so a record
 * always fits into an empty ring, skip included.
 *
 * Overwrite mode (a flight recorder): when a record does not fit, the
 * producer frees room at the oldest end (ompi_evt_ring_spsc_evict()). A
 * record the consumer has already taken only moves `oldest`; one it has not
 * is taken away from it first: the producer moves head past it with a CAS,
 * and the consumer, which claims every record with a CAS of head too
 * (ompi_evt_ring_spsc_claim()), finds it gone and skips to the new head.
 * Whoever moves head past a record owns it: the consumer dispatches its
 * copy, the producer counts the drop. The consumer reads a record before
 * its claim succeeds, so in this mode it copies the record out and uses the
 * copy only after the claim.
 *
 * Cache lines: the producer's shared positions (tail, oldest) on one line,
 * the consumer's (head) on another; the private fields of each side on
 * their own lines. The producer reads head only when the ring looks full
 * (a line moving between the cores costs ~118 ns here); the consumer reads
 * tail once per drain pass and publishes head once per batch.
 *
 * Atomics: C11 <stdatomic.h>, as the engine (mca_base_event.h explains why:
 * ThreadSanitizer sees C11 atomics, not Open MPI 4.1's volatile ones).
 */

#ifndef OMPI_EVT_BASE_RING_H
#define OMPI_EVT_BASE_RING_H

#include "ompi_config.h"

#include <limits.h>
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

/* Overwrite mode: the consumer reads a record optimistically (the producer
 * may take the record and reuse its bytes until the consumer's claim
 * succeeds; the claim then fails and the torn copy is discarded: see
 * "Overwrite mode" above). That is the seqlock pattern, which the C11
 * model calls a data race although no torn value is ever used. For
 * ThreadSanitizer builds only, the functions doing such reads carry
 * OMPI_EVT_RING_OPTIMISTIC (not instrumented, not inlined into
 * instrumented code) and bracket their copies with
 * OMPI_EVT_RING_IGNORE_READS_BEGIN/END (TSan's own annotations, which also
 * cover its memcpy interceptor). Empty in every other build. */
#if defined(__SANITIZE_THREAD__)
#    define OMPI_EVT_RING_TSAN 1
#elif defined(__has_feature)
#    if __has_feature(thread_sanitizer)
#        define OMPI_EVT_RING_TSAN 1
#    endif
#endif
#if defined(OMPI_EVT_RING_TSAN)
void AnnotateIgnoreReadsBegin(const char *file, int line);
void AnnotateIgnoreReadsEnd(const char *file, int line);
#    define OMPI_EVT_RING_OPTIMISTIC           __attribute__((no_sanitize("thread")))
#    define OMPI_EVT_RING_IGNORE_READS_BEGIN() AnnotateIgnoreReadsBegin(__FILE__, __LINE__)
#    define OMPI_EVT_RING_IGNORE_READS_END()   AnnotateIgnoreReadsEnd(__FILE__, __LINE__)
#else
#    define OMPI_EVT_RING_OPTIMISTIC
#    define OMPI_EVT_RING_IGNORE_READS_BEGIN()
#    define OMPI_EVT_RING_IGNORE_READS_END()
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

/** The shared positions. Fixed layout (two cache lines): it may be placed
 *  in a file that a reader opens after the process died. */
typedef struct ompi_evt_ring_ctl_t {
    struct {
        /** End of the committed records. Published by commit() (release),
         *  read by the consumer's refresh() (acquire). */
        atomic_uint tail;
        /** Overwrite mode: start of the oldest record still intact. Moved
         *  by evict() (release) before the bytes before it are reused. */
        atomic_uint oldest;
        /** Overwrite mode: records evicted so far (skip records not
         *  counted), dispatched or not. Stored by evict() before
         *  evict_mark and oldest. */
        atomic_ullong evicted;
        /** Overwrite mode: (evicted mod 2^32) << 32 | the oldest it goes
         *  with, stored by evict() between evicted and oldest. A reader
         *  of a file left by a process that died inside evict() uses it
         *  to make evicted and oldest agree (ompi/mca/common/evt/common_evt_flight_read.c). */
        atomic_ullong evict_mark;
    } __attribute__((aligned(OMPI_EVT_CACHE_LINE))) p;
    struct {
        /** Start of the unconsumed records. Published by release()
         *  (release), read by reserve() when the ring looks full (acquire);
         *  in overwrite mode moved by CAS from both sides. */
        atomic_uint head;
    } __attribute__((aligned(OMPI_EVT_CACHE_LINE))) c;
} ompi_evt_ring_ctl_t;
_Static_assert(2 * OMPI_EVT_CACHE_LINE == sizeof(ompi_evt_ring_ctl_t), "two lines");

/** An SPSC ring: the private fields of both sides, and where the shared
 *  positions and the data are. */
typedef struct ompi_evt_ring_spsc_t {
    /* ---- producer-private ---- */
    struct {
        /** The producer's view of head: refreshed only when the ring looks
         *  full. */
        unsigned int cached_head;
        /** End of the current reservation (tail until commit). */
        unsigned int pending;
        /** The producer's copy of ctl->p.oldest (overwrite mode). */
        unsigned int oldest;
        /** The producer's copy of ctl->p.evicted (overwrite mode). */
        uint64_t evicted;
        /** Non-zero while the producer is between enter() and exit(): a
         *  signal handler on the same thread finds it set and drops.
         *  Only the owning thread and its handlers touch it. */
        atomic_uint busy;
    } __attribute__((aligned(OMPI_EVT_CACHE_LINE))) p;

    /* ---- consumer-private ---- */
    struct {
        /** The consumer's read position (>= head, <= cached_tail). */
        unsigned int pos;
        /** The consumer's view of tail, set by refresh(). */
        unsigned int cached_tail;
    } __attribute__((aligned(OMPI_EVT_CACHE_LINE))) c;

    /* ---- read-only after init: shared, never bouncing ---- */
    struct {
        ompi_evt_ring_ctl_t *ctl;
        unsigned char *data; /**< capacity bytes, 8-byte aligned */
        unsigned int capacity;
        unsigned int mask; /**< capacity - 1 */
        bool overwrite;    /**< overwrite mode (see the file comment) */
    } __attribute__((aligned(OMPI_EVT_CACHE_LINE))) g;
} ompi_evt_ring_spsc_t;

/** Bytes a record of @p len caller bytes takes in the ring. Context: any. */
static inline unsigned int ompi_evt_ring_record_size(size_t len)
{
    return (unsigned int) ((sizeof(ompi_evt_ring_hdr_t) + len + OMPI_EVT_RING_ALIGN - 1)
                           & ~(size_t) (OMPI_EVT_RING_ALIGN - 1));
}

/**
 * Initialise an empty ring over @p ctl and @p buf.
 *
 * @param[out] ring
 * @param[in]  ctl       the shared positions (caller memory, may be a file)
 * @param[in]  buf       @p capacity bytes, 8-byte aligned, owned by the caller
 * @param[in]  capacity  a power of two in [OMPI_EVT_RING_MIN_CAPACITY, 2^31]
 * @param[in]  start     initial value of every position, a multiple of 8 (0
 *                       normally; tests start near UINT_MAX to cross the
 *                       wrap of the counters at once)
 * @param[in]  overwrite overwrite mode
 * @retval true   initialised
 * @retval false  capacity not a power of two or out of range, a NULL
 *                pointer, buf or start not 8-byte aligned
 *
 * Context: INIT, or by the consumer while no producer can reach the ring
 * (the pool hands it over with a release store afterwards).
 */
static inline bool ompi_evt_ring_spsc_init(ompi_evt_ring_spsc_t *ring, ompi_evt_ring_ctl_t *ctl,
                                           void *buf, unsigned int capacity, unsigned int start,
                                           bool overwrite)
{
    if (NULL == ring || NULL == ctl || NULL == buf || capacity < OMPI_EVT_RING_MIN_CAPACITY
        || capacity > OMPI_EVT_RING_MAX_CAPACITY || 0 != (capacity & (capacity - 1))
        || 0 != ((uintptr_t) buf & (OMPI_EVT_RING_ALIGN - 1))
        || 0 != (start & (OMPI_EVT_RING_ALIGN - 1))) {
        return false;
    }
    ring->g.ctl = ctl;
    ring->g.data = (unsigned char *) buf;
    ring->g.capacity = capacity;
    ring->g.mask = capacity - 1;
    ring->g.overwrite = overwrite;
    /* relaxed: nobody else can see the ring yet (contract above). */
    atomic_store_explicit(&ctl->p.tail, start, memory_order_relaxed);
    atomic_store_explicit(&ctl->p.oldest, start, memory_order_relaxed);
    atomic_store_explicit(&ctl->c.head, start, memory_order_relaxed);
    atomic_store_explicit(&ctl->p.evicted, 0, memory_order_relaxed);
    atomic_store_explicit(&ctl->p.evict_mark, start, memory_order_relaxed);
    ring->p.evicted = 0;
    ring->p.cached_head = start;
    ring->p.pending = start;
    ring->p.oldest = start;
    atomic_store_explicit(&ring->p.busy, 0, memory_order_relaxed);
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
 * instruction is needed (an xchg costs ~5 ns here).
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

/* The start of the oldest bytes the producer must not overwrite: head in
 * drop-new mode (the consumer's), oldest in overwrite mode (its own). */
static inline unsigned int ompi_evt_ring_spsc_limit(const ompi_evt_ring_spsc_t *ring)
{
    return ring->g.overwrite ? ring->p.oldest : ring->p.cached_head;
}

/**
 * Reserve room for @p len bytes.
 *
 * @param[in] ring
 * @param[in] len   caller bytes; the record takes ompi_evt_ring_record_size(len)
 * @param[in] kind  >= OMPI_EVT_RING_KIND_USER, stored in the header
 * @return where to write the @p len bytes, or NULL when the ring is full or
 *         the record is larger than capacity/2 (nothing changed: the caller
 *         counts the drop, or in overwrite mode evicts and tries again)
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
    unsigned int pos = atomic_load_explicit(&ring->g.ctl->p.tail, memory_order_relaxed);
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
    /* Free space by difference: capacity - (pos - limit), valid across the
     * wrap of the counters. */
    if (OPAL_UNLIKELY(need > ring->g.capacity - (pos - ompi_evt_ring_spsc_limit(ring)))) {
        if (ring->g.overwrite) {
            return NULL; /* the caller evicts */
        }
        /* Looks full: refresh the view of head. Acquire pairs with the
         * release store in ompi_evt_ring_spsc_release(): the consumer has
         * finished reading the bytes before head, so they may be
         * overwritten now. */
        ring->p.cached_head = atomic_load_explicit(&ring->g.ctl->c.head, memory_order_acquire);
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
 * consumer can see the new tail. For a reader of a file mapping after a
 * crash, the same store order means a record below tail is whole.
 */
static inline void ompi_evt_ring_spsc_commit(ompi_evt_ring_spsc_t *ring)
{
    atomic_store_explicit(&ring->g.ctl->p.tail, ring->p.pending, memory_order_release);
}

/** Copy @p len bytes in as one record: reserve + memcpy + commit.
 *  @retval false  full (nothing written; the caller counts the drop)
 *  Context: RAISE, SIGNAL (inside enter()/exit() if handlers produce too). */
static inline bool ompi_evt_ring_spsc_push(ompi_evt_ring_spsc_t *ring, const void *buf, size_t len,
                                           uint32_t kind)
{
    void *dst = ompi_evt_ring_spsc_reserve(ring, len, kind);
    if (OPAL_UNLIKELY(NULL == dst)) {
        return false;
    }
    memcpy(dst, buf, len);
    ompi_evt_ring_spsc_commit(ring);
    return true;
}

/* Publish evictions up to ring->p.oldest, @p count records in all.
 * Context: the producer (see ompi_evt_ring_spsc_evict()). */
static inline void ompi_evt_ring_spsc_evict_publish(ompi_evt_ring_spsc_t *ring, uint64_t count)
{
    /* The count first, then the mark pairing it with the new oldest, then
     * oldest (all release: a reader of the file after a crash between any
     * two finds a state the reader makes consistent:
     * ompi/mca/common/evt/common_evt_flight_read.c). */
    ring->p.evicted = count;
    atomic_store_explicit(&ring->g.ctl->p.evicted, count, memory_order_release);
    atomic_store_explicit(&ring->g.ctl->p.evict_mark,
                          ((uint64_t) (uint32_t) count << 32) | ring->p.oldest,
                          memory_order_release);
    /* release: the records left between oldest and tail are whole when a
     * reader sees this oldest; and the fence keeps the stores that reuse
     * the bytes after this one (a release fence orders them after it). */
    atomic_store_explicit(&ring->g.ctl->p.oldest, ring->p.oldest, memory_order_release);
    atomic_thread_fence(memory_order_release);
}

/**
 * Overwrite mode: make room for a record of @p len bytes by giving up the
 * oldest records. Each record the consumer had not taken yet is taken from
 * it (head moved by CAS) and passed to @p evicted (its header; the bytes
 * are intact during the call) so the caller counts the drop.
 *
 * @retval true   reserve() will now succeed
 * @retval false  not overwrite mode, or @p len larger than capacity/2
 * Context: RAISE, SIGNAL (inside enter()/exit()).
 * Ordering: oldest is published (release) before the bytes are reused: a
 * reader of a file mapping never finds a partly overwritten record between
 * oldest and tail. The CAS on head pairs with the consumer's claim CAS.
 */
static inline bool
ompi_evt_ring_spsc_evict(ompi_evt_ring_spsc_t *ring, size_t len,
                         void (*evicted)(const ompi_evt_ring_hdr_t *hdr, void *arg), void *arg)
{
    /* relaxed: written only by this producer */
    unsigned int pos = atomic_load_explicit(&ring->g.ctl->p.tail, memory_order_relaxed);
    unsigned int size = ompi_evt_ring_record_size(len);
    unsigned int off = pos & ring->g.mask, contig = ring->g.capacity - off;
    unsigned int need = size + (contig < size ? contig : 0);
    uint64_t count = ring->p.evicted;

    if (!ring->g.overwrite || size > ring->g.capacity / 2) {
        return false;
    }
    while (need > ring->g.capacity - (pos - ring->p.oldest)) {
        const ompi_evt_ring_hdr_t *hdr = (const ompi_evt_ring_hdr_t *) (ring->g.data
                                                                        + (ring->p.oldest
                                                                           & ring->g.mask));
        unsigned int h = ring->p.cached_head;

        /* The consumer has taken everything before head (oldest <= head
         * always): only a record at head itself may still be its. A cached
         * head not ahead of oldest may be stale: look again. acquire: the
         * consumer's reads of the records before head are done (pairs with
         * its claim CAS). */
        if ((int) (h - ring->p.oldest) <= 0) {
            h = atomic_load_explicit(&ring->g.ctl->c.head, memory_order_acquire);
            if (h == ring->p.oldest
                && atomic_compare_exchange_strong_explicit(&ring->g.ctl->c.head, &h, h + hdr->size,
                                                           memory_order_acq_rel,
                                                           memory_order_acquire)) {
                h += hdr->size;
                if (OMPI_EVT_RING_KIND_SKIP != hdr->kind && NULL != evicted) {
                    evicted(hdr, arg);
                }
            }
            ring->p.cached_head = h;
        }
        count += OMPI_EVT_RING_KIND_SKIP != hdr->kind;
        ring->p.oldest += hdr->size;
    }
    ompi_evt_ring_spsc_evict_publish(ring, count);
    return true;
}

/**
 * Overwrite mode, the common case of a full ring: make room for a record
 * of @p size bytes (ompi_evt_ring_record_size(), fitting before the end of
 * the buffer) by giving up only records the consumer has already taken
 * (before its head as last seen): no CAS, nothing to count as a drop.
 *
 * @retval true   the record fits now
 * @retval false  it needs a record the consumer has not taken: the caller
 *                goes on with ompi_evt_ring_spsc_evict() (what was given
 *                up here is published)
 * Context: RAISE, SIGNAL (inside enter()/exit()).
 * Ordering: as ompi_evt_ring_spsc_evict().
 */
static inline bool ompi_evt_ring_spsc_evict_taken(ompi_evt_ring_spsc_t *ring, unsigned int size)
{
    /* relaxed: written only by this producer */
    unsigned int pos = atomic_load_explicit(&ring->g.ctl->p.tail, memory_order_relaxed);
    unsigned int oldest = ring->p.oldest;
    uint64_t count = ring->p.evicted;
    bool fits;

    if ((int) (ring->p.cached_head - oldest) <= 0) {
        /* acquire: the consumer's reads of the records before head are
         * done (pairs with its claim CAS) */
        ring->p.cached_head = atomic_load_explicit(&ring->g.ctl->c.head, memory_order_acquire);
    }
    while (!(fits = size <= ring->g.capacity - (pos - oldest))
           && (int) (ring->p.cached_head - oldest) > 0) {
        const ompi_evt_ring_hdr_t *hdr = (const ompi_evt_ring_hdr_t *) (ring->g.data
                                                                        + (oldest & ring->g.mask));
        count += OMPI_EVT_RING_KIND_SKIP != hdr->kind;
        oldest += hdr->size;
    }
    if (oldest != ring->p.oldest) {
        ring->p.oldest = oldest;
        ompi_evt_ring_spsc_evict_publish(ring, count);
    }
    return fits;
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
    ring->c.cached_tail = atomic_load_explicit(&ring->g.ctl->p.tail, memory_order_acquire);
    if (OPAL_UNLIKELY(ring->g.overwrite)) {
        /* acquire: the producer may have taken records from us (evict);
         * pairs with its CAS */
        unsigned int head = atomic_load_explicit(&ring->g.ctl->c.head, memory_order_acquire);
        if ((int) (head - ring->c.pos) > 0) {
            ring->c.pos = head;
        }
    }
    /* the producer may have evicted past the tail read above */
    return (int) (ring->c.cached_tail - ring->c.pos) > 0 ? ring->c.cached_tail - ring->c.pos : 0;
}

/**
 * The next record up to the last refresh(), skip records stepped over.
 * @return its header (the caller's bytes follow it; hdr->size - 8 of them,
 *         rounded up), or NULL when everything seen is consumed
 * Context: the consumer. Does not reload tail: call refresh() for that, so
 * that a drain works on a snapshot and terminates. In overwrite mode the
 * bytes may be overwritten until claim() succeeds: copy them out first.
 */
static inline OMPI_EVT_RING_OPTIMISTIC const ompi_evt_ring_hdr_t *
ompi_evt_ring_spsc_peek(ompi_evt_ring_spsc_t *ring)
{
    const ompi_evt_ring_hdr_t *hdr;

    /* not !=: in overwrite mode a failed claim may move the position past
     * the snapshot (the producer evicted beyond it), and nothing there is
     * this snapshot's */
    while ((int) (ring->c.cached_tail - ring->c.pos) > 0) {
        hdr = (const ompi_evt_ring_hdr_t *) (ring->g.data + (ring->c.pos & ring->g.mask));
        if (OPAL_LIKELY(OMPI_EVT_RING_KIND_SKIP != hdr->kind)) {
            return hdr;
        }
        if (OPAL_UNLIKELY(ring->g.overwrite)) {
            unsigned int expect = ring->c.pos;
            /* acq_rel: as claim() */
            if (!atomic_compare_exchange_strong_explicit(&ring->g.ctl->c.head, &expect,
                                                         ring->c.pos + hdr->size,
                                                         memory_order_acq_rel,
                                                         memory_order_acquire)) {
                ring->c.pos = expect; /* the producer took it: go on from there */
                continue;
            }
        }
        ring->c.pos += hdr->size;
    }
    return NULL;
}

/** Step over the record peek() returned. The bytes stay readable until
 *  release(). Drop-new mode. Context: the consumer. */
static inline void ompi_evt_ring_spsc_consume(ompi_evt_ring_spsc_t *ring,
                                              const ompi_evt_ring_hdr_t *hdr)
{
    ring->c.pos += hdr->size;
}

/**
 * Overwrite mode: take the record peek() returned (which the caller has
 * copied out, @p size bytes with its header) for good.
 * @retval true   the copy is the consumer's to use; the position moved on
 * @retval false  the producer took it meanwhile (and counted it): discard
 *                the copy; peek() again from the producer's position
 * Context: the consumer.
 * Ordering: acq_rel CAS of head; pairs with the producer's CAS in evict().
 */
static inline bool ompi_evt_ring_spsc_claim(ompi_evt_ring_spsc_t *ring, unsigned int size)
{
    unsigned int expect = ring->c.pos;

    if (atomic_compare_exchange_strong_explicit(&ring->g.ctl->c.head, &expect, ring->c.pos + size,
                                                memory_order_acq_rel, memory_order_acquire)) {
        ring->c.pos += size;
        return true;
    }
    ring->c.pos = expect;
    return false;
}

/** Bytes consumed but not yet released to the producer. Context: the consumer. */
static inline unsigned int ompi_evt_ring_spsc_unreleased(ompi_evt_ring_spsc_t *ring)
{
    /* relaxed: head is written only by the consumer (drop-new mode). */
    return ring->c.pos - atomic_load_explicit(&ring->g.ctl->c.head, memory_order_relaxed);
}

/**
 * Give the consumed bytes back to the producer (once per batch, not per
 * record: each call may move a cache line between the cores). Drop-new
 * mode; in overwrite mode claim() already moved head.
 * Context: the consumer.
 * Ordering: release store of head; pairs with the acquire load of head in
 * ompi_evt_ring_spsc_reserve(): our reads of the records are done before the
 * producer may overwrite them.
 */
static inline void ompi_evt_ring_spsc_release(ompi_evt_ring_spsc_t *ring)
{
    if (!ring->g.overwrite) {
        atomic_store_explicit(&ring->g.ctl->c.head, ring->c.pos, memory_order_release);
    }
}

/**
 * Step over every record up to the last refresh() without reading them (a
 * consumer with nothing to do with them): in overwrite mode a claim of
 * them all at once, which the producer may have overtaken by evicting (the
 * position then follows it); in drop-new mode a release.
 * Context: the consumer.
 * Ordering: as claim() and release().
 */
static inline void ompi_evt_ring_spsc_pass(ompi_evt_ring_spsc_t *ring)
{
    unsigned int expect = ring->c.pos;

    if (!ring->g.overwrite) {
        ring->c.pos = ring->c.cached_tail;
        ompi_evt_ring_spsc_release(ring);
        return;
    }
    while ((int) (ring->c.cached_tail - expect) > 0) {
        /* acq_rel: as claim(); a failure loads the producer's head */
        if (atomic_compare_exchange_weak_explicit(&ring->g.ctl->c.head, &expect,
                                                  ring->c.cached_tail, memory_order_acq_rel,
                                                  memory_order_acquire)) {
            expect = ring->c.cached_tail;
            break;
        }
    }
    ring->c.pos = expect;
}

/** No record committed beyond what the consumer has consumed? (A fresh
 *  look at tail; skip records do not count.) Context: the consumer.
 *  Ordering: as refresh(). */
static inline bool ompi_evt_ring_spsc_empty(ompi_evt_ring_spsc_t *ring)
{
    (void) ompi_evt_ring_spsc_refresh(ring);
    return NULL == ompi_evt_ring_spsc_peek(ring);
}

/** Drop everything committed so far, unread (the child of a fork: those
 *  records are the parent's). Context: the consumer, no producer active. */
static inline void ompi_evt_ring_spsc_discard(ompi_evt_ring_spsc_t *ring)
{
    (void) ompi_evt_ring_spsc_refresh(ring);
    ring->c.pos = ring->c.cached_tail;
    atomic_store_explicit(&ring->g.ctl->c.head, ring->c.pos, memory_order_release);
}

END_C_DECLS

#endif /* OMPI_EVT_BASE_RING_H */
