/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The release hook: opening Open MPI's memory framework, registering the
 * hook with it while somebody listens, and the hook itself.
 *
 * The hook runs inside free()/munmap()/madvise()/brk(), in the releasing
 * thread, before the memory goes away, possibly inside libc's allocator
 * (measured with Open MPI 4.1.4's memory/patcher). So it may not: lock, allocate, print, walk a
 * list, use TLS. It does: one acquire load of the armed flag, one relaxed
 * load of the sink switch, two atomic adds into the static sink, one acquire
 * load of the per-release callback and, if set, that call.
 *
 * Removal: Open MPI's unregister frees its list item while another thread
 * may still be about to call us through it (a host race, ours cannot fix
 * it); our part is that a call arriving after removal finds `armed` false
 * and touches nothing, and that everything it could touch is static.
 */

#include "opal_config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "opal/constants.h"
#include "opal/mca/base/mca_base_framework.h"
#include "opal/mca/base/mca_base_var.h"
#include "opal/memoryhooks/memory.h"
#include "opal/mca/memory/base/base.h"
#include "opal/util/output.h"

#include "opal/mca/memory/patcher/memory_patcher_event.h"

/* Exported by libopen-pal but not declared in Open MPI 4.1's installed
 * headers: nonzero once opal_init (resp. opal_init_util) has run. */
extern int opal_initialized;
extern int opal_util_initialized;

/** Release support the producer needs: free() (through its munmap/brk) and munmap. */
#define NEEDED_SUPPORT (OPAL_MEMORY_FREE_SUPPORT | OPAL_MEMORY_MUNMAP_SUPPORT)

/* Written only under hook_lock (TOOL/ANY); read by the hook (SIGNAL). */
static atomic_bool armed;
static atomic_bool to_sink_on;
static _Atomic(opal_memory_patcher_event_release_fn_t) release_cb;

/* The hook layer's own state, under hook_lock. */
static pthread_mutex_t hook_lock = PTHREAD_MUTEX_INITIALIZER;
static bool installed;
static int verbose_level;
static int output_id = -1;
static bool opened;

/* Context: SIGNAL (Open MPI's release hook list, inside free/munmap/...). */
static void release_hook(void *buf, size_t length, void *cbdata, bool from_alloc)
{
    opal_memory_patcher_event_release_fn_t fn;

    /* acquire: pairs with the release store of `armed` in hook_set(); the
     * switches below were set before it. */
    if (!atomic_load_explicit(&armed, memory_order_acquire)) {
        return;
    }
    if (atomic_load_explicit(&to_sink_on, memory_order_relaxed)) {
        opal_memory_patcher_event_sink_add((uint64_t) length);
    }
    /* acquire: pairs with the release store in hook_set(); the event the
     * callback raises was registered before the pointer was published. */
    fn = atomic_load_explicit(&release_cb, memory_order_acquire);
    if (NULL != fn) {
        fn(buf, length);
    }
}

/* Context: INIT. */
int opal_memory_patcher_event_hooks_open(void)
{
    int level, rc = OPAL_SUCCESS;

    if (!opal_util_initialized) {
        /* Before any OPAL init nothing (not even the output) is usable. */
        return OPAL_ERR_NOT_AVAILABLE;
    }
    pthread_mutex_lock(&hook_lock);
    if (!opened) {
        /* The stream and its verbosity: registered once, here, in INIT
         * context (allocation allowed). */
        verbose_level = 0;
        (void) mca_base_var_register("opal", "memory", "patcher", "event_verbose",
                                     "Verbosity of the OS memory-release MPI_T event producer "
                                     "(0: silent; 10: why events are absent; 20: hook changes)",
                                     MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_9,
                                     MCA_BASE_VAR_SCOPE_LOCAL, &verbose_level);
        output_id = opal_output_open(NULL);
        opal_output_set_verbosity(output_id, verbose_level);
        opened = true;
    }
    if (!opal_initialized) {
        /* After opal_init_util alone Open MPI's hook list is not set up:
         * registering a hook crashes there. */
        opal_output_verbose(10, output_id,
                            "memory_patcher_event: opal_init has not run; memory release "
                            "events (ompi.mca.memory.patcher.*) not registered");
        rc = OPAL_ERR_NOT_AVAILABLE;
        goto cleanup;
    }
    level = opal_mem_hooks_support_level();
    if (NEEDED_SUPPORT != (level & NEEDED_SUPPORT)
        && !mca_base_framework_is_open(&opal_memory_base_framework)) {
        /* Open MPI 4.1 opens it only for its UCX support; do as it does. */
        int orc = mca_base_framework_open(&opal_memory_base_framework, 0);
        opal_output_verbose(20, output_id,
                            "memory_patcher_event: opened the memory framework: %d", orc);
        level = opal_mem_hooks_support_level();
    }
    if (NEEDED_SUPPORT != (level & NEEDED_SUPPORT)) {
        opal_output_verbose(10, output_id,
                            "memory_patcher_event: memory hooks support level 0x%x lacks "
                            "free/munmap (memory framework without patcher?); memory release "
                            "events (ompi.mca.memory.patcher.*) not registered",
                            level);
        rc = OPAL_ERR_NOT_AVAILABLE;
        goto cleanup;
    }

cleanup:
    pthread_mutex_unlock(&hook_lock);
    return rc;
}

/* Context: TOOL, ANY. Locks: hook_lock. */
int opal_memory_patcher_event_hook_set(bool to_sink,
                                       opal_memory_patcher_event_release_fn_t release_fn)
{
    bool want = to_sink || NULL != release_fn;
    int rc = OPAL_SUCCESS;

    pthread_mutex_lock(&hook_lock);
    if (to_sink != atomic_load_explicit(&to_sink_on, memory_order_relaxed)) {
        /* On: start from empty (nothing predates the listener). Off: the
         * engine flushed before the change; what came in since is nobody's. */
        atomic_store_explicit(&to_sink_on, to_sink, memory_order_relaxed);
        opal_memory_patcher_event_sink_reset();
    }
    /* release: pairs with the acquire load in release_hook(). */
    atomic_store_explicit(&release_cb, release_fn, memory_order_release);

    if (want && !installed) {
        /* release: pairs with the acquire load in release_hook(); the
         * switches above are visible to a hook that sees armed. */
        atomic_store_explicit(&armed, true, memory_order_release);
        rc = opal_mem_hooks_register_release(release_hook, NULL);
        if (OPAL_SUCCESS != rc) {
            atomic_store_explicit(&armed, false, memory_order_relaxed);
            opal_output_verbose(10, output_id,
                                "memory_patcher_event: opal_mem_hooks_register_release: %d", rc);
            goto cleanup;
        }
        installed = true;
        opal_output_verbose(20, output_id, "memory_patcher_event: release hook installed");
    } else if (!want && installed) {
        /* relaxed: a late hook call that still sees true finds both
         * switches off and does nothing. */
        atomic_store_explicit(&armed, false, memory_order_relaxed);
        rc = opal_mem_hooks_unregister_release(release_hook);
        installed = false;
        opal_memory_patcher_event_sink_reset();
        opal_output_verbose(20, output_id, "memory_patcher_event: release hook removed: %d", rc);
    }

cleanup:
    pthread_mutex_unlock(&hook_lock);
    return rc;
}

/* Context: ANY. */
int opal_memory_patcher_event_output(void)
{
    return output_id;
}

/* Context: ANY. Test seam. */
bool opal_memory_patcher_event_test_hook_installed(void)
{
    bool v;

    pthread_mutex_lock(&hook_lock);
    v = installed;
    pthread_mutex_unlock(&hook_lock);
    return v;
}
