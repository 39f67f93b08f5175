/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * evt/file module: the file, its mapping, the ring storage the kit places
 * in it, the dictionary, the export drop counters and the optional msync.
 *
 * What runs where:
 *   file_module_init()   INIT: create the file (O_EXCL, O_NOFOLLOW, 0600,
 *                        in a folder the user owns; the default one also
 *                        writable by nobody else), reserve the blocks of
 *                        what lies before the rings, of the rings' control
 *                        blocks and of the first ring (posix_fallocate: a
 *                        raise never meets a full disk as SIGBUS), map it,
 *                        write the header, and write every page before the
 *                        rings once (file_populate(); the kit writes a
 *                        ring's at its first claim).
 *   file_storage_alloc() INIT (kit open): ring i's control block and data.
 *   file_storage_claim() RAISE, SIGNAL (a ring's first claim, before the
 *                        kit writes it): reserve its blocks (fallocate).
 *   file_exports()       ANY, under the engine mutex: append the event's
 *                        dictionary entry (and its source's) once. Plain
 *                        stores into the mapping, no engine call.
 *   file_progress()      DRAIN: every 256th call, the export drop counts.
 *   file_flush()         DRAIN (drain points): the export drop counts.
 *   file_module_finalize() INIT: drop counts, state CLOSED, msync if asked;
 *                        the mapping goes when the kit releases its last
 *                        ring (a drain on another thread may still read).
 * The raise is the kit's (evt_base_store.c): nothing here is on it.
 */

#include "ompi_config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ompi/constants.h"
#include "ompi/mca/common/evt/common_evt_flight_format.h"
#include "ompi/mca/common/evt/common_evt_flight_write.h"
#include "ompi/mca/evt/base/base.h"
#include "ompi/mca/evt/base/evt_base_kit.h"
#include "ompi/mca/evt/base/evt_base_report.h"
#include "ompi/mca/evt/file/evt_file.h"
#include "ompi/mca/evt/file/evt_file_internal.h"
#include "opal/constants.h"
#include "opal/util/output.h"

/* The format describes the kit's layout: keep them in step. */
_Static_assert(MCA_COMMON_EVT_FLIGHT_CTL_SIZE == sizeof(ompi_evt_ring_ctl_t), "ctl size");
_Static_assert(MCA_COMMON_EVT_FLIGHT_CTL_TAIL == offsetof(ompi_evt_ring_ctl_t, p.tail), "tail");
_Static_assert(MCA_COMMON_EVT_FLIGHT_CTL_OLDEST == offsetof(ompi_evt_ring_ctl_t, p.oldest),
               "oldest");
_Static_assert(MCA_COMMON_EVT_FLIGHT_CTL_EVICTED == offsetof(ompi_evt_ring_ctl_t, p.evicted),
               "evicted");
_Static_assert(MCA_COMMON_EVT_FLIGHT_CTL_EVICT_MARK == offsetof(ompi_evt_ring_ctl_t, p.evict_mark),
               "evict_mark");
_Static_assert(MCA_COMMON_EVT_FLIGHT_CTL_HEAD == offsetof(ompi_evt_ring_ctl_t, c.head), "head");
_Static_assert(MCA_COMMON_EVT_FLIGHT_RING_HDR_SIZE == sizeof(ompi_evt_ring_hdr_t), "ring header");
_Static_assert(MCA_COMMON_EVT_FLIGHT_REC_SIZE == sizeof(ompi_evt_kit_rec_t), "kit record");
_Static_assert(MCA_COMMON_EVT_FLIGHT_KIND_RECORD == OMPI_EVT_KIT_KIND_RECORD, "record kind");
_Static_assert(MCA_COMMON_EVT_FLIGHT_KIND_SKIP == OMPI_EVT_RING_KIND_SKIP, "skip kind");
_Static_assert(MCA_COMMON_EVT_FLIGHT_MAX_PAYLOAD == MCA_BASE_EVENT_MAX_PAYLOAD, "payload cap");
_Static_assert(MCA_COMMON_EVT_FLIGHT_CTL_SIZE <= MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE, "ctl fits");
_Static_assert(sizeof(mca_common_evt_flight_header_t) <= MCA_COMMON_EVT_FLIGHT_HEADER_SIZE,
               "header fits");
_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2, "counters in the mapping need lock-free atomics");

/* Write every page of the file's first @p len bytes once, so that a raise
 * does not take the first-write fault there (MAP_POPULATE alone maps the
 * pages of a shared file read-only: it does not dirty them): the header,
 * the dictionary and the drop counters. The kit writes a ring's pages
 * when a thread first claims it, as it does its anonymous rings, so a ring
 * nobody claims costs no time at start. After the kernel writes dirty pages back to a disk file it
 * write-protects them again, and the next store to such a page faults
 * once; a file on tmpfs, e.g. evt_file_dir=/dev/shm, never does. The file
 * reads as zeros: storing zeros changes nothing. Context: INIT. */
static void file_populate(unsigned char *map, size_t len)
{
#ifdef MADV_POPULATE_WRITE
    /* in one call, without a fault per page (Linux 5.14) */
    if (0 != madvise(map, len, MADV_POPULATE_WRITE))
#endif
    {
        for (size_t off = 0; off < len; off += 4096) {
            ((volatile unsigned char *) map)[off] = 0;
        }
    }
}

static int file_module_init(void);
static int file_module_finalize(void);
static int file_progress(void);
static int file_flush(void);
static int file_storage_alloc(void *ctx, int index, size_t capacity, ompi_evt_ring_ctl_t **ctl,
                              void **data);
static void file_storage_release(void *ctx, int index, ompi_evt_ring_ctl_t *ctl, void *data,
                                 size_t capacity);
static void file_storage_atfork_child(void *ctx);
static int file_storage_claim(void *ctx, int index);

static const ompi_evt_base_storage_t file_storage = {
    .alloc = file_storage_alloc,
    .release = file_storage_release,
    .atfork_child = file_storage_atfork_child,
    .claim = file_storage_claim,
    .ctx = NULL,
};

/* evt_file_events: at the end of MPI_Init rank 0 says which patterns
 * match no event type registered by then. Context: INIT. */
static void file_notice(ompi_evt_base_notice_t notice)
{
    const mca_common_evt_flight_header_t *h = ompi_evt_file_state.hdr;

    if (OMPI_EVT_NOTICE_MPI_INIT_COMPLETE == notice && NULL != h && 0 == h->rank) {
        mca_common_evt_name_filter_check_registered(&mca_evt_file_component.filter, "evt:file",
                                                    "evt_file_events",
                                                    mca_evt_file_component.events);
    }
}

/* evtm_kit's sizes are filled by file_init() (evt_file_component.c). */
ompi_evt_base_module_t ompi_evt_file_module = {
    /* file_progress() only moves export drop counts into the file */
    .evtm_flags = MCA_BASE_EVENT_DELIVERY_DEFERRED | MCA_BASE_EVENT_DELIVERY_EXPORTS
                  | OMPI_EVT_MODULE_IDLE_PROGRESS_ON_DROPS,
    .evtm_kit = {.storage = &file_storage},
    .evtm_init = file_module_init,
    .evtm_finalize = file_module_finalize,
    .evtm_exports = ompi_evt_file_exports,
    .evtm_progress = file_progress,
    .evtm_flush = file_flush,
    .evtm_notice = file_notice,
};

ompi_evt_file_state_t ompi_evt_file_state;

/* Signals after which the file is synced when evt_file_sync is set. */
static const int file_fatal_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};

/* ------------------------------------------------------------------------
 * Layout
 * ------------------------------------------------------------------------ */

/* Context: INIT. */
const char *ompi_evt_file_layout(size_t size, int rings, size_t *ring_capacity, size_t *file_size)
{
    size_t fixed, per_ring, cap;

    if (1 > rings || 4096 < rings) {
        return "evt_file_rings must be in [1, 4096]";
    }
    fixed = MCA_COMMON_EVT_FLIGHT_HEADER_SIZE + OMPI_EVT_FILE_DICT_MIN
            + ompi_evt_file_round_up(OMPI_EVT_FILE_DROPS_COUNT * sizeof(uint64_t), 4096);
    if (size <= fixed) {
        return "evt_file_size is too small for the header and the dictionary";
    }
    per_ring = (size - fixed) / (size_t) rings;
    if (per_ring <= MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE) {
        return "evt_file_size is too small for evt_file_rings rings";
    }
    per_ring -= MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE;
    if (per_ring > OMPI_EVT_RING_MAX_CAPACITY) {
        per_ring = OMPI_EVT_RING_MAX_CAPACITY;
    }
    for (cap = 1; cap * 2 <= per_ring; cap *= 2) {
    }
    if (cap < OMPI_EVT_KIT_MIN_RING_SIZE) {
        return "evt_file_size leaves less than 4096 bytes per ring";
    }
    *ring_capacity = cap;
    *file_size = fixed + (size_t) rings * (MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE + cap);
    return NULL;
}

/* ------------------------------------------------------------------------
 * Creating the file
 * ------------------------------------------------------------------------ */

/* Room for why the file cannot be made (a path and a sentence). */
#define FILE_WHY_LEN (PATH_MAX + NAME_MAX + 512)

/* Is the folder open at @p dfd safe to create files in? A folder the user
 * chose, or the parent of the default one: ours, or sticky when others may
 * write to it (a shared /tmp). The default folder (@p strict), which any
 * user could have made first under that name: ours and writable by nobody
 * else, or whoever made it could delete or replace the recordings. On
 * refusal, @p why says why. Context: INIT. */
static bool file_dir_safe(int dfd, const char *dir, bool strict, char *why, size_t len)
{
    struct stat st;

    if (0 != fstat(dfd, &st) || !S_ISDIR(st.st_mode)) {
        (void) snprintf(why, len, "%s is not a folder", dir);
        return false;
    }
    if (strict && st.st_uid != geteuid()) {
        (void) snprintf(why, len,
                        "the folder %s belongs to uid %lu, not to this user (uid %lu): refused, "
                        "its owner could delete or replace the recordings (remove it, or choose "
                        "a folder with evt_file_dir)",
                        dir, (unsigned long) st.st_uid, (unsigned long) geteuid());
        return false;
    }
    if (strict && 0 != (st.st_mode & (S_IWGRP | S_IWOTH))) {
        (void) snprintf(why, len,
                        "the folder %s is writable by others (mode %04o): refused, they could "
                        "delete or replace the recordings (chmod 700 it, or choose a folder "
                        "with evt_file_dir)",
                        dir, (unsigned) (st.st_mode & 07777));
        return false;
    }
    if (st.st_uid != geteuid() && 0 == (st.st_mode & S_ISVTX)) {
        (void) snprintf(why, len, "the folder %s is not owned by this user and not sticky: refused",
                        dir);
        return false;
    }
    if (0 != (st.st_mode & (S_IWGRP | S_IWOTH)) && 0 == (st.st_mode & S_ISVTX)) {
        (void) snprintf(why, len, "the folder %s is writable by others and not sticky: refused",
                        dir);
        return false;
    }
    return true;
}

/* Why opening the folder @p name (in @p at) failed with @p err: a planted
 * symbolic link gets its own words. Context: INIT. */
static void file_open_dir_why(int at, const char *name, const char *dir, int err, char *why,
                              size_t len)
{
    struct stat st;

    if ((ELOOP == err || ENOTDIR == err) && 0 == fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW)
        && S_ISLNK(st.st_mode)) {
        (void) snprintf(why, len, "%s is a symbolic link: refused", dir);
    } else {
        (void) snprintf(why, len, "cannot open the folder %s: %s", dir, strerror(err));
    }
}

/* Open the folder of the files, creating the default one (mode 0700) when
 * missing. Never follows a symlink for the last component; the default
 * folder is opened relative to its parent's descriptor, and the files are
 * created relative to the descriptor returned (openat), so what was
 * checked is what is used. @return an O_DIRECTORY descriptor, or -1 and
 * @p why. Context: INIT. */
static int file_open_dir(char *dir, size_t len, char *why, size_t why_len)
{
    const char *param = mca_evt_file_component.dir;
    int dfd;

    if (NULL != param && '\0' != param[0]) {
        (void) snprintf(dir, len, "%s", param);
        dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (0 > dfd) {
            file_open_dir_why(AT_FDCWD, dir, dir, errno, why, why_len);
            return -1;
        }
        if (!file_dir_safe(dfd, dir, false, why, why_len)) {
            (void) close(dfd);
            return -1;
        }
    } else {
        const char *tmp = getenv("TMPDIR");
        const char *name;
        int parent;

        if (NULL == tmp || '\0' == tmp[0]) {
            tmp = "/tmp";
        }
        /* the parent (a shared /tmp) must itself be safe to create in */
        parent = open(tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (0 > parent) {
            (void) snprintf(why, why_len, "cannot open the folder %s: %s", tmp, strerror(errno));
            return -1;
        }
        if (!file_dir_safe(parent, tmp, false, why, why_len)) {
            (void) close(parent);
            return -1;
        }
        (void) snprintf(dir, len, "%s/ompi-evt.%lu", tmp, (unsigned long) geteuid());
        name = strrchr(dir, '/') + 1;
        if (0 != mkdirat(parent, name, 0700) && EEXIST != errno) {
            (void) snprintf(why, why_len, "cannot create the folder %s: %s", dir, strerror(errno));
            (void) close(parent);
            return -1;
        }
        dfd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (0 > dfd) {
            file_open_dir_why(parent, name, dir, errno, why, why_len);
            (void) close(parent);
            return -1;
        }
        (void) close(parent);
        if (!file_dir_safe(dfd, dir, true, why, why_len)) {
            (void) close(dfd);
            return -1;
        }
    }
    return dfd;
}

/* The job's name for file names: Open MPI's jobid, else the PMIx
 * namespace, else "singleton". Only characters safe in a file name. */
static void file_job_name(char *job, size_t len)
{
    const char *j = getenv("OMPI_MCA_ess_base_jobid");

    if (NULL == j || '\0' == j[0]) {
        j = getenv("PMIX_NAMESPACE");
    }
    if (NULL == j || '\0' == j[0]) {
        j = "singleton";
    }
    (void) snprintf(job, len, "%s", j);
    for (char *p = job; '\0' != *p; ++p) {
        if (!(('a' <= *p && *p <= 'z') || ('A' <= *p && *p <= 'Z') || ('0' <= *p && *p <= '9')
              || '-' == *p || '_' == *p || '.' == *p)) {
            *p = '_';
        }
    }
}

int ompi_evt_file_env_int(const char *name)
{
    const char *v = getenv(name);
    char *end;
    long l;

    if (NULL == v || '\0' == v[0]) {
        return -1;
    }
    l = strtol(v, &end, 10);
    return ('\0' != *end || l < 0 || l > INT_MAX) ? -1 : (int) l;
}

int64_t ompi_evt_file_realtime_ns(void)
{
    struct timespec ts;

    (void) clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Fill the fixed part of the header. Context: INIT. */
static void file_write_header(mca_common_evt_flight_header_t *h, size_t file_size, const char *job,
                              size_t capacity, int rings)
{
    size_t drops_bytes = ompi_evt_file_round_up(OMPI_EVT_FILE_DROPS_COUNT * sizeof(uint64_t), 4096);
    size_t rings_bytes = (size_t) rings * (MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE + capacity);

    memcpy(h->magic, MCA_COMMON_EVT_FLIGHT_MAGIC, sizeof(h->magic));
    h->version = MCA_COMMON_EVT_FLIGHT_VERSION;
    h->endian = MCA_COMMON_EVT_FLIGHT_ENDIAN;
    h->header_size = MCA_COMMON_EVT_FLIGHT_HEADER_SIZE;
    h->file_size = file_size;
    h->rank = ompi_evt_file_env_int("OMPI_COMM_WORLD_RANK");
    h->world_size = ompi_evt_file_env_int("OMPI_COMM_WORLD_SIZE");
    h->pid = (uint32_t) getpid();
    if (0 != gethostname(h->host, sizeof(h->host) - 1)) {
        (void) snprintf(h->host, sizeof(h->host), "unknown");
    }
    h->host[sizeof(h->host) - 1] = '\0';
    (void) snprintf(h->job, sizeof(h->job), "%s", job);
    h->created_ns = ompi_evt_file_realtime_ns();
    h->ring_count = (uint32_t) rings;
    h->ring_capacity = (uint32_t) capacity;
    h->dict_offset = MCA_COMMON_EVT_FLIGHT_HEADER_SIZE;
    /* the dictionary takes what the power-of-two rings leave (at least
     * OMPI_EVT_FILE_DICT_MIN, ompi_evt_file_layout()) */
    h->dict_size = file_size - MCA_COMMON_EVT_FLIGHT_HEADER_SIZE - drops_bytes - rings_bytes;
    h->drops_offset = h->dict_offset + h->dict_size;
    h->drops_count = OMPI_EVT_FILE_DROPS_COUNT;
    h->rings_offset = h->drops_offset + drops_bytes;
    h->ring_stride = MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE + capacity;
    h->ctl_size = MCA_COMMON_EVT_FLIGHT_CTL_SIZE;
    h->ring_hdr_size = MCA_COMMON_EVT_FLIGHT_RING_HDR_SIZE;
    h->rec_size = MCA_COMMON_EVT_FLIGHT_REC_SIZE;
    mca_common_evt_flight_header_seal(h);
    h->state = MCA_COMMON_EVT_FLIGHT_STATE_OPEN;
}

/* Async-signal handler (evt_file_sync): push the mapping to disk, then let
 * the signal do what it did before us (the previous handler, e.g. Open
 * MPI's backtrace, or the default action). msync is a plain system call.
 * A fault raised by the kernel (si_code > 0) happens again when we return,
 * now with the previous action and its true siginfo; a signal sent by a
 * process (kill, abort()) is sent again, and arrives with the previous
 * action when we return (it is blocked while we run). */
static void file_fatal_signal(int sig, siginfo_t *info, void *uctx)
{
    if (NULL != ompi_evt_file_state.base) {
        (void) msync(ompi_evt_file_state.base, ompi_evt_file_state.size, MS_SYNC);
    }
    (void) sigaction(sig, &ompi_evt_file_state.old_actions[sig], NULL);
    if (NULL == info || 0 >= info->si_code) {
        (void) raise(sig);
    }
}

static void file_signals_install(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = file_fatal_signal;
    sa.sa_flags = SA_SIGINFO;
    (void) sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof(file_fatal_signals) / sizeof(file_fatal_signals[0]); ++i) {
        int sig = file_fatal_signals[i];
        (void) sigaction(sig, &sa, &ompi_evt_file_state.old_actions[sig]);
    }
    ompi_evt_file_state.signals_installed = true;
}

static void file_signals_remove(void)
{
    if (!ompi_evt_file_state.signals_installed) {
        return;
    }
    for (size_t i = 0; i < sizeof(file_fatal_signals) / sizeof(file_fatal_signals[0]); ++i) {
        int sig = file_fatal_signals[i];
        (void) sigaction(sig, &ompi_evt_file_state.old_actions[sig], NULL);
    }
    ompi_evt_file_state.signals_installed = false;
}

/* Give the file built as @p part in @p dfd its name @p name, without ever
 * replacing a file of that name (errno EEXIST then); a file system without
 * hard links gets an exclusive rename instead. Context: INIT. */
static int file_publish(int dfd, const char *part, const char *name)
{
    if (0 == linkat(dfd, part, dfd, name, 0)) {
        (void) unlinkat(dfd, part, 0);
        return 0;
    }
    if (EPERM != errno && EOPNOTSUPP != errno && ENOSYS != errno) {
        return -1;
    }
    return renameat2(dfd, part, dfd, name, RENAME_NOREPLACE);
}

/* The encoder of the dictionary's entries; their batches name the
 * header's identity as their sender. Context: INIT. */
static int file_dict_encoder_init(const mca_common_evt_flight_header_t *h)
{
    mca_common_evt_wire_sender_t who;

    memset(&who, 0, sizeof(who));
    (void) snprintf(who.nspace, sizeof(who.nspace), "%s", '\0' == h->job[0] ? "unknown" : h->job);
    (void) snprintf(who.host, sizeof(who.host), "%s", '\0' == h->host[0] ? "unknown" : h->host);
    who.rank = (uint32_t) h->rank;
    who.pid = h->pid;
    if (OPAL_SUCCESS
        == mca_common_evt_wire_encoder_construct(&ompi_evt_file_state.dict_encoder, &who,
                                                 FILE_DICT_ENTRY_MAX)) {
        return OPAL_SUCCESS;
    }
    /* a host name the wire cannot carry: the entries do not need it */
    (void) snprintf(who.host, sizeof(who.host), "unknown");
    return mca_common_evt_wire_encoder_construct(&ompi_evt_file_state.dict_encoder, &who,
                                                 FILE_DICT_ENTRY_MAX);
}

/* Create, size and map the file; write the header. Every failure is
 * reported by the process itself with its cause (ompi_evt_base_report_error()):
 * it decides that nothing is recorded. Context: INIT. */
static int file_module_init(void)
{
    const int output = ompi_evt_base_framework.framework_output;
    ompi_evt_file_component_t *c = &mca_evt_file_component;
    size_t capacity = 0, file_size = 0, rings_offset, ring_stride;
    char dir[PATH_MAX], job[64], host[64], name[NAME_MAX + 1], part[NAME_MAX + 8] = "";
    char why[FILE_WHY_LEN];
    void *map = MAP_FAILED;
    int dfd = -1, fd = -1, rc = OPAL_ERROR;
    const char *reason = ompi_evt_file_layout(c->size, c->rings, &capacity, &file_size);

    if (NULL != ompi_evt_file_state.base) {
        return OPAL_ERR_BAD_PARAM;
    }
    if (NULL != reason) {
        ompi_evt_base_report_error(
            OMPI_EVT_REPORT_THIS_PROCESS,
            "evt:file: %s (evt_file_size %zu, evt_file_rings %d): nothing is recorded", reason,
            c->size, c->rings);
        return OPAL_ERR_BAD_PARAM;
    }
    memset(&ompi_evt_file_state, 0, sizeof(ompi_evt_file_state));
    ompi_evt_file_state.fd = -1;
    dfd = file_open_dir(dir, sizeof(dir), why, sizeof(why));
    if (0 > dfd) {
        ompi_evt_base_report_error(OMPI_EVT_REPORT_THIS_PROCESS,
                                   "evt:file: %s: this process records nothing", why);
        return OPAL_ERR_NOT_AVAILABLE;
    }
    file_job_name(job, sizeof(job));
    if (0 != gethostname(host, sizeof(host) - 1)) {
        (void) snprintf(host, sizeof(host), "unknown");
    }
    host[sizeof(host) - 1] = '\0';
    for (char *p = host; '\0' != *p; ++p) {
        *p = '/' == *p ? '_' : *p;
    }
    (void) snprintf(name, sizeof(name), "evt.%s.%d.%s.%lu" MCA_COMMON_EVT_FLIGHT_SUFFIX, job,
                    ompi_evt_file_env_int("OMPI_COMM_WORLD_RANK"), host, (unsigned long) getpid());
    (void) snprintf(ompi_evt_file_state.path, sizeof(ompi_evt_file_state.path), "%s/%s", dir, name);
    /* Built under a hidden name and published complete (file_publish()):
     * sizing and touching a large file takes a while, and a process killed
     * meanwhile must not leave a file without a header for readers. */
    (void) snprintf(part, sizeof(part), ".%s.part", name);
    {
        /* ftruncate() beyond RLIMIT_FSIZE is SIGXFSZ (default: the process
         * dies, leaving the .part file): refuse first, with the cause */
        struct rlimit rl;

        if (0 == getrlimit(RLIMIT_FSIZE, &rl) && RLIM_INFINITY != rl.rlim_cur
            && (rlim_t) file_size > rl.rlim_cur) {
            (void) snprintf(why, sizeof(why),
                            "cannot size %s to %zu bytes: the file size limit (ulimit -f) is "
                            "%llu bytes (lower evt_file_size)",
                            ompi_evt_file_state.path, file_size, (unsigned long long) rl.rlim_cur);
            part[0] = '\0';
            goto cleanup;
        }
    }
    fd = openat(dfd, part, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (0 > fd) {
        (void) snprintf(why, sizeof(why), "cannot create %s: %s", ompi_evt_file_state.path,
                        strerror(errno));
        goto cleanup;
    }
    if (0 != ftruncate(fd, (off_t) file_size)) {
        (void) snprintf(why, sizeof(why), "cannot size %s to %zu bytes: %s",
                        ompi_evt_file_state.path, file_size, strerror(errno));
        goto cleanup;
    }
    /* Reserve the blocks of what is written from now on: a store into a
     * mapped page without a block behind it would be a SIGBUS when the file
     * system fills. Now: what lies before the rings, every ring's control
     * block, and the first ring (the first raise, in MPI_Init, claims it);
     * the other rings' at their first claim (file_storage_claim()), so that
     * a ring nobody claims takes no room (on /dev/shm, memory) and no time
     * (33 MiB, four rings, on /dev/shm: 7.8 ms reserved whole). */
    ring_stride = MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE + capacity;
    rings_offset = file_size - (size_t) c->rings * ring_stride;
    rc = posix_fallocate(fd, 0, (off_t) (rings_offset + ring_stride));
    for (int i = 1; (0 == rc || EOPNOTSUPP == rc || EINVAL == rc) && i < c->rings; ++i) {
        rc = posix_fallocate(fd, (off_t) (rings_offset + (size_t) i * ring_stride),
                             MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE);
    }
    if (0 != rc && EOPNOTSUPP != rc && EINVAL != rc) {
        (void) snprintf(why, sizeof(why), "cannot reserve %zu bytes for %s (evt_file_size): %s",
                        rings_offset + ring_stride, ompi_evt_file_state.path, strerror(rc));
        rc = OPAL_ERROR;
        goto cleanup;
    }
    ompi_evt_file_state.ring_reserved = calloc((size_t) c->rings, sizeof(atomic_bool));
    if (NULL == ompi_evt_file_state.ring_reserved) {
        (void) snprintf(why, sizeof(why), "out of memory");
        rc = OPAL_ERR_OUT_OF_RESOURCE;
        goto cleanup;
    }
    atomic_store_explicit(&ompi_evt_file_state.ring_reserved[0], true, memory_order_relaxed);
    map = mmap(NULL, file_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (MAP_FAILED == map) {
        (void) snprintf(why, sizeof(why), "cannot map %s: %s", ompi_evt_file_state.path,
                        strerror(errno));
        rc = OPAL_ERROR;
        goto cleanup;
    }
    ompi_evt_file_state.base = map;
    ompi_evt_file_state.size = file_size;
    ompi_evt_file_state.hdr = map;
    file_write_header(ompi_evt_file_state.hdr, file_size, job, capacity, c->rings);
    file_populate(map, ompi_evt_file_state.hdr->rings_offset);
    if (OPAL_SUCCESS != file_dict_encoder_init(ompi_evt_file_state.hdr)) {
        (void) snprintf(why, sizeof(why), "no memory for the dictionary's encoder");
        rc = OPAL_ERR_OUT_OF_RESOURCE;
        goto cleanup;
    }
    if (0 != file_publish(dfd, part, name)) {
        (void) snprintf(why, sizeof(why), "cannot create %s: %s", ompi_evt_file_state.path,
                        strerror(errno));
        rc = OPAL_ERROR;
        goto cleanup;
    }
    part[0] = '\0';
    if (c->sync) {
        file_signals_install();
    }
    ompi_evt_file_consumer_wait_start();
    opal_output_verbose(10, output,
                        "evt:file: recording into %s (%zu bytes: %d rings of %zu bytes, "
                        "dictionary %lu bytes)",
                        ompi_evt_file_state.path, file_size, c->rings, capacity,
                        (unsigned long) ompi_evt_file_state.hdr->dict_size);
    rc = OMPI_SUCCESS;

cleanup:
    if (OMPI_SUCCESS != rc && 0 <= fd && '\0' != part[0]) {
        (void) unlinkat(dfd, part, 0);
    }
    if (OMPI_SUCCESS != rc && MAP_FAILED != map) {
        (void) munmap(map, file_size);
    }
    if (OMPI_SUCCESS == rc) {
        ompi_evt_file_state.fd = fd; /* the rings' reservations */
    } else if (0 <= fd) {
        (void) close(fd);
    }
    (void) close(dfd);
    if (OMPI_SUCCESS != rc) {
        free(ompi_evt_file_state.ring_reserved);
        ompi_evt_file_state.ring_reserved = NULL;
        mca_common_evt_wire_encoder_destruct(&ompi_evt_file_state.dict_encoder);
        ompi_evt_base_report_error(OMPI_EVT_REPORT_THIS_PROCESS,
                                   "evt:file: %s: this process records nothing", why);
        ompi_evt_file_state.base = NULL;
        ompi_evt_file_state.hdr = NULL;
        ompi_evt_file_state.path[0] = '\0';
    }
    return rc;
}

/* ------------------------------------------------------------------------
 * Ring storage (the kit's pool open and release)
 * ------------------------------------------------------------------------ */

/* Context: INIT (kit open). */
static int file_storage_alloc(void *ctx, int index, size_t capacity, ompi_evt_ring_ctl_t **ctl,
                              void **data)
{
    mca_common_evt_flight_header_t *h = ompi_evt_file_state.hdr;
    unsigned char *slot;

    if (NULL == h || 0 > index || (uint32_t) index >= h->ring_count
        || capacity != h->ring_capacity) {
        return OPAL_ERR_BAD_PARAM;
    }
    slot = ompi_evt_file_state.base + h->rings_offset + (size_t) index * h->ring_stride;
    *ctl = (ompi_evt_ring_ctl_t *) slot;
    *data = slot + MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE;
    ++ompi_evt_file_state.rings_held;
    return OMPI_SUCCESS;
}

/* Reserve the blocks of ring @p index before the kit first writes it. A
 * file system that cannot reserve (EOPNOTSUPP) is written without, as at
 * init. errno is kept: this may run in a signal handler. Context: RAISE,
 * SIGNAL (one system call, no lock). */
static int file_storage_claim(void *ctx, int index)
{
    const mca_common_evt_flight_header_t *h = ompi_evt_file_state.hdr;
    int saved = errno, rc = OMPI_SUCCESS, err = 0;

    (void) ctx;
    if (NULL == h || NULL == ompi_evt_file_state.ring_reserved || 0 > index
        || (uint32_t) index >= h->ring_count) {
        return OPAL_ERR_BAD_PARAM;
    }
    if (atomic_load_explicit(&ompi_evt_file_state.ring_reserved[index], memory_order_relaxed)) {
        return OMPI_SUCCESS;
    }
    if (0 <= ompi_evt_file_state.fd) {
        off_t off = (off_t) (h->rings_offset + (size_t) index * h->ring_stride
                             + MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE);
        while (0 != fallocate(ompi_evt_file_state.fd, 0, off, (off_t) h->ring_capacity)) {
            if (EINTR != errno) {
                err = errno;
                break;
            }
        }
    }
    if (0 != err && EOPNOTSUPP != err) {
        int none = 0;
        /* the first refusal is the one said at finalize */
        if (atomic_compare_exchange_strong_explicit(&ompi_evt_file_state.reserve_failed_ring, &none,
                                                    index + 1, memory_order_relaxed,
                                                    memory_order_relaxed)) {
            atomic_store_explicit(&ompi_evt_file_state.reserve_failed_errno, err,
                                  memory_order_relaxed);
        }
        rc = OPAL_ERR_OUT_OF_RESOURCE;
    } else {
        atomic_store_explicit(&ompi_evt_file_state.ring_reserved[index], true,
                              memory_order_relaxed);
    }
    errno = saved;
    return rc;
}

static void file_unmap(void)
{
    if (NULL != ompi_evt_file_state.base) {
        (void) munmap(ompi_evt_file_state.base, ompi_evt_file_state.size);
        ompi_evt_file_state.base = NULL;
        ompi_evt_file_state.hdr = NULL;
    }
    if (0 <= ompi_evt_file_state.fd) {
        (void) close(ompi_evt_file_state.fd);
        ompi_evt_file_state.fd = -1;
    }
    free(ompi_evt_file_state.ring_reserved);
    ompi_evt_file_state.ring_reserved = NULL;
}

/* Context: INIT, or the end of the drain that held the token at close. */
static void file_storage_release(void *ctx, int index, ompi_evt_ring_ctl_t *ctl, void *data,
                                 size_t capacity)
{
    if (0 == --ompi_evt_file_state.rings_held && ompi_evt_file_state.finalized) {
        file_unmap();
    }
}

/* Copy between the file's layout at @p from and at @p to what holds
 * anything: what lies before the rings, every ring's control block, and the
 * data of the rings whose blocks are reserved (the others were never
 * written; reading them would fill the file's holes, and on a full
 * /dev/shm that is a SIGBUS). Context: the atfork child handler. */
static void file_copy_written(unsigned char *to, const unsigned char *from)
{
    const mca_common_evt_flight_header_t *h = (const mca_common_evt_flight_header_t *) from;
    size_t rings_offset = h->rings_offset, stride = h->ring_stride;
    uint32_t count = h->ring_count;

    memcpy(to, from, rings_offset);
    for (uint32_t i = 0; i < count; ++i) {
        size_t off = rings_offset + (size_t) i * stride;
        bool data = NULL != ompi_evt_file_state.ring_reserved
                    && atomic_load_explicit(&ompi_evt_file_state.ring_reserved[i],
                                            memory_order_relaxed);
        memcpy(to + off, from + off, data ? stride : MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE);
    }
}

/* In the child of a fork: the mapping is the parent's file. Replace it, at
 * the same address, by a private anonymous copy, so that the kit's reset
 * of the child's rings and whatever the child raises stay the child's (a
 * child is not recorded); the rings it claims need no blocks. Context: the
 * atfork child handler (mmap, memcpy, munmap and close only). */
static void file_storage_atfork_child(void *ctx)
{
    void *copy, *again;

    ompi_evt_file_consumer_wait_forget();
    if (0 <= ompi_evt_file_state.fd) {
        (void) close(ompi_evt_file_state.fd);
        ompi_evt_file_state.fd = -1;
    }
    if (NULL == ompi_evt_file_state.base) {
        return;
    }
    copy = mmap(NULL, ompi_evt_file_state.size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                -1, 0);
    if (MAP_FAILED == copy) {
        /* cannot copy: leave the parent's file rather than write into it */
        again = mmap(ompi_evt_file_state.base, ompi_evt_file_state.size, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        (void) again;
        return;
    }
    file_copy_written(copy, ompi_evt_file_state.base);
    again = mmap(ompi_evt_file_state.base, ompi_evt_file_state.size, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (MAP_FAILED != again) {
        file_copy_written(ompi_evt_file_state.base, copy);
    }
    (void) munmap(copy, ompi_evt_file_state.size);
}

/* ------------------------------------------------------------------------
 * Drop counters, drains, finalize
 * ------------------------------------------------------------------------ */

/* Move the engine's export drop counts into the file. Context: DRAIN, INIT. */
static void file_take_drops(void)
{
    mca_common_evt_flight_header_t *h = ompi_evt_file_state.hdr;
    uint64_t *drops;
    int n;

    if (NULL == h) {
        return;
    }
    drops = (uint64_t *) (ompi_evt_file_state.base + h->drops_offset);
    n = mca_base_event_get_count();
    for (int i = 0; i < n; ++i) {
        mca_base_event_t *ev = mca_base_event_lookup((uint32_t) i);
        uint64_t d = NULL == ev ? 0 : mca_base_event_take_export_dropped(ev);

        if (0 == d) {
            continue;
        }
        /* relaxed: counters for a reader after the fact */
        __atomic_fetch_add((uint32_t) i < h->drops_count ? &drops[i] : &h->drops_other, d,
                           __ATOMIC_RELAXED);
    }
}

/* The kit runs this after drains that find records and, on drains that
 * find none, only once an export drop was counted
 * (OMPI_EVT_MODULE_IDLE_PROGRESS_ON_DROPS):
 * the counts reach the file at the next progress call, so a process killed
 * later leaves them said. Context: DRAIN. */
static int file_progress(void)
{
    /* relaxed: statistics (the tests read it) */
    atomic_fetch_add_explicit(&ompi_evt_file_state.progress_calls, 1, memory_order_relaxed);
    if (mca_base_event_claim_export_drops()) {
        file_take_drops();
    }
    return 0;
}

/* Context: DRAIN. */
static int file_flush(void)
{
    file_take_drops();
    return 0;
}

/* Context: INIT (after the kit detached the module; for a module that lost
 * selection, with no file). */
static int file_module_finalize(void)
{
    mca_common_evt_flight_header_t *h = ompi_evt_file_state.hdr;

    if (NULL == h || ompi_evt_file_state.finalized) {
        return OMPI_SUCCESS;
    }
    ompi_evt_file_consumer_wait_stop();
    file_take_drops();
    h->closed_ns = ompi_evt_file_realtime_ns();
    /* release: what was recorded before is in the file when a reader sees
     * CLOSED */
    __atomic_store_n(&h->state, MCA_COMMON_EVT_FLIGHT_STATE_CLOSED, __ATOMIC_RELEASE);
    file_signals_remove();
    if (mca_evt_file_component.sync) {
        int rc = msync(ompi_evt_file_state.base, ompi_evt_file_state.size, MS_SYNC);
        opal_output_verbose(10, ompi_evt_base_framework.framework_output,
                            "evt:file: msync of %s: %s", ompi_evt_file_state.path,
                            0 == rc ? "done" : strerror(errno));
    }
    if (0 < atomic_load(&ompi_evt_file_state.reserve_failed_ring)) {
        ompi_evt_base_report_error(
            OMPI_EVT_REPORT_THIS_PROCESS,
            "evt:file: the blocks of ring %d of %s could not be reserved (%s): a thread that "
            "found no other ring dropped its events (counted)",
            atomic_load(&ompi_evt_file_state.reserve_failed_ring) - 1, ompi_evt_file_state.path,
            strerror(atomic_load(&ompi_evt_file_state.reserve_failed_errno)));
    }
    ompi_evt_file_state.finalized = true;
    /* no entry after finalize (ompi_evt_file_exports() checks finalized) */
    mca_common_evt_wire_encoder_destruct(&ompi_evt_file_state.dict_encoder);
    if (0 == ompi_evt_file_state.rings_held) {
        /* the kit never opened (or already released): nothing reads it */
        file_unmap();
    }
    return OMPI_SUCCESS;
}

/* ------------------------------------------------------------------------
 * Test seams
 * ------------------------------------------------------------------------ */

const char *ompi_evt_file_test_path(void)
{
    return '\0' == ompi_evt_file_state.path[0] ? NULL : ompi_evt_file_state.path;
}

int ompi_evt_file_test_torn_raise(int index, const mca_base_event_t *event, const void *payload,
                                  size_t bytes)
{
    ompi_evt_kit_ring_t *ring;
    ompi_evt_kit_rec_t *rec;
    size_t len;

    if (NULL == ompi_evt_file_state.hdr || NULL == event || index < 0
        || index >= ompi_evt_base_kit_ring_count() || bytes > event->extent) {
        return OPAL_ERR_BAD_PARAM;
    }
    ring = ompi_evt_base_kit_ring(index);
    len = sizeof(*rec) + event->extent;
    if (NULL == ring || !ompi_evt_ring_spsc_enter(&ring->buf)) {
        return OPAL_ERR_BAD_PARAM;
    }
    rec = ompi_evt_ring_spsc_reserve(&ring->buf, len, OMPI_EVT_KIT_KIND_RECORD);
    if (NULL == rec && ompi_evt_ring_spsc_evict(&ring->buf, len, NULL, NULL)) {
        rec = ompi_evt_ring_spsc_reserve(&ring->buf, len, OMPI_EVT_KIT_KIND_RECORD);
    }
    if (NULL == rec) {
        ompi_evt_ring_spsc_exit(&ring->buf);
        return OPAL_ERR_BAD_PARAM;
    }
    rec->event = (uint32_t) event->index;
    rec->depth = 0;
    rec->flags = 0;
    rec->obj = 0;
    rec->timestamp = event->source->get_timestamp(event->source->ctx);
    rec->epoch = 0;
    memcpy(rec + 1, payload, bytes);
    /* no commit: the writer "dies" here */
    ompi_evt_ring_spsc_exit(&ring->buf);
    return OMPI_SUCCESS;
}
