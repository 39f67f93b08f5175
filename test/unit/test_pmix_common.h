/* Shared set-up of the evt/pmix unit tests: the engine, test events, and a
 * fake PMIx_Notify_event (ompi_evt_pmix_test_set_notify()) that keeps a
 * copy of every batch and completes, holds, fails or refuses each
 * notification as the test asks. No PMIx server is involved. */
#ifndef TEST_PMIX_COMMON_H
#define TEST_PMIX_COMMON_H

#include "ompi_config.h"

#include <pmix.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ompi/mca/common/evt/common_evt_wire.h"
#include "ompi/mca/evt/pmix/evt_pmix_send.h"
#include "opal/mca/base/mca_base_event.h"
#include "opal/runtime/opal.h"

/* ---- events: {seq:u64@0, who:u32@8, pad:u32@12} on a test source ---- */
typedef struct {
    uint64_t seq;
    uint32_t who;
    uint32_t pad;
} pmixtest_payload_t;

static inline int pmixtest_engine_start(void)
{
    if (OPAL_SUCCESS != opal_init_util(NULL, NULL) || OPAL_SUCCESS != mca_base_event_init()) {
        return 1;
    }
    return 0;
}

static inline mca_base_event_t *pmixtest_event(const char *name)
{
    const mca_base_var_type_t types[3] = {MCA_BASE_VAR_TYPE_UINT64_T, MCA_BASE_VAR_TYPE_UINT32_T,
                                          MCA_BASE_VAR_TYPE_UINT32_T};
    const ptrdiff_t offsets[3] = {0, 8, 12};
    mca_base_event_source_t *src = NULL;
    mca_base_event_t *ev = NULL;
    int si;

    si = mca_base_event_source_register("ompi.pmixtest", "pmix test source",
                                        MCA_BASE_EVENT_SOURCE_ORDERED, 1000000000, OPAL_COUNT_MAX,
                                        NULL, true, NULL);
    if (0 > si || OPAL_SUCCESS != mca_base_event_source_get_by_index(si, &src)) {
        return NULL;
    }
    if (0 > mca_base_event_register_ptr("ompi", "pmixtest", NULL, name, "pmix test event",
                                        OPAL_INFO_LVL_4, 3, types, offsets, NULL,
                                        MCA_BASE_VAR_BIND_NO_OBJECT, 0, src, NULL, &ev)) {
        return NULL;
    }
    return ev;
}

/* A record as a drain hands it to consume(). */
static inline mca_base_event_record_t pmixtest_record(mca_base_event_t *ev, pmixtest_payload_t *p,
                                                      uint64_t seq)
{
    mca_base_event_record_t r;

    memset(&r, 0, sizeof(r));
    p->seq = seq;
    p->who = 1;
    p->pad = 0;
    r.event = ev;
    r.source = ev->source;
    r.timestamp = (opal_count_t) (1000 + seq);
    r.data = p;
    return r;
}

/* ---- the fake PMIx_Notify_event ---- */
enum {
    FAKE_COMPLETE = 0, /* complete with PMIX_SUCCESS inside the call */
    FAKE_HOLD = 1,     /* keep the callback for fake_complete_one() */
    FAKE_REFUSE = 2,   /* return fake.status, no callback */
    FAKE_FAIL = 3,     /* complete with fake.status inside the call */
};

#define FAKE_MAX 4096
typedef struct {
    int mode;
    int refuse_next; /* > 0: refuse this many calls (fake.status), then mode */
    pmix_status_t status;
    int calls;
    /* every call's batch, copied */
    int nbatches;
    void *batch[FAKE_MAX];
    size_t len[FAKE_MAX];
    /* held callbacks */
    int nheld, next_held;
    pmix_op_cbfunc_t held_cb[FAKE_MAX];
    void *held_cbdata[FAKE_MAX];
    /* attributes of the last call */
    pmix_status_t code;
    pmix_data_range_t range;
    bool non_default, do_not_cache, custom;
    size_t ncustom;
    char custom_ns[PMIX_MAX_NSLEN + 1];
    pmix_rank_t custom_rank;
} fake_t;
static fake_t fake;

static pmix_status_t fake_notify(pmix_status_t code, const pmix_proc_t *source,
                                 pmix_data_range_t range, const pmix_info_t info[], size_t ninfo,
                                 pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    ++fake.calls;
    fake.code = code;
    fake.range = range;
    fake.non_default = fake.do_not_cache = fake.custom = false;
    for (size_t i = 0; i < ninfo; ++i) {
        if (PMIX_CHECK_KEY(&info[i], MCA_COMMON_EVT_WIRE_PMIX_KEY)
            && PMIX_BYTE_OBJECT == info[i].value.type && FAKE_MAX > fake.nbatches) {
            fake.len[fake.nbatches] = info[i].value.data.bo.size;
            fake.batch[fake.nbatches] = malloc(info[i].value.data.bo.size);
            memcpy(fake.batch[fake.nbatches], info[i].value.data.bo.bytes,
                   info[i].value.data.bo.size);
            ++fake.nbatches;
        } else if (PMIX_CHECK_KEY(&info[i], PMIX_EVENT_NON_DEFAULT)) {
            fake.non_default = info[i].value.data.flag;
        } else if (PMIX_CHECK_KEY(&info[i], PMIX_EVENT_DO_NOT_CACHE)) {
            fake.do_not_cache = info[i].value.data.flag;
        } else if (PMIX_CHECK_KEY(&info[i], PMIX_EVENT_CUSTOM_RANGE)
                   && PMIX_DATA_ARRAY == info[i].value.type) {
            const pmix_proc_t *p = info[i].value.data.darray->array;
            fake.custom = true;
            fake.ncustom = info[i].value.data.darray->size;
            snprintf(fake.custom_ns, sizeof(fake.custom_ns), "%s", p[0].nspace);
            fake.custom_rank = p[0].rank;
        }
    }
    if (0 < fake.refuse_next) {
        --fake.refuse_next;
        return fake.status;
    }
    switch (fake.mode) {
    case FAKE_HOLD:
        fake.held_cb[fake.nheld] = cbfunc;
        fake.held_cbdata[fake.nheld++] = cbdata;
        return PMIX_SUCCESS;
    case FAKE_REFUSE:
        return fake.status;
    case FAKE_FAIL:
        cbfunc(fake.status, cbdata);
        return PMIX_SUCCESS;
    default:
        cbfunc(PMIX_SUCCESS, cbdata);
        return PMIX_SUCCESS;
    }
}

/* Complete the oldest held notification with @p status; false if none. */
static inline bool fake_complete_one(pmix_status_t status)
{
    if (fake.next_held == fake.nheld) {
        return false;
    }
    fake.held_cb[fake.next_held](status, fake.held_cbdata[fake.next_held]);
    ++fake.next_held;
    return true;
}

static inline void fake_reset(int mode)
{
    for (int i = 0; i < fake.nbatches; ++i) {
        free(fake.batch[i]);
    }
    memset(&fake, 0, sizeof(fake));
    fake.mode = mode;
    ompi_evt_pmix_test_set_notify(fake_notify);
}

/* Decode captured batch @p i (the test owns the batch to destruct). */
static inline int fake_decode(int i, mca_common_evt_wire_batch_t *b)
{
    memset(b, 0, sizeof(*b));
    return mca_common_evt_wire_decode(fake.batch[i], fake.len[i], b);
}

/* The drop count of event @p name in batch @p b (0 when absent). */
static inline uint64_t batch_drops(const mca_common_evt_wire_batch_t *b, const char *name)
{
    for (uint32_t i = 0; i < b->num_drops; ++i) {
        if (0 == strcmp(b->types[b->drops[i].type].name, name)) {
            return b->drops[i].count;
        }
    }
    return 0;
}

/* Records of @p name over every captured batch; their seq elements must
 * be 0, 1, 2 ... in order when @p in_order. Returns the count, or -1 when
 * out of order. */
static inline long fake_count_records(const char *name, bool in_order)
{
    long n = 0;

    for (int i = 0; i < fake.nbatches; ++i) {
        mca_common_evt_wire_batch_t b;
        mca_common_evt_wire_record_t rec;
        size_t cursor = 0;

        if (OPAL_SUCCESS != fake_decode(i, &b)) {
            return -1;
        }
        while (mca_common_evt_wire_batch_next_record(&b, &cursor, &rec)) {
            mca_common_evt_wire_value_t v;
            if (0 != strcmp(b.types[rec.type].name, name)) {
                continue;
            }
            if (in_order
                && (OPAL_SUCCESS
                        != mca_common_evt_wire_element_value(&b.types[rec.type], rec.payload, 0, &v)
                    || v.v.u != (uint64_t) n)) {
                mca_common_evt_wire_batch_destruct(&b);
                return -1;
            }
            ++n;
        }
        mca_common_evt_wire_batch_destruct(&b);
    }
    return n;
}

static inline void pmixtest_sender_params(ompi_evt_pmix_send_params_t *p, size_t batch_bytes,
                                          int max_inflight)
{
    memset(p, 0, sizeof(*p));
    p->batch_bytes = batch_bytes;
    p->max_inflight = max_inflight;
    p->flush_interval_ns = 10 * 1000000;
    p->range = PMIX_RANGE_LOCAL;
}

static inline void pmixtest_who(mca_common_evt_wire_sender_t *who, const char *host, uint32_t rank)
{
    memset(who, 0, sizeof(*who));
    snprintf(who->nspace, sizeof(who->nspace), "pmixtest-job");
    snprintf(who->host, sizeof(who->host), "%s", host);
    who->rank = rank;
    who->pid = 42;
}

#endif
