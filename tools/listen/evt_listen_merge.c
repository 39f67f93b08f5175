/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The two passes of ompi-evt-listen --read.
 *
 * Pass 1 (listen_scan_run) reads every file once and fills the registry:
 * processes, types, sequence numbers, drops, clock pairs and offsets, so
 * the time mapping is fixed before the first event is written.
 *
 * Pass 2 (listen_merge_run) reads all files side by side and merges their
 * records by job time in a bounded reorder window: a min-heap of the
 * records read but not yet written (as runs, below). Each file has a watermark, the latest
 * job time it has shown (its records, and the times its batches were
 * encoded); the file with the lowest watermark is read next, and a record
 * is written once it is older than every file's watermark minus the window
 * (so records that arrive up to a window late still come out in order).
 * The window also has a size cap: when it holds more records, its oldest
 * record is written.
 * Memory is therefore bounded by the window (records held, plus the
 * batches they point into), never by the recording. A record older than
 * one already written is still written (counted out_of_order in the
 * summary: the window was too small for that recording).
 */

#include <stdlib.h>
#include <string.h>

#include "evt_listen.h"

int listen_scan_run(listen_inputs_t *in, listen_registry_t *reg, const listen_filter_t *filter,
                    char *err, size_t errlen)
{
    reg->filter = filter;
    for (size_t i = 0; i < in->num_files; ++i) {
        listen_cursor_t *c = listen_cursor_open(&in->files[i], err, errlen);
        listen_batch_t *b;
        int rc;

        if (NULL == c) {
            return -1;
        }
        while (1 == (rc = listen_cursor_next(c, &b))) {
            rc = listen_registry_scan(reg, &b->wire);
            if (0 < rc) {
                listen_procs_note(reg, &b->wire, &in->files[i]);
            }
            listen_batch_free(b);
            if (0 > rc) {
                snprintf(err, errlen, "out of memory");
                listen_cursor_close(c);
                return -1;
            }
        }
        listen_cursor_close(c);
        if (0 > rc) {
            snprintf(err, errlen, "%s: %s", in->files[i].path,
                     NULL == in->files[i].first_error ? "read error" : in->files[i].first_error);
            return -1;
        }
    }
    listen_registry_finish(reg);
    if (0 != listen_procs_settle(reg)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------
 * The reorder window: a heap of runs
 *
 * A batch's selected records, sorted by job time (a process's batch is
 * almost always sorted already: then sorting is one check), form a run;
 * the heap orders runs by their next record. Popping a record advances its
 * run and sifts it down: O(log runs) per record with a few hundred runs in
 * cache, instead of O(log records) over a million-entry heap.
 * ------------------------------------------------------------------------ */

typedef struct {
    int64_t t;
    uint32_t off; /**< the record's offset in the batch's records */
    uint32_t pos; /**< its position in the batch (stable sort key) */
} rrec_t;

typedef struct {
    rrec_t *recs;
    uint32_t n, i; /**< records, next one */
    uint64_t tie;  /**< read order of the run: equal times keep it */
    listen_batch_t *b;
} run_t;

typedef struct {
    run_t **a;
    size_t n, cap;
    size_t held; /**< records in all runs not yet written */
} heap_t;

static inline bool before(const run_t *x, const run_t *y)
{
    int64_t tx = x->recs[x->i].t, ty = y->recs[y->i].t;
    return tx < ty || (tx == ty && x->tie < y->tie);
}

static void sift_down(heap_t *h, size_t i)
{
    run_t *e = h->a[i];

    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m;
        if (l >= h->n) {
            break;
        }
        m = (r < h->n && before(h->a[r], h->a[l])) ? r : l;
        if (!before(h->a[m], e)) {
            break;
        }
        h->a[i] = h->a[m];
        i = m;
    }
    h->a[i] = e;
}

static int heap_push(heap_t *h, run_t *e)
{
    size_t i;

    if (h->n == h->cap) {
        size_t nc = h->cap ? 2 * h->cap : 256;
        run_t **na = realloc(h->a, nc * sizeof(*na));
        if (NULL == na) {
            return -1;
        }
        h->a = na;
        h->cap = nc;
    }
    i = h->n++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!before(e, h->a[parent])) {
            break;
        }
        h->a[i] = h->a[parent];
        i = parent;
    }
    h->a[i] = e;
    h->held += e->n;
    return 0;
}

/* The oldest record: its run and index. The run stays in the heap until
 * heap_advance(). */
static inline run_t *heap_top(const heap_t *h)
{
    return h->a[0];
}

/* Past the top run's current record; the run leaves the heap when empty
 * (returned, to be freed), else it is sifted to its place. */
static run_t *heap_advance(heap_t *h)
{
    run_t *top = h->a[0];

    h->held--;
    if (++top->i < top->n) {
        sift_down(h, 0);
        return NULL;
    }
    h->a[0] = h->a[--h->n];
    if (h->n > 0) {
        sift_down(h, 0);
    }
    return top;
}

static int cmp_rrec(const void *x, const void *y)
{
    const rrec_t *a = x, *b = y;
    if (a->t != b->t) {
        return a->t < b->t ? -1 : 1;
    }
    return a->pos < b->pos ? -1 : a->pos > b->pos;
}

typedef struct {
    listen_cursor_t *cur;
    int64_t hw; /**< watermark: latest job time seen in this file */
    bool done;
} input_t;

typedef struct {
    listen_sink_t *sinks; /**< those written on this thread */
    size_t num_sinks;
    listen_fanout_t *fan; /**< the others' thread, or NULL */
    listen_merge_stats_t *stats;
    int64_t last_t;
    bool any;
} out_t;

static int emit(out_t *o, const run_t *run)
{
    const rrec_t *rr = &run->recs[run->i];
    listen_batch_t *b = run->b;
    mca_common_evt_wire_record_t r;
    size_t cur = rr->off;
    listen_event_t ev;
    int rc = 0;

    (void) mca_common_evt_wire_batch_next_record(&b->wire, &cur, &r); /* validated at decode */
    ev.time_ns = rr->t;
    ev.proc = b->proc;
    ev.type = b->types[r.type];
    ev.clock = b->clocks[b->wire.types[r.type].source];
    ev.wire_type = &b->wire.types[r.type];
    ev.payload = r.payload;
    ev.ticks = r.timestamp;
    ev.depth = r.depth;
    if (o->any && rr->t < o->last_t) {
        o->stats->out_of_order++;
    } else {
        o->last_t = rr->t;
    }
    o->any = true;
    o->stats->events++;
    b->proc->counts[ev.type->id]++;
    for (size_t i = 0; i < o->num_sinks && 0 == rc; ++i) {
        rc = o->sinks[i].event(o->sinks[i].ctx, &ev);
    }
    if (0 == rc && NULL != o->fan) {
        rc = listen_fanout_event(o->fan, &ev);
    }
    return rc;
}

static void run_free(run_t *run)
{
    if (NULL != run) {
        listen_batch_free(run->b);
        free(run->recs);
        free(run);
    }
}

/* A run whose records have all been handed on: its batch goes to the
 * sinks' thread, if any, which may still have its events to write. */
static void run_done(out_t *o, run_t *run)
{
    if (NULL != run && NULL != o->fan) {
        listen_fanout_release(o->fan, run->b);
        run->b = NULL;
    }
    run_free(run);
}

/* Map a batch's types and sources to the registry's; make a run of its
 * selected records and push it. @retval records pushed (0: the batch is
 * not needed, the caller frees it), -1 on failure. */
static long take_batch(listen_registry_t *reg, heap_t *h, listen_batch_t *b, uint64_t *tie,
                       input_t *in, listen_merge_stats_t *st)
{
    const mca_common_evt_wire_batch_t *w = &b->wire;
    mca_common_evt_wire_record_t r;
    size_t cur = 0, prev = 0;
    uint32_t n = 0;
    bool sorted = true;
    run_t *run;
    int added, unseen;

    if (NULL != reg->only_nspace && 0 != strcmp(reg->only_nspace, w->sender.nspace)) {
        return 0;
    }
    /* the registry is frozen: a process, type or clock pass 1 did not see
     * (the file grew or changed since) is not added, its batch skipped */
    b->proc = listen_registry_proc(reg, w);
    if (NULL == b->proc) {
        st->unseen++;
        return 0;
    }
    b->types = calloc(w->num_types + 1, sizeof(*b->types));
    b->clocks = calloc(w->num_clocks + 1, sizeof(*b->clocks));
    if (NULL == b->types || NULL == b->clocks) {
        return -1;
    }
    unseen = listen_registry_map_types(reg, w, b->types);
    if (0 > unseen) {
        return -1;
    }
    for (uint32_t i = 0; 0 == unseen && i < w->num_clocks; ++i) {
        b->clocks[i] = listen_proc_clock(b->proc, w->clocks[i].name);
        unseen = NULL == b->clocks[i];
    }
    if (0 != unseen) {
        st->unseen++;
        return 0;
    }
    added = mca_common_evt_seqset_add(&b->proc->emitted, w->seq);
    if (0 > added) {
        return -1;
    }
    if (0 == added) {
        st->duplicate_batches++;
        return 0;
    }
    for (uint32_t i = 0; i < w->num_clocks; ++i) {
        int64_t enc;
        /* the batch was encoded at this time: its process's later batches
         * hold (almost) nothing older */
        enc = listen_time_map(b->proc, b->clocks[i], w->clocks[i].source_ticks);
        if (enc > in->hw) {
            in->hw = enc;
        }
    }
    if (0 == w->num_records) {
        return 0;
    }
    run = calloc(1, sizeof(*run));
    if (NULL == run || NULL == (run->recs = malloc(w->num_records * sizeof(*run->recs)))) {
        free(run);
        return -1;
    }
    while (mca_common_evt_wire_batch_next_record(w, &cur, &r)) {
        const listen_type_t *t = b->types[r.type];
        rrec_t *e = &run->recs[n];

        if (!t->selected) {
            st->filtered++;
            prev = cur;
            continue;
        }
        e->t = listen_time_map(b->proc, b->clocks[w->types[r.type].source], r.timestamp);
        e->off = (uint32_t) prev;
        e->pos = n;
        if (0 < n && e->t < run->recs[n - 1].t) {
            sorted = false;
        }
        if (e->t > in->hw) {
            in->hw = e->t;
        }
        n++;
        prev = cur;
    }
    if (0 == n) {
        free(run->recs);
        free(run);
        return 0;
    }
    if (!sorted) {
        qsort(run->recs, n, sizeof(*run->recs), cmp_rrec);
    }
    run->n = n;
    run->b = b;
    run->tie = (*tie)++;
    if (0 != heap_push(h, run)) {
        run->b = NULL;
        free(run->recs);
        free(run);
        return -1;
    }
    return n;
}

atomic_int listen_stop_signal;

int listen_merge_run(listen_inputs_t *in, listen_registry_t *reg, const listen_filter_t *filter,
                     const listen_merge_opts_t *opts, listen_sink_t *sinks, size_t num_sinks,
                     listen_merge_stats_t *stats, char *err, size_t errlen)
{
    input_t *inputs = calloc(in->num_files + 1, sizeof(*inputs));
    listen_sink_t *here = calloc(num_sinks + 1, sizeof(*here));
    listen_sink_t *there = calloc(num_sinks + 1, sizeof(*there));
    heap_t heap = {NULL, 0, 0, 0};
    out_t out = {here, 0, NULL, stats, 0, false};
    size_t num_there = 0;
    uint64_t tie = 0;
    size_t live = in->num_files;
    int ret = 0;

    (void) filter; /* applied through listen_type_t::selected (pass 1) */
    memset(stats, 0, sizeof(*stats));
    if (NULL == inputs || NULL == here || NULL == there || 0 != listen_registry_freeze(reg)) {
        snprintf(err, errlen, "out of memory");
        ret = -1;
        goto cleanup;
    }
    for (size_t i = 0; i < num_sinks; ++i) {
        if (NULL != sinks[i].begin && 0 != sinks[i].begin(sinks[i].ctx, reg)) {
            snprintf(err, errlen, "%s: cannot start writing", sinks[i].name);
            ret = -1;
            goto cleanup;
        }
        if (sinks[i].on_worker) {
            there[num_there++] = sinks[i];
        } else {
            here[out.num_sinks++] = sinks[i];
        }
    }
    if (0 < num_there && NULL == (out.fan = listen_fanout_start(there, num_there, err, errlen))) {
        /* no second thread (a limit on threads, say): all on this one */
        for (size_t i = 0; i < num_sinks; ++i) {
            here[i] = sinks[i];
        }
        out.num_sinks = num_sinks;
    }
    for (size_t i = 0; i < in->num_files; ++i) {
        inputs[i].cur = listen_cursor_open(&in->files[i], err, errlen);
        inputs[i].hw = INT64_MIN;
        if (NULL == inputs[i].cur) {
            ret = -1;
            goto cleanup;
        }
    }
    while (live > 0) {
        size_t pick = SIZE_MAX;
        /* relaxed: a flag; the handler's store is seen at some batch */
        int stop = atomic_load_explicit(&listen_stop_signal, memory_order_relaxed);
        if (0 != stop) {
            snprintf(err, errlen, "interrupted by signal %d: no output written", stop);
            ret = -1;
            goto cleanup;
        }
        int64_t frontier = INT64_MAX;
        listen_batch_t *b;
        long pushed;
        int rc;

        for (size_t i = 0; i < in->num_files; ++i) {
            if (!inputs[i].done && (SIZE_MAX == pick || inputs[i].hw < inputs[pick].hw)) {
                pick = i;
            }
        }
        rc = listen_cursor_next(inputs[pick].cur, &b);
        if (0 > rc) {
            snprintf(err, errlen, "%s: %s", in->files[pick].path,
                     NULL == in->files[pick].first_error ? "read error"
                                                         : in->files[pick].first_error);
            ret = -1;
            goto cleanup;
        }
        if (0 == rc) {
            inputs[pick].done = true;
            live--;
        } else {
            b->file = (uint32_t) pick;
            pushed = take_batch(reg, &heap, b, &tie, &inputs[pick], stats);
            if (0 > pushed) {
                listen_batch_free(b);
                snprintf(err, errlen, "out of memory");
                ret = -1;
                goto cleanup;
            }
            if (0 == pushed) {
                listen_batch_free(b);
            }
        }
        if (heap.held > stats->peak_window) {
            stats->peak_window = heap.held;
        }
        for (size_t i = 0; i < in->num_files; ++i) {
            if (!inputs[i].done && inputs[i].hw < frontier) {
                frontier = inputs[i].hw;
            }
        }
        if (INT64_MAX != frontier) {
            frontier = frontier < INT64_MIN + opts->window_ns ? INT64_MIN
                                                              : frontier - opts->window_ns;
        }
        while (heap.n > 0) {
            run_t *top = heap_top(&heap);
            bool old = top->recs[top->i].t <= frontier;
            if (!old && heap.held <= opts->window_events) {
                break;
            }
            if (!old) {
                stats->forced++;
            }
            if (0 != emit(&out, top)) {
                snprintf(err, errlen, "writing an output failed");
                ret = -1;
                goto cleanup;
            }
            run_done(&out, heap_advance(&heap));
        }
    }
    while (heap.n > 0) {
        if (0 != emit(&out, heap_top(&heap))) {
            snprintf(err, errlen, "writing an output failed");
            ret = -1;
            goto cleanup;
        }
        run_done(&out, heap_advance(&heap));
    }
    if (NULL != out.fan && 0 != listen_fanout_finish(out.fan)) {
        snprintf(err, errlen, "writing an output failed");
        ret = -1;
        goto cleanup;
    }
    /* one output that cannot be finished does not keep the others from it */
    for (size_t i = 0; i < num_sinks; ++i) {
        if (NULL != sinks[i].end && 0 != sinks[i].end(sinks[i].ctx, reg)) {
            size_t used = 1 == ret ? strlen(err) : 0;
            sinks[i].failed = true;
            (void) snprintf(err + used, errlen - used, "%s%s",
                            1 == ret ? ", " : "cannot finish writing ", sinks[i].name);
            ret = 1;
        }
    }
cleanup:
    /* first the thread, which may point into the runs' batches */
    listen_fanout_free(out.fan);
    /* runs still held on failure */
    for (size_t i = 0; i < heap.n; ++i) {
        run_free(heap.a[i]);
    }
    free(heap.a);
    for (size_t i = 0; NULL != inputs && i < in->num_files; ++i) {
        listen_cursor_close(inputs[i].cur);
    }
    free(inputs);
    free(here);
    free(there);
    return ret;
}
