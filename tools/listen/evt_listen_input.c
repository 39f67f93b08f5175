/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Inputs of ompi-evt-listen --read: which files (a folder's node files, or
 * node files named one by one), and reading them batch by batch. A file is
 * a node file when its first bytes say so; a folder contributes every node
 * file in it (sorted by name); a file in it named *.evt or *.oevt that is
 * neither a node file nor a recording (a foreign file, a copy whose header
 * never got written), or an empty one (its writer ended before its first
 * bytes), is skipped and said, and the rest is read; named on the command
 * line, it is an error. Files are
 * opened without blocking or following links (common_evt_input_open.h): a FIFO
 * planted in a shared folder must not hang the reader, and another user's
 * file there is not part of the caller's job unless asked. Each batch
 * is copied out of the reader, decoded (validated) and handed over; an
 * invalid batch is counted against its file and skipped, damage is taken
 * from the reader's statistics.
 */

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <fcntl.h>
#include <unistd.h>

#include "evt_listen.h"
#include "ompi/mca/common/evt/common_evt_flight_format.h"
#include "ompi/mca/common/evt/common_evt_input_open.h"
#include "ompi/mca/common/evt/common_evt_nodefile.h"

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *) a, *(char *const *) b);
}

static bool has_suffix(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && 0 == strcmp(s + n - m, suf);
}

/* What add_file() says of a file that is no input it can read. */
#define NOT_AN_INPUT (-2)

/* Add one node file or evt/file recording. @retval 0, NOT_AN_INPUT when it
 * is neither (err says why), -1 on another error. */
static int add_file(listen_inputs_t *in, const char *path, char *err, size_t errlen)
{
    mca_common_evt_nodefile_reader_t r;
    char real[PATH_MAX];
    listen_file_t *f;
    bool flight = listen_flight_is_recording(path);
    int rc;

    if (!flight) {
        rc = mca_common_evt_nodefile_reader_open(&r, path);
        if (OPAL_SUCCESS != rc) {
            if (has_suffix(path, MCA_COMMON_EVT_FLIGHT_SUFFIX)) {
                /* a copy of ompi-evt-record whose first image never got
                 * its header (the disk filled): zeros where it should be */
                snprintf(err, errlen,
                         "%s: not an evt/file recording (no header: a copy cut short?)", path);
            } else {
                snprintf(err, errlen, "%s", r.error);
            }
            return OPAL_ERR_OUT_OF_RESOURCE == rc ? -1 : NOT_AN_INPUT;
        }
        mca_common_evt_nodefile_reader_close(&r);
    }
    if (NULL == realpath(path, real)) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    for (size_t i = 0; i < in->num_files; ++i) {
        char other[PATH_MAX];
        if (NULL != realpath(in->files[i].path, other) && 0 == strcmp(other, real)) {
            return 0; /* named twice: read once */
        }
    }
    f = realloc(in->files, (in->num_files + 1) * sizeof(*f));
    if (NULL == f) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    in->files = f;
    f = &in->files[in->num_files];
    memset(f, 0, sizeof(*f));
    f->flight = flight;
    f->path = strdup(path);
    if (NULL == f->path) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    in->num_files++;
    return 0;
}

/* Remember a file of a folder that is not read, and why. */
static int skip(listen_inputs_t *in, const char *path, const char *why, char *err, size_t errlen)
{
    char **n = realloc(in->skipped, (in->num_skipped + 1) * sizeof(*n));
    size_t len = strlen(path) + strlen(why) + 3;

    if (NULL == n || NULL == (n[in->num_skipped] = malloc(len))) {
        in->skipped = NULL == n ? in->skipped : n;
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    in->skipped = n;
    snprintf(n[in->num_skipped++], len, "%s: %s", path, why);
    return 0;
}

/* What a 0-byte input is: a file whose writer ended before its header
 * (skipped in a folder, so the other processes' files are read). */
#define EMPTY_INPUT "empty: nothing was written to it (its writer ended before its first bytes)"

/* The file open on @p fd starts with a node file's or evt/file's magic. */
static bool has_magic(int fd)
{
    char m[sizeof(MCA_COMMON_EVT_FLIGHT_MAGIC) - 1];
    ssize_t n = pread(fd, m, sizeof(m), 0);

    return (4 <= n && 0 == memcmp(m, MCA_COMMON_EVT_NODEFILE_MAGIC, 4))
           || ((ssize_t) sizeof(m) == n && 0 == memcmp(m, MCA_COMMON_EVT_FLIGHT_MAGIC, sizeof(m)));
}

int listen_inputs_add(listen_inputs_t *in, const char *arg, char *err, size_t errlen)
{
    struct stat st;
    struct dirent *de;
    char **names = NULL, why[256];
    size_t n = 0, found = 0;
    DIR *d;
    int ret = 0, fd;

    if (0 != stat(arg, &st)) {
        snprintf(err, errlen, "%s: %s", arg, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        /* named: anyone's, but a regular file (judged by a descriptor
         * opened without blocking, before anything reads it) */
        if (MCA_COMMON_EVT_INPUT_OK
            != mca_common_evt_input_open(AT_FDCWD, arg, false, &fd, NULL, why, sizeof(why))) {
            snprintf(err, errlen, "%s: %s", arg, why);
            return -1;
        }
        if (0 == fstat(fd, &st) && 0 == st.st_size) {
            (void) close(fd);
            snprintf(err, errlen, "%s: %s", arg, EMPTY_INPUT);
            return -1;
        }
        (void) close(fd);
        return 0 == add_file(in, arg, err, errlen) ? 0 : -1;
    }
    d = opendir(arg);
    if (NULL == d) {
        snprintf(err, errlen, "%s: %s", arg, strerror(errno));
        return -1;
    }
    while (NULL != (de = readdir(d))) {
        char **nn;
        if ('.' == de->d_name[0]) {
            continue;
        }
        nn = realloc(names, (n + 1) * sizeof(*names));
        if (NULL == nn || NULL == (nn[n] = strdup(de->d_name))) {
            names = NULL == nn ? names : nn;
            snprintf(err, errlen, "out of memory");
            ret = -1;
            goto cleanup;
        }
        names = nn;
        n++;
    }
    if (1 < n) {
        qsort(names, n, sizeof(*names), cmp_names);
    }
    for (size_t i = 0; i < n && 0 == ret; ++i) {
        char path[PATH_MAX];
        bool named = has_suffix(names[i], MCA_COMMON_EVT_NODEFILE_SUFFIX)
                     || has_suffix(names[i], MCA_COMMON_EVT_FLIGHT_SUFFIX);
        mca_common_evt_input_status_t rc;

        snprintf(path, sizeof(path), "%s/%s", arg, names[i]);
        rc = mca_common_evt_input_open(dirfd(d), names[i], !in->all_owners, &fd, NULL, why,
                                       sizeof(why));
        if (MCA_COMMON_EVT_INPUT_OK != rc) {
            /* what is named like an input is said; anything else is not ours */
            if (named) {
                ret = skip(in, path, why, err, errlen);
            }
            continue;
        }
        if (named && 0 == fstat(fd, &st) && 0 == st.st_size) {
            ret = skip(in, path, EMPTY_INPUT, err, errlen); /* the rest of the folder is read */
        } else if (named || has_magic(fd)) {
            /* one that is not what its name or magic says is skipped, and
             * said: the rest of the folder is read */
            ret = add_file(in, path, err, errlen);
            if (NOT_AN_INPUT == ret) {
                size_t pl = strlen(path);
                /* err names the path: said once, by skip() */
                (void) snprintf(why, sizeof(why), "%s",
                                0 == strncmp(err, path, pl) && ':' == err[pl] ? err + pl + 2 : err);
                ret = skip(in, path, why, err, errlen);
            } else {
                ++found;
            }
        }
        (void) close(fd);
    }
    if (0 == ret && 0 == found) {
        snprintf(err, errlen,
                 "%s: no node files (*%s) or evt/file recordings (*%s) to read in this folder%s",
                 arg, MCA_COMMON_EVT_NODEFILE_SUFFIX, MCA_COMMON_EVT_FLIGHT_SUFFIX,
                 0 < in->num_skipped ? " (some were skipped: see above)" : "");
        ret = -1;
    }
cleanup:
    for (size_t i = 0; i < n; ++i) {
        free(names[i]);
    }
    free(names);
    closedir(d);
    return ret;
}

void listen_inputs_free(listen_inputs_t *in)
{
    for (size_t i = 0; i < in->num_files; ++i) {
        free(in->files[i].path);
        free(in->files[i].first_error);
    }
    for (size_t i = 0; i < in->num_skipped; ++i) {
        free(in->skipped[i]);
    }
    free(in->skipped);
    free(in->files);
    memset(in, 0, sizeof(*in));
}

/* ------------------------------------------------------------------------
 * Reading
 * ------------------------------------------------------------------------ */

struct listen_cursor {
    listen_file_t *file;
    mca_common_evt_nodefile_reader_t reader;
    listen_flight_t *flight; /* an evt/file recording instead of a node file */
    bool done;
};

/* Keep the first problem of a file for the summary. */
static void note(listen_file_t *f, const char *msg)
{
    if (NULL == f->first_error) {
        f->first_error = strdup(msg);
    }
}

listen_cursor_t *listen_cursor_open(listen_file_t *f, char *err, size_t errlen)
{
    listen_cursor_t *c = calloc(1, sizeof(*c));

    if (NULL == c) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    c->file = f;
    if (f->flight) {
        c->flight = listen_flight_open(f, err, errlen);
        if (NULL == c->flight) {
            free(c);
            return NULL;
        }
        return c;
    }
    if (OPAL_SUCCESS != mca_common_evt_nodefile_reader_open(&c->reader, f->path)) {
        snprintf(err, errlen, "%s", c->reader.error);
        free(c);
        return NULL;
    }
    snprintf(f->host, sizeof(f->host), "%s", c->reader.host);
    /* statistics are per pass: this pass's reading sets them again */
    f->frames = f->invalid_batches = f->damaged = f->skipped_bytes = 0;
    f->truncated = f->read_error = false;
    return c;
}

int listen_cursor_next(listen_cursor_t *c, listen_batch_t **out)
{
    listen_file_t *f = c->file;

    if (NULL != c->flight) {
        return listen_flight_next(c->flight, f, out);
    }
    while (!c->done) {
        const void *buf;
        size_t len;
        uint64_t off;
        listen_batch_t *b;
        int rc = mca_common_evt_nodefile_reader_next(&c->reader, &buf, &len, &off);

        if (OPAL_ERR_NOT_FOUND == rc || OPAL_SUCCESS != rc) {
            f->frames = c->reader.stats.frames;
            f->damaged = c->reader.stats.damaged;
            f->skipped_bytes = c->reader.stats.skipped_bytes;
            f->truncated = c->reader.stats.truncated;
            if (0 < f->damaged) {
                note(f, c->reader.error);
            }
            c->done = true;
            if (OPAL_SUCCESS != rc && OPAL_ERR_NOT_FOUND != rc) {
                f->read_error = true;
                note(f, c->reader.error);
                return -1;
            }
            return 0;
        }
        b = calloc(1, sizeof(*b));
        if (NULL == b || NULL == (b->bytes = malloc(len))) {
            free(b);
            return -1;
        }
        memcpy(b->bytes, buf, len);
        b->len = len;
        rc = mca_common_evt_wire_decode(b->bytes, len, &b->wire);
        if (OPAL_SUCCESS != rc) {
            char msg[600];
            f->invalid_batches++;
            snprintf(msg, sizeof(msg), "invalid batch (%s) in the frame at offset %llu",
                     NULL == b->wire.error ? "?" : b->wire.error, (unsigned long long) off);
            note(f, msg);
            free(b->bytes);
            free(b);
            if (OPAL_ERR_OUT_OF_RESOURCE == rc) {
                return -1;
            }
            continue;
        }
        *out = b;
        return 1;
    }
    return 0;
}

void listen_cursor_close(listen_cursor_t *c)
{
    if (NULL == c) {
        return;
    }
    if (NULL != c->flight) {
        listen_flight_close(c->flight);
        free(c);
        return;
    }
    mca_common_evt_nodefile_reader_close(&c->reader);
    free(c);
}

void listen_batch_free(listen_batch_t *b)
{
    if (NULL == b) {
        return;
    }
    mca_common_evt_wire_batch_destruct(&b->wire);
    free(b->types);
    free(b->clocks);
    free(b->bytes);
    free(b);
}
