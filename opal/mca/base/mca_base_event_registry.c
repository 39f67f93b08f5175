/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/** @file Event types: the "ompi." naming rule, layout validation,
 *  idempotent registration and lookup by index and by name. */

#include "opal_config.h"

#include <stdlib.h>
#include <string.h>

#include "opal/class/opal_hash_table.h"
#include "opal/mca/base/mca_base_event_internal.h"

mca_base_event_priv_t **mca_base_event_events = NULL;
int mca_base_event_num_events = 0;
static int events_size = 0;
/* The same array for lock-free readers (drains map a record's event index
 * to the event): published with a release store after the entry is
 * written. An array replaced by a larger one is kept, never freed (events
 * are never unregistered; a few KiB at most), so a reader holding the old
 * pointer stays valid; retired_events keeps it reachable (a leak checker
 * would otherwise report it). */
static _Atomic(mca_base_event_priv_t **) fast_events = NULL;
static atomic_int fast_count = 0;
/* The arrays replaced, kept reachable (each growth doubles: 16 << 40
 * events would be needed to fill this). */
static mca_base_event_priv_t **retired_events[40];
static int num_retired_events = 0;
/** full name -> index + 1 (lazily constructed, under the mutex). */
static opal_hash_table_t event_names;
static bool event_names_ready = false;

/* Context: ANY. "ompi." + the non-NULL, non-empty parts joined with "_";
 * NULL when every part is missing or on allocation failure. */
static char *full_name(const char *framework, const char *component, const char *name)
{
    const char *parts[3] = {framework, component, name};
    size_t len = strlen("ompi.") + 1;
    bool any = false;
    char *out;

    for (int i = 0; i < 3; ++i) {
        if (NULL != parts[i] && '\0' != parts[i][0]) {
            len += strlen(parts[i]) + 1;
            any = true;
        }
    }
    if (!any) {
        return NULL;
    }
    out = malloc(len);
    if (NULL == out) {
        return NULL;
    }
    strcpy(out, "ompi.");
    any = false;
    for (int i = 0; i < 3; ++i) {
        if (NULL != parts[i] && '\0' != parts[i][0]) {
            if (any) {
                strcat(out, "_");
            }
            strcat(out, parts[i]);
            any = true;
        }
    }
    return out;
}

/* Context: ANY. Ascending offsets from 0, no overlap, exact-width types,
 * extent within the payload cap. */
static int check_layout(int num_elements, const mca_base_var_type_t types[],
                        const ptrdiff_t offsets[], size_t *extent)
{
    size_t end = 0;

    if (0 > num_elements) {
        return OPAL_ERR_BAD_PARAM;
    }
    if (0 < num_elements && (NULL == types || NULL == offsets)) {
        return OPAL_ERR_BAD_PARAM;
    }
    for (int i = 0; i < num_elements; ++i) {
        size_t size = mca_base_event_type_size(types[i]);
        if (0 == size) {
            return OPAL_ERR_BAD_PARAM; /* not an exact-width type */
        }
        if (0 == i ? 0 != offsets[0] : (0 > offsets[i] || (size_t) offsets[i] < end)) {
            return OPAL_ERR_BAD_PARAM; /* not from 0, descending or overlapping */
        }
        end = (size_t) offsets[i] + size;
        if (MCA_BASE_EVENT_MAX_PAYLOAD < end) {
            return OPAL_ERR_BAD_PARAM;
        }
    }
    *extent = end;
    return OPAL_SUCCESS;
}

/* Context: ANY. Caller holds the engine mutex. Is the registered event
 * @p ev the one these arguments describe? Its identity is everything a
 * tool or the raise path relies on: the layout (element count, types,
 * offsets), the binding, the source, the flags and the verbosity. The
 * description, enumerator and ctx of the first registration are kept. */
static bool same_identity(const mca_base_event_t *ev, mca_base_var_info_lvl_t verbosity,
                          int num_elements, const mca_base_var_type_t types[],
                          const ptrdiff_t offsets[], int bind, uint32_t flags,
                          const mca_base_event_source_t *source)
{
    if (ev->num_elements != num_elements || ev->bind != bind || ev->flags != flags
        || ev->source != source || ev->verbosity != verbosity) {
        return false;
    }
    for (int i = 0; i < num_elements; ++i) {
        if (ev->types[i] != types[i] || ev->offsets[i] != offsets[i]) {
            return false;
        }
    }
    return true;
}

static void event_destroy(mca_base_event_priv_t *ev)
{
    char **names;

    if (NULL == ev) {
        return;
    }
    names = atomic_load_explicit(&ev->super.element_names, memory_order_relaxed);
    if (NULL != names) {
        for (int i = 0; i < ev->super.num_elements; ++i) {
            free(names[i]);
        }
        free(names);
    }
    free(ev->super.name);
    free(ev->super.description);
    free(ev->super.types);
    free(ev->super.offsets);
    free(ev);
}

/* Context: INIT, ANY. Locks: takes the engine mutex. */
int mca_base_event_register(const char *project, const char *framework, const char *component,
                            const char *name, const char *description,
                            mca_base_var_info_lvl_t verbosity, int num_elements,
                            const mca_base_var_type_t types[], const ptrdiff_t offsets[],
                            mca_base_var_enum_t *enumerator, int bind, uint32_t flags,
                            mca_base_event_source_t *source, void *ctx)
{
    mca_base_event_priv_t *ev = NULL;
    char *fname = NULL;
    size_t extent = 0;
    void *found = NULL;
    int ret;

    (void) project; /* the prefix is always "ompi." */
    if (NULL == name || '\0' == name[0] || NULL == source || MCA_BASE_VAR_BIND_NO_OBJECT > bind
        || MCA_BASE_VAR_BIND_FIRST_AVAILABLE <= bind || OPAL_INFO_LVL_1 > verbosity
        || OPAL_INFO_LVL_9 < verbosity
        || 0 != (flags & ~(uint32_t) MCA_BASE_EVENT_FLAG_SYNCHRONOUS)) {
        return OPAL_ERR_BAD_PARAM;
    }
    ret = check_layout(num_elements, types, offsets, &extent);
    if (OPAL_SUCCESS != ret) {
        return ret;
    }
    fname = full_name(framework, component, name);
    if (NULL == fname) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }

    opal_mutex_lock(&mca_base_event_lock);
    if (!mca_base_event_source_is_registered(source)) {
        ret = OPAL_ERR_BAD_PARAM;
        goto cleanup;
    }
    if (!event_names_ready) {
        OBJ_CONSTRUCT(&event_names, opal_hash_table_t);
        if (OPAL_SUCCESS != opal_hash_table_init(&event_names, 64)) {
            OBJ_DESTRUCT(&event_names);
            ret = OPAL_ERR_OUT_OF_RESOURCE;
            goto cleanup;
        }
        event_names_ready = true;
    }
    if (OPAL_SUCCESS == opal_hash_table_get_value_ptr(&event_names, fname, strlen(fname), &found)) {
        ret = (int) ((intptr_t) found - 1);
        /* Idempotent only for the same event: a different one under a known
         * name would have its raises read with the first one's layout. */
        if (!same_identity(&mca_base_event_events[ret]->super, verbosity, num_elements, types,
                           offsets, bind, flags, source)) {
            ret = OPAL_EXISTS;
        }
        goto cleanup;
    }
    if (mca_base_event_num_events == events_size) {
        int nsize = 0 == events_size ? 16 : 2 * events_size;
        /* not realloc: lock-free readers may hold the old array (kept) */
        mca_base_event_priv_t **n = malloc(nsize * sizeof(*n));
        if (NULL == n) {
            ret = OPAL_ERR_OUT_OF_RESOURCE;
            goto cleanup;
        }
        if (0 < mca_base_event_num_events) {
            memcpy(n, mca_base_event_events, mca_base_event_num_events * sizeof(*n));
        }
        if (NULL != mca_base_event_events
            && num_retired_events < (int) (sizeof(retired_events) / sizeof(retired_events[0]))) {
            retired_events[num_retired_events++] = mca_base_event_events;
        }
        mca_base_event_events = n;
        events_size = nsize;
        /* release: the copied entries are visible to a reader of the new
         * array (pairs with the acquire load in mca_base_event_lookup()) */
        atomic_store_explicit(&fast_events, n, memory_order_release);
    }
    ev = calloc(1, sizeof(*ev));
    if (NULL == ev) {
        ret = OPAL_ERR_OUT_OF_RESOURCE;
        goto cleanup;
    }
    ev->super.name = fname;
    fname = NULL;
    ev->super.description = strdup(NULL == description ? "" : description);
    ev->super.types = malloc((num_elements + 1) * sizeof(*ev->super.types));
    ev->super.offsets = malloc((num_elements + 1) * sizeof(*ev->super.offsets));
    if (NULL == ev->super.description || NULL == ev->super.types || NULL == ev->super.offsets) {
        ret = OPAL_ERR_OUT_OF_RESOURCE;
        goto cleanup;
    }
    if (0 < num_elements) {
        memcpy(ev->super.types, types, num_elements * sizeof(*types));
        memcpy(ev->super.offsets, offsets, num_elements * sizeof(*offsets));
    }
    ev->super.index = mca_base_event_num_events;
    ev->super.verbosity = verbosity;
    ev->super.num_elements = num_elements;
    ev->super.extent = extent;
    ev->super.enumerator = enumerator;
    ev->super.bind = bind;
    ev->super.flags = flags;
    ev->super.source = source;
    ev->super.ctx = ctx;
    atomic_init(&ev->super.regset, NULL);
    atomic_init(&ev->super.active, 0);
    atomic_init(&ev->super.exported, false);
    atomic_init(&ev->super.listened, false);
    atomic_init(&ev->super.element_names, NULL);
    atomic_init(&ev->export_dropped, 0);
    /* an exporting delivery opens the gate of the events it exports, new
     * events included */
    mca_base_event_export_update(ev, atomic_load_explicit(&mca_base_event_delivery,
                                                          memory_order_relaxed));
    if (OPAL_SUCCESS
        != opal_hash_table_set_value_ptr(&event_names, ev->super.name, strlen(ev->super.name),
                                         (void *) (intptr_t) (ev->super.index + 1))) {
        ret = OPAL_ERR_OUT_OF_RESOURCE;
        goto cleanup;
    }
    if (NULL != enumerator) {
        OBJ_RETAIN(enumerator);
    }
    mca_base_event_events[mca_base_event_num_events++] = ev;
    /* release: the event is complete before a lock-free reader can find it
     * (pairs with the acquire load in mca_base_event_lookup()) */
    atomic_store_explicit(&fast_count, mca_base_event_num_events, memory_order_release);
    ret = ev->super.index;
    ev = NULL;
cleanup:
    opal_mutex_unlock(&mca_base_event_lock);
    free(fname);
    event_destroy(ev);
    return ret;
}

/* Context: INIT, ANY. Locks: takes the engine mutex (twice: event types
 * are never removed, so the index found by the first call stays valid). */
int mca_base_event_register_ptr(const char *project, const char *framework, const char *component,
                                const char *name, const char *description,
                                mca_base_var_info_lvl_t verbosity, int num_elements,
                                const mca_base_var_type_t types[], const ptrdiff_t offsets[],
                                mca_base_var_enum_t *enumerator, int bind, uint32_t flags,
                                mca_base_event_source_t *source, void *ctx,
                                mca_base_event_t **event)
{
    int index, ret;

    if (NULL == event) {
        return OPAL_ERR_BAD_PARAM;
    }
    index = mca_base_event_register(project, framework, component, name, description, verbosity,
                                    num_elements, types, offsets, enumerator, bind, flags, source,
                                    ctx);
    if (0 > index) {
        return index;
    }
    ret = mca_base_event_get_by_index(index, event);
    return OPAL_SUCCESS == ret ? index : ret;
}

/* Context: ANY. */
int mca_base_event_get_by_index(int index, mca_base_event_t **event)
{
    int ret = OPAL_SUCCESS;

    if (NULL == event) {
        return OPAL_ERR_BAD_PARAM;
    }
    opal_mutex_lock(&mca_base_event_lock);
    if (0 > index || index >= mca_base_event_num_events) {
        ret = OPAL_ERR_NOT_FOUND;
    } else {
        *event = &mca_base_event_events[index]->super;
    }
    opal_mutex_unlock(&mca_base_event_lock);
    return ret;
}

/* Context: ANY. */
int mca_base_event_get_by_name(const char *name, mca_base_event_t **event)
{
    void *found = NULL;
    int ret = OPAL_ERR_NOT_FOUND;

    if (NULL == name || NULL == event) {
        return OPAL_ERR_BAD_PARAM;
    }
    opal_mutex_lock(&mca_base_event_lock);
    if (event_names_ready
        && OPAL_SUCCESS
               == opal_hash_table_get_value_ptr(&event_names, name, strlen(name), &found)) {
        *event = &mca_base_event_events[(intptr_t) found - 1]->super;
        ret = OPAL_SUCCESS;
    }
    opal_mutex_unlock(&mca_base_event_lock);
    return ret;
}

/* Context: ANY. */
int mca_base_event_get_count(void)
{
    int n;
    opal_mutex_lock(&mca_base_event_lock);
    n = mca_base_event_num_events;
    opal_mutex_unlock(&mca_base_event_lock);
    return n;
}

/* Context: any, SIGNAL. Lock-free. */
mca_base_event_t *mca_base_event_lookup(uint32_t index)
{
    /* acquire: pairs with the release store of the count in
     * mca_base_event_register(); the array loaded after it holds the entry
     * (the array pointer is published before the count that needs it). */
    int n = atomic_load_explicit(&fast_count, memory_order_acquire);
    mca_base_event_priv_t **events;

    if ((uint32_t) n <= index) {
        return NULL;
    }
    events = atomic_load_explicit(&fast_events, memory_order_acquire);
    return &events[index]->super;
}

/* Context: ANY. [A-Za-z_][A-Za-z0-9_]*, 1..255 characters. */
static bool element_name_ok(const char *name)
{
    size_t len;

    if (NULL == name) {
        return false;
    }
    len = strlen(name);
    if (0 == len || 255 < len || ('0' <= name[0] && name[0] <= '9')) {
        return false;
    }
    for (size_t i = 0; i < len; ++i) {
        char c = name[i];
        if (!(('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
              || '_' == c)) {
            return false;
        }
    }
    return true;
}

/* Context: INIT, ANY. Locks: takes the engine mutex. */
int mca_base_event_set_element_names(mca_base_event_t *event, const char *const names[])
{
    char **copy = NULL, **old;
    int n, ret = OPAL_SUCCESS;

    if (NULL == event || NULL == names) {
        return OPAL_ERR_BAD_PARAM;
    }
    n = event->num_elements;
    for (int i = 0; i < n; ++i) {
        if (!element_name_ok(names[i])) {
            return OPAL_ERR_BAD_PARAM;
        }
        for (int j = 0; j < i; ++j) {
            if (0 == strcmp(names[i], names[j])) {
                return OPAL_ERR_BAD_PARAM;
            }
        }
    }
    opal_mutex_lock(&mca_base_event_lock);
    old = atomic_load_explicit(&event->element_names, memory_order_relaxed);
    if (NULL != old) {
        for (int i = 0; i < n; ++i) {
            if (0 != strcmp(old[i], names[i])) {
                ret = OPAL_EXISTS;
                break;
            }
        }
        goto cleanup;
    }
    copy = calloc(n + 1, sizeof(*copy));
    if (NULL == copy) {
        ret = OPAL_ERR_OUT_OF_RESOURCE;
        goto cleanup;
    }
    for (int i = 0; i < n; ++i) {
        copy[i] = strdup(names[i]);
        if (NULL == copy[i]) {
            ret = OPAL_ERR_OUT_OF_RESOURCE;
            goto cleanup;
        }
    }
    /* release: the strings are complete before a reader can see the array
     * (pairs with the acquire load in mca_base_event_element_name()) */
    atomic_store_explicit(&event->element_names, copy, memory_order_release);
    copy = NULL;
    /* an exporting delivery was asked about this event when it was
     * registered, before it had names: ask again, so that one that
     * describes its events (evt/file's dictionary) can add them */
    mca_base_event_export_update((mca_base_event_priv_t *) event,
                                 atomic_load_explicit(&mca_base_event_delivery,
                                                      memory_order_relaxed));
cleanup:
    opal_mutex_unlock(&mca_base_event_lock);
    if (NULL != copy) {
        for (int i = 0; i < n; ++i) {
            free(copy[i]);
        }
        free(copy);
    }
    return ret;
}

/* Context: ANY, lock-free. */
const char *mca_base_event_element_name(const mca_base_event_t *event, int i)
{
    char **names;

    if (NULL == event || 0 > i || i >= event->num_elements) {
        return NULL;
    }
    /* acquire: pairs with the release store in mca_base_event_set_element_names() */
    names = atomic_load_explicit(&((mca_base_event_t *) event)->element_names,
                                 memory_order_acquire);
    return NULL == names ? NULL : names[i];
}
