/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The kit's raise path: a captured record into the raising thread's ring.
 * No lock, no allocation, no system call once the thread owns a ring, so it
 * serves raises from signal handlers and from inside free()/munmap(). The
 * engine calls it inside a delivery section (mca_base_event_delivery_set()
 * waits for those before the kit closes), and it runs no user code: a full
 * ring under the drain policy answers OPAL_ERR_WOULD_BLOCK and the engine
 * drains outside the section.
 */

#include "ompi_config.h"

#include <string.h>

#include "opal/constants.h"
#include "ompi/constants.h"
#include "ompi/mca/evt/base/evt_base_kit_internal.h"

/* The fast path of ompi_evt_base_kit_deliver() skips reserve()'s size
 * check: every record fits in half of the smallest ring. */
_Static_assert(OMPI_EVT_KIT_MAX_RECORD <= OMPI_EVT_KIT_MIN_RING_SIZE / 2,
               "a kit record always fits in half a ring");

/* Copy the payload inline: events carry a few words (16 bytes for most),
 * and a call to memcpy() through the PLT costs more than the copy. 8-byte
 * moves (unaligned loads are fine: memcpy of a constant 8 is one mov), then
 * the tail bytes. Context: RAISE, SIGNAL. */
static inline void kit_copy_payload(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;

    for (; n >= 8; n -= 8, d += 8, s += 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        memcpy(d, &w, 8);
    }
    for (; n > 0; --n) {
        *d++ = *s++;
    }
}

/* A record the kit could not keep: charged to the registrations it would
 * have reached and, when exported, to its event's export drop count.
 * Context: RAISE, SIGNAL. */
static void kit_drop(const mca_base_event_record_t *record)
{
    mca_base_event_count_dropped(record);
    /* relaxed: a hint, as the gate */
    if (atomic_load_explicit(&record->event->exported, memory_order_relaxed)) {
        mca_base_event_count_export_dropped(record->event, 1);
    }
}

/* Overwrite mode: a record evicted before any drain took it. It was written
 * into the recorder's storage, so it is not an export drop; its local
 * registrations lose it. Context: RAISE, SIGNAL (inside the producer side). */
static void kit_evicted(const ompi_evt_ring_hdr_t *hdr, void *arg)
{
    ompi_evt_kit_ring_t *ring = arg;
    mca_base_event_record_t record;

    if (ompi_evt_base_kit_decode((const ompi_evt_kit_rec_t *) (hdr + 1), &record)) {
        mca_base_event_count_dropped(&record);
    }
    evt_kit_count(&ring->own.overwritten);
}

/* Write @p record into the reservation @p rec and publish it.
 * Context: RAISE, SIGNAL (inside the ring's producer side). */
static inline __attribute__((always_inline)) void
kit_write(ompi_evt_kit_rec_t *rec, const mca_base_event_record_t *record, size_t extent)
{
    rec->event = (uint32_t) record->event->index;
    rec->depth = (uint16_t) record->depth;
    rec->flags = (uint16_t) record->flags;
    rec->obj = (uint64_t) (uintptr_t) record->obj;
    rec->timestamp = record->timestamp;
    rec->epoch = record->epoch;
    kit_copy_payload(rec + 1, record->data, extent);
}

/* A record some local registration may take (see the ring's mark line)
 * ends at @p end: say so before its commit. Context: RAISE, SIGNAL (inside
 * the ring's producer side). */
static inline __attribute__((always_inline)) void
kit_mark_local(ompi_evt_kit_ring_t *ring, const mca_base_event_record_t *record, unsigned int end)
{
    if (0 == (record->flags & MCA_BASE_EVENT_RECORD_DISPATCHED)) {
        /* relaxed: published by the release store of count */
        atomic_store_explicit(&ring->local.end, end, memory_order_relaxed);
        /* relaxed load: written by this producer only; release: end
         * first (pairs with the drain's acquire load) */
        atomic_store_explicit(&ring->local.count,
                              atomic_load_explicit(&ring->local.count, memory_order_relaxed) + 1,
                              memory_order_release);
    }
}

static inline __attribute__((always_inline)) void
kit_fill(ompi_evt_kit_ring_t *ring, ompi_evt_kit_rec_t *rec, const mca_base_event_record_t *record,
         size_t extent)
{
    kit_write(rec, record, extent);
    kit_mark_local(ring, record, ring->buf.p.pending);
    /* release store of tail: pairs with the drain's refresh() */
    ompi_evt_ring_spsc_commit(&ring->buf);
    evt_kit_count(&ring->own.stored);
}

/* Every case of the store: the ring to claim, a nested producer, a full
 * ring (drop, evict or drain). Context: RAISE, SIGNAL. */
static int __attribute__((noinline)) kit_deliver_slow(const mca_base_event_record_t *record,
                                                      mca_base_event_cb_safety_t context)
{
    bool in_signal = MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE <= context;
    size_t extent = record->event->extent;
    ompi_evt_kit_ring_t *ring;
    ompi_evt_kit_rec_t *rec;

    ring = evt_kit_mine(in_signal);
    if (OPAL_UNLIKELY(NULL == ring)) {
        kit_drop(record);
        return OPAL_ERR_TEMP_OUT_OF_RESOURCE;
    }
    if (OPAL_UNLIKELY(!ompi_evt_ring_spsc_enter(&ring->buf))) {
        /* A signal handler interrupted this thread inside its own raise:
         * never wait for it (it cannot finish before we return). A relaxed
         * RMW: handlers of different signals may nest. */
        atomic_fetch_add_explicit(&ring->own.dropped_nested, 1, memory_order_relaxed);
        kit_drop(record);
        return OPAL_ERR_TEMP_OUT_OF_RESOURCE;
    }
    rec = ompi_evt_ring_spsc_reserve(&ring->buf, sizeof(*rec) + extent, OMPI_EVT_KIT_KIND_RECORD);
    if (OPAL_UNLIKELY(NULL == rec)) {
        if (ring->buf.g.overwrite
            && ompi_evt_ring_spsc_evict(&ring->buf, sizeof(*rec) + extent, kit_evicted, ring)) {
            rec = ompi_evt_ring_spsc_reserve(&ring->buf, sizeof(*rec) + extent,
                                             OMPI_EVT_KIT_KIND_RECORD);
        } else if (OMPI_EVT_OVERFLOW_DRAIN == ompi_evt_kit.params.overflow && !in_signal
                   && !ompi_evt_base_kit_draining()) {
            /* the engine drains in this context, outside its delivery
             * section, and tries once more */
            ompi_evt_ring_spsc_exit(&ring->buf);
            return OPAL_ERR_WOULD_BLOCK;
        }
        if (NULL == rec) {
            evt_kit_count(&ring->own.dropped_full);
            ompi_evt_ring_spsc_exit(&ring->buf);
            kit_drop(record);
            return OPAL_ERR_TEMP_OUT_OF_RESOURCE;
        }
    }
    kit_fill(ring, rec, record, extent);
    /* the uncommon cases: let the call's return look for itself (before
     * the exit, as in the fast path) */
    ompi_evt_kit_return_due = true;
    ompi_evt_ring_spsc_exit(&ring->buf);
    return OMPI_SUCCESS;
}

/* The common case inline: this thread owns its ring, nobody else produces
 * into it right now, and the record fits before the end of the buffer,
 * after evicting, from a full overwrite ring, only records a drain already
 * took (a flight recorder's steady state). Everything else goes to
 * kit_deliver_slow(), which starts over. Context: RAISE, SIGNAL. */
int ompi_evt_base_kit_deliver(const mca_base_event_record_t *record,
                              mca_base_event_cb_safety_t context)
{
    ompi_evt_kit_ring_t *ring = ompi_evt_kit_mine;
    size_t extent = record->event->extent;
    unsigned int size = ompi_evt_ring_record_size(sizeof(ompi_evt_kit_rec_t) + extent);
    unsigned int pos, off;
    ompi_evt_ring_spsc_t *b;
    ompi_evt_ring_hdr_t *hdr;

    /* relaxed: as in evt_kit_mine() */
    if (OPAL_UNLIKELY((uintptr_t) ring <= (uintptr_t) OMPI_EVT_KIT_EXITED
                      || atomic_load_explicit(&ompi_evt_kit.generation, memory_order_relaxed)
                             != ompi_evt_kit_mine_gen
                      || ring->own.needs_key)) {
        return kit_deliver_slow(record, context);
    }
    b = &ring->buf;
    if (OPAL_UNLIKELY(!ompi_evt_ring_spsc_enter(b))) {
        return kit_deliver_slow(record, context); /* refuses and counts */
    }
    /* ompi_evt_ring_spsc_reserve() without the skip record, the look at
     * head, or an eviction from the consumer (a record is at most
     * OMPI_EVT_KIT_MAX_RECORD bytes, below half the smallest ring).
     * relaxed: tail is ours. */
    pos = atomic_load_explicit(&b->g.ctl->p.tail, memory_order_relaxed);
    off = pos & b->g.mask;
    if (OPAL_UNLIKELY(b->g.capacity - off < size
                      || (size > b->g.capacity - (pos - ompi_evt_ring_spsc_limit(b))
                          && !(b->g.overwrite && ompi_evt_ring_spsc_evict_taken(b, size))))) {
        ompi_evt_ring_spsc_exit(b);
        return kit_deliver_slow(record, context);
    }
    hdr = (ompi_evt_ring_hdr_t *) (b->g.data + off);
    hdr->size = size;
    hdr->kind = OMPI_EVT_KIT_KIND_RECORD;
    kit_write((ompi_evt_kit_rec_t *) (hdr + 1), record, extent);
    kit_mark_local(ring, record, pos + size);
    /* ompi_evt_ring_spsc_commit() of this reservation (pending, which only
     * pairs a reserve with its commit, is not needed here). release:
     * pairs with the drain's refresh() */
    atomic_store_explicit(&b->g.ctl->p.tail, pos + size, memory_order_release);
    evt_kit_count(&ring->own.stored);
    /* What call_return_drains() would find first, from the producer's own
     * view of head (it only overestimates what the ring holds). relaxed: a
     * hint, as there. Before the exit: a signal handler's raise is refused
     * until then, and one after it sets the flag with its own record
     * counted. */
    ompi_evt_kit_return_due = pos + size - b->p.cached_head >= b->g.capacity / 4
                              || atomic_load_explicit(&ompi_evt_kit.none_waiting,
                                                      memory_order_relaxed);
    ompi_evt_ring_spsc_exit(b);
    return OMPI_SUCCESS;
}

/* Context: any. */
bool ompi_evt_base_kit_decode(const ompi_evt_kit_rec_t *rec, mca_base_event_record_t *record)
{
    mca_base_event_t *event = mca_base_event_lookup(rec->event);

    if (OPAL_UNLIKELY(NULL == event)) {
        return false;
    }
    record->event = event;
    record->source = event->source;
    record->obj = (const void *) (uintptr_t) rec->obj;
    record->timestamp = rec->timestamp;
    record->epoch = rec->epoch;
    record->data = rec + 1;
    record->depth = rec->depth;
    record->flags = rec->flags;
    return true;
}
