/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The consumer of ompi-evt-record's shared-memory transport (see
 * evt_record_spool.h for what it promises). One thread does everything
 * here: it scans the live folder, copies, and writes the images; the
 * recorder's main thread only starts it, reads its record count and, once
 * the job has ended, asks it to finish and joins it.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "evt_record_spool.h"
#include "ompi/mca/common/evt/common_evt_flight_format.h"
#include "ompi/mca/common/evt/common_evt_flight_write.h"

/* How often the folder is looked at for new files when nothing says one
 * appeared (a file is looked for as soon as inotify reports its name; the
 * periodic look covers an inotify that is missing or overflowed), and the
 * pause after each look at the rings. The pause is what the consumer
 * costs the ranks: a consumer that chases the producers (the next look as
 * soon as the last one copied something) takes a core from them, and on a
 * host whose cores all run ranks a rank loses it. A ring of 8 MiB holds
 * 25 ms of a thread raising 5 million events a second, many pauses; a
 * file found one periodic look late could already have wrapped (a short
 * latency loop such as NetPIPE's fills a ring in 50 ms). */
#ifndef SPOOL_SCAN_NS /* a test sets it beyond its own time-out */
#    define SPOOL_SCAN_NS (20 * 1000 * 1000)
#endif
#define SPOOL_NAP_NS (2 * 1000 * 1000)
/* The pause while a writer waits for us and this look found nothing new
 * (it is between two naps of its own), and how many such looks in a row
 * are made before the writer's count is taken for one a killed writer
 * left up (about a second). */
#define SPOOL_SHORT_NAP_NS   (100 * 1000)
#define SPOOL_IDLE_WAITS_MAX 10000
/* A ring is copied when this part of it waits beyond the newest part
 * (below), or at the writer's end: few large copies cost the ranks less
 * than many small ones. */
#define SPOOL_BACKLOG_SHIFT 3
/* The part of a ring behind the producer's tail left for a later look
 * (unless the writer has ended), as a shift of the capacity: the lines it
 * wrote last are still in its core's cache, and a copy that reads them
 * takes each from there, several times slower than from memory (measured:
 * the copy of the newest quarter of a ring ran at about 0.5 GB/s). */
#define SPOOL_HOT_SHIFT 3
/* The most of a ring one look copies, as a shift of the capacity: a pass
 * goes on to the other rings before it comes back for the rest (at once,
 * without its pause), so that copying one full ring (tens of ms with the
 * cores busy) does not leave another ring to wrap meanwhile. */
#define SPOOL_SLICE_SHIFT 2
#define SPOOL_MAX_RINGS 4096

typedef struct spool_ring {
    uint32_t cpos;      /* producer position copied up to */
    bool seen;          /* cpos set from the ring */
    uint64_t taken;     /* records copied and kept */
    uint64_t lost;      /* records never copied (known at the end) */
    uint64_t used;      /* bytes of records in the current image's ring */
    unsigned char *buf; /* a copy, when the producer overtook the direct one */
    size_t cap;
} spool_ring_t;

typedef struct spool_src {
    char name[NAME_MAX + 1];
    const unsigned char *map;
    size_t size;
    mca_common_evt_flight_header_t hdr; /* as validated when mapped */
    int out;                            /* the spool */
    uint64_t at;                        /* where the current image starts */
    uint32_t img_cap;                   /* ring capacity of every image */
    uint64_t img_rings;                 /* offset of the rings in an image */
    spool_ring_t *rings;
    bool done;
    bool damaged; /* a ring held a record that cannot be one: resynchronised */
    uint64_t lost;
    uint64_t waited_ns; /* the writer's progress calls waited for us (at its end) */
    uint32_t idle_waits; /* looks in a row that found a writer waiting and nothing new */
} spool_src_t;

struct record_spool {
    int live_dfd, out_dfd;
    int notify_fd; /* inotify on the live folder; -1: periodic looks only */
    int wake_fd;   /* eventfd: the end of the job wakes an idle nap; -1: short naps */
    pthread_t thread;
    atomic_bool stop;
    bool running;
    spool_src_t **srcs;
    size_t nsrcs, capsrcs;
    atomic_uint_fast64_t records;
    int64_t last_scan;
    int write_error; /* errno of the first failed write, 0: none */
    double cpu;      /* CPU seconds the thread used (when it has ended) */
    char write_what[NAME_MAX + 64];
};

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static uint32_t load32(const unsigned char *p)
{
    return __atomic_load_n((const uint32_t *) p, __ATOMIC_ACQUIRE);
}

static uint64_t load64(const unsigned char *p)
{
    return __atomic_load_n((const uint64_t *) p, __ATOMIC_ACQUIRE);
}

static const unsigned char *ring_ctl(const spool_src_t *s, uint32_t i)
{
    return s->map + s->hdr.rings_offset + (uint64_t) i * s->hdr.ring_stride;
}

/* Tell a writer that waits for us (evt_file_consumer_wait) how far ring
 * @p i is copied. The only stores into the writer's file: its own words
 * are never written. */
static void say_copied(const spool_src_t *s, uint32_t i, uint32_t pos)
{
    __atomic_store_n((uint32_t *) (ring_ctl(s, i) + MCA_COMMON_EVT_FLIGHT_CTL_CONSUMED), pos,
                     __ATOMIC_RELEASE);
}

/* ... and that we are alive (after each look at its rings). */
static void say_alive(const spool_src_t *s)
{
    __atomic_store_n((uint64_t *) (s->map + MCA_COMMON_EVT_FLIGHT_HDR_CONSUMER_BEAT),
                     (uint64_t) now_ns(), __ATOMIC_RELEASE);
}

/* ------------------------------------------------------------------------
 * Writing
 * ------------------------------------------------------------------------ */

static void write_failed(record_spool_t *sp, const spool_src_t *s, int err)
{
    if (0 == sp->write_error) {
        sp->write_error = 0 == err ? EIO : err;
        (void) snprintf(sp->write_what, sizeof(sp->write_what), "%s", s->name);
    }
}

static int put(record_spool_t *sp, spool_src_t *s, const void *buf, size_t len, uint64_t off)
{
    const unsigned char *p = buf;

    while (len > 0) {
        ssize_t w = pwrite(s->out, p, len, (off_t) off);
        if (w < 0 && EINTR == errno) {
            continue;
        }
        if (w <= 0) {
            write_failed(sp, s, w < 0 ? errno : ENOSPC);
            return -1;
        }
        p += w;
        len -= (size_t) w;
        off += (uint64_t) w;
    }
    return 0;
}

/* Where ring @p i's next bytes go in the current image. The layout of an
 * image is known before its records are: the header, the dictionary and
 * the drop counters have the writer's sizes, every ring the capacity
 * img_cap; only the number of rings is settled when the image closes. */
static uint64_t ring_data_at(const spool_src_t *s, uint32_t i)
{
    return s->at + s->img_rings + (uint64_t) i * (MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE + s->img_cap)
           + MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE + s->rings[i].used;
}

/* Close the current image around the records written into it (the last
 * one with the writer's end state, drops and losses); the next image
 * starts after it. */
static int write_image(record_spool_t *sp, spool_src_t *s, bool last)
{
    const mca_common_evt_flight_header_t *live = (const mca_common_evt_flight_header_t *) s->map;
    mca_common_evt_flight_header_t h = s->hdr;
    unsigned char page[MCA_COMMON_EVT_FLIGHT_HEADER_SIZE];
    uint64_t dict_used;
    int rc = 0;

    /* the rings no thread used during the image are left out at its end
     * (an image holds a prefix of the writer's rings) */
    h.ring_count = 1;
    for (uint32_t i = 0; i < s->hdr.ring_count; ++i) {
        if (0 < s->rings[i].used || (last && 0 < s->rings[i].lost)) {
            h.ring_count = i + 1;
        }
    }
    dict_used = load64((const unsigned char *) &live->dict_used);
    if (dict_used > s->hdr.dict_size) {
        dict_used = s->hdr.dict_size; /* the reader says what it makes of it */
    }
    h.ring_capacity = s->img_cap;
    h.ring_stride = MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE + s->img_cap;
    h.dict_offset = MCA_COMMON_EVT_FLIGHT_HEADER_SIZE;
    h.drops_offset = h.dict_offset + h.dict_size;
    h.rings_offset = s->img_rings;
    h.file_size = h.rings_offset + (uint64_t) h.ring_count * h.ring_stride;
    h.dict_used = dict_used;
    h.state = last ? load32((const unsigned char *) &live->state)
                   : MCA_COMMON_EVT_FLIGHT_STATE_OPEN;
    h.dict_refused = last ? load64((const unsigned char *) &live->dict_refused) : 0;
    h.drops_other = last ? load64((const unsigned char *) &live->drops_other) : 0;
    h.closed_ns = last ? (int64_t) load64((const unsigned char *) &live->closed_ns) : 0;
    mca_common_evt_flight_header_seal(&h);
    memset(page, 0, sizeof(page));
    memcpy(page, &h, sizeof(h));
    rc |= put(sp, s, page, sizeof(page), s->at);
    rc |= put(sp, s, s->map + s->hdr.dict_offset, dict_used, s->at + h.dict_offset);
    if (last) {
        rc |= put(sp, s, s->map + s->hdr.drops_offset, (size_t) s->hdr.drops_count * 8,
                  s->at + h.drops_offset);
    }
    for (uint32_t i = 0; i < h.ring_count; ++i) {
        spool_ring_t *r = &s->rings[i];
        unsigned char ctl[MCA_COMMON_EVT_FLIGHT_CTL_SIZE] = {0};
        uint64_t evicted = last ? r->lost : 0, mark = (uint64_t) (uint32_t) evicted << 32;
        uint32_t tail = (uint32_t) r->used;

        memcpy(ctl + MCA_COMMON_EVT_FLIGHT_CTL_TAIL, &tail, sizeof(tail));
        memcpy(ctl + MCA_COMMON_EVT_FLIGHT_CTL_EVICTED, &evicted, sizeof(evicted));
        memcpy(ctl + MCA_COMMON_EVT_FLIGHT_CTL_EVICT_MARK, &mark, sizeof(mark));
        rc |= put(sp, s, ctl, sizeof(ctl), s->at + h.rings_offset + (uint64_t) i * h.ring_stride);
    }
    for (uint32_t i = 0; i < s->hdr.ring_count; ++i) {
        s->rings[i].used = 0;
    }
    s->at += h.file_size;
    /* the last image ends where its header says, holes and all (the ones
     * before end where the next begins) */
    if (0 == rc && last && 0 != ftruncate(s->out, (off_t) s->at)) {
        write_failed(sp, s, errno);
        rc = -1;
    }
    return rc;
}

/* ------------------------------------------------------------------------
 * Reading the rings
 * ------------------------------------------------------------------------ */

static int reserve(spool_ring_t *r, size_t want)
{
    unsigned char *b;

    if (want <= r->cap) {
        return 0;
    }
    b = realloc(r->buf, want);
    if (NULL == b) {
        return -1;
    }
    r->buf = b;
    r->cap = want;
    return 0;
}

/* Is this a record the reader (common_evt_flight_read.c) accepts, starting
 * at data offset @p off and fitting in @p room bytes? A padding record ends
 * at the end of the data bytes; any other is a whole captured record. */
static bool header_fits(uint32_t size, uint32_t kind, uint32_t off, uint32_t capacity,
                        uint64_t room)
{
    if (size < MCA_COMMON_EVT_FLIGHT_RING_HDR_SIZE || 0 != size % MCA_COMMON_EVT_FLIGHT_ALIGN
        || size > room || size > capacity - off) {
        return false;
    }
    return MCA_COMMON_EVT_FLIGHT_KIND_SKIP == kind
               ? off + size == capacity
               : MCA_COMMON_EVT_FLIGHT_KIND_RECORD == kind
                     && size
                            >= MCA_COMMON_EVT_FLIGHT_RING_HDR_SIZE + MCA_COMMON_EVT_FLIGHT_REC_SIZE;
}

/* Write the records of ring @p i between r->cpos and @p tail straight from
 * the mapping into the image (the kernel's copy is the only one): runs of
 * records between the padding records, which are left out. @return false
 * when a header cannot be a record's (the producer overwrote them under
 * us: the caller tells from oldest). Records that start at @p stop or
 * later are left; @p end is set to where the writing stopped. */
static bool write_direct(record_spool_t *sp, spool_src_t *s, uint32_t i, uint32_t tail,
                         uint32_t stop, uint32_t *end, uint64_t *count)
{
    spool_ring_t *r = &s->rings[i];
    const unsigned char *data = ring_ctl(s, i) + MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE;
    uint32_t capacity = s->hdr.ring_capacity, mask = capacity - 1;
    uint32_t pos = r->cpos, run = pos, run_len = 0;

    while (pos != tail && pos - r->cpos < stop - r->cpos) {
        uint32_t off = pos & mask, size, kind;
        if (capacity - off < MCA_COMMON_EVT_FLIGHT_RING_HDR_SIZE) {
            return false;
        }
        memcpy(&size, data + off, sizeof(size));
        memcpy(&kind, data + off + 4, sizeof(kind));
        if (!header_fits(size, kind, off, capacity, (uint32_t) (tail - pos))) {
            return false;
        }
        if (MCA_COMMON_EVT_FLIGHT_KIND_SKIP == kind || (run & mask) + run_len != off) {
            if (0 < run_len) {
                (void) put(sp, s, data + (run & mask), run_len, ring_data_at(s, i));
                r->used += run_len;
            }
            run = pos;
            run_len = 0;
        }
        if (MCA_COMMON_EVT_FLIGHT_KIND_SKIP == kind) {
            run = pos + size;
        } else {
            run_len += size;
            ++*count;
        }
        pos += size;
    }
    if (0 < run_len) {
        (void) put(sp, s, data + (run & mask), run_len, ring_data_at(s, i));
        r->used += run_len;
    }
    *end = pos;
    return true;
}

/* The producer overtook the direct copy: copy what is left of
 * [@p from, @p tail) into memory first, keep what is still whole after the
 * copy (oldest read again), and write the records of that. */
static int write_copied(record_spool_t *sp, spool_src_t *s, uint32_t i, uint32_t from,
                        uint32_t tail, uint64_t *count)
{
    spool_ring_t *r = &s->rings[i];
    const unsigned char *ctl = ring_ctl(s, i);
    const unsigned char *data = ctl + MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE;
    uint32_t capacity = s->hdr.ring_capacity, mask = capacity - 1;
    uint32_t n = tail - from, off = from & mask, first, oldest, cut;
    size_t rd, w = 0;

    if (n > capacity || 0 != reserve(r, n ? n : 1)) {
        return n > capacity ? 0 : -1;
    }
    first = capacity - off < n ? capacity - off : n;
    memcpy(r->buf, data + off, first);
    memcpy(r->buf + first, data, n - first);
    /* the producer moves oldest before it reuses bytes: what lies before
     * the oldest read after the copy may be torn */
    atomic_thread_fence(memory_order_acquire);
    oldest = __atomic_load_n((const uint32_t *) (ctl + MCA_COMMON_EVT_FLIGHT_CTL_OLDEST),
                             __ATOMIC_RELAXED);
    cut = (int32_t) (oldest - from) > 0 ? oldest - from : 0;
    for (rd = cut < n ? cut : n; rd < n;) {
        uint32_t size, kind;
        if (n - rd < MCA_COMMON_EVT_FLIGHT_RING_HDR_SIZE) {
            s->damaged = true;
            break;
        }
        memcpy(&size, r->buf + rd, sizeof(size));
        memcpy(&kind, r->buf + rd + 4, sizeof(kind));
        if (!header_fits(size, kind, (uint32_t) (from + rd) & mask, capacity, n - rd)) {
            s->damaged = true;
            break;
        }
        if (MCA_COMMON_EVT_FLIGHT_KIND_SKIP != kind) {
            if (w != rd) {
                memmove(r->buf + w, r->buf + rd, size);
            }
            w += size;
            ++*count;
        }
        rd += size;
    }
    if (0 < w) {
        (void) put(sp, s, r->buf, w, ring_data_at(s, i));
        r->used += w;
    }
    return 0;
}

/* Copy what ring @p i committed since the last look, if that is a good
 * part of the ring or @p all; unless @p all, a slice of it at most, and
 * @p more is set when a good part is still waiting after it. Records the
 * producer overwrote before we came are lost (counted at the end).
 * @return -1 out of memory, else 0. */
static int take_ring(record_spool_t *sp, spool_src_t *s, uint32_t i, bool all, bool *more)
{
    spool_ring_t *r = &s->rings[i];
    const unsigned char *ctl = ring_ctl(s, i);
    uint32_t capacity = s->hdr.ring_capacity, tail, oldest, n, stop, end;
    uint64_t start = r->used, count = 0;
    bool whole;

    tail = load32(ctl + MCA_COMMON_EVT_FLIGHT_CTL_TAIL);
    oldest = load32(ctl + MCA_COMMON_EVT_FLIGHT_CTL_OLDEST);
    if (!r->seen) {
        r->cpos = oldest;
        r->seen = true;
    }
    if (0 != (tail | oldest) % MCA_COMMON_EVT_FLIGHT_ALIGN) {
        s->damaged = true; /* not the writer's positions */
        return 0;
    }
    if ((int32_t) (oldest - r->cpos) > 0 || tail - r->cpos > capacity) {
        r->cpos = oldest; /* a position that ran away is taken from oldest */
    }
    n = tail - r->cpos;
    if (0 == n || n > capacity
        || (!all && n < (capacity >> SPOOL_BACKLOG_SHIFT) + (capacity >> SPOOL_HOT_SHIFT))) {
        return 0;
    }
    stop = all ? tail : tail - (capacity >> SPOOL_HOT_SHIFT);
    if (!all && stop - r->cpos > (capacity >> SPOOL_SLICE_SHIFT)) {
        stop = r->cpos + (capacity >> SPOOL_SLICE_SHIFT);
        *more = true;
    }
    if (r->used + n > s->img_cap) {
        (void) write_image(sp, s, false);
        start = 0;
    }
    whole = write_direct(sp, s, i, tail, stop, &end, &count);
    atomic_thread_fence(memory_order_acquire);
    oldest = __atomic_load_n((const uint32_t *) (ctl + MCA_COMMON_EVT_FLIGHT_CTL_OLDEST),
                             __ATOMIC_RELAXED);
    if (!whole || (int32_t) (oldest - r->cpos) > 0) {
        /* written over while we wrote it: what we wrote is replaced */
        r->used = start;
        count = 0;
        if (0
            != write_copied(sp, s, i, (int32_t) (oldest - r->cpos) > 0 ? oldest : r->cpos, tail,
                            &count)) {
            return -1;
        }
        end = tail;
    }
    r->taken += count;
    r->cpos = end;
    return 0;
}

/* Records still in ring @p i and those it evicted: every record the
 * writer committed. The writer has finished or died: nothing moves. The
 * evicted count is made to agree with oldest as the flight reader does
 * (common_evt_flight_format.h). @return false when the ring's positions
 * or records are damaged (the count is then a lower bound). */
static bool ring_committed(const spool_src_t *s, uint32_t i, uint64_t *total)
{
    const unsigned char *ctl = ring_ctl(s, i);
    const unsigned char *data = ctl + MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE;
    uint32_t tail = load32(ctl + MCA_COMMON_EVT_FLIGHT_CTL_TAIL);
    uint32_t oldest = load32(ctl + MCA_COMMON_EVT_FLIGHT_CTL_OLDEST);
    uint64_t evicted = load64(ctl + MCA_COMMON_EVT_FLIGHT_CTL_EVICTED);
    uint64_t mark = load64(ctl + MCA_COMMON_EVT_FLIGHT_CTL_EVICT_MARK);
    uint32_t mark_pos = (uint32_t) mark, mark_cnt = (uint32_t) (mark >> 32);
    uint32_t mask = s->hdr.ring_capacity - 1;
    uint64_t in_ring = 0;

    if (mark_pos != oldest && (uint32_t) (tail - mark_pos) <= (uint32_t) (tail - oldest)) {
        oldest = mark_pos;
    }
    if ((uint32_t) evicted != mark_cnt && mark_pos == oldest) {
        evicted -= (uint32_t) ((uint32_t) evicted - mark_cnt);
    }
    *total = evicted;
    if ((uint32_t) (tail - oldest) > s->hdr.ring_capacity) {
        return false;
    }
    for (uint32_t pos = oldest; pos != tail;) {
        uint32_t size, kind, off = pos & mask;
        if (s->hdr.ring_capacity - off < MCA_COMMON_EVT_FLIGHT_RING_HDR_SIZE) {
            return false;
        }
        memcpy(&size, data + off, sizeof(size));
        memcpy(&kind, data + off + 4, sizeof(kind));
        if (!header_fits(size, kind, off, s->hdr.ring_capacity, (uint32_t) (tail - pos))) {
            *total += in_ring;
            return false;
        }
        in_ring += MCA_COMMON_EVT_FLIGHT_KIND_SKIP != kind;
        pos += size;
    }
    *total += in_ring;
    return true;
}

/* The writer finished (or the job ended): the last records, the losses,
 * the last image. */
static void finish_src(record_spool_t *sp, spool_src_t *s)
{
    for (uint32_t i = 0; i < s->hdr.ring_count; ++i) {
        spool_ring_t *r = &s->rings[i];
        uint64_t total = 0;

        if (!ring_committed(s, i, &total)) {
            s->damaged = true;
        }
        r->lost = total > r->taken ? total - r->taken : 0;
        s->lost += r->lost;
    }
    s->waited_ns = load64(s->map + MCA_COMMON_EVT_FLIGHT_HDR_CONSUMER_WAITED);
    (void) write_image(sp, s, true);
    (void) close(s->out);
    s->out = -1;
    (void) munmap((void *) s->map, s->size);
    s->map = NULL;
    s->done = true;
}

/* ------------------------------------------------------------------------
 * Finding the files
 * ------------------------------------------------------------------------ */

/* A file as the writer published it: its header is whole and sealed
 * before the rename that gives it its name, and the layout fits the file. */
static bool header_usable(const mca_common_evt_flight_header_t *h, size_t size)
{
    return 0 == memcmp(h->magic, MCA_COMMON_EVT_FLIGHT_MAGIC, sizeof(h->magic))
           && MCA_COMMON_EVT_FLIGHT_VERSION == h->version
           && MCA_COMMON_EVT_FLIGHT_ENDIAN == h->endian
           && h->header_crc == mca_common_evt_flight_header_crc(h)
           && MCA_COMMON_EVT_FLIGHT_HEADER_SIZE == h->header_size && h->file_size == size
           && 0 < h->ring_count && SPOOL_MAX_RINGS >= h->ring_count && 64 <= h->ring_capacity
           && 0 == (h->ring_capacity & (h->ring_capacity - 1))
           && (uint64_t) MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE + h->ring_capacity == h->ring_stride
           && h->dict_offset >= h->header_size && h->dict_size <= size
           && h->dict_offset <= size - h->dict_size && h->drops_offset <= size
           && h->drops_count <= (size - h->drops_offset) / 8 && h->rings_offset <= size
           && (uint64_t) h->ring_count * h->ring_stride <= size - h->rings_offset;
}

static int add_src(record_spool_t *sp, spool_src_t *s)
{
    if (sp->nsrcs == sp->capsrcs) {
        size_t n = sp->capsrcs ? 2 * sp->capsrcs : 16;
        spool_src_t **a = realloc(sp->srcs, n * sizeof(*a));
        if (NULL == a) {
            return -1;
        }
        sp->srcs = a;
        sp->capsrcs = n;
    }
    sp->srcs[sp->nsrcs++] = s;
    return 0;
}

/* Map @p name, check it, make its spool, unlink it. @return false when it
 * is not (yet) usable: it stays for a later look. */
static bool open_src(record_spool_t *sp, const char *name)
{
    spool_src_t *s;
    struct stat st;
    void *map;
    /* writable: the position copied and our heartbeat (say_copied()) */
    int fd = openat(sp->live_dfd, name, O_RDWR | O_NOFOLLOW | O_CLOEXEC);

    if (fd < 0) {
        return false;
    }
    if (0 != fstat(fd, &st) || !S_ISREG(st.st_mode)
        || (size_t) st.st_size < sizeof(mca_common_evt_flight_header_t)) {
        (void) close(fd);
        return false;
    }
    /* Not populated: in /dev/shm a page the rank has not written yet is a
     * hole, which MAP_POPULATE would fill with a zeroed page of our own
     * (its rings nobody claims: 24 of 33 MiB by default, 20 ms of our CPU
     * a rank on two busy cores). A ring is read as it fills, a fault per
     * 16 pages (the kernel maps the pages around a fault). */
    map = mmap(NULL, (size_t) st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    (void) close(fd);
    if (MAP_FAILED == map) {
        return false;
    }
    s = calloc(1, sizeof(*s));
    if (NULL == s) {
        (void) munmap(map, (size_t) st.st_size);
        return false;
    }
    s->map = map;
    s->size = (size_t) st.st_size;
    s->out = -1;
    memcpy(&s->hdr, map, sizeof(s->hdr));
    (void) snprintf(s->name, sizeof(s->name), "%s", name);
    if (!header_usable(&s->hdr, s->size)
        || NULL == (s->rings = calloc(s->hdr.ring_count, sizeof(*s->rings)))) {
        (void) munmap(map, s->size);
        free(s);
        return false;
    }
    s->img_cap = s->hdr.ring_capacity > RECORD_SPOOL_IMAGE_BYTES ? s->hdr.ring_capacity
                                                                 : RECORD_SPOOL_IMAGE_BYTES;
    s->img_rings = (MCA_COMMON_EVT_FLIGHT_HEADER_SIZE + s->hdr.dict_size
                    + (uint64_t) s->hdr.drops_count * 8 + 4095)
                   & ~(uint64_t) 4095;
    s->out = openat(sp->out_dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (s->out < 0 || 0 != add_src(sp, s)) {
        write_failed(sp, s, s->out < 0 ? errno : ENOMEM);
        if (s->out >= 0) {
            (void) close(s->out);
        }
        (void) munmap(map, s->size);
        free(s->rings);
        free(s);
        (void) unlinkat(sp->live_dfd, name, 0); /* said at the end; not looked at again */
        return false;
    }
    /* the mapping holds the memory until the rank and we let go */
    (void) unlinkat(sp->live_dfd, name, 0);
    return true;
}

static void scan(record_spool_t *sp)
{
    int dfd = dup(sp->live_dfd);
    DIR *d;
    struct dirent *de;
    static const char suffix[] = MCA_COMMON_EVT_FLIGHT_SUFFIX;

    if (dfd < 0) {
        return;
    }
    d = fdopendir(dfd);
    if (NULL == d) {
        (void) close(dfd);
        return;
    }
    rewinddir(d);
    while (NULL != (de = readdir(d))) {
        size_t n = strlen(de->d_name);
        /* "." files are the writers' unpublished ones */
        if ('.' != de->d_name[0] && n > sizeof(suffix) - 1
            && 0 == strcmp(de->d_name + n - (sizeof(suffix) - 1), suffix)) {
            (void) open_src(sp, de->d_name);
        }
    }
    closedir(d);
}

/* What a look leaves for the next one. */
typedef enum { LOOK_AFTER_PAUSE, LOOK_SOON, LOOK_NOW } next_look_t;

/* One look at every file. @return LOOK_NOW when a ring still has a good
 * part waiting (it was copied a slice only) or a writer waits for us and
 * this look copied some of its records, LOOK_SOON when a writer waits and
 * this look found nothing new. */
static next_look_t pass(record_spool_t *sp, bool last)
{
    bool more = false, soon = false;

    for (size_t k = 0; k < sp->nsrcs; ++k) {
        spool_src_t *s = sp->srcs[k];
        uint64_t before = 0, after = 0;
        bool closed;

        if (s->done) {
            continue;
        }
        /* the state first: a writer seen closed has committed everything
         * the copy below takes */
        closed = MCA_COMMON_EVT_FLIGHT_STATE_CLOSED
                 == load32(
                     (const unsigned char *) &((const mca_common_evt_flight_header_t *) s->map)
                         ->state);
        for (uint32_t i = 0; i < s->hdr.ring_count; ++i) {
            before += s->rings[i].taken;
        }
        for (uint32_t i = 0; i < s->hdr.ring_count; ++i) {
            if (0 != take_ring(sp, s, i, closed || last, &more)) {
                write_failed(sp, s, ENOMEM);
            }
            if (s->rings[i].seen) {
                say_copied(s, i, s->rings[i].cpos);
            }
        }
        say_alive(s);
        for (uint32_t i = 0; i < s->hdr.ring_count; ++i) {
            after += s->rings[i].taken;
        }
        /* a writer waiting for the copy: no pause before the next look when
         * this one copied something, a short one otherwise; a writer killed
         * while it waited leaves its count up, and is not believed after
         * SPOOL_IDLE_WAITS_MAX looks that found nothing */
        if (0 == load32(s->map + MCA_COMMON_EVT_FLIGHT_HDR_WRITERS_WAITING)) {
            s->idle_waits = 0;
        } else if (after > before) {
            more = true;
            s->idle_waits = 0;
        } else if (s->idle_waits < SPOOL_IDLE_WAITS_MAX) {
            ++s->idle_waits;
            soon = true;
        }
        atomic_fetch_add_explicit(&sp->records, after - before, memory_order_relaxed);
        if (closed || last) {
            finish_src(sp, s);
        }
    }
    return more ? LOOK_NOW : soon ? LOOK_SOON : LOOK_AFTER_PAUSE;
}

/* Wait up to the pause for a name to appear in the live folder. @return
 * true when one did (or inotify lost count): the folder is to be looked at
 * now. */
static bool nap(record_spool_t *sp)
{
    struct timespec pause = {0, SPOOL_NAP_NS};
    struct pollfd pfd[2] = {{.fd = sp->notify_fd, .events = POLLIN},
                            {.fd = sp->wake_fd, .events = POLLIN}};
    bool appeared = false, live = sp->wake_fd < 0;

    if (sp->notify_fd < 0) {
        (void) nanosleep(&pause, NULL);
        return false;
    }
    for (size_t k = 0; k < sp->nsrcs && !live; ++k) {
        live = !sp->srcs[k]->done;
    }
    /* No ring to look at (a job recording through pmix, or no rank
     * started yet): inotify wakes us for the first file and the end of
     * the job through wake_fd, so sleep until the periodic look instead
     * of waking 500 times a second on a host whose cores run ranks. */
    if (0 >= poll(pfd, 2, (live ? SPOOL_NAP_NS : SPOOL_SCAN_NS) / 1000000)
        || 0 == (pfd[0].revents & POLLIN)) {
        return false;
    }
    for (;;) {
        /* the events are only a wake-up: the look at the folder finds the
         * names (and IN_Q_OVERFLOW asks for that look too) */
        char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
        ssize_t n = read(sp->notify_fd, buf, sizeof(buf));
        if (n <= 0) {
            return appeared;
        }
        appeared = true;
    }
}

static void *spool_thread(void *arg)
{
    record_spool_t *sp = arg;

    bool look = true;

    while (!atomic_load_explicit(&sp->stop, memory_order_acquire)) {
        int64_t t = now_ns();
        if (look || t - sp->last_scan >= SPOOL_SCAN_NS) {
            scan(sp);
            sp->last_scan = t;
        }
        /* a ring copied a slice only is come back to at once */
        switch (pass(sp, false)) {
        case LOOK_NOW:
            look = false;
            break;
        case LOOK_SOON: {
            struct timespec pause = {0, SPOOL_SHORT_NAP_NS};
            (void) nanosleep(&pause, NULL);
            look = false;
            break;
        }
        default:
            look = nap(sp);
        }
    }
    /* the job has ended: every file that will ever be there is there */
    scan(sp);
    pass(sp, true);
    struct timespec cpu;
    if (0 == clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu)) {
        sp->cpu = (double) cpu.tv_sec + (double) cpu.tv_nsec * 1e-9;
    }
    return NULL;
}

/* ------------------------------------------------------------------------
 * The recorder's side
 * ------------------------------------------------------------------------ */

record_spool_t *record_spool_start(const char *live_dir, const char *out_dir, char *err,
                                   size_t errlen)
{
    record_spool_t *sp = calloc(1, sizeof(*sp));
    int rc;

    if (NULL == sp) {
        (void) snprintf(err, errlen, "out of memory");
        return NULL;
    }
    sp->live_dfd = sp->out_dfd = sp->notify_fd = sp->wake_fd = -1;
    sp->live_dfd = open(live_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    sp->out_dfd = open(out_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (sp->live_dfd < 0 || sp->out_dfd < 0) {
        (void) snprintf(err, errlen, "cannot open %s: %s", sp->live_dfd < 0 ? live_dir : out_dir,
                        strerror(errno));
        record_spool_free(sp);
        return NULL;
    }
    /* without inotify (no instances left, an old kernel) the periodic look
     * still finds every file, later */
    sp->notify_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (sp->notify_fd >= 0
        && 0 > inotify_add_watch(sp->notify_fd, live_dir,
                                 IN_CREATE | IN_MOVED_TO | IN_ONLYDIR | IN_DONT_FOLLOW)) {
        (void) close(sp->notify_fd);
        sp->notify_fd = -1;
    }
    sp->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    atomic_init(&sp->stop, false);
    atomic_init(&sp->records, 0);
    rc = pthread_create(&sp->thread, NULL, spool_thread, sp);
    if (0 != rc) {
        (void) snprintf(err, errlen, "cannot start the consumer thread: %s", strerror(rc));
        record_spool_free(sp);
        return NULL;
    }
    sp->running = true;
    return sp;
}

uint64_t record_spool_records(const record_spool_t *sp)
{
    return atomic_load_explicit(&((record_spool_t *) sp)->records, memory_order_relaxed);
}

static int cmp_src(const void *x, const void *y)
{
    const spool_src_t *a = *(spool_src_t *const *) x, *b = *(spool_src_t *const *) y;
    int c = strncmp(a->hdr.job, b->hdr.job, sizeof(a->hdr.job));
    return 0 != c ? c : (a->hdr.rank > b->hdr.rank) - (a->hdr.rank < b->hdr.rank);
}

/* Ranks of a job (its world size known) without a file here: they ran on
 * another host, or never reached MPI_Init. */
static bool say_missing(record_spool_t *sp, FILE *msgs)
{
    bool missing = false;

    if (0 == sp->nsrcs) {
        return false; /* no array to sort (a job that recorded through pmix) */
    }
    qsort(sp->srcs, sp->nsrcs, sizeof(*sp->srcs), cmp_src);
    for (size_t k = 0; k < sp->nsrcs;) {
        size_t end = k;
        int32_t size = sp->srcs[k]->hdr.world_size, expect = 0, nmiss = 0;

        while (end < sp->nsrcs
               && 0
                      == strncmp(sp->srcs[end]->hdr.job, sp->srcs[k]->hdr.job,
                                 sizeof(sp->srcs[k]->hdr.job))) {
            ++end;
        }
        for (size_t j = k; j < end && 0 < size; ++j) {
            int32_t rank = sp->srcs[j]->hdr.rank;
            if (rank >= expect) {
                nmiss += rank - expect;
                expect = rank + 1;
            }
        }
        if (0 < size && expect < size) {
            nmiss += size - expect;
        }
        if (0 < nmiss) {
            missing = true;
            if (NULL != msgs) {
                fprintf(msgs,
                        "ompi-evt-record: %d of the %d ranks of job %.64s left no recording on "
                        "this host: they ran on other nodes (whose shared memory this "
                        "transport cannot read: record with --transport pmix) or never "
                        "reached MPI_Init\n",
                        nmiss, size, sp->srcs[k]->hdr.job);
            }
        }
        k = end;
    }
    return missing;
}

int record_spool_finish(record_spool_t *sp, FILE *msgs)
{
    uint64_t lost = 0;
    int rc = 0;

    if (sp->running) {
        atomic_store_explicit(&sp->stop, true, memory_order_release);
        if (sp->wake_fd >= 0) {
            uint64_t one = 1;
            (void) write(sp->wake_fd, &one, sizeof(one)); /* ends an idle nap */
        }
        (void) pthread_join(sp->thread, NULL);
        sp->running = false;
    }
    if (0 != sp->write_error && NULL != msgs) {
        /* first: what follows (records lost, ranks missing) may be its
         * consequence */
        fprintf(msgs,
                "ompi-evt-record: cannot write the recording of %s: %s; the recording is "
                "incomplete (records copied after the failure were not kept)\n",
                sp->write_what, strerror(sp->write_error));
    }
    for (size_t k = 0; k < sp->nsrcs; ++k) {
        const spool_src_t *s = sp->srcs[k];
        lost += s->lost;
        if (s->damaged && NULL != msgs) {
            fprintf(msgs,
                    "ompi-evt-record: %s: a ring held bytes that are not a record (the rank "
                    "wrote outside its rings?); what followed them in that look was not kept\n",
                    s->name);
        }
        if (0 < s->lost && NULL != msgs) {
            fprintf(msgs,
                    "ompi-evt-record: rank %d (%s): %llu records were overwritten in its rings "
                    "before they could be copied (counted as lost)\n",
                    (int) s->hdr.rank, s->name, (unsigned long long) s->lost);
        }
    }
    if (0 < lost && 0 == sp->write_error && NULL != msgs) {
        /* (after a failed write the copy is not what kept pace) */
        fprintf(msgs, "ompi-evt-record: the ranks raised faster than their rings could be copied "
                      "(between two progress calls, or with --no-wait): a larger --buffer holds "
                      "longer bursts\n");
    }
    for (size_t k = 0; k < sp->nsrcs; ++k) {
        if (sp->srcs[k]->damaged) {
            rc = 1; /* what followed the damage is neither copied nor counted */
        }
    }
    if (0 < lost || say_missing(sp, msgs)) {
        rc = 1;
    }
    if (0 != sp->write_error) {
        rc = -1;
    }
    return rc;
}

double record_spool_cpu(const record_spool_t *sp)
{
    return sp->cpu;
}

int record_spool_count(const record_spool_t *sp)
{
    return (int) sp->nsrcs;
}

double record_spool_waited(const record_spool_t *sp)
{
    uint64_t ns = 0;

    for (size_t k = 0; k < sp->nsrcs; ++k) {
        ns += sp->srcs[k]->waited_ns;
    }
    return (double) ns * 1e-9;
}

void record_spool_free(record_spool_t *sp)
{
    if (NULL == sp) {
        return;
    }
    if (sp->running) {
        (void) record_spool_finish(sp, NULL);
    }
    for (size_t k = 0; k < sp->nsrcs; ++k) {
        spool_src_t *s = sp->srcs[k];
        if (NULL != s->map) {
            (void) munmap((void *) s->map, s->size);
        }
        if (s->out >= 0) {
            (void) close(s->out);
        }
        for (uint32_t i = 0; i < s->hdr.ring_count; ++i) {
            free(s->rings[i].buf);
        }
        free(s->rings);
        free(s);
    }
    free(sp->srcs);
    if (sp->live_dfd >= 0) {
        (void) close(sp->live_dfd);
    }
    if (sp->out_dfd >= 0) {
        (void) close(sp->out_dfd);
    }
    if (sp->notify_fd >= 0) {
        (void) close(sp->notify_fd);
    }
    if (sp->wake_fd >= 0) {
        (void) close(sp->wake_fd);
    }
    free(sp);
}
