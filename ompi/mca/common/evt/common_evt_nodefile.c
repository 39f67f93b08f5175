/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Node files (layout and promises: common_evt_nodefile.h): the appender used
 * by a node sink, and the crash-tolerant reader used by ompi-evt-listen.
 */

#include "ompi_config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "ompi/mca/common/evt/common_evt_nodefile.h"
#include "ompi/mca/common/evt/common_evt_wire.h"
#include "ompi/mca/common/evt/common_evt_wire_internal.h"

/** Fixed part of the file header before the host bytes. */
#define FILE_HEAD_FIXED 24
#define IDX_HEAD_BYTES  16
#define PAD8(n)         (((n) + 7) & ~(size_t) 7)

/* ------------------------------------------------------------------------
 * Writing
 * ------------------------------------------------------------------------ */

/* An error message into @p buf (cut to its size: paths may be long). */
static void seterr(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    (void) vsnprintf(buf, size, fmt, ap);
    va_end(ap);
}

/* Write all of @p iov at @p off (pwritev may write part). */
static int write_all(int fd, uint64_t off, struct iovec *iov, int n)
{
    while (n > 0) {
        ssize_t w = pwritev(fd, iov, n, (off_t) off);
        if (w < 0) {
            if (EINTR == errno) {
                continue;
            }
            return -1;
        }
        off += (uint64_t) w;
        while (n > 0 && (size_t) w >= iov->iov_len) {
            w -= (ssize_t) iov->iov_len;
            ++iov;
            --n;
        }
        if (n > 0) {
            iov->iov_base = (char *) iov->iov_base + w;
            iov->iov_len -= (size_t) w;
        }
    }
    return 0;
}

static bool host_ok(const char *host)
{
    size_t n;

    if (NULL == host) {
        return false;
    }
    n = strnlen(host, MCA_COMMON_EVT_WIRE_HOST_MAX + 1);
    if (!wire_text_ok((const uint8_t *) host, n) || NULL != strchr(host, '/')
        || 0 == strcmp(host, ".") || 0 == strcmp(host, "..")) {
        return false;
    }
    return true;
}

static int64_t realtime_now(void)
{
    struct timespec ts;
    (void) clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t) ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int mca_common_evt_nodefile_open(mca_common_evt_nodefile_t *f, const char *dir, const char *host)
{
    uint8_t head[FILE_HEAD_FIXED + MCA_COMMON_EVT_WIRE_HOST_MAX + 8];
    uint8_t ihead[IDX_HEAD_BYTES];
    char name[MCA_COMMON_EVT_WIRE_HOST_MAX + sizeof(MCA_COMMON_EVT_NODEFILE_IDX_SUFFIX) + 1];
    char idx_name[sizeof(name)];
    struct iovec iov[1];
    struct rlimit lim;
    struct stat st;
    size_t hl, hlen;
    int dfd = -1, ret = OPAL_SUCCESS;

    if (NULL == f) {
        return OPAL_ERR_BAD_PARAM;
    }
    memset(f, 0, sizeof(*f));
    f->fd = -1;
    f->idx_fd = -1;
    f->limit = UINT64_MAX;
    if (NULL == dir || !host_ok(host)) {
        seterr(f->error, sizeof(f->error), "bad folder or host name");
        return OPAL_ERR_BAD_PARAM;
    }
    dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0) {
        seterr(f->error, sizeof(f->error), "%s: %s", dir, strerror(errno));
        return ENOENT == errno ? OPAL_ERR_NOT_FOUND : OPAL_ERR_FILE_OPEN_FAILURE;
    }
    /* the folder as opened (a symlink to it is judged by its target) */
    if (0 != fstat(dfd, &st) || st.st_uid != geteuid()
        || ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX))) {
        (void) snprintf(f->error, sizeof(f->error),
                        "%s: not a folder of this user, or writable by others without the "
                        "sticky bit",
                        dir);
        ret = OPAL_ERR_PERM;
        goto cleanup;
    }
    hl = strlen(host);
    hlen = PAD8(FILE_HEAD_FIXED + hl);
    /* a frame that would cross RLIMIT_FSIZE is refused instead of
     * killing the process with SIGXFSZ; so are the headers (before any
     * file exists: a torn header would block the next run) */
    if (0 == getrlimit(RLIMIT_FSIZE, &lim) && RLIM_INFINITY != lim.rlim_cur) {
        f->limit = (uint64_t) lim.rlim_cur;
    }
    if (hlen > f->limit || IDX_HEAD_BYTES > f->limit) {
        (void) snprintf(f->error, sizeof(f->error),
                        "%s: the file size limit (RLIMIT_FSIZE, %llu bytes) is below a node "
                        "file's header",
                        dir, (unsigned long long) f->limit);
        ret = OPAL_ERR_FILE_WRITE_FAILURE;
        goto cleanup;
    }
    (void) snprintf(name, sizeof(name), "%s%s", host, MCA_COMMON_EVT_NODEFILE_SUFFIX);
    (void) snprintf(f->path, sizeof(f->path), "%s/%s", dir, name);
    (void) snprintf(idx_name, sizeof(idx_name), "%s%s", host, MCA_COMMON_EVT_NODEFILE_IDX_SUFFIX);
    /* Both files or neither: a node file left without its index (or a
     * 0-byte one) would block the next run and look foreign to a reader.
     * Removing by name is safe: the folder is ours and no one else may
     * replace a file in it (checked above). */
    f->fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (f->fd < 0) {
        seterr(f->error, sizeof(f->error), "%s: %s", f->path, strerror(errno));
        ret = EEXIST == errno ? OPAL_EXISTS : OPAL_ERR_FILE_OPEN_FAILURE;
        goto cleanup;
    }
    f->idx_fd = openat(dfd, idx_name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (f->idx_fd < 0) {
        seterr(f->error, sizeof(f->error), "%s/%s: %s", dir, idx_name, strerror(errno));
        ret = EEXIST == errno ? OPAL_EXISTS : OPAL_ERR_FILE_OPEN_FAILURE;
        goto cleanup;
    }
    f->prealloc = true;

    memset(head, 0, sizeof(head));
    memcpy(head, MCA_COMMON_EVT_NODEFILE_MAGIC, 4);
    wire_put16(head + 4, MCA_COMMON_EVT_NODEFILE_VERSION);
    wire_put16(head + 6, (uint16_t) hlen);
    wire_put16(head + 12, (uint16_t) hl);
    wire_put64(head + 16, (uint64_t) realtime_now());
    memcpy(head + FILE_HEAD_FIXED, host, hl);
    wire_put32(head + 8, mca_common_evt_wire_crc32c(0, head, hlen));
    iov[0].iov_base = head;
    iov[0].iov_len = hlen;
    if (0 != write_all(f->fd, 0, iov, 1)) {
        seterr(f->error, sizeof(f->error), "%s: %s", f->path, strerror(errno));
        ret = OPAL_ERR_FILE_WRITE_FAILURE;
        goto cleanup;
    }
    memset(ihead, 0, sizeof(ihead));
    memcpy(ihead, MCA_COMMON_EVT_NODEFILE_IDX_MAGIC, 4);
    wire_put16(ihead + 4, MCA_COMMON_EVT_NODEFILE_VERSION);
    wire_put16(ihead + 6, IDX_HEAD_BYTES);
    wire_put32(ihead + 12, mca_common_evt_wire_crc32c(0, ihead, 12));
    iov[0].iov_base = ihead;
    iov[0].iov_len = sizeof(ihead);
    if (0 != write_all(f->idx_fd, 0, iov, 1)) {
        seterr(f->error, sizeof(f->error), "%s/%s: %s", dir, idx_name, strerror(errno));
        ret = OPAL_ERR_FILE_WRITE_FAILURE;
        goto cleanup;
    }
    f->offset = hlen;
cleanup:
    if (OPAL_SUCCESS != ret) {
        char keep[sizeof(f->error)];
        memcpy(keep, f->error, sizeof(keep));
        if (f->fd >= 0) {
            (void) close(f->fd);
            (void) unlinkat(dfd, name, 0);
        }
        if (f->idx_fd >= 0) {
            (void) close(f->idx_fd);
            (void) unlinkat(dfd, idx_name, 0);
        }
        memset(f, 0, sizeof(*f));
        f->fd = -1;
        f->idx_fd = -1;
        memcpy(f->error, keep, sizeof(keep));
    }
    if (dfd >= 0) {
        (void) close(dfd);
    }
    return ret;
}

/* Is there room for @p bytes at the end of the file, with the reserve
 * still behind them (@p keep_reserve)? The space is allocated now, so the
 * write that follows cannot run out of it half-way; on a file system
 * that cannot preallocate, the write is the test. */
static int make_room(mca_common_evt_nodefile_t *f, uint64_t bytes, bool keep_reserve)
{
    uint64_t want = bytes + (keep_reserve ? f->reserve : 0);

    if (f->offset > f->limit || want > f->limit - f->offset) {
        seterr(f->error, sizeof(f->error),
               "%s: the file size limit (RLIMIT_FSIZE, %llu bytes) is reached", f->path,
               (unsigned long long) f->limit);
        return OPAL_ERR_TEMP_OUT_OF_RESOURCE;
    }
    if (0 == f->reserve || !f->prealloc) {
        return OPAL_SUCCESS;
    }
    if (0 != fallocate(f->fd, FALLOC_FL_KEEP_SIZE, (off_t) f->offset, (off_t) want)) {
        if (ENOSPC == errno || EDQUOT == errno || EFBIG == errno) {
            seterr(f->error, sizeof(f->error), "%s: %s", f->path, strerror(errno));
            return OPAL_ERR_TEMP_OUT_OF_RESOURCE;
        }
        f->prealloc = false; /* not supported here (EOPNOTSUPP ...) */
    }
    return OPAL_SUCCESS;
}

int mca_common_evt_nodefile_set_reserve(mca_common_evt_nodefile_t *f, uint64_t bytes)
{
    if (NULL == f || f->fd < 0) {
        return OPAL_ERR_BAD_PARAM;
    }
    f->reserve = bytes;
    return make_room(f, 0, true);
}

/* One frame, then its index entry (the batch was validated). */
static int append_frame(mca_common_evt_nodefile_t *f, const void *batch, size_t len, uint32_t rank,
                        uint64_t seq, uint32_t flags, bool from_reserve)
{
    static const uint8_t zeros[8] = {0};
    uint8_t frame[MCA_COMMON_EVT_NODEFILE_FRAME_BYTES];
    uint8_t entry[MCA_COMMON_EVT_NODEFILE_ENTRY_BYTES];
    struct iovec iov[3];
    size_t pad;
    int rc;

    memcpy(frame, MCA_COMMON_EVT_NODEFILE_FRAME, 4);
    wire_put32(frame + 4, (uint32_t) len);
    wire_put32(frame + 8, mca_common_evt_wire_crc32c(0, batch, len));
    wire_put32(frame + 12, mca_common_evt_wire_crc32c(0, frame, 12));
    pad = PAD8(len) - len;
    rc = make_room(f, sizeof(frame) + len + pad, !from_reserve);
    if (OPAL_SUCCESS != rc) {
        return rc;
    }
    iov[0].iov_base = frame;
    iov[0].iov_len = sizeof(frame);
    iov[1].iov_base = (void *) batch;
    iov[1].iov_len = len;
    iov[2].iov_base = (void *) zeros;
    iov[2].iov_len = pad;
    if (0 != write_all(f->fd, f->offset, iov, 0 < pad ? 3 : 2)) {
        seterr(f->error, sizeof(f->error), "%s: %s", f->path, strerror(errno));
        rc = ENOSPC == errno || EDQUOT == errno || EFBIG == errno ? OPAL_ERR_TEMP_OUT_OF_RESOURCE
                                                                  : OPAL_ERR_FILE_WRITE_FAILURE;
        /* keep the file ending at the last complete frame (this frees the
         * preallocated reserve too: take it again) */
        (void) ftruncate(f->fd, (off_t) f->offset);
        (void) make_room(f, 0, true);
        return rc;
    }
    wire_put64(entry, f->offset);
    wire_put32(entry + 8, (uint32_t) len);
    wire_put32(entry + 12, rank);
    wire_put64(entry + 16, seq);
    wire_put32(entry + 24, flags);
    wire_put32(entry + 28, mca_common_evt_wire_crc32c(0, entry, 28));
    iov[0].iov_base = entry;
    iov[0].iov_len = sizeof(entry);
    f->offset += sizeof(frame) + len + pad;
    /* the index only speeds up resynchronisation: a failed entry write
     * leaves the frames readable (a reader validates entries) */
    if (0
        != write_all(f->idx_fd, IDX_HEAD_BYTES + f->batches * MCA_COMMON_EVT_NODEFILE_ENTRY_BYTES,
                     iov, 1)) {
        seterr(f->error, sizeof(f->error), "%s.idx: %s", f->path, strerror(errno));
    }
    ++f->batches;
    return OPAL_SUCCESS;
}

int mca_common_evt_nodefile_append(mca_common_evt_nodefile_t *f, const void *batch, size_t len)
{
    mca_common_evt_wire_batch_t b;
    int rc;

    if (NULL == f || f->fd < 0 || NULL == batch) {
        return OPAL_ERR_BAD_PARAM;
    }
    rc = mca_common_evt_wire_decode(batch, len, &b);
    if (OPAL_SUCCESS != rc) {
        ++f->rejected;
        seterr(f->error, sizeof(f->error), "batch refused: %s",
               NULL == b.error ? "invalid" : b.error);
        return OPAL_ERR_OUT_OF_RESOURCE == rc ? rc : OPAL_ERR_BAD_PARAM;
    }
    rc = append_frame(f, batch, len, b.sender.rank, b.seq, b.flags, false);
    mca_common_evt_wire_batch_destruct(&b);
    return rc;
}

int mca_common_evt_nodefile_append_decoded(mca_common_evt_nodefile_t *f, const void *batch,
                                           size_t len, const mca_common_evt_wire_batch_t *decoded)
{
    if (NULL == f || f->fd < 0 || NULL == batch || NULL == decoded || NULL == decoded->storage
        || len < MCA_COMMON_EVT_WIRE_HEADER_BYTES) {
        return OPAL_ERR_BAD_PARAM;
    }
    return append_frame(f, batch, len, decoded->sender.rank, decoded->seq, decoded->flags, false);
}

int mca_common_evt_nodefile_append_reserved(mca_common_evt_nodefile_t *f, const void *batch,
                                            size_t len, const mca_common_evt_wire_batch_t *decoded)
{
    if (NULL == f || f->fd < 0 || NULL == batch || NULL == decoded || NULL == decoded->storage
        || len < MCA_COMMON_EVT_WIRE_HEADER_BYTES) {
        return OPAL_ERR_BAD_PARAM;
    }
    return append_frame(f, batch, len, decoded->sender.rank, decoded->seq, decoded->flags, true);
}

int mca_common_evt_nodefile_sync(mca_common_evt_nodefile_t *f)
{
    if (NULL == f || f->fd < 0) {
        return OPAL_ERR_BAD_PARAM;
    }
    if (0 != fdatasync(f->fd) || (f->idx_fd >= 0 && 0 != fdatasync(f->idx_fd))) {
        return OPAL_ERR_FILE_WRITE_FAILURE;
    }
    return OPAL_SUCCESS;
}

void mca_common_evt_nodefile_close(mca_common_evt_nodefile_t *f)
{
    if (NULL == f) {
        return;
    }
    if (f->fd >= 0) {
        (void) close(f->fd);
    }
    if (f->idx_fd >= 0) {
        (void) close(f->idx_fd);
    }
    f->fd = -1;
    f->idx_fd = -1;
}

void mca_common_evt_nodefile_remove(mca_common_evt_nodefile_t *f)
{
    char idx[sizeof(f->path) + 8];

    if (NULL == f || f->fd >= 0 || '\0' == f->path[0]) {
        return;
    }
    (void) snprintf(idx, sizeof(idx), "%s.idx", f->path);
    (void) unlink(f->path);
    (void) unlink(idx);
    f->path[0] = '\0';
}

/* ------------------------------------------------------------------------
 * Reading
 * ------------------------------------------------------------------------ */

/** Read-ahead window: frames are read through it, big ones directly. */
#define READ_WINDOW (1u << 20)

struct mca_common_evt_nodefile_rstate_t {
    int fd;
    int idx_fd; /**< -1: none (or not usable) */
    bool idx_checked;
    uint64_t size;    /**< file size at open (following: at the last look) */
    bool follow;      /**< the file may still grow (mca_common_evt_nodefile_reader_follow()) */
    uint64_t idx_at;  /**< following: index entries before it name frames behind the reader */
    uint64_t pos;     /**< offset of the next frame */
    uint8_t *win;     /**< read-ahead window */
    size_t win_cap;   /**< its size: READ_WINDOW, or the file's if smaller */
    uint64_t win_off; /**< file offset of win[0] */
    size_t win_len;
    uint8_t *big; /**< a frame larger than the window */
    size_t big_cap;
    /** Bytes of frame bodies whose CRC did not match (check_frame()). */
    uint64_t crc_failed;
    /** Of those, the ones resync() checked: bounded (RESYNC_CRC_SLACK). */
    uint64_t resync_crc;
    /** The index entry an earlier resync() took its frame from (0: none
     *  yet): the reader only moves forward, so each resync reads the index
     *  on from there, not from its start. */
    uint64_t resync_idx_at;
};

/* What resync() may spend on the checksums of candidates that are no frame,
 * over the reader's life: four times the file and this. A damaged file
 * spends almost nothing (a candidate needs the frame magic and a header
 * whose CRC matches); a crafted one, whose every 8-byte boundary is such a
 * header claiming a body to the end of the file, would cost the square of
 * its size. Past it, the rest of the file counts as damaged. */
#define RESYNC_CRC_SLACK ((uint64_t) MCA_COMMON_EVT_WIRE_MAX_BATCH)

/* pread until @p len bytes or the end of the file; returns bytes read or -1. */
static ssize_t read_at(int fd, void *buf, size_t len, uint64_t off)
{
    size_t got = 0;

    while (got < len) {
        ssize_t r = pread(fd, (char *) buf + got, len - got, (off_t) (off + got));
        if (r < 0) {
            if (EINTR == errno) {
                continue;
            }
            return -1;
        }
        if (0 == r) {
            break;
        }
        got += (size_t) r;
    }
    return (ssize_t) got;
}

/* Bytes [off, off + len) of the file; NULL when beyond its end (or on an
 * I/O error, *io set). */
static const uint8_t *fetch(struct mca_common_evt_nodefile_rstate_t *s, uint64_t off, size_t len,
                            bool *io)
{
    ssize_t r;

    if (off > s->size || len > s->size - off) {
        return NULL;
    }
    if (off >= s->win_off && off + len <= s->win_off + s->win_len) {
        return s->win + (off - s->win_off);
    }
    if (len <= s->win_cap) {
        r = read_at(s->fd, s->win, s->win_cap, off);
        if (r < 0) {
            *io = true;
            return NULL;
        }
        s->win_off = off;
        s->win_len = (size_t) r;
        return (size_t) r >= len ? s->win : NULL;
    }
    if (len > s->big_cap) {
        uint8_t *n = realloc(s->big, len);
        if (NULL == n) {
            *io = true;
            return NULL;
        }
        s->big = n;
        s->big_cap = len;
    }
    r = read_at(s->fd, s->big, len, off);
    if (r < 0) {
        *io = true;
        return NULL;
    }
    return (size_t) r == len ? s->big : NULL;
}

typedef enum { FRAME_OK, FRAME_END, FRAME_TRUNCATED, FRAME_BAD, FRAME_IO } frame_t;

/* Check the frame at @p off. */
static frame_t check_frame(struct mca_common_evt_nodefile_rstate_t *s, uint64_t off,
                           const uint8_t **batch, uint32_t *len)
{
    const uint8_t *h, *b;
    bool io = false;
    uint32_t n;

    if (off == s->size) {
        return FRAME_END;
    }
    h = fetch(s, off, MCA_COMMON_EVT_NODEFILE_FRAME_BYTES, &io);
    if (NULL == h) {
        return io ? FRAME_IO : FRAME_TRUNCATED;
    }
    if (0 != memcmp(h, MCA_COMMON_EVT_NODEFILE_FRAME, 4)
        || wire_get32(h + 12) != mca_common_evt_wire_crc32c(0, h, 12)) {
        return FRAME_BAD;
    }
    n = wire_get32(h + 4);
    if (n < MCA_COMMON_EVT_WIRE_HEADER_BYTES || n > MCA_COMMON_EVT_WIRE_MAX_BATCH) {
        return FRAME_BAD;
    }
    {
        uint32_t crc = wire_get32(h + 8);
        b = fetch(s, off + MCA_COMMON_EVT_NODEFILE_FRAME_BYTES, n, &io);
        if (NULL == b) {
            return io ? FRAME_IO : FRAME_TRUNCATED;
        }
        if (crc != mca_common_evt_wire_crc32c(0, b, n)) {
            s->crc_failed += n;
            return FRAME_BAD;
        }
    }
    *batch = b;
    *len = n;
    return FRAME_OK;
}

/* Open the index at first need; -1 when there is none or it is foreign. */
static void open_index(mca_common_evt_nodefile_reader_t *r, const char *path)
{
    struct mca_common_evt_nodefile_rstate_t *s = r->state;
    char ipath[4200];
    uint8_t h[IDX_HEAD_BYTES];

    s->idx_fd = -1;
    (void) snprintf(ipath, sizeof(ipath), "%s.idx", path);
    /* a reader may meet planted files: never block on a FIFO or follow a link */
    s->idx_fd = open(ipath, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    if (s->idx_fd < 0) {
        return;
    }
    if (IDX_HEAD_BYTES != read_at(s->idx_fd, h, sizeof(h), 0)
        || 0 != memcmp(h, MCA_COMMON_EVT_NODEFILE_IDX_MAGIC, 4)
        || MCA_COMMON_EVT_NODEFILE_VERSION != wire_get16(h + 4)
        || wire_get32(h + 12) != mca_common_evt_wire_crc32c(0, h, 12)) {
        (void) close(s->idx_fd);
        s->idx_fd = -1;
    }
}

/* Whether the index names an intact frame after @p off: the writer
 * appends a frame, then its entry, in order, so the bytes at @p off
 * belong to a frame written before it. Without that, bytes at the end
 * of a file that is still written may be a frame in progress. The entries
 * of frames the follower is past are not read again (s->idx_at): waiting
 * at the end of a long recording reads the newest entries, not the whole
 * index, at every look. */
static bool indexed_after(struct mca_common_evt_nodefile_rstate_t *s, uint64_t off, bool *io)
{
    uint8_t e[MCA_COMMON_EVT_NODEFILE_ENTRY_BYTES * 256];
    uint64_t at = s->idx_at;
    bool settled = true; /* every entry before the one looked at names a frame <= off */
    const uint8_t *b;
    uint32_t len;

    if (s->idx_fd < 0) {
        return false;
    }
    for (;;) {
        ssize_t got = read_at(s->idx_fd, e, sizeof(e), at);
        size_t whole;
        if (got <= 0) {
            *io = got < 0;
            return false;
        }
        whole = (size_t) got - (size_t) got % MCA_COMMON_EVT_NODEFILE_ENTRY_BYTES;
        for (size_t k = 0; k < whole; k += MCA_COMMON_EVT_NODEFILE_ENTRY_BYTES) {
            const uint8_t *x = e + k;
            uint64_t o = wire_get64(x);
            bool valid = wire_get32(x + 28) == mca_common_evt_wire_crc32c(0, x, 28);
            if (valid && o <= off) {
                if (settled) {
                    /* the follower is past it for good: not read again */
                    s->idx_at = at + k + MCA_COMMON_EVT_NODEFILE_ENTRY_BYTES;
                }
                continue;
            }
            /* an invalid entry may be one still being written */
            settled = false;
            if (valid && FRAME_OK == check_frame(s, o, &b, &len)) {
                return true;
            }
        }
        if ((size_t) got < sizeof(e)) {
            return false;
        }
        at += whole;
    }
}

/* Following: look at the file's size again; what grew is read afresh (the
 * read-ahead window may hold a tail read before it was written). */
static int refresh(mca_common_evt_nodefile_reader_t *r)
{
    struct mca_common_evt_nodefile_rstate_t *s = r->state;
    struct stat st;

    if (0 != fstat(s->fd, &st)) {
        seterr(r->error, sizeof(r->error), "fstat: %s", strerror(errno));
        return OPAL_ERR_FILE_READ_FAILURE;
    }
    if ((uint64_t) st.st_size != s->size) {
        s->size = (uint64_t) st.st_size;
        s->win_len = 0;
    }
    return OPAL_SUCCESS;
}

/* Whether resync() may check one more candidate (RESYNC_CRC_SLACK). */
static bool resync_may_check(const struct mca_common_evt_nodefile_rstate_t *s)
{
    return s->resync_crc <= 4 * s->size + RESYNC_CRC_SLACK;
}

/* check_frame() for resync(), its cost on a candidate that is no frame
 * counted against the bound. */
static frame_t resync_check(struct mca_common_evt_nodefile_rstate_t *s, uint64_t off,
                            const uint8_t **b, uint32_t *len)
{
    uint64_t before = s->crc_failed;
    frame_t what = check_frame(s, off, b, len);

    s->resync_crc += s->crc_failed - before;
    return what;
}

/* The first intact frame after @p bad. The index names a candidate (the
 * first entry after the damage whose frame is intact); the bytes between
 * the damage and it (or the end) are scanned on 8-byte boundaries for an
 * intact frame the index does not name (an entry lost or damaged too).
 * The checksums of candidates that are no frame are bounded over the
 * reader's life (RESYNC_CRC_SLACK): past the bound, the candidate the
 * index names (or the end) is taken. */
static uint64_t resync(mca_common_evt_nodefile_reader_t *r, uint64_t bad, bool *io)
{
    struct mca_common_evt_nodefile_rstate_t *s = r->state;
    uint64_t limit = s->size;
    bool from_index = false;
    const uint8_t *b;
    uint32_t len;

    if (s->idx_fd >= 0) {
        uint8_t e[MCA_COMMON_EVT_NODEFILE_ENTRY_BYTES * 256];
        uint64_t at = 0 == s->resync_idx_at ? IDX_HEAD_BYTES : s->resync_idx_at;
        while (!from_index && resync_may_check(s)) {
            ssize_t got = read_at(s->idx_fd, e, sizeof(e), at);
            if (got <= 0) {
                break;
            }
            for (ssize_t k = 0; k + MCA_COMMON_EVT_NODEFILE_ENTRY_BYTES <= got;
                 k += MCA_COMMON_EVT_NODEFILE_ENTRY_BYTES) {
                const uint8_t *x = e + k;
                uint64_t off = wire_get64(x);
                if (wire_get32(x + 28) != mca_common_evt_wire_crc32c(0, x, 28) || off <= bad
                    || off >= limit) {
                    continue;
                }
                if (!resync_may_check(s)) {
                    break;
                }
                if (FRAME_OK == resync_check(s, off, &b, &len)) {
                    limit = off;
                    from_index = true;
                    s->resync_idx_at = at + (uint64_t) k;
                    break;
                }
            }
            at += (uint64_t) got;
        }
    }
    for (uint64_t off = bad + 8;
         off + MCA_COMMON_EVT_NODEFILE_FRAME_BYTES <= limit && resync_may_check(s); off += 8) {
        const uint8_t *h = fetch(s, off, 4, io);
        if (NULL == h) {
            if (*io) {
                return s->size;
            }
            break;
        }
        if (0 == memcmp(h, MCA_COMMON_EVT_NODEFILE_FRAME, 4)
            && FRAME_OK == resync_check(s, off, &b, &len)) {
            return off;
        }
    }
    if (from_index) {
        r->stats.index_used = true;
    }
    return limit;
}

bool mca_common_evt_nodefile_is_nodefile(const char *path)
{
    uint8_t m[4];
    int fd;
    bool yes;

    if (NULL == path) {
        return false;
    }
    fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        return false;
    }
    yes = 4 == read_at(fd, m, 4, 0) && 0 == memcmp(m, MCA_COMMON_EVT_NODEFILE_MAGIC, 4);
    (void) close(fd);
    return yes;
}

int mca_common_evt_nodefile_reader_open(mca_common_evt_nodefile_reader_t *r, const char *path)
{
    struct mca_common_evt_nodefile_rstate_t *s;
    uint8_t head[FILE_HEAD_FIXED + MCA_COMMON_EVT_WIRE_HOST_MAX + 8];
    struct stat st;
    ssize_t got;
    size_t hlen, hl;
    int ret = OPAL_SUCCESS;

    if (NULL == r) {
        return OPAL_ERR_BAD_PARAM;
    }
    memset(r, 0, sizeof(*r));
    if (NULL == path) {
        seterr(r->error, sizeof(r->error), "no path");
        return OPAL_ERR_BAD_PARAM;
    }
    s = calloc(1, sizeof(*s));
    if (NULL == s) {
        seterr(r->error, sizeof(r->error), "%s: out of memory", path);
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    s->fd = -1;
    s->idx_fd = -1;
    r->state = s;
    /* O_NONBLOCK: a FIFO fails the check below instead of blocking here */
    s->fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    if (s->fd < 0) {
        seterr(r->error, sizeof(r->error), "%s: %s", path, strerror(errno));
        ret = ENOENT == errno ? OPAL_ERR_NOT_FOUND : OPAL_ERR_FILE_OPEN_FAILURE;
        goto cleanup;
    }
    if (0 != fstat(s->fd, &st) || !S_ISREG(st.st_mode)) {
        seterr(r->error, sizeof(r->error), "%s: not a regular file", path);
        ret = OPAL_ERR_FILE_OPEN_FAILURE;
        goto cleanup;
    }
    s->size = (uint64_t) st.st_size;
    got = read_at(s->fd, head, FILE_HEAD_FIXED, 0);
    if (got < 0) {
        seterr(r->error, sizeof(r->error), "%s: %s", path, strerror(errno));
        ret = OPAL_ERR_FILE_OPEN_FAILURE;
        goto cleanup;
    }
    if (got < 4 || 0 != memcmp(head, MCA_COMMON_EVT_NODEFILE_MAGIC, 4)) {
        seterr(r->error, sizeof(r->error), "%s: not an ompi-evt node file", path);
        ret = OPAL_ERR_UNPACK_FAILURE;
        goto cleanup;
    }
    if (got < FILE_HEAD_FIXED) {
        seterr(r->error, sizeof(r->error), "%s: node file header truncated", path);
        ret = OPAL_ERR_UNPACK_FAILURE;
        goto cleanup;
    }
    if (MCA_COMMON_EVT_NODEFILE_VERSION != wire_get16(head + 4)) {
        seterr(r->error, sizeof(r->error), "%s: node file version %u, this reader knows %d", path,
               wire_get16(head + 4), MCA_COMMON_EVT_NODEFILE_VERSION);
        ret = OPAL_ERR_UNPACK_FAILURE;
        goto cleanup;
    }
    hlen = wire_get16(head + 6);
    hl = wire_get16(head + 12);
    if (hl > MCA_COMMON_EVT_WIRE_HOST_MAX || hlen != PAD8(FILE_HEAD_FIXED + hl)
        || read_at(s->fd, head, hlen, 0) != (ssize_t) hlen) {
        seterr(r->error, sizeof(r->error), "%s: node file header damaged", path);
        ret = OPAL_ERR_UNPACK_FAILURE;
        goto cleanup;
    }
    {
        uint32_t crc = wire_get32(head + 8);
        wire_put32(head + 8, 0);
        if (crc != mca_common_evt_wire_crc32c(0, head, hlen)
            || !wire_text_ok(head + FILE_HEAD_FIXED, hl)) {
            seterr(r->error, sizeof(r->error), "%s: node file header damaged", path);
            ret = OPAL_ERR_UNPACK_FAILURE;
            goto cleanup;
        }
    }
    memcpy(r->host, head + FILE_HEAD_FIXED, hl);
    r->host[hl] = '\0';
    r->created_ns = (int64_t) wire_get64(head + 16);
    s->pos = hlen;
    s->win_cap = s->size < READ_WINDOW ? (size_t) s->size : READ_WINDOW;
    s->win = malloc(s->win_cap + 1);
    if (NULL == s->win) {
        seterr(r->error, sizeof(r->error), "%s: out of memory", path);
        ret = OPAL_ERR_OUT_OF_RESOURCE;
        goto cleanup;
    }
    open_index(r, path);
cleanup:
    if (OPAL_SUCCESS != ret) {
        char keep[sizeof(r->error)];
        memcpy(keep, r->error, sizeof(keep));
        mca_common_evt_nodefile_reader_close(r);
        memcpy(r->error, keep, sizeof(keep));
    }
    return ret;
}

int mca_common_evt_nodefile_reader_next(mca_common_evt_nodefile_reader_t *r, const void **batch,
                                        size_t *len, uint64_t *offset)
{
    struct mca_common_evt_nodefile_rstate_t *s;

    if (NULL == r || NULL == r->state || NULL == batch || NULL == len) {
        return OPAL_ERR_BAD_PARAM;
    }
    s = r->state;
    if (s->follow) {
        int rc = refresh(r);
        if (OPAL_SUCCESS != rc) {
            return rc;
        }
    }
    for (;;) {
        const uint8_t *b = NULL;
        uint32_t n = 0;
        bool io = false;
        uint64_t next;
        frame_t what = check_frame(s, s->pos, &b, &n);

        if (s->follow && FRAME_END == what) {
            return OPAL_ERR_WOULD_BLOCK; /* the end so far */
        }
        if (s->follow && (FRAME_TRUNCATED == what || FRAME_BAD == what)
            && !indexed_after(s, s->pos, &io)) {
            /* the end so far, or a frame the writer may still be writing */
            if (io) {
                seterr(r->error, sizeof(r->error), "index read error: %s", strerror(errno));
                return OPAL_ERR_FILE_READ_FAILURE;
            }
            return OPAL_ERR_WOULD_BLOCK;
        }
        switch (what) {
        case FRAME_OK:
            *batch = b;
            *len = n;
            if (NULL != offset) {
                *offset = s->pos;
            }
            s->pos += MCA_COMMON_EVT_NODEFILE_FRAME_BYTES + PAD8((size_t) n);
            if (s->pos > s->size && !s->follow) { /* padding cut off at the very end */
                s->pos = s->size;
            } /* following: the padding is still to come (one write carries the frame) */
            r->stats.frames++;
            return OPAL_SUCCESS;
        case FRAME_END:
            return OPAL_ERR_NOT_FOUND;
        case FRAME_IO:
            seterr(r->error, sizeof(r->error), "read error at offset %llu: %s",
                   (unsigned long long) s->pos, strerror(errno));
            return OPAL_ERR_FILE_READ_FAILURE;
        case FRAME_TRUNCATED:
        case FRAME_BAD:
        default:
            break;
        }
        /* damage at s->pos */
        next = resync(r, s->pos, &io);
        if (io) {
            seterr(r->error, sizeof(r->error), "read error after offset %llu: %s",
                   (unsigned long long) s->pos, strerror(errno));
            return OPAL_ERR_FILE_READ_FAILURE;
        }
        if (0 == r->stats.damaged) {
            (void) snprintf(r->error, sizeof(r->error),
                            "damaged frame at offset %llu (%llu bytes skipped%s)",
                            (unsigned long long) s->pos, (unsigned long long) (next - s->pos),
                            next == s->size ? ", to the end of the file" : "");
        }
        r->stats.damaged++;
        r->stats.skipped_bytes += next - s->pos;
        if (next == s->size) {
            r->stats.truncated = true;
        }
        s->pos = next;
    }
}

int mca_common_evt_nodefile_reader_follow(mca_common_evt_nodefile_reader_t *r)
{
    struct mca_common_evt_nodefile_rstate_t *s;

    if (NULL == r || NULL == r->state) {
        return OPAL_ERR_BAD_PARAM;
    }
    s = r->state;
    if (s->win_cap < READ_WINDOW) {
        uint8_t *w = realloc(s->win, READ_WINDOW + 1);
        if (NULL == w) {
            return OPAL_ERR_OUT_OF_RESOURCE;
        }
        s->win = w;
        s->win_cap = READ_WINDOW;
        s->win_len = 0;
    }
    s->follow = true;
    s->idx_at = IDX_HEAD_BYTES;
    return OPAL_SUCCESS;
}

void mca_common_evt_nodefile_reader_close(mca_common_evt_nodefile_reader_t *r)
{
    struct mca_common_evt_nodefile_rstate_t *s;

    if (NULL == r || NULL == r->state) {
        return;
    }
    s = r->state;
    if (s->fd >= 0) {
        (void) close(s->fd);
    }
    if (s->idx_fd >= 0) {
        (void) close(s->idx_fd);
    }
    free(s->win);
    free(s->big);
    free(s);
    r->state = NULL;
}
