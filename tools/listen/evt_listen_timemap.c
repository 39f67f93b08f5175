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

/* Offset at local realtime @p rt: linear between the samples around it,
 * the nearest sample's value outside them. */
static int64_t offset_at(const listen_proc_t *p, int64_t rt)
{
    const ompi_evt_wire_offset_t *s = p->offsets;
    size_t n = p->num_offsets, lo, hi;
    __int128 num, den;

    if (0 == n) {
        return 0;
    }
    if (rt <= s[0].local_realtime_ns) {
        return s[0].offset_ns;
    }
    if (rt >= s[n - 1].local_realtime_ns) {
        return s[n - 1].offset_ns;
    }
    /* s[lo].local <= rt < s[hi].local, hi == lo + 1 */
    lo = 0;
    hi = n - 1;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (s[mid].local_realtime_ns <= rt) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    num = ((__int128) s[hi].offset_ns - s[lo].offset_ns)
          * ((__int128) rt - s[lo].local_realtime_ns);
    den = (__int128) s[hi].local_realtime_ns - s[lo].local_realtime_ns;
    return clamp64((__int128) s[lo].offset_ns + num / den);
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
