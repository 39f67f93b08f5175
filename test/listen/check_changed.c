/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/*
 * ompi-evt-listen's second pass on a node file that changed after the
 * first (a sink still writing it, a file replaced): check_changed FILE
 * REPLACEMENT THREADS some|none|all. Pass 1 reads FILE, then REPLACEMENT
 * (a recording of more ranks, or of more clock sources, or the same ranks
 * further on) is renamed over it, and pass 2 merges it into two counting
 * sinks, the second on the output thread when THREADS is 2. The registry
 * stays as pass 1 left it: the batches of the processes, types and clocks
 * pass 1 did not see are skipped and counted (merge stats "unseen"), the
 * others written (some, or none when every batch carries a new clock, or
 * all when pass 1 saw every process, type and clock: also a process's
 * events of a type only another process had used in pass 1), each event
 * counted once in its process's per-type counts, and nothing a sink reads
 * moves under it (run under ASan by make check-sanitize). Prints "N
 * passed, M failed".
 */

#include "ompi_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/listen/evt_listen.h"

static int passed, failed;

static void check(bool ok, const char *what)
{
    printf("%s: %s\n", ok ? "ok" : "FAIL", what);
    ok ? ++passed : ++failed;
}

typedef struct {
    unsigned long events;
    unsigned long bad; /* an event whose process or type pass 1 did not see */
    size_t procs, types;
} count_t;

static int count_event(void *ctx, const listen_event_t *ev)
{
    count_t *c = ctx;

    ++c->events;
    c->bad += ev->proc->id >= c->procs || ev->type->id >= c->types;
    return 0;
}

int main(int argc, char **argv)
{
    listen_registry_t reg;
    listen_inputs_t in;
    listen_filter_t filter;
    listen_merge_opts_t opts = {10LL * 1000000000LL, 250000};
    listen_merge_stats_t st;
    listen_sink_t sinks[2];
    count_t here = {0, 0, 0, 0}, there = {0, 0, 0, 0};
    size_t procs, types;
    uint64_t counted = 0;
    char err[512];
    bool all;
    int rc;

    if (5 != argc) {
        fprintf(stderr, "usage: check_changed FILE REPLACEMENT THREADS some|none|all\n");
        return 2;
    }
    all = 0 == strcmp(argv[4], "all");
    memset(&in, 0, sizeof(in));
    memset(&filter, 0, sizeof(filter));
    listen_registry_init(&reg);
    if (0 != listen_inputs_add(&in, argv[1], err, sizeof(err))
        || 0 != listen_scan_run(&in, &reg, &filter, err, sizeof(err))) {
        fprintf(stderr, "check_changed: %s\n", err);
        return 2;
    }
    procs = reg.num_procs;
    types = reg.num_types;
    here.procs = there.procs = procs;
    here.types = there.types = types;
    if (0 != rename(argv[2], argv[1])) {
        perror("rename");
        return 2;
    }
    memset(sinks, 0, sizeof(sinks));
    listen_sink_set(&sinks[0], "here", &here, NULL, count_event, NULL, NULL, NULL);
    listen_sink_set(&sinks[1], "there", &there, NULL, count_event, NULL, NULL, NULL);
    sinks[1].on_worker = 0 == strcmp(argv[3], "2");
    rc = listen_merge_run(&in, &reg, &filter, &opts, sinks, 2, &st, err, sizeof(err));
    check(0 == rc, "the second pass ends normally");
    check(procs == reg.num_procs && types == reg.num_types, "the registry is as pass 1 left it");
    if (all) {
        check(0 == st.unseen, "every batch is of a process, type and clock pass 1 saw");
    } else {
        check(0 < st.unseen,
              "the batches of processes, types or clocks pass 1 did not see are counted");
    }
    check((0 == strcmp(argv[4], "none") ? 0 == here.events : 0 < here.events)
              && here.events == st.events && there.events == st.events,
          "the other batches are written, to both sinks");
    check(0 == here.bad && 0 == there.bad, "no event of a process or type pass 1 did not see");
    for (size_t i = 0; i < reg.num_procs; ++i) {
        for (size_t t = 0; t < reg.procs[i]->types_alloc; ++t) {
            counted += reg.procs[i]->counts[t];
        }
    }
    check(counted == st.events, "every event written is counted once for its process and type");
    listen_registry_fini(&reg);
    listen_inputs_free(&in);
    printf("%d passed, %d failed\n", passed, failed);
    return 0 == failed ? 0 : 1;
}
