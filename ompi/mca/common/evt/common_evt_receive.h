/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Receiving a batch from a PMIx notification: the one place every receiver
 * (a node sink, an attached tool, a benchmark) finds the batch in the
 * notification's info, decodes it, and checks that the process that sent
 * the notification is the one the batch names. A batch's sender field is
 * only what its writer claims; PMIx says who notified, so any process that
 * can notify cannot record events in another's name.
 */

#ifndef MCA_COMMON_EVT_RECEIVE_H
#define MCA_COMMON_EVT_RECEIVE_H

#include "ompi_config.h"

#include <pmix.h>
#include <stddef.h>

#include "ompi/mca/common/evt/common_evt_wire.h"

typedef enum {
    MCA_COMMON_EVT_RECEIVED = 0,    /**< a valid batch sent by the process it names */
    MCA_COMMON_EVT_RECEIVE_NONE,    /**< the notification carries no batch */
    MCA_COMMON_EVT_RECEIVE_INVALID, /**< a value under the batch key that is not a valid batch */
    MCA_COMMON_EVT_RECEIVE_FORGED,  /**< valid, but it names another sender than the source */
    MCA_COMMON_EVT_RECEIVE_NOMEM,   /**< no memory to decode it */
} mca_common_evt_receive_t;

/**
 * Find the batch in a notification's @p info (key
 * MCA_COMMON_EVT_WIRE_PMIX_KEY, a byte object).
 * @param[out] buf, len  its bytes (in @p info) when found
 * @return MCA_COMMON_EVT_RECEIVED (found), _NONE, or _INVALID (the key
 *         holds another type)
 * Context: ANY (a PMIx event handler).
 */
OMPI_DECLSPEC mca_common_evt_receive_t mca_common_evt_receive_find(const pmix_info_t info[],
                                                                   size_t ninfo, const void **buf,
                                                                   size_t *len);

/**
 * Decode the batch @p buf, @p len that @p source notified, and check that
 * it names @p source as its sender (namespace and rank).
 * @param[out] batch  decoded when MCA_COMMON_EVT_RECEIVED or _FORGED (the
 *                    caller destructs it either way; it holds nothing to
 *                    free otherwise, and batch->error says why)
 * @return MCA_COMMON_EVT_RECEIVED, _INVALID, _FORGED (also when @p source
 *         is NULL: nobody to vouch for it), _NOMEM
 * Context: ANY.
 */
OMPI_DECLSPEC mca_common_evt_receive_t mca_common_evt_receive_decode(
    const pmix_proc_t *source, const void *buf, size_t len, mca_common_evt_wire_batch_t *batch);

#endif /* MCA_COMMON_EVT_RECEIVE_H */
