/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Checks the evt/file recordings of a test_file_crash job:
 *   file_check DIR PROGRESS_DIR SEED NP MODE...   (as test_file_crash)
 * For every rank, from its file (read with the decoder of
 * ompi/mca/common/evt/common_evt_flight_read.c) and the count R of raises it completed
 * (PROGRESS_DIR/rank.R, written by the rank as it went):
 *   - the file is valid (no problem found), was not closed (the rank died),
 *     and says its rank;
 *   - the records of ompi.test_file_seq are numbered without a gap, in
 *     order, each with the right rank and check word (nothing invented);
 *   - they end where the rank stopped: the last is R-1, or R when the rank
 *     died between a raise and its count (no records: R is 0 or 1);
 *   - nothing was lost: records + overwritten >= R, and overwritten never
 *     exceeds what the ring had to give up (the few events of MPI_Init
 *     besides ours); when something was overwritten, the ring is full (up
 *     to capacity); when nothing was, the first is 0;
 *   - kill/segv/abort ranks: R is at most N. A rank may not reach N (mpirun
 *     kills the others when the first dies), but the job ended because one
 *     did: at least one of them raised exactly N.
 * Prints one line per rank and "N passed, M failed". */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ompi/mca/common/evt/common_evt_flight_format.h"
#include "ompi/mca/common/evt/common_evt_flight_read.h"
#include "test/evt_test_check.h"
#include "test_file_common.h"

/* Events other than ours a rank may raise (MPI_Init, communicators...) */
#define OTHER_EVENTS_MAX 64

/* The count of raises rank @p rank completed, or -1 (no progress file). */
static int64_t progress_read(const char *dir, int rank)
{
    test_file_progress_t p;
    char path[4096];
    ssize_t got;
    int fd;

    (void) snprintf(path, sizeof(path), "%s/rank.%d", dir, rank);
    fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (0 > fd) {
        return -1;
    }
    got = read(fd, &p, sizeof(p));
    (void) close(fd);
    return sizeof(p) == got ? (int64_t) p.raised : -1;
}

/* Check rank @p rank's file against the @p raised raises it completed.
 * @return whether it raised all N of a kill/segv/abort mode */
static bool check_rank(mca_common_evt_flight_file_t *f, int rank, unsigned long seed,
                       const char *mode, uint64_t raised)
{
    const mca_common_evt_flight_event_t *ev = NULL;
    uint64_t first = 0, last = 0, count = 0, bytes = 0, end;
    bool known = 0 != strcmp(mode, "spin");
    uint64_t n = test_file_crash_n(seed, rank);
    int bad = 0;

    CHECK(0 == f->nproblems, "%zu problems, first: %s", f->nproblems,
          f->nproblems ? f->problems[0] : "");
    CHECK(!f->closed, "the file says the writer finalized");
    CHECK(f->rank == rank, "the header says rank %d", f->rank);
    for (size_t i = 0; i < f->nevents; ++i) {
        if (0 == strcmp(f->events[i].name, TEST_FILE_SEQ_NAME)) {
            ev = &f->events[i];
        }
    }
    CHECK(NULL != ev && 3 == ev->num_elements && sizeof(test_file_seq_t) == ev->extent,
          "%s not in the dictionary with its layout", TEST_FILE_SEQ_NAME);
    if (NULL == ev) {
        return false;
    }
    for (size_t i = 0; i < f->nrecords; ++i) {
        const mca_common_evt_flight_record_t *r = &f->records[i];
        test_file_seq_t p;

        bytes += mca_common_evt_flight_record_size(r->payload_len);
        if (r->event != ev) {
            continue;
        }
        memcpy(&p, r->payload, sizeof(p));
        if (p.rank != rank || p.check != test_file_check(p.seq, p.rank)
            || (0 != count && p.seq != last + 1)) {
            if (bad++ < 3) {
                printf("rank %d: record %zu: seq %llu rank %d check %u after seq %llu\n", rank, i,
                       (unsigned long long) p.seq, p.rank, p.check, (unsigned long long) last);
            }
        }
        if (0 == count) {
            first = p.seq;
        }
        last = p.seq;
        ++count;
    }
    CHECK(0 == bad, "%d records out of order, invented or damaged", bad);
    /* the seq after the last record: where the recording stops */
    end = 0 == count ? 0 : last + 1;
    CHECK(raised <= end && end <= raised + 1,
          "the records end at seq %llu, the rank completed %llu raises", (unsigned long long) end,
          (unsigned long long) raised);
    CHECK(count + f->overwritten >= raised && f->overwritten <= end - count + OTHER_EVENTS_MAX,
          "%llu records + %llu overwritten for %llu raised", (unsigned long long) count,
          (unsigned long long) f->overwritten, (unsigned long long) raised);
    if (known) {
        CHECK(raised <= n, "%llu raised of %llu", (unsigned long long) raised,
              (unsigned long long) n);
    }
    if (0 == f->overwritten) {
        CHECK(0 == first, "nothing overwritten but the first seq is %llu",
              (unsigned long long) first);
    } else {
        /* the newest records that fit: less than two of the largest
         * records (a skip at the end and the next record) stay free */
        uint64_t max_rec = mca_common_evt_flight_record_size(MCA_COMMON_EVT_FLIGHT_MAX_PAYLOAD);
        CHECK(bytes + 2 * max_rec > f->ring_capacity,
              "%llu overwritten but only %llu of %u bytes hold records",
              (unsigned long long) f->overwritten, (unsigned long long) bytes, f->ring_capacity);
    }
    printf("rank %d (%s): seq %llu..%llu, %llu records, %llu overwritten, %llu raised", rank, mode,
           (unsigned long long) first, (unsigned long long) last, (unsigned long long) count,
           (unsigned long long) f->overwritten, (unsigned long long) raised);
    if (known) {
        printf(" of %llu%s", (unsigned long long) n,
               raised == n ? "" : " (killed by mpirun first)");
    }
    printf("\n");
    return known && raised == n;
}

int main(int argc, char **argv)
{
    mca_common_evt_flight_file_t *files[64] = {NULL};
    unsigned long seed;
    struct dirent *de;
    int np, nfiles = 0, rank = -1, known = 0, reached = 0;
    DIR *d;

    if (argc < 6) {
        fprintf(stderr, "usage: file_check DIR PROGRESS_DIR SEED NP MODE...\n");
        return 2;
    }
    seed = strtoul(argv[3], NULL, 10);
    np = atoi(argv[4]);
    if (np < 1 || np > 64 || NULL == (d = opendir(argv[1]))) {
        fprintf(stderr, "file_check: bad NP or folder %s\n", argv[1]);
        return 2;
    }
    while (NULL != (de = readdir(d))) {
        char path[4096];
        mca_common_evt_flight_file_t *f;
        size_t l = strlen(de->d_name);

        if (l < 5 || 0 != strcmp(de->d_name + l - 5, MCA_COMMON_EVT_FLIGHT_SUFFIX)) {
            continue;
        }
        (void) snprintf(path, sizeof(path), "%s/%s", argv[1], de->d_name);
        ++nfiles;
        if (0 != mca_common_evt_flight_open(path, &f)) {
            printf("FAIL: cannot read %s\n", path);
            ++evt_test_failed;
            continue;
        }
        if (0 <= f->rank && f->rank < np && NULL == files[f->rank]) {
            files[f->rank] = f;
        } else {
            printf("FAIL: %s: rank %d unexpected or twice\n", path, f->rank);
            ++evt_test_failed;
            mca_common_evt_flight_free(f);
        }
    }
    (void) closedir(d);
    CHECK(nfiles == np, "%d files for %d ranks", nfiles, np);
    for (rank = 0; rank < np; ++rank) {
        const char *mode = argv[5 + (rank < argc - 5 ? rank : argc - 6)];
        int64_t raised = progress_read(argv[2], rank);

        evt_test_rank = rank; /* named in the failures */
        known += 0 != strcmp(mode, "spin");
        CHECK(NULL != files[rank], "no file");
        CHECK(0 <= raised, "no progress file in %s", argv[2]);
        if (NULL != files[rank] && 0 <= raised) {
            reached += check_rank(files[rank], rank, seed, mode, (uint64_t) raised);
        }
        if (NULL != files[rank]) {
            mca_common_evt_flight_free(files[rank]);
        }
    }
    evt_test_rank = -1;
    if (0 < known) {
        CHECK(0 < reached,
              "none of the %d ranks that end themselves raised all its events: "
              "what ended the job?",
              known);
    }
    return evt_test_report(NULL);
}
