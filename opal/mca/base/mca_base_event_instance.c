/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/** @file Event instances as callbacks see them: read one element, copy the
 *  payload, timestamp and source (MPI_T_event_read/_copy/_get_timestamp/
 *  _get_source). */

#include "opal_config.h"

#include <string.h>

#include "opal/mca/base/mca_base_event_internal.h"

/* Context: inside a callback. */
int mca_base_event_read(const mca_base_event_record_t *instance, int element_index, void *buffer)
{
    const mca_base_event_t *ev;

    if (NULL == instance || NULL == buffer || NULL == instance->event) {
        return OPAL_ERR_BAD_PARAM;
    }
    ev = instance->event;
    if (0 > element_index || element_index >= ev->num_elements) {
        return OPAL_ERR_NOT_FOUND;
    }
    memcpy(buffer, (const char *) instance->data + ev->offsets[element_index],
           mca_base_event_type_size(ev->types[element_index]));
    return OPAL_SUCCESS;
}

/* Context: inside a callback. */
int mca_base_event_copy(const mca_base_event_record_t *instance, void *buffer)
{
    if (NULL == instance || NULL == buffer || NULL == instance->event) {
        return OPAL_ERR_BAD_PARAM;
    }
    if (0 < instance->event->extent) {
        memcpy(buffer, instance->data, instance->event->extent);
    }
    return OPAL_SUCCESS;
}

/* Context: inside a callback. */
int mca_base_event_get_timestamp(const mca_base_event_record_t *instance,
                                 opal_count_t *timestamp)
{
    if (NULL == instance || NULL == timestamp) {
        return OPAL_ERR_BAD_PARAM;
    }
    *timestamp = instance->timestamp;
    return OPAL_SUCCESS;
}

/* Context: inside a callback. */
int mca_base_event_get_source(const mca_base_event_record_t *instance, int *source_index)
{
    if (NULL == instance || NULL == source_index || NULL == instance->source) {
        return OPAL_ERR_BAD_PARAM;
    }
    *source_index = instance->source->index;
    return OPAL_SUCCESS;
}
