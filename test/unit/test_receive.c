/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Unit tests: receiving a batch from a PMIx notification and the batch
 * numbers seen per sender (ompi/mca/common/evt/common_evt_receive.h,
 * common_evt_seqset.h), what every receiver shares: the batch found in the
 * notification's info or not, a value of the wrong type, garbage, a batch
 * naming another sender than the notification's source; numbers arriving
 * in any order, repeats, gaps. */
#include "ompi_config.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "ompi/mca/common/evt/common_evt_receive.h"
#include "ompi/mca/common/evt/common_evt_seqset.h"

static const mca_common_evt_wire_source_desc_t src = {.name = "t.src", .ticks_per_second = 1000};
static const mca_common_evt_wire_type_desc_t type = {.name = "t.ev", .source = &src};

/* An encoded batch of @p nspace / @p rank (malloc'd). */
static void *batch_of(const char *nspace, uint32_t rank, size_t *len)
{
    mca_common_evt_wire_sender_t who = {.rank = rank, .pid = 1};
    mca_common_evt_wire_encoder_t enc;
    const void *b;
    void *copy;

    snprintf(who.nspace, sizeof(who.nspace), "%s", nspace);
    snprintf(who.host, sizeof(who.host), "nodeA");
    cr_assert_eq(mca_common_evt_wire_encoder_construct(&enc, &who, 4096), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_begin(&enc, 0, 0), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_add(&enc, &type, 0, 5, NULL), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_finish(&enc, &b, len), OPAL_SUCCESS);
    copy = malloc(*len);
    memcpy(copy, b, *len);
    mca_common_evt_wire_encoder_destruct(&enc);
    return copy;
}

Test(receive, finds_the_batch_among_the_info)
{
    pmix_info_t info[3];
    const void *buf = NULL;
    size_t len = 0;
    char bytes[4] = "abc";

    PMIX_INFO_LOAD(&info[0], "other.key", "x", PMIX_STRING);
    cr_expect_eq(mca_common_evt_receive_find(info, 1, &buf, &len), MCA_COMMON_EVT_RECEIVE_NONE);
    cr_expect_eq(mca_common_evt_receive_find(NULL, 0, &buf, &len), MCA_COMMON_EVT_RECEIVE_NONE);
    PMIX_INFO_LOAD(&info[1], MCA_COMMON_EVT_WIRE_PMIX_KEY, "not bytes", PMIX_STRING);
    cr_expect_eq(mca_common_evt_receive_find(info, 2, &buf, &len), MCA_COMMON_EVT_RECEIVE_INVALID);
    PMIX_INFO_DESTRUCT(&info[1]);
    {
        pmix_byte_object_t bo = {.bytes = bytes, .size = 3};
        PMIX_INFO_LOAD(&info[1], MCA_COMMON_EVT_WIRE_PMIX_KEY, &bo, PMIX_BYTE_OBJECT);
    }
    cr_assert_eq(mca_common_evt_receive_find(info, 2, &buf, &len), MCA_COMMON_EVT_RECEIVED);
    cr_expect_eq(len, 3);
    cr_expect_eq(0, memcmp(buf, "abc", 3));
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
}

Test(receive, decodes_and_vouches_for_the_sender)
{
    pmix_proc_t me, other;
    mca_common_evt_wire_batch_t b;
    size_t len;
    void *buf = batch_of("job@1", 3, &len);
    char garbage[64];

    PMIX_LOAD_PROCID(&me, "job@1", 3);
    PMIX_LOAD_PROCID(&other, "job@1", 4);
    cr_assert_eq(mca_common_evt_receive_decode(&me, buf, len, &b), MCA_COMMON_EVT_RECEIVED);
    cr_expect_eq(b.num_records, 1);
    mca_common_evt_wire_batch_destruct(&b);
    cr_expect_eq(mca_common_evt_receive_decode(&other, buf, len, &b),
                 MCA_COMMON_EVT_RECEIVE_FORGED);
    cr_expect_eq(b.sender.rank, 3, "decoded: the caller can say whom it claimed");
    mca_common_evt_wire_batch_destruct(&b);
    cr_expect_eq(mca_common_evt_receive_decode(NULL, buf, len, &b), MCA_COMMON_EVT_RECEIVE_FORGED,
                 "nobody vouches");
    mca_common_evt_wire_batch_destruct(&b);
    PMIX_LOAD_PROCID(&other, "job@2", 3);
    cr_expect_eq(mca_common_evt_receive_decode(&other, buf, len, &b),
                 MCA_COMMON_EVT_RECEIVE_FORGED);
    mca_common_evt_wire_batch_destruct(&b);
    memset(garbage, 0x5a, sizeof(garbage));
    cr_expect_eq(mca_common_evt_receive_decode(&me, garbage, sizeof(garbage), &b),
                 MCA_COMMON_EVT_RECEIVE_INVALID);
    cr_expect_not_null(b.error);
    mca_common_evt_wire_batch_destruct(&b);
    cr_expect_eq(mca_common_evt_receive_decode(&me, buf, len - 1, &b),
                 MCA_COMMON_EVT_RECEIVE_INVALID, "truncated");
    mca_common_evt_wire_batch_destruct(&b);
    free(buf);
}

Test(seqset, any_order_repeats_and_gaps)
{
    mca_common_evt_seqset_t s = MCA_COMMON_EVT_SEQSET_INIT;
    const uint64_t order[] = {5, 0, 9, 1, 7, 6, 2, 8};
    uint64_t last;

    cr_expect_not(mca_common_evt_seqset_last(&s, &last));
    cr_expect_eq(mca_common_evt_seqset_gaps(&s), 0);
    for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); ++i) {
        cr_assert_eq(mca_common_evt_seqset_add(&s, order[i]), 1);
        cr_assert_eq(mca_common_evt_seqset_add(&s, order[i]), 0, "a repeat");
    }
    cr_expect_eq(mca_common_evt_seqset_gaps(&s), 2, "3 and 4 never came");
    cr_expect(mca_common_evt_seqset_has(&s, 7));
    cr_expect_not(mca_common_evt_seqset_has(&s, 4));
    cr_assert(mca_common_evt_seqset_last(&s, &last));
    cr_expect_eq(last, 9);
    cr_assert_eq(mca_common_evt_seqset_add(&s, 4), 1);
    cr_assert_eq(mca_common_evt_seqset_add(&s, 3), 1);
    cr_expect_eq(mca_common_evt_seqset_gaps(&s), 0);
    cr_expect_eq(s.n, 1, "one interval once whole");
    cr_assert_eq(mca_common_evt_seqset_add(&s, UINT64_MAX), 1);
    cr_expect_eq(mca_common_evt_seqset_gaps(&s), UINT64_MAX - 10);
    mca_common_evt_seqset_free(&s);
    mca_common_evt_seqset_free(&s);
    cr_expect_eq(s.n, 0);
}
