/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 * Shared by the memory producer's unit tests (test_memory_hook.c,
 * test_memory_event.c).
 *
 * Why test_memory_keep_patcher_mapped(): opening Open MPI's memory
 * framework loads mca_patcher_overwrite.so, whose module keeps the 7
 * patches memory/patcher applies (mmap, munmap, mremap, madvise, shmat,
 * shmdt, brk: 7 x 144 bytes = sizeof(mca_patcher_base_patch_t)) in a list
 * inside the component's own static data. opal_finalize closes the patcher
 * framework without freeing them (the code stays patched: that cannot be
 * undone) and dlcloses the component. LeakSanitizer, which checks at exit,
 * then sees 7 blocks that only point at each other, allocated from an
 * unmapped "<unknown module>": the "1008 bytes in 7 objects" indirect leak,
 * which no suppression can name. Open MPI 4.1.4 has no
 * mca_base_component_disable_dlclose parameter (that is Open MPI 5), so the
 * test pins that one component with RTLD_NODELETE: its list stays mapped,
 * the patches stay reachable, and real leaks stay visible.
 */

#ifndef TEST_MEMORY_COMMON_H
#define TEST_MEMORY_COMMON_H

#include <dlfcn.h>
#include <link.h>
#include <string.h>

static int test_memory_pin_one(struct dl_phdr_info *info, size_t size, void *data)
{
    (void) size;
    if (NULL != info->dlpi_name && NULL != strstr(info->dlpi_name, "mca_patcher_")) {
        /* RTLD_NOLOAD: only the object already loaded; RTLD_NODELETE: never unmapped */
        if (NULL != dlopen(info->dlpi_name, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE)) {
            ++*(int *) data;
        }
    }
    return 0;
}

/** After the memory framework is open: keep Open MPI's patcher component
 *  mapped until exit. Returns how many objects were pinned. */
static inline int test_memory_keep_patcher_mapped(void)
{
    int pinned = 0;
    (void) dl_iterate_phdr(test_memory_pin_one, &pinned);
    return pinned;
}

#endif /* TEST_MEMORY_COMMON_H */
