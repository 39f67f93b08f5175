/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file Grace periods: how writers know no reader still uses an old
 * registration snapshot, a freed registration, or a removed delivery.
 *
 * Readers (dispatch, count_dropped, the drop report) announce themselves on
 * their outermost entry by storing the current grace epoch into their
 * per-thread record before loading any snapshot, and clear it on exit
 * (release). A writer replaces a snapshot (seq_cst store), then bumps the
 * grace epoch (seq_cst fetch_add) and stamps the retired object with the
 * epoch value G it replaced. The object may be reclaimed once no record
 * shows an epoch in [1, G].
 *
 * Why that is enough: the announcement is a plain store followed by a
 * compiler barrier, and the writer runs membarrier(PRIVATE_EXPEDITED)
 * between the publish and its scan (the asymmetric fence of userspace RCU).
 * The kernel makes every running thread of the process execute a full
 * barrier: a reader whose announcement came before that barrier is seen by
 * the scan; one whose announcement came after it loads the new snapshot.
 * So the raise path pays two plain stores instead of a locked exchange
 * (~5 ns here), and writers, which are rare (handle alloc/free, callback
 * changes), pay a system call, once per batch of retirements. Where the
 * kernel lacks membarrier the announcement is a seq_cst exchange.
 *
 * Threads without a record (more threads than records, the first raise in a
 * signal handler) read as anonymous readers: a global counter that blocks
 * every reclamation while it is non-zero. They only charge drops.
 *
 * Per-thread records come from a static pool (a first raise inside a signal
 * handler needs no malloc), are claimed by CAS, released by a pthread key
 * destructor at thread exit and reused; they are never freed.
 */

#include "opal_config.h"

#include <fcntl.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "opal/mca/base/mca_base_event_internal.h"

__thread mca_base_event_tls_t mca_base_event_tls __attribute__((tls_model("initial-exec")));

_Atomic uint64_t mca_base_event_grace_epoch = 1;
atomic_bool mca_base_event_retire_pending = false;
bool mca_base_event_asym_fence = false;

static mca_base_event_thread_t static_records[MCA_BASE_EVENT_STATIC_THREAD_RECORDS];
/** Highest static record index claimed + 1 (scans stop there). */
static atomic_int static_hwm = 0;
/** malloc'ed records (push-only list). */
static _Atomic(mca_base_event_thread_t *) extra_records = NULL;
/** malloc'ed records not in use (approximate: a hint for topping up). */
static atomic_int spare_extra = 0;
/** Anonymous read-side sections in progress, and ever entered (seam). */
static _Atomic uint64_t anon_readers = 0;
static _Atomic uint64_t anon_sections = 0;

static pthread_key_t thread_key;
static pthread_once_t thread_key_once = PTHREAD_ONCE_INIT;
static bool thread_key_ok = false;

/* Retire lists: under the mutex. */
static mca_base_event_regset_t *retired_regsets = NULL;
static mca_base_event_reg_t *retired_regs = NULL;
/* The grace epoch value when the last asymmetric fence started. An object
 * retired with a stamp below it was published before that fence and needs
 * no new one; a stamp equal to it was given by the next retirement, whose
 * publish may come after the fence. Under the mutex. */
static uint64_t fenced_epoch = 0;
/* Asymmetric fences run by reclamations (seam). */
static _Atomic uint64_t fences_run = 0;

/* ------------------------------------------------------------------------
 * The asymmetric fence
 * ------------------------------------------------------------------------ */

/* Register the process for MEMBARRIER_CMD_PRIVATE_EXPEDITED. Context: INIT
 * (pthread_once at the first claim), and the atfork child (a new mm). */
static void asym_fence_setup(void)
{
    long cmds = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0);

    mca_base_event_asym_fence
        = 0 < cmds && 0 != (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED)
          && 0 == syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0);
}

/* Whether the process has one thread, by /proc/self/stat (num_threads,
 * the 18th field after the command's closing parenthesis); false when it
 * cannot tell. Context: library constructor. */
static bool process_has_one_thread(void)
{
    char buf[512];
    const char *p;
    ssize_t n;
    int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);

    if (fd < 0) {
        return false;
    }
    n = read(fd, buf, sizeof(buf) - 1);
    (void) close(fd);
    if (n <= 0) {
        return false;
    }
    buf[n] = '\0';
    p = strrchr(buf, ')');
    for (int field = 0; NULL != p && field < 18; ++field) {
        p = strchr(p + 1, ' ');
    }
    return NULL != p && 0 == strncmp(p, " 1 ", 3);
}

/* The kernel's registration for the expedited membarrier waits for an RCU
 * grace period once the process has a second thread: 10-13 ms here, paid
 * in MPI_Init after PMIx has started its threads. With one thread it costs
 * microseconds, so a process that loads this library before it starts
 * threads (linked, or LD_PRELOAD as ompi-evt-record runs it) registers
 * now; the first claim's registration then finds it done. Context: library
 * constructor. */
__attribute__((constructor)) static void asym_fence_early(void)
{
    if (process_has_one_thread()) {
        asym_fence_setup();
    }
}

/* Every thread's announcement made before this call is visible after it,
 * and every load a thread makes after its next barrier sees what this
 * thread stored before. Context: ANY (never SIGNAL). */
static void asym_fence(void)
{
    if (mca_base_event_asym_fence
        && 0 == syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0)) {
        return;
    }
    /* readers use seq_cst exchanges then (or the call failed, which the
     * registration rules out): a full fence orders our side */
    atomic_thread_fence(memory_order_seq_cst);
}

/* Context: ANY (never SIGNAL). */
void mca_base_event_asym_fence_now(void)
{
    asym_fence();
}

/* ------------------------------------------------------------------------
 * Per-thread records
 * ------------------------------------------------------------------------ */

static bool is_static(const mca_base_event_thread_t *rec)
{
    return rec >= &static_records[0]
           && rec < &static_records[MCA_BASE_EVENT_STATIC_THREAD_RECORDS];
}

/* Context: thread exit. Makes the record reusable. */
static void thread_release(void *p)
{
    mca_base_event_thread_t *rec = p;
    mca_base_event_tls.rec = NULL;
    atomic_store_explicit(&rec->active, 0, memory_order_relaxed);
    /* release: the owner's last accesses happen before a new owner claims it
     * (pairs with the acquire CAS in mca_base_event_thread_claim()). */
    atomic_store_explicit(&rec->in_use, false, memory_order_release);
    if (!is_static(rec)) {
        /* relaxed: a hint for topping up the spares */
        atomic_fetch_add_explicit(&spare_extra, 1, memory_order_relaxed);
    }
}

/* Allocate a record and push it on the extra list, in use or spare.
 * Not from SIGNAL context. */
static mca_base_event_thread_t *record_new(bool in_use)
{
    mca_base_event_thread_t *rec = NULL;

    if (0 != posix_memalign((void **) &rec, MCA_BASE_EVENT_CACHE_LINE, sizeof(*rec))) {
        return NULL;
    }
    atomic_init(&rec->active, 0);
    atomic_init(&rec->dseq, 0);
    atomic_init(&rec->clamping, 0);
    atomic_init(&rec->in_use, in_use);
    if (!in_use) {
        atomic_fetch_add_explicit(&spare_extra, 1, memory_order_relaxed);
    }
    rec->next = atomic_load_explicit(&extra_records, memory_order_relaxed);
    /* seq_cst: publishes the initialised record to scans (pairs with the
     * acquire load of extra_records in every scan). */
    while (!atomic_compare_exchange_weak_explicit(&extra_records, &rec->next, rec,
                                                  memory_order_seq_cst, memory_order_relaxed)) {
    }
    return rec;
}

static void thread_key_create(void)
{
    thread_key_ok = (0 == pthread_key_create(&thread_key, thread_release));
    asym_fence_setup();
}

/* Context: RAISE; SIGNAL when !may_alloc (static pool and spares only). */
mca_base_event_thread_t *mca_base_event_thread_claim(bool may_alloc)
{
    mca_base_event_thread_t *rec = NULL;

    /* pthread_once is not async-signal-safe in general: the engine's init
     * ran it already (mca_base_event_grace_init()), so this is a load. */
    (void) pthread_once(&thread_key_once, thread_key_create);
    for (int i = 0; i < MCA_BASE_EVENT_STATIC_THREAD_RECORDS; ++i) {
        bool expect = false;
        /* acquire: pairs with the release in thread_release() */
        if (!atomic_load_explicit(&static_records[i].in_use, memory_order_relaxed)
            && atomic_compare_exchange_strong_explicit(&static_records[i].in_use, &expect, true,
                                                       memory_order_acquire,
                                                       memory_order_relaxed)) {
            int hwm = atomic_load_explicit(&static_hwm, memory_order_relaxed);
            /* seq_cst: a writer's scan that starts after our first
             * announcement includes this record (pairs with the load in
             * the scans). */
            while (hwm < i + 1
                   && !atomic_compare_exchange_weak_explicit(&static_hwm, &hwm, i + 1,
                                                             memory_order_seq_cst,
                                                             memory_order_relaxed)) {
            }
            rec = &static_records[i];
            break;
        }
    }
    if (NULL == rec) {
        for (rec = atomic_load_explicit(&extra_records, memory_order_acquire); NULL != rec;
             rec = rec->next) {
            bool expect = false;
            if (atomic_compare_exchange_strong_explicit(&rec->in_use, &expect, true,
                                                        memory_order_acquire,
                                                        memory_order_relaxed)) {
                atomic_fetch_sub_explicit(&spare_extra, 1, memory_order_relaxed);
                break;
            }
        }
    }
    if (NULL == rec && may_alloc) {
        rec = record_new(true);
    }
    if (NULL == rec) {
        return NULL; /* SIGNAL context and no free record: anonymous reader */
    }
    if (may_alloc && !is_static(rec)) {
        /* Beyond the static pool, at a safe point: keep spares for threads
         * whose first raise comes from a signal handler. */
        while (MCA_BASE_EVENT_SPARE_THREAD_RECORDS
               > atomic_load_explicit(&spare_extra, memory_order_relaxed)) {
            if (NULL == record_new(false)) {
                break;
            }
        }
    }
    if (thread_key_ok) {
        (void) pthread_setspecific(thread_key, rec);
    }
    mca_base_event_tls.rec = rec;
    return rec;
}

/* Context: INIT. */
void mca_base_event_grace_init(void)
{
    (void) pthread_once(&thread_key_once, thread_key_create);
}

/* Context: RAISE, SIGNAL. */
void mca_base_event_anon_enter(void)
{
    /* seq_cst: ordered before this thread's snapshot loads, and in the
     * single total order with the writers' publish + scan (the scan's
     * seq_cst load of the counter either sees us, or we see the publish). */
    (void) atomic_fetch_add_explicit(&anon_readers, 1, memory_order_seq_cst);
    (void) atomic_fetch_add_explicit(&anon_sections, 1, memory_order_relaxed);
}

/* Context: RAISE, SIGNAL. */
void mca_base_event_anon_exit(void)
{
    /* release: our snapshot reads happen before a scan that sees 0 */
    (void) atomic_fetch_sub_explicit(&anon_readers, 1, memory_order_release);
}

/* Test-only. */
int mca_base_event_test_thread_records(int *spare)
{
    int n = 0;
    for (mca_base_event_thread_t *rec = atomic_load_explicit(&extra_records,
                                                             memory_order_acquire);
         NULL != rec; rec = rec->next) {
        ++n;
    }
    if (NULL != spare) {
        *spare = atomic_load_explicit(&spare_extra, memory_order_relaxed);
    }
    return n;
}

/* Test-only. */
uint64_t mca_base_event_test_anon_sections(void)
{
    return atomic_load_explicit(&anon_sections, memory_order_relaxed);
}

/* Apply @p body to every record that may be owned. */
#define FOREACH_RECORD(rec, body)                                                      \
    do {                                                                               \
        int hwm_ = atomic_load_explicit(&static_hwm, memory_order_seq_cst);            \
        for (int i_ = 0; i_ < hwm_; ++i_) {                                            \
            mca_base_event_thread_t *rec = &static_records[i_];                        \
            body                                                                       \
        }                                                                              \
        for (mca_base_event_thread_t *rec = atomic_load_explicit(&extra_records,       \
                                                                 memory_order_acquire); \
             NULL != rec; rec = rec->next) {                                           \
            body                                                                       \
        }                                                                              \
    } while (0)

/* Is any reader active at an epoch <= @p epoch? The caller has fenced (see
 * the file comment). Context: ANY. */
static bool grace_blocked(uint64_t epoch)
{
    bool blocked = false;

    /* seq_cst: pairs with the seq_cst increment in anon_enter() */
    if (0 != atomic_load_explicit(&anon_readers, memory_order_seq_cst)) {
        return true;
    }
    FOREACH_RECORD(rec, {
        /* acquire: pairs with the release clear in reader_exit(); the
         * reader's accesses are done before we reclaim. */
        uint64_t a = atomic_load_explicit(&rec->active, memory_order_acquire);
        if (0 != a && a <= epoch) {
            blocked = true;
        }
    });
    return blocked;
}

/* Context: INIT. */
void mca_base_event_delivery_wait(void)
{
    asym_fence();
    FOREACH_RECORD(rec, {
        /* acquire: pairs with the release store in delivery_exit() */
        uint32_t g = atomic_load_explicit(&rec->dseq, memory_order_acquire);
        while (0 != (g & 1) && g == atomic_load_explicit(&rec->dseq, memory_order_acquire)) {
            sched_yield();
        }
    });
}

/* Caller holds the mutex. The epoch bump happens after the caller's
 * seq_cst publish of the replacement. */
static uint64_t retire_stamp(void)
{
    /* seq_cst: ordered after the publish of the replacement; pairs with the
     * acquire epoch load of reader_enter(). */
    uint64_t g = atomic_fetch_add_explicit(&mca_base_event_grace_epoch, 1, memory_order_seq_cst);
    atomic_store_explicit(&mca_base_event_retire_pending, true, memory_order_relaxed);
    return g;
}

void mca_base_event_retire_regset(mca_base_event_regset_t *rs)
{
    if (NULL == rs) {
        return;
    }
    rs->retire_epoch = retire_stamp();
    rs->retire_next = retired_regsets;
    retired_regsets = rs;
}

void mca_base_event_retire_reg(mca_base_event_reg_t *reg)
{
    reg->retire_epoch = retire_stamp();
    reg->retire_next = retired_regs;
    retired_regs = reg;
}

static void reg_destroy(mca_base_event_reg_t *reg)
{
    for (int s = 0; s < MCA_BASE_EVENT_CB_SAFETY_COUNT; ++s) {
        if (NULL != reg->cb_info[s]) {
            OBJ_RELEASE(reg->cb_info[s]);
        }
    }
    if (NULL != reg->info) {
        OBJ_RELEASE(reg->info);
    }
    free(reg);
}

/* Caller holds the mutex: fence once for everything retired so far. */
static void fence_retired(void)
{
    uint64_t newest = 0;

    for (mca_base_event_regset_t *rs = retired_regsets; NULL != rs; rs = rs->retire_next) {
        newest = rs->retire_epoch > newest ? rs->retire_epoch : newest;
    }
    for (mca_base_event_reg_t *r = retired_regs; NULL != r; r = r->retire_next) {
        newest = r->retire_epoch > newest ? r->retire_epoch : newest;
    }
    if (0 != newest && newest >= fenced_epoch) {
        fenced_epoch = atomic_load_explicit(&mca_base_event_grace_epoch, memory_order_relaxed);
        asym_fence();
        atomic_fetch_add_explicit(&fences_run, 1, memory_order_relaxed);
    }
}

/* Context: ANY (block) or RAISE exit (trylock). Free callbacks run outside
 * the mutex, in @p context. */
void mca_base_event_reclaim(bool block, mca_base_event_cb_safety_t context)
{
    mca_base_event_regset_t *rs_done = NULL, **rsp;
    mca_base_event_reg_t *reg_done = NULL, **rp;

    if (block) {
        opal_mutex_lock(&mca_base_event_lock);
    } else if (0 != opal_mutex_trylock(&mca_base_event_lock)) {
        return; /* a writer holds it and will reclaim itself */
    }
    fence_retired();
    for (rsp = &retired_regsets; NULL != *rsp;) {
        mca_base_event_regset_t *rs = *rsp;
        if (!grace_blocked(rs->retire_epoch)) {
            *rsp = rs->retire_next;
            rs->retire_next = rs_done;
            rs_done = rs;
        } else {
            rsp = &rs->retire_next;
        }
    }
    for (rp = &retired_regs; NULL != *rp;) {
        mca_base_event_reg_t *reg = *rp;
        if (!grace_blocked(reg->retire_epoch)) {
            *rp = reg->retire_next;
            reg->retire_next = reg_done;
            reg_done = reg;
        } else {
            rp = &reg->retire_next;
        }
    }
    atomic_store_explicit(&mca_base_event_retire_pending,
                          NULL != retired_regsets || NULL != retired_regs, memory_order_relaxed);
    opal_mutex_unlock(&mca_base_event_lock);

    while (NULL != rs_done) {
        mca_base_event_regset_t *next = rs_done->retire_next;
        free(rs_done);
        rs_done = next;
    }
    while (NULL != reg_done) {
        mca_base_event_reg_t *next = reg_done->retire_next;
        if (NULL != reg_done->final_dropped_cb) {
            /* acq_rel: as every exchange that takes a count (drops.c) */
            uint64_t n = atomic_exchange_explicit(&reg_done->dropped, 0, memory_order_acq_rel);
            if (0 != n) {
                reg_done->final_dropped_cb((opal_count_t) ((uint64_t) OPAL_COUNT_MAX < n
                                                               ? (uint64_t) OPAL_COUNT_MAX
                                                               : n),
                                           reg_done->handle,
                                           reg_done->event->super.source->index, context,
                                           reg_done->final_dropped_user_data);
            }
        }
        if (reg_done->free_cb_pending && NULL != reg_done->free_cb) {
            /* no callback of it can run: every thread that could run one
             * has left dispatch, and none starts (it is in no snapshot) */
            reg_done->free_cb(reg_done->handle, context, reg_done->free_user_data);
        }
        reg_destroy(reg_done);
        reg_done = next;
    }
}

/* Context: RAISE exit, outside the mutex. */
void mca_base_event_reader_exit_slow(mca_base_event_cb_safety_t context)
{
    if (MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE <= context) {
        return; /* no lock, no free in SIGNAL context; a later exit reclaims */
    }
    mca_base_event_reclaim(false, context);
}

/* Context: INIT. */
void mca_base_event_grace_finalize(void)
{
    mca_base_event_reclaim(true, MCA_BASE_EVENT_CB_REQUIRE_NONE);
}

/* Context: the atfork child handler. */
void mca_base_event_grace_atfork_child(void)
{
    mca_base_event_thread_t *mine = mca_base_event_tls.rec;

    FOREACH_RECORD(rec, {
        if (rec != mine && atomic_load_explicit(&rec->in_use, memory_order_relaxed)) {
            /* its thread is not in this process: nothing of it reads */
            atomic_store_explicit(&rec->active, 0, memory_order_relaxed);
            atomic_store_explicit(&rec->dseq, 0, memory_order_relaxed);
            atomic_store_explicit(&rec->in_use, false, memory_order_relaxed);
            if (!is_static(rec)) {
                atomic_fetch_add_explicit(&spare_extra, 1, memory_order_relaxed);
            }
        }
    });
    atomic_store_explicit(&anon_readers, 0, memory_order_relaxed);
    /* the ORDERED clamp starts over (the owner may be a thread that is not
     * in this process, its marker frozen) */
    atomic_store_explicit(&mca_base_event_clamp_owner, NULL, memory_order_relaxed);
    if (mca_base_event_asym_fence) {
        asym_fence_setup();
    }
}

/* Test-only. */
uint64_t mca_base_event_test_reclaim_fences(void)
{
    return atomic_load_explicit(&fences_run, memory_order_relaxed);
}

/* Test-only. */
int mca_base_event_test_retired_count(void)
{
    int n = 0;
    opal_mutex_lock(&mca_base_event_lock);
    for (mca_base_event_regset_t *rs = retired_regsets; NULL != rs; rs = rs->retire_next) {
        ++n;
    }
    for (mca_base_event_reg_t *r = retired_regs; NULL != r; r = r->retire_next) {
        ++n;
    }
    opal_mutex_unlock(&mca_base_event_lock);
    return n;
}
