/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Following a sink folder while the job writes it (ompi-evt-listen
 * --follow, ompi-evt-record --live): every node file (*.evt) in the folder,
 * new ones as they appear, read as it grows
 * (mca_common_evt_nodefile_reader_follow(): bytes at the end that are not
 * yet an intact frame are waited for, not reported damaged), each batch
 * decoded and counted per rank; and the live view of those counts.
 */

#include <dirent.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ompi/mca/common/evt/common_evt_nodefile.h"
#include "opal/constants.h"

#include "evt_listen.h"

/** A node file being followed. */
typedef struct {
    char *name;
    mca_common_evt_nodefile_reader_t reader;
    bool open; /**< its header was read (a file just created may not have it yet) */
} ffile_t;

/** What the view shows of a rank. */
typedef struct {
    char nspace[MCA_COMMON_EVT_WIRE_NSPACE_MAX + 1];
    uint32_t rank;
    char host[MCA_COMMON_EVT_WIRE_HOST_MAX + 1];
    uint64_t batches, events, drops, msgs, bytes;
    mca_common_evt_seqset_t seen;
    bool final;
    int64_t last_event_ns; /**< CLOCK_REALTIME of its latest record (its own clock) */
    char last_event[48];   /**< that record's event name (cut to fit) */
    /** at the previous view: for the rates */
    uint64_t events_then, msgs_then, bytes_then;
} frank_t;

struct listen_follow {
    char *dir;
    uint64_t expected; /**< ranks to wait for: given, or the jobs' sizes */
    bool expected_given;
    ffile_t *files;
    size_t nfiles;
    frank_t *ranks;
    size_t nranks;
    /** per namespace, the job size its initialization events reported */
    struct {
        char nspace[MCA_COMMON_EVT_WIRE_NSPACE_MAX + 1];
        uint64_t size;
    } * jobs;
    size_t njobs;
    uint64_t invalid, finals, batches, events, drops, msgs, bytes;
    uint64_t events_then, msgs_then, bytes_then;
    double started, then;
    unsigned lines_drawn;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

static int64_t realtime_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

listen_follow_t *listen_follow_new(const char *dir, uint64_t ranks)
{
    listen_follow_t *f = calloc(1, sizeof(*f));

    if (NULL == f || NULL == (f->dir = strdup(dir))) {
        free(f);
        return NULL;
    }
    f->expected = ranks;
    f->expected_given = 0 < ranks;
    f->started = f->then = now_s();
    return f;
}

static frank_t *rank_of(listen_follow_t *f, const mca_common_evt_wire_sender_t *s)
{
    frank_t *r;

    for (size_t i = 0; i < f->nranks; ++i) {
        if (f->ranks[i].rank == s->rank && 0 == strcmp(f->ranks[i].nspace, s->nspace)) {
            return &f->ranks[i];
        }
    }
    r = realloc(f->ranks, (f->nranks + 1) * sizeof(*r));
    if (NULL == r) {
        return NULL;
    }
    f->ranks = r;
    /* kept in (namespace, rank) order: the view lists them so */
    {
        size_t at = 0;
        while (
            at < f->nranks
            && (strcmp(f->ranks[at].nspace, s->nspace) < 0
                || (0 == strcmp(f->ranks[at].nspace, s->nspace) && f->ranks[at].rank < s->rank))) {
            ++at;
        }
        memmove(&f->ranks[at + 1], &f->ranks[at], (f->nranks - at) * sizeof(*r));
        f->nranks++;
        r = &f->ranks[at];
    }
    memset(r, 0, sizeof(*r));
    snprintf(r->nspace, sizeof(r->nspace), "%s", s->nspace);
    snprintf(r->host, sizeof(r->host), "%s", s->host);
    r->rank = s->rank;
    return r;
}

/** Note that @p nspace has @p size ranks (the largest size reported). */
static void job_size(listen_follow_t *f, const char *nspace, uint64_t size)
{
    size_t i;

    for (i = 0; i < f->njobs && 0 != strcmp(f->jobs[i].nspace, nspace); ++i) {
    }
    if (i == f->njobs) {
        void *j = realloc(f->jobs, (f->njobs + 1) * sizeof(*f->jobs));
        if (NULL == j) {
            return; /* the job's size stays unknown: the view waits for Ctrl-C */
        }
        f->jobs = j;
        snprintf(f->jobs[i].nspace, sizeof(f->jobs[i].nspace), "%s", nspace);
        f->jobs[i].size = 0;
        f->njobs++;
    }
    if (size > f->jobs[i].size) {
        f->jobs[i].size = size;
    }
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && 0 == strcmp(s + n - k, suffix);
}

/* The counts of one decoded batch. */
static int count_batch(listen_follow_t *f, const mca_common_evt_wire_batch_t *b)
{
    frank_t *r = rank_of(f, &b->sender);
    mca_common_evt_wire_record_t rec;
    size_t cursor = 0;
    /* per batch-local type: the element of a send's bytes, of the job size */
    int *bytes_at = calloc(b->num_types + 1, sizeof(int));
    int *size_at = calloc(b->num_types + 1, sizeof(int));

    if (NULL == r || NULL == bytes_at || NULL == size_at) {
        free(bytes_at);
        free(size_at);
        return -1;
    }
    for (uint32_t t = 0; t < b->num_types; ++t) {
        const mca_common_evt_wire_type_t *wt = &b->types[t];
        bytes_at[t] = ends_with(wt->name, "p2p_send_complete")
                          ? mca_common_evt_wire_element_find(wt, "bytes")
                          : -1;
        size_at[t] = 0 == strcmp(wt->name, "ompi.mpi.initialization")
                         ? mca_common_evt_wire_element_find(wt, "world_size")
                         : -1;
    }
    if (mca_common_evt_seqset_has(&r->seen, b->seq)) {
        free(bytes_at);
        free(size_at);
        return 0; /* a duplicate */
    }
    (void) mca_common_evt_seqset_add(&r->seen, b->seq);
    r->batches++;
    f->batches++;
    if (b->flags & MCA_COMMON_EVT_WIRE_FLAG_FINAL && !r->final) {
        r->final = true;
        f->finals++;
    }
    for (uint32_t d = 0; d < b->num_drops; ++d) {
        r->drops += b->drops[d].count;
        f->drops += b->drops[d].count;
    }
    while (mca_common_evt_wire_batch_next_record(b, &cursor, &rec)) {
        const mca_common_evt_wire_type_t *wt = &b->types[rec.type];
        const mca_common_evt_wire_clock_t *c = wt->source < b->num_clocks ? &b->clocks[wt->source]
                                                                          : NULL;
        mca_common_evt_wire_value_t v;

        r->events++;
        f->events++;
        if (NULL != c && 0 < c->ticks_per_second) {
            int64_t t = c->realtime_ns
                        + (int64_t) ((double) (rec.timestamp - c->source_ticks) * 1e9
                                     / (double) c->ticks_per_second);
            if (t >= r->last_event_ns) {
                r->last_event_ns = t;
                snprintf(r->last_event, sizeof(r->last_event), "%s", wt->name);
            }
        }
        if (0 <= bytes_at[rec.type]
            && OPAL_SUCCESS
                   == mca_common_evt_wire_element_value(wt, rec.payload,
                                                        (unsigned) bytes_at[rec.type], &v)) {
            r->msgs++;
            f->msgs++;
            r->bytes += (uint64_t) listen_value_i64(&v);
            f->bytes += (uint64_t) listen_value_i64(&v);
        }
        if (0 <= size_at[rec.type]
            && OPAL_SUCCESS
                   == mca_common_evt_wire_element_value(wt, rec.payload,
                                                        (unsigned) size_at[rec.type], &v)
            && 0 < listen_value_i64(&v)) {
            job_size(f, b->sender.nspace, (uint64_t) listen_value_i64(&v));
        }
    }
    free(bytes_at);
    free(size_at);
    return 0;
}

/* Add the node files that appeared in the folder. */
static int find_files(listen_follow_t *f)
{
    DIR *d = opendir(f->dir);
    struct dirent *de;

    if (NULL == d) {
        return 0; /* not there yet: the job creates it */
    }
    while (NULL != (de = readdir(d))) {
        size_t i;
        ffile_t *v;
        if (!ends_with(de->d_name, MCA_COMMON_EVT_NODEFILE_SUFFIX)) {
            continue;
        }
        for (i = 0; i < f->nfiles && 0 != strcmp(f->files[i].name, de->d_name); ++i) {
        }
        if (i < f->nfiles) {
            continue;
        }
        v = realloc(f->files, (f->nfiles + 1) * sizeof(*v));
        if (NULL == v) {
            closedir(d);
            return -1;
        }
        f->files = v;
        memset(&v[f->nfiles], 0, sizeof(v[0]));
        v[f->nfiles].name = strdup(de->d_name);
        if (NULL == v[f->nfiles].name) {
            closedir(d);
            return -1;
        }
        f->nfiles++;
    }
    closedir(d);
    return 0;
}

int listen_follow_poll(listen_follow_t *f)
{
    if (0 != find_files(f)) {
        return -1;
    }
    for (size_t i = 0; i < f->nfiles; ++i) {
        ffile_t *ff = &f->files[i];
        const void *buf;
        size_t len;
        int rc;

        if (!ff->open) {
            char path[4200];
            snprintf(path, sizeof(path), "%s/%s", f->dir, ff->name);
            if (OPAL_SUCCESS != mca_common_evt_nodefile_reader_open(&ff->reader, path)) {
                continue; /* its header is not written yet, or it is not ours: --read says */
            }
            if (OPAL_SUCCESS != mca_common_evt_nodefile_reader_follow(&ff->reader)) {
                mca_common_evt_nodefile_reader_close(&ff->reader);
                return -1;
            }
            ff->open = true;
        }
        while (OPAL_SUCCESS
               == (rc = mca_common_evt_nodefile_reader_next(&ff->reader, &buf, &len, NULL))) {
            mca_common_evt_wire_batch_t b;
            if (OPAL_SUCCESS != mca_common_evt_wire_decode(buf, len, &b)) {
                f->invalid++;
                continue;
            }
            rc = count_batch(f, &b);
            mca_common_evt_wire_batch_destruct(&b);
            if (0 != rc) {
                return -1;
            }
        }
        if (OPAL_ERR_WOULD_BLOCK != rc && OPAL_ERR_NOT_FOUND != rc) {
            return -1; /* an I/O error */
        }
    }
    if (!f->expected_given) {
        f->expected = 0;
        for (size_t j = 0; j < f->njobs; ++j) {
            f->expected += f->jobs[j].size;
        }
    }
    return 0;
}

bool listen_follow_done(const listen_follow_t *f)
{
    return 0 < f->expected && f->finals >= f->expected;
}

uint64_t listen_follow_events(const listen_follow_t *f)
{
    return f->events;
}

/* A byte rate as text. */
static const char *rate(double per_s, char *buf, size_t n)
{
    if (per_s >= 1e9) {
        snprintf(buf, n, "%.1f GB/s", per_s / 1e9);
    } else if (per_s >= 1e6) {
        snprintf(buf, n, "%.1f MB/s", per_s / 1e6);
    } else if (per_s >= 1e3) {
        snprintf(buf, n, "%.1f kB/s", per_s / 1e3);
    } else {
        snprintf(buf, n, "%.0f B/s", per_s);
    }
    return buf;
}

void listen_follow_view(listen_follow_t *f, FILE *out, bool tty)
{
    double now = now_s(), dt = now - f->then, up = now - f->started;
    int64_t rt = realtime_ns();
    uint64_t lost = 0, damaged = 0;
    char b1[32];

    if (dt <= 0) {
        dt = 1e-9;
    }
    for (size_t i = 0; i < f->nranks; ++i) {
        lost += mca_common_evt_seqset_gaps(&f->ranks[i].seen);
    }
    for (size_t i = 0; i < f->nfiles; ++i) {
        damaged += f->files[i].open ? f->files[i].reader.stats.damaged : 0;
    }
    if (!tty) {
        /* one plain line per interval */
        fprintf(out,
                "follow: %.1f s, ranks %zu of %" PRIu64 "%s, FINAL %" PRIu64 ", events %" PRIu64
                " (%.0f/s), drops %" PRIu64 ", batches lost %" PRIu64 ", damaged %" PRIu64
                ", p2p %" PRIu64 " messages (%.0f/s, %s)\n",
                up, f->nranks, f->expected, 0 == f->expected ? " (job size not known yet)" : "",
                f->finals, f->events, (double) (f->events - f->events_then) / dt, f->drops, lost,
                damaged, f->msgs, (double) (f->msgs - f->msgs_then) / dt,
                rate((double) (f->bytes - f->bytes_then) / dt, b1, sizeof(b1)));
    } else {
        /* like top: the cursor home, the screen cleared, the table */
        fprintf(out, "\033[H\033[2J");
        fprintf(out,
                "ompi-evt follow %s: %.1f s, ranks %zu of %" PRIu64 ", FINAL %" PRIu64
                ", events %" PRIu64 " (%.0f/s), drops %" PRIu64 ", batches lost %" PRIu64
                ", damaged %" PRIu64 "\n\n",
                f->dir, up, f->nranks, f->expected, f->finals, f->events,
                (double) (f->events - f->events_then) / dt, f->drops, lost, damaged);
        fprintf(out, "%6s %-16s %10s %9s %8s %6s %9s %11s %-7s %8s %s\n", "rank", "host", "events",
                "events/s", "drops", "lost", "msgs/s", "p2p bytes/s", "state", "last (s)",
                "last event");
        for (size_t i = 0; i < f->nranks; ++i) {
            frank_t *r = &f->ranks[i];
            double age = 0 < r->last_event_ns ? (double) (rt - r->last_event_ns) / 1e9 : -1;
            fprintf(out, "%6u %-16.16s %10" PRIu64 " %9.0f %8" PRIu64 " %6" PRIu64, r->rank,
                    r->host, r->events, (double) (r->events - r->events_then) / dt, r->drops,
                    mca_common_evt_seqset_gaps(&r->seen));
            fprintf(out, " %9.0f %11s %-7s", (double) (r->msgs - r->msgs_then) / dt,
                    rate((double) (r->bytes - r->bytes_then) / dt, b1, sizeof(b1)),
                    r->final ? "FINAL" : "running");
            if (age >= 0) {
                fprintf(out, " %8.1f %s\n", age, r->last_event);
            } else {
                fprintf(out, " %8s -\n", "-");
            }
        }
    }
    fflush(out);
    for (size_t i = 0; i < f->nranks; ++i) {
        f->ranks[i].events_then = f->ranks[i].events;
        f->ranks[i].msgs_then = f->ranks[i].msgs;
        f->ranks[i].bytes_then = f->ranks[i].bytes;
    }
    f->events_then = f->events;
    f->msgs_then = f->msgs;
    f->bytes_then = f->bytes;
    f->then = now;
}

void listen_follow_free(listen_follow_t *f)
{
    if (NULL == f) {
        return;
    }
    for (size_t i = 0; i < f->nfiles; ++i) {
        if (f->files[i].open) {
            mca_common_evt_nodefile_reader_close(&f->files[i].reader);
        }
        free(f->files[i].name);
    }
    for (size_t i = 0; i < f->nranks; ++i) {
        mca_common_evt_seqset_free(&f->ranks[i].seen);
    }
    free(f->files);
    free(f->ranks);
    free(f->jobs);
    free(f->dir);
    free(f);
}
