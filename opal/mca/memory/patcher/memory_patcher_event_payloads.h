/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Payloads of the OS memory-release events, as C structs: the producer
 * (memory_patcher_event.c) raises them and tools read them with
 * MPI_T_event_copy(). Layout `type@offset`:
 *   ompi.mca.memory.patcher.released  {u64 count@0, u64 bytes@8}
 *       (source ompi.unordered; Open MPI main's name and payload)
 *   ompi.mca.memory.patcher.release   {u64 bytes@0, u64 address@8}
 *       (this project's; present only with a delivery that takes
 *       async-signal raises, e.g. evt/ring)
 *
 * Self-contained on purpose (<stddef.h> and <stdint.h> only, C and C++),
 * so a tool includes it without Open MPI's internal headers. It sits at the
 * OPAL level because its producer does (OPAL never includes OMPI headers);
 * tools get it through ompi/runtime/ompi_evt_payloads.h, which includes it.
 */

#ifndef OPAL_MEMORY_PATCHER_EVENT_PAYLOADS_H
#define OPAL_MEMORY_PATCHER_EVENT_PAYLOADS_H

#include <stddef.h>
#include <stdint.h>

/* _Static_assert in C, static_assert in C++ (also defined, identically, by
 * ompi_evt_payloads.h). */
#ifndef EVT_PAYLOAD_STATIC_ASSERT
#    ifdef __cplusplus
#        define EVT_PAYLOAD_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#    else
#        define EVT_PAYLOAD_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#    endif
#endif

/** ompi.mca.memory.patcher.released: releases since the previous event. */
typedef struct opal_memory_patcher_event_released_payload_t {
    uint64_t count; /**< releases */
    uint64_t bytes; /**< bytes released */
} opal_memory_patcher_event_released_payload_t;
EVT_PAYLOAD_STATIC_ASSERT(0 == offsetof(opal_memory_patcher_event_released_payload_t, count)
                              && 8 == offsetof(opal_memory_patcher_event_released_payload_t, bytes)
                              && 16 == sizeof(opal_memory_patcher_event_released_payload_t),
                          "ompi.mca.memory.patcher.released: {u64 count@0, u64 bytes@8}");

/** ompi.mca.memory.patcher.release: one release. */
typedef struct opal_memory_patcher_event_release_payload_t {
    uint64_t bytes;   /**< bytes released */
    uint64_t address; /**< start of the released range */
} opal_memory_patcher_event_release_payload_t;
EVT_PAYLOAD_STATIC_ASSERT(0 == offsetof(opal_memory_patcher_event_release_payload_t, bytes)
                              && 8 == offsetof(opal_memory_patcher_event_release_payload_t, address)
                              && 16 == sizeof(opal_memory_patcher_event_release_payload_t),
                          "ompi.mca.memory.patcher.release: {u64 bytes@0, u64 address@8}");

#endif /* OPAL_MEMORY_PATCHER_EVENT_PAYLOADS_H */
