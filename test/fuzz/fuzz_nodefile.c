/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* libFuzzer target of the node file reader (ompi/mca/evt/base/
 * common_evt_nodefile.c): the input is split at its first "OEVI" into a node
 * file and its index (no split: no index), both written to memory files
 * in a private folder and read back like ompi-evt-listen does: every frame returned
 * must lie inside the file, carry a length within the format's bounds and
 * its checksum, and be offered to the decoder; the reader's statistics
 * must add up (skipped bytes within the file). Then the same file is read
 * again as a follower reads a file still being written
 * (mca_common_evt_nodefile_reader_follow()): it must end with
 * OPAL_ERR_WOULD_BLOCK, and every frame it returns must be one the plain
 * read returned (a follower waits where a reader may skip, never invents).
 * ASan/UBSan catch the rest.
 * Runs with fuzz_decoder in make check (test_fuzz_decoder.sh). */

#define _GNU_SOURCE /* memmem */
#include "ompi_config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ompi/mca/common/evt/common_evt_nodefile.h"
#include "ompi/mca/common/evt/common_evt_wire.h"
#include "ompi/mca/common/evt/common_evt_wire_internal.h"

static void check(int cond)
{
    if (!cond) {
        abort();
    }
}

/* A private folder holding "n.evt" (and "n.evt.idx": the reader finds the
 * index by appending ".idx" to the path), removed at exit. */
static char dir[64];

static void cleanup(void)
{
    char p[160];
    snprintf(p, sizeof(p), "%s/n.evt", dir);
    unlink(p);
    snprintf(p, sizeof(p), "%s/n.evt.idx", dir);
    unlink(p);
    rmdir(dir);
}

static void put(const char *name, const uint8_t *data, size_t n)
{
    char p[128];
    FILE *f;
    snprintf(p, sizeof(p), "%s/%s", dir, name);
    f = fopen(p, "wb");
    check(NULL != f);
    check(n == fwrite(data, 1, n, f) || 0 == n);
    fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *split = memmem(data, size, "OEVI", 4);
    size_t flen = NULL == split ? size : (size_t) (split - data);
    mca_common_evt_nodefile_reader_t r;
    char path[128], ipath[160];
    const void *b;
    size_t len;
    uint64_t off, prev_end = 0;
    enum { MAX_SEEN = 4096 };
    uint64_t seen[MAX_SEEN];
    size_t nseen = 0;
    int rc;

    if ('\0' == dir[0]) {
        strcpy(dir, "/tmp/fuzz_nodefile_XXXXXX");
        check(NULL != mkdtemp(dir));
        atexit(cleanup);
    }
    snprintf(path, sizeof(path), "%s/n.evt", dir);
    snprintf(ipath, sizeof(ipath), "%s/n.evt.idx", dir);
    put("n.evt", data, flen);
    if (NULL != split) {
        put("n.evt.idx", split, size - flen);
    } else {
        unlink(ipath);
    }
    if (OPAL_SUCCESS != mca_common_evt_nodefile_reader_open(&r, path)) {
        check('\0' != r.error[0] && NULL == r.state);
        return 0;
    }
    while (OPAL_SUCCESS == (rc = mca_common_evt_nodefile_reader_next(&r, &b, &len, &off))) {
        mca_common_evt_wire_batch_t wb;
        if (nseen < MAX_SEEN) {
            seen[nseen++] = off;
        }
        check(off >= prev_end && off + 16 + len <= flen);
        check(len >= MCA_COMMON_EVT_WIRE_HEADER_BYTES && len <= MCA_COMMON_EVT_WIRE_MAX_BATCH);
        check(0 == memcmp(data + off, "OEVF", 4));
        check(0 == memcmp(data + off + 16, b, len));
        check(wire_get32(data + off + 8) == mca_common_evt_wire_crc32c(0, b, len));
        prev_end = off + 16 + len;
        if (OPAL_SUCCESS == mca_common_evt_wire_decode(b, len, &wb)) {
            mca_common_evt_wire_batch_destruct(&wb);
        }
    }
    check(OPAL_ERR_NOT_FOUND == rc);
    check(r.stats.skipped_bytes <= flen);
    check(0 == r.stats.damaged || '\0' != r.error[0]);
    mca_common_evt_nodefile_reader_close(&r);

    /* followed: a subset of those frames, then "nothing more yet" */
    check(OPAL_SUCCESS == mca_common_evt_nodefile_reader_open(&r, path));
    check(OPAL_SUCCESS == mca_common_evt_nodefile_reader_follow(&r));
    while (OPAL_SUCCESS == (rc = mca_common_evt_nodefile_reader_next(&r, &b, &len, &off))) {
        bool known = nseen == MAX_SEEN;
        for (size_t i = 0; i < nseen && !known; ++i) {
            known = seen[i] == off;
        }
        check(known && off + 16 + len <= flen);
        check(0 == memcmp(data + off + 16, b, len));
    }
    check(OPAL_ERR_WOULD_BLOCK == rc);
    mca_common_evt_nodefile_reader_close(&r);
    return 0;
}
