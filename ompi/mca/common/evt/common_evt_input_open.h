/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Opening a file a reader was given or found in a folder, which anyone
 * with write access to that folder may have planted: never block (a FIFO
 * would hang open() forever), never follow a symbolic link, read only
 * regular files, and, when asked, only the caller's own files (in a
 * shared sticky folder another user's recording is not part of our job).
 * Used by ompi-evt-file-read and ompi-evt-listen.
 *
 * Context: any thread; no global state.
 */

#ifndef MCA_COMMON_EVT_INPUT_OPEN_H
#define MCA_COMMON_EVT_INPUT_OPEN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    MCA_COMMON_EVT_INPUT_OK = 0,      /**< a regular file, open for reading */
    MCA_COMMON_EVT_INPUT_NOT_REGULAR, /**< a FIFO, socket, device or folder: never read */
    MCA_COMMON_EVT_INPUT_SYMLINK,     /**< a symbolic link: not followed */
    MCA_COMMON_EVT_INPUT_OTHER_OWNER, /**< another user's file (only with only_own) */
    MCA_COMMON_EVT_INPUT_UNREADABLE   /**< no such file, no permission, ... */
} mca_common_evt_input_status_t;

/**
 * Open @p name (relative to the folder @p dirfd, or AT_FDCWD) for reading.
 * The entry is judged before it is opened (no open() of a device or FIFO),
 * then opened with O_NONBLOCK | O_NOFOLLOW and judged again by its
 * descriptor (it may have been swapped in between).
 *
 * @param[out] fd   the descriptor (blocking mode again) when MCA_COMMON_EVT_INPUT_OK,
 *                  else -1
 * @param[out] st   its fstat (may be NULL)
 * @param[out] why  what is wrong, for a message ("a FIFO, not a regular
 *                  file", strerror(), ...), when not MCA_COMMON_EVT_INPUT_OK
 */
mca_common_evt_input_status_t mca_common_evt_input_open(int dirfd, const char *name, bool only_own,
                                                        int *fd, struct stat *st, char *why,
                                                        size_t whylen);

#ifdef __cplusplus
}
#endif

#endif /* MCA_COMMON_EVT_INPUT_OPEN_H */
