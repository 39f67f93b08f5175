/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The recording's dictionary: an event type is described the first time
 * the engine asks whether it is exported (ompi_evt_file_exports(), under
 * the engine mutex: the only writer), as one wire batch without records
 * (its type, its source's clock pair and its native layout; batch number
 * 0: a dictionary entry is not one of a sequence) that
 * common_evt_flight_write frames and checksums; the entry is committed with
 * a release store of the dictionary's used size, so that a reader of the
 * file after a crash sees whole entries only. A type whose element names
 * the producer gives after registering it is described again then.
 */

#include "ompi_config.h"

#include <string.h>

#include "ompi/mca/common/evt/common_evt_flight_format.h"
#include "ompi/mca/common/evt/common_evt_flight_write.h"
#include "ompi/mca/common/evt/common_evt_name_filter.h"
#include "ompi/mca/common/evt/common_evt_wire.h"
#include "ompi/mca/evt/file/evt_file.h"
#include "ompi/mca/evt/file/evt_file_internal.h"
#include "opal/mca/base/mca_base_event.h"

static bool bit_test(const unsigned char *bits, int i)
{
    return 0 != (bits[i / 8] & (1u << (i % 8)));
}

static void bit_set(unsigned char *bits, int i)
{
    bits[i / 8] |= (unsigned char) (1u << (i % 8));
}

static void dict_refuse(void)
{
    __atomic_fetch_add(&ompi_evt_file_state.hdr->dict_refused, 1, __ATOMIC_RELAXED);
}

/* Describe @p ev in one dictionary entry. Context: under the engine mutex
 * (the only dictionary writer). Ordering: release store of dict_used: the
 * entry's bytes are in the file before a reader (after a crash) counts
 * them. */
static bool dict_describe(const mca_base_event_t *ev)
{
    mca_common_evt_flight_header_t *h = ompi_evt_file_state.hdr;
    mca_common_evt_wire_encoder_t *enc = &ompi_evt_file_state.dict_encoder;
    /* relaxed: this thread (under the engine mutex) is the only writer */
    size_t used = (size_t) __atomic_load_n(&h->dict_used, __ATOMIC_RELAXED);
    const void *batch;
    size_t len;

    if (NULL == enc->state || OPAL_SUCCESS != mca_common_evt_wire_encoder_begin(enc, 0, 0)
        || OPAL_SUCCESS != mca_common_evt_wire_encoder_add_type(enc, ev)
        || OPAL_SUCCESS != mca_common_evt_wire_encoder_finish(enc, &batch, &len)) {
        return false;
    }
    used = mca_common_evt_flight_dict_put(ompi_evt_file_state.base + h->dict_offset, h->dict_size,
                                          used, batch, len);
    if (0 == used) {
        return false;
    }
    __atomic_store_n(&h->dict_used, (uint64_t) used, __ATOMIC_RELEASE);
    return true;
}

/* The event's entry, once; again when its element names arrive later.
 * Context: as dict_describe(). */
static void dict_add_event(const mca_base_event_t *ev)
{
    bool named = 0 == ev->num_elements || NULL != mca_base_event_element_name(ev, 0);

    if (0 > ev->index || FILE_TRACKED_EVENTS <= ev->index) {
        dict_refuse();
        return;
    }
    if (bit_test(ompi_evt_file_state.events_done, ev->index)) {
        if (!bit_test(ompi_evt_file_state.names_done, ev->index) && named) {
            /* described without names: once more with them (the records
             * stay readable by position if this does not fit) */
            bit_set(ompi_evt_file_state.names_done, ev->index);
            (void) dict_describe(ev);
        }
        return;
    }
    /* once, recorded or refused: a refusal is counted once */
    bit_set(ompi_evt_file_state.events_done, ev->index);
    if (!dict_describe(ev)) {
        bit_set(ompi_evt_file_state.names_done, ev->index);
        dict_refuse();
        return;
    }
    if (named) {
        bit_set(ompi_evt_file_state.names_done, ev->index);
    }
}

/* Every event evt_file_events selects is recorded; its dictionary entry
 * is written here, before any record of it can be raised (the engine asks
 * under its mutex when the module is installed and when an event is
 * registered). Context: ANY, under the engine mutex: no engine call. */
bool ompi_evt_file_exports(const mca_base_event_t *event)
{
    if (NULL == ompi_evt_file_state.hdr || ompi_evt_file_state.finalized) {
        return true;
    }
    if (!mca_common_evt_name_filter_match(&mca_evt_file_component.filter, event->name)) {
        return false;
    }
    dict_add_event(event);
    return true;
}
