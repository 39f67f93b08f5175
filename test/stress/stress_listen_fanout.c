/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/*
 * The listener's second thread for sinks (plain C, runs under TSan and
 * ASan): a merge thread hands EVENTS events from batches of 1..300 records
 * to sinks on the second thread and gives each batch up after its last
 * event, as pass 2 does.
 *   - in order and complete: both sinks of the thread see every event,
 *     numbered 0, 1, 2, ... in turn;
 *   - each event's payload, which points into its batch, still holds what
 *     the batch was filled with when the sink reads it (a batch freed too
 *     early is reused by the next ones: the pattern would differ; ASan
 *     sees the read);
 *   - a sink of the thread failing halfway: the merge thread is told
 *     (listen_fanout_event or _finish returns -1) and nothing hangs;
 *   - the merge failing while the thread still has blocks to write
 *     (listen_fanout_free without finish): it stops, every batch is freed
 *     (ASan's leak check);
 *   - more batches than a block holds events (a block handed over
 *     early).
 * Each case runs under alarm(): a hang fails the test.
 */
#include "opal_config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/listen/evt_listen.h"

#define EVENTS    300000
#define MAX_BATCH 300

static int passed, failed;

static void check(bool ok, const char *what)
{
    if (ok) {
        ++passed;
        printf("ok: %s\n", what);
    } else {
        ++failed;
        printf("FAIL: %s\n", what);
    }
}

typedef struct {
    long next;      /* the number the next event must carry */
    long bad_order; /* events out of turn */
    long bad_bytes; /* payloads that no longer hold their batch's bytes */
    long fail_at;   /* fail at this event (-1: never) */
} seen_t;

static uint8_t pattern(long n, int k)
{
    return (uint8_t) (n * 131 + k * 7 + 1);
}

/* An event's number is its time; its payload holds pattern(number, 0..15). */
static int sink_event(void *ctx, const listen_event_t *ev)
{
    seen_t *s = ctx;

    if (s->fail_at == ev->time_ns) {
        return -1;
    }
    s->bad_order += ev->time_ns != s->next;
    s->next = ev->time_ns + 1;
    for (int k = 0; k < 16; ++k) {
        if (ev->payload[k] != pattern(ev->time_ns, k)) {
            ++s->bad_bytes;
            break;
        }
    }
    return 0;
}

static listen_batch_t *make_batch(long first, long n)
{
    listen_batch_t *b = calloc(1, sizeof(*b));

    if (NULL == b || NULL == (b->bytes = malloc((size_t) n * 16 + 1))) {
        free(b);
        return NULL;
    }
    b->len = (size_t) n * 16;
    for (long i = 0; i < n; ++i) {
        for (int k = 0; k < 16; ++k) {
            b->bytes[i * 16 + k] = pattern(first + i, k);
        }
    }
    return b;
}

/* Hand on EVENTS events in batches of 1..@p max_batch records, or until
 * @p stop_after (then give up as a failed merge does); with @p extra, an
 * empty batch is given up after every event too (more batches than a
 * block has events: the block goes over early). @retval what the fanout
 * said: 0, or -1 */
static int feed(listen_fanout_t *f, long stop_after, long max_batch, bool extra, long *handed)
{
    unsigned seed = 12345;
    long n = 0;

    while (n < EVENTS && n < stop_after) {
        long len = 1 + (long) (rand_r(&seed) % max_batch);
        listen_batch_t *b;

        if (len > EVENTS - n) {
            len = EVENTS - n;
        }
        b = make_batch(n, len);
        if (NULL == b) {
            return -1;
        }
        for (long i = 0; i < len; ++i) {
            listen_event_t ev = {.time_ns = n + i, .payload = b->bytes + i * 16};
            if (0 != listen_fanout_event(f, &ev)) {
                /* as the merge does: the thread may hold its events */
                listen_fanout_release(f, b);
                *handed = n + i + 1;
                return -1;
            }
            if (extra) {
                listen_batch_t *e = make_batch(0, 0);
                if (NULL != e) {
                    listen_fanout_release(f, e);
                }
            }
        }
        n += len;
        listen_fanout_release(f, b);
    }
    *handed = n;
    return 0;
}

static listen_sink_t sink_of(seen_t *s)
{
    listen_sink_t k;

    memset(&k, 0, sizeof(k));
    k.name = "check";
    k.ctx = s;
    k.event = sink_event;
    k.on_worker = true;
    return k;
}

/* A fanout over @p sinks fed by feed(), finished when @p finish and the
 * feed went well, then freed; a hang ends the test (alarm). @retval -2
 * when no fanout could be started, else what feed and finish said */
static int run_fanout(listen_sink_t *sinks, size_t num_sinks, long stop_after, long max_batch,
                      bool extra, bool finish, long *handed)
{
    char err[256];
    listen_fanout_t *f = listen_fanout_start(sinks, num_sinks, err, sizeof(err));
    int rc;

    if (NULL == f) {
        printf("# %s\n", err);
        return -2;
    }
    alarm(120);
    rc = feed(f, stop_after, max_batch, extra, handed);
    if (0 == rc && finish) {
        rc = listen_fanout_finish(f);
    }
    listen_fanout_free(f);
    alarm(0);
    return rc;
}

int main(void)
{
    long handed = 0;
    int rc;

    /* 1. every event, in order, its batch alive, to both sinks */
    {
        seen_t a = {0, 0, 0, -1}, b = {0, 0, 0, -1};
        listen_sink_t sinks[2] = {sink_of(&a), sink_of(&b)};

        rc = run_fanout(sinks, 2, EVENTS, MAX_BATCH, false, true, &handed);
        check(0 == rc && EVENTS == handed, "every event handed on, the thread finished");
        check(EVENTS == a.next && EVENTS == b.next, "both sinks saw all events");
        check(0 == a.bad_order && 0 == b.bad_order, "in the order handed");
        check(0 == a.bad_bytes && 0 == b.bad_bytes, "every payload read while its batch lived");
    }
    /* 2. a sink of the thread fails at event 100000 */
    {
        seen_t a = {0, 0, 0, 100000};
        listen_sink_t sinks[1] = {sink_of(&a)};

        rc = run_fanout(sinks, 1, EVENTS, MAX_BATCH, false, true, &handed);
        check(-1 == rc, "a failing sink of the thread is reported");
        check(100000 == a.next && 0 == a.bad_order && 0 == a.bad_bytes,
              "it saw the events before its failure, in order");
    }
    /* 3. the merge gives up halfway: the thread stops with blocks unwritten */
    {
        seen_t a = {0, 0, 0, -1};
        listen_sink_t sinks[1] = {sink_of(&a)};

        rc = run_fanout(sinks, 1, EVENTS / 2, MAX_BATCH, false, false, &handed);
        check(0 == rc && a.next <= handed && 0 == a.bad_order && 0 == a.bad_bytes,
              "stopped halfway: no hang, what it wrote was whole and in order");
    }
    /* 4. every event the last of its batch, and an empty batch given up
     *    after each: twice as many batches as a block holds events */
    {
        seen_t a = {0, 0, 0, -1};
        listen_sink_t sinks[1] = {sink_of(&a)};

        rc = run_fanout(sinks, 1, EVENTS, 1, true, true, &handed);
        check(0 == rc && EVENTS == a.next && 0 == a.bad_order && 0 == a.bad_bytes,
              "two batches an event: all in order, every payload read while its batch lived");
    }
    printf("%d passed, %d failed\n", passed, failed);
    return 0 == failed ? 0 : 1;
}
