/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/** @file Event sources: registration (idempotent by name), lookup, the
 *  default clock (CLOCK_MONOTONIC in ns) and ad-hoc timestamps. */

#include "opal_config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "opal/class/opal_hash_table.h"
#include "opal/mca/base/mca_base_event_internal.h"

static mca_base_event_source_t **sources = NULL;
static int num_sources = 0;
static int sources_size = 0;
/** name -> index + 1 (lazily constructed, under the mutex). */
static opal_hash_table_t source_names;
static bool source_names_ready = false;

/* Context: RAISE, SIGNAL (clock_gettime is async-signal-safe, vDSO). */
static opal_count_t default_clock(void *ctx)
{
    struct timespec ts;
    (void) ctx;
    (void) clock_gettime(CLOCK_MONOTONIC, &ts);
    return (opal_count_t) ts.tv_sec * 1000000000LL + (opal_count_t) ts.tv_nsec;
}

/* Caller holds the mutex. */
bool mca_base_event_source_is_registered(const mca_base_event_source_t *source)
{
    return NULL != source && 0 <= source->index && source->index < num_sources
           && sources[source->index] == source;
}

/* Context: INIT, ANY. Locks: takes the engine mutex. */
int mca_base_event_source_register(const char *name, const char *description,
                                   mca_base_event_source_order_t ordering,
                                   opal_count_t ticks_per_second, opal_count_t max_ticks,
                                   mca_base_event_timestamp_fn_t get_timestamp,
                                   bool supports_adhoc, void *ctx)
{
    mca_base_event_source_t *src = NULL;
    void *found = NULL;
    int ret;

    if (NULL == name || '\0' == name[0] || 0 >= ticks_per_second || 0 >= max_ticks
        || (MCA_BASE_EVENT_SOURCE_ORDERED != ordering
            && MCA_BASE_EVENT_SOURCE_UNORDERED != ordering)) {
        return OPAL_ERR_BAD_PARAM;
    }

    opal_mutex_lock(&mca_base_event_lock);
    if (!source_names_ready) {
        OBJ_CONSTRUCT(&source_names, opal_hash_table_t);
        if (OPAL_SUCCESS != opal_hash_table_init(&source_names, 32)) {
            OBJ_DESTRUCT(&source_names);
            ret = OPAL_ERR_OUT_OF_RESOURCE;
            goto cleanup;
        }
        source_names_ready = true;
    }
    if (OPAL_SUCCESS
        == opal_hash_table_get_value_ptr(&source_names, name, strlen(name), &found)) {
        ret = (int) ((intptr_t) found - 1);
        goto cleanup;
    }
    if (num_sources == sources_size) {
        int nsize = 0 == sources_size ? 8 : 2 * sources_size;
        mca_base_event_source_t **n = realloc(sources, nsize * sizeof(*n));
        if (NULL == n) {
            ret = OPAL_ERR_OUT_OF_RESOURCE;
            goto cleanup;
        }
        sources = n;
        sources_size = nsize;
    }
    src = calloc(1, sizeof(*src));
    if (NULL == src) {
        ret = OPAL_ERR_OUT_OF_RESOURCE;
        goto cleanup;
    }
    src->name = strdup(name);
    src->description = strdup(NULL == description ? "" : description);
    if (NULL == src->name || NULL == src->description) {
        ret = OPAL_ERR_OUT_OF_RESOURCE;
        goto cleanup;
    }
    src->index = num_sources;
    src->ordering = ordering;
    src->ticks_per_second = NULL == get_timestamp ? 1000000000LL : ticks_per_second;
    src->max_ticks = max_ticks;
    src->get_timestamp = NULL == get_timestamp ? default_clock : get_timestamp;
    src->supports_adhoc = supports_adhoc;
    src->ctx = ctx;
    atomic_init(&src->last_timestamp, 0);
    if (OPAL_SUCCESS
        != opal_hash_table_set_value_ptr(&source_names, name, strlen(name),
                                         (void *) (intptr_t) (src->index + 1))) {
        ret = OPAL_ERR_OUT_OF_RESOURCE;
        goto cleanup;
    }
    sources[num_sources++] = src;
    ret = src->index;
    src = NULL;
cleanup:
    opal_mutex_unlock(&mca_base_event_lock);
    if (NULL != src) {
        free(src->name);
        free(src->description);
        free(src);
    }
    return ret;
}

/* Context: ANY. */
int mca_base_event_source_get_by_index(int index, mca_base_event_source_t **source)
{
    int ret = OPAL_SUCCESS;

    if (NULL == source) {
        return OPAL_ERR_BAD_PARAM;
    }
    opal_mutex_lock(&mca_base_event_lock);
    if (0 > index || index >= num_sources) {
        ret = OPAL_ERR_NOT_FOUND;
    } else {
        *source = sources[index];
    }
    opal_mutex_unlock(&mca_base_event_lock);
    return ret;
}

/* Context: ANY. */
int mca_base_event_source_get_count(void)
{
    int n;
    opal_mutex_lock(&mca_base_event_lock);
    n = num_sources;
    opal_mutex_unlock(&mca_base_event_lock);
    return n;
}

/* Context: TOOL, ANY. A flush point. */
int mca_base_event_source_get_timestamp(int index, opal_count_t *timestamp)
{
    mca_base_event_source_t *src;
    int ret;

    if (NULL == timestamp) {
        return OPAL_ERR_BAD_PARAM;
    }
    ret = mca_base_event_source_get_by_index(index, &src);
    if (OPAL_SUCCESS != ret) {
        return ret;
    }
    if (!src->supports_adhoc) {
        return OPAL_ERR_NOT_SUPPORTED;
    }
    (void) mca_base_event_flush();
    *timestamp = src->get_timestamp(src->ctx);
    return OPAL_SUCCESS;
}
