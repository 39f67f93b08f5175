/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * evt/file: a crash-safe flight recorder. Each process records its events
 * into a fixed-size circular file mapped with mmap (MAP_SHARED), newest
 * over oldest, so the last events of every rank survive kill -9, a
 * segfault or MPI_Abort and are read back afterwards
 * (tools/ompi-evt-file-read). Local tools keep their callbacks, as with
 * evt/ring.
 *
 * It is the kit's worked example (docs/writing-an-evt-component.md): the
 * kit runs the rings, in overwrite-oldest mode, in storage this component
 * places in the mapping (ompi_evt_base_storage_t), so the raise path is
 * the kit's: no lock, no allocation, no system call. EXPORTS keeps the
 * gate of every event open, listened to or not (a recorder records
 * everything), and the engine's exports() question, asked under its mutex
 * when the module is installed and at every later event registration, is
 * where the component writes the event type into the file's dictionary
 * (name, layout, source clock) before any record of it can exist. The
 * format is in common_evt_flight_format.h.
 *
 * Why the job's session directory is not the default folder: mpirun
 * removes it at the end of the job, crash or not (checked with Open MPI
 * 4.1.4), which is exactly when the files are wanted. The default is
 * $TMPDIR/ompi-evt.<uid> (/tmp when TMPDIR is unset).
 */

#ifndef MCA_EVT_FILE_H
#define MCA_EVT_FILE_H

#include "ompi_config.h"

#include <stddef.h>

#include "ompi/mca/common/evt/common_evt_name_filter.h"
#include "ompi/mca/evt/evt.h"

BEGIN_C_DECLS

/** Default of evt_file_priority: 0, so it is used only when asked for by
 *  name (--mca evt file): the base never selects a component of priority <= 0
 *  by elimination (evt_base_select.c). */
#define OMPI_EVT_FILE_DEFAULT_PRIORITY 0
/** Default of evt_file_size (bytes per process, at most). */
#define OMPI_EVT_FILE_DEFAULT_SIZE (1024 * 1024)
/** Default of evt_file_rings (threads that record at once). */
#define OMPI_EVT_FILE_DEFAULT_RINGS 2
/** Dictionary bytes: at least, and at most. */
#define OMPI_EVT_FILE_DICT_MIN (16 * 1024)
#define OMPI_EVT_FILE_DICT_MAX (256 * 1024)
/** Export drop counters in the file (event indexes below this). */
#define OMPI_EVT_FILE_DROPS_COUNT 1024
/** Records per progress drain. */
#define OMPI_EVT_FILE_DRAIN_BUDGET 1024

/** The component: the base component plus its parameter values. */
typedef struct ompi_evt_file_component_t {
    ompi_evt_base_component_t super;
    int priority;       /**< evt_file_priority */
    char *dir;          /**< evt_file_dir ("" or NULL: the default) */
    size_t size;        /**< evt_file_size, bytes per process */
    int rings;          /**< evt_file_rings */
    bool sync;          /**< evt_file_sync: msync at finalize and fatal signals */
    bool consumer_wait; /**< evt_file_consumer_wait: progress calls wait for a lagging consumer */
    bool one_node;      /**< evt_file_one_node: only a job that runs on this node alone */
    int drain_interval; /**< evt_file_drain_interval, microseconds */
    char *events;       /**< evt_file_events: patterns, NULL = all */
    /** Parsed evt_file_events (by evtc_init; freed at component close). */
    mca_common_evt_name_filter_t filter;
} ompi_evt_file_component_t;

OMPI_DECLSPEC extern ompi_evt_file_component_t mca_evt_file_component;

/** The module (evt_file_module.c). */
extern ompi_evt_base_module_t ompi_evt_file_module;

/** The layout for @p size bytes and @p rings rings (evt_file_module.c).
 *  @retval NULL  it fits; *ring_capacity and *file_size set
 *  @retval a reason  it does not (evt_base_verbose)
 *  Context: INIT. */
const char *ompi_evt_file_layout(size_t size, int rings, size_t *ring_capacity, size_t *file_size);

/* ------------------------------------------------------------------------
 * Test-only seams (test/mpi, test/unit; never called by the project)
 * ------------------------------------------------------------------------ */

/** The path of this process's file (NULL before evtm_init). */
OMPI_DECLSPEC const char *ompi_evt_file_test_path(void);

/**
 * A writer stopped in the middle of a record: on ring @p ring (the calling
 * thread's), reserve a record of @p event as the kit's raise does
 * (evicting the oldest if needed), write its header, its captured record
 * and the first @p bytes of @p payload, and return without committing. The
 * caller then dies (kill -9) as a process would in the middle of a raise.
 * @retval OMPI_SUCCESS; OPAL_ERR_BAD_PARAM (no such ring, no file)
 * Context: the thread owning @p ring, no raise in progress.
 */
OMPI_DECLSPEC int ompi_evt_file_test_torn_raise(int ring, const mca_base_event_t *event,
                                                const void *payload, size_t bytes);

END_C_DECLS

#endif /* MCA_EVT_FILE_H */
