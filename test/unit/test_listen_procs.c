/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* The listener's processes after pass 1: ordered by (namespace, rank),
 * grouped into jobs, and a peer found from the event's own process
 * whether its job's ranks all reported or not, never in another job. */

#include "opal_config.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/listen/evt_listen.h"

static listen_registry_t reg;

/* A process that read its batches 0..2 whole (@p whole) or from batch 1. */
static listen_proc_t *add(const char *ns, uint32_t rank, bool whole)
{
    listen_proc_t *p = calloc(1, sizeof(*p));

    cr_assert_not_null(p);
    snprintf(p->nspace, sizeof(p->nspace), "%s", ns);
    p->rank = rank;
    for (uint64_t b = whole ? 0 : 1; b < 3; ++b) {
        cr_assert_eq(mca_common_evt_seqset_add(&p->seen, b), 1);
    }
    cr_assert_lt(reg.num_procs, 64);
    reg.procs[reg.num_procs++] = p;
    return p;
}

static void setup(void)
{
    memset(&reg, 0, sizeof(reg));
    reg.procs = calloc(64, sizeof(*reg.procs));
    cr_assert_not_null(reg.procs);
}

static void teardown(void)
{
    for (size_t i = 0; i < reg.num_procs; ++i) {
        mca_common_evt_seqset_free(&reg.procs[i]->seen);
        free(reg.procs[i]);
    }
    free(reg.procs);
    free(reg.jobs);
}

TestSuite(listen_procs, .init = setup, .fini = teardown);

/* The peer in reg of @p ns's rank @p me, by the search (the reference). */
static const listen_proc_t *proc(const char *ns, int64_t rank)
{
    return listen_procs_find(&reg, ns, rank);
}

Test(listen_procs, peers_of_whole_and_holed_jobs)
{
    /* added out of order; job "b" lacks rank 1 and 3; "c" starts at 2 */
    add("b", 4, true);
    add("a", 2, true);
    add("c", 2, true);
    add("a", 0, true);
    add("b", 0, true);
    add("a", 1, true);
    add("b", 2, true);
    add("c", 3, true);
    add("a", 3, true);
    cr_assert_eq(listen_procs_settle(&reg), 0);
    cr_assert_eq(reg.num_jobs, 3);
    for (size_t i = 0; i < reg.num_procs; ++i) {
        const listen_proc_t *me = reg.procs[i];
        cr_assert_eq(me->id, i);
        cr_assert_str_eq(reg.jobs[me->job].nspace, me->nspace);
        for (int64_t peer = -2; peer < 8; ++peer) {
            bool there = NULL != proc(me->nspace, peer);
            /* pairable exactly where the peer reported, both directions */
            cr_assert_eq(listen_procs_pairable(&reg, me, peer, true), there, "%s rank %u -> %lld",
                         me->nspace, me->rank, (long long) peer);
            cr_assert_eq(listen_procs_pairable(&reg, me, peer, false), there, "%s rank %lld -> %u",
                         me->nspace, (long long) peer, me->rank);
        }
    }
    /* a rank beyond 32 bits, or a record's extreme value, is nobody,
     * whatever sits where it would (UBSan: no overflow on the way) */
    const int64_t bad[] = {(int64_t) UINT32_MAX + 1, INT64_MAX, INT64_MIN, -1};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); ++i) {
        for (size_t p = 0; p < reg.num_procs; ++p) {
            cr_assert_not(listen_procs_pairable(&reg, reg.procs[p], bad[i], true));
            cr_assert_not(listen_procs_pairable(&reg, reg.procs[p], bad[i], false));
        }
    }
}

Test(listen_procs, partial_histories_are_not_paired)
{
    listen_proc_t *whole = add("j", 0, true);
    listen_proc_t *cut = add("j", 1, false);

    cr_assert_eq(listen_procs_settle(&reg), 0);
    cr_assert(cut->sends_partial && cut->recvs_partial);
    cr_assert_not(listen_procs_pairable(&reg, whole, 1, true));
    cr_assert_not(listen_procs_pairable(&reg, whole, 1, false));
    cr_assert_not(listen_procs_pairable(&reg, cut, 0, true));
    cr_assert_not(listen_procs_pairable(&reg, cut, 0, false));
    /* to itself: only the whole one */
    cr_assert(listen_procs_pairable(&reg, whole, 0, true));
    cr_assert_not(listen_procs_pairable(&reg, cut, 1, false));
}

Test(listen_procs, a_neighbouring_job_is_never_the_peer)
{
    /* "a" has ranks 0..2, "b" after it 0 and 4: rank 1 of "b" would sit
     * where "a"'s rank 1 is, were b's ranks all there */
    add("b", 4, true);
    add("a", 0, true);
    add("a", 1, true);
    add("a", 2, true);
    add("b", 0, true);
    cr_assert_eq(listen_procs_settle(&reg), 0);
    const listen_proc_t *b4 = proc("b", 4);
    cr_assert_not_null(b4);
    for (int64_t peer = 0; peer < 7; ++peer) {
        cr_assert_eq(listen_procs_pairable(&reg, b4, peer, true), 0 == peer || 4 == peer,
                     "b rank 4 -> %lld", (long long) peer);
        cr_assert_eq(listen_procs_pairable(&reg, b4, peer, false), 0 == peer || 4 == peer,
                     "b rank %lld -> 4", (long long) peer);
    }
    const listen_proc_t *a2 = proc("a", 2);
    cr_assert(listen_procs_pairable(&reg, a2, 0, true));
    cr_assert_not(listen_procs_pairable(&reg, a2, 4, true));
}
