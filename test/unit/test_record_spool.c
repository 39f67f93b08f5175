/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* ompi-evt-record's shared-memory consumer (tools/evt_record_spool.c),
 * built here with its periodic look at the live folder an hour apart: a
 * file is found only because its publication was reported (inotify). A
 * rank that fills its ring within the periodic look's interval (a short
 * latency loop does so in 50 ms) lost its first records when the consumer
 * found its file that late. */

#include "ompi_config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "evt_record_spool.h"
#include "ompi/constants.h"
#include "ompi/mca/common/evt/common_evt_flight_format.h"
#include "ompi/mca/common/evt/common_evt_flight_write.h"
#include "ompi/mca/evt/base/base.h"
#include "ompi/mca/evt/file/evt_file.h"
#include "ompi/mca/evt/file/evt_file_internal.h"
#include "opal/mca/base/mca_base_event.h"
#include "opal/runtime/opal.h"
#include "test_file_common.h"

#define RECORDS 1000

static char top[64], live[128], out[128];

static void make_dirs(void)
{
    snprintf(top, sizeof(top), "/tmp/evt_spool_XXXXXX");
    cr_assert_not_null(mkdtemp(top));
    snprintf(live, sizeof(live), "%s/live", top);
    snprintf(out, sizeof(out), "%s/out", top);
    cr_assert_eq(mkdir(live, 0700), 0);
    cr_assert_eq(mkdir(out, 0700), 0);
}

static void remove_dirs(void)
{
    char cmd[256];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
    (void) system(cmd);
}

/* In a writer child: evt/file into @p folder, one ring of a few KiB short of
 * @p size, waiting for a consumer when @p wait. */
static mca_base_event_t *writer_start(const char *folder, size_t size, bool wait)
{
    mca_base_event_t *ev = NULL;
    ompi_evt_base_module_t *m;
    int prio = -1;

    setenv("OMPI_COMM_WORLD_RANK", "0", 1);
    setenv("OMPI_COMM_WORLD_SIZE", "1", 1);
    if (OPAL_SUCCESS != opal_init_util(NULL, NULL) || OPAL_SUCCESS != mca_base_event_init()
        || OMPI_SUCCESS
               != mca_evt_file_component.super.evtc_version.mca_register_component_params()) {
        _exit(2);
    }
    mca_evt_file_component.dir = (char *) folder;
    mca_evt_file_component.size = size;
    mca_evt_file_component.rings = 1;
    mca_evt_file_component.consumer_wait = wait;
    m = mca_evt_file_component.super.evtc_init(&prio);
    if (NULL == m || OMPI_SUCCESS != ompi_evt_base_install("file", m, prio)
        || 0 > test_file_seq_register(&ev)) {
        _exit(3);
    }
    return ev;
}

static void writer_stop(void)
{
    (void) mca_base_event_flush();
    ompi_evt_base_uninstall();
    (void) mca_base_event_finalize();
}

/* The writer: evt/file into the live folder (published at init), RECORDS
 * numbered events, its file's path written to @p path_fd, then it waits
 * for SIGTERM with its file open and finalizes. */
static pid_t start_writer(int go_fd, int path_fd)
{
    pid_t pid = fork();

    cr_assert_neq(pid, -1);
    if (0 == pid) {
        mca_base_event_t *ev;
        sigset_t term;
        int sig;
        char c;

        /* published only once the consumer runs: its first look (at its
         * start) must not be what finds the file */
        if (1 != read(go_fd, &c, 1)) {
            _exit(1);
        }
        sigemptyset(&term);
        sigaddset(&term, SIGTERM);
        (void) sigprocmask(SIG_BLOCK, &term, NULL);
        ev = writer_start(live, 1 << 20, false);
        for (uint64_t s = 0; s < RECORDS; ++s) {
            test_file_seq_raise(ev, s, 0);
        }
        if ((ssize_t) sizeof(ompi_evt_file_state.path)
            != write(path_fd, ompi_evt_file_state.path, sizeof(ompi_evt_file_state.path))) {
            _exit(4);
        }
        (void) sigwait(&term, &sig);
        writer_stop();
        _exit(0);
    }
    return pid;
}

Test(record_spool, a_published_file_is_found_without_the_periodic_look)
{
    char err[256] = "";
    record_spool_t *sp;
    char path[sizeof(ompi_evt_file_state.path)];
    int go[2], paths[2], status, waited_ms;
    pid_t pid;
    FILE *msgs;
    char *said = NULL;
    size_t said_len = 0;

    make_dirs();
    cr_assert_eq(pipe(go), 0);
    cr_assert_eq(pipe(paths), 0);
    pid = start_writer(go[0], paths[1]);
    sp = record_spool_start(live, out, err, sizeof(err));
    cr_assert_not_null(sp, "%s", err);
    /* whatever look the consumer makes as it starts sees an empty folder */
    usleep(100000);
    cr_assert_eq(write(go[1], "g", 1), 1);
    cr_assert_eq(read(paths[0], path, sizeof(path)), (ssize_t) sizeof(path),
                 "the writer did not start");
    cr_assert_eq(strncmp(path, live, strlen(live)), 0, "%s", path);
    /* published now; mapped and unlinked once the consumer finds it (30 s:
     * far beyond a wake-up, far below the hour of the periodic look) */
    for (waited_ms = 0; waited_ms < 30000 && 0 == access(path, F_OK); waited_ms += 1) {
        usleep(1000);
    }
    cr_assert_eq(access(path, F_OK), -1, "the consumer did not find %s in 30 s", path);
    cr_assert_eq(kill(pid, SIGTERM), 0);
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status) && 0 == WEXITSTATUS(status), "writer status 0x%x", status);
    msgs = open_memstream(&said, &said_len);
    cr_assert_not_null(msgs);
    cr_assert_eq(record_spool_finish(sp, msgs), 0);
    (void) fclose(msgs);
    cr_assert_eq(record_spool_records(sp), RECORDS, "copied %llu, said: %s",
                 (unsigned long long) record_spool_records(sp), said);
    free(said);
    record_spool_free(sp);
    remove_dirs();
}

/* ------------------------------------------------------------------------
 * evt_file_consumer_wait: a writer's progress calls wait for the copy
 * ------------------------------------------------------------------------ */

static unsigned char *header_word(size_t offset)
{
    return (unsigned char *) ompi_evt_file_state.hdr + offset;
}

static uint64_t consumer_beat(void)
{
    return __atomic_load_n((uint64_t *) header_word(MCA_COMMON_EVT_FLIGHT_HDR_CONSUMER_BEAT),
                           __ATOMIC_ACQUIRE);
}

static uint64_t waited_ns(void)
{
    return __atomic_load_n((uint64_t *) header_word(MCA_COMMON_EVT_FLIGHT_HDR_CONSUMER_WAITED),
                           __ATOMIC_RELAXED);
}

static int64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t) ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

#define FLOOD_FILE_SIZE (64 * 1024)
#define FLOOD_RECORDS   200000 /* hundreds of rings of records */

/* The writer raises hundreds of rings' worth as fast as it can, a progress call
 * (the wait) every 16 records, and the real consumer copies: with the wait
 * nothing is lost and the writer says it waited; without it, the ring
 * overwrites records (the flood is far faster than the consumer's look
 * every 2 ms), which shows that the first case tests something. The
 * consumer starts before the writer, or with @p late 300 ms after the
 * writer has published its file and begun its flood. */
static void flood(bool wait, bool late, uint64_t *copied, int *finish_rc, uint64_t *writer_waited)
{
    char err[256] = "";
    record_spool_t *sp = NULL;
    int status, result[2];
    pid_t pid;

    make_dirs();
    cr_assert_eq(pipe(result), 0);
    if (!late) {
        sp = record_spool_start(live, out, err, sizeof(err));
        cr_assert_not_null(sp, "%s", err);
    }
    pid = fork();
    cr_assert_neq(pid, -1);
    if (0 == pid) {
        mca_base_event_t *ev = writer_start(live, FLOOD_FILE_SIZE, wait);
        uint64_t w;

        /* the consumer has found the file and looked at it once */
        for (int i = 0; !late && i < 30000 && 0 == consumer_beat(); ++i) {
            usleep(1000);
        }
        for (uint64_t s = 0; s < FLOOD_RECORDS; ++s) {
            test_file_seq_raise(ev, s, 0);
            if (15 == s % 16) {
                (void) ompi_evt_file_consumer_wait();
            }
        }
        w = waited_ns();
        writer_stop();
        _exit(sizeof(w) == write(result[1], &w, sizeof(w)) ? 0 : 9);
    }
    if (late) {
        usleep(300 * 1000);
        sp = record_spool_start(live, out, err, sizeof(err));
        cr_assert_not_null(sp, "%s", err);
    }
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status) && 0 == WEXITSTATUS(status), "writer status 0x%x", status);
    cr_assert_eq(read(result[0], writer_waited, sizeof(*writer_waited)),
                 (ssize_t) sizeof(*writer_waited));
    *finish_rc = record_spool_finish(sp, NULL);
    *copied = record_spool_records(sp);
    record_spool_free(sp);
    remove_dirs();
}

/* A flood with the wait (the consumer @p late or not): nothing lost, and
 * the writer waited more than @p min_waited_ns. */
static void flood_loses_nothing(bool late, uint64_t min_waited_ns)
{
    uint64_t copied, waited;
    int rc;

    flood(true, late, &copied, &rc, &waited);
    cr_assert_eq(rc, 0, "the consumer said records were lost or missing");
    /* + the finalization's records */
    cr_assert_geq(copied, FLOOD_RECORDS, "copied %llu of %d", (unsigned long long) copied,
                  FLOOD_RECORDS);
    cr_assert_gt(waited, min_waited_ns, "the writer waited %llu ns", (unsigned long long) waited);
}

/* The writer waited at all: the flood was one. */
Test(record_spool, a_waiting_writer_loses_nothing, .timeout = 120)
{
    flood_loses_nothing(false, 0);
}

/* The consumer finds the file only after the writer has filled its ring
 * (on two cores busy with the ranks, ompi-evt-record can be that late): the
 * writer waits for its first look, most of its 300 ms late start, instead
 * of overwriting its first records. */
Test(record_spool, a_writer_waits_for_a_consumer_not_come_yet, .timeout = 120)
{
    flood_loses_nothing(true, 200000000ULL);
}

Test(record_spool, without_the_wait_the_flood_overwrites, .timeout = 120)
{
    uint64_t copied, waited;
    int rc;

    flood(false, false, &copied, &rc, &waited);
    cr_assert_eq(rc, 1, "nothing lost without the wait: the other test proves nothing");
    cr_assert_lt(copied, FLOOD_RECORDS);
    cr_assert_eq(waited, 0);
}

/* One writer with one ring filled to three quarters and a consumer that
 * never copied: what the wait does, by the consumer's heartbeat. */
static void fill_three_quarters(mca_base_event_t *ev)
{
    const mca_common_evt_flight_header_t *h = ompi_evt_file_state.hdr;
    const uint32_t *tail = (const uint32_t *) ((const unsigned char *) h + h->rings_offset
                                               + MCA_COMMON_EVT_FLIGHT_CTL_TAIL);
    uint64_t s = 0;

    while (__atomic_load_n(tail, __ATOMIC_RELAXED) < h->ring_capacity / 4 * 3) {
        test_file_seq_raise(ev, s++, 0);
    }
}

static void set_beat(int64_t ns)
{
    __atomic_store_n((uint64_t *) header_word(MCA_COMMON_EVT_FLIGHT_HDR_CONSUMER_BEAT),
                     (uint64_t) ns, __ATOMIC_RELEASE);
}

/* Fork a writer child running @p body; it must exit 0 (alarm: a wait that
 * never ends kills it). */
static void in_writer(void (*body)(mca_base_event_t *ev))
{
    pid_t pid;
    int status;

    make_dirs();
    pid = fork();
    cr_assert_neq(pid, -1);
    if (0 == pid) {
        mca_base_event_t *ev = writer_start(live, FLOOD_FILE_SIZE, true);
        alarm(60);
        body(ev);
        writer_stop();
        _exit(0);
    }
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    remove_dirs();
    cr_assert(WIFEXITED(status) && 0 == WEXITSTATUS(status), "writer status 0x%x", status);
}

/* A consumer that never comes is waited for until a second after the
 * file's publication, then no more. */
static void no_consumer_body(mca_base_event_t *ev)
{
    uint64_t first;

    fill_three_quarters(ev);
    (void) ompi_evt_file_consumer_wait();
    first = waited_ns();
    if (first < 500000000ULL || first > 5000000000ULL) {
        _exit(10); /* not the second of grace */
    }
    (void) ompi_evt_file_consumer_wait();
    if (waited_ns() != first) {
        _exit(17); /* waited again for a consumer that never came */
    }
}

Test(record_spool, a_consumer_that_never_comes_is_waited_for_a_second, .timeout = 60)
{
    in_writer(no_consumer_body);
}

static void silent_consumer_body(mca_base_event_t *ev)
{
    fill_three_quarters(ev);
    set_beat(mono_ns() - 2000000000LL); /* its last look 2 s ago */
    (void) ompi_evt_file_consumer_wait();
    if (waited_ns() >= 500000000ULL) {
        _exit(11); /* waited for a consumer silent for 2 s */
    }
}

Test(record_spool, a_silent_consumer_is_not_waited_for)
{
    in_writer(silent_consumer_body);
}

static void falls_silent_body(mca_base_event_t *ev)
{
    fill_three_quarters(ev);
    set_beat(mono_ns()); /* alive now, never again */
    (void) ompi_evt_file_consumer_wait();
    /* waited until the consumer had been silent for a second */
    if (waited_ns() < 500000000ULL) {
        _exit(12);
    }
}

Test(record_spool, the_wait_ends_when_the_consumer_falls_silent, .timeout = 90)
{
    in_writer(falls_silent_body);
}

/* A consumer alive but not copying the ring waited for (it cannot read
 * it: a damaged ring): its heartbeat keeps coming, its position does not
 * move. The wait ends about a second after the position last moved. */
static atomic_bool beating;
static void *beat_thread(void *arg)
{
    (void) arg;
    while (atomic_load(&beating)) {
        set_beat(mono_ns());
        usleep(10000);
    }
    return NULL;
}

static void stuck_consumer_body(mca_base_event_t *ev)
{
    pthread_t t;

    fill_three_quarters(ev);
    set_beat(mono_ns());
    atomic_store(&beating, true);
    if (0 != pthread_create(&t, NULL, beat_thread, NULL)) {
        _exit(15);
    }
    (void) ompi_evt_file_consumer_wait();
    atomic_store(&beating, false);
    (void) pthread_join(t, NULL);
    /* it waited (the consumer looked alive), and came back */
    if (waited_ns() < 500000000ULL) {
        _exit(16);
    }
    set_beat(0);
}

Test(record_spool, a_consumer_that_does_not_copy_is_not_waited_for_ever, .timeout = 90)
{
    in_writer(stuck_consumer_body);
}

static void forked_body(mca_base_event_t *ev)
{
    pid_t child;
    int status;

    fill_three_quarters(ev);
    set_beat(mono_ns() + 3600000000000LL); /* alive for an hour */
    child = fork();
    if (0 == child) {
        alarm(30); /* a wait here would last the hour */
        (void) ompi_evt_file_consumer_wait();
        _exit(0 == waited_ns() ? 0 : 13); /* a child of the writer never waits */
    }
    if (child < 0 || child != waitpid(child, &status, 0) || !WIFEXITED(status)) {
        _exit(14);
    }
    if (0 != WEXITSTATUS(status)) {
        _exit(WEXITSTATUS(status));
    }
    set_beat(0); /* the parent's own finalize: nobody to wait for */
}

Test(record_spool, a_forked_child_never_waits, .timeout = 90)
{
    in_writer(forked_body);
}

/* A writer killed while it waited leaves its count of waiting threads up:
 * the consumer must not keep looking without a pause for it. Here the
 * count stays up for 3 s of a live writer that raises nothing: the
 * consumer's CPU over those seconds stays far below what looking without
 * a pause costs (all of them). */
Test(record_spool, a_waiting_count_left_up_does_not_keep_the_consumer_busy, .timeout = 60)
{
    char err[256] = "";
    record_spool_t *sp;
    int status;
    pid_t pid;

    make_dirs();
    sp = record_spool_start(live, out, err, sizeof(err));
    cr_assert_not_null(sp, "%s", err);
    pid = fork();
    cr_assert_neq(pid, -1);
    if (0 == pid) {
        mca_base_event_t *ev = writer_start(live, FLOOD_FILE_SIZE, true);
        uint32_t *waiting = (uint32_t *) header_word(MCA_COMMON_EVT_FLIGHT_HDR_WRITERS_WAITING);

        test_file_seq_raise(ev, 0, 0);
        __atomic_store_n(waiting, 1, __ATOMIC_RELEASE);
        sleep(3);
        __atomic_store_n(waiting, 0, __ATOMIC_RELEASE);
        writer_stop();
        _exit(0);
    }
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status) && 0 == WEXITSTATUS(status), "writer status 0x%x", status);
    cr_assert_eq(record_spool_finish(sp, NULL), 0);
    cr_assert_lt(record_spool_cpu(sp), 2.0, "the consumer used %.2f s of CPU in 3 s",
                 record_spool_cpu(sp));
    record_spool_free(sp);
    remove_dirs();
}

/* A consumer with no ring to look at (the job records through pmix, or no
 * rank has started) sleeps until inotify or the end of the job wakes it,
 * instead of a look every pause: it stays off the ranks' cores, and the
 * end still reaches it at once (this build's periodic look is an hour
 * away). */
Test(record_spool, an_idle_consumer_sleeps_until_a_file_or_the_end, .timeout = 60)
{
    char err[256] = "";
    struct rusage before, after;
    struct timespec t0, t1;
    record_spool_t *sp;
    double ms;
    long switches;

    make_dirs();
    sp = record_spool_start(live, out, err, sizeof(err));
    cr_assert_not_null(sp, "%s", err);
    usleep(50000); /* past the consumer's first look */
    cr_assert_eq(getrusage(RUSAGE_SELF, &before), 0);
    usleep(500000);
    cr_assert_eq(getrusage(RUSAGE_SELF, &after), 0);
    switches = after.ru_nvcsw - before.ru_nvcsw;
    /* a look every 2 ms: about 250 */
    cr_expect_lt(switches, 25, "the idle consumer woke %ld times in 0.5 s", switches);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cr_assert_eq(record_spool_finish(sp, NULL), 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    ms = (double) (t1.tv_sec - t0.tv_sec) * 1e3 + (double) (t1.tv_nsec - t0.tv_nsec) * 1e-6;
    cr_expect_lt(ms, 1000.0, "the end took %.0f ms to reach the idle consumer", ms);
    cr_expect_eq(record_spool_count(sp), 0);
    record_spool_free(sp);
    remove_dirs();
}

/* ------------------------------------------------------------------------
 * Rings whose bytes the writer cannot have written (a rank that scribbled
 * over its mapping): built by hand, one ring of 4 KiB, writer closed.
 * ------------------------------------------------------------------------ */

#define HAND_CAP   4096u
#define HAND_RINGS (2 * MCA_COMMON_EVT_FLIGHT_HEADER_SIZE)
#define HAND_SIZE  (HAND_RINGS + MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE + HAND_CAP)

typedef struct {
    uint32_t size, kind;
} hand_rec_t;

/* A closed writer's file in the live folder whose ring holds @p n records
 * from position 0 (their headers only), tail @p tail. */
static void plant_hand_file(const hand_rec_t *recs, int n, uint32_t tail)
{
    mca_common_evt_flight_header_t h;
    unsigned char *map, *data;
    char path[256];
    uint32_t pos = 0, oldest = 0;
    int fd;

    snprintf(path, sizeof(path), "%s/hand.oevt", live);
    fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
    cr_assert_geq(fd, 0);
    cr_assert_eq(ftruncate(fd, HAND_SIZE), 0);
    map = mmap(NULL, HAND_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    cr_assert_neq(map, MAP_FAILED);
    memset(&h, 0, sizeof(h));
    memcpy(h.magic, MCA_COMMON_EVT_FLIGHT_MAGIC, sizeof(h.magic));
    h.version = MCA_COMMON_EVT_FLIGHT_VERSION;
    h.endian = MCA_COMMON_EVT_FLIGHT_ENDIAN;
    h.header_size = MCA_COMMON_EVT_FLIGHT_HEADER_SIZE;
    h.file_size = HAND_SIZE;
    h.world_size = 1;
    snprintf(h.host, sizeof(h.host), "h");
    snprintf(h.job, sizeof(h.job), "j");
    h.ring_count = 1;
    h.ring_capacity = HAND_CAP;
    h.rings_offset = HAND_RINGS;
    h.ring_stride = MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE + HAND_CAP;
    h.dict_offset = MCA_COMMON_EVT_FLIGHT_HEADER_SIZE;
    h.dict_size = MCA_COMMON_EVT_FLIGHT_HEADER_SIZE;
    h.drops_offset = HAND_RINGS;
    h.ctl_size = 128;
    h.ring_hdr_size = MCA_COMMON_EVT_FLIGHT_RING_HDR_SIZE;
    h.rec_size = MCA_COMMON_EVT_FLIGHT_REC_SIZE;
    h.state = MCA_COMMON_EVT_FLIGHT_STATE_CLOSED;
    mca_common_evt_flight_header_seal(&h);
    memcpy(map, &h, sizeof(h));
    data = map + HAND_RINGS + MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE;
    for (int k = 0; k < n; ++k) {
        memcpy(data + pos, &recs[k].size, 4);
        memcpy(data + pos + 4, &recs[k].kind, 4);
        pos += recs[k].size;
    }
    memcpy(map + HAND_RINGS + MCA_COMMON_EVT_FLIGHT_CTL_TAIL, &tail, 4);
    memcpy(map + HAND_RINGS + MCA_COMMON_EVT_FLIGHT_CTL_OLDEST, &oldest, 4);
    cr_assert_eq(munmap(map, HAND_SIZE), 0);
    cr_assert_eq(close(fd), 0);
}

/* Copy the planted file: the exit status, the records copied and what was
 * said. */
static int copy_hand_file(uint64_t *copied, char *said, size_t len)
{
    char err[256] = "";
    record_spool_t *sp = record_spool_start(live, out, err, sizeof(err));
    FILE *msgs = tmpfile();
    size_t got;
    int rc;

    cr_assert_not_null(sp, "%s", err);
    cr_assert_not_null(msgs);
    rc = record_spool_finish(sp, msgs);
    *copied = record_spool_records(sp);
    record_spool_free(sp);
    rewind(msgs);
    got = fread(said, 1, len - 1, msgs);
    said[got] = '\0';
    fclose(msgs);
    return rc;
}

/* A record of 8 bytes is well-formed for its size alone, but no record the
 * writer makes (the reader refuses it, and all that follows it in the
 * ring): what the copy stops at, said, exit status 1; only the record
 * before it is counted as copied. */
Test(record_spool, a_record_the_reader_refuses_is_damage_not_a_copy, .init = make_dirs,
     .fini = remove_dirs)
{
    const uint32_t rec = MCA_COMMON_EVT_FLIGHT_RING_HDR_SIZE + MCA_COMMON_EVT_FLIGHT_REC_SIZE;
    const hand_rec_t recs[] = {{rec, MCA_COMMON_EVT_FLIGHT_KIND_RECORD},
                               {8, MCA_COMMON_EVT_FLIGHT_KIND_RECORD},
                               {rec, MCA_COMMON_EVT_FLIGHT_KIND_RECORD},
                               {rec, MCA_COMMON_EVT_FLIGHT_KIND_RECORD}};
    char said[1024];
    uint64_t copied;

    plant_hand_file(recs, 4, 3 * rec + 8);
    cr_assert_eq(copy_hand_file(&copied, said, sizeof(said)), 1, "%s", said);
    cr_assert_eq(copied, 1);
    cr_assert_not_null(strstr(said, "a ring held bytes that are not a record"), "%s", said);
}

/* A tail that is no record boundary (not a multiple of 8): damage, said,
 * exit status 1, and no read past what the copy holds (ASan in make
 * check-sanitize). */
Test(record_spool, positions_off_the_record_grid_are_damage, .init = make_dirs, .fini = remove_dirs)
{
    const uint32_t rec = MCA_COMMON_EVT_FLIGHT_RING_HDR_SIZE + MCA_COMMON_EVT_FLIGHT_REC_SIZE;
    const hand_rec_t recs[] = {{rec, MCA_COMMON_EVT_FLIGHT_KIND_RECORD}};
    char said[1024];
    uint64_t copied;

    plant_hand_file(recs, 1, rec + 4);
    cr_assert_eq(copy_hand_file(&copied, said, sizeof(said)), 1, "%s", said);
    cr_assert_eq(copied, 0);
    cr_assert_not_null(strstr(said, "a ring held bytes that are not a record"), "%s", said);
}

/* pwrite() as a full file system answers it while the_disk_is_full is
 * set, the system call's answer otherwise: the spool, built into this
 * program, writes its images with it. */
static atomic_bool the_disk_is_full = false;

ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset)
{
    if (atomic_load(&the_disk_is_full)) {
        errno = ENOSPC;
        return -1;
    }
    return (ssize_t) syscall(SYS_pwrite64, fd, buf, count, offset);
}

/* The spool cannot be written (a full disk): the failure is said first,
 * with its cause, as making the recording incomplete; the hint that the
 * ranks raised too fast is not given (the copy did not fall behind), and
 * the status is -1, on which ompi-evt-record makes no outputs. */
Test(record_spool, a_full_disk_is_said_first_and_fails_the_recording, .init = make_dirs,
     .fini = remove_dirs)
{
    const uint32_t rec = MCA_COMMON_EVT_FLIGHT_RING_HDR_SIZE + MCA_COMMON_EVT_FLIGHT_REC_SIZE;
    const hand_rec_t recs[] = {{rec, MCA_COMMON_EVT_FLIGHT_KIND_RECORD},
                               {rec, MCA_COMMON_EVT_FLIGHT_KIND_RECORD}};
    char said[1024];
    uint64_t copied;
    int rc;

    plant_hand_file(recs, 2, 2 * rec);
    atomic_store(&the_disk_is_full, true);
    rc = copy_hand_file(&copied, said, sizeof(said));
    atomic_store(&the_disk_is_full, false);
    cr_assert_eq(rc, -1, "%s", said);
    cr_assert_eq(strncmp(said, "ompi-evt-record: cannot write the recording of hand.oevt: ",
                         strlen("ompi-evt-record: cannot write the recording of hand.oevt: ")),
                 0, "%s", said);
    cr_assert_not_null(strstr(said, strerror(ENOSPC)), "%s", said);
    cr_assert_not_null(strstr(said, "the recording is incomplete"), "%s", said);
    cr_assert_null(strstr(said, "raised faster"), "%s", said);
}
