/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * evt/pmix's sending side: batches and their notifications
 * (evt_pmix_send.h says how it works).
 */

#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ompi/mca/evt/pmix/evt_pmix_send.h"
#include "opal/constants.h"
#include "opal/mca/base/mca_base_event_delivery.h"

/* Test seam: PMIx_Notify_event, or what a unit test puts in its place. */
static ompi_evt_pmix_notify_fn_t notify_fn = PMIx_Notify_event;

void ompi_evt_pmix_test_set_notify(ompi_evt_pmix_notify_fn_t fn)
{
    notify_fn = NULL == fn ? PMIx_Notify_event : fn;
}

/* Context: ANY. */
int64_t ompi_evt_pmix_now_ns(void)
{
    struct timespec ts;

    (void) clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Statuses that say the server is gone: nothing will ever be sent again. */
static bool status_is_lost(pmix_status_t status)
{
    return PMIX_ERR_UNREACH == status || PMIX_ERR_LOST_CONNECTION == status
           || PMIX_ERR_COMM_FAILURE == status || PMIX_ERR_INIT == status;
}

static inline void stat_add(atomic_ulong *counter, unsigned long n)
{
    /* relaxed: statistics */
    atomic_fetch_add_explicit(counter, n, memory_order_relaxed);
}

/* A batch of ours that did not leave: count its records and the drop
 * counts it carried back into the engine's export drop counters, so that
 * the next batch reports them. Context: DRAIN, INIT, or PMIx's thread (a
 * completion): no lock of ours. */
static void batch_count_dropped(ompi_evt_pmix_sender_t *s, const void *buf, size_t len)
{
    mca_common_evt_wire_batch_t b;
    mca_common_evt_wire_record_t rec;
    uint64_t *n;
    size_t cursor = 0;

    memset(&b, 0, sizeof(b));
    if (OPAL_SUCCESS != mca_common_evt_wire_decode(buf, len, &b)) {
        /* our own encoder's output: cannot happen */
        return;
    }
    n = calloc(0 == b.num_types ? 1 : b.num_types, sizeof(*n));
    if (NULL != n) {
        while (mca_common_evt_wire_batch_next_record(&b, &cursor, &rec)) {
            ++n[rec.type];
        }
        stat_add(&s->stats.records_dropped, b.num_records);
        for (uint32_t i = 0; i < b.num_drops; ++i) {
            uint64_t *c = &n[b.drops[i].type];
            *c = UINT64_MAX - *c < b.drops[i].count ? UINT64_MAX : *c + b.drops[i].count;
        }
        for (uint32_t t = 0; t < b.num_types; ++t) {
            mca_base_event_t *ev = NULL;

            if (0 != n[t] && OPAL_SUCCESS == mca_base_event_get_by_name(b.types[t].name, &ev)) {
                mca_base_event_count_export_dropped(ev, n[t]);
            }
        }
        free(n);
    }
    mca_common_evt_wire_batch_destruct(&b);
}

/* The notification of @p slot did not go through. Context: DRAIN, INIT,
 * PMIx's thread. */
static void slot_failed(ompi_evt_pmix_sender_t *s, ompi_evt_pmix_slot_t *slot, pmix_status_t status)
{
    stat_add(&s->stats.batches_failed, 1);
    atomic_store_explicit(&s->last_error, status, memory_order_relaxed);
    batch_count_dropped(s, slot->buf, slot->len);
    if (status_is_lost(status)) {
        int expected = OMPI_EVT_PMIX_SEND_CONNECTED;
        /* relaxed: the drainer reads the state under its lock and acts on
         * it; the slots' own hand-off is ordered by their state */
        (void) atomic_compare_exchange_strong_explicit(&s->state, &expected,
                                                       OMPI_EVT_PMIX_SEND_LOST,
                                                       memory_order_relaxed, memory_order_relaxed);
    }
}

static void slot_succeeded(ompi_evt_pmix_sender_t *s, ompi_evt_pmix_slot_t *slot)
{
    stat_add(&s->stats.batches_sent, 1);
    stat_add(&s->stats.records_sent, slot->records);
    stat_add(&s->stats.bytes_sent, slot->len);
}

static void slot_release(ompi_evt_pmix_sender_t *s, ompi_evt_pmix_slot_t *slot)
{
    atomic_fetch_sub_explicit(&s->inflight, 1, memory_order_relaxed);
    /* release: the accounting above and our last read of slot->buf happen
     * before the drainer reuses the slot; pairs with the acquire load in
     * slot_is_free() */
    atomic_store_explicit(&slot->state, OMPI_EVT_PMIX_SLOT_FREE, memory_order_release);
}

/* PMIx's completion of one notification. Context: PMIx's progress thread. */
static void slot_done(pmix_status_t status, void *cbdata)
{
    ompi_evt_pmix_slot_t *slot = cbdata;
    ompi_evt_pmix_sender_t *s = slot->owner;

    if (PMIX_SUCCESS == status || PMIX_OPERATION_SUCCEEDED == status) {
        slot_succeeded(s, slot);
    } else {
        slot_failed(s, slot, status);
    }
    slot_release(s, slot);
}

static bool slot_is_free(const ompi_evt_pmix_slot_t *slot)
{
    /* acquire: pairs with the release store in slot_release() */
    return OMPI_EVT_PMIX_SLOT_FREE == atomic_load_explicit(&slot->state, memory_order_acquire);
}

/* No batch waits in a slot or in PMIx. Context: lock held. */
static bool all_slots_free(const ompi_evt_pmix_sender_t *s)
{
    for (int i = 0; i < s->nslots; ++i) {
        if (!slot_is_free(&s->slots[i])) {
            return false;
        }
    }
    return true;
}

/* Hand a FILLED slot to PMIx. Context: lock held. */
static void slot_notify(ompi_evt_pmix_sender_t *s, ompi_evt_pmix_slot_t *slot)
{
    pmix_status_t rc;

    slot->info[0].value.data.bo.bytes = (char *) slot->buf;
    slot->info[0].value.data.bo.size = slot->len;
    atomic_fetch_add_explicit(&s->inflight, 1, memory_order_relaxed);
    /* relaxed: only the drainer looks at a slot that is not FREE; the
     * completion may store FREE before the call below returns */
    atomic_store_explicit(&slot->state, OMPI_EVT_PMIX_SLOT_INFLIGHT, memory_order_relaxed);
    rc = notify_fn(MCA_COMMON_EVT_WIRE_PMIX_STATUS, NULL, s->params.range, slot->info, slot->ninfo,
                   slot_done, slot);
    if (PMIX_SUCCESS == rc) {
        return; /* slot_done() comes */
    }
    /* no callback will come */
    if (PMIX_OPERATION_SUCCEEDED == rc) {
        slot_succeeded(s, slot);
    } else {
        slot_failed(s, slot, rc);
    }
    slot_release(s, slot);
}

/* A slot that will not be sent (LOST, or never connected): count its
 * batch as dropped. Context: lock held. */
static void slot_abandon(ompi_evt_pmix_sender_t *s, ompi_evt_pmix_slot_t *slot)
{
    batch_count_dropped(s, slot->buf, slot->len);
    atomic_store_explicit(&slot->state, OMPI_EVT_PMIX_SLOT_FREE, memory_order_relaxed);
}

/* Hand the FILLED slots to PMIx, in order. Context: lock held. */
static int send_pending(ompi_evt_pmix_sender_t *s)
{
    int state = atomic_load_explicit(&s->state, memory_order_relaxed), n = 0;

    while (s->send != s->fill) {
        ompi_evt_pmix_slot_t *slot = &s->slots[s->send % (uint64_t) s->nslots];

        if (OMPI_EVT_PMIX_SEND_CONNECTED == state) {
            slot_notify(s, slot);
            ++n;
            /* a refusal at the call may have made us LOST */
            state = atomic_load_explicit(&s->state, memory_order_relaxed);
        } else if (OMPI_EVT_PMIX_SEND_UNCONNECTED == state) {
            break; /* waits for ompi_evt_pmix_sender_connect() */
        } else {
            slot_abandon(s, slot);
        }
        ++s->send;
    }
    return n;
}

static void batch_begin(ompi_evt_pmix_sender_t *s)
{
    /* cannot fail on a constructed encoder */
    (void) mca_common_evt_wire_encoder_begin(&s->enc, s->next_seq++, s->batch_flags);
    s->batch_items = 0;
}

static void batch_item_added(ompi_evt_pmix_sender_t *s)
{
    if (0 == s->batch_items++) {
        s->batch_t0 = ompi_evt_pmix_now_ns();
    }
}

/* Take the engine's export drop counts into the open batch (opened here
 * if needed). A count the batch cannot take goes back to the engine for
 * the next batch. @return false when the batch was full before every
 * count found room. Context: lock held. */
static bool poll_drops(ompi_evt_pmix_sender_t *s)
{
    mca_base_event_t *ev;

    for (uint32_t i = 0; NULL != (ev = mca_base_event_lookup(i)); ++i) {
        uint64_t n = mca_base_event_take_export_dropped(ev);
        int rc;

        if (0 == n) {
            continue;
        }
        if (!s->enc.open) {
            batch_begin(s);
        }
        rc = mca_common_evt_wire_encoder_add_drops(&s->enc, ev, n);
        if (OPAL_SUCCESS != rc) {
            mca_base_event_count_export_dropped(ev, n);
            if (OPAL_ERR_TEMP_OUT_OF_RESOURCE == rc) {
                return false; /* full: the rest stays counted in the engine */
            }
            continue;
        }
        batch_item_added(s);
    }
    return true;
}

/* Close the open batch into the next slot and send what can be sent.
 * @retval OPAL_ERR_WOULD_BLOCK  the next slot is still in flight (the batch
 *         stays open) Context: lock held. */
static int queue_batch(ompi_evt_pmix_sender_t *s)
{
    ompi_evt_pmix_slot_t *slot = &s->slots[s->fill % (uint64_t) s->nslots];
    const void *buf;
    size_t len;
    int rc;

    if (!slot_is_free(slot)) {
        return OPAL_ERR_WOULD_BLOCK;
    }
    if (!s->enc.open) {
        batch_begin(s);
    }
    (void) poll_drops(s);
    slot->records = s->enc.num_records;
    slot->seq = s->enc.seq;
    rc = mca_common_evt_wire_encoder_finish(&s->enc, &buf, &len);
    if (OPAL_SUCCESS != rc || len > s->params.batch_bytes) {
        return OPAL_ERROR; /* cannot happen with a constructed encoder */
    }
    memcpy(slot->buf, buf, len);
    slot->len = len;
    atomic_store_explicit(&slot->state, OMPI_EVT_PMIX_SLOT_FILLED, memory_order_relaxed);
    ++s->fill;
    s->batch_items = 0;
    (void) send_pending(s);
    return OPAL_SUCCESS;
}

/* The server is gone (or we are closed): the open batch and the batches
 * waiting in slots are counted as dropped. Context: lock held. */
static void abandon_all(ompi_evt_pmix_sender_t *s)
{
    if (s->enc.open) {
        const void *buf;
        size_t len;

        if (0 < s->batch_items
            && OPAL_SUCCESS == mca_common_evt_wire_encoder_finish(&s->enc, &buf, &len)) {
            batch_count_dropped(s, buf, len);
        }
        s->enc.open = false;
        s->batch_items = 0;
    }
    (void) send_pending(s); /* abandons the FILLED ones when not connected */
}

static void count_one_dropped(ompi_evt_pmix_sender_t *s, const mca_base_event_record_t *rec)
{
    mca_base_event_count_export_dropped(rec->event, 1);
    stat_add(&s->stats.records_dropped, 1);
}

/* ------------------------------------------------------------------------
 * API
 * ------------------------------------------------------------------------ */

/* Context: INIT. */
int ompi_evt_pmix_sender_construct(ompi_evt_pmix_sender_t *s,
                                   const mca_common_evt_wire_sender_t *who,
                                   const ompi_evt_pmix_send_params_t *params)
{
    int rc;

    memset(s, 0, sizeof(*s));
    if (1 > params->max_inflight || 0 >= params->flush_interval_ns
        || (PMIX_RANGE_CUSTOM == params->range && 0 == params->ncustom)) {
        return OPAL_ERR_BAD_PARAM;
    }
    rc = mca_common_evt_wire_encoder_construct(&s->enc, who, params->batch_bytes);
    if (OPAL_SUCCESS != rc) {
        return rc;
    }
    (void) mca_common_evt_wire_encoder_set_realtime(&s->enc, params->realtime_ns);
    (void) pthread_mutex_init(&s->lock, NULL);
    s->who = *who;
    s->params = *params;
    if (0 < params->ncustom) {
        s->custom = malloc(params->ncustom * sizeof(pmix_proc_t));
        if (NULL == s->custom) {
            rc = OPAL_ERR_OUT_OF_RESOURCE;
            goto fail;
        }
        memcpy(s->custom, params->custom, params->ncustom * sizeof(pmix_proc_t));
        s->params.custom = s->custom;
    }
    s->nslots = params->max_inflight;
    s->slots = calloc((size_t) s->nslots, sizeof(*s->slots));
    if (NULL == s->slots) {
        rc = OPAL_ERR_OUT_OF_RESOURCE;
        goto fail;
    }
    for (int i = 0; i < s->nslots; ++i) {
        ompi_evt_pmix_slot_t *slot = &s->slots[i];
        bool yes = true;

        slot->owner = s;
        slot->buf = malloc(params->batch_bytes);
        slot->ninfo = PMIX_RANGE_CUSTOM == params->range ? 4 : 3;
        PMIX_INFO_CREATE(slot->info, slot->ninfo);
        if (NULL == slot->buf || NULL == slot->info) {
            rc = OPAL_ERR_OUT_OF_RESOURCE;
            goto fail;
        }
        /* [0] carries the batch without copying it: it points at buf (set
         * at each send), and is never destructed by PMIx's macros */
        PMIX_LOAD_KEY(slot->info[0].key, MCA_COMMON_EVT_WIRE_PMIX_KEY);
        slot->info[0].value.type = PMIX_BYTE_OBJECT;
        PMIX_INFO_LOAD(&slot->info[1], PMIX_EVENT_NON_DEFAULT, &yes, PMIX_BOOL);
        PMIX_INFO_LOAD(&slot->info[2], PMIX_EVENT_DO_NOT_CACHE, &yes, PMIX_BOOL);
        if (PMIX_RANGE_CUSTOM == params->range) {
            pmix_data_array_t targets = {.type = PMIX_PROC,
                                         .size = params->ncustom,
                                         .array = s->custom};
            /* copies the targets */
            PMIX_INFO_LOAD(&slot->info[3], PMIX_EVENT_CUSTOM_RANGE, &targets, PMIX_DATA_ARRAY);
        }
    }
    s->last_poll = ompi_evt_pmix_now_ns();
    atomic_store_explicit(&s->state, OMPI_EVT_PMIX_SEND_UNCONNECTED, memory_order_relaxed);
    return OPAL_SUCCESS;

fail:
    ompi_evt_pmix_sender_destruct(s);
    return rc;
}

/* Context: INIT. */
void ompi_evt_pmix_sender_destruct(ompi_evt_pmix_sender_t *s)
{
    for (int i = 0; NULL != s->slots && i < s->nslots; ++i) {
        ompi_evt_pmix_slot_t *slot = &s->slots[i];

        if (OMPI_EVT_PMIX_SLOT_INFLIGHT == atomic_load(&slot->state)) {
            /* PMIx may still complete it: leave it to PMIx (a bounded
             * leak, said at finalize) */
            continue;
        }
        if (NULL != slot->info) {
            slot->info[0].value.type = PMIX_UNDEF; /* buf is ours */
            PMIX_INFO_FREE(slot->info, slot->ninfo);
        }
        free(slot->buf);
    }
    free(s->slots);
    free(s->custom);
    mca_common_evt_wire_encoder_destruct(&s->enc);
    s->slots = NULL;
    s->custom = NULL;
    if (0 != s->nslots || 0 != s->params.batch_bytes) {
        (void) pthread_mutex_destroy(&s->lock);
    }
    s->nslots = 0;
    s->params.batch_bytes = 0;
}

/* Context: INIT. */
int ompi_evt_pmix_sender_set_identity(ompi_evt_pmix_sender_t *s,
                                      const mca_common_evt_wire_sender_t *who)
{
    mca_common_evt_wire_encoder_t enc;
    int rc;

    if (0 == strcmp(who->nspace, s->who.nspace) && who->rank == s->who.rank
        && 0 == strcmp(who->host, s->who.host) && who->pid == s->who.pid) {
        return OPAL_SUCCESS;
    }
    rc = mca_common_evt_wire_encoder_construct(&enc, who, s->params.batch_bytes);
    if (OPAL_SUCCESS != rc) {
        return rc;
    }
    (void) mca_common_evt_wire_encoder_set_realtime(&enc, s->params.realtime_ns);
    (void) pthread_mutex_lock(&s->lock);
    if (s->enc.open && 0 < s->batch_items && OPAL_SUCCESS != queue_batch(s)) {
        /* every slot waits for a connection: this batch cannot wait too */
        abandon_all(s);
    }
    mca_common_evt_wire_encoder_destruct(&s->enc);
    s->enc = enc;
    s->who = *who;
    (void) pthread_mutex_unlock(&s->lock);
    return OPAL_SUCCESS;
}

/* Context: INIT. */
int ompi_evt_pmix_sender_add_offset(ompi_evt_pmix_sender_t *s,
                                    const mca_common_evt_wire_offset_t *sample)
{
    int rc;

    (void) pthread_mutex_lock(&s->lock);
    rc = mca_common_evt_wire_encoder_add_offset(&s->enc, sample);
    if (OPAL_ERR_TEMP_OUT_OF_RESOURCE == rc) {
        /* kept for the next batch: let the open one go if it can */
        if (0 < s->batch_items && !s->finishing
            && OMPI_EVT_PMIX_SEND_LOST > atomic_load_explicit(&s->state, memory_order_relaxed)) {
            (void) queue_batch(s);
        }
        rc = OPAL_SUCCESS;
    }
    (void) pthread_mutex_unlock(&s->lock);
    return rc;
}

/* Context: INIT. */
void ompi_evt_pmix_sender_connect(ompi_evt_pmix_sender_t *s)
{
    (void) pthread_mutex_lock(&s->lock);
    if (OMPI_EVT_PMIX_SEND_UNCONNECTED == atomic_load(&s->state)) {
        atomic_store_explicit(&s->state, OMPI_EVT_PMIX_SEND_CONNECTED, memory_order_relaxed);
        (void) send_pending(s);
    }
    (void) pthread_mutex_unlock(&s->lock);
}

/* Context: INIT. */
void ompi_evt_pmix_sender_disconnect(ompi_evt_pmix_sender_t *s)
{
    (void) pthread_mutex_lock(&s->lock);
    if (OMPI_EVT_PMIX_SEND_LOST > atomic_load(&s->state)) {
        atomic_store_explicit(&s->state, OMPI_EVT_PMIX_SEND_LOST, memory_order_relaxed);
    }
    abandon_all(s);
    (void) pthread_mutex_unlock(&s->lock);
}

/* Context: a PMIx thread. */
void ompi_evt_pmix_sender_lost(ompi_evt_pmix_sender_t *s)
{
    int state = atomic_load_explicit(&s->state, memory_order_relaxed);

    while (OMPI_EVT_PMIX_SEND_LOST > state
           && !atomic_compare_exchange_weak_explicit(&s->state, &state, OMPI_EVT_PMIX_SEND_LOST,
                                                     memory_order_relaxed, memory_order_relaxed)) {
    }
    /* trylock: this handler may run inside a PMIx_Notify_event of ours,
     * under the lock */
    if (0 == pthread_mutex_trylock(&s->lock)) {
        if (OMPI_EVT_PMIX_SEND_LOST == atomic_load_explicit(&s->state, memory_order_relaxed)) {
            abandon_all(s);
        }
        (void) pthread_mutex_unlock(&s->lock);
    }
}

/* Context: DRAIN. */
int ompi_evt_pmix_sender_consume(ompi_evt_pmix_sender_t *s, const mca_base_event_record_t *rec)
{
    int state, rc;

    (void) pthread_mutex_lock(&s->lock);
    state = atomic_load_explicit(&s->state, memory_order_relaxed);
    if (OMPI_EVT_PMIX_SEND_LOST <= state) {
        if (OMPI_EVT_PMIX_SEND_LOST == state) {
            abandon_all(s);
        }
        count_one_dropped(s, rec);
        (void) pthread_mutex_unlock(&s->lock);
        return OPAL_ERR_UNREACH;
    }
    if (!s->enc.open) {
        batch_begin(s);
    }
    rc = mca_common_evt_wire_encoder_add_record(&s->enc, rec);
    if (OPAL_ERR_TEMP_OUT_OF_RESOURCE == rc && s->finishing) {
        /* the FINAL batch is full: ompi_evt_pmix_sender_finish() sends it;
         * the record stays in its ring */
        stat_add(&s->stats.would_block, 1);
        (void) pthread_mutex_unlock(&s->lock);
        return OPAL_ERR_WOULD_BLOCK;
    }
    if (OPAL_ERR_TEMP_OUT_OF_RESOURCE == rc) {
        rc = queue_batch(s);
        if (OPAL_ERR_WOULD_BLOCK == rc && OMPI_EVT_PMIX_SEND_CONNECTED == state) {
            stat_add(&s->stats.would_block, 1);
            (void) pthread_mutex_unlock(&s->lock);
            return OPAL_ERR_WOULD_BLOCK; /* offered again when a slot frees */
        }
        if (OPAL_SUCCESS == rc) {
            batch_begin(s);
            rc = mca_common_evt_wire_encoder_add_record(&s->enc, rec);
        }
    }
    if (OPAL_SUCCESS != rc) {
        /* unconnected with every slot waiting, or a record the wire cannot
         * carry */
        count_one_dropped(s, rec);
        (void) pthread_mutex_unlock(&s->lock);
        return OPAL_ERR_TEMP_OUT_OF_RESOURCE == rc || OPAL_ERR_WOULD_BLOCK == rc
                   ? OPAL_ERR_TEMP_OUT_OF_RESOURCE
                   : rc;
    }
    batch_item_added(s);
    stat_add(&s->stats.records_encoded, 1);
    (void) pthread_mutex_unlock(&s->lock);
    return OPAL_SUCCESS;
}

/* Context: DRAIN. */
int ompi_evt_pmix_sender_progress(ompi_evt_pmix_sender_t *s)
{
    int64_t now;
    int state, n = 0;

    (void) pthread_mutex_lock(&s->lock);
    state = atomic_load_explicit(&s->state, memory_order_relaxed);
    if (OMPI_EVT_PMIX_SEND_LOST == state) {
        abandon_all(s);
    }
    if (OMPI_EVT_PMIX_SEND_LOST <= state) {
        (void) pthread_mutex_unlock(&s->lock);
        return 0;
    }
    /* CLOCK_MONOTONIC, although this is read at every progress call: the
     * coarse clock lags it by more than its resolution (up to 7 ms against
     * a 4 ms tick on a tickless kernel, measured), so no margin derived
     * from the resolution would keep a batch from waiting past the flush
     * interval */
    now = ompi_evt_pmix_now_ns();
    if (now - s->last_poll >= s->params.flush_interval_ns) {
        /* drops of records that never reached us (full rings) travel even
         * when no record does */
        s->last_poll = now;
        (void) poll_drops(s);
    }
    if (s->enc.open && 0 < s->batch_items && !s->finishing
        && now - s->batch_t0 >= s->params.flush_interval_ns && OPAL_SUCCESS == queue_batch(s)) {
        ++n;
    }
    n += send_pending(s);
    (void) pthread_mutex_unlock(&s->lock);
    return n;
}

/* Context: DRAIN. */
int ompi_evt_pmix_sender_flush(ompi_evt_pmix_sender_t *s)
{
    int n = 0;

    (void) pthread_mutex_lock(&s->lock);
    if (OMPI_EVT_PMIX_SEND_LOST > atomic_load_explicit(&s->state, memory_order_relaxed)
        && s->enc.open && 0 < s->batch_items && !s->finishing && !s->holding
        && OPAL_SUCCESS == queue_batch(s)) {
        n = 1;
    }
    (void) pthread_mutex_unlock(&s->lock);
    return n;
}

void ompi_evt_pmix_sender_hold(ompi_evt_pmix_sender_t *s)
{
    (void) pthread_mutex_lock(&s->lock);
    s->holding = true;
    (void) pthread_mutex_unlock(&s->lock);
}

static void sleep_ms(int ms)
{
    struct timespec ts = {.tv_sec = 0, .tv_nsec = (long) ms * 1000000};

    (void) nanosleep(&ts, NULL);
}

/* Make the open batch (or a new, empty one) the FINAL batch and queue it,
 * waiting (unlocked) for a slot until @p deadline. Meanwhile the drainer
 * may still add records to it, but never closes it (finishing).
 * Context: INIT. */
static int queue_final(ompi_evt_pmix_sender_t *s, int64_t deadline)
{
    (void) pthread_mutex_lock(&s->lock);
    s->finishing = true;
    /* the FINAL batch carries every offset sample: an open batch too full
     * for the last one leaves first, as an ordinary batch */
    while (mca_common_evt_wire_encoder_offsets_pending(&s->enc)
           && OMPI_EVT_PMIX_SEND_LOST > atomic_load_explicit(&s->state, memory_order_relaxed)
           && OPAL_ERR_WOULD_BLOCK == queue_batch(s)) {
        (void) pthread_mutex_unlock(&s->lock);
        if (ompi_evt_pmix_now_ns() >= deadline) {
            return OPAL_ERR_TIMEOUT;
        }
        sleep_ms(1);
        (void) pthread_mutex_lock(&s->lock);
    }
    s->batch_flags = MCA_COMMON_EVT_WIRE_FLAG_FINAL;
    if (s->enc.open) {
        (void) mca_common_evt_wire_encoder_set_flags(&s->enc, MCA_COMMON_EVT_WIRE_FLAG_FINAL);
    } else {
        batch_begin(s);
    }
    (void) pthread_mutex_unlock(&s->lock);
    for (;;) {
        int rc;

        (void) pthread_mutex_lock(&s->lock);
        if (OMPI_EVT_PMIX_SEND_LOST <= atomic_load_explicit(&s->state, memory_order_relaxed)) {
            abandon_all(s);
            (void) pthread_mutex_unlock(&s->lock);
            return OPAL_ERR_UNREACH;
        }
        /* every earlier batch completed first: one that fails counts its
         * records back as dropped, and only the FINAL batch can still
         * carry that count */
        (void) send_pending(s);
        if (!all_slots_free(s)) {
            rc = OPAL_ERR_WOULD_BLOCK;
        } else if (!poll_drops(s)) {
            /* the open batch has no room for every count: it leaves as an
             * ordinary batch, and the FINAL one follows with the rest */
            (void) mca_common_evt_wire_encoder_set_flags(&s->enc, 0);
            rc = queue_batch(s);
            rc = OPAL_SUCCESS == rc ? OPAL_ERR_WOULD_BLOCK : rc;
        } else {
            rc = queue_batch(s);
        }
        if (OPAL_SUCCESS == rc) {
            /* in the same section as the queueing: no record is encoded
             * after the FINAL batch */
            atomic_store_explicit(&s->state, OMPI_EVT_PMIX_SEND_CLOSED, memory_order_relaxed);
        }
        (void) pthread_mutex_unlock(&s->lock);
        if (OPAL_ERR_WOULD_BLOCK != rc) {
            return rc;
        }
        if (ompi_evt_pmix_now_ns() >= deadline) {
            return OPAL_ERR_TIMEOUT;
        }
        sleep_ms(1);
    }
}

/* Context: INIT. */
int ompi_evt_pmix_sender_finish(ompi_evt_pmix_sender_t *s, int64_t deadline_ns)
{
    int rc;

    (void) pthread_mutex_lock(&s->lock);
    if (OMPI_EVT_PMIX_SEND_UNCONNECTED == atomic_load_explicit(&s->state, memory_order_relaxed)) {
        /* never connected: no slot will ever free, nothing to wait for */
        atomic_store_explicit(&s->state, OMPI_EVT_PMIX_SEND_LOST, memory_order_relaxed);
    }
    (void) pthread_mutex_unlock(&s->lock);
    /* the open batch becomes the FINAL one (or an empty FINAL batch is
     * begun), with whatever drop counts are left */
    rc = queue_final(s, deadline_ns);
    (void) pthread_mutex_lock(&s->lock);
    if (OMPI_EVT_PMIX_SEND_CLOSED != atomic_load_explicit(&s->state, memory_order_relaxed)) {
        /* never connected, server gone, or no slot in time: what still
         * waits will not be sent, count it */
        atomic_store_explicit(&s->state, OMPI_EVT_PMIX_SEND_LOST, memory_order_relaxed);
        abandon_all(s);
        atomic_store_explicit(&s->state, OMPI_EVT_PMIX_SEND_CLOSED, memory_order_relaxed);
        if (OPAL_SUCCESS == rc) {
            rc = OPAL_ERR_UNREACH;
        }
    }
    (void) pthread_mutex_unlock(&s->lock);
    /* wait for the completions */
    while (0 < atomic_load_explicit(&s->inflight, memory_order_relaxed)) {
        if (ompi_evt_pmix_now_ns() >= deadline_ns) {
            return OPAL_ERR_TIMEOUT;
        }
        sleep_ms(1);
    }
    if (OPAL_SUCCESS == rc && 0 < atomic_load(&s->stats.batches_failed)
        && status_is_lost(atomic_load(&s->last_error))) {
        rc = OPAL_ERR_UNREACH;
    }
    return rc;
}
