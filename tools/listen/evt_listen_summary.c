/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * summary.txt (also printed unless --quiet): inputs and their problems, the
 * processes, the time span, events per type and per rank (what the writers
 * wrote), drops per type and rank, batches lost (sequence gaps) and
 * duplicated, ranks that ended early (no FINAL batch, or no batch at all:
 * the job size comes from what the other ranks reported), and how the
 * merge window fared. Every list of ranks is in (namespace, rank) order.
 * Lines of the per-rank tables have a fixed form:
 *   "  <event> rank <r> <nspace> <count>"
 */

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "evt_listen.h"

static void fmt_time(char *out, size_t n, int64_t ns)
{
    time_t sec = (time_t) (ns / 1000000000);
    long frac = (long) (ns % 1000000000);
    struct tm tm;

    if (frac < 0) {
        frac += 1000000000;
        sec -= 1;
    }
    if (NULL == gmtime_r(&sec, &tm)) {
        snprintf(out, n, "%lld ns", (long long) ns);
        return;
    }
    snprintf(out, n, "%04d-%02d-%02dT%02d:%02d:%02d.%09ldZ", tm.tm_year + 1900, tm.tm_mon + 1,
             tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, frac);
}

/* The ranks of @p j that never sent a batch, as " 1 3-5"; counted. */
static uint64_t never_reported(FILE *f, const listen_registry_t *reg, const listen_job_t *j)
{
    uint64_t n = 0;
    int64_t run = -1; /* first rank of the current run of missing ranks */

    if (!j->listable) {
        return 0;
    }
    for (int64_t r = 0; r <= (int64_t) j->size; ++r) {
        bool missing = r < (int64_t) j->size && NULL == listen_procs_find(reg, j->nspace, r);
        if (missing) {
            n++;
            if (0 > run) {
                run = r;
            }
        } else if (0 <= run) {
            if (NULL != f) {
                fprintf(f, r - 1 == run ? " %lld" : " %lld-%lld", (long long) run,
                        (long long) (r - 1));
            }
            run = -1;
        }
    }
    return n;
}

static void write_summary(FILE *f, const listen_registry_t *reg, const listen_summary_info_t *info)
{
    const listen_inputs_t *in = info->inputs;
    const listen_merge_stats_t *m = info->merge;
    uint64_t total_drops = 0, lost = 0, dups = 0;
    size_t early = 0;
    bool any;

    fprintf(f, "ompi-evt-listen summary\n\n");
    fprintf(f, "inputs: %zu file%s\n", in->num_files, 1 == in->num_files ? "" : "s");
    for (size_t i = 0; i < in->num_files; ++i) {
        const listen_file_t *lf = &in->files[i];
        fprintf(f, "  %s (%s %s): %llu batches", lf->path,
                lf->flight ? "evt/file recording on" : "node", lf->host,
                (unsigned long long) lf->frames);
        if (lf->flight && lf->flight_overwritten) {
            fprintf(f, ", %llu older records overwritten (the recording's capacity)",
                    (unsigned long long) lf->flight_overwritten);
        }
        if (lf->flight && lf->flight_uncarried) {
            fprintf(f,
                    ", %llu records of types missing from its dictionary or with names the wire "
                    "cannot carry (not listed)",
                    (unsigned long long) lf->flight_uncarried);
        }
        if (lf->invalid_batches) {
            fprintf(f, ", %llu INVALID batches skipped", (unsigned long long) lf->invalid_batches);
        }
        if (lf->damaged) {
            fprintf(f, ", %llu DAMAGED region%s (%llu bytes skipped)",
                    (unsigned long long) lf->damaged, 1 == lf->damaged ? "" : "s",
                    (unsigned long long) lf->skipped_bytes);
        }
        if (lf->truncated) {
            fprintf(f, ", TRUNCATED");
        }
        if (lf->read_error) {
            fprintf(f, ", READ ERROR");
        }
        fprintf(f, "\n");
        if (NULL != lf->first_error) {
            fprintf(f, "    first problem: %s\n", lf->first_error);
        }
    }
    for (size_t i = 0; i < in->num_skipped; ++i) {
        fprintf(f, "  SKIPPED %s\n", in->skipped[i]);
    }
    if (0 < reg->ignored_batches) {
        fprintf(f, "  %llu batches of other namespaces ignored (--nspace %s)\n",
                (unsigned long long) reg->ignored_batches, reg->only_nspace);
    }
    fprintf(f, "\nprocesses: %zu\n", reg->num_procs);
    for (size_t k = 0; k < reg->num_jobs; ++k) {
        const listen_job_t *j = &reg->jobs[k];
        uint64_t n = never_reported(NULL, reg, j);
        fprintf(f, "  job %s: %u rank%s, %u reported", j->nspace, j->size, 1 == j->size ? "" : "s",
                j->reported);
        if (0 < n) {
            fprintf(f, ", never reported:");
            (void) never_reported(f, reg, j);
        }
        fprintf(f, "\n");
    }
    for (size_t i = 0; i < reg->num_procs; ++i) {
        const listen_proc_t *p = reg->procs[i];
        fprintf(f, "  rank %u %s on %s (pid %u): %llu batches, %llu records%s%s\n", p->rank,
                p->nspace, p->host, p->pid, (unsigned long long) p->batches,
                (unsigned long long) p->records, p->final_seen ? "" : ", no FINAL batch",
                p->host_changed ? ", batches from more than one host" : "");
    }
    if (reg->t_min <= reg->t_max) {
        char a[64], b[64];
        fmt_time(a, sizeof(a), reg->t_min);
        fmt_time(b, sizeof(b), reg->t_max);
        fprintf(f, "\ntime span: %s .. %s (%.9f s)\n", a, b,
                (double) (reg->t_max - reg->t_min) / 1e9);
    } else {
        fprintf(f, "\ntime span: no events\n");
    }

    fprintf(f, "\nevents: %llu", (unsigned long long) m->events);
    if (NULL != info->outputs) {
        fprintf(f, " (in %s)", info->outputs);
    }
    fprintf(f, "\n");
    if (0 < m->filtered) {
        fprintf(f, "  %llu records not selected by --events\n", (unsigned long long) m->filtered);
    }
    fprintf(f, "\nevents per type:\n");
    any = false;
    for (size_t t = 0; t < reg->num_types; ++t) {
        uint64_t n = 0;
        for (size_t i = 0; i < reg->num_procs; ++i) {
            if (t < reg->procs[i]->types_alloc) {
                n += reg->procs[i]->counts[t];
            }
        }
        if (0 < n) {
            fprintf(f, "  %s %llu\n", reg->types[t]->name, (unsigned long long) n);
            any = true;
        }
    }
    if (!any) {
        fprintf(f, "  none\n");
    }
    fprintf(f, "\nevents per type and rank:\n");
    any = false;
    for (size_t t = 0; t < reg->num_types; ++t) {
        for (size_t i = 0; i < reg->num_procs; ++i) {
            const listen_proc_t *p = reg->procs[i];
            if (t < p->types_alloc && 0 < p->counts[t]) {
                fprintf(f, "  %s rank %u %s %llu\n", reg->types[t]->name, p->rank, p->nspace,
                        (unsigned long long) p->counts[t]);
                any = true;
            }
        }
    }
    if (!any) {
        fprintf(f, "  none\n");
    }

    fprintf(f, "\ndrops per type and rank (records the process could not export):\n");
    any = false;
    for (size_t t = 0; t < reg->num_types; ++t) {
        if (!reg->types[t]->selected) {
            continue;
        }
        for (size_t i = 0; i < reg->num_procs; ++i) {
            const listen_proc_t *p = reg->procs[i];
            if (t < p->types_alloc && 0 < p->drops[t]) {
                fprintf(f, "  %s rank %u %s %llu\n", reg->types[t]->name, p->rank, p->nspace,
                        (unsigned long long) p->drops[t]);
                total_drops += p->drops[t];
                any = true;
            }
        }
    }
    fprintf(f, any ? "  total %llu\n" : "  none\n", (unsigned long long) total_drops);

    fprintf(f, "\nbatches lost (gaps in a rank's batch numbers):\n");
    any = false;
    for (size_t i = 0; i < reg->num_procs; ++i) {
        const listen_proc_t *p = reg->procs[i];
        uint64_t g = mca_common_evt_seqset_gaps(&p->seen);
        if (0 < g) {
            fprintf(f, "  rank %u %s %llu\n", p->rank, p->nspace, (unsigned long long) g);
            lost += g;
            any = true;
        }
        dups += p->duplicates;
    }
    fprintf(f, any ? "  total %llu\n" : "  none\n", (unsigned long long) lost);
    for (size_t i = 0; i < reg->num_procs; ++i) {
        const listen_proc_t *p = reg->procs[i];
        if (0 < p->not_stored) {
            fprintf(f,
                    "  rank %u %s: %llu batches found no room where they were recorded (their "
                    "events are counted as drops above)\n",
                    p->rank, p->nspace, (unsigned long long) p->not_stored);
        }
    }
    if (0 < dups) {
        fprintf(f, "  %llu duplicate batches read and ignored\n", (unsigned long long) dups);
    }

    fprintf(f, "\nclock alignment (each rank's offset to the reference rank's clock, applied; "
               "interpolated between samples; in microseconds):\n");
    any = false;
    for (size_t i = 0; i < reg->num_procs; ++i) {
        const listen_proc_t *p = reg->procs[i];
        if (0 == p->num_offsets) {
            continue;
        }
        fprintf(f, "  rank %u %s on %s:", p->rank, p->nspace, p->host);
        for (size_t k = 0; k < p->num_offsets; ++k) {
            fprintf(f, "%s offset_us %+.3f uncertainty_us %.3f", 0 < k ? ";" : "",
                    (double) p->offsets[k].offset_ns / 1e3,
                    (double) p->offsets[k].uncertainty_ns / 1e3);
            if (NULL != p->applied_offsets && p->applied_offsets[k] != p->offsets[k].offset_ns) {
                fprintf(f, " (applied %+.3f: within the uncertainty of a more certain sample)",
                        (double) p->applied_offsets[k] / 1e3);
            }
        }
        fprintf(f, "\n");
        any = true;
    }
    if (!any) {
        fprintf(f, "  none (each rank's events are on its own node's CLOCK_REALTIME)\n");
    }

    /* in rank order, a rank that never reported among them: it ended
     * before its first batch */
    fprintf(f, "\nranks that ended early (no FINAL batch):");
    for (size_t k = 0; k < reg->num_jobs; ++k) {
        const listen_job_t *j = &reg->jobs[k];
        const listen_proc_t *p;
        int64_t r = 0;
        size_t at = j->first;
        while (listen_procs_step(reg, j, &r, &at, &p)) {
            if (NULL == p || !p->final_seen) {
                if (1 < reg->num_jobs) {
                    fprintf(f, " %lld(%s)", (long long) (r - 1), j->nspace);
                } else {
                    fprintf(f, " %lld", (long long) (r - 1));
                }
                early++;
            }
        }
    }
    fprintf(f, early ? "\n" : " none\n");
    for (size_t k = 0; k < reg->num_jobs; ++k) {
        const listen_job_t *j = &reg->jobs[k];
        if (0 < never_reported(NULL, reg, j)) {
            fprintf(f, "  never reported (no batch at all):");
            (void) never_reported(f, reg, j);
            if (1 < reg->num_jobs) {
                fprintf(f, " (%s)", j->nspace);
            }
            fprintf(f, "\n");
        }
    }

    if (0 < info->num_sinks) {
        fprintf(f, "\noutputs:\n");
        for (size_t i = 0; i < info->num_sinks; ++i) {
            if (NULL != info->sinks[i].report) {
                info->sinks[i].report(info->sinks[i].ctx, f);
            } else {
                fprintf(f, "  %s\n", info->sinks[i].name);
            }
        }
    }
    fprintf(f, "\nmerge: at most %llu records held at once", (unsigned long long) m->peak_window);
    if (0 < m->forced) {
        fprintf(f, ", %llu written early because the window was full",
                (unsigned long long) m->forced);
    }
    fprintf(f, "\n");
    if (0 < m->out_of_order) {
        fprintf(f,
                "  WARNING: %llu events came later than the merge window allows and were "
                "written out of time order (raise --window or --window-events)\n",
                (unsigned long long) m->out_of_order);
    }
    if (0 < m->unseen) {
        fprintf(f,
                "  WARNING: %llu batches appeared after the first reading (a file grew or "
                "changed while it was read) and were not written\n",
                (unsigned long long) m->unseen);
    }
}

int listen_summary_write(const listen_registry_t *reg, const listen_summary_info_t *info,
                         const char *dir, FILE *also, char *err, size_t errlen)
{
    char *tmp = NULL;
    FILE *f = listen_out_open(dir, "summary.txt", &tmp, err, errlen);
    int rc;

    if (NULL == f) {
        return -1;
    }
    write_summary(f, reg, info);
    rc = listen_out_commit(f, tmp, dir, "summary.txt", err, errlen);
    free(tmp);
    if (NULL != also) {
        write_summary(also, reg, info);
    }
    return rc;
}
