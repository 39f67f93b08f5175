/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 * The memory-release producer through the engine (inline delivery, no evt
 * framework): registration, one aggregated event per batch at the flush
 * points, registration-set changes, dropped-handler-only registrations,
 * hook installed exactly while somebody listens.
 */

#define _GNU_SOURCE
#include "opal_config.h"

#include <criterion/criterion.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "opal/constants.h"
#include "opal/mca/base/mca_base_event.h"
#include "opal/mca/base/mca_base_event_delivery.h"
#include "opal/runtime/opal.h"

#include "opal/mca/memory/patcher/memory_patcher_event.h"
#include "opal/mca/memory/patcher/memory_patcher_event_payloads.h"
#include "test_memory_common.h"

#define MiB (1024 * 1024)

static mca_base_event_t *released;
static int unordered_index = -1;

typedef struct {
    atomic_int events;
    atomic_ullong count, bytes;
    atomic_llong dropped;
} seen_t;

static void up(void)
{
    int argc = 1;
    char *args[] = {"test_memory_event", NULL}, **argv = args;
    mca_base_event_source_t *src;

    cr_assert_eq(opal_init(&argc, &argv), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_init(), OPAL_SUCCESS);
    cr_assert_eq(opal_memory_patcher_event_register(0), OPAL_SUCCESS);
    cr_assert_geq(test_memory_keep_patcher_mapped(), 1, "mca_patcher_*.so pinned (see why)");
    cr_assert_eq(mca_base_event_get_by_name("ompi.mca.memory.patcher.released", &released),
                 OPAL_SUCCESS);
    src = released->source;
    unordered_index = src->index;
}

static void down(void)
{
    (void) mca_base_event_finalize();
    (void) opal_finalize();
}

static void on_event(mca_base_event_record_t *rec, mca_base_event_registration_t *reg,
                     mca_base_event_cb_safety_t safety, void *user)
{
    seen_t *s = user;
    uint64_t c, b;

    cr_assert_eq(mca_base_event_read(rec, 0, &c), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_read(rec, 1, &b), OPAL_SUCCESS);
    atomic_fetch_add(&s->events, 1);
    atomic_fetch_add(&s->count, c);
    atomic_fetch_add(&s->bytes, b);
}

static seen_t *dropped_target;
static void on_dropped(opal_count_t count, mca_base_event_registration_t *reg, int source_index,
                       mca_base_event_cb_safety_t safety, void *user)
{
    atomic_fetch_add(&dropped_target->dropped, count);
}

static mca_base_event_registration_t *listen_with(seen_t *s)
{
    mca_base_event_registration_t *reg = NULL;

    cr_assert_eq(mca_base_event_handle_alloc(released, NULL, NULL, &reg), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_register_callback(reg, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL, s,
                                                  on_event),
                 OPAL_SUCCESS);
    return reg;
}

static void unmap_fresh(size_t len)
{
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    cr_assert_neq(p, MAP_FAILED);
    cr_assert_eq(munmap(p, len), 0);
}

static void flush_by_timestamp(void)
{
    opal_count_t ts;
    cr_assert_eq(mca_base_event_source_get_timestamp(unordered_index, &ts), OPAL_SUCCESS);
}

TestSuite(memory_event, .init = up, .fini = down);

Test(memory_event, registered_with_source_and_layout)
{
    mca_base_event_t *rel = NULL;
    mca_base_event_source_t *src = released->source;

    cr_assert_str_eq(released->name, "ompi.mca.memory.patcher.released");
    cr_assert_eq(released->num_elements, 2);
    cr_assert_eq(released->types[0], MCA_BASE_VAR_TYPE_UINT64_T);
    cr_assert_eq(released->types[1], MCA_BASE_VAR_TYPE_UINT64_T);
    cr_assert_eq(released->offsets[0], 0);
    cr_assert_eq(released->offsets[1], 8);
    cr_assert_str_eq(mca_base_event_element_name(released, 0), "count");
    cr_assert_str_eq(mca_base_event_element_name(released, 1), "bytes");
    cr_assert_str_eq(src->name, "ompi.unordered");
    cr_assert_eq(src->ordering, MCA_BASE_EVENT_SOURCE_UNORDERED);
    cr_assert_eq(src->ticks_per_second, 1000000000);
    cr_assert(src->supports_adhoc);
    cr_assert_neq(mca_base_event_get_by_name("ompi.mca.memory.patcher.release", &rel),
                  OPAL_SUCCESS, "per-release event absent without an async-signal delivery");
    cr_assert_eq(opal_memory_patcher_event_register(0), OPAL_SUCCESS, "idempotent");
}

/* The payload structs tools include are the registered layouts, for the
 * aggregated event and (with an async-signal delivery) the per-release one. */
Test(memory_event, payload_structs_are_the_registered_layouts)
{
    mca_base_event_t *rel = NULL;

    cr_expect_eq(released->extent, sizeof(opal_memory_patcher_event_released_payload_t));
    cr_expect_eq(released->offsets[0],
                 offsetof(opal_memory_patcher_event_released_payload_t, count));
    cr_expect_eq(released->offsets[1],
                 offsetof(opal_memory_patcher_event_released_payload_t, bytes));
    cr_assert_eq(opal_memory_patcher_event_register(MCA_BASE_EVENT_DELIVERY_ASYNC_SIGNAL_SAFE),
                 OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_get_by_name("ompi.mca.memory.patcher.release", &rel), OPAL_SUCCESS);
    cr_expect_eq(rel->num_elements, 2);
    cr_expect_eq(rel->types[0], MCA_BASE_VAR_TYPE_UINT64_T);
    cr_expect_eq(rel->types[1], MCA_BASE_VAR_TYPE_UINT64_T);
    cr_expect_eq(rel->extent, sizeof(opal_memory_patcher_event_release_payload_t));
    cr_expect_eq(rel->offsets[0], offsetof(opal_memory_patcher_event_release_payload_t, bytes));
    cr_expect_eq(rel->offsets[1], offsetof(opal_memory_patcher_event_release_payload_t, address));
}

Test(memory_event, one_aggregated_event_at_timestamp_flush)
{
    seen_t s = {0};
    mca_base_event_registration_t *reg;

    cr_assert_not(opal_memory_patcher_event_test_hook_installed());
    reg = listen_with(&s);
    cr_assert(opal_memory_patcher_event_test_hook_installed(), "first listener installs");
    unmap_fresh(64 * MiB);
    unmap_fresh(2 * MiB);
    flush_by_timestamp();
    cr_assert_eq(atomic_load(&s.events), 1, "one event per batch");
    cr_assert_eq(atomic_load(&s.count), 2);
    cr_assert_eq(atomic_load(&s.bytes), 66 * MiB);
    flush_by_timestamp();
    cr_assert_eq(atomic_load(&s.events), 1, "no event when the sink is empty");
    cr_assert_eq(mca_base_event_handle_free(reg, NULL, NULL), OPAL_SUCCESS);
}

Test(memory_event, new_registration_sees_no_earlier_release)
{
    seen_t a = {0}, b = {0};
    mca_base_event_registration_t *ra, *rb;

    ra = listen_with(&a);
    unmap_fresh(4 * MiB);
    rb = listen_with(&b); /* the alloc drains first: the 4 MiB go to A only */
    cr_assert_eq(atomic_load(&a.bytes), 4 * MiB);
    cr_assert_eq(atomic_load(&b.events), 0);
    unmap_fresh(8 * MiB);
    flush_by_timestamp();
    cr_assert_eq(atomic_load(&a.bytes), 12 * MiB);
    cr_assert_eq(atomic_load(&b.bytes), 8 * MiB);
    cr_assert_eq(atomic_load(&b.count), 1);
    cr_assert_eq(mca_base_event_handle_free(rb, NULL, NULL), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_handle_free(ra, NULL, NULL), OPAL_SUCCESS);
}

/* A free runs no other user code: releases still in the
 * sink are raised at the next drain point, after the free, so they are not
 * the freed registration's (delivered + dropped == raised for it: 0 + 0). */
Test(memory_event, free_raises_nothing)
{
    seen_t s = {0}, other = {0};
    mca_base_event_registration_t *reg = listen_with(&s);
    mca_base_event_registration_t *keep = listen_with(&other);

    unmap_fresh(3 * MiB);
    cr_assert_eq(mca_base_event_handle_free(reg, NULL, NULL), OPAL_SUCCESS);
    cr_assert_eq(atomic_load(&s.events), 0);
    cr_assert_eq(atomic_load(&s.dropped), 0);
    flush_by_timestamp();
    cr_assert_eq(atomic_load(&s.events), 0);
    cr_assert_eq(atomic_load(&other.events), 1, "raised at the drain point, for who listens");
    cr_assert_eq(atomic_load(&other.bytes), 3 * MiB);
    cr_assert_eq(mca_base_event_handle_free(keep, NULL, NULL), OPAL_SUCCESS);
}

Test(memory_event, last_listener_removes_hook_and_stops_counting)
{
    seen_t s = {0}, later = {0};
    mca_base_event_registration_t *reg = listen_with(&s);
    opal_memory_patcher_event_batch_t batch;

    cr_assert(opal_memory_patcher_event_test_hook_installed());
    cr_assert_eq(mca_base_event_handle_free(reg, NULL, NULL), OPAL_SUCCESS);
    cr_assert_not(opal_memory_patcher_event_test_hook_installed(), "last listener removes");
    unmap_fresh(5 * MiB);
    cr_assert_not(opal_memory_patcher_event_sink_take(&batch), "no sink activity after removal");
    /* and a later listener sees none of what happened without one */
    reg = listen_with(&later);
    flush_by_timestamp();
    cr_assert_eq(atomic_load(&later.events), 0);
    cr_assert_eq(mca_base_event_handle_free(reg, NULL, NULL), OPAL_SUCCESS);
}

Test(memory_event, handle_without_callback_does_not_install)
{
    mca_base_event_registration_t *reg = NULL;

    cr_assert_eq(mca_base_event_handle_alloc(released, NULL, NULL, &reg), OPAL_SUCCESS);
    cr_assert_not(opal_memory_patcher_event_test_hook_installed());
    cr_assert_eq(mca_base_event_handle_free(reg, NULL, NULL), OPAL_SUCCESS);
}

Test(memory_event, dropped_handler_only_sees_each_batch_as_one_drop)
{
    seen_t s = {0};
    mca_base_event_registration_t *reg = NULL;

    dropped_target = &s;
    cr_assert_eq(mca_base_event_handle_alloc(released, NULL, NULL, &reg), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_set_dropped_handler(reg, on_dropped), OPAL_SUCCESS);
    cr_assert(opal_memory_patcher_event_test_hook_installed(), "a dropped handler listens");
    unmap_fresh(MiB);
    unmap_fresh(MiB);
    unmap_fresh(MiB);
    flush_by_timestamp(); /* one batch of 3 releases -> one dropped instance */
    unmap_fresh(MiB);
    flush_by_timestamp(); /* second batch */
    cr_assert_eq(mca_base_event_handle_free(reg, NULL, NULL), OPAL_SUCCESS);
    cr_assert_eq(atomic_load(&s.dropped), 2, "dropped %lld", (long long) atomic_load(&s.dropped));
}
