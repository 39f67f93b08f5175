/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file Registrations (MPI_T event handles): alloc/free, callbacks, infos,
 * dropped handlers, free callbacks and validation by value.
 *
 * A handle is a token, not a pointer: (generation << 32) | (slot + 1). The
 * slot table lives under the engine mutex; a token is valid only while its
 * slot holds a live registration of the same generation, so a freed, stale
 * (the slot reused) or forged handle is rejected without being dereferenced.
 */

#include "opal_config.h"

#include <stdlib.h>
#include <string.h>

#include "opal/mca/base/mca_base_event_internal.h"

typedef struct {
    mca_base_event_reg_t *reg; /**< NULL: free */
    uint32_t gen;
} handle_slot_t;

static handle_slot_t *slots = NULL;
static uint32_t num_slots = 0;
static int live_regs = 0;

static inline mca_base_event_registration_t *make_token(uint32_t slot, uint32_t gen)
{
    return (mca_base_event_registration_t *) (uintptr_t) (((uint64_t) gen << 32)
                                                          | (uint64_t) (slot + 1));
}

/* Caller holds the mutex. NULL for anything but a live handle. */
static mca_base_event_reg_t *lookup(mca_base_event_registration_t *handle)
{
    uint64_t v = (uint64_t) (uintptr_t) handle;
    uint32_t slot = (uint32_t) (v & 0xffffffffu), gen = (uint32_t) (v >> 32);

    if (0 == slot || slot > num_slots || 0 == gen) {
        return NULL;
    }
    if (NULL == slots[slot - 1].reg || slots[slot - 1].gen != gen) {
        return NULL;
    }
    return slots[slot - 1].reg;
}

/* Caller holds the mutex. */
int mca_base_event_reg_update_listening(mca_base_event_reg_t *reg)
{
    bool now = NULL != reg->dropped_cb;
    mca_base_event_priv_t *ev = reg->event;

    for (int s = 0; s < MCA_BASE_EVENT_CB_SAFETY_COUNT; ++s) {
        now = now || NULL != reg->cb_fn[s];
    }
    if (now == reg->listening) {
        return 0;
    }
    reg->listening = now;
    /* relaxed: the gate is a hint; epochs and snapshots decide delivery */
    atomic_fetch_add_explicit(&ev->super.active, now ? 1 : -1, memory_order_relaxed);
    ev->local_listeners += now ? 1 : -1;
    if (now && 1 == ev->local_listeners) {
        return 1;
    }
    if (!now && 0 == ev->local_listeners) {
        return -1;
    }
    return 0;
}

/* Merge the keys of @p src into *dst (created if NULL). Caller holds the mutex. */
static int info_merge(opal_info_t **dst, opal_info_t *src)
{
    opal_info_entry_t *entry;

    if (NULL == *dst) {
        *dst = OBJ_NEW(opal_info_t);
        if (NULL == *dst) {
            return OPAL_ERR_OUT_OF_RESOURCE;
        }
    }
    if (NULL == src) {
        return OPAL_SUCCESS;
    }
    OPAL_LIST_FOREACH (entry, &src->super, opal_info_entry_t) {
        int ret = opal_info_set(*dst, entry->ie_key, entry->ie_value);
        if (OPAL_SUCCESS != ret) {
            return ret;
        }
    }
    return OPAL_SUCCESS;
}

/* Context: TOOL, ANY, callbacks. Locks: engine mutex. A flush point. */
int mca_base_event_handle_alloc(mca_base_event_t *event, const void *obj, opal_info_t *info,
                                mca_base_event_registration_t **registration)
{
    mca_base_event_priv_t *ev = (mca_base_event_priv_t *) event;
    mca_base_event_reg_t *reg = NULL;
    uint32_t slot;
    uint64_t epoch;
    int ret = OPAL_SUCCESS;

    if (NULL == event || NULL == registration
        || (MCA_BASE_VAR_BIND_NO_OBJECT != event->bind && NULL == obj)) {
        return OPAL_ERR_BAD_PARAM;
    }
    /* Flush point, before the insert: earlier instances reach the existing
     * registrations only. */
    (void) mca_base_event_flush();

    opal_mutex_lock(&mca_base_event_lock);
    if (live_regs >= mca_base_event_max_registrations()) {
        ret = OPAL_ERR_OUT_OF_RESOURCE;
        goto cleanup;
    }
    reg = calloc(1, sizeof(*reg));
    if (NULL == reg) {
        ret = OPAL_ERR_OUT_OF_RESOURCE;
        goto cleanup;
    }
    ret = info_merge(&reg->info, info);
    if (OPAL_SUCCESS != ret) {
        goto cleanup;
    }
    for (slot = 0; slot < num_slots && NULL != slots[slot].reg; ++slot) {
    }
    if (slot == num_slots) {
        uint32_t nsize = 0 == num_slots ? 64 : 2 * num_slots;
        handle_slot_t *n = realloc(slots, nsize * sizeof(*n));
        if (NULL == n) {
            ret = OPAL_ERR_OUT_OF_RESOURCE;
            goto cleanup;
        }
        memset(n + num_slots, 0, (nsize - num_slots) * sizeof(*n));
        slots = n;
        num_slots = nsize;
    }
    if (0 == ++slots[slot].gen) {
        slots[slot].gen = 1; /* 0 never names a live handle */
    }
    slots[slot].reg = reg;
    reg->slot = slot;
    reg->handle = make_token(slot, slots[slot].gen);
    reg->event = ev;
    reg->obj = MCA_BASE_VAR_BIND_NO_OBJECT == event->bind ? NULL : obj;
    atomic_init(&reg->dropped, 0);
    atomic_init(&reg->reporter, NULL);
    atomic_init(&reg->freed, false);
    epoch = atomic_load_explicit(&mca_base_event_reg_epoch, memory_order_relaxed) + 1;
    reg->epoch = epoch;
    reg->next = ev->regs;
    if (NULL != ev->regs) {
        ev->regs->prev = reg;
    }
    ev->regs = reg;
    ++live_regs;
    /* release: pairs with the acquire load at capture
     * (mca_base_event_raise_internal()); the registration is not in any
     * snapshot until it has a callback, so nothing else to order here. */
    atomic_store_explicit(&mca_base_event_reg_epoch, epoch, memory_order_release);
    *registration = reg->handle;
    reg = NULL;
cleanup:
    opal_mutex_unlock(&mca_base_event_lock);
    if (NULL != reg) {
        if (NULL != reg->info) {
            OBJ_RELEASE(reg->info);
        }
        free(reg);
    }
    return ret;
}

/* Caller holds the mutex. Publish @p ev's snapshot without @p reg first:
 * a published snapshot must never name a registration that is retired
 * (the grace path frees it once no reader is active, while the snapshot
 * would still point at it). On allocation failure nothing has changed and
 * OPAL_ERR_OUT_OF_RESOURCE is returned, unless @p force (finalize): then
 * the event's snapshot is cleared (every registration is going away). */
static int reg_unpublish(mca_base_event_reg_t *reg, bool force)
{
    mca_base_event_priv_t *ev = reg->event;
    int ret;

    if (!reg->listening) {
        return OPAL_SUCCESS; /* in no snapshot */
    }
    reg->listening = false; /* excluded from the rebuild */
    ret = mca_base_event_regset_rebuild(ev);
    reg->listening = true;
    if (OPAL_SUCCESS != ret && force) {
        mca_base_event_regset_t *old = atomic_load_explicit(&ev->super.regset,
                                                            memory_order_relaxed);
        /* seq_cst: as the publish in mca_base_event_regset_rebuild() */
        atomic_store_explicit(&ev->super.regset, NULL, memory_order_seq_cst);
        mca_base_event_retire_regset(old);
        ret = OPAL_SUCCESS;
    }
    return ret;
}

/* Caller holds the mutex. Unpublishes @p reg (may fail: see
 * reg_unpublish(); then nothing changed), unlinks and retires it, and sets
 * *transition for the listen callback. The free callback, and before it the
 * drops still pending (reported to the dropped handler the registration had
 * at the free), run from the grace path (mca_base_event_reclaim()) once
 * every thread that might hold a snapshot naming it has left dispatch. */
static int reg_remove(mca_base_event_reg_t *reg, void *user_data,
                      mca_base_event_free_cb_fn_t free_cb, bool force, int *transition)
{
    mca_base_event_priv_t *ev = reg->event;
    int ret;

    *transition = 0;
    ret = reg_unpublish(reg, force);
    if (OPAL_SUCCESS != ret) {
        return ret;
    }
    slots[reg->slot].reg = NULL;
    --live_regs;
    if (NULL != reg->prev) {
        reg->prev->next = reg->next;
    } else {
        ev->regs = reg->next;
    }
    if (NULL != reg->next) {
        reg->next->prev = reg->prev;
    }
    reg->next = reg->prev = NULL;
    /* The registration receives everything raised for it before the free,
     * drops included: keep its dropped handler, with the user data dispatch
     * would pass (the callback serving REQUIRE_NONE), for the grace path. */
    reg->final_dropped_cb = reg->dropped_cb;
    reg->final_dropped_user_data = NULL;
    for (int s = 0; s < MCA_BASE_EVENT_CB_SAFETY_COUNT; ++s) {
        if (NULL != reg->cb_fn[s] && NULL == reg->final_dropped_user_data) {
            reg->final_dropped_user_data = reg->cb_user_data[s];
        }
        reg->cb_fn[s] = NULL;
    }
    reg->dropped_cb = NULL;
    *transition = mca_base_event_reg_update_listening(reg);
    reg->free_cb = free_cb;
    reg->free_user_data = user_data;
    /* relaxed: read back only by this thread's own later dispatch steps
     * (deliver_one()); other threads are kept out by the grace period. */
    atomic_store_explicit(&reg->freed, true, memory_order_relaxed);
    reg->free_cb_pending = true;
    mca_base_event_retire_reg(reg);
    return OPAL_SUCCESS;
}

/* handle_free's removal, run by the delivery's withdraw() (or directly). */
typedef struct free_args_t {
    mca_base_event_registration_t *handle;
    /* what free_match() compares, copied under the mutex (no dereference
     * of a registration another thread might free meanwhile) */
    const mca_base_event_t *event;
    int bind;
    const void *obj;
    uint64_t epoch;
    void *user_data;
    mca_base_event_free_cb_fn_t free_cb;
    mca_base_event_priv_t *ev;
    int transition;
    int ret;
} free_args_t;

/* @p pending: records withdrawn from the delivery, counted as drops before
 * the registration is retired (the retire path reports them). */
static void free_remove(void *arg, uint64_t pending)
{
    free_args_t *fa = arg;
    mca_base_event_reg_t *reg;

    opal_mutex_lock(&mca_base_event_lock);
    /* freed meanwhile (by a callback of the flush, another thread)? */
    reg = lookup(fa->handle);
    if (NULL == reg) {
        fa->ret = OPAL_ERR_BAD_PARAM;
    } else {
        fa->ev = reg->event;
        fa->ret = reg_remove(reg, fa->user_data, fa->free_cb, false, &fa->transition);
        /* only once removed (on failure the records stay queued for the
         * still-live registration and are delivered later): the retired
         * registration's count is reported by the grace path */
        while (OPAL_SUCCESS == fa->ret && 0 < pending--) {
            mca_base_event_reg_count_drop(reg);
        }
    }
    opal_mutex_unlock(&mca_base_event_lock);
}

/* Would @p record have reached the registration? (entry_matches() of
 * dispatch, on the copies.) */
static bool free_match(const mca_base_event_record_t *record, void *arg)
{
    const free_args_t *fa = arg;

    return record->event == fa->event
           && (MCA_BASE_VAR_BIND_NO_OBJECT == fa->bind || fa->obj == record->obj)
           && fa->epoch <= record->epoch;
}

/* Context: TOOL, ANY, callbacks. A flush point. */
int mca_base_event_handle_free(mca_base_event_registration_t *registration, void *user_data,
                               mca_base_event_free_cb_fn_t free_cb)
{
    const mca_base_event_delivery_t *d;
    mca_base_event_reg_t *reg;
    free_args_t fa;

    opal_mutex_lock(&mca_base_event_lock);
    reg = lookup(registration);
    if (NULL != reg) {
        fa.event = &reg->event->super;
        fa.bind = reg->event->super.bind;
        fa.obj = reg->obj;
        fa.epoch = reg->epoch;
    }
    opal_mutex_unlock(&mca_base_event_lock);
    if (NULL == reg) {
        return OPAL_ERR_BAD_PARAM;
    }
    /* Flush point, before the removal: the registration receives what was
     * raised for it before the free. */
    (void) mca_base_event_flush();

    /* Records still pending for it (the free comes from a callback of the
     * drain, which cannot flush itself, or races with raises elsewhere):
     * the delivery counts them while no record is dispatched and hands the
     * count to the removal; they become drops, reported to the dropped
     * handler before the free callback, so delivered + dropped == raised
     * holds per registration. */
    fa.handle = registration;
    fa.user_data = user_data;
    fa.free_cb = free_cb;
    fa.ev = NULL;
    fa.transition = 0;
    fa.ret = OPAL_SUCCESS;
    /* acquire: pairs with the release store in mca_base_event_delivery_set() */
    d = atomic_load_explicit(&mca_base_event_delivery, memory_order_acquire);
    if (NULL != d && NULL != d->withdraw) {
        d->withdraw(free_remove, free_match, &fa);
    } else {
        free_remove(&fa, 0);
    }
    if (OPAL_SUCCESS != fa.ret) {
        /* out of memory: the handle stays valid, nothing changed */
        return fa.ret;
    }
    mca_base_event_listen_notify(fa.ev, fa.transition);
    mca_base_event_reclaim(true, MCA_BASE_EVENT_CB_REQUIRE_NONE);
    return OPAL_SUCCESS;
}

/* Context: INIT (finalize). */
void mca_base_event_handles_finalize(void)
{
    for (;;) {
        mca_base_event_reg_t *reg = NULL;
        mca_base_event_priv_t *ev;
        int transition;

        opal_mutex_lock(&mca_base_event_lock);
        for (uint32_t s = 0; s < num_slots && NULL == reg; ++s) {
            reg = slots[s].reg;
        }
        if (NULL == reg) {
            opal_mutex_unlock(&mca_base_event_lock);
            break;
        }
        ev = reg->event;
        (void) reg_remove(reg, NULL, NULL, true, &transition);
        opal_mutex_unlock(&mca_base_event_lock);
        mca_base_event_listen_notify(ev, transition);
    }
    mca_base_event_reclaim(true, MCA_BASE_EVENT_CB_REQUIRE_NONE);
}

/* Context: TOOL, ANY, callbacks. */
int mca_base_event_register_callback(mca_base_event_registration_t *registration,
                                     mca_base_event_cb_safety_t safety, opal_info_t *info,
                                     void *user_data, mca_base_event_cb_fn_t cb_fn)
{
    mca_base_event_reg_t *reg;
    mca_base_event_priv_t *ev = NULL;
    int ret = OPAL_SUCCESS, transition = 0;
    mca_base_event_cb_fn_t old_fn;
    void *old_ud;

    if (0 > (int) safety || MCA_BASE_EVENT_CB_SAFETY_COUNT <= (int) safety) {
        return OPAL_ERR_BAD_PARAM;
    }
    opal_mutex_lock(&mca_base_event_lock);
    reg = lookup(registration);
    if (NULL == reg) {
        ret = OPAL_ERR_BAD_PARAM;
        goto cleanup;
    }
    ev = reg->event;
    old_fn = reg->cb_fn[safety];
    old_ud = reg->cb_user_data[safety];
    if (NULL == cb_fn) {
        if (NULL != reg->cb_info[safety]) {
            OBJ_RELEASE(reg->cb_info[safety]);
            reg->cb_info[safety] = NULL;
        }
    } else {
        ret = info_merge(&reg->cb_info[safety], info);
        if (OPAL_SUCCESS != ret) {
            goto cleanup;
        }
    }
    reg->cb_fn[safety] = cb_fn;
    reg->cb_user_data[safety] = NULL == cb_fn ? NULL : user_data;
    /* relaxed: before the rebuild, whose entries carry the new value; seen
     * in program order by this thread's outer dispatches (deliver_one()),
     * other threads use either snapshot */
    atomic_store_explicit(&reg->cb_gen, atomic_load_explicit(&reg->cb_gen, memory_order_relaxed) + 1,
                          memory_order_relaxed);
    transition = mca_base_event_reg_update_listening(reg);
    ret = mca_base_event_regset_rebuild(ev);
    if (OPAL_SUCCESS != ret) {
        reg->cb_fn[safety] = old_fn;
        reg->cb_user_data[safety] = old_ud;
        transition += mca_base_event_reg_update_listening(reg);
    }
cleanup:
    opal_mutex_unlock(&mca_base_event_lock);
    if (NULL != ev) {
        mca_base_event_listen_notify(ev, transition);
    }
    if (OPAL_SUCCESS == ret) {
        mca_base_event_reclaim(true, MCA_BASE_EVENT_CB_REQUIRE_NONE);
    }
    return ret;
}

/* Context: TOOL, ANY. A flush point. */
int mca_base_event_set_dropped_handler(mca_base_event_registration_t *registration,
                                       mca_base_event_dropped_cb_fn_t dropped_cb)
{
    mca_base_event_reg_t *reg;
    mca_base_event_priv_t *ev = NULL;
    mca_base_event_dropped_cb_fn_t old;
    int ret = OPAL_SUCCESS, transition = 0;

    opal_mutex_lock(&mca_base_event_lock);
    reg = lookup(registration);
    opal_mutex_unlock(&mca_base_event_lock);
    if (NULL == reg) {
        return OPAL_ERR_BAD_PARAM;
    }
    (void) mca_base_event_flush();

    opal_mutex_lock(&mca_base_event_lock);
    reg = lookup(registration);
    if (NULL == reg) {
        ret = OPAL_ERR_BAD_PARAM;
        goto cleanup;
    }
    ev = reg->event;
    old = reg->dropped_cb;
    reg->dropped_cb = dropped_cb;
    /* relaxed: as in mca_base_event_register_callback() */
    atomic_store_explicit(&reg->cb_gen, atomic_load_explicit(&reg->cb_gen, memory_order_relaxed) + 1,
                          memory_order_relaxed);
    transition = mca_base_event_reg_update_listening(reg);
    ret = mca_base_event_regset_rebuild(ev);
    if (OPAL_SUCCESS != ret) {
        reg->dropped_cb = old;
        transition += mca_base_event_reg_update_listening(reg);
    }
cleanup:
    opal_mutex_unlock(&mca_base_event_lock);
    if (NULL != ev) {
        mca_base_event_listen_notify(ev, transition);
    }
    return ret;
}

/* Context: TOOL, ANY. */
int mca_base_event_handle_set_info(mca_base_event_registration_t *registration,
                                   opal_info_t *info)
{
    mca_base_event_reg_t *reg;
    int ret;

    if (NULL == info) {
        return OPAL_ERR_BAD_PARAM;
    }
    opal_mutex_lock(&mca_base_event_lock);
    reg = lookup(registration);
    ret = NULL == reg ? OPAL_ERR_BAD_PARAM : info_merge(&reg->info, info);
    opal_mutex_unlock(&mca_base_event_lock);
    return ret;
}

/* Context: TOOL, ANY. */
int mca_base_event_handle_get_info(mca_base_event_registration_t *registration,
                                   opal_info_t **info_used)
{
    mca_base_event_reg_t *reg;
    int ret;

    if (NULL == info_used) {
        return OPAL_ERR_BAD_PARAM;
    }
    opal_mutex_lock(&mca_base_event_lock);
    reg = lookup(registration);
    if (NULL == reg) {
        ret = OPAL_ERR_BAD_PARAM;
    } else {
        *info_used = NULL;
        ret = info_merge(info_used, reg->info);
    }
    opal_mutex_unlock(&mca_base_event_lock);
    return ret;
}

/* Context: TOOL, ANY. */
int mca_base_event_callback_set_info(mca_base_event_registration_t *registration,
                                     mca_base_event_cb_safety_t safety, opal_info_t *info)
{
    mca_base_event_reg_t *reg;
    int ret;

    if (NULL == info || 0 > (int) safety || MCA_BASE_EVENT_CB_SAFETY_COUNT <= (int) safety) {
        return OPAL_ERR_BAD_PARAM;
    }
    opal_mutex_lock(&mca_base_event_lock);
    reg = lookup(registration);
    if (NULL == reg) {
        ret = OPAL_ERR_BAD_PARAM;
    } else if (NULL == reg->cb_fn[safety]) {
        ret = OPAL_ERR_NOT_FOUND;
    } else {
        ret = info_merge(&reg->cb_info[safety], info);
    }
    opal_mutex_unlock(&mca_base_event_lock);
    return ret;
}

/* Context: TOOL, ANY. */
int mca_base_event_callback_get_info(mca_base_event_registration_t *registration,
                                     mca_base_event_cb_safety_t safety, opal_info_t **info_used)
{
    mca_base_event_reg_t *reg;
    int ret;

    if (NULL == info_used || 0 > (int) safety || MCA_BASE_EVENT_CB_SAFETY_COUNT <= (int) safety) {
        return OPAL_ERR_BAD_PARAM;
    }
    opal_mutex_lock(&mca_base_event_lock);
    reg = lookup(registration);
    if (NULL == reg) {
        ret = OPAL_ERR_BAD_PARAM;
    } else if (NULL == reg->cb_fn[safety]) {
        ret = OPAL_ERR_NOT_FOUND;
    } else {
        *info_used = NULL;
        ret = info_merge(info_used, reg->cb_info[safety]);
    }
    opal_mutex_unlock(&mca_base_event_lock);
    return ret;
}

/* Context: ANY. */
bool mca_base_event_handle_is_valid(mca_base_event_registration_t *registration)
{
    bool ok;
    opal_mutex_lock(&mca_base_event_lock);
    ok = NULL != lookup(registration);
    opal_mutex_unlock(&mca_base_event_lock);
    return ok;
}

/* Context: ANY. */
mca_base_event_t *mca_base_event_handle_event(mca_base_event_registration_t *registration)
{
    mca_base_event_reg_t *reg;
    mca_base_event_t *ev;
    opal_mutex_lock(&mca_base_event_lock);
    reg = lookup(registration);
    ev = NULL == reg ? NULL : &reg->event->super;
    opal_mutex_unlock(&mca_base_event_lock);
    return ev;
}

/* Test-only: preload a registration's drop counter. */
int mca_base_event_test_set_dropped(mca_base_event_registration_t *registration,
                                    uint64_t value)
{
    mca_base_event_reg_t *reg;
    opal_mutex_lock(&mca_base_event_lock);
    reg = lookup(registration);
    if (NULL != reg) {
        atomic_store_explicit(&reg->dropped, value, memory_order_relaxed);
        /* release: as mca_base_event_reg_count_drop() */
        (void) atomic_exchange_explicit(&mca_base_event_drops_pending, true,
                                        memory_order_release);
    }
    opal_mutex_unlock(&mca_base_event_lock);
    return NULL == reg ? OPAL_ERR_BAD_PARAM : OPAL_SUCCESS;
}

/* ------------------------------------------------------------------------
 * Reporting pending drops at flush points
 * ------------------------------------------------------------------------ */

atomic_bool mca_base_event_drops_pending = false;

/** Registrations reported per walk of the slots (stack array; the walk goes
 *  on from where it stopped after the calls). */
#define REPORT_CHUNK 32

typedef struct report_entry_t {
    mca_base_event_reg_t *reg;
    mca_base_event_dropped_cb_fn_t dropped_cb;
    mca_base_event_registration_t *handle;
    void *user_data;
    int source_index;
} report_entry_t;

/* Context: TOOL, PROGRESS, ANY (not SIGNAL). Locks: takes the engine mutex. */
void mca_base_event_report_drops(mca_base_event_cb_safety_t context)
{
    mca_base_event_thread_t *rec;
    report_entry_t batch[REPORT_CHUNK];
    uint32_t next = 0;
    bool skipped = false;

    if (0 > (int) context || MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE <= context
        || 0 < mca_base_event_tls.depth) {
        return; /* SIGNAL, or a callback's flush point: a later report does it */
    }
    /* relaxed: the cheap test; the exchange below orders */
    if (!atomic_load_explicit(&mca_base_event_drops_pending, memory_order_relaxed)) {
        return;
    }
    /* acquire: pairs with the release exchange in
     * mca_base_event_reg_count_drop(); every counter that went nonzero
     * before its flag was set is seen by the swaps below. */
    if (!atomic_exchange_explicit(&mca_base_event_drops_pending, false, memory_order_acquire)) {
        return;
    }
    /* A read-side section, as dispatch: a registration collected below and
     * freed meanwhile by another thread (or by a dropped handler) keeps its
     * memory, and its free callback (with its final drop report) waits in
     * the grace path until we left. */
    rec = mca_base_event_reader_enter(true);
    if (NULL == rec) {
        /* relaxed: as the setter; retry at the next flush point */
        atomic_store_explicit(&mca_base_event_drops_pending, true, memory_order_relaxed);
        return;
    }
    while (true) {
        int n = 0;

        opal_mutex_lock(&mca_base_event_lock);
        for (; next < num_slots && n < REPORT_CHUNK; ++next) {
            mca_base_event_reg_t *reg = slots[next].reg;
            int s;

            /* relaxed: a hint; the swap below decides */
            if (NULL == reg || NULL == reg->dropped_cb
                || 0 == atomic_load_explicit(&reg->dropped, memory_order_relaxed)) {
                continue;
            }
            /* the callback dispatch would pick: lowest level >= context */
            for (s = (int) context; s < MCA_BASE_EVENT_CB_SAFETY_COUNT; ++s) {
                if (NULL != reg->cb_fn[s]) {
                    break;
                }
            }
            batch[n].user_data = NULL;
            if (MCA_BASE_EVENT_CB_SAFETY_COUNT > s) {
                batch[n].user_data = reg->cb_user_data[s];
            } else {
                bool has_cb = false;
                for (int t = 0; t < MCA_BASE_EVENT_CB_SAFETY_COUNT; ++t) {
                    has_cb = has_cb || NULL != reg->cb_fn[t];
                }
                if (has_cb) {
                    /* no callback serves this context: not here */
                    skipped = true;
                    continue;
                }
            }
            batch[n].reg = reg;
            batch[n].dropped_cb = reg->dropped_cb;
            batch[n].handle = reg->handle;
            batch[n].source_index = reg->event->super.source->index;
            ++n;
        }
        opal_mutex_unlock(&mca_base_event_lock);
        for (int i = 0; i < n; ++i) {
            mca_base_event_reg_t *reg = batch[i].reg;
            uint64_t cnt;

            /* relaxed: freed by this thread (a dropped handler above) or by
             * another one; either way its drops go to the grace path's
             * final report, after us (the grace period waits for us). */
            if (atomic_load_explicit(&reg->freed, memory_order_relaxed)) {
                continue;
            }
            /* Mark the report first, so a delivery on another thread that
             * finds the count gone waits for the handler (flush_dropped()).
             * One reporter at a time: another one busy with it keeps it.
             * relaxed: published by the release swap below. */
            mca_base_event_thread_t *none = NULL;
            if (!atomic_compare_exchange_strong_explicit(&reg->reporter, &none, rec,
                                                         memory_order_relaxed,
                                                         memory_order_relaxed)) {
                skipped = true;
                continue;
            }
            /* acq_rel: releases the mark to the delivery that reads the 0
             * (acquire in flush_dropped()); the swap makes each drop
             * reported once (dispatch's flush_dropped() and the grace path
             * swap the same counter) */
            cnt = atomic_exchange_explicit(&reg->dropped, 0, memory_order_acq_rel);
            if (0 != cnt) {
                bool was = mca_base_event_tls.reporting;
                if ((uint64_t) OPAL_COUNT_MAX < cnt) {
                    cnt = (uint64_t) OPAL_COUNT_MAX; /* saturate before narrowing */
                }
                mca_base_event_tls.reporting = true;
                batch[i].dropped_cb((opal_count_t) cnt, batch[i].handle, batch[i].source_index,
                                    context, batch[i].user_data);
                mca_base_event_tls.reporting = was;
            }
            /* release: pairs with the acquire load in wait_reporter() */
            atomic_store_explicit(&reg->reporter, NULL, memory_order_release);
        }
        if (REPORT_CHUNK > n) {
            break;
        }
    }
    if (skipped) {
        /* relaxed: as the setter; counts left for a context that serves them */
        atomic_store_explicit(&mca_base_event_drops_pending, true, memory_order_relaxed);
    }
    mca_base_event_reader_exit(rec, context);
}
