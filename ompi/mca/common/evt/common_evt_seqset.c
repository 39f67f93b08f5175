/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Sets of batch numbers (common_evt_seqset.h): binary search over sorted
 * intervals; adding extends or merges neighbours, so a sender whose
 * batches all came is one interval.
 */

#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>

#include "ompi/mca/common/evt/common_evt_seqset.h"

bool mca_common_evt_seqset_has(const mca_common_evt_seqset_t *s, uint64_t v)
{
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (s->iv[mid][1] < v) {
            lo = mid + 1;
        } else if (s->iv[mid][0] > v) {
            hi = mid;
        } else {
            return true;
        }
    }
    return false;
}

int mca_common_evt_seqset_add(mca_common_evt_seqset_t *s, uint64_t v)
{
    size_t lo = 0, hi = s->n;

    /* the first interval whose hi >= v */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (s->iv[mid][1] < v) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (lo < s->n && s->iv[lo][0] <= v) {
        return 0;
    }
    /* extend the previous interval, the next one, or both (merge) */
    if (lo > 0 && s->iv[lo - 1][1] + 1 == v) {
        s->iv[lo - 1][1] = v;
        if (lo < s->n && s->iv[lo][0] == v + 1) {
            s->iv[lo - 1][1] = s->iv[lo][1];
            memmove(&s->iv[lo], &s->iv[lo + 1], (s->n - lo - 1) * sizeof(s->iv[0]));
            s->n--;
        }
        return 1;
    }
    if (lo < s->n && v != UINT64_MAX && s->iv[lo][0] == v + 1) {
        s->iv[lo][0] = v;
        return 1;
    }
    if (s->n == s->cap) {
        size_t ncap = 0 == s->cap ? 4 : 2 * s->cap;
        void *n = realloc(s->iv, ncap * sizeof(s->iv[0]));
        if (NULL == n) {
            return -1;
        }
        s->iv = n;
        s->cap = ncap;
    }
    memmove(&s->iv[lo + 1], &s->iv[lo], (s->n - lo) * sizeof(s->iv[0]));
    s->iv[lo][0] = v;
    s->iv[lo][1] = v;
    s->n++;
    return 1;
}

uint64_t mca_common_evt_seqset_gaps(const mca_common_evt_seqset_t *s)
{
    uint64_t gaps = 0, next = 0;
    for (size_t i = 0; i < s->n; ++i) {
        gaps += s->iv[i][0] - next;
        next = s->iv[i][1] + 1;
    }
    return gaps;
}

bool mca_common_evt_seqset_last(const mca_common_evt_seqset_t *s, uint64_t *last)
{
    if (0 == s->n) {
        return false;
    }
    *last = s->iv[s->n - 1][1];
    return true;
}

void mca_common_evt_seqset_free(mca_common_evt_seqset_t *s)
{
    free(s->iv);
    memset(s, 0, sizeof(*s));
}
