/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The memory-release producer's engine side: registration of the source and
 * events, the listen callbacks that install and remove the hook, the sink
 * drain that raises one aggregated event, and the per-release raise.
 *
 * Ordering against registrations: the engine drains the sinks at every flush
 * point, and handle alloc/free are flush points taken *before* the change of
 * the registration set, so a new registration gets only releases counted
 * after its allocation began, and a registration being freed gets the batch
 * counted until its free began. The listen callbacks run after the change:
 * on 0->1 the sink starts empty, on 1->0 what came in after the last drain
 * is discarded with the hook.
 */

#include "opal_config.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "opal/constants.h"
#include "opal/mca/base/mca_base_event.h"
#include "opal/util/output.h"

#include "opal/mca/memory/patcher/memory_patcher_event.h"
#include "opal/mca/memory/patcher/memory_patcher_event_payloads.h"

/* Written once in INIT (under reg_lock) before any listener can exist; read
 * afterwards by the drain (ANY) and the per-release raise (SIGNAL). The
 * event objects are never freed before the engine's end. */
static mca_base_event_t *released_event;
static mca_base_event_t *release_event;
/* Element names (upstream's for released; the payload struct's for release). */
static const char *const released_names[2] = {"count", "bytes"};
static const char *const release_names[2] = {"bytes", "address"};

_Static_assert(offsetof(opal_memory_patcher_event_released_payload_t, count)
                       == offsetof(opal_memory_patcher_event_release_payload_t, bytes)
                   && offsetof(opal_memory_patcher_event_released_payload_t, bytes)
                          == offsetof(opal_memory_patcher_event_release_payload_t, address),
               "register_event() registers both events with one layout");

/* Registration and listen state. */
static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static bool sink_registered;

/* Context: SIGNAL (inside the hook). One release, raised on its own. */
static void raise_release(void *address, size_t bytes)
{
    opal_memory_patcher_event_release_payload_t payload = {(uint64_t) bytes,
                                                           (uint64_t) (uintptr_t) address};

    /* The engine refuses (and counts as dropped) when the delivery cannot
     * take async-signal raises; registered only where it can. */
    (void) mca_base_event_raise_ctx(release_event, NULL, NULL, &payload,
                                    MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE);
}

/* Context: ANY, PROGRESS (a flush point or a delivery's drain), never SIGNAL. */
static void drain(void *ctx)
{
    opal_memory_patcher_event_batch_t batch;
    opal_memory_patcher_event_released_payload_t payload;

    if (NULL == released_event || !opal_memory_patcher_event_sink_take(&batch)) {
        return; /* no event when the sink is empty */
    }
    payload.count = batch.count;
    payload.bytes = batch.bytes;
    (void) mca_base_event_raise(released_event, NULL, &payload);
}

/* Context: TOOL, ANY (the engine's listen callback, outside its mutex).
 * Re-reads both gates under reg_lock instead of trusting @p listening, so
 * that callbacks of concurrent transitions, in whatever order they run,
 * leave the hook matching the last state. */
static void listen(mca_base_event_t *event, bool listening, void *ctx)
{
    bool to_sink, per_release;
    int rc;

    pthread_mutex_lock(&reg_lock);
    to_sink = NULL != released_event && mca_base_event_active(released_event);
    per_release = NULL != release_event && mca_base_event_active(release_event);
    rc = opal_memory_patcher_event_hook_set(to_sink, per_release ? raise_release : NULL);
    pthread_mutex_unlock(&reg_lock);
    if (OPAL_SUCCESS != rc) {
        opal_output_verbose(10, opal_memory_patcher_event_output(),
                            "memory_patcher_event: %s the hook failed: %d",
                            listening ? "installing" : "removing", rc);
    }
}

/* Context: INIT. Locks: reg_lock held. */
static int register_event(const char *name, const char *description,
                          const char *const element_names[2], mca_base_event_source_t *source,
                          mca_base_event_t **out)
{
    /* released {count, bytes} and release {bytes, address}: one layout */
    const mca_base_var_type_t types[2] = {MCA_BASE_VAR_TYPE_UINT64_T, MCA_BASE_VAR_TYPE_UINT64_T};
    const ptrdiff_t offsets[2] = {offsetof(opal_memory_patcher_event_released_payload_t, count),
                                  offsetof(opal_memory_patcher_event_released_payload_t, bytes)};
    mca_base_event_t *event = NULL;
    int ei, rc;

    /* (NULL, NULL, "mca.memory.patcher.X") -> "ompi.mca.memory.patcher.X" */
    ei = mca_base_event_register_ptr("opal", NULL, NULL, name, description, OPAL_INFO_LVL_5, 2,
                                     types, offsets, NULL, MCA_BASE_VAR_BIND_NO_OBJECT, 0, source,
                                     NULL, &event);
    if (0 > ei) {
        return ei;
    }
    rc = mca_base_event_set_element_names(event, element_names);
    if (OPAL_SUCCESS != rc) {
        return rc;
    }
    rc = mca_base_event_set_listen_callback(event, listen, NULL);
    if (OPAL_SUCCESS != rc) {
        return rc;
    }
    *out = event;
    return OPAL_SUCCESS;
}

/* Context: INIT. */
int opal_memory_patcher_event_register(uint32_t delivery_flags)
{
    mca_base_event_source_t *source = NULL;
    int si, rc;

    rc = opal_memory_patcher_event_hooks_open();
    if (OPAL_SUCCESS != rc) {
        return rc; /* the reason went to the verbose stream */
    }

    pthread_mutex_lock(&reg_lock);
    si = mca_base_event_source_register("ompi.unordered",
                                        "Events without a global order (e.g. raised from "
                                        "allocator hooks and drained later)",
                                        MCA_BASE_EVENT_SOURCE_UNORDERED, 1000000000,
                                        OPAL_COUNT_MAX, NULL /* CLOCK_MONOTONIC in ns */,
                                        true /* the default clock is freely readable */, NULL);
    if (0 > si) {
        rc = si;
        goto cleanup;
    }
    rc = mca_base_event_source_get_by_index(si, &source);
    if (OPAL_SUCCESS != rc) {
        goto cleanup;
    }
    if (NULL == released_event) {
        /* The drain first: a listener can appear as soon as the event exists. */
        if (!sink_registered) {
            /* notifying: the sink says when it counted a release */
            rc = mca_base_event_sink_register_notifying(drain, NULL);
            if (OPAL_SUCCESS != rc) {
                goto cleanup;
            }
            sink_registered = true;
        }
        rc = register_event("mca.memory.patcher.released",
                            "Memory released to the OS (free/munmap/madvise/brk seen by Open "
                            "MPI's memory hooks), aggregated since the previous event: "
                            "{count, bytes}",
                            released_names, source, &released_event);
        if (OPAL_SUCCESS != rc) {
            goto cleanup;
        }
    }
    if (NULL == release_event && (MCA_BASE_EVENT_DELIVERY_ASYNC_SIGNAL_SAFE & delivery_flags)) {
        rc = register_event("mca.memory.patcher.release",
                            "One memory release to the OS, raised from inside the release hook "
                            "(async-signal context): {bytes, address}; present only with a "
                            "delivery that takes async-signal raises (evt/ring)",
                            release_names, source, &release_event);
        if (OPAL_SUCCESS != rc) {
            goto cleanup;
        }
    } else if (NULL == release_event) {
        opal_output_verbose(10, opal_memory_patcher_event_output(),
                            "memory_patcher_event: the delivery cannot take async-signal raises: "
                            "ompi.mca.memory.patcher.release not registered");
    }

cleanup:
    pthread_mutex_unlock(&reg_lock);
    return rc;
}

/* Context: INIT. */
void opal_memory_patcher_event_finalize(void)
{
    pthread_mutex_lock(&reg_lock);
    (void) opal_memory_patcher_event_hook_set(false, NULL);
    pthread_mutex_unlock(&reg_lock);
}
