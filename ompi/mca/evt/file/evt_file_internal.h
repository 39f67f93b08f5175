/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * What the files of evt/file share and nothing outside the component
 * sees: the state of the open recording (evt_file_module.c creates, maps
 * and closes it; evt_file_dict.c writes its dictionary).
 */

#ifndef OMPI_EVT_FILE_INTERNAL_H
#define OMPI_EVT_FILE_INTERNAL_H

#include "ompi_config.h"

#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ompi/mca/common/evt/common_evt_flight_format.h"
#include "ompi/mca/common/evt/common_evt_wire.h"
#include "opal/mca/base/mca_base_event.h"

BEGIN_C_DECLS

#pragma GCC visibility push(hidden)

/* Event indexes the dictionary tracks (beyond: dict_refused). */
#define FILE_TRACKED_EVENTS 65536
/* Largest dictionary entry (one event type described): the wire's type
 * limits with names of the longest length would not fit, the types Open
 * MPI and its producers register take a few hundred bytes. */
#define FILE_DICT_ENTRY_MAX (64 * 1024)

/* The open file. Written in INIT context, and by file_exports() under the
 * engine mutex (the dictionary), read by drains. */
typedef struct ompi_evt_file_state_t {
    unsigned char *base; /* the mapping; NULL when none */
    size_t size;         /* bytes mapped */
    mca_common_evt_flight_header_t *hdr;
    char path[PATH_MAX + NAME_MAX + 2];
    int rings_held; /* rings the kit holds (alloc minus release) */
    /* the file, open for the blocks of the rings reserved at their first
     * claim (file_storage_claim()); -1 when closed, and in a forked child */
    int fd;
    /* ring i's blocks are reserved (ring 0's at init); set before the kit
     * writes the ring: a forked child copies only what they hold */
    atomic_bool *ring_reserved;
    /* the first reservation refused at a claim: its ring + 1 (0: none), and
     * why (an errno); said at finalize */
    atomic_int reserve_failed_ring;
    atomic_int reserve_failed_errno;
    bool finalized; /* evtm_finalize ran: unmap at the last release */
    unsigned char events_done[FILE_TRACKED_EVENTS / 8];
    /* the event's element names are in the dictionary, or never will be */
    unsigned char names_done[FILE_TRACKED_EVENTS / 8];
    /* writes the dictionary's entries (constructed at init: no allocation
     * under the engine mutex) */
    mca_common_evt_wire_encoder_t dict_encoder;
    atomic_uint progress_calls; /* file_progress() calls: statistics, read by tests */
    bool signals_installed;
    struct sigaction old_actions[NSIG];
} ompi_evt_file_state_t;

extern ompi_evt_file_state_t ompi_evt_file_state;

/** @p v rounded up to a multiple of @p to. */
static inline size_t ompi_evt_file_round_up(size_t v, size_t to)
{
    return (v + to - 1) / to * to;
}

/** A non-negative integer from the launcher's environment (e.g.
 *  OMPI_COMM_WORLD_RANK), -1 when unset or not one. Context: INIT. */
int ompi_evt_file_env_int(const char *name);

/** CLOCK_REALTIME in ns (the clock pairs). Context: ANY. */
int64_t ompi_evt_file_realtime_ns(void);

/** The module's evtm_exports: every event is recorded; the first time an
 *  event is seen, its dictionary entry (with its source) is written.
 *  Context: under the engine mutex (the only dictionary writer). */
bool ompi_evt_file_exports(const mca_base_event_t *event);

/** evt_file_consumer_wait (evt_file_consumer.c): while the file's consumer
 *  says it is alive, sleep until every ring more than five eighths behind
 *  it is three eighths behind or less; returns at once without a consumer,
 *  when waiting is off, and when the consumer falls silent for a second.
 *  The low-priority progress callback. Context: PROGRESS (no lock held of
 *  ours, not in a raise or a callback of ours). */
int ompi_evt_file_consumer_wait(void);
/** Register the callback when evt_file_consumer_wait is set (the file is
 *  published): from now a consumer that has not looked yet is waited for
 *  up to a second. Context: INIT. */
void ompi_evt_file_consumer_wait_start(void);
/** Unregister it; no wait starts after this returns. Context: INIT. */
void ompi_evt_file_consumer_wait_stop(void);
/** A forked child never waits (its file is a private copy of the parent's).
 *  Context: the atfork child handler. */
void ompi_evt_file_consumer_wait_forget(void);

#pragma GCC visibility pop

END_C_DECLS

#endif /* OMPI_EVT_FILE_INTERNAL_H */
