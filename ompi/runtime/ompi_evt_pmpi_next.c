/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The next definitions of the PMPI functions libompi_evt wraps, and
 * libmpi's own definitions of those it calls for itself, resolved when the
 * library is loaded (see ompi_evt_pmpi_next.h).
 */

#include "ompi_config.h"

#include <dlfcn.h>
#include <link.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ompi/runtime/ompi_evt_pmpi_next.h"

#define EVT_PMPI_DEFINE_NEXT(name) __typeof__(PMPI_##name) *ompi_evt_next_##name;
EVT_PMPI_FUNCTIONS(EVT_PMPI_DEFINE_NEXT)
#define EVT_LIBMPI_DEFINE(name) __typeof__(PMPI_##name) *ompi_evt_libmpi_##name;
EVT_LIBMPI_FUNCTIONS(EVT_LIBMPI_DEFINE)

__thread int ompi_evt_pmpi_quiet_depth __attribute__((tls_model("initial-exec")));

/* The definition of @p symbol after ours (@p ours: our own address). A
 * library loaded after libmpi by dlopen (the hook's) has no "next" one:
 * the first definition in the global scope then, libmpi's, unless it is
 * ours. Without one, nothing can work: say so and stop, rather than call
 * ourselves forever. Context: INIT (library constructor). */
static bool evt_pmpi_is_ours(void *fn)
{
    Dl_info mine, theirs;

    /* by the object that defines it: the address of PMPI_X taken here may
     * already be another library's (a library loaded after libmpi does not
     * interpose: its own name resolves to libmpi's) */
    return 0 != dladdr((void *) evt_pmpi_is_ours, &mine) && 0 != dladdr(fn, &theirs)
           && mine.dli_fbase == theirs.dli_fbase;
}

static void *evt_pmpi_resolve(const char *symbol, void *ours)
{
    void *next = dlsym(RTLD_NEXT, symbol);

    (void) ours;
    if (NULL == next || evt_pmpi_is_ours(next)) {
        next = dlsym(RTLD_DEFAULT, symbol);
    }
    if (NULL == next || evt_pmpi_is_ours(next)) {
        fprintf(stderr,
                "ompi-evt: libompi_evt wraps %s but finds no other definition of it (is "
                "libmpi loaded?): %s\n",
                symbol, dlerror() ? "not found" : "only its own");
        abort();
    }
    return next;
}

/* dl_iterate_phdr() callback: the first loaded object whose file is
 * libmpi.so.<version> (not libmpi_mpifh.so and the like). */
static int evt_libmpi_find(struct dl_phdr_info *info, size_t size, void *path)
{
    const char *name = info->dlpi_name, *base;

    (void) size;
    if (NULL == name || '\0' == name[0]) {
        return 0; /* the program itself */
    }
    base = strrchr(name, '/');
    base = NULL != base ? base + 1 : name;
    if (0 != strncmp(base, "libmpi.so", strlen("libmpi.so"))) {
        return 0;
    }
    *(const char **) path = name;
    return 1;
}

/* libmpi itself, NULL if not found: looked up by its file name among the
 * loaded objects, because the address of one of its symbols can be the
 * program's (a program's copy of MPI_COMM_WORLD, a non-PIC program's
 * canonical address of a function). Context: INIT (library constructor). */
static void *evt_libmpi_open(void)
{
    const char *path = NULL;

    return 0 != dl_iterate_phdr(evt_libmpi_find, &path) ? dlopen(path, RTLD_LAZY | RTLD_NOLOAD)
                                                        : NULL;
}

/* libmpi's own definition of @p symbol, NULL if not found: looked up in
 * @p libmpi itself, not by name in the process, where a preloaded tool's
 * comes first. Only evt/pmix's clock alignment needs them, and it does
 * without (ompi_evt_libmpi_ready()): nothing here stops the process.
 * Context: INIT (library constructor). */
static void *evt_libmpi_sym(void *libmpi, const char *symbol)
{
    void *fn = NULL != libmpi ? dlsym(libmpi, symbol) : NULL;

    return NULL == fn || evt_pmpi_is_ours(fn) ? NULL : fn;
}

/* Context: ANY. */
bool ompi_evt_libmpi_ready(void)
{
#define EVT_LIBMPI_FOUND(name) &&NULL != ompi_evt_libmpi_##name
    return true EVT_LIBMPI_FUNCTIONS(EVT_LIBMPI_FOUND);
#undef EVT_LIBMPI_FOUND
}

__attribute__((constructor)) static void evt_pmpi_next_resolve(void)
{
#define EVT_PMPI_RESOLVE(name)                                                         \
    ompi_evt_next_##name = (__typeof__(PMPI_##name) *) evt_pmpi_resolve("PMPI_" #name, \
                                                                        (void *) PMPI_##name);
    EVT_PMPI_FUNCTIONS(EVT_PMPI_RESOLVE)
#undef EVT_PMPI_RESOLVE
    void *libmpi = evt_libmpi_open();
#define EVT_LIBMPI_RESOLVE(name) \
    ompi_evt_libmpi_##name = (__typeof__(PMPI_##name) *) evt_libmpi_sym(libmpi, "PMPI_" #name);
    EVT_LIBMPI_FUNCTIONS(EVT_LIBMPI_RESOLVE)
#undef EVT_LIBMPI_RESOLVE
}

/* Context: ANY. */
void ompi_evt_pmpi_quiet_enter(void)
{
    ++ompi_evt_pmpi_quiet_depth;
}

/* Context: ANY. */
void ompi_evt_pmpi_quiet_exit(void)
{
    --ompi_evt_pmpi_quiet_depth;
}
