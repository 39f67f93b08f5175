/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Preloaded into a rank by test_file_publish.sh: the rank is killed
 * (SIGKILL, nothing of ours runs after it) at one step of evt/file's
 * building of its file, chosen by TEST_FILE_DIE:
 *   size     at the posix_fallocate() of a hidden *.oevt.part file: sized,
 *            no header written yet;
 *   publish  at the linkat() or renameat2() that would give a hidden
 *            *.oevt.part file its name: built, not yet published.
 * Unset, every call goes straight to the C library. The kill comes at the
 * call itself, however fast the machine builds the file. */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int posix_fallocate(int fd, off_t offset, off_t len);
int linkat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, int flags);
int renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath,
              unsigned int flags);

static bool is_hidden_file(const char *path)
{
    static const char suffix[] = ".oevt.part";
    size_t n = strlen(path);

    return n >= sizeof(suffix) - 1 && 0 == strcmp(path + n - (sizeof(suffix) - 1), suffix);
}

static void die_if(const char *step, const char *path)
{
    const char *want = getenv("TEST_FILE_DIE");

    if (NULL != want && 0 == strcmp(want, step) && NULL != path && is_hidden_file(path)) {
        (void) kill(getpid(), SIGKILL);
        for (;;) {
            pause();
        }
    }
}

int posix_fallocate(int fd, off_t offset, off_t len)
{
    int (*real)(int, off_t, off_t) = (int (*)(int, off_t, off_t)) dlsym(RTLD_NEXT,
                                                                       "posix_fallocate");
    char link[64], path[4096];
    ssize_t n;

    (void) snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
    n = readlink(link, path, sizeof(path) - 1);
    if (n > 0) {
        path[n] = '\0';
        die_if("size", path);
    }
    return real(fd, offset, len);
}

int linkat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, int flags)
{
    int (*real)(int, const char *, int, const char *, int)
        = (int (*)(int, const char *, int, const char *, int)) dlsym(RTLD_NEXT, "linkat");

    die_if("publish", oldpath);
    return real(olddirfd, oldpath, newdirfd, newpath, flags);
}

int renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath,
              unsigned int flags)
{
    int (*real)(int, const char *, int, const char *, unsigned int)
        = (int (*)(int, const char *, int, const char *, unsigned int)) dlsym(RTLD_NEXT,
                                                                               "renameat2");

    die_if("publish", oldpath);
    return real(olddirfd, oldpath, newdirfd, newpath, flags);
}
