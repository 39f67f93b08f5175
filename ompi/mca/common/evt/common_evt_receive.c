/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Receiving a batch from a PMIx notification (common_evt_receive.h).
 */

#include "ompi_config.h"

#include <string.h>

#include "ompi/mca/common/evt/common_evt_receive.h"

mca_common_evt_receive_t mca_common_evt_receive_find(const pmix_info_t info[], size_t ninfo,
                                                     const void **buf, size_t *len)
{
    for (size_t i = 0; NULL != info && i < ninfo; ++i) {
        if (!PMIX_CHECK_KEY(&info[i], MCA_COMMON_EVT_WIRE_PMIX_KEY)) {
            continue;
        }
        if (PMIX_BYTE_OBJECT != info[i].value.type) {
            return MCA_COMMON_EVT_RECEIVE_INVALID;
        }
        *buf = info[i].value.data.bo.bytes;
        *len = info[i].value.data.bo.size;
        return MCA_COMMON_EVT_RECEIVED;
    }
    return MCA_COMMON_EVT_RECEIVE_NONE;
}

mca_common_evt_receive_t mca_common_evt_receive_decode(const pmix_proc_t *source, const void *buf,
                                                       size_t len,
                                                       mca_common_evt_wire_batch_t *batch)
{
    int rc;

    memset(batch, 0, sizeof(*batch));
    rc = mca_common_evt_wire_decode(buf, len, batch);
    if (OPAL_ERR_OUT_OF_RESOURCE == rc) {
        return MCA_COMMON_EVT_RECEIVE_NOMEM;
    }
    if (OPAL_SUCCESS != rc) {
        return MCA_COMMON_EVT_RECEIVE_INVALID;
    }
    if (NULL == source || batch->sender.rank != source->rank
        || 0 != strncmp(batch->sender.nspace, source->nspace, PMIX_MAX_NSLEN)) {
        return MCA_COMMON_EVT_RECEIVE_FORGED;
    }
    return MCA_COMMON_EVT_RECEIVED;
}
