/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The processes of a recording as the outputs show them: in (namespace,
 * rank) order whatever order their batches arrived in (OTF2 readers want
 * definitions in increasing id order; people want sorted rank lists), the
 * jobs with every rank they started (a rank that died before its first
 * batch still counts: the others' initialization events or recording
 * headers give the job size), and which sends and receives may be paired
 * by order. Runs on the listener's one thread, after pass 1.
 */

#include <stdlib.h>
#include <string.h>

#include "evt_listen.h"

#define INIT_EVENT      "ompi.mpi.initialization"
#define INIT_WORLD_SIZE "world_size"
/* A job size beyond this is taken for damage: the outputs would list
 * (and OTF2 define) every rank up to it. */
#define JOB_SIZE_MAX (1 << 20)

static void note_world_size(listen_proc_t *p, int64_t n)
{
    if (0 < n && n <= JOB_SIZE_MAX && n > p->world_size) {
        p->world_size = n;
    }
}

void listen_procs_note(listen_registry_t *reg, const mca_common_evt_wire_batch_t *b,
                       const struct listen_file *file)
{
    const listen_file_t *f = file;
    listen_proc_t *p;
    mca_common_evt_wire_record_t r;
    size_t cur = 0;

    if (NULL != reg->only_nspace && 0 != strcmp(reg->only_nspace, b->sender.nspace)) {
        return;
    }
    p = listen_registry_proc(reg, b); /* found: pass 1 accounted the batch */
    if (NULL == p) {
        return;
    }
    if (NULL != f && f->flight) {
        note_world_size(p, f->flight_world_size);
        if (0 < f->flight_overwritten || 0 < f->flight_uncarried) {
            p->window_cut = true;
        }
    }
    /* the job size from the initialization event, selected by --events or not */
    for (uint32_t t = 0; t < b->num_types; ++t) {
        const mca_common_evt_wire_type_t *wt = &b->types[t];
        int k = -1;
        if (NULL == wt->name || 0 != strcmp(wt->name, INIT_EVENT)) {
            continue;
        }
        for (uint16_t i = 0; i < wt->num_elements; ++i) {
            if (NULL != wt->elements[i].name
                && 0 == strcmp(wt->elements[i].name, INIT_WORLD_SIZE)) {
                k = i;
            }
        }
        if (0 > k) {
            continue;
        }
        cur = 0;
        while (mca_common_evt_wire_batch_next_record(b, &cur, &r)) {
            mca_common_evt_wire_value_t v;
            if (r.type == t
                && OPAL_SUCCESS
                       == mca_common_evt_wire_element_value(wt, r.payload, (unsigned) k, &v)) {
                note_world_size(p, listen_value_i64(&v));
            }
        }
    }
}

static int cmp_key(const char *ns, uint32_t rank, const listen_proc_t *q)
{
    int c = strcmp(ns, q->nspace);
    if (0 != c) {
        return c;
    }
    return rank < q->rank ? -1 : rank > q->rank;
}

static int cmp_proc(const void *x, const void *y)
{
    const listen_proc_t *a = *(listen_proc_t *const *) x, *b = *(listen_proc_t *const *) y;
    return cmp_key(a->nspace, a->rank, b);
}

/* The history a process's batches give is whole from its first record:
 * batch 0 read and no batch number missing up to the last one read. */
static bool history_whole(const listen_proc_t *p)
{
    return !p->window_cut && 0 < p->seen.n && 0 == p->seen.iv[0][0]
           && 0 == mca_common_evt_seqset_gaps(&p->seen);
}

int listen_procs_settle(listen_registry_t *reg)
{
    listen_job_t *jobs;
    size_t nj = 0;

    if (1 < reg->num_procs) {
        qsort(reg->procs, reg->num_procs, sizeof(*reg->procs), cmp_proc);
    }
    jobs = calloc(reg->num_procs + 1, sizeof(*jobs));
    if (NULL == jobs) {
        return -1;
    }
    for (size_t i = 0; i < reg->num_procs; ++i) {
        listen_proc_t *p = reg->procs[i];
        listen_job_t *j;
        bool whole = history_whole(p);

        p->id = (uint32_t) i;
        if (0 == nj || 0 != strcmp(jobs[nj - 1].nspace, p->nspace)) {
            jobs[nj].first = i;
            jobs[nj++].nspace = p->nspace;
        }
        p->job = (uint32_t) (nj - 1);
        j = &jobs[nj - 1];
        j->reported++;
        if (p->rank >= j->size) {
            j->size = p->rank + 1;
        }
        if ((int64_t) j->size < p->world_size) {
            j->size = (uint32_t) p->world_size;
        }
        p->sends_partial = p->recvs_partial = !whole;
        for (size_t t = 0; t < reg->num_types && t < p->types_alloc; ++t) {
            if (0 == p->drops[t]) {
                continue;
            }
            if (LISTEN_P2P_SEND == reg->types[t]->p2p) {
                p->sends_partial = true;
            } else if (LISTEN_P2P_RECV == reg->types[t]->p2p) {
                p->recvs_partial = true;
            }
        }
    }
    for (size_t k = 0; k < nj; ++k) {
        jobs[k].listable = jobs[k].size <= JOB_SIZE_MAX;
    }
    free(reg->jobs);
    reg->jobs = jobs;
    reg->num_jobs = nj;
    return 0;
}

const listen_proc_t *listen_procs_find(const listen_registry_t *reg, const char *nspace,
                                       int64_t rank)
{
    size_t lo = 0, hi = reg->num_procs;

    if (0 > rank || rank > (int64_t) UINT32_MAX) {
        return NULL;
    }
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = cmp_key(nspace, (uint32_t) rank, reg->procs[mid]);
        if (0 == c) {
            return reg->procs[mid];
        }
        if (0 > c) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return NULL;
}

bool listen_procs_step(const listen_registry_t *reg, const listen_job_t *j, int64_t *r, size_t *i,
                       const listen_proc_t **p)
{
    const listen_proc_t *next = *i < j->first + j->reported ? reg->procs[*i] : NULL;

    if (!j->listable && NULL != next && *r < (int64_t) next->rank) {
        *r = next->rank; /* not every rank is listed: the next that reported */
    }
    if (*r >= (int64_t) j->size) {
        return false;
    }
    if (NULL != next && (int64_t) next->rank == *r) {
        *p = next;
        ++*i;
    } else {
        *p = NULL;
    }
    ++*r;
    return true;
}

const listen_job_t *listen_procs_job(const listen_registry_t *reg, const char *nspace)
{
    for (size_t k = 0; k < reg->num_jobs; ++k) {
        if (0 == strcmp(reg->jobs[k].nspace, nspace)) {
            return &reg->jobs[k];
        }
    }
    return NULL;
}

/* Rank @p rank of @p me's job: where it sits when every rank of the job
 * between the two reported (most jobs: one look), else the search. */
static const listen_proc_t *peer_of(const listen_registry_t *reg, const listen_proc_t *me,
                                    int64_t rank)
{
    int64_t at;

    /* before the arithmetic: the rank is the record's, any value */
    if (0 > rank || rank > (int64_t) UINT32_MAX) {
        return NULL;
    }
    at = (int64_t) me->id + (rank - (int64_t) me->rank);
    if (0 <= at && at < (int64_t) reg->num_procs && reg->procs[at]->job == me->job
        && reg->procs[at]->rank == (uint32_t) rank) {
        return reg->procs[at];
    }
    return listen_procs_find(reg, me->nspace, rank);
}

bool listen_procs_pairable(const listen_registry_t *reg, const listen_proc_t *me, int64_t peer,
                           bool me_sends)
{
    const listen_proc_t *other = peer_of(reg, me, peer);
    const listen_proc_t *s = me_sends ? me : other, *d = me_sends ? other : me;

    return NULL != other && !s->sends_partial && !d->recvs_partial;
}
