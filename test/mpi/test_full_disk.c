/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* A full disk under one folder, preloaded: pwrite(), write() and
 * fallocate() on a file below $EVT_TEST_FULL_DIR fail with ENOSPC, as a
 * file system with no room left answers them; every other file is
 * written. Lets a test run a real recording whose output folder is full
 * without a file system of that size (which needs root to mount). */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Whether @p fd is a file below $EVT_TEST_FULL_DIR. */
static int on_full_disk(int fd)
{
    const char *dir = getenv("EVT_TEST_FULL_DIR");
    char link[64], path[4096];
    ssize_t n;
    size_t len;

    if (NULL == dir || '\0' == dir[0]) {
        return 0;
    }
    (void) snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
    n = readlink(link, path, sizeof(path) - 1);
    if (n < 0) {
        return 0;
    }
    path[n] = '\0';
    len = strlen(dir);
    return 0 == strncmp(path, dir, len) && '/' == path[len];
}

ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset)
{
    if (on_full_disk(fd)) {
        errno = ENOSPC;
        return -1;
    }
    return (ssize_t) syscall(SYS_pwrite64, fd, buf, count, offset);
}

ssize_t write(int fd, const void *buf, size_t count)
{
    if (on_full_disk(fd)) {
        errno = ENOSPC;
        return -1;
    }
    return (ssize_t) syscall(SYS_write, fd, buf, count);
}

int fallocate(int fd, int mode, off_t offset, off_t len)
{
    if (on_full_disk(fd)) {
        errno = ENOSPC;
        return -1;
    }
    return (int) syscall(SYS_fallocate, fd, mode, offset, len);
}
