/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The recording's dictionary: a source, an event type and its element
 * names are written the first time the engine asks whether the event is
 * exported (ompi_evt_file_exports(), under the engine mutex: the only
 * writer), entry by entry, each committed with a release store of the
 * dictionary's used size so that a reader of the file after a crash sees
 * whole entries only.
 */

#include "ompi_config.h"

#include <stdatomic.h>
#include <string.h>

#include "ompi/mca/common/evt/common_evt_flight_format.h"
#include "ompi/mca/common/evt/common_evt_wire.h"
#include "ompi/mca/evt/file/evt_file_internal.h"
#include "opal/mca/base/mca_base_event.h"

/* ------------------------------------------------------------------------
 * Dictionary
 * ------------------------------------------------------------------------ */

static bool bit_test(const unsigned char *bits, int i)
{
    return 0 != (bits[i / 8] & (1u << (i % 8)));
}

static void bit_set(unsigned char *bits, int i)
{
    bits[i / 8] |= (unsigned char) (1u << (i % 8));
}

/* Room for an entry of @p size bytes at the end of the dictionary, or NULL.
 * Context: under the engine mutex (the only dictionary writer). */
static unsigned char *dict_reserve(size_t size)
{
    mca_common_evt_flight_header_t *h = ompi_evt_file_state.hdr;
    /* relaxed: this thread (under the engine mutex) is the only writer */
    uint64_t used = __atomic_load_n(&h->dict_used, __ATOMIC_RELAXED);

    if (size > h->dict_size || used > h->dict_size - size) {
        return NULL;
    }
    return ompi_evt_file_state.base + h->dict_offset + used;
}

/* Seal and publish the entry written at @p e. Context: as dict_reserve().
 * Ordering: release store of dict_used: the entry's bytes are in the file
 * before a reader (after a crash) counts them. */
static void dict_commit(mca_common_evt_flight_dict_entry_t *e)
{
    mca_common_evt_flight_header_t *h = ompi_evt_file_state.hdr;

    e->sum = 0;
    e->sum = mca_common_evt_flight_sum(e, e->size);
    __atomic_store_n(&h->dict_used, __atomic_load_n(&h->dict_used, __ATOMIC_RELAXED) + e->size,
                     __ATOMIC_RELEASE);
}

static void dict_refuse(void)
{
    __atomic_fetch_add(&ompi_evt_file_state.hdr->dict_refused, 1, __ATOMIC_RELAXED);
}

/* The source's entry, once. Context: as dict_reserve(). */
static bool dict_add_source(const mca_base_event_source_t *s)
{
    size_t name_len = strlen(s->name);
    size_t size = ompi_evt_file_round_up(sizeof(mca_common_evt_flight_dict_entry_t)
                                             + sizeof(mca_common_evt_flight_dict_source_t)
                                             + name_len,
                                         MCA_COMMON_EVT_FLIGHT_ALIGN);
    mca_common_evt_flight_dict_entry_t *e;
    mca_common_evt_flight_dict_source_t *b;
    int64_t before, after, best = 0;

    if (0 > s->index || FILE_TRACKED_SOURCES <= s->index) {
        return false;
    }
    if (bit_test(ompi_evt_file_state.sources_done, s->index)) {
        return true;
    }
    e = (mca_common_evt_flight_dict_entry_t *) dict_reserve(size);
    if (NULL == e || UINT16_MAX < name_len) {
        return false;
    }
    memset(e, 0, size);
    e->size = (uint32_t) size;
    e->kind = MCA_COMMON_EVT_FLIGHT_ENTRY_SOURCE;
    b = (mca_common_evt_flight_dict_source_t *) (e + 1);
    b->index = s->index;
    b->ordering = (uint32_t) s->ordering;
    b->ticks_per_second = s->ticks_per_second;
    b->max_ticks = s->max_ticks;
    b->flags = mca_base_event_source_on_host_clock(s) ? MCA_COMMON_EVT_FLIGHT_SOURCE_HOST_CLOCK : 0;
    /* the clock pair: the source's clock between two CLOCK_REALTIME reads,
     * the tightest of a few tries (a preemption between the reads would
     * be the pair's error) */
    for (int i = 0; i < 4; ++i) {
        int64_t ticks;
        before = ompi_evt_file_realtime_ns();
        ticks = (int64_t) s->get_timestamp(s->ctx);
        after = ompi_evt_file_realtime_ns();
        if (0 == i || after - before < best) {
            best = after - before;
            b->sample_ticks = ticks;
            b->sample_realtime_ns = before + (after - before) / 2;
        }
    }
    b->name_len = (uint32_t) name_len;
    memcpy(b + 1, s->name, name_len);
    dict_commit(e);
    bit_set(ompi_evt_file_state.sources_done, s->index);
    return true;
}

/* Length of element @p i's name, 0 when the producer gave none. */
static size_t element_name_len(const mca_base_event_t *ev, int i)
{
    const char *n = mca_base_event_element_name(ev, i);
    return NULL == n ? 0 : strlen(n);
}

/* The element names of an event recorded earlier without them, once.
 * Context: as dict_reserve(). */
static void dict_add_names(const mca_base_event_t *ev)
{
    size_t size = sizeof(mca_common_evt_flight_dict_entry_t)
                  + sizeof(mca_common_evt_flight_dict_names_t)
                  + (size_t) ev->num_elements * sizeof(uint32_t);
    mca_common_evt_flight_dict_entry_t *e;
    mca_common_evt_flight_dict_names_t *b;
    uint32_t *lens;
    unsigned char *names;

    if (bit_test(ompi_evt_file_state.names_done, ev->index)
        || NULL == mca_base_event_element_name(ev, 0)) {
        return;
    }
    bit_set(ompi_evt_file_state.names_done, ev->index);
    for (int i = 0; i < ev->num_elements; ++i) {
        size += element_name_len(ev, i);
    }
    size = ompi_evt_file_round_up(size, MCA_COMMON_EVT_FLIGHT_ALIGN);
    e = (mca_common_evt_flight_dict_entry_t *) dict_reserve(size);
    if (NULL == e) {
        return; /* the records stay readable, by position */
    }
    memset(e, 0, size);
    e->size = (uint32_t) size;
    e->kind = MCA_COMMON_EVT_FLIGHT_ENTRY_NAMES;
    b = (mca_common_evt_flight_dict_names_t *) (e + 1);
    b->index = ev->index;
    b->num_elements = (uint32_t) ev->num_elements;
    lens = (uint32_t *) (b + 1);
    names = (unsigned char *) (lens + ev->num_elements);
    for (int i = 0; i < ev->num_elements; ++i) {
        lens[i] = (uint32_t) element_name_len(ev, i);
        memcpy(names, mca_base_event_element_name(ev, i), lens[i]);
        names += lens[i];
    }
    dict_commit(e);
}

/* The event's entry, once (its source's first), with its element names
 * when it has them already. Context: as dict_reserve(). */
static void dict_add_event(const mca_base_event_t *ev)
{
    size_t size = sizeof(mca_common_evt_flight_dict_entry_t)
                  + sizeof(mca_common_evt_flight_dict_event_t);
    size_t name_len = strlen(ev->name);
    mca_common_evt_flight_dict_entry_t *e;
    mca_common_evt_flight_dict_event_t *b;
    mca_common_evt_flight_dict_element_t *el;
    unsigned char *names;

    if (0 > ev->index || FILE_TRACKED_EVENTS <= ev->index) {
        dict_refuse();
        return;
    }
    if (bit_test(ompi_evt_file_state.events_done, ev->index)) {
        if (0 < ev->num_elements) {
            dict_add_names(ev);
        }
        return;
    }
    /* once, recorded or refused: a refusal is counted once */
    bit_set(ompi_evt_file_state.events_done, ev->index);
    if (NULL == ev->source || !dict_add_source(ev->source) || UINT16_MAX < name_len) {
        bit_set(ompi_evt_file_state.names_done, ev->index);
        dict_refuse();
        return;
    }
    for (int i = 0; i < ev->num_elements; ++i) {
        size += element_name_len(ev, i);
    }
    size += (size_t) ev->num_elements * sizeof(mca_common_evt_flight_dict_element_t) + name_len;
    size = ompi_evt_file_round_up(size, MCA_COMMON_EVT_FLIGHT_ALIGN);
    e = (mca_common_evt_flight_dict_entry_t *) dict_reserve(size);
    if (NULL == e) {
        bit_set(ompi_evt_file_state.names_done, ev->index);
        dict_refuse();
        return;
    }
    memset(e, 0, size);
    e->size = (uint32_t) size;
    e->kind = MCA_COMMON_EVT_FLIGHT_ENTRY_EVENT;
    b = (mca_common_evt_flight_dict_event_t *) (e + 1);
    b->index = ev->index;
    b->source = ev->source->index;
    b->extent = (uint32_t) ev->extent;
    b->num_elements = (uint32_t) ev->num_elements;
    b->flags = ev->flags;
    b->bind = ev->bind;
    b->name_len = (uint32_t) name_len;
    el = (mca_common_evt_flight_dict_element_t *) (b + 1);
    for (int i = 0; i < ev->num_elements; ++i) {
        el[i].type = mca_common_evt_wire_elem_type_of(ev->types[i]);
        el[i].offset = (uint32_t) ev->offsets[i];
        /* 0 until the producer names them (a names entry follows then) */
        el[i].name_len = (uint32_t) element_name_len(ev, i);
    }
    names = (unsigned char *) (el + ev->num_elements);
    memcpy(names, ev->name, name_len);
    names += name_len;
    for (int i = 0; i < ev->num_elements; ++i) {
        if (0 < el[i].name_len) {
            memcpy(names, mca_base_event_element_name(ev, i), el[i].name_len);
            names += el[i].name_len;
        }
    }
    if (0 == ev->num_elements || NULL != mca_base_event_element_name(ev, 0)) {
        bit_set(ompi_evt_file_state.names_done, ev->index);
    }
    dict_commit(e);
}

/* Every event is recorded; its dictionary entry is written here, before
 * any record of it can be raised (the engine asks under its mutex when the
 * module is installed and when an event is registered). Context: ANY,
 * under the engine mutex: no engine call. */
bool ompi_evt_file_exports(const mca_base_event_t *event)
{
    if (NULL != ompi_evt_file_state.hdr && !ompi_evt_file_state.finalized) {
        dict_add_event(event);
    }
    return true;
}
