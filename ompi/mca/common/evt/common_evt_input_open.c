/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * mca_common_evt_input_open(): see common_evt_input_open.h.
 */

#include "ompi/mca/common/evt/common_evt_input_open.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *kind_of(mode_t m)
{
    return S_ISFIFO(m)   ? "a FIFO"
           : S_ISSOCK(m) ? "a socket"
           : S_ISCHR(m)  ? "a character device"
           : S_ISBLK(m)  ? "a block device"
           : S_ISDIR(m)  ? "a folder"
                         : "a special file";
}

/* Judge an entry by its stat. */
static mca_common_evt_input_status_t judge(const struct stat *st, bool only_own, char *why,
                                           size_t whylen)
{
    if (S_ISLNK(st->st_mode)) {
        snprintf(why, whylen, "a symbolic link (not followed)");
        return MCA_COMMON_EVT_INPUT_SYMLINK;
    }
    if (!S_ISREG(st->st_mode)) {
        snprintf(why, whylen, "%s, not a regular file", kind_of(st->st_mode));
        return MCA_COMMON_EVT_INPUT_NOT_REGULAR;
    }
    if (only_own && st->st_uid != geteuid()) {
        snprintf(why, whylen, "owned by uid %lu, not by this user", (unsigned long) st->st_uid);
        return MCA_COMMON_EVT_INPUT_OTHER_OWNER;
    }
    return MCA_COMMON_EVT_INPUT_OK;
}

mca_common_evt_input_status_t mca_common_evt_input_open(int dirfd, const char *name, bool only_own,
                                                        int *fd, struct stat *st, char *why,
                                                        size_t whylen)
{
    struct stat before, after;
    mca_common_evt_input_status_t rc;
    int d, flags;

    *fd = -1;
    if (0 != fstatat(dirfd, name, &before, AT_SYMLINK_NOFOLLOW)) {
        snprintf(why, whylen, "%s", strerror(errno));
        return MCA_COMMON_EVT_INPUT_UNREADABLE;
    }
    rc = judge(&before, only_own, why, whylen);
    if (MCA_COMMON_EVT_INPUT_OK != rc) {
        return rc;
    }
    d = openat(dirfd, name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    if (0 > d) {
        if (ELOOP == errno) {
            snprintf(why, whylen, "a symbolic link (not followed)");
            return MCA_COMMON_EVT_INPUT_SYMLINK;
        }
        snprintf(why, whylen, "%s", strerror(errno));
        return MCA_COMMON_EVT_INPUT_UNREADABLE;
    }
    if (0 != fstat(d, &after)) {
        snprintf(why, whylen, "%s", strerror(errno));
        (void) close(d);
        return MCA_COMMON_EVT_INPUT_UNREADABLE;
    }
    rc = judge(&after, only_own, why, whylen);
    if (MCA_COMMON_EVT_INPUT_OK == rc
        && (after.st_dev != before.st_dev || after.st_ino != before.st_ino)) {
        snprintf(why, whylen, "replaced while being opened");
        rc = MCA_COMMON_EVT_INPUT_UNREADABLE;
    }
    flags = fcntl(d, F_GETFL);
    if (MCA_COMMON_EVT_INPUT_OK == rc
        && (0 > flags || 0 != fcntl(d, F_SETFL, flags & ~O_NONBLOCK))) {
        snprintf(why, whylen, "%s", strerror(errno));
        rc = MCA_COMMON_EVT_INPUT_UNREADABLE;
    }
    if (MCA_COMMON_EVT_INPUT_OK != rc) {
        (void) close(d);
        return rc;
    }
    if (NULL != st) {
        *st = after;
    }
    *fd = d;
    return MCA_COMMON_EVT_INPUT_OK;
}
