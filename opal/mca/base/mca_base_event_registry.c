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

static void event_destroy(mca_base_event_priv_t *ev)
{
    if (NULL == ev) {
        return;
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
        || OPAL_INFO_LVL_9 < verbosity || 0 != (flags & ~(uint32_t) MCA_BASE_EVENT_FLAG_SYNCHRONOUS)) {
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
    if (OPAL_SUCCESS
        == opal_hash_table_get_value_ptr(&event_names, fname, strlen(fname), &found)) {
        ret = (int) ((intptr_t) found - 1);
        goto cleanup;
    }
    if (mca_base_event_num_events == events_size) {
        int nsize = 0 == events_size ? 16 : 2 * events_size;
        mca_base_event_priv_t **n = realloc(mca_base_event_events, nsize * sizeof(*n));
        if (NULL == n) {
            ret = OPAL_ERR_OUT_OF_RESOURCE;
            goto cleanup;
        }
        mca_base_event_events = n;
        events_size = nsize;
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
    /* an EXPORTS delivery keeps every gate open, new events included */
    atomic_init(&ev->super.active, mca_base_event_exporters);
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
    ret = ev->super.index;
    ev = NULL;
cleanup:
    opal_mutex_unlock(&mca_base_event_lock);
    free(fname);
    event_destroy(ev);
    return ret;
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
