/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * evt/file component: the component struct, its parameters and its init.
 * Register never allocates; the file is created by the module's init, once
 * the component has won selection (a component that loses creates
 * nothing).
 */

#include "ompi_config.h"

#include <string.h>
#include <sys/stat.h>

#include "ompi/constants.h"
#include "ompi/mca/evt/base/base.h"
#include "ompi/mca/evt/base/evt_base_kit.h"
#include "ompi/mca/evt/base/evt_base_report.h"
#include "ompi/mca/evt/base/evt_base_var.h"
#include "ompi/mca/evt/evt.h"
#include "ompi/mca/evt/file/evt_file.h"
#include "ompi/mca/evt/file/evt_file_internal.h"
#include "opal/mca/base/mca_base_var.h"
#include "opal/util/output.h"

static int file_register(void);
static ompi_evt_base_module_t *file_init(int *priority);
static int file_close(void);

ompi_evt_file_component_t mca_evt_file_component = {
    .super = {
        .evtc_version = {
            OMPI_EVT_BASE_VERSION_2_0_0,
            .mca_component_name = "file",
            MCA_BASE_MAKE_VERSION(component, 1, 0, 0),
            .mca_register_component_params = file_register,
            .mca_close_component = file_close,
        },
        .evtc_data = {
            /* The component is checkpoint ready */
            MCA_BASE_METADATA_PARAM_CHECKPOINT
        },
        .evtc_init = file_init,
    },
    .priority = OMPI_EVT_FILE_DEFAULT_PRIORITY,
};
MCA_BASE_COMPONENT_INIT(ompi, evt, file)

/* Register the evt_file_* variables. Context: INIT. */
static int file_register(void)
{
    ompi_evt_file_component_t *c = &mca_evt_file_component;
    const ompi_evt_base_var_t vars[] = {
        {"dir",
         "Folder of the recorder files, one per process (empty: $TMPDIR/ompi-evt.<uid>, /tmp "
         "when TMPDIR is unset; not the job's session folder, which mpirun removes at the end "
         "of the job). It must be owned by the user, or sticky when others may write to it; the "
         "default folder must be owned by the user and writable by nobody else",
         MCA_BASE_VAR_TYPE_STRING, OPAL_INFO_LVL_2, &c->dir, 0, NULL},
        {"size",
         "Most bytes of each process's file: header, dictionary and evt_file_rings rings whose "
         "size is the largest power of two that fits (a record takes 40 bytes plus its payload "
         "rounded up to 8); the newest records that fit are kept",
         MCA_BASE_VAR_TYPE_SIZE_T, OPAL_INFO_LVL_2, &c->size, OMPI_EVT_FILE_DEFAULT_SIZE, NULL},
        {"rings",
         "Rings in each file: at most this many threads record at once (a raise from one more "
         "is counted dropped); rings of exited threads are reused",
         MCA_BASE_VAR_TYPE_INT, OPAL_INFO_LVL_5, &c->rings, OMPI_EVT_FILE_DEFAULT_RINGS, NULL},
        {"sync",
         "Flush the file to disk (msync) at MPI_Finalize and on fatal signals (SIGSEGV, "
         "SIGBUS, SIGILL, SIGFPE, SIGABRT). Not needed to survive the death of the process "
         "(the kernel keeps the pages), only a crash of the machine",
         MCA_BASE_VAR_TYPE_BOOL, OPAL_INFO_LVL_4, &c->sync, false, NULL},
        {"consumer_wait",
         "When a consumer copies the rings while the process runs (ompi-evt-record "
         "--transport shm sets this), progress calls wait for it while it is more than five "
         "eighths of a ring behind, instead of letting the ring overwrite records it has not "
         "copied: the process slows down rather than lose records. A consumer silent for a "
         "second is not waited for",
         MCA_BASE_VAR_TYPE_BOOL, OPAL_INFO_LVL_5, &c->consumer_wait, false, NULL},
        {"one_node",
         "Record only a job whose processes all run on this node (as Open MPI's launcher "
         "says: OMPI_COMM_WORLD_LOCAL_SIZE equal to OMPI_COMM_WORLD_SIZE) and whose "
         "evt_file_dir exists here; the processes of any other job leave the recorder out, so "
         "that the next component named in evt takes them (ompi-evt-record records a job on "
         "its own host through shared memory and any other through PMIx this way)",
         MCA_BASE_VAR_TYPE_BOOL, OPAL_INFO_LVL_5, &c->one_node, false, NULL},
        {"events",
         "Events to record: comma-separated name patterns, '*' matches any characters, a "
         "pattern starting with '^' excludes (e.g. \"ompi.mpi.*,^ompi.mpi.p2p_*\"); unset: "
         "every event. An event left out keeps its gate closed unless a tool listens to it",
         MCA_BASE_VAR_TYPE_STRING, OPAL_INFO_LVL_2, &c->events, 0, NULL},
        /* not the kit's drain_interval text: recording itself needs no drain */
        {"drain_interval",
         "Microseconds between drains by a timer thread for local tools' callbacks (0: no "
         "timer). Recording does not need drains",
         MCA_BASE_VAR_TYPE_INT, OPAL_INFO_LVL_6, &c->drain_interval, 0, NULL},
    };
    int rc;

    rc = ompi_evt_base_register_component(
        &c->super.evtc_version,
        "MPI_T events recorded into a crash-safe circular file per process (a flight recorder)",
        &c->priority, OMPI_EVT_FILE_DEFAULT_PRIORITY, OPAL_INFO_LVL_4,
        "Priority of the file recorder (below sync and ring: select it with --mca evt file)");
    if (OPAL_SUCCESS == rc) {
        rc = ompi_evt_base_register_vars(&c->super.evtc_version, vars,
                                         sizeof(vars) / sizeof(vars[0]));
    }
    return rc;
}

/* Under evt_file_one_node: why this process leaves the recorder out, or
 * NULL when its whole job runs on this node and the folder is here (a
 * folder another host created is not: its consumer could not read the
 * rings). Context: INIT. */
static const char *file_not_here(const ompi_evt_file_component_t *c)
{
    int size = ompi_evt_file_env_int("OMPI_COMM_WORLD_SIZE");
    int local = ompi_evt_file_env_int("OMPI_COMM_WORLD_LOCAL_SIZE");
    struct stat st;

    if (0 >= size || 0 >= local) {
        return "the launcher did not say where the job's processes run "
               "(OMPI_COMM_WORLD_SIZE, OMPI_COMM_WORLD_LOCAL_SIZE)";
    }
    if (local != size) {
        return "the job's processes run on more than one node";
    }
    if (NULL != c->dir && '\0' != c->dir[0] && (0 != stat(c->dir, &st) || !S_ISDIR(st.st_mode))) {
        return "evt_file_dir is not on this node";
    }
    return NULL;
}

/* Usable when the parameters make a layout and a kit. Otherwise the reason
 * goes to evt_base_verbose and, when the user asked for the recorder by
 * name, to the user from every process (ompi_evt_base_report_error()): it
 * decides that nothing is recorded. A recorder creates files, so it must never be
 * chosen by priority alone (--mca evt ^sync,ring does not start recording):
 * its default priority is 0, which the base selects only when the evt
 * parameter names the component (evt_base_select.c). Creates nothing.
 * Context: INIT. */
static ompi_evt_base_module_t *file_init(int *priority)
{
    ompi_evt_file_component_t *c = &mca_evt_file_component;
    ompi_evt_base_kit_params_t *kit = &ompi_evt_file_module.evtm_kit;
    size_t capacity = 0, file_size = 0;
    const char *reason;

    if (c->one_node && NULL != (reason = file_not_here(c))) {
        const char *sel = ompi_evt_base_framework.framework_selection;

        if (NULL != sel && NULL == strchr(sel, ',') && '^' != sel[0]) {
            /* no other component was named to take the process */
            ompi_evt_base_report_error(OMPI_EVT_REPORT_ONCE_PER_NODE,
                                       "evt:file: evt_file_one_node: %s: nothing is recorded",
                                       reason);
        } else {
            opal_output_verbose(1, ompi_evt_base_framework.framework_output,
                                "evt:file: left to the next component (evt_file_one_node): %s",
                                reason);
        }
        return NULL;
    }
    mca_common_evt_name_filter_free(&c->filter);
    if (OPAL_SUCCESS != mca_common_evt_name_filter_parse(&c->filter, c->events, &reason)) {
        ompi_evt_base_report_error(OMPI_EVT_REPORT_THIS_PROCESS,
                                   "evt:file: evt_file_events \"%s\": %s: nothing is recorded",
                                   c->events, NULL == reason ? "cannot be parsed" : reason);
        return NULL;
    }
    reason = ompi_evt_file_layout(c->size, c->rings, &capacity, &file_size);
    if (NULL == reason) {
        kit->ring_size = capacity;
        kit->pool_size = c->rings;
        kit->drain_budget = OMPI_EVT_FILE_DRAIN_BUDGET;
        kit->overflow = OMPI_EVT_OVERFLOW_OVERWRITE;
        kit->drain_interval = c->drain_interval;
        reason = ompi_evt_base_kit_check_params(kit);
    }
    if (NULL != reason) {
        if (ompi_evt_base_named("file")) {
            ompi_evt_base_report_error(
                OMPI_EVT_REPORT_THIS_PROCESS,
                "evt:file: %s (evt_file_size %zu, evt_file_rings %d): nothing is "
                "recorded",
                reason, c->size, c->rings);
        } else {
            opal_output_verbose(1, ompi_evt_base_framework.framework_output,
                                "evt:file: not usable: %s (evt_file_size %zu, evt_file_rings %d)",
                                reason, c->size, c->rings);
        }
        return NULL;
    }
    *priority = c->priority;
    return &ompi_evt_file_module;
}

/* Context: INIT (the framework closes its components after the module's
 * finalize: no exports() question is asked any more). */
static int file_close(void)
{
    mca_common_evt_name_filter_free(&mca_evt_file_component.filter);
    return OPAL_SUCCESS;
}
