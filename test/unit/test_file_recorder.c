/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Unit tests of evt/file and its reader. A writer child process
 * installs the file component as the evt base does (without loading the
 * DSO, so that its test seams are reachable), raises numbered events and
 * dies or finalizes; the test reads its file with the decoder of
 * ompi/mca/common/evt/common_evt_flight_read.c:
 *   - wrap-around, many times over: exactly the newest records that fit
 *     (computed by a model of the ring), and the number overwritten;
 *   - a writer stopped in the middle of a record (test seam, then kill -9):
 *     everything before it, nothing of it;
 *   - the file describes itself: identity, dictionary, clock pair, state;
 *   - export drops (a raise with no ring left) are in the file, after a
 *     drain point or after the progress calls that follow them (which
 *     leave the module alone until a drop is counted, and still complete a
 *     handle free that waits for a drain);
 *   - the default folder: made private; refused, with a message, when
 *     another user owns it, others may write to it, or it is a symlink;
 *     a failure says its cause;
 *   - damaged files (truncated, bytes changed, random bytes): problems
 *     reported, what is valid returned, never a crash; positions that claim
 *     a full ring under an address-space limit: the valid records; memory
 *     running out mid-ring: what was read, the ring said cut;
 *   - ompi-evt-file-read prints the same as JSON Lines and says damage by
 *     its exit status;
 *   - ompi-evt-listen reads recordings: every record listed; sends and
 *     receives joined only where order identifies the message. */
#include "ompi_config.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ompi/constants.h"
#include "ompi/mca/common/evt/common_evt_flight_format.h"
#include "ompi/mca/common/evt/common_evt_flight_read.h"
#include "ompi/mca/common/evt/common_evt_flight_write.h"
#include "ompi/mca/evt/base/base.h"
#include "ompi/mca/evt/base/evt_base_kit.h"
#include "ompi/mca/evt/base/evt_base_report.h"
#include "ompi/mca/evt/file/evt_file.h"
#include "ompi/mca/evt/file/evt_file_internal.h"
#include "ompi/runtime/ompi_evt_payloads.h"
#include "ompi/runtime/ompi_evt_producers.h"
#include "opal/mca/base/mca_base_event.h"
#include "opal/mca/base/mca_base_event_delivery.h"
#include "opal/runtime/opal.h"
#include "test_file_common.h"

/* ASan and TSan reserve terabytes of shadow address space: no address
 * space limit can be set under them; and every store into the ring writes
 * shadow memory too, whose pages fault in as the ring is first written. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#    define EVT_ASAN_OR_TSAN 1
#elif defined(__has_feature)
#    if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#        define EVT_ASAN_OR_TSAN 1
#    endif
#endif
#ifndef EVT_ASAN_OR_TSAN
#    define EVT_ASAN_OR_TSAN 0
#endif

#define FILE_SIZE (64 * 1024)
/* 56 bytes per record of test_file_seq_t (8 + 32 + 16) */
#define REC_SIZE 56u

static char dir[256];

static void make_dir(void)
{
    (void) snprintf(dir, sizeof(dir), "/tmp/evt_file_test.XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void rm_dir(void)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    char path[512];

    while (NULL != d && NULL != (de = readdir(d))) {
        if ('.' != de->d_name[0]) {
            (void) snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
            (void) unlink(path);
        }
    }
    if (NULL != d) {
        (void) closedir(d);
    }
    (void) rmdir(dir);
}

/* The only *.oevt file of dir (asserts there is exactly one). */
static void the_file(char *path, size_t len)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    int n = 0;

    cr_assert_not_null(d);
    while (NULL != (de = readdir(d))) {
        size_t l = strlen(de->d_name);
        if (l > 5 && 0 == strcmp(de->d_name + l - 5, MCA_COMMON_EVT_FLIGHT_SUFFIX)) {
            (void) snprintf(path, len, "%s/%s", dir, de->d_name);
            ++n;
        }
    }
    (void) closedir(d);
    cr_assert_eq(n, 1, "%d recorder files in %s", n, dir);
}

/* In the writer child: bring up the engine and the file component as the
 * base does, recording into @p folder (evt_file_dir; "" for the default).
 * @return 0 or a step number. */
static int writer_start_in(char *folder, size_t size, int rings)
{
    ompi_evt_base_module_t *m;
    int prio = -1;

    if (OPAL_SUCCESS != opal_init_util(NULL, NULL) || OPAL_SUCCESS != mca_base_event_init()) {
        return 1;
    }
    if (OMPI_SUCCESS != mca_evt_file_component.super.evtc_version.mca_register_component_params()) {
        return 2;
    }
    mca_evt_file_component.dir = folder;
    mca_evt_file_component.size = size;
    mca_evt_file_component.rings = rings;
    m = mca_evt_file_component.super.evtc_init(&prio);
    if (NULL == m) {
        return 3;
    }
    if (OMPI_SUCCESS != ompi_evt_base_install("file", m, prio)) {
        return 4;
    }
    return 0;
}

/* Into dir. */
static int writer_start(size_t size, int rings)
{
    return writer_start_in(dir, size, rings);
}

static void writer_stop(void)
{
    (void) mca_base_event_flush();
    ompi_evt_base_uninstall();
    (void) mca_base_event_finalize();
}

/* How the writer child ends. */
enum { END_FINALIZE, END_KILL, END_TORN_KILL };

/* Fork a writer: raise @p n numbered events (rank 7), then end as told.
 * @return the child's wait status */
static int run_writer(size_t size, uint64_t n, int end, size_t torn_bytes)
{
    pid_t pid = fork();
    int status = 0;

    cr_assert_neq(pid, -1);
    if (0 == pid) {
        mca_base_event_t *ev = NULL;
        int rc;

        setenv("OMPI_COMM_WORLD_RANK", "7", 1);
        setenv("OMPI_COMM_WORLD_SIZE", "8", 1);
        rc = writer_start(size, 2);
        if (0 != rc) {
            _exit(10 + rc);
        }
        if (0 > test_file_seq_register(&ev)) {
            _exit(20);
        }
        for (uint64_t s = 0; s < n; ++s) {
            test_file_seq_raise(ev, s, 7);
        }
        if (END_TORN_KILL == end) {
            test_file_seq_t p = {.seq = n, .rank = 7, .check = test_file_check(n, 7)};
            if (OMPI_SUCCESS != ompi_evt_file_test_torn_raise(0, ev, &p, torn_bytes)) {
                _exit(21);
            }
        }
        if (END_FINALIZE != end) {
            (void) raise(SIGKILL);
        }
        writer_stop();
        _exit(0);
    }
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    if (END_FINALIZE == end) {
        cr_assert(WIFEXITED(status) && 0 == WEXITSTATUS(status), "writer status 0x%x", status);
    } else {
        cr_assert(WIFSIGNALED(status) && SIGKILL == WTERMSIG(status), "writer status 0x%x", status);
    }
    return status;
}

/* The records a ring of @p capacity keeps after @p n records of @p size
 * bytes: a model of the kit's overwrite-oldest ring (a record that does not
 * fit before the end leaves a skip record there and starts at 0; the
 * oldest records go until the new one fits). */
static uint64_t model_kept(uint32_t capacity, uint32_t size, uint64_t n)
{
    /* positions of the records kept, oldest first, in a window */
    uint64_t *start = calloc(capacity / size + 2, sizeof(uint64_t));
    uint64_t *len = calloc(capacity / size + 2, sizeof(uint64_t));
    size_t first = 0, count = 0, cap = capacity / size + 2;
    uint64_t tail = 0, oldest = 0;

    cr_assert(NULL != start && NULL != len);
    for (uint64_t i = 0; i < n; ++i) {
        uint64_t off = tail % capacity, contig = capacity - off;
        uint64_t need = size + (contig < size ? contig : 0);

        while (need > capacity - (tail - oldest)) {
            /* evict the oldest (a skip between records is stepped over
             * with it: it lies before the next record's start) */
            oldest = start[first] + len[first];
            first = (first + 1) % cap;
            --count;
            if (0 < count && start[first] > oldest) {
                oldest = start[first]; /* the skip record */
            } else if (0 == count) {
                oldest = tail;
            }
        }
        if (contig < size) {
            tail += contig;
        }
        start[(first + count) % cap] = tail;
        len[(first + count) % cap] = size;
        ++count;
        tail += size;
    }
    free(start);
    free(len);
    return count;
}

/* Check the records of a decoded file: the numbered events, seq from
 * @p first to @p last without a gap, nothing else. */
static void expect_seqs(const mca_common_evt_flight_file_t *f, uint64_t first, uint64_t last)
{
    uint64_t want = first;

    for (size_t i = 0; i < f->nrecords; ++i) {
        const mca_common_evt_flight_record_t *r = &f->records[i];
        test_file_seq_t p;

        cr_assert_not_null(r->event, "record %zu: unknown event %u", i, r->event_index);
        cr_assert_str_eq(r->event->name, TEST_FILE_SEQ_NAME);
        cr_assert_eq(r->payload_len, sizeof(p));
        memcpy(&p, r->payload, sizeof(p));
        cr_assert_eq(p.seq, want, "record %zu: seq %llu, expected %llu", i,
                     (unsigned long long) p.seq, (unsigned long long) want);
        cr_assert_eq(p.rank, 7);
        cr_assert_eq(p.check, test_file_check(p.seq, 7));
        ++want;
    }
    cr_assert_eq(want, last + 1, "records end at seq %llu, expected %llu",
                 (unsigned long long) want - 1, (unsigned long long) last);
}

static mca_common_evt_flight_file_t *read_the_file(char *path, size_t len)
{
    mca_common_evt_flight_file_t *f = NULL;

    the_file(path, len);
    cr_assert_eq(mca_common_evt_flight_open(path, &f), 0, "cannot read %s", path);
    return f;
}

TestSuite(file_recorder, .init = make_dir, .fini = rm_dir, .timeout = 60);

Test(file_recorder, wrap_keeps_exactly_the_newest)
{
    uint64_t counts[] = {1, 100, 20000, 54321};
    char path[512];

    for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); ++c) {
        uint64_t n = counts[c], kept;
        mca_common_evt_flight_file_t *f;

        rm_dir();
        make_dir();
        (void) run_writer(FILE_SIZE, n, c % 2 ? END_KILL : END_FINALIZE, 0);
        f = read_the_file(path, sizeof(path));
        cr_assert_eq(f->nproblems, 0, "%s", f->nproblems ? f->problems[0] : "");
        kept = model_kept(f->ring_capacity, REC_SIZE, n);
        cr_assert_eq(f->nrecords, kept, "%llu raised: %zu records, the model keeps %llu",
                     (unsigned long long) n, f->nrecords, (unsigned long long) kept);
        cr_assert_eq(f->overwritten, n - kept, "%llu overwritten, expected %llu",
                     (unsigned long long) f->overwritten, (unsigned long long) (n - kept));
        expect_seqs(f, n - kept, n - 1);
        if (n > 10000) {
            cr_assert_gt(n / kept, 10, "wrapped many times over");
        }
        mca_common_evt_flight_free(f);
    }
}

/* In a forked writer child: rank 7 of 8 recording into dir (@p size bytes,
 * @p rings rings), the numbered event registered; the child exits 10 when
 * it cannot. */
static mca_base_event_t *child_writer_start(size_t size, int rings)
{
    mca_base_event_t *ev = NULL;

    setenv("OMPI_COMM_WORLD_RANK", "7", 1);
    setenv("OMPI_COMM_WORLD_SIZE", "8", 1);
    if (0 != writer_start(size, rings) || 0 > test_file_seq_register(&ev)) {
        _exit(10);
    }
    return ev;
}

/* Page faults of the calling thread over a ring's worth of raises (twice
 * a ring of an 8 MiB file with 2 rings), after a first raise that claims
 * the thread's ring. */
static void *faults_over_a_ring(void *arg)
{
    mca_base_event_t *ev = arg;
    struct rusage before, after;
    uint64_t n = (8u << 20) / REC_SIZE;

    test_file_seq_raise(ev, 0, 7);
    (void) getrusage(RUSAGE_THREAD, &before);
    for (uint64_t s = 1; s < n; ++s) {
        test_file_seq_raise(ev, s, 7);
    }
    (void) getrusage(RUSAGE_THREAD, &after);
    return (void *) (intptr_t) (after.ru_minflt - before.ru_minflt + after.ru_majflt
                                - before.ru_majflt);
}

/* The kit writes a ring's pages when a thread's first raise claims it:
 * after that, in the first thread and in a second one, raising a ring's
 * worth of records (and then some: the ring wraps) takes no page fault.
 * Without that each 4 KiB of ring would cost one, 1024 for these rings; a
 * few are allowed for the rest of the thread. */
Test(file_recorder, raises_take_no_page_fault)
{
    pid_t pid;
    int status = 0;

    if (EVT_ASAN_OR_TSAN) {
        cr_skip_test("the sanitizer's shadow of the ring faults in as the ring is written");
    }
    pid = fork();
    cr_assert_neq(pid, -1);
    if (0 == pid) {
        mca_base_event_t *ev = child_writer_start(8u << 20, 2);
        pthread_t second;
        void *faults[2];

        faults[0] = faults_over_a_ring(ev);
        if (0 != pthread_create(&second, NULL, faults_over_a_ring, ev)
            || 0 != pthread_join(second, &faults[1])) {
            _exit(12);
        }
        writer_stop();
        _exit((intptr_t) faults[0] >= 16 ? 11 : (intptr_t) faults[1] >= 16 ? 13 : 0);
    }
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status) && 0 == WEXITSTATUS(status),
              "writer status 0x%x (exit 11: the first thread's raises took page faults, "
              "13: the second's)",
              status);
}

/* fallocate() as a full file system answers it while the_disk_is_full is
 * set, the system call's answer otherwise. evt/file, linked into this
 * program, reserves a ring's blocks with it at the ring's first claim. */
static atomic_bool the_disk_is_full = false;

int fallocate(int fd, int mode, off_t offset, off_t len)
{
    if (atomic_load(&the_disk_is_full)) {
        errno = ENOSPC;
        return -1;
    }
    return (int) syscall(SYS_fallocate, fd, mode, offset, len);
}

/* Blocks a file system may count for a file's own bookkeeping, more or
 * fewer between two looks (ext4's extent tree, as writeback turns reserved
 * extents into written ones): an exact count failed once under ASan. */
#define FILE_META_SLACK (64 * 1024)

/* Bytes of blocks the recording holds (st_blocks). */
static long long file_block_bytes(void)
{
    struct stat st;

    return 0 == stat(ompi_evt_file_test_path(), &st) ? (long long) st.st_blocks * 512 : -1;
}

static void *raise_a_thousand(void *arg)
{
    for (uint64_t s = 1; s <= 1000; ++s) {
        test_file_seq_raise(arg, s, 7);
    }
    return NULL;
}

/* The file holds blocks for what lies before its rings, the rings' control
 * blocks and the first ring, which the first raise claims; a ring takes
 * its blocks when a thread first claims it: a ring nobody claims takes no
 * room (on /dev/shm, no memory). */
Test(file_recorder, a_ring_takes_its_blocks_at_its_first_claim)
{
    pid_t pid;
    int status = 0;

    pid = fork();
    cr_assert_neq(pid, -1);
    if (0 == pid) {
        mca_base_event_t *ev = child_writer_start(8u << 20, 4);
        const mca_common_evt_flight_header_t *h;
        long long at_start, after;
        pthread_t second;

        test_file_seq_raise(ev, 0, 7);
        h = ompi_evt_file_state.hdr;
        at_start = file_block_bytes();
        /* the first ring, the control blocks (a block's rounding each) and
         * the file system's own blocks for the file's extents, which its
         * writeback may add at any time (FILE_META_SLACK) */
        if (at_start < (long long) (h->rings_offset + h->ring_stride)
            || at_start > (long long) (h->rings_offset + h->ring_stride
                                       + (h->ring_count - 1)
                                             * (MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE + 4096)
                                       + FILE_META_SLACK)) {
            _exit(11);
        }
        if (0 != pthread_create(&second, NULL, raise_a_thousand, ev)
            || 0 != pthread_join(second, NULL)) {
            _exit(12);
        }
        after = file_block_bytes() - (long long) h->ring_capacity;
        writer_stop();
        _exit(after >= at_start - FILE_META_SLACK && after <= at_start + FILE_META_SLACK ? 0 : 13);
    }
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status) && 0 == WEXITSTATUS(status),
              "writer status 0x%x (exit 11: more or less than the first ring held at start, 13: "
              "a second thread's claim did not take one ring's blocks)",
              status);
}

/* A ring whose blocks the file system refuses (full) is never written: a
 * thread that finds no other ring drops its raises, every one counted, and
 * the recording keeps what the first ring holds; nothing faults. */
Test(file_recorder, a_ring_whose_blocks_are_refused_is_never_written)
{
    mca_common_evt_flight_file_t *f;
    char path[512];
    pid_t pid;
    int status = 0;

    pid = fork();
    cr_assert_neq(pid, -1);
    if (0 == pid) {
        mca_base_event_t *ev = child_writer_start(8u << 20, 2);
        const mca_common_evt_flight_header_t *h;
        ompi_evt_kit_test_stats_t stats;
        pthread_t second;
        uint32_t tail;

        test_file_seq_raise(ev, 0, 7);
        atomic_store(&the_disk_is_full, true);
        if (0 != pthread_create(&second, NULL, raise_a_thousand, ev)
            || 0 != pthread_join(second, NULL)) {
            _exit(12);
        }
        atomic_store(&the_disk_is_full, false);
        h = ompi_evt_file_state.hdr;
        memcpy(&tail,
               (const unsigned char *) h + h->rings_offset + h->ring_stride
                   + MCA_COMMON_EVT_FLIGHT_CTL_TAIL,
               sizeof(tail));
        ompi_evt_base_kit_test_stats(&stats);
        writer_stop();
        _exit(0 != tail ? 13 : 1000 != stats.dropped_pool ? 14 : 0);
    }
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status) && 0 == WEXITSTATUS(status),
              "writer status 0x%x (exit 13: the refused ring was written, 14: not every raise "
              "of the thread without a ring was counted dropped)",
              status);
    f = read_the_file(path, sizeof(path));
    cr_assert_eq(f->nproblems, 0, "%s", f->nproblems ? f->problems[0] : "");
    expect_seqs(f, 0, 0);
    mca_common_evt_flight_free(f);
}

Test(file_recorder, torn_record_is_not_read)
{
    /* torn before and after the ring wrapped; with 0 to all payload bytes */
    uint64_t counts[] = {10, 3000};
    size_t bytes[] = {0, 8, sizeof(test_file_seq_t)};
    char path[512];

    for (size_t c = 0; c < 2; ++c) {
        for (size_t b = 0; b < 3; ++b) {
            uint64_t n = counts[c];
            mca_common_evt_flight_file_t *f;

            rm_dir();
            make_dir();
            (void) run_writer(FILE_SIZE, n, END_TORN_KILL, bytes[b]);
            f = read_the_file(path, sizeof(path));
            cr_assert_eq(f->nproblems, 0, "%s", f->nproblems ? f->problems[0] : "");
            cr_assert_not(f->closed);
            /* everything before it (the newest that fit, room made for the
             * torn one included), nothing of it */
            expect_seqs(f, n - f->nrecords, n - 1);
            cr_assert_geq(f->nrecords + f->overwritten, n);
            cr_assert_leq(f->overwritten, n - f->nrecords + 1);
            if (n < 100) {
                cr_assert_eq(f->nrecords, n);
            }
            mca_common_evt_flight_free(f);
        }
    }
}

Test(file_recorder, self_describing)
{
    mca_common_evt_flight_file_t *f;
    const mca_common_evt_flight_event_t *ev = NULL;
    char path[512], host[65] = "";
    struct timespec now;
    struct stat st;

    (void) run_writer(FILE_SIZE, 5, END_FINALIZE, 0);
    f = read_the_file(path, sizeof(path));
    cr_assert_eq(f->nproblems, 0, "%s", f->nproblems ? f->problems[0] : "");
    cr_assert_eq(f->version, MCA_COMMON_EVT_FLIGHT_VERSION);
    cr_assert_eq(f->rank, 7);
    cr_assert_eq(f->world_size, 8);
    cr_assert_gt(f->pid, 0);
    (void) gethostname(host, sizeof(host) - 1);
    cr_assert_str_eq(f->host, host);
    cr_assert(f->closed, "finalized: CLOSED");
    cr_assert_geq(f->closed_ns, f->created_ns);
    cr_assert_eq(stat(path, &st), 0);
    cr_assert_eq(st.st_mode & 0777, 0600, "mode %o", st.st_mode & 0777);
    cr_assert_leq((size_t) st.st_size, FILE_SIZE);
    for (size_t i = 0; i < f->nevents; ++i) {
        if (0 == strcmp(f->events[i].name, TEST_FILE_SEQ_NAME)) {
            ev = &f->events[i];
        }
    }
    cr_assert_not_null(ev);
    cr_assert_eq(ev->num_elements, 3);
    cr_assert_eq(ev->elements[0].type, MCA_COMMON_EVT_FLIGHT_TYPE_UINT64);
    cr_assert_eq(ev->elements[1].type, MCA_COMMON_EVT_FLIGHT_TYPE_INT32);
    cr_assert_eq(ev->elements[1].offset, 8);
    cr_assert_eq(ev->elements[2].type, MCA_COMMON_EVT_FLIGHT_TYPE_UINT32);
    cr_assert_not_null(ev->source);
    cr_assert_str_eq(ev->source->name, "test.file");
    cr_assert_eq(ev->source->ticks_per_second, 1000000000);
    cr_assert(ev->source->host_clock, "on the default clock: the host's CLOCK_MONOTONIC");
    /* the clock pair: realtime of the sample within a minute of now, and
     * each record's time between file creation and close */
    (void) clock_gettime(CLOCK_REALTIME, &now);
    cr_assert_lt(llabs((long long) (now.tv_sec - ev->source->sample_realtime_ns / 1000000000)), 60);
    expect_seqs(f, 0, 4);
    for (size_t i = 0; i < f->nrecords; ++i) {
        mca_common_evt_flight_value_t v;
        cr_assert(f->records[i].has_time);
        cr_assert_geq(f->records[i].time_ns, f->created_ns - 1000000);
        cr_assert_leq(f->records[i].time_ns, f->closed_ns + 1000000);
        cr_assert(mca_common_evt_flight_element(&f->records[i], 0, &v));
        cr_assert_eq(v.v.u, i);
        cr_assert(mca_common_evt_flight_element(&f->records[i], 1, &v));
        cr_assert_eq(v.v.i, 7);
        cr_assert_not(mca_common_evt_flight_element(&f->records[i], 3, &v));
    }
    mca_common_evt_flight_free(f);
}

/* A producer names the elements after registering the event (as the
 * built-in producers do): the dictionary gets the names in a later entry,
 * and the reader gives them with the event; naming twice adds nothing. */
Test(file_recorder, element_names_given_after_registration)
{
    static const char *const names[3] = {"seq", "rank", "check"};
    mca_common_evt_flight_file_t *f;
    const mca_common_evt_flight_event_t *ev = NULL;
    char path[512];
    int status = 0;
    pid_t pid = fork();

    cr_assert_neq(pid, -1);
    if (0 == pid) {
        mca_base_event_t *e = NULL;
        setenv("OMPI_COMM_WORLD_RANK", "7", 1);
        setenv("OMPI_COMM_WORLD_SIZE", "8", 1);
        if (0 != writer_start(FILE_SIZE, 2) || 0 > test_file_seq_register(&e)) {
            _exit(10);
        }
        test_file_seq_raise(e, 0, 7);
        if (OPAL_SUCCESS != mca_base_event_set_element_names(e, names)
            || OPAL_SUCCESS != mca_base_event_set_element_names(e, names)) {
            _exit(11);
        }
        test_file_seq_raise(e, 1, 7);
        writer_stop();
        _exit(0);
    }
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status) && 0 == WEXITSTATUS(status), "writer status 0x%x", status);
    f = read_the_file(path, sizeof(path));
    cr_assert_eq(f->nproblems, 0, "%s", f->nproblems ? f->problems[0] : "");
    for (size_t i = 0; i < f->nevents; ++i) {
        if (0 == strcmp(f->events[i].name, TEST_FILE_SEQ_NAME)) {
            cr_assert_null(ev, "the event is in the dictionary twice");
            ev = &f->events[i];
        }
    }
    cr_assert_not_null(ev);
    cr_assert_eq(ev->num_elements, 3);
    for (int i = 0; i < 3; ++i) {
        cr_assert_str_eq(ev->elements[i].name, names[i]);
    }
    expect_seqs(f, 0, 1);
    mca_common_evt_flight_free(f);
}

/* A thread that raises while the only ring is owned by the main thread:
 * its raises find no ring (export drops). */
static mca_base_event_t *drop_ev;
static void *drop_thread(void *arg)
{
    for (int i = 0; i < 10; ++i) {
        test_file_seq_raise(drop_ev, 1000 + i, 7);
    }
    return NULL;
}

/* In the writer child: one ring, owned by the main thread (one record). */
static void drops_writer_start(void)
{
    setenv("OMPI_COMM_WORLD_RANK", "7", 1);
    if (0 != writer_start(FILE_SIZE, 1) || 0 > test_file_seq_register(&drop_ev)) {
        _exit(1);
    }
    test_file_seq_raise(drop_ev, 0, 7);
}

/* In the writer child: 10 raises from a thread that finds no ring. */
static void drops_writer_drop_ten(void)
{
    pthread_t t;

    if (0 != pthread_create(&t, NULL, drop_thread, NULL) || 0 != pthread_join(t, NULL)) {
        _exit(2);
    }
}

/* The killed writer @p pid left its one record and its 10 drops. */
static void expect_ten_drops(pid_t pid)
{
    char path[512];
    mca_common_evt_flight_file_t *f;
    int status;

    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFSIGNALED(status), "writer status 0x%x", status);
    f = read_the_file(path, sizeof(path));
    cr_assert_eq(f->nproblems, 0);
    expect_seqs(f, 0, 0);
    cr_assert_eq(f->ndrops, 1);
    cr_assert_eq(mca_common_evt_flight_event(f, f->drops[0].event_index), f->records[0].event);
    cr_assert_eq(f->drops[0].count, 10);
    mca_common_evt_flight_free(f);
}

Test(file_recorder, export_drops_are_recorded)
{
    pid_t pid = fork();

    cr_assert_neq(pid, -1);
    if (0 == pid) {
        drops_writer_start();
        drops_writer_drop_ten();
        (void) mca_base_event_flush(); /* a drain point takes the counts */
        (void) raise(SIGKILL);
    }
    expect_ten_drops(pid);
}

/* Progress calls that find no record leave evt/file's progress alone
 * (its only work there is taking export drops) until a drop is counted;
 * then the next calls put the counts into the file, with no drain point,
 * so a process killed after them leaves its drops said. */
static unsigned int file_progress_calls(void)
{
    return atomic_load(&ompi_evt_file_state.progress_calls);
}

Test(file_recorder, idle_progress_takes_drops_only_once_counted)
{
    pid_t pid = fork();

    cr_assert_neq(pid, -1);
    if (0 == pid) {
        unsigned int before;

        drops_writer_start();
        before = file_progress_calls();
        for (int i = 0; i < 1000; ++i) {
            (void) ompi_evt_base_kit_progress();
        }
        if (file_progress_calls() != before) {
            _exit(3); /* ran with nothing to take */
        }
        drops_writer_drop_ten();
        for (int i = 0; i < OMPI_EVT_KIT_IDLE_PROGRESS_EVERY; ++i) {
            (void) ompi_evt_base_kit_progress();
        }
        if (file_progress_calls() == before) {
            _exit(4); /* the drops wait */
        }
        before = file_progress_calls();
        for (int i = 0; i < 1000; ++i) {
            (void) ompi_evt_base_kit_progress();
        }
        if (file_progress_calls() != before) {
            _exit(5); /* taken, yet it runs on */
        }
        (void) raise(SIGKILL);
    }
    expect_ten_drops(pid);
}

/* A handle freed while another thread's drain holds the token waits for a
 * drain to complete its withdraw (its free callback runs then). Progress
 * calls that leave evt/file's progress alone must still do that drain. */
static atomic_int deferred_freed;

static void note_freed(mca_base_event_registration_t *reg, mca_base_event_cb_safety_t safety,
                       void *ud)
{
    (void) reg;
    (void) safety;
    (void) ud;
    atomic_store(&deferred_freed, 1);
}

static void *free_handle_thread(void *h)
{
    if (OPAL_SUCCESS != mca_base_event_handle_free(h, NULL, note_freed)) {
        _exit(5);
    }
    return NULL;
}

Test(file_recorder, idle_progress_completes_a_deferred_free)
{
    pid_t pid = fork();
    int status;

    cr_assert_neq(pid, -1);
    if (0 == pid) {
        mca_base_event_registration_t *h = NULL;
        pthread_t t;

        drops_writer_start();
        (void) mca_base_event_flush(); /* so the progress calls below find no record */
        if (OPAL_SUCCESS != mca_base_event_handle_alloc(drop_ev, NULL, NULL, &h)) {
            _exit(1);
        }
        if (!ompi_evt_base_kit_test_hold_token(true, false)) {
            _exit(2);
        }
        if (0 != pthread_create(&t, NULL, free_handle_thread, h) || 0 != pthread_join(t, NULL)) {
            _exit(3);
        }
        if (0 != atomic_load(&deferred_freed) || !mca_base_event_withdraws_waiting()) {
            _exit(4); /* not deferred: the test proves nothing */
        }
        (void) ompi_evt_base_kit_test_hold_token(false, false);
        for (int i = 0; i < 2 * OMPI_EVT_KIT_IDLE_PROGRESS_EVERY; ++i) {
            (void) ompi_evt_base_kit_progress();
        }
        _exit(0 != atomic_load(&deferred_freed) ? 0 : 6);
    }
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status) && 0 == WEXITSTATUS(status), "writer status 0x%x", status);
}

/* A forked child of the writer raises too: its records must not reach the
 * parent's file, and the parent's records stay whole and in order. */
Test(file_recorder, forked_child_does_not_write_the_parents_file)
{
    char path[512];
    mca_common_evt_flight_file_t *f;
    pid_t pid = fork();
    int status;

    cr_assert_neq(pid, -1);
    if (0 == pid) {
        mca_base_event_t *ev = NULL;
        pid_t child;
        int cs;

        setenv("OMPI_COMM_WORLD_RANK", "7", 1);
        if (0 != writer_start(FILE_SIZE, 2) || 0 > test_file_seq_register(&ev)) {
            _exit(1);
        }
        for (uint64_t s = 0; s < 100; ++s) {
            test_file_seq_raise(ev, s, 7);
        }
        child = fork();
        if (0 == child) {
            for (uint64_t s = 0; s < 50; ++s) {
                test_file_seq_raise(ev, 100000 + s, 7);
            }
            (void) mca_base_event_flush();
            _exit(0);
        }
        if (child < 0 || child != waitpid(child, &cs, 0) || !WIFEXITED(cs)) {
            _exit(2);
        }
        for (uint64_t s = 100; s < 200; ++s) {
            test_file_seq_raise(ev, s, 7);
        }
        (void) raise(SIGKILL);
    }
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFSIGNALED(status), "writer status 0x%x", status);
    f = read_the_file(path, sizeof(path));
    cr_assert_eq(f->nproblems, 0, "%s", f->nproblems ? f->problems[0] : "");
    /* the newest of the parent's 200 that fit, the rest overwritten, and
     * nothing of the child's (whose raises would have evicted some) */
    expect_seqs(f, 200 - f->nrecords, 199);
    cr_assert_eq(f->nrecords + f->overwritten, 200, "%zu records + %llu overwritten", f->nrecords,
                 (unsigned long long) f->overwritten);
    mca_common_evt_flight_free(f);
}

/* ---- the folder ---- */

/* In a child, its stderr into dir/stderr.txt: @p setup(@p arg), then a
 * writer recording into @p folder ("": the default one), stopped at once.
 * @return the child's exit status: 0 recorded (a file exists), 3 the
 * component left itself out at its init, 4 refused with a reason kept for
 * the base's message, other: a failed step */
static int run_start(char *folder, void (*setup)(const void *), const void *arg)
{
    char err[512];
    pid_t pid;
    int status = -1;

    (void) snprintf(err, sizeof(err), "%s/stderr.txt", dir);
    pid = fork();
    cr_assert_neq(pid, -1);
    if (0 == pid) {
        int fd = open(err, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        int rc;

        if (0 > fd || 0 > dup2(fd, 2)) {
            _exit(10);
        }
        setup(arg);
        rc = writer_start_in(folder, FILE_SIZE, 2);
        if (4 == rc && NULL == ompi_evt_base_report_reason()) {
            rc = 11; /* refused without a reason for the help message */
        }
        if (0 == rc) {
            writer_stop();
        }
        _exit(rc);
    }
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status), "writer status 0x%x", status);
    return WEXITSTATUS(status);
}

static void set_tmpdir(const void *tmpdir)
{
    setenv("TMPDIR", tmpdir, 1);
}

/* run_start() with TMPDIR=@p tmpdir and the default folder (or @p folder
 * when not NULL). */
static int run_refusal(const char *tmpdir, char *folder)
{
    return run_start(NULL == folder ? "" : folder, set_tmpdir, tmpdir);
}

/* Does dir/stderr.txt hold @p text? */
static bool stderr_says(const char *text)
{
    char path[512], buf[8192];
    size_t n;
    FILE *f;

    (void) snprintf(path, sizeof(path), "%s/stderr.txt", dir);
    f = fopen(path, "r");
    cr_assert_not_null(f);
    n = fread(buf, 1, sizeof(buf) - 1, f);
    (void) fclose(f);
    buf[n] = '\0';
    return NULL != strstr(buf, text);
}

/* Files in @p folder (the default one). */
static int count_files(const char *folder)
{
    DIR *d = opendir(folder);
    struct dirent *de;
    int n = 0;

    while (NULL != d && NULL != (de = readdir(d))) {
        n += '.' != de->d_name[0];
    }
    if (NULL != d) {
        (void) closedir(d);
    }
    return n;
}

/* The default folder, $TMPDIR/ompi-evt.<uid>, under dir/tmp. */
static void default_folder(char *tmpdir, size_t tlen, char *folder, size_t flen)
{
    (void) snprintf(tmpdir, tlen, "%s/tmp", dir);
    cr_assert_eq(mkdir(tmpdir, 0700), 0);
    (void) snprintf(folder, flen, "%s/ompi-evt.%lu", tmpdir, (unsigned long) geteuid());
}

static void rm_default_folder(const char *tmpdir, const char *folder)
{
    char path[1024];
    DIR *d = opendir(folder);
    struct dirent *de;

    while (NULL != d && NULL != (de = readdir(d))) {
        if ('.' != de->d_name[0]) {
            (void) snprintf(path, sizeof(path), "%s/%s", folder, de->d_name);
            (void) unlink(path);
        }
    }
    if (NULL != d) {
        (void) closedir(d);
    }
    (void) unlink(folder); /* a symlink */
    (void) rmdir(folder);
    (void) rmdir(tmpdir);
}

/* The default folder is made by the first process: mode 0700, ours. */
Test(file_recorder, default_folder_is_made_private)
{
    char tmpdir[512], folder[600];
    struct stat st;

    default_folder(tmpdir, sizeof(tmpdir), folder, sizeof(folder));
    cr_assert_eq(run_refusal(tmpdir, NULL), 0);
    cr_assert_eq(lstat(folder, &st), 0);
    cr_assert(S_ISDIR(st.st_mode) && 0700 == (st.st_mode & 07777) && st.st_uid == geteuid(),
              "mode %o uid %lu", (unsigned) st.st_mode, (unsigned long) st.st_uid);
    cr_assert_eq(count_files(folder), 1);
    cr_assert(!stderr_says("evt:file"), "a message although all is well");
    rm_default_folder(tmpdir, folder);
}

/* Another user made the default folder first, sticky and open to all (a
 * squatter): refused, with a message, and nothing recorded in it. */
Test(file_recorder, default_folder_of_another_user_is_refused)
{
    char tmpdir[512], folder[600];

    if (0 != geteuid()) {
        cr_skip_test("needs root to give a folder to another user");
    }
    default_folder(tmpdir, sizeof(tmpdir), folder, sizeof(folder));
    cr_assert_eq(mkdir(folder, 0700), 0);
    cr_assert_eq(chown(folder, 65534, 65534), 0); /* nobody */
    cr_assert_eq(chmod(folder, 01777), 0);
    cr_assert_eq(run_refusal(tmpdir, NULL), 4);
    cr_assert(stderr_says("belongs to uid 65534"), "no message naming the owner");
    cr_assert(stderr_says("this process records nothing"), "no message saying the outcome");
    cr_assert_eq(count_files(folder), 0);
    rm_default_folder(tmpdir, folder);
}

/* Ours but writable by others: refused (they could replace the files). */
Test(file_recorder, default_folder_writable_by_others_is_refused)
{
    char tmpdir[512], folder[600];

    default_folder(tmpdir, sizeof(tmpdir), folder, sizeof(folder));
    cr_assert_eq(mkdir(folder, 0700), 0);
    cr_assert_eq(chmod(folder, 0777), 0);
    cr_assert_eq(run_refusal(tmpdir, NULL), 4);
    cr_assert(stderr_says("is writable by others (mode 0777)"), "no message naming the mode");
    cr_assert_eq(count_files(folder), 0);
    rm_default_folder(tmpdir, folder);
}

/* A symbolic link planted at the default folder's name: refused, not
 * followed (nothing is created where it points). */
Test(file_recorder, default_folder_symlink_is_refused)
{
    char tmpdir[512], folder[600], target[512];

    default_folder(tmpdir, sizeof(tmpdir), folder, sizeof(folder));
    (void) snprintf(target, sizeof(target), "%s/target", dir);
    cr_assert_eq(mkdir(target, 0700), 0);
    cr_assert_eq(symlink(target, folder), 0);
    cr_assert_eq(run_refusal(tmpdir, NULL), 4);
    cr_assert(stderr_says("is a symbolic link: refused"), "no message about the link");
    cr_assert_eq(count_files(target), 0);
    (void) rmdir(target);
    rm_default_folder(tmpdir, folder);
}

/* A failure says its cause, without evt_base_verbose. */
Test(file_recorder, failure_says_why)
{
    char missing[512];

    (void) snprintf(missing, sizeof(missing), "%s/missing", dir);
    cr_assert_eq(run_refusal("/tmp", missing), 4);
    cr_assert(stderr_says("evt:file: cannot open the folder"), "no message");
    cr_assert(stderr_says("No such file or directory: this process records nothing"),
              "the message does not say the cause");
}

/* A file size limit below the recording's size (ulimit -f): refused with
 * the cause before any file exists (sizing it past the limit was SIGXFSZ,
 * which ended the process in MPI_Init and left its .part file behind). */
static void set_small_fsize(const void *arg)
{
    struct rlimit lim;

    (void) arg;
    if (0 != getrlimit(RLIMIT_FSIZE, &lim)) {
        _exit(12);
    }
    lim.rlim_cur = FILE_SIZE / 2;
    if (0 != setrlimit(RLIMIT_FSIZE, &lim)) {
        _exit(13);
    }
}

Test(file_recorder, a_file_size_limit_below_the_recording_is_refused)
{
    char folder[512];

    (void) snprintf(folder, sizeof(folder), "%s/fsize", dir);
    cr_assert_eq(mkdir(folder, 0700), 0);
    cr_assert_eq(run_start(folder, set_small_fsize, NULL), 4);
    cr_assert(stderr_says("the file size limit (ulimit -f)"), "no message");
    cr_assert(stderr_says("this process records nothing"), "no message");
    {
        DIR *d = opendir(folder);
        struct dirent *de;

        cr_assert_not_null(d);
        while (NULL != (de = readdir(d))) {
            cr_expect(0 == strcmp(de->d_name, ".") || 0 == strcmp(de->d_name, ".."),
                      "left behind: %s", de->d_name);
        }
        (void) closedir(d);
    }
}

/* ---- evt_file_one_node: a job on this node alone records, any other
 * leaves the recorder to the next component named in evt ---- */

/* What a process of the launcher sees: its job's sizes (NULL: unset), the
 * evt selection (NULL: unset) and evt_file_one_node. */
typedef struct {
    const char *size, *local;
    char *evt;
    const char *one_node;
} one_node_env_t;

static void set_one_node_env(const void *arg)
{
    const one_node_env_t *e = arg;

    (void) unsetenv("OMPI_COMM_WORLD_SIZE");
    (void) unsetenv("OMPI_COMM_WORLD_LOCAL_SIZE");
    if (NULL != e->size) {
        setenv("OMPI_COMM_WORLD_SIZE", e->size, 1);
    }
    if (NULL != e->local) {
        setenv("OMPI_COMM_WORLD_LOCAL_SIZE", e->local, 1);
    }
    setenv("OMPI_MCA_evt_file_one_node", e->one_node, 1);
    ompi_evt_base_framework.framework_selection = e->evt;
}

static int run_one_node(const char *size, const char *local, char *folder, char *evt)
{
    const one_node_env_t e = {size, local, evt, "1"};

    return run_start(folder, set_one_node_env, &e);
}

/* A process left to the next component: run_one_node() says 3 and the
 * process said nothing of an error. */
static void left_out_quietly(const char *size, const char *local, char *folder)
{
    cr_expect_eq(run_one_node(size, local, folder, "file,pmix"), 3,
                 "sizes %s/%s, folder %s: not left out", size, local, folder);
    cr_expect(!stderr_says("ERROR"), "sizes %s/%s, folder %s: an error was reported", size, local,
              folder);
}

Test(file_recorder, one_node_records_only_a_job_on_this_node_alone)
{
    char here[512], elsewhere[512];

    (void) snprintf(here, sizeof(here), "%s/here", dir);
    (void) snprintf(elsewhere, sizeof(elsewhere), "%s/elsewhere", dir);
    cr_assert_eq(mkdir(here, 0700), 0);
    /* the whole job on this node: recorded */
    cr_expect_eq(run_one_node("4", "4", here, "file,pmix"), 0);
    cr_expect_eq(count_files(here), 1, "the process recorded into the folder");
    /* on more than one node, no launcher sizes, a folder not here: the
     * recorder leaves the process to the next component, creating nothing
     * and saying nothing but to evt_base_verbose */
    left_out_quietly("4", "2", here);
    left_out_quietly(NULL, NULL, here);
    left_out_quietly("4", "x4", here);
    left_out_quietly("4", "4", elsewhere);
    cr_expect_eq(count_files(here), 1, "a process that left the recorder out created a file");
    cr_expect_eq(access(elsewhere, F_OK), -1, "the folder of another node was created");
    /* the recorder named alone: nothing takes the process, so it says so */
    cr_expect_eq(run_one_node("4", "2", here, "file"), 3);
    cr_expect(stderr_says("evt:file: evt_file_one_node: the job's processes run on more than "
                          "one node: nothing is recorded"),
              "no error when the recorder named alone declined");
    cr_expect_eq(count_files(here), 1);
    /* without evt_file_one_node the sizes do not matter */
    {
        const one_node_env_t spread = {"4", "2", "file,pmix", "0"};

        cr_expect_eq(run_start(here, set_one_node_env, &spread), 0);
        cr_expect_eq(count_files(here), 2);
    }
}

/* ---- damage ---- */

static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    unsigned char *buf;
    long l;

    cr_assert_not_null(fp);
    (void) fseek(fp, 0, SEEK_END);
    l = ftell(fp);
    rewind(fp);
    buf = malloc((size_t) l);
    cr_assert_not_null(buf);
    cr_assert_eq(fread(buf, 1, (size_t) l, fp), (size_t) l);
    fclose(fp);
    *len = (size_t) l;
    return buf;
}

/* A decoded copy must hold only valid records of ours, in order. */
static void only_valid(const mca_common_evt_flight_file_t *f)
{
    for (size_t i = 0; i < f->nrecords; ++i) {
        const mca_common_evt_flight_record_t *r = &f->records[i];
        if (NULL != r->event) {
            cr_assert_eq(r->payload_len, r->event->extent);
        }
        cr_assert_leq(r->payload_len, MCA_COMMON_EVT_FLIGHT_MAX_PAYLOAD + 8);
    }
}

static uint32_t hdr_u32(const unsigned char *buf, size_t off)
{
    uint32_t v;
    memcpy(&v, buf + off, 4);
    return v;
}

Test(file_recorder, damaged_files)
{
    char path[512];
    unsigned char *orig, *buf;
    size_t len;
    mca_common_evt_flight_file_t *f, *good;
    mca_common_evt_flight_header_t h;
    uint64_t slot;
    uint32_t oldest, tail;
    unsigned int seed = 12345;

    (void) run_writer(FILE_SIZE, 700, END_KILL, 0);
    the_file(path, sizeof(path));
    orig = slurp(path, &len);
    buf = malloc(len);
    cr_assert_eq(mca_common_evt_flight_decode(orig, len, &good), 0);
    cr_assert_eq(good->nproblems, 0);
    cr_assert_gt(good->nrecords, 100);
    memcpy(&h, orig, sizeof(h));

    /* truncated anywhere: what lies before the cut is returned */
    for (size_t cut = 0; cut < len; cut += 509) {
        cr_assert_eq(mca_common_evt_flight_decode(orig, cut, &f), 0);
        cr_assert_gt(f->nproblems, 0, "cut at %zu of %zu: no problem reported", cut, len);
        cr_assert_leq(f->nrecords, good->nrecords);
        only_valid(f);
        mca_common_evt_flight_free(f);
    }

    /* a byte of the fixed header: nothing can be located, said so */
    memcpy(buf, orig, len);
    buf[offsetof(mca_common_evt_flight_header_t, rank)] ^= 0x40;
    cr_assert_eq(mca_common_evt_flight_decode(buf, len, &f), 0);
    cr_assert_not(f->header_valid);
    cr_assert_eq(f->nrecords, 0);
    cr_assert_not_null(strstr(f->problems[0], "checksum"), "%s", f->problems[0]);
    mca_common_evt_flight_free(f);

    /* a file of the earlier format (its own dictionary encoding): refused,
     * and the reader says which versions it reads */
    {
        mca_common_evt_flight_header_t old;
        memcpy(buf, orig, len);
        memcpy(&old, buf, sizeof(old));
        old.version = 1;
        mca_common_evt_flight_header_seal(&old);
        memcpy(buf, &old, sizeof(old));
        cr_assert_eq(mca_common_evt_flight_decode(buf, len, &f), 0);
        cr_assert_not(f->header_valid);
        cr_assert_eq(f->nrecords, 0);
        cr_assert_not_null(strstr(f->problems[0], "format version 1 (an earlier ompi-evt's); this "
                                                  "reader reads version 2 only"),
                           "%s", f->problems[0]);
        mca_common_evt_flight_free(f);
    }

    /* the dictionary damaged: records are still returned, unnamed */
    memcpy(buf, orig, len);
    buf[h.dict_offset + 20] ^= 0x01;
    cr_assert_eq(mca_common_evt_flight_decode(buf, len, &f), 0);
    cr_assert_gt(f->nproblems, 0);
    cr_assert_eq(f->nrecords, good->nrecords);
    cr_assert_null(f->records[0].event);
    mca_common_evt_flight_free(f);

    /* a record's size in the middle of ring 0: the records before it */
    slot = h.rings_offset;
    tail = hdr_u32(orig, slot + MCA_COMMON_EVT_FLIGHT_CTL_TAIL);
    oldest = hdr_u32(orig, slot + MCA_COMMON_EVT_FLIGHT_CTL_OLDEST);
    {
        uint32_t pos = oldest, n = 0;
        while (n < 50) { /* 50 records in (skip records counted out) */
            uint32_t off = pos & (h.ring_capacity - 1);
            if (MCA_COMMON_EVT_FLIGHT_KIND_RECORD
                == hdr_u32(orig, slot + MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE + off + 4)) {
                ++n;
            }
            pos += hdr_u32(orig, slot + MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE + off);
        }
        memcpy(buf, orig, len);
        buf[slot + MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE + (pos & (h.ring_capacity - 1))] ^= 0x03;
        cr_assert_eq(mca_common_evt_flight_decode(buf, len, &f), 0);
        cr_assert_eq(f->nproblems, 1);
        cr_assert_not_null(strstr(f->problems[0], "ring 0: damaged record"), "%s", f->problems[0]);
        cr_assert_eq(f->nrecords, 50);
        for (size_t i = 0; i < 50; ++i) {
            cr_assert_eq(memcmp(f->records[i].payload, good->records[i].payload, 16), 0);
        }
        mca_common_evt_flight_free(f);
    }

    /* positions beyond the ring */
    memcpy(buf, orig, len);
    tail += 2 * h.ring_capacity;
    memcpy(buf + slot + MCA_COMMON_EVT_FLIGHT_CTL_TAIL, &tail, 4);
    cr_assert_eq(mca_common_evt_flight_decode(buf, len, &f), 0);
    cr_assert_gt(f->nproblems, 0);
    cr_assert_eq(f->nrecords, 0);
    mca_common_evt_flight_free(f);

    /* a writer that died inside an eviction (common_evt_flight_format.h): after
     * storing evicted and the mark, before oldest: the record being
     * evicted counts as overwritten, not read */
    {
        uint64_t evicted, mark;
        uint32_t first_size = hdr_u32(orig, slot + MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE
                                                + (oldest & (h.ring_capacity - 1)));
        memcpy(&evicted, orig + slot + MCA_COMMON_EVT_FLIGHT_CTL_EVICTED, 8);
        cr_assert_gt(evicted, 0, "the ring wrapped");
        memcpy(buf, orig, len);
        ++evicted;
        mark = ((uint64_t) (uint32_t) evicted << 32) | (uint32_t) (oldest + first_size);
        memcpy(buf + slot + MCA_COMMON_EVT_FLIGHT_CTL_EVICTED, &evicted, 8);
        memcpy(buf + slot + MCA_COMMON_EVT_FLIGHT_CTL_EVICT_MARK, &mark, 8);
        cr_assert_eq(mca_common_evt_flight_decode(buf, len, &f), 0);
        cr_assert_eq(f->nproblems, 0);
        cr_assert_eq(f->nrecords, good->nrecords - 1);
        cr_assert_eq(f->overwritten, good->overwritten + 1);
        mca_common_evt_flight_free(f);
        /* ... after storing evicted, before the mark: the old count */
        memcpy(buf, orig, len);
        memcpy(buf + slot + MCA_COMMON_EVT_FLIGHT_CTL_EVICTED, &evicted, 8);
        cr_assert_eq(mca_common_evt_flight_decode(buf, len, &f), 0);
        cr_assert_eq(f->nproblems, 0);
        cr_assert_eq(f->nrecords, good->nrecords);
        cr_assert_eq(f->overwritten, good->overwritten);
        mca_common_evt_flight_free(f);
    }

    /* random bytes anywhere, many times: never a crash, only valid records */
    for (int round = 0; round < 400; ++round) {
        int flips = 1 + rand_r(&seed) % 8;
        memcpy(buf, orig, len);
        for (int i = 0; i < flips; ++i) {
            size_t at = (size_t) rand_r(&seed) % len;
            /* half of the rounds hit the header and dictionary */
            if (round % 2) {
                at %= h.rings_offset + 256;
            }
            buf[at] = (unsigned char) rand_r(&seed);
        }
        cr_assert_eq(mca_common_evt_flight_decode(buf, len, &f), 0);
        only_valid(f);
        mca_common_evt_flight_free(f);
    }

    /* all random */
    for (int round = 0; round < 50; ++round) {
        for (size_t i = 0; i < len; ++i) {
            buf[i] = (unsigned char) rand_r(&seed);
        }
        cr_assert_eq(mca_common_evt_flight_decode(buf, len, &f), 0);
        cr_assert_not(f->header_valid);
        cr_assert_gt(f->nproblems, 0);
        mca_common_evt_flight_free(f);
    }
    mca_common_evt_flight_free(good);
    free(buf);
    free(orig);
}

/* Ring positions that claim a full ring of a large file, in a process
 * allowed little more memory than it uses: the reader must not need memory
 * for the records the positions claim before it has found them, and returns
 * the valid ones with the damage said. */
Test(file_recorder, forged_full_ring_under_a_memory_limit)
{
    char path[512];
    unsigned char *buf;
    size_t len;
    mca_common_evt_flight_header_t h;
    mca_common_evt_flight_file_t *f;
    uint64_t slot;
    uint32_t oldest, tail, ring = UINT32_MAX;
    pid_t pid;
    int status;

    /* rings of 64 MiB: a reservation for all they could hold is larger than
     * the heaps glibc reserves for a thread's arena, so it cannot come from
     * address space the process already holds */
    (void) run_writer(2 * (64 * 1024 * 1024 + 2 * MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE)
                          + 1024 * 1024,
                      3, END_KILL, 0);
    the_file(path, sizeof(path));
    buf = slurp(path, &len);
    memcpy(&h, buf, sizeof(h));
    /* the ring that holds the three records */
    for (uint32_t i = 0; i < h.ring_count; ++i) {
        slot = h.rings_offset + (uint64_t) i * h.ring_stride;
        if (hdr_u32(buf, slot + MCA_COMMON_EVT_FLIGHT_CTL_TAIL)
            != hdr_u32(buf, slot + MCA_COMMON_EVT_FLIGHT_CTL_OLDEST)) {
            ring = i;
        }
    }
    cr_assert_neq(ring, UINT32_MAX, "no ring holds the records");
    cr_assert_eq(h.ring_capacity, 64u * 1024 * 1024, "ring of %u bytes", h.ring_capacity);
    slot = h.rings_offset + (uint64_t) ring * h.ring_stride;
    oldest = hdr_u32(buf, slot + MCA_COMMON_EVT_FLIGHT_CTL_OLDEST);
    tail = oldest + h.ring_capacity;
    memcpy(buf + slot + MCA_COMMON_EVT_FLIGHT_CTL_TAIL, &tail, 4);

    pid = fork();
    cr_assert_neq(pid, -1);
    if (0 == pid) {
        /* the address space in use, the decoder's copy of the file, and
         * 16 MiB: a reservation for every record a full ring of this size
         * could hold needs far more */
        if (!EVT_ASAN_OR_TSAN) {
            FILE *st = fopen("/proc/self/status", "r");
            char line[256];
            unsigned long kib = 0;
            while (NULL != st && NULL != fgets(line, sizeof(line), st)) {
                (void) sscanf(line, "VmSize: %lu kB", &kib);
            }
            if (NULL != st) {
                fclose(st);
            }
            if (0 == kib) {
                _exit(30);
            }
            rlim_t limit = (kib + 16 * 1024) * 1024 + len;
            struct rlimit lim = {.rlim_cur = limit, .rlim_max = limit};
            if (0 != setrlimit(RLIMIT_AS, &lim)) {
                _exit(31);
            }
        }
        if (0 != mca_common_evt_flight_decode(buf, len, &f)) {
            _exit(32);
        }
        if (3 != f->nrecords) {
            fprintf(stderr, "%zu records (%s)\n", f->nrecords,
                    f->nproblems ? f->problems[0] : "no problem said");
            _exit(33);
        }
        if (1 != f->nproblems || NULL == strstr(f->problems[0], "damaged record")
            || !f->rings[ring].damaged) {
            fprintf(stderr, "%s\n", f->nproblems ? f->problems[0] : "no problem said");
            _exit(34);
        }
        _exit(0);
    }
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status) && 0 == WEXITSTATUS(status), "decoder child status 0x%x", status);
    free(buf);
}

/* Memory that runs out in the middle of a ring: the records read before
 * it are returned, the ring is said cut where it stopped, the file is not
 * lost, and the records stay in ring order when there is no memory to
 * merge the rings (said too). Two rings of 64 MiB, one full of real
 * records (1.2 million), under an address-space limit of what the process
 * holds + the file + SLACK MiB, for several SLACKs: each decode returns. */
Test(file_recorder, out_of_memory_mid_ring_keeps_what_was_read, .timeout = 120)
{
    char path[512];
    unsigned char *buf;
    size_t len, all;
    mca_common_evt_flight_file_t *f;
    const size_t ring = 64 * 1024 * 1024;

    if (EVT_ASAN_OR_TSAN) {
        cr_skip_test("no address-space limit under ASan or TSan");
    }
    (void) run_writer(2 * (ring + 2 * MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE) + 1024 * 1024,
                      ring / REC_SIZE, END_KILL, 0);
    the_file(path, sizeof(path));
    buf = slurp(path, &len);
    cr_assert_eq(mca_common_evt_flight_decode(buf, len, &f), 0);
    cr_assert_eq(f->nproblems, 0);
    all = f->nrecords;
    cr_assert_gt(all, 1000000);
    mca_common_evt_flight_free(f);
    for (unsigned long slack = 8; slack <= 96; slack += 8) {
        pid_t pid = fork();
        int status;

        cr_assert_neq(pid, -1);
        if (0 == pid) {
            FILE *st = fopen("/proc/self/status", "r");
            char line[256];
            unsigned long kib = 0;
            bool cut = false;

            while (NULL != st && NULL != fgets(line, sizeof(line), st)) {
                (void) sscanf(line, "VmSize: %lu kB", &kib);
            }
            if (NULL != st) {
                fclose(st);
            }
            rlim_t limit = (kib + slack * 1024) * 1024 + len;
            struct rlimit lim = {.rlim_cur = limit, .rlim_max = limit};
            if (0 == kib || 0 != setrlimit(RLIMIT_AS, &lim)) {
                _exit(30);
            }
            if (0 != mca_common_evt_flight_decode(buf, len, &f)) {
                _exit(31); /* the file lost */
            }
            for (uint32_t i = 0; i < f->ring_count; ++i) {
                cut = cut || f->rings[i].damaged;
            }
            if (f->nrecords < all) {
                /* short: said, and the ring marked */
                if (!cut || 0 == f->nproblems || NULL == strstr(f->problems[0], "out of memory")) {
                    _exit(32);
                }
            } else if (f->nrecords != all || cut
                       || (0 != f->nproblems && NULL == strstr(f->problems[0], "out of memory"))) {
                _exit(33);
            }
            for (size_t i = 0; i < f->nrecords; ++i) {
                if (NULL == f->records[i].event
                    || f->records[i].payload_len != f->records[i].event->extent) {
                    _exit(34);
                }
            }
            _exit(0);
        }
        cr_assert_eq(waitpid(pid, &status, 0), pid);
        cr_assert(WIFEXITED(status) && 0 == WEXITSTATUS(status), "slack %lu MiB: status 0x%x",
                  slack, status);
    }
    free(buf);
}

/* ---- the tool ---- */

/* Run ompi-evt-file-read on @p path: @return its exit status; *records and
 * the summary's counts from its JSON lines. */
static int run_tool(const char *path, long *records, long *summary_records, long *overwritten,
                    long *problems)
{
    char cmd[1024], line[65536];
    const char *top = getenv("EVT_TOP_BUILDDIR");
    FILE *p;
    int status;

    cr_assert_not_null(top, "EVT_TOP_BUILDDIR (make check sets it)");
    (void) snprintf(cmd, sizeof(cmd), "%s/tools/ompi-evt-file-read %s 2>/dev/null", top, path);
    p = popen(cmd, "r");
    cr_assert_not_null(p);
    *records = *summary_records = *overwritten = *problems = -1;
    *records = 0;
    while (NULL != fgets(line, sizeof(line), p)) {
        json_object *o = json_tokener_parse(line), *t, *v;
        cr_assert_not_null(o, "not JSON: %s", line);
        cr_assert(json_object_object_get_ex(o, "type", &t));
        if (0 == strcmp(json_object_get_string(t), "record")) {
            ++*records;
        } else if (0 == strcmp(json_object_get_string(t), "summary")) {
            cr_assert(json_object_object_get_ex(o, "records", &v));
            *summary_records = (long) json_object_get_int64(v);
            cr_assert(json_object_object_get_ex(o, "overwritten", &v));
            *overwritten = (long) json_object_get_int64(v);
            cr_assert(json_object_object_get_ex(o, "problems", &v));
            *problems = (long) json_object_array_length(v);
        }
        json_object_put(o);
    }
    status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

Test(file_recorder, tool_json_lines)
{
    char path[512], bad[600];
    mca_common_evt_flight_file_t *f;
    long records, srecords, overwritten, problems;
    unsigned char *buf;
    size_t len;
    FILE *fp;

    (void) run_writer(FILE_SIZE, 3000, END_KILL, 0);
    f = read_the_file(path, sizeof(path));
    cr_assert_eq(run_tool(path, &records, &srecords, &overwritten, &problems), 0);
    cr_assert_eq(records, (long) f->nrecords);
    cr_assert_eq(srecords, (long) f->nrecords);
    cr_assert_eq(overwritten, (long) f->overwritten);
    cr_assert_eq(problems, 0);
    /* the folder gives the same */
    cr_assert_eq(run_tool(dir, &records, &srecords, &overwritten, &problems), 0);
    cr_assert_eq(records, (long) f->nrecords);

    /* a truncated copy: exit 2, the valid records still printed */
    buf = slurp(path, &len);
    (void) snprintf(bad, sizeof(bad), "%s/cut.oevt", dir);
    fp = fopen(bad, "wb");
    cr_assert_not_null(fp);
    cr_assert_eq(fwrite(buf, 1, len - 1000, fp), len - 1000);
    fclose(fp);
    cr_assert_eq(run_tool(bad, &records, &srecords, &overwritten, &problems), 2);
    cr_assert_gt(problems, 0);
    cr_assert_eq(records, srecords);
    cr_assert_leq(records, (long) f->nrecords);
    free(buf);
    mca_common_evt_flight_free(f);
}

/* ompi-evt-listen --read takes the recording: every record of the
 * numbered event is an event of events.jsonl, FINAL after a clean close;
 * an event whose name the wire cannot carry (a blank in it: the engine
 * accepts any name) has no dictionary entry (the dictionary is wire
 * batches); its records are counted in the summary and cost no other. */
Test(file_recorder, listener_reads_the_recording)
{
    const char *top = getenv("EVT_TOP_BUILDDIR");
    char path[512], out[600], cmd[2048], line[65536];
    mca_common_evt_flight_file_t *f;
    long seq_lines = 0, uncarried = -1;
    int status = 0;
    FILE *p;
    pid_t pid = fork();

    cr_assert_neq(pid, -1);
    if (0 == pid) {
        const mca_base_var_type_t types[1] = {MCA_BASE_VAR_TYPE_UINT64_T};
        const ptrdiff_t offsets[1] = {0};
        mca_base_event_t *e = NULL, *bad = NULL;
        uint64_t v = 7;
        setenv("OMPI_COMM_WORLD_RANK", "7", 1);
        setenv("OMPI_COMM_WORLD_SIZE", "8", 1);
        if (0 != writer_start(FILE_SIZE, 2) || 0 > test_file_seq_register(&e)
            || 0 > mca_base_event_register_ptr("ompi", "test", "file", "bad name", "a blank",
                                               OPAL_INFO_LVL_9, 1, types, offsets, NULL,
                                               MCA_BASE_VAR_BIND_NO_OBJECT, 0, e->source, NULL,
                                               &bad)) {
            _exit(10);
        }
        for (uint64_t s = 0; s < 5000; ++s) {
            test_file_seq_raise(e, s, 7);
            if (0 == s % 40) { /* several within the newest records that fit */
                (void) mca_base_event_raise(bad, NULL, &v);
            }
        }
        writer_stop();
        _exit(0);
    }
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status) && 0 == WEXITSTATUS(status), "writer status 0x%x", status);
    f = read_the_file(path, sizeof(path));
    cr_assert_not_null(top, "EVT_TOP_BUILDDIR (make check sets it)");
    (void) snprintf(out, sizeof(out), "%s/listen", dir);
    cr_assert_eq(mkdir(out, 0700), 0);
    (void) snprintf(cmd, sizeof(cmd),
                    "%s/tools/ompi-evt-listen --read %s -o %s --format jsonl --quiet", top, path,
                    out);
    status = system(cmd);
    cr_assert(WIFEXITED(status) && 0 == WEXITSTATUS(status), "%s: status 0x%x", cmd, status);
    (void) snprintf(cmd, sizeof(cmd), "%s/events.jsonl", out);
    p = fopen(cmd, "r");
    cr_assert_not_null(p);
    while (NULL != fgets(line, sizeof(line), p)) {
        seq_lines += NULL != strstr(line, "\"event\":\"" TEST_FILE_SEQ_NAME "\"");
        cr_assert_null(strstr(line, "bad name"), "an event the wire cannot carry was listed");
        /* (the job's other ranks, whose recordings were not read, are
         * listed as never reported) */
        if (NULL != strstr(line, "\"ended_early\":true")
            && NULL == strstr(line, "\"never_reported\":true")) {
            cr_assert_fail("a cleanly closed recording is not FINAL: %s", line);
        }
    }
    fclose(p);
    (void) snprintf(cmd, sizeof(cmd), "%s/summary.txt", out);
    p = fopen(cmd, "r");
    cr_assert_not_null(p);
    while (NULL != fgets(line, sizeof(line), p)) {
        const char *u = strstr(line, " records of types missing from its dictionary");
        if (NULL != u) {
            const char *c = u;
            while (c > line && ' ' != c[-1]) {
                --c;
            }
            uncarried = strtol(c, NULL, 10);
        }
    }
    fclose(p);
    {
        long want = 0, want_bad = 0;
        for (size_t i = 0; i < f->nrecords; ++i) {
            const mca_common_evt_flight_event_t *ev = f->records[i].event;
            want += NULL != ev && 0 == strcmp(ev->name, TEST_FILE_SEQ_NAME);
            want_bad += NULL == ev;
        }
        cr_assert_gt(want, 0);
        /* the dictionary is the wire's: the badly named type is refused
         * there (counted), its records stay, unnamed */
        cr_assert_eq(f->dict_refused, 1, "%llu types refused by the dictionary",
                     (unsigned long long) f->dict_refused);
        cr_assert_gt(want_bad, 0, "the recording holds the badly named event's records");
        cr_assert_eq(seq_lines, want, "%ld numbered events listed, %ld recorded", seq_lines, want);
        cr_assert_eq(uncarried, want_bad, "the summary counts %ld records it cannot carry, not %ld",
                     want_bad, uncarried);
    }
    mca_common_evt_flight_free(f);
}

/* Messages of the p2p test: rank 0 sends them to rank 1, one tag, one
 * size (only order tells them apart), 10 us apart; each receive completes
 * 5 us after its send started. */
#define P2P_MSGS 3000

/* A writer child of rank @p rank (of 2) with a file of @p size bytes:
 * rank 0 raises the sends, rank 1 the receives, at times from @p base. */
static void p2p_writer(int rank, size_t size, int64_t base)
{
    pid_t pid = fork();
    int status = 0;

    cr_assert_neq(pid, -1);
    if (0 == pid) {
        mca_base_event_t *ev = NULL;
        char r[4];
        (void) snprintf(r, sizeof(r), "%d", rank);
        setenv("OMPI_COMM_WORLD_RANK", r, 1);
        setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
        if (0 != writer_start(size, 1) || OPAL_SUCCESS != ompi_evt_producers_register()
            || OPAL_SUCCESS
                   != mca_base_event_get_by_name(0 == rank ? "ompi.mpi.p2p_send_complete"
                                                           : "ompi.mpi.p2p_recv_complete",
                                                 &ev)) {
            _exit(10);
        }
        for (int i = 0; i < P2P_MSGS; ++i) {
            int64_t sent = base + (int64_t) i * 10000;
            ompi_evt_p2p_payload_t p = {.comm = 0x1000,
                                        .bytes = 8,
                                        .start_time = 0 == rank ? sent : sent - 3000,
                                        .complete_time = 0 == rank ? sent + 2000 : sent + 5000,
                                        .peer = 1 - rank,
                                        .tag = 0,
                                        .mode = 0,
                                        .comm_peer = 1 - rank};
            (void) mca_base_event_raise_stamped(ev, NULL, NULL, &p, MCA_BASE_EVENT_CB_REQUIRE_NONE,
                                                p.complete_time);
        }
        writer_stop();
        _exit(0);
    }
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status) && 0 == WEXITSTATUS(status), "writer status 0x%x", status);
}

/* Read both recordings into trace.json; @return otherData's flows and
 * acausal_flows. */
static void p2p_listen(const char *tag, long *flows, long *acausal)
{
    const char *top = getenv("EVT_TOP_BUILDDIR");
    char out[600], cmd[2048];
    json_object *o, *od, *v;
    int status;

    cr_assert_not_null(top, "EVT_TOP_BUILDDIR (make check sets it)");
    (void) snprintf(out, sizeof(out), "%s/%s", dir, tag);
    cr_assert_eq(mkdir(out, 0700), 0);
    (void) snprintf(cmd, sizeof(cmd),
                    "%s/tools/ompi-evt-listen --read %s/*.oevt -o %s --format perfetto --quiet "
                    "2>/dev/null",
                    top, dir, out);
    status = system(cmd);
    cr_assert(WIFEXITED(status) && 0 == WEXITSTATUS(status), "%s: status 0x%x", cmd, status);
    (void) snprintf(cmd, sizeof(cmd), "%s/trace.json", out);
    o = json_object_from_file(cmd);
    cr_assert_not_null(o, "%s parses", cmd);
    cr_assert(json_object_object_get_ex(o, "otherData", &od));
    cr_assert(json_object_object_get_ex(od, "flows", &v));
    *flows = (long) json_object_get_int64(v);
    cr_assert(json_object_object_get_ex(od, "acausal_flows", &v), "otherData.acausal_flows");
    *acausal = (long) json_object_get_int64(v);
    json_object_put(o);
    (void) snprintf(cmd, sizeof(cmd), "rm -rf %s", out);
    (void) system(cmd);
}

static void rm_recordings(void)
{
    char cmd[600];
    (void) snprintf(cmd, sizeof(cmd), "rm -f %s/*.oevt", dir);
    (void) system(cmd);
}

/* Two flight windows: both whole, every message is joined to its receive;
 * the sender's window overwrote its oldest records (it starts later than
 * the receiver's), so the n-th send read is not the n-th receive read:
 * nothing is joined, and certainly no receive to a later send. */
Test(file_recorder, listener_pairs_only_whole_windows)
{
    int64_t base = 1000000000LL;
    long flows, acausal;

    p2p_writer(0, 1024 * 1024, base);
    p2p_writer(1, 1024 * 1024, base);
    p2p_listen("whole", &flows, &acausal);
    cr_assert_eq(flows, P2P_MSGS, "whole windows: %ld flows, want %d", flows, P2P_MSGS);
    cr_assert_eq(acausal, 0, "whole windows: %ld acausal flows", acausal);

    rm_recordings();
    p2p_writer(0, FILE_SIZE, base);
    p2p_writer(1, 1024 * 1024, base);
    p2p_listen("cut", &flows, &acausal);
    cr_assert_eq(acausal, 0, "a cut window: %ld flows join a receive to a later send", acausal);
    cr_assert_eq(flows, 0, "a cut window: %ld flows paired by order", flows);
}
