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
mca_base_event_reg_t *mca_base_event_reg_lookup(mca_base_event_registration_t *handle)
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

/* Context: TOOL, ANY, callbacks. Locks: engine mutex. */
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
    /* Before the insert: aggregated instances of producer sinks are raised
     * for the existing registrations only. Pending records need nothing:
     * their epoch is older than the new registration's. */
    mca_base_event_drain_sinks();

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
    atomic_init(&reg->freed, false);
    atomic_init(&reg->end_epoch, UINT64_MAX);
    epoch = atomic_load_explicit(&mca_base_event_reg_epoch, memory_order_relaxed) + 1;
    reg->epoch = epoch;
    reg->next = ev->regs;
    if (NULL != ev->regs) {
        ev->regs->prev = reg;
    }
    ev->regs = reg;
    ++live_regs;
    /* relaxed: published by the release store of the epoch below */
    atomic_store_explicit(&ev->super.listened, true, memory_order_relaxed);
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

/* Caller holds the mutex. The token of @p reg stops naming it. */
static void reg_release_slot(mca_base_event_reg_t *reg)
{
    if (slots[reg->slot].reg == reg) {
        slots[reg->slot].reg = NULL;
        --live_regs;
    }
}

/* Caller holds the mutex. Keep what the grace path needs to end @p reg:
 * the free callback and, before it, the drops still pending, reported to
 * the dropped handler the registration had at the free (with the user data
 * dispatch would pass in context NONE). Further dispatches count its
 * records as dropped (reg->freed). */
static void reg_mark_freed(mca_base_event_reg_t *reg, void *user_data,
                           mca_base_event_free_cb_fn_t free_cb)
{
    reg->final_dropped_cb = reg->dropped_cb;
    reg->final_dropped_user_data = NULL;
    for (int s = 0; s < MCA_BASE_EVENT_CB_SAFETY_COUNT; ++s) {
        if (NULL != reg->cb_fn[s] && NULL == reg->final_dropped_user_data) {
            reg->final_dropped_user_data = reg->cb_user_data[s];
        }
    }
    reg->free_cb = free_cb;
    reg->free_user_data = user_data;
    /* relaxed: see the comment of the field */
    atomic_store_explicit(&reg->freed, true, memory_order_relaxed);
}

/* Caller holds the mutex; @p reg is marked freed, its slot released and it
 * is in no snapshot any more (reg_unpublish()). Unlinks and retires it,
 * and returns the listen transition through *transition. The grace path
 * (mca_base_event_reclaim()) reports its last drops and runs its free
 * callback once every thread that might hold a snapshot naming it has left
 * dispatch. */
static void reg_retire(mca_base_event_reg_t *reg, int *transition)
{
    mca_base_event_priv_t *ev = reg->event;

    if (NULL != reg->prev) {
        reg->prev->next = reg->next;
    } else {
        ev->regs = reg->next;
    }
    if (NULL != reg->next) {
        reg->next->prev = reg->prev;
    }
    reg->next = reg->prev = NULL;
    for (int s = 0; s < MCA_BASE_EVENT_CB_SAFETY_COUNT; ++s) {
        reg->cb_fn[s] = NULL;
    }
    reg->dropped_cb = NULL;
    *transition = mca_base_event_reg_update_listening(reg);
    reg->free_cb_pending = true;
    mca_base_event_retire_reg(reg);
}

/* ------------------------------------------------------------------------
 * Freeing, and the withdraw of records a deferred delivery still holds
 * ------------------------------------------------------------------------ */

/* Registrations freed while a deferred delivery drained on another thread
 * (withdraw_pending set): completed by that drain. Under the mutex. */
static mca_base_event_reg_t *withdraw_list = NULL;
static atomic_bool withdraw_waiting = false;

/* handle_free's removal, run by the delivery's withdraw() (or directly). */
typedef struct free_args_t {
    mca_base_event_registration_t *handle;
    /* what free_match() compares, copied under the mutex (no dereference
     * of a registration another thread might free meanwhile) */
    const mca_base_event_t *event;
    int bind;
    const void *obj;
    uint64_t epoch, end_epoch;
    void *user_data;
    mca_base_event_free_cb_fn_t free_cb;
    bool force;
    mca_base_event_priv_t *ev;
    int transition;
    int ret;
} free_args_t;

/* @p pending: records withdrawn from the delivery, counted as drops before
 * the registration is retired (the retire path reports them). Called with
 * the delivery's drain token held, or without a deferred delivery. */
static void free_remove(void *arg, uint64_t pending)
{
    free_args_t *fa = arg;
    mca_base_event_reg_t *reg;

    opal_mutex_lock(&mca_base_event_lock);
    /* freed meanwhile (by a callback, another thread)? */
    reg = mca_base_event_reg_lookup(fa->handle);
    if (NULL == reg) {
        fa->ret = OPAL_ERR_BAD_PARAM;
    } else {
        fa->ev = reg->event;
        fa->ret = reg_unpublish(reg, fa->force);
        if (OPAL_SUCCESS == fa->ret) {
            reg_release_slot(reg);
            reg_mark_freed(reg, fa->user_data, fa->free_cb);
            /* only once removed (on failure the records stay queued for the
             * still-live registration and are delivered later) */
            mca_base_event_reg_count_drop(reg, pending);
            reg_retire(reg, &fa->transition);
        }
    }
    opal_mutex_unlock(&mca_base_event_lock);
}

/* The delivery is draining on another thread: leave the registration in
 * the snapshots, where dispatch counts its records as dropped, until that
 * drain completes the withdraw (mca_base_event_withdraw_pending()). */
static void free_defer(free_args_t *fa)
{
    mca_base_event_reg_t *reg;

    opal_mutex_lock(&mca_base_event_lock);
    reg = mca_base_event_reg_lookup(fa->handle);
    if (NULL == reg) {
        fa->ret = OPAL_ERR_BAD_PARAM;
    } else {
        fa->ev = reg->event;
        reg_release_slot(reg);
        reg_mark_freed(reg, fa->user_data, fa->free_cb);
        reg->withdraw_pending = true;
        reg->retire_next = withdraw_list;
        withdraw_list = reg;
        /* release: the list is set before a drainer sees the flag (it then
         * takes the mutex anyway) */
        atomic_store_explicit(&withdraw_waiting, true, memory_order_release);
        fa->ret = OPAL_SUCCESS;
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
           && fa->epoch <= record->epoch && record->epoch < fa->end_epoch;
}

/* The same, for a registration waiting on the withdraw list (its memory is
 * alive: it is not retired yet). */
static bool pending_match(const mca_base_event_record_t *record, void *arg)
{
    const mca_base_event_reg_t *reg = arg;

    return record->event == &reg->event->super
           && (MCA_BASE_VAR_BIND_NO_OBJECT == reg->event->super.bind || reg->obj == record->obj)
           && reg->epoch <= record->epoch && mca_base_event_reg_owns(reg, record);
}

/* Context: TOOL, ANY, callbacks, INIT (force). */
static int handle_free(mca_base_event_registration_t *registration, void *user_data,
                       mca_base_event_free_cb_fn_t free_cb, bool force)
{
    const mca_base_event_delivery_t *d;
    mca_base_event_reg_t *reg;
    free_args_t fa;

    opal_mutex_lock(&mca_base_event_lock);
    reg = mca_base_event_reg_lookup(registration);
    if (NULL != reg) {
        fa.event = &reg->event->super;
        fa.bind = reg->event->super.bind;
        fa.obj = reg->obj;
        fa.epoch = reg->epoch;
        /* The free happens here: a record captured from now on is not the
         * registration's (the epoch moves on; release pairs with the
         * acquire load at capture). */
        fa.end_epoch = atomic_fetch_add_explicit(&mca_base_event_reg_epoch, 1,
                                                 memory_order_release)
                       + 1;
        atomic_store_explicit(&reg->end_epoch, fa.end_epoch, memory_order_relaxed);
    }
    opal_mutex_unlock(&mca_base_event_lock);
    if (NULL == reg) {
        return OPAL_ERR_BAD_PARAM;
    }
    fa.handle = registration;
    fa.user_data = user_data;
    fa.free_cb = free_cb;
    fa.force = force;
    fa.ev = NULL;
    fa.transition = 0;
    fa.ret = OPAL_SUCCESS;
    /* Records still pending for it in a deferred delivery are counted as
     * drops (reported to its dropped handler before the free callback), so
     * delivered + dropped == raised holds per registration; nothing is
     * delivered from here, and nothing here waits for a drain.
     * acquire: pairs with the store in mca_base_event_delivery_set() */
    d = atomic_load_explicit(&mca_base_event_delivery, memory_order_acquire);
    if (NULL != d && NULL != d->withdraw) {
        if (OPAL_ERR_WOULD_BLOCK == d->withdraw(free_remove, free_match, &fa)) {
            free_defer(&fa);
        }
    } else {
        free_remove(&fa, 0);
    }
    if (OPAL_SUCCESS != fa.ret) {
        /* invalid, or out of memory: the handle stays as it was */
        opal_mutex_lock(&mca_base_event_lock);
        reg = mca_base_event_reg_lookup(registration);
        if (NULL != reg) {
            atomic_store_explicit(&reg->end_epoch, UINT64_MAX, memory_order_relaxed);
        }
        opal_mutex_unlock(&mca_base_event_lock);
        return fa.ret;
    }
    mca_base_event_listen_notify(fa.ev, fa.transition);
    mca_base_event_reclaim(true, MCA_BASE_EVENT_CB_REQUIRE_NONE);
    return OPAL_SUCCESS;
}

/* Context: TOOL, ANY, callbacks. */
int mca_base_event_handle_free(mca_base_event_registration_t *registration, void *user_data,
                               mca_base_event_free_cb_fn_t free_cb)
{
    return handle_free(registration, user_data, free_cb, false);
}

/* Context: any. */
bool mca_base_event_withdraws_waiting(void)
{
    /* relaxed: a hint; withdraw_pending() loads it again with acquire */
    return atomic_load_explicit(&withdraw_waiting, memory_order_relaxed);
}

/* Context: PROGRESS, ANY (the drainer, its token held). */
void mca_base_event_withdraw_pending(
    uint64_t (*count)(bool (*match)(const mca_base_event_record_t *, void *), void *, void *),
    void *ctx)
{
    /* listen notifications are made outside the mutex, a chunk at a time */
    mca_base_event_priv_t *evs[16];
    int transitions[16], n;
    bool more = true;

    while (more) {
        /* acquire: pairs with the release store in free_defer() */
        if (!atomic_load_explicit(&withdraw_waiting, memory_order_acquire)) {
            return;
        }
        n = 0;
        opal_mutex_lock(&mca_base_event_lock);
        while (NULL != withdraw_list && n < 16) {
            mca_base_event_reg_t *reg = withdraw_list;
            uint64_t pending = count(pending_match, reg, ctx);

            if (OPAL_SUCCESS != reg_unpublish(reg, false)) {
                break; /* out of memory: stays a zombie, the next drain retries */
            }
            withdraw_list = reg->retire_next;
            reg->retire_next = NULL;
            reg->withdraw_pending = false;
            mca_base_event_reg_count_drop(reg, pending);
            evs[n] = reg->event;
            reg_retire(reg, &transitions[n]);
            ++n;
        }
        more = 16 == n && NULL != withdraw_list;
        atomic_store_explicit(&withdraw_waiting, NULL != withdraw_list, memory_order_relaxed);
        opal_mutex_unlock(&mca_base_event_lock);
        for (int i = 0; i < n; ++i) {
            mca_base_event_listen_notify(evs[i], transitions[i]);
        }
    }
}

/* Context: INIT, TOOL. */
void mca_base_event_handles_finalize(void)
{
    for (;;) {
        mca_base_event_registration_t *handle = NULL;

        opal_mutex_lock(&mca_base_event_lock);
        for (uint32_t s = 0; s < num_slots && NULL == handle; ++s) {
            handle = NULL == slots[s].reg ? NULL : slots[s].reg->handle;
        }
        opal_mutex_unlock(&mca_base_event_lock);
        if (NULL == handle) {
            break;
        }
        (void) handle_free(handle, NULL, NULL, true);
    }
    mca_base_event_reclaim(true, MCA_BASE_EVENT_CB_REQUIRE_NONE);
}

/* Context: INIT, TOOL. */
void mca_base_event_handles_free_all(void)
{
    mca_base_event_handles_finalize();
}

/* Caller holds the mutex. */
uint32_t mca_base_event_reg_slot_count(void)
{
    return num_slots;
}

/* Caller holds the mutex. */
mca_base_event_reg_t *mca_base_event_reg_at_slot(uint32_t slot)
{
    return slot < num_slots ? slots[slot].reg : NULL;
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
    reg = mca_base_event_reg_lookup(registration);
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

/* Context: TOOL, ANY. Runs no user code. */
int mca_base_event_set_dropped_handler(mca_base_event_registration_t *registration,
                                       mca_base_event_dropped_cb_fn_t dropped_cb)
{
    mca_base_event_reg_t *reg;
    mca_base_event_priv_t *ev = NULL;
    mca_base_event_dropped_cb_fn_t old;
    int ret = OPAL_SUCCESS, transition = 0;

    opal_mutex_lock(&mca_base_event_lock);
    reg = mca_base_event_reg_lookup(registration);
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
    } else if (NULL != dropped_cb
               && 0 != atomic_load_explicit(&reg->dropped, memory_order_relaxed)) {
        /* a count kept while there was no handler: report it at the next
         * drain point (release: as mca_base_event_reg_count_drop()) */
        (void) atomic_exchange_explicit(&mca_base_event_drops_pending, true,
                                        memory_order_release);
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
    reg = mca_base_event_reg_lookup(registration);
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
    reg = mca_base_event_reg_lookup(registration);
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
    reg = mca_base_event_reg_lookup(registration);
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
    reg = mca_base_event_reg_lookup(registration);
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
    ok = NULL != mca_base_event_reg_lookup(registration);
    opal_mutex_unlock(&mca_base_event_lock);
    return ok;
}

/* Context: ANY. */
mca_base_event_t *mca_base_event_handle_event(mca_base_event_registration_t *registration)
{
    mca_base_event_reg_t *reg;
    mca_base_event_t *ev;
    opal_mutex_lock(&mca_base_event_lock);
    reg = mca_base_event_reg_lookup(registration);
    ev = NULL == reg ? NULL : &reg->event->super;
    opal_mutex_unlock(&mca_base_event_lock);
    return ev;
}

