/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/*
 * evt_pmix_producer -F: a process of the job that writes batches in
 * another's name. It sends, with the same PMIx call and range as evt/pmix
 * (local, or namespace when OMPI_MCA_evt_pmix_range says so),
 *   - a batch claiming to be rank 0's first one (seq 0), with numbered
 *     events 0..9 of rank 0 and the producer's tag + 1000;
 *   - a batch claiming to be rank 0's last one (seq 1000, FINAL);
 *   - a batch claiming to come from rank 0 of another namespace.
 * A node sink that believed them would drop rank 0's real first batch as a
 * duplicate, stop waiting for rank 0, and record events nobody raised.
 */

#include "ompi_config.h"

#include <pmix.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ompi/mca/common/evt/common_evt_wire.h"
#include "opal/constants.h"
#include "opal/mca/base/mca_base_event.h"

#include "evt_pmix_forge.h"

typedef struct {
    uint32_t rank;
    uint32_t tag;
    uint64_t seq;
} forged_payload_t;

static pthread_mutex_t done_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done_cond = PTHREAD_COND_INITIALIZER;
static int done;

static void notified(pmix_status_t status, void *cbdata)
{
    (void) status;
    (void) cbdata;
    pthread_mutex_lock(&done_lock);
    ++done;
    pthread_cond_signal(&done_cond);
    pthread_mutex_unlock(&done_lock);
}

/* One batch in the name of (nspace, rank), sent to the node. */
static int send_as(mca_base_event_t *numbered, const char *nspace, uint32_t rank, const char *host,
                   uint64_t seq, uint32_t flags, unsigned tag)
{
    const char *r = getenv("OMPI_MCA_evt_pmix_range");
    pmix_data_range_t range = NULL != r && 0 == strcmp(r, "namespace") ? PMIX_RANGE_NAMESPACE
                                                                       : PMIX_RANGE_LOCAL;
    mca_common_evt_wire_encoder_t enc;
    mca_common_evt_wire_sender_t who;
    pmix_info_t info[3];
    const void *buf;
    size_t len;
    bool yes = true;
    int want;

    memset(&who, 0, sizeof(who));
    snprintf(who.nspace, sizeof(who.nspace), "%s", nspace);
    snprintf(who.host, sizeof(who.host), "%s", host);
    who.rank = rank;
    who.pid = (uint32_t) getpid();
    if (OPAL_SUCCESS != mca_common_evt_wire_encoder_construct(&enc, &who, 65536)
        || OPAL_SUCCESS != mca_common_evt_wire_encoder_begin(&enc, seq, flags)) {
        return -1;
    }
    for (uint64_t i = 0; i < 10; ++i) {
        forged_payload_t p = {.rank = rank, .tag = tag, .seq = i};
        mca_base_event_record_t r;

        memset(&r, 0, sizeof(r));
        r.event = numbered;
        r.source = numbered->source;
        r.timestamp = (opal_count_t) (1 + i);
        r.data = &p;
        if (OPAL_SUCCESS != mca_common_evt_wire_encoder_add_record(&enc, &r)) {
            mca_common_evt_wire_encoder_destruct(&enc);
            return -1;
        }
    }
    if (OPAL_SUCCESS != mca_common_evt_wire_encoder_finish(&enc, &buf, &len)) {
        mca_common_evt_wire_encoder_destruct(&enc);
        return -1;
    }
    PMIX_LOAD_KEY(info[0].key, MCA_COMMON_EVT_WIRE_PMIX_KEY);
    info[0].value.type = PMIX_BYTE_OBJECT;
    info[0].value.data.bo.bytes = (char *) buf;
    info[0].value.data.bo.size = len;
    PMIX_INFO_LOAD(&info[1], PMIX_EVENT_NON_DEFAULT, &yes, PMIX_BOOL);
    PMIX_INFO_LOAD(&info[2], PMIX_EVENT_DO_NOT_CACHE, &yes, PMIX_BOOL);
    pthread_mutex_lock(&done_lock);
    want = done + 1;
    pthread_mutex_unlock(&done_lock);
    if (PMIX_SUCCESS
        != PMIx_Notify_event(MCA_COMMON_EVT_WIRE_PMIX_STATUS, NULL, range, info, 3, notified,
                             NULL)) {
        mca_common_evt_wire_encoder_destruct(&enc);
        return -1;
    }
    /* the batch stays ours until PMIx is done with it */
    pthread_mutex_lock(&done_lock);
    while (done < want) {
        pthread_cond_wait(&done_cond, &done_lock);
    }
    pthread_mutex_unlock(&done_lock);
    mca_common_evt_wire_encoder_destruct(&enc);
    return 0;
}

int evt_pmix_forge(mca_base_event_t *numbered, unsigned tag)
{
    pmix_proc_t me;
    pmix_value_t *val = NULL;
    char host[256] = "";
    int rc = 0;

    if (PMIX_SUCCESS != PMIx_Init(&me, NULL, 0)) {
        return -1;
    }
    if (PMIX_SUCCESS == PMIx_Get(&me, PMIX_HOSTNAME, NULL, 0, &val) && NULL != val
        && PMIX_STRING == val->type) {
        snprintf(host, sizeof(host), "%s", val->data.string);
    } else if (0 != gethostname(host, sizeof(host) - 1)) {
        rc = -1;
    }
    if (NULL != val) {
        PMIX_VALUE_RELEASE(val);
    }
    if (0 == rc) {
        rc |= send_as(numbered, me.nspace, 0, host, 0, 0, tag + 1000);
        rc |= send_as(numbered, me.nspace, 0, host, 1000, MCA_COMMON_EVT_WIRE_FLAG_FINAL,
                      tag + 1000);
        rc |= send_as(numbered, "forged-namespace", 0, host, 0, 0, tag + 1000);
    }
    (void) PMIx_Finalize(NULL, 0);
    return rc;
}
