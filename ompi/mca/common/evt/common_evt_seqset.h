/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The batch numbers received from one sender, as sorted disjoint intervals
 * [lo, hi]: what every receiver of batches (a node sink, a listener) keeps
 * to tell a duplicate from a late batch and to count the numbers that
 * never came. Batches may arrive out of order (PMIx runs notification
 * handlers on more than one thread; a listener reads several files): a
 * number below the highest seen is a duplicate only if it was seen.
 *
 * Not thread-safe: one set per sender, used under its owner's lock.
 */

#ifndef MCA_COMMON_EVT_SEQSET_H
#define MCA_COMMON_EVT_SEQSET_H

#include "ompi_config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct mca_common_evt_seqset_t {
    uint64_t (*iv)[2]; /**< intervals, ascending */
    size_t n, cap;
} mca_common_evt_seqset_t;

/** An empty set: zero-initialised memory is one. */
#define MCA_COMMON_EVT_SEQSET_INIT \
    {                              \
        NULL, 0, 0                 \
    }

/** Was @p v added? Context: ANY. */
OMPI_DECLSPEC bool mca_common_evt_seqset_has(const mca_common_evt_seqset_t *s, uint64_t v);

/** Add @p v. @return 1 added, 0 already there (a duplicate), -1 out of
 *  memory (the set is unchanged). Context: ANY. */
OMPI_DECLSPEC int mca_common_evt_seqset_add(mca_common_evt_seqset_t *s, uint64_t v);

/** Numbers missing between 0 and the highest added (batches that never
 *  came, or not yet). Context: ANY. */
OMPI_DECLSPEC uint64_t mca_common_evt_seqset_gaps(const mca_common_evt_seqset_t *s);

/** The highest number added; false when the set is empty. Context: ANY. */
OMPI_DECLSPEC bool mca_common_evt_seqset_last(const mca_common_evt_seqset_t *s, uint64_t *last);

/** Free the intervals; the set is empty again. Context: ANY. */
OMPI_DECLSPEC void mca_common_evt_seqset_free(mca_common_evt_seqset_t *s);

#endif /* MCA_COMMON_EVT_SEQSET_H */
