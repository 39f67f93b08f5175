/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Writes the seed corpus of fuzz_decoder (test/fuzz/corpus/) with the real
 * encoder: batches that cover every section, element type and flag.
 * Also the seed of fuzz_nodefile (DIR/../corpus_nodefile): a node file of
 * these batches followed by its index (the target splits at "OEVI").
 * Run by `make fuzz-corpus` (the files are kept in git); not in make check.
 * Usage: gen_corpus DIR NODEFILE_DIR */

#include "opal_config.h"

#include <stdio.h>
#include <string.h>

#include "ompi/mca/common/evt/common_evt_nodefile.h"
#include "ompi/mca/common/evt/common_evt_wire.h"
#include "opal/mca/base/mca_base_event.h"
#include "opal/runtime/opal.h"
#include "test/unit/test_wire_all_types.h"

static opal_count_t clk(void *ctx)
{
    (void) ctx;
    return 123456789;
}

static int write_file(const char *dir, const char *name, const void *buf, size_t len)
{
    char path[4096];
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    f = fopen(path, "wb");
    if (NULL == f || len != fwrite(buf, 1, len, f)) {
        fprintf(stderr, "gen_corpus: cannot write %s\n", path);
        return 1;
    }
    return 0 == fclose(f) ? 0 : 1;
}

int main(int argc, char **argv)
{
    const char *const all_names[6] = {"i", "u", "big", "ubig", "dbl", "flag"};
    const mca_base_var_type_t p2p_types[8] = {MCA_BASE_VAR_TYPE_UINT64_T,
                                              MCA_BASE_VAR_TYPE_UINT64_T,
                                              MCA_BASE_VAR_TYPE_INT64_T,
                                              MCA_BASE_VAR_TYPE_INT64_T,
                                              MCA_BASE_VAR_TYPE_INT32_T,
                                              MCA_BASE_VAR_TYPE_INT32_T,
                                              MCA_BASE_VAR_TYPE_INT32_T,
                                              MCA_BASE_VAR_TYPE_INT32_T};
    const ptrdiff_t p2p_offs[8] = {0, 8, 16, 24, 32, 36, 40, 44};
    const char *const p2p_names[8] = {"comm", "bytes", "start_time", "complete_time",
                                      "peer", "tag",   "mode",       "comm_peer"};
    mca_base_event_source_t *s1, *s2;
    mca_base_event_t *all, *p2p, *unnamed;
    mca_common_evt_wire_sender_t snd;
    mca_common_evt_wire_encoder_t enc;
    mca_common_evt_wire_offset_t off = {1700000000000000000LL, -1234, 50};
    const void *buf;
    size_t len;
    int si, rc = 0;

    mca_common_evt_nodefile_t nf;
    char tmpdir[] = "/tmp/gen_corpus_XXXXXX";

    if (3 != argc) {
        fprintf(stderr, "usage: %s DIR NODEFILE_DIR\n", argv[0]);
        return 2;
    }
    if (NULL == mkdtemp(tmpdir)
        || OPAL_SUCCESS != mca_common_evt_nodefile_open(&nf, tmpdir, "nodeA")) {
        return 1;
    }
    if (OPAL_SUCCESS != opal_init_util(&argc, &argv) || OPAL_SUCCESS != mca_base_event_init()) {
        return 1;
    }
    si = mca_base_event_source_register("ompi", "seed", MCA_BASE_EVENT_SOURCE_ORDERED, 1000000000,
                                        OPAL_COUNT_MAX, clk, true, NULL);
    mca_base_event_source_get_by_index(si, &s1);
    si = mca_base_event_source_register("ompi.unordered", "seed", MCA_BASE_EVENT_SOURCE_UNORDERED,
                                        1000, OPAL_COUNT_MAX, clk, true, NULL);
    mca_base_event_source_get_by_index(si, &s2);
    mca_base_event_register_ptr("ompi", "seed", NULL, "all", "", OPAL_INFO_LVL_4,
                                ALL_PAYLOAD_NELEMS, all_payload_types, all_payload_offsets, NULL,
                                MCA_BASE_VAR_BIND_NO_OBJECT, 0, s1, NULL, &all);
    mca_base_event_set_element_names(all, all_names);
    mca_base_event_register_ptr("ompi", NULL, NULL, "mpi.p2p_send_complete", "", OPAL_INFO_LVL_4, 8,
                                p2p_types, p2p_offs, NULL, MCA_BASE_VAR_BIND_NO_OBJECT, 0, s1, NULL,
                                &p2p);
    mca_base_event_set_element_names(p2p, p2p_names);
    mca_base_event_register_ptr("ompi", "seed", NULL, "unnamed", "", OPAL_INFO_LVL_4, 2, p2p_types,
                                p2p_offs, NULL, MCA_BASE_VAR_BIND_NO_OBJECT, 0, s2, NULL, &unnamed);

    memset(&snd, 0, sizeof(snd));
    strcpy(snd.nspace, "prterun-host-1234@1");
    strcpy(snd.host, "nodeA");
    snd.rank = 3;
    snd.pid = 999;
    if (OPAL_SUCCESS != mca_common_evt_wire_encoder_construct(&enc, &snd, 4096)) {
        return 1;
    }

    /* 1: every element type, several records, given clock */
    mca_common_evt_wire_encoder_begin(&enc, 0, 0);
    mca_common_evt_wire_encoder_add_clock(&enc, s1, 1000, 1700000000000000000LL);
    for (int i = 0; i < 4; ++i) {
        all_payload_t p = {-i, (uint32_t) i, -1000LL * i, 1000ULL * i, 0.5 * i, i & 1};
        mca_base_event_record_t r = {.event = all, .timestamp = 1000 + i, .data = &p, .depth = i};
        mca_common_evt_wire_encoder_add_record(&enc, &r);
    }
    mca_common_evt_wire_encoder_finish(&enc, &buf, &len);
    rc |= write_file(argv[1], "all_types.bin", buf, len);
    rc |= OPAL_SUCCESS != mca_common_evt_nodefile_append(&nf, buf, len);

    /* 2: p2p records and an unnamed type on a second source, drops */
    mca_common_evt_wire_encoder_begin(&enc, 1, 0);
    for (int i = 0; i < 3; ++i) {
        uint64_t p[6] = {0x7f00aa, 64, 100 + i, 200 + i, 0};
        mca_base_event_record_t r = {.event = p2p, .timestamp = 300 + i, .data = p};
        mca_base_event_record_t u = {.event = unnamed, .timestamp = 7, .data = p};
        mca_common_evt_wire_encoder_add_record(&enc, &r);
        mca_common_evt_wire_encoder_add_record(&enc, &u);
    }
    mca_common_evt_wire_encoder_add_drops(&enc, p2p, 17);
    mca_common_evt_wire_encoder_finish(&enc, &buf, &len);
    rc |= write_file(argv[1], "p2p_drops.bin", buf, len);
    rc |= OPAL_SUCCESS != mca_common_evt_nodefile_append(&nf, buf, len);

    /* 3: offsets, FINAL, drops only */
    mca_common_evt_wire_encoder_add_offset(&enc, &off);
    off.local_realtime_ns += 1000000000;
    off.offset_ns = -1300;
    mca_common_evt_wire_encoder_add_offset(&enc, &off);
    mca_common_evt_wire_encoder_begin(&enc, 2, MCA_COMMON_EVT_WIRE_FLAG_FINAL);
    mca_common_evt_wire_encoder_add_drops(&enc, all, 3);
    mca_common_evt_wire_encoder_finish(&enc, &buf, &len);
    rc |= write_file(argv[1], "final_offsets.bin", buf, len);
    rc |= OPAL_SUCCESS != mca_common_evt_nodefile_append(&nf, buf, len);
    mca_common_evt_nodefile_close(&nf);
    {
        /* the node file, then its index: one seed */
        char cmd[8400];
        snprintf(cmd, sizeof(cmd),
                 "cat %s/nodeA.evt %s/nodeA.evt.idx > '%s/nodefile.bin' && rm -r %s", tmpdir,
                 tmpdir, argv[2], tmpdir);
        rc |= 0 != system(cmd);
    }

    /* 4: an empty batch */
    mca_common_evt_wire_encoder_begin(&enc, 3, 0);
    mca_common_evt_wire_encoder_finish(&enc, &buf, &len);
    rc |= write_file(argv[1], "empty.bin", buf, len);

    /* 5: a full batch */
    mca_common_evt_wire_encoder_begin(&enc, 4, 0);
    for (int i = 0;; ++i) {
        all_payload_t p = {i, 0, 0, 0, 0.0, 0};
        mca_base_event_record_t r = {.event = all, .timestamp = i, .data = &p};
        if (OPAL_SUCCESS != mca_common_evt_wire_encoder_add_record(&enc, &r)) {
            break;
        }
    }
    mca_common_evt_wire_encoder_finish(&enc, &buf, &len);
    rc |= write_file(argv[1], "full.bin", buf, len);

    /* 6: a flight-recorder dictionary entry: types with their layouts */
    mca_common_evt_wire_encoder_begin(&enc, 5, 0);
    mca_common_evt_wire_encoder_add_type(&enc, all);
    mca_common_evt_wire_encoder_add_type(&enc, p2p);
    mca_common_evt_wire_encoder_add_type(&enc, unnamed);
    mca_common_evt_wire_encoder_finish(&enc, &buf, &len);
    rc |= write_file(argv[1], "layouts.bin", buf, len);

    mca_common_evt_wire_encoder_destruct(&enc);
    (void) mca_base_event_finalize();
    return rc;
}
