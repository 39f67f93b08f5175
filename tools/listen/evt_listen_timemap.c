/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The time mapping of ompi-evt-listen: source ticks -> job timeline ns.
 * Everything that puts a record on the timeline (the merge order, every
 * output's timestamps, the p2p slices' starts, the summary's span) calls
 * listen_time_map(); clock alignment (per-rank offsets measured against a
 * reference, drift between two measurements) plugs in here through the
 * OFFSETS samples of the wire format.
 */

#include <stdbool.h>
#include <stdlib.h>

#include "evt_listen.h"

static int64_t clamp64(__int128 v)
{
    if (v > INT64_MAX) {
        return INT64_MAX;
    }
    if (v < INT64_MIN) {
        return INT64_MIN;
    }
    return (int64_t) v;
}

/* The offset at local realtime @p rt through the samples @p s[i] whose
 * @p use[i] is set (all when @p use is NULL), with values @p val (NULL:
 * the samples' own): linear between the two around it, the nearest one's
 * value outside them. *@p unc (may be NULL): the larger uncertainty of the
 * one or two samples it came from. @p n > 0 samples, sorted by time. */
static int64_t offset_through(const mca_common_evt_wire_offset_t *s, const int64_t *val,
                              const bool *use, size_t n, int64_t rt, uint64_t *unc)
{
    size_t lo = n, hi = n;
    __int128 num, den;

    for (size_t i = 0; i < n; ++i) {
        if (NULL != use && !use[i]) {
            continue;
        }
        if (s[i].local_realtime_ns <= rt) {
            lo = i;
        } else if (n == hi) {
            hi = i;
        }
    }
#define VAL(i) (NULL != val ? val[i] : s[i].offset_ns)
    if (n == lo || n == hi) {
        size_t k = n == lo ? hi : lo;
        if (NULL != unc) {
            *unc = s[k].uncertainty_ns;
        }
        return VAL(k);
    }
    if (NULL != unc) {
        *unc = s[lo].uncertainty_ns > s[hi].uncertainty_ns ? s[lo].uncertainty_ns
                                                           : s[hi].uncertainty_ns;
    }
    num = ((__int128) VAL(hi) - VAL(lo)) * ((__int128) rt - s[lo].local_realtime_ns);
    den = (__int128) s[hi].local_realtime_ns - s[lo].local_realtime_ns;
    return clamp64((__int128) VAL(lo) + num / den);
#undef VAL
}

/* Offset applied at local realtime @p rt. */
static int64_t offset_at(const listen_proc_t *p, int64_t rt)
{
    if (0 == p->num_offsets) {
        return 0;
    }
    return offset_through(p->offsets, p->applied_offsets, NULL, p->num_offsets, rt, NULL);
}

int listen_time_settle(listen_proc_t *p)
{
    const mca_common_evt_wire_offset_t *s = p->offsets;
    size_t n = p->num_offsets;
    int64_t *applied;
    bool *used;
    size_t *order;

    free(p->applied_offsets);
    p->applied_offsets = NULL;
    if (0 == n) {
        return 0;
    }
    applied = malloc(n * sizeof(*applied));
    used = calloc(n, sizeof(*used));
    order = malloc(n * sizeof(*order));
    if (NULL == applied || NULL == used || NULL == order) {
        free(applied);
        free(used);
        free(order);
        return -1;
    }
    /* the most certain first (ties: the earlier); n is small (at most
     * MCA_COMMON_EVT_WIRE_MAX_OFFSETS per process) */
    for (size_t i = 0; i < n; ++i) {
        size_t j = i;
        order[i] = i;
        while (0 < j && s[order[j - 1]].uncertainty_ns > s[order[j]].uncertainty_ns) {
            size_t t = order[j - 1];
            order[j - 1] = order[j];
            order[j] = t;
            --j;
        }
    }
    for (size_t k = 0; k < n; ++k) {
        size_t i = order[k];
        applied[i] = s[i].offset_ns;
        if (0 < k) {
            uint64_t unc;
            int64_t said = offset_through(s, applied, used, n, s[i].local_realtime_ns, &unc);
            __int128 diff = (__int128) s[i].offset_ns - said;
            if (diff < 0) {
                diff = -diff;
            }
            if (diff <= (__int128) s[i].uncertainty_ns + unc) {
                applied[i] = said; /* its noise, not the clocks' */
            }
        }
        used[i] = true;
    }
    free(used);
    free(order);
    p->applied_offsets = applied;
    return 0;
}

int64_t listen_time_map(const listen_proc_t *p, const listen_clock_t *clock, int64_t ticks)
{
    __int128 d = (__int128) ticks - clock->ref_ticks;
    int64_t rt;

    if (1000000000u == clock->ticks_per_second) {
        rt = clamp64((__int128) clock->ref_realtime_ns + d);
    } else {
        rt = clamp64((__int128) clock->ref_realtime_ns
                     + d * 1000000000 / (__int128) clock->ticks_per_second);
    }
    return clamp64((__int128) rt + offset_at(p, rt));
}
