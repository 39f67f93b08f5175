/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/*
 * Hardening: a seeded randomised test of the MPI_T events tool
 * API against a reference model. A singleton MPI_T process (MPI_T_init_thread,
 * no mpirun, no MPI_Init) registers four test event types through the engine
 * API and then drives FUZZ_STEPS random calls of MPI_T_event_* /
 * MPI_T_source_*: valid and invalid indexes, stale handles (freed, kept in a
 * list), forged handles (values that never were handles), NULL arguments,
 * string buffers of length 0, short, exact and long, callbacks set and
 * cleared at each safety level, dropped handlers set and removed, frees from
 * inside callbacks, re-entrant raises from callbacks, ad-hoc timestamps on
 * sources with and without support.
 *
 * The model (what MPI-4.1 and ompi/mpi/tool/mpi_t_events.h say) predicts the
 * return code of every call and, per registration, what it receives:
 *  - delivered + dropped <= raised while it lived, after every step;
 *  - exact (delivered + dropped == raised) when no drop can be pending:
 *    with evt/sync after every step (each raise delivers at once: per raise,
 *    exactly one callback for every registration whose callbacks serve the
 *    raise's context); with evt/ring after every drain point
 *    (MPI_T_source_get_timestamp), for what was raised before it; at every
 *    free callback when a dropped handler is set (a free delivers nothing:
 *    what is still queued for the registration is counted dropped);
 *  - every payload delivered is one that was raised on that event (and, with
 *    sync, the one being raised), read and copied consistently;
 *  - the free callback exactly once, after the last callback.
 * The delivery is taken from OMPI_MCA_evt (sync or ring; unset: ring rules,
 * which are the weaker ones). Seed: FUZZ_SEED or argv[1] (default: time),
 * steps: FUZZ_STEPS or argv[2] (default 20000). On a mismatch it prints the
 * seed, the step and the call, and fails. Prints "N passed, M failed" (steps).
 */

#include "opal_config.h"

#include <mpi.h> /* the shim: Open MPI's mpi.h + mpi_t_events.h */
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "opal/mca/base/mca_base_event.h"

/* ------------------------------------------------------------------------
 * Randomness (xorshift64*, the seed alone decides the whole run)
 * ------------------------------------------------------------------------ */

static uint64_t rng_state;

static uint64_t rnd(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ULL;
}

static int rnd_n(int n)
{
    return (int) (rnd() % (uint64_t) n);
}

static bool chance(int percent)
{
    return rnd_n(100) < percent;
}

/* ------------------------------------------------------------------------
 * Fixture
 * ------------------------------------------------------------------------ */

typedef struct {
    int32_t a;
    uint32_t tag; /* event number | bound object << 8 */
    uint64_t seq;
    double c;
} payload_t;

enum { EV_A, EV_NOADHOC, EV_BOUND, EV_CHAIN, NEV };

static mca_base_event_source_t *src, *src_noadhoc;
static mca_base_event_t *events[NEV];
static int ev_index[NEV];
static int src_index, src_noadhoc_index;
static void *bound_objs[2];
static int bound_obj_storage[2];

static opal_count_t fake_clock(void *ctx)
{
    (void) ctx;
    return 4242;
}

/* ------------------------------------------------------------------------
 * Model
 * ------------------------------------------------------------------------ */

enum { LIVE, FREEING, FREED };

typedef struct mreg mreg_t;
typedef struct {
    mreg_t *reg;
    int level;
} slot_ud_t;

struct mreg {
    MPI_T_event_registration h;
    int ev;
    int obj; /* bound object number, -1 for unbound events */
    int state;
    bool cb[4];
    bool dropped_handler;
    bool dropped_handler_at_free;
    bool maybe_drop; /* a drop may be pending (unreported): no exact check */
    uint64_t raised, delivered, dropped;
    /* ring: raised while it did not listen; a later drain may still find it
     * listening (dispatch uses the registration set of the drain) */
    uint64_t raised_extra;
    /* ring: queued for it when it stopped listening; a drain that finds it
     * not listening neither delivers nor counts them */
    uint64_t raised_may_vanish;
    uint64_t raised_at_flush;
    uint64_t alloc_seq, last_seq;
    int free_calls;
    bool in_cb;
    unsigned cb_changes; /* callback or dropped-handler changes so far */
    bool in_free_call; /* inside MPI_T_event_handle_free */
    bool ambiguous;    /* raised during its own free's flush: bounds only */
    slot_ud_t ud[4];
    mreg_t *next_all;
    int id;
};

#define MAX_LIVE 24
#define MAX_STALE 512
#define MAX_DEPTH 3

static mreg_t *live[MAX_LIVE];
static int nlive;
static mreg_t *all_regs; /* every model registration, freed at exit */
/* free called, free callback not yet run (few at any time) */
#define MAX_FREEING 256
static mreg_t *freeing[MAX_FREEING];
static int nfreeing;
static MPI_T_event_registration stale[MAX_STALE];
static int nstale;

static bool mode_sync;
static uint64_t seed;
static long step;
static char step_desc[256];
static int failures;
static uint64_t next_seq = 1;
static int depth;
/* Pending drops of a registration that has callbacks reach a newly set
 * dropped handler only at its free today (branch drops: at every flush
 * point). FUZZ_DROPS_AT_FLUSH=1 checks the documented behaviour. */
static bool drops_at_flush;
static bool step_flushed; /* the step went through a flush point */
static long deliveries, drop_reports, free_cbs, raises;

/* sync: the raises in flight, innermost last */
typedef struct {
    int ev, obj, ctx;
    uint64_t seq;
    int n;
    mreg_t *regs[MAX_LIVE];
    int expect[MAX_LIVE];
    unsigned changes[MAX_LIVE];
    int got[MAX_LIVE];
} frame_t;
static frame_t frames[MAX_DEPTH + 2];
static int nframes;

static void fail(const char *fmt, ...)
{
    va_list ap;

    ++failures;
    fprintf(stderr, "FAIL seed=%llu step=%ld call=%s: ", (unsigned long long) seed, step,
            step_desc);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

#define EXPECT_RC(call, expect)                                                          \
    do {                                                                                 \
        int rc_ = (call);                                                                \
        if (rc_ != (expect)) {                                                           \
            fail("%s returned %d, expected %d (line %d)", #call, rc_, (expect), __LINE__); \
        }                                                                                \
    } while (0)

static void describe(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(step_desc, sizeof(step_desc), fmt, ap);
    va_end(ap);
    if (NULL != getenv("FUZZ_TRACE")) {
        fprintf(stderr, "[%ld] %s\n", step, step_desc);
    }
}

static bool serves(const mreg_t *r, int ctx)
{
    for (int s = ctx; s < 4; ++s) {
        if (r->cb[s]) {
            return true;
        }
    }
    return false;
}

static bool has_cb(const mreg_t *r)
{
    return serves(r, 0);
}

/* The engine's gate (documented choice): a registration with neither a
 * callback nor a dropped handler does not listen; raises are not counted
 * for it (neither delivered nor dropped). */
static bool listening(const mreg_t *r)
{
    return has_cb(r) || r->dropped_handler;
}

/* ring: call after a change that may have stopped @p r listening */
static void note_listening(mreg_t *r)
{
    bool l = has_cb(r) || r->dropped_handler;

    if (!mode_sync && !l && r->raised > r->delivered + r->dropped) {
        r->raised_may_vanish += r->raised - r->delivered - r->dropped;
    }
}

static uint64_t raised_lo(const mreg_t *r)
{
    return r->raised_may_vanish >= r->raised ? 0 : r->raised - r->raised_may_vanish;
}

static mreg_t *find_by_handle(MPI_T_event_registration h)
{
    for (int i = 0; i < nlive; ++i) {
        if (live[i]->h == h) {
            return live[i];
        }
    }
    for (int i = 0; i < nfreeing; ++i) {
        if (freeing[i]->h == h) {
            return freeing[i];
        }
    }
    return NULL;
}

static void remove_freeing(mreg_t *r)
{
    for (int i = 0; i < nfreeing; ++i) {
        if (freeing[i] == r) {
            freeing[i] = freeing[--nfreeing];
            return;
        }
    }
}

static void remove_live(mreg_t *r)
{
    for (int i = 0; i < nlive; ++i) {
        if (live[i] == r) {
            live[i] = live[--nlive];
            return;
        }
    }
}

static void add_stale(MPI_T_event_registration h)
{
    if (nstale < MAX_STALE) {
        stale[nstale++] = h;
    } else {
        stale[rnd_n(MAX_STALE)] = h;
    }
}

/* A new handle may reuse a freed one's address: it is no longer stale. */
static void unstale(MPI_T_event_registration h)
{
    for (int i = 0; i < nstale;) {
        if (stale[i] == h) {
            stale[i] = stale[--nstale];
        } else {
            ++i;
        }
    }
}

static payload_t make_payload(int ev, int obj, uint64_t seq)
{
    payload_t p;

    memset(&p, 0, sizeof(p));
    p.a = (int32_t) (uint32_t) (seq * 2654435761ULL);
    p.tag = (uint32_t) ev | ((uint32_t) (obj + 1) << 8);
    p.seq = seq;
    p.c = (double) seq * 0.5;
    return p;
}

/* ------------------------------------------------------------------------
 * Callbacks
 * ------------------------------------------------------------------------ */

static int do_raise(int ev, int obj, int ctx);
static int free_reg(mreg_t *r, bool from_cb);
static void trace(const char *fmt, ...);

static void free_cb(MPI_T_event_registration h, MPI_T_cb_safety safety, void *user_data)
{
    mreg_t *r = (mreg_t *) user_data;

    ++free_cbs;
    if (h != r->h) {
        fail("free callback: registration %p, expected %p", (void *) h, (void *) r->h);
    }
    if ((int) safety < 0 || (int) safety > 3) {
        fail("free callback: safety %d", (int) safety);
    }
    if (FREEING != r->state || 0 != r->free_calls) {
        fail("free callback: state %d, %d earlier calls", r->state, r->free_calls);
    }
    if (r->in_cb) {
        fail("free callback while a callback of the registration runs");
    }
    ++r->free_calls;
    r->state = FREED;
    remove_freeing(r);
    trace("    free_cb r%d\n", r->id);
    if (r->ambiguous) {
        /* raised by a callback of its own free's flush: counted or not */
    } else if (r->delivered + r->dropped > r->raised + r->raised_extra) {
        fail("free callback: delivered %llu + dropped %llu > raised %llu",
             (unsigned long long) r->delivered, (unsigned long long) r->dropped,
             (unsigned long long) r->raised);
    } else if (r->dropped_handler_at_free && r->delivered + r->dropped < raised_lo(r)) {
        fail("free callback with a dropped handler: delivered %llu + dropped %llu != raised %llu",
             (unsigned long long) r->delivered, (unsigned long long) r->dropped,
             (unsigned long long) r->raised);
    }
    add_stale(h);
}

static void dropped_cb(MPI_Count count, MPI_T_event_registration h, int source_index,
                       MPI_T_cb_safety safety, void *user_data)
{
    mreg_t *r = find_by_handle(h);

    (void) user_data;
    ++drop_reports;
    if (NULL == r) {
        fail("dropped handler for unknown or freed registration %p", (void *) h);
        return;
    }
    if (count <= 0) {
        fail("dropped handler: count %lld", (long long) count);
    }
    /* set_dropped_handler runs no user code: a removed handler is never
     * called again (the count waits for the next one) */
    if (!r->dropped_handler) {
        fail("dropped handler ran while removed");
    }
    if (source_index != events[r->ev]->source->index) {
        fail("dropped handler: source %d, expected %d", source_index,
             events[r->ev]->source->index);
    }
    if ((int) safety < 0 || (int) safety > 3) {
        fail("dropped handler: safety %d", (int) safety);
    }
    r->dropped += (uint64_t) count;
    trace("    dropped r%d +%lld\n", r->id, (long long) count);
}

static void check_instance(MPI_T_event_instance inst, mreg_t *r, payload_t *p)
{
    payload_t q;
    int32_t a;
    uint32_t tag;
    uint64_t seq;
    double c;
    MPI_Count ts;
    int si = -1;

    memset(p, 0, sizeof(*p));
    EXPECT_RC(MPI_T_event_copy(inst, p), MPI_SUCCESS);
    EXPECT_RC(MPI_T_event_copy(inst, NULL), MPI_T_ERR_INVALID);
    EXPECT_RC(MPI_T_event_read(inst, 0, &a), MPI_SUCCESS);
    EXPECT_RC(MPI_T_event_read(inst, 1, &tag), MPI_SUCCESS);
    EXPECT_RC(MPI_T_event_read(inst, 2, &seq), MPI_SUCCESS);
    EXPECT_RC(MPI_T_event_read(inst, 3, &c), MPI_SUCCESS);
    EXPECT_RC(MPI_T_event_read(inst, 4, &c), MPI_T_ERR_INVALID_INDEX);
    EXPECT_RC(MPI_T_event_read(inst, -1, &c), MPI_T_ERR_INVALID_INDEX);
    EXPECT_RC(MPI_T_event_read(inst, 0, NULL), MPI_T_ERR_INVALID);
    EXPECT_RC(MPI_T_event_get_timestamp(inst, &ts), MPI_SUCCESS);
    EXPECT_RC(MPI_T_event_get_timestamp(inst, NULL), MPI_T_ERR_INVALID);
    EXPECT_RC(MPI_T_event_get_source(inst, &si), MPI_SUCCESS);
    EXPECT_RC(MPI_T_event_get_source(inst, NULL), MPI_T_ERR_INVALID);
    if (a != p->a || tag != p->tag || seq != p->seq || c != p->c) {
        fail("event_read disagrees with event_copy");
    }
    if (si != events[r->ev]->source->index) {
        fail("event_get_source %d, expected %d", si, events[r->ev]->source->index);
    }
    if (EV_NOADHOC == r->ev && 4242 != ts) {
        fail("timestamp %lld from the fake clock 4242", (long long) ts);
    }
    q = make_payload(r->ev, r->obj, p->seq);
    if (0 != memcmp(&q, p, sizeof(q)) || p->seq >= next_seq) {
        fail("payload seq %llu tag %#x of event %d obj %d: not one that was raised",
             (unsigned long long) p->seq, p->tag, r->ev, r->obj);
    }
}

static void event_cb(MPI_T_event_instance inst, MPI_T_event_registration h,
                     MPI_T_cb_safety safety, void *user_data)
{
    slot_ud_t *ud = (slot_ud_t *) user_data;
    mreg_t *r = ud->reg;
    payload_t p;
    bool was_in_cb = r->in_cb;

    ++deliveries;
    trace("    cb r%d level %d ctx %d depth %d\n", r->id, ud->level, (int) safety, depth);
    if (h != r->h) {
        fail("callback: registration %p, expected %p", (void *) h, (void *) r->h);
    }
    if (LIVE != r->state && !(FREEING == r->state && r->in_free_call)) {
        fail("callback on a registration in state %d (free called)", r->state);
    }
    if (!r->cb[ud->level]) {
        fail("callback of level %d, which is not set", ud->level);
    }
    if ((int) safety > ud->level || (int) safety < 0) {
        fail("callback of level %d run in context %d", ud->level, (int) safety);
    }
    check_instance(inst, r, &p);
    ++r->delivered;
    /* sync: a re-entrant raise reaches a registration before the raise
     * that is still being dispatched (its frame check is exact instead) */
    if ((!mode_sync && p.seq <= r->last_seq) || p.seq < r->alloc_seq) {
        fail("delivery order: seq %llu after %llu (allocated at %llu)",
             (unsigned long long) p.seq, (unsigned long long) r->last_seq,
             (unsigned long long) r->alloc_seq);
    }
    r->last_seq = p.seq;
    if (mode_sync) {
        frame_t *f = 0 < nframes ? &frames[nframes - 1] : NULL;
        bool found = false;

        if (NULL == f || f->seq != p.seq || f->ev != r->ev) {
            fail("sync: delivery of seq %llu outside its raise", (unsigned long long) p.seq);
        } else {
            for (int i = 0; i < f->n; ++i) {
                if (f->regs[i] == r) {
                    ++f->got[i];
                    found = true;
                }
            }
            if (!found) {
                fail("sync: delivered to a registration not live at the raise");
            }
        }
    }

    /* What the callback does (the run's RNG: deterministic per seed). */
    r->in_cb = true;
    ++depth;
    if (depth <= MAX_DEPTH && chance(20)) {
        int ev = chance(50) ? EV_CHAIN : rnd_n(NEV);
        (void) do_raise(ev, EV_BOUND == ev ? rnd_n(2) : -1, 0);
    }
    if (chance(5)) {
        /* replace or clear one of its own callbacks */
        int s = rnd_n(4);
        bool set = chance(60);
        EXPECT_RC(MPI_T_event_register_callback(h, (MPI_T_cb_safety) s, MPI_INFO_NULL,
                                                &r->ud[s], set ? event_cb : NULL),
                  LIVE == r->state ? MPI_SUCCESS : MPI_T_ERR_INVALID_HANDLE);
        trace("    r%d in its callback: level %d %s\n", r->id, s, set ? "set" : "clear");
        if (LIVE == r->state) {
            if (r->cb[s] && !set) {
                r->maybe_drop = true;
            }
            r->cb[s] = set;
            ++r->cb_changes;
            note_listening(r);
        }
    }
    --depth;
    r->in_cb = was_in_cb;
    if (chance(6)) {
        (void) free_reg(r, true);
    }
}

/* ------------------------------------------------------------------------
 * Model-checked operations
 * ------------------------------------------------------------------------ */

/* Raise @p ev (bound object @p obj) in context @p ctx; the model counts it
 * for every live registration that must see it. */
static int do_raise(int ev, int obj, int ctx)
{
    payload_t p = make_payload(ev, obj, next_seq);
    frame_t *f = NULL;
    int rc, nmatch = 0;

    ++next_seq;
    ++raises;
    if (mode_sync && nframes < MAX_DEPTH + 2) {
        f = &frames[nframes++];
        f->ev = ev;
        f->obj = obj;
        f->ctx = ctx;
        f->seq = p.seq;
        f->n = 0;
    }
    for (int i = 0; i < nfreeing; ++i) {
        mreg_t *r = freeing[i];
        if (r->in_free_call && r->ev == ev && r->obj == obj) {
            r->ambiguous = true;
        }
    }
    for (int i = 0; i < nlive; ++i) {
        mreg_t *r = live[i];
        if (r->ev != ev || r->obj != obj || LIVE != r->state) {
            continue;
        }
        if (!listening(r)) {
            if (!mode_sync) {
                ++r->raised_extra;
            }
            continue;
        }
        ++nmatch;
        ++r->raised;
        trace("    raise seq %llu ctx %d counts for r%d\n", (unsigned long long) p.seq, ctx, r->id);
        if (!serves(r, ctx) || 3 == ctx) {
            r->maybe_drop = true;
        }
        if (NULL != f) {
            f->regs[f->n] = r;
            f->expect[f->n] = serves(r, ctx) && 3 != ctx;
            f->changes[f->n] = r->cb_changes;
            f->got[f->n] = 0;
            ++f->n;
        }
    }
    if (EV_BOUND == ev) {
        rc = mca_base_event_raise_ctx(events[ev], NULL, bound_objs[obj], &p,
                                      (mca_base_event_cb_safety_t) ctx);
    } else if (0 == ctx && chance(50)) {
        rc = mca_base_event_raise(events[ev], NULL, &p);
    } else {
        rc = mca_base_event_raise_ctx(events[ev], NULL, NULL, &p,
                                      (mca_base_event_cb_safety_t) ctx);
    }
    if (mode_sync) {
        if (3 == ctx && 0 < nmatch && OPAL_ERR_NOT_SUPPORTED != rc) {
            fail("sync raise in ASYNC_SIGNAL_SAFE context: rc %d, expected NOT_SUPPORTED", rc);
        } else if (3 != ctx && OPAL_SUCCESS != rc) {
            fail("sync raise: rc %d", rc);
        }
    } else if (OPAL_SUCCESS != rc && OPAL_ERR_TEMP_OUT_OF_RESOURCE != rc
               && !(3 == ctx && OPAL_ERR_NOT_SUPPORTED == rc)) {
        fail("ring raise: rc %d", rc);
    }
    if (OPAL_SUCCESS != rc) {
        for (int i = 0; i < nlive; ++i) {
            if (live[i]->ev == ev && live[i]->obj == obj) {
                live[i]->maybe_drop = true;
            }
        }
    }
    if (NULL != f) {
        for (int i = 0; i < f->n; ++i) {
            int want = f->expect[i];
            if (f->changes[i] != f->regs[i]->cb_changes) {
                /* its callbacks changed during the raise (a nested callback
                 * of its own): the current ones decide */
                if (f->got[i] > 1) {
                    fail("sync: %d deliveries of one raise", f->got[i]);
                }
                f->regs[i]->maybe_drop = true;
                if (0 == f->got[i]) {
                    /* if it listens no more when reached: neither delivered
                     * nor dropped (the engine's listening gate) */
                    ++f->regs[i]->raised_may_vanish;
                }
            } else if (FREEING == f->regs[i]->state || FREED == f->regs[i]->state) {
                /* freed by a callback of this raise before its turn */
                if (f->got[i] > want) {
                    fail("sync: %d deliveries of one raise", f->got[i]);
                }
            } else if (f->got[i] != want) {
                fail("sync: raise seq %llu ctx %d delivered %d times to a registration "
                     "(cb %d%d%d%d), expected %d",
                     (unsigned long long) f->seq, ctx, f->got[i], f->regs[i]->cb[0],
                     f->regs[i]->cb[1], f->regs[i]->cb[2], f->regs[i]->cb[3], want);
            }
        }
        --nframes;
    }
    return rc;
}

static void trace(const char *fmt, ...)
{
    va_list ap;

    if (NULL == getenv("FUZZ_TRACE")) {
        return;
    }
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
}

static int free_reg(mreg_t *r, bool from_cb)
{
    int expect = LIVE == r->state ? MPI_SUCCESS : MPI_T_ERR_INVALID_HANDLE;
    int rc;
    bool was_live = LIVE == r->state;

    if (was_live) {
        r->state = FREEING;
        /* freed by its own callback during set_dropped_handler's flush:
         * the engine may not have the handler yet */
        r->dropped_handler_at_free = r->dropped_handler;
        remove_live(r);
        if (nfreeing < MAX_FREEING) {
            freeing[nfreeing++] = r;
        } else {
            fail("model: more than %d frees in flight", MAX_FREEING);
        }
    }
    bool was_in_free = r->in_free_call;
    trace("    free r%d (state %d, from_cb %d, depth %d)\n", r->id, r->state, from_cb, depth);
    r->in_free_call = was_live || was_in_free;
    rc = MPI_T_event_handle_free(r->h, r, free_cb);
    r->in_free_call = was_in_free;
    if (rc != expect) {
        fail("handle_free%s: rc %d, expected %d", from_cb ? " (from its callback)" : "", rc,
             expect);
    }
    if (was_live && !from_cb && depth == 0 && FREED != r->state) {
        fail("handle_free from the tool outside callbacks returned before the free callback");
    }
    return rc;
}

static MPI_T_event_registration forged_handle(void)
{
    static char buf[64];
    static int on_data;

    switch (rnd_n(6)) {
    case 0:
        return NULL;
    case 1:
        return (MPI_T_event_registration) (uintptr_t) 1;
    case 2:
        return (MPI_T_event_registration) (uintptr_t) UINTPTR_MAX;
    case 3:
        return (MPI_T_event_registration) (buf + rnd_n(56));
    case 4:
        return (MPI_T_event_registration) &on_data;
    default:
        return (MPI_T_event_registration) (uintptr_t) (rnd() & ~(uint64_t) 7);
    }
}

/* A handle the model knows to be invalid: stale or forged (never equal to
 * a registration the model still holds). */
static MPI_T_event_registration bad_handle(void)
{
    for (;;) {
        MPI_T_event_registration h = (0 < nstale && chance(50)) ? stale[rnd_n(nstale)]
                                                                : forged_handle();
        if (NULL == find_by_handle(h)) {
            return h;
        }
    }
}

static void op_alloc(void)
{
    int ev = rnd_n(NEV);
    int obj = EV_BOUND == ev ? rnd_n(2) : -1;
    MPI_T_event_registration h = NULL;
    mreg_t *r;
    int rc;

    if (chance(15)) {
        int bad[] = {-1, mca_base_event_get_count(), mca_base_event_get_count() + 7, INT_MAX,
                     INT_MIN};
        int idx = bad[rnd_n(5)];
        describe("handle_alloc(invalid index %d)", idx);
        EXPECT_RC(MPI_T_event_handle_alloc(idx, NULL, MPI_INFO_NULL, &h), MPI_T_ERR_INVALID_INDEX);
        return;
    }
    if (chance(5)) {
        describe("handle_alloc(event %d, NULL out)", ev_index[ev]);
        EXPECT_RC(MPI_T_event_handle_alloc(ev_index[ev], &bound_objs[0], MPI_INFO_NULL, NULL),
                  MPI_T_ERR_INVALID);
        return;
    }
    if (EV_BOUND == ev && chance(15)) {
        void *null_obj = NULL;
        describe("handle_alloc(bound event, %s)", chance(50) ? "NULL obj_handle" : "*obj NULL");
        EXPECT_RC(MPI_T_event_handle_alloc(ev_index[ev], chance(50) ? NULL : &null_obj,
                                           MPI_INFO_NULL, &h),
                  MPI_T_ERR_INVALID);
        return;
    }
    if (nlive >= MAX_LIVE) {
        return;
    }
    describe("handle_alloc(event %d obj %d)", ev_index[ev], obj);
    rc = MPI_T_event_handle_alloc(ev_index[ev], 0 <= obj ? &bound_objs[obj] : NULL,
                                  MPI_INFO_NULL, &h);
    if (MPI_SUCCESS != rc || NULL == h) {
        fail("handle_alloc: rc %d handle %p", rc, (void *) h);
        return;
    }
    if (NULL != find_by_handle(h)) {
        fail("handle_alloc returned a handle that is still held");
        return;
    }
    unstale(h);
    r = calloc(1, sizeof(*r));
    if (NULL == r) {
        fail("out of memory");
        return;
    }
    static int next_id;
    r->id = next_id++;
    trace("    = r%d\n", r->id);
    r->h = h;
    r->ev = ev;
    r->obj = obj;
    r->state = LIVE;
    r->alloc_seq = next_seq;
    for (int s = 0; s < 4; ++s) {
        r->ud[s].reg = r;
        r->ud[s].level = s;
    }
    r->next_all = all_regs;
    all_regs = r;
    live[nlive++] = r;
}

static void op_register_cb(void)
{
    if (0 < nlive && chance(85)) {
        mreg_t *r = live[rnd_n(nlive)];
        int s = rnd_n(4);
        bool set = chance(70);

        if (chance(8)) {
            int bad = chance(50) ? -1 : 4;
            describe("register_callback(live, invalid safety %d)", bad);
            EXPECT_RC(MPI_T_event_register_callback(r->h, (MPI_T_cb_safety) bad, MPI_INFO_NULL,
                                                    &r->ud[0], event_cb),
                      MPI_T_ERR_INVALID);
            return;
        }
        describe("register_callback(r%d, level %d, %s)", r->id, s, set ? "set" : "clear");
        EXPECT_RC(MPI_T_event_register_callback(r->h, (MPI_T_cb_safety) s, MPI_INFO_NULL,
                                                &r->ud[s], set ? event_cb : NULL),
                  MPI_SUCCESS);
        if (r->cb[s] && !set && !mode_sync) {
            r->maybe_drop = true; /* queued records may find no callback */
        }
        r->cb[s] = set;
        ++r->cb_changes;
        if (!mode_sync && !has_cb(r) && r->raised > r->delivered + r->dropped) {
            r->maybe_drop = true;
        }
        note_listening(r);
    } else {
        MPI_T_event_registration h = bad_handle();
        describe("register_callback(bad handle %p)", (void *) h);
        EXPECT_RC(MPI_T_event_register_callback(h, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, NULL,
                                                chance(50) ? event_cb : NULL),
                  MPI_T_ERR_INVALID_HANDLE);
    }
}

static void exact_check(mreg_t *r, const char *where)
{
    /* ring: raises by callbacks of the step's own flush may still be queued */
    uint64_t lo = mode_sync ? raised_lo(r) : r->raised_at_flush - r->raised_may_vanish;

    if (!mode_sync && r->raised_at_flush < r->raised_may_vanish) {
        lo = 0;
    }
    if (r->delivered + r->dropped < lo
        || r->delivered + r->dropped > r->raised + r->raised_extra) {
        fail("%s: delivered %llu + dropped %llu != raised %llu", where,
             (unsigned long long) r->delivered, (unsigned long long) r->dropped,
             (unsigned long long) r->raised);
        r->maybe_drop = true; /* report it once */
        return;
    }
    r->maybe_drop = false;
}

static void op_dropped_handler(void)
{
    if (0 < nlive && chance(85)) {
        mreg_t *r = live[rnd_n(nlive)];
        bool set = chance(70);

        describe("set_dropped_handler(r%d, %s)", r->id, set ? "set" : "remove");
        r->dropped_handler = set;
        ++r->cb_changes;
        note_listening(r);
        int rc = MPI_T_event_set_dropped_handler(r->h, set ? dropped_cb : NULL);
        if (LIVE != r->state) {
            fail("set_dropped_handler freed its registration (it runs no user code)");
            return;
        }
        if (MPI_SUCCESS != rc) {
            fail("set_dropped_handler(live): rc %d", rc);
        }
    } else {
        MPI_T_event_registration h = bad_handle();
        describe("set_dropped_handler(bad handle %p)", (void *) h);
        EXPECT_RC(MPI_T_event_set_dropped_handler(h, chance(50) ? dropped_cb : NULL),
                  MPI_T_ERR_INVALID_HANDLE);
    }
}

static void op_free(void)
{
    if (0 < nlive && chance(80)) {
        mreg_t *r = live[rnd_n(nlive)];
        describe("handle_free(r%d, event %d)", r->id, ev_index[r->ev]);
        (void) free_reg(r, false);
    } else {
        MPI_T_event_registration h = bad_handle();
        describe("handle_free(bad handle %p)", (void *) h);
        EXPECT_RC(MPI_T_event_handle_free(h, NULL, NULL), MPI_T_ERR_INVALID_HANDLE);
    }
}

static void op_raise(void)
{
    int n = 1 + rnd_n(4);
    int ev = rnd_n(NEV);
    int ctx = chance(80) ? 0 : rnd_n(4);

    describe("raise x%d (event %d, context %d)", n, ev_index[ev], ctx);
    for (int i = 0; i < n; ++i) {
        (void) do_raise(ev, EV_BOUND == ev ? rnd_n(2) : -1, ctx);
    }
}

static void op_info_handles(void)
{
    MPI_Info info = (MPI_Info) &info;
    int s = rnd_n(4);

    if (0 < nlive && chance(75)) {
        mreg_t *r = live[rnd_n(nlive)];

        describe("handle/callback get/set_info(live, level %d)", s);
        EXPECT_RC(MPI_T_event_handle_get_info(r->h, &info), MPI_SUCCESS);
        if (MPI_INFO_NULL != info) {
            fail("handle_get_info outside MPI_Init: not MPI_INFO_NULL");
        }
        EXPECT_RC(MPI_T_event_handle_get_info(r->h, NULL), MPI_T_ERR_INVALID);
        EXPECT_RC(MPI_T_event_handle_set_info(r->h, MPI_INFO_NULL), MPI_SUCCESS);
        info = (MPI_Info) &info;
        EXPECT_RC(MPI_T_event_callback_get_info(r->h, (MPI_T_cb_safety) s, &info),
                  r->cb[s] ? MPI_SUCCESS : MPI_T_ERR_INVALID);
        if (r->cb[s] && MPI_INFO_NULL != info) {
            fail("callback_get_info outside MPI_Init: not MPI_INFO_NULL");
        }
        EXPECT_RC(MPI_T_event_callback_set_info(r->h, (MPI_T_cb_safety) s, MPI_INFO_NULL),
                  r->cb[s] ? MPI_SUCCESS : MPI_T_ERR_INVALID);
        EXPECT_RC(MPI_T_event_callback_get_info(r->h, (MPI_T_cb_safety) 7, &info),
                  MPI_T_ERR_INVALID);
        EXPECT_RC(MPI_T_event_callback_set_info(r->h, (MPI_T_cb_safety) -2, MPI_INFO_NULL),
                  MPI_T_ERR_INVALID);
    } else {
        MPI_T_event_registration h = bad_handle();
        describe("handle/callback get/set_info(bad handle %p)", (void *) h);
        EXPECT_RC(MPI_T_event_handle_get_info(h, &info), MPI_T_ERR_INVALID_HANDLE);
        EXPECT_RC(MPI_T_event_handle_set_info(h, MPI_INFO_NULL), MPI_T_ERR_INVALID_HANDLE);
        EXPECT_RC(MPI_T_event_callback_get_info(h, (MPI_T_cb_safety) s, &info),
                  MPI_T_ERR_INVALID_HANDLE);
        EXPECT_RC(MPI_T_event_callback_set_info(h, (MPI_T_cb_safety) s, MPI_INFO_NULL),
                  MPI_T_ERR_INVALID_HANDLE);
    }
}

/* Outside callbacks no instance exists: NULL is the only one to try. */
static void op_null_instance(void)
{
    char buf[64];
    MPI_Count ts;
    int si;

    describe("event_read/copy/get_timestamp/get_source(NULL instance)");
    EXPECT_RC(MPI_T_event_read(NULL, 0, buf), MPI_T_ERR_INVALID_HANDLE);
    EXPECT_RC(MPI_T_event_copy(NULL, buf), MPI_T_ERR_INVALID_HANDLE);
    EXPECT_RC(MPI_T_event_get_timestamp(NULL, &ts), MPI_T_ERR_INVALID_HANDLE);
    EXPECT_RC(MPI_T_event_get_source(NULL, &si), MPI_T_ERR_INVALID_HANDLE);
}

/* A string OUT argument: name_len 0 (or NULL buffer) asks for the length;
 * otherwise at most name_len bytes are written, NUL-terminated, and name_len
 * becomes what was written. Nothing past name_len is touched. */
static void check_string(const char *what, const char *buf, int len_in, int len_out,
                         bool buf_null, const char *expect)
{
    int need = (int) strlen(expect) + 1;

    if (buf_null || len_in <= 0) {
        if (len_out != need) {
            fail("%s: length query (len %d) gave %d, expected %d", what, len_in, len_out, need);
        }
        if (!buf_null && (unsigned char) buf[0] != 0x5a) {
            fail("%s: buffer written with len %d", what, len_in);
        }
        return;
    }
    int n = len_in < need ? len_in : need;
    if (len_out != n) {
        fail("%s: len %d in, %d out, expected %d", what, len_in, len_out, n);
        return;
    }
    if (0 != memcmp(buf, expect, (size_t) n - 1) || '\0' != buf[n - 1]) {
        fail("%s: wrong string for len %d", what, len_in);
    }
    for (int i = len_in; i < 256; ++i) {
        if ((unsigned char) buf[i] != 0x5a) {
            fail("%s: byte %d written past len %d", what, i, len_in);
            break;
        }
    }
}

static int pick_len(const char *s)
{
    int need = (int) strlen(s) + 1;

    switch (rnd_n(5)) {
    case 0:
        return 0;
    case 1:
        return 1;
    case 2:
        return need / 2 > 0 ? need / 2 : 1;
    case 3:
        return need;
    default:
        return need + 1 + rnd_n(40);
    }
}

static void op_queries(void)
{
    char name[256 + 8], desc[256 + 8];
    int nev = -1, nsrc = -1, idx, name_len, desc_len;
    MPI_Count ts;

    EXPECT_RC(MPI_T_event_get_num(&nev), MPI_SUCCESS);
    EXPECT_RC(MPI_T_source_get_num(&nsrc), MPI_SUCCESS);
    if (nev != mca_base_event_get_count() || nsrc != mca_base_event_source_get_count()) {
        fail("get_num: %d events, %d sources", nev, nsrc);
    }
    switch (rnd_n(4)) {
    case 0: {
        /* event_get_info on a fixture event, or an invalid index */
        int e = rnd_n(NEV);
        mca_base_event_t *event = events[e];
        int num = chance(30) ? 0 : 3 + rnd_n(3) - 1, verb, bind, num_in;
        MPI_Datatype types[8];
        MPI_Aint displ[8];
        MPI_T_enum en;
        bool nn = chance(15), nd = chance(15);

        if (chance(15)) {
            int bad = chance(50) ? -1 - rnd_n(5) : nev + rnd_n(5);
            describe("event_get_info(invalid index %d)", bad);
            name_len = 10;
            EXPECT_RC(MPI_T_event_get_info(bad, name, &name_len, NULL, NULL, NULL, NULL, NULL,
                                           NULL, NULL, NULL, NULL),
                      MPI_T_ERR_INVALID_INDEX);
            return;
        }
        memset(name, 0x5a, sizeof(name));
        memset(desc, 0x5a, sizeof(desc));
        name_len = pick_len(event->name);
        desc_len = pick_len(event->description);
        int nl_in = name_len, dl_in = desc_len;
        num_in = num;
        describe("event_get_info(%d, name_len %d%s, desc_len %d%s, num %d)", ev_index[e], nl_in,
                 nn ? " NULL" : "", dl_in, nd ? " NULL" : "", num_in);
        EXPECT_RC(MPI_T_event_get_info(ev_index[e], nn ? NULL : name, &name_len, &verb, types,
                                       displ, &num, &en, NULL, nd ? NULL : desc, &desc_len,
                                       &bind),
                  MPI_SUCCESS);
        check_string("event name", name, nl_in, name_len, nn, event->name);
        check_string("event desc", desc, dl_in, desc_len, nd, event->description);
        if (4 != num) {
            fail("num_elements %d, expected 4", num);
        }
        for (int i = 0; i < num_in && i < 4; ++i) {
            static const MPI_Aint off[4] = {offsetof(payload_t, a), offsetof(payload_t, tag),
                                            offsetof(payload_t, seq), offsetof(payload_t, c)};
            if (displ[i] != off[i]) {
                fail("displacement %d: %ld", i, (long) displ[i]);
            }
        }
        if (bind != (EV_BOUND == e ? MPI_T_BIND_MPI_COMM : MPI_T_BIND_NO_OBJECT)) {
            fail("bind %d", bind);
        }
        /* num_elements is read only when an array is given: with both NULL
         * any input is answered with the count */
        num = chance(50) ? -1 - rnd_n(1000) : INT_MIN;
        EXPECT_RC(MPI_T_event_get_info(ev_index[e], NULL, NULL, NULL, NULL, NULL, &num, NULL, NULL,
                                       NULL, NULL, NULL),
                  MPI_SUCCESS);
        if (4 != num) {
            fail("num_elements %d with NULL arrays, expected 4", num);
        }
        num = -1;
        EXPECT_RC(MPI_T_event_get_info(ev_index[e], NULL, NULL, NULL, types, NULL, &num, NULL, NULL,
                                       NULL, NULL, NULL),
                  MPI_T_ERR_INVALID);
        break;
    }
    case 1: {
        int si = rnd_n(nsrc + 4) - 2;
        mca_base_event_source_t *s = NULL;
        bool valid = 0 <= si && si < nsrc;
        MPI_T_source_order order;
        MPI_Count tps, maxt;

        if (valid) {
            (void) mca_base_event_source_get_by_index(si, &s);
        }
        memset(name, 0x5a, sizeof(name));
        memset(desc, 0x5a, sizeof(desc));
        name_len = valid ? pick_len(s->name) : 5;
        desc_len = valid ? pick_len(s->description) : 5;
        int nl_in = name_len, dl_in = desc_len;
        describe("source_get_info(%d, name_len %d, desc_len %d)", si, nl_in, dl_in);
        EXPECT_RC(MPI_T_source_get_info(si, name, &name_len, desc, &desc_len, &order, &tps,
                                        &maxt, NULL),
                  valid ? MPI_SUCCESS : MPI_T_ERR_INVALID_INDEX);
        if (valid) {
            check_string("source name", name, nl_in, name_len, false, s->name);
            check_string("source desc", desc, dl_in, desc_len, false,
                         NULL == s->description ? "" : s->description);
            if (si == src_noadhoc_index && (MPI_T_SOURCE_UNORDERED != order || 1000 != tps)) {
                fail("source_get_info of the no-ad-hoc source: order %d tps %lld", (int) order,
                     (long long) tps);
            }
        }
        break;
    }
    case 2: {
        const char *nm = events[rnd_n(NEV)]->name;
        describe("event_get_index(%s / unknown / NULL)", nm);
        idx = -1;
        EXPECT_RC(MPI_T_event_get_index(nm, &idx), MPI_SUCCESS);
        mca_base_event_t *got = NULL;
        if (OPAL_SUCCESS != mca_base_event_get_by_index(idx, &got) || got->name != nm) {
            if (NULL == got || 0 != strcmp(got->name, nm)) {
                fail("event_get_index(%s) = %d", nm, idx);
            }
        }
        EXPECT_RC(MPI_T_event_get_index("ompi.fuzz_no_such_event", &idx), MPI_T_ERR_INVALID_NAME);
        EXPECT_RC(MPI_T_event_get_index(NULL, &idx), MPI_T_ERR_INVALID);
        EXPECT_RC(MPI_T_event_get_index(nm, NULL), MPI_T_ERR_INVALID);
        break;
    }
    default: {
        int si = chance(40) ? src_index : chance(50) ? src_noadhoc_index : rnd_n(nsrc + 4) - 2;
        describe("source_get_timestamp(%d)", si);
        if (chance(10)) {
            EXPECT_RC(MPI_T_source_get_timestamp(si, NULL), MPI_T_ERR_INVALID);
            return;
        }
        int rc = MPI_T_source_get_timestamp(si, &ts);
        if (si == src_index) {
            if (MPI_SUCCESS != rc) {
                fail("source_get_timestamp(ad-hoc source): rc %d", rc);
            }
            step_flushed = true;
        } else if (si == src_noadhoc_index) {
            if (MPI_T_ERR_NOT_SUPPORTED != rc) {
                fail("source_get_timestamp(no ad-hoc): rc %d", rc);
            }
        } else if (si < 0 || si >= nsrc) {
            if (MPI_T_ERR_INVALID_INDEX != rc) {
                fail("source_get_timestamp(invalid %d): rc %d", si, rc);
            }
        } else if (MPI_SUCCESS != rc && MPI_T_ERR_NOT_SUPPORTED != rc) {
            fail("source_get_timestamp(%d): rc %d", si, rc);
        }
        break;
    }
    }
}

/* After every step: the bounds; exact where no drop can be pending. */
static void check_model(bool flushed)
{
    for (int i = 0; i < nlive; ++i) {
        mreg_t *r = live[i];
        if (r->delivered + r->dropped > r->raised + r->raised_extra) {
            fail("delivered %llu + dropped %llu > raised %llu", (unsigned long long) r->delivered,
                 (unsigned long long) r->dropped, (unsigned long long) r->raised);
        }
        if (r->maybe_drop) {
            continue;
        }
        if (mode_sync) {
            exact_check(r, "sync, no drop possible");
        } else if (flushed && r->delivered + r->dropped + r->raised_may_vanish
                                  < r->raised_at_flush) {
            fail("ring after a flush point: delivered %llu + dropped %llu < %llu raised before",
                 (unsigned long long) r->delivered, (unsigned long long) r->dropped,
                 (unsigned long long) r->raised_at_flush);
        }
    }
    if (0 < nfreeing && 0 == depth) {
        fail("free callback pending after the step (%d)", nfreeing);
        while (0 < nfreeing) {
            freeing[--nfreeing]->state = FREED; /* report once */
        }
    }
}

int main(int argc, char **argv)
{
    const mca_base_var_type_t types[4] = {MCA_BASE_VAR_TYPE_INT32_T, MCA_BASE_VAR_TYPE_UINT32_T,
                                          MCA_BASE_VAR_TYPE_UINT64_T, MCA_BASE_VAR_TYPE_DOUBLE};
    const ptrdiff_t offsets[4] = {offsetof(payload_t, a), offsetof(payload_t, tag),
                                  offsetof(payload_t, seq), offsetof(payload_t, c)};
    static const char *names[NEV] = {"a", "noadhoc", "bound", "chain"};
    const char *evt = getenv("OMPI_MCA_evt");
    const char *s_seed = 1 < argc ? argv[1] : getenv("FUZZ_SEED");
    const char *s_steps = 2 < argc ? argv[2] : getenv("FUZZ_STEPS");
    long nsteps = NULL != s_steps ? atol(s_steps) : 20000;
    long passed = 0, failed = 0;
    int provided, idx;

    seed = NULL != s_seed ? strtoull(s_seed, NULL, 0) : (uint64_t) time(NULL);
    rng_state = seed * 0x9E3779B97F4A7C15ULL + 1;
    drops_at_flush = NULL != getenv("FUZZ_DROPS_AT_FLUSH")
                     && 0 != strcmp(getenv("FUZZ_DROPS_AT_FLUSH"), "0");
    mode_sync = NULL != evt && 0 == strcmp(evt, "sync");
    printf("fuzz_mpit: seed %llu, %ld steps, evt %s (%s model)\n", (unsigned long long) seed,
           nsteps, NULL == evt ? "(default)" : evt, mode_sync ? "sync" : "ring");
    fflush(stdout);

    if (MPI_SUCCESS != MPI_T_init_thread(MPI_THREAD_SINGLE, &provided)) {
        printf("0 passed, 1 failed (MPI_T_init_thread)\n");
        return 1;
    }
    src_index = mca_base_event_source_register("fuzz.src", "fuzz source",
                                               MCA_BASE_EVENT_SOURCE_ORDERED, 1000000000LL,
                                               OPAL_COUNT_MAX, NULL, true, NULL);
    src_noadhoc_index = mca_base_event_source_register("fuzz.noadhoc", "no ad-hoc reads",
                                                       MCA_BASE_EVENT_SOURCE_UNORDERED, 1000,
                                                       1000000, fake_clock, false, NULL);
    if (0 > src_index || 0 > src_noadhoc_index
        || OPAL_SUCCESS != mca_base_event_source_get_by_index(src_index, &src)
        || OPAL_SUCCESS != mca_base_event_source_get_by_index(src_noadhoc_index, &src_noadhoc)) {
        printf("0 passed, 1 failed (source registration)\n");
        return 1;
    }
    for (int e = 0; e < NEV; ++e) {
        idx = mca_base_event_register("ompi", "fuzz", NULL, names[e], "a fuzzer test event",
                                      OPAL_INFO_LVL_4, 4, types, offsets, NULL,
                                      EV_BOUND == e ? MCA_BASE_VAR_BIND_MPI_COMM
                                                    : MCA_BASE_VAR_BIND_NO_OBJECT,
                                      0, EV_NOADHOC == e ? src_noadhoc : src, NULL);
        if (0 > idx || OPAL_SUCCESS != mca_base_event_get_by_index(idx, &events[e])) {
            printf("0 passed, 1 failed (event registration)\n");
            return 1;
        }
        ev_index[e] = idx;
    }
    bound_objs[0] = &bound_obj_storage[0];
    bound_objs[1] = &bound_obj_storage[1];

    for (step = 0; step < nsteps && failures < 10; ++step) {
        int before = failures;
        int op = rnd_n(100);

        step_flushed = false;
        for (int i = 0; i < nlive; ++i) {
            live[i]->raised_at_flush = live[i]->raised;
        }
        if (op < 12) {
            op_alloc();
        } else if (op < 27) {
            op_register_cb();
        } else if (op < 35) {
            op_dropped_handler();
        } else if (op < 43) {
            op_free();
        } else if (op < 73) {
            op_raise();
        } else if (op < 79) {
            op_info_handles();
        } else if (op < 81) {
            op_null_instance();
        } else {
            op_queries();
        }
        check_model(step_flushed);
        if (failures == before) {
            ++passed;
        } else {
            ++failed;
        }
    }

    /* Free what is left: every free callback exactly once. */
    describe("final frees");
    while (0 < nlive) {
        (void) free_reg(live[0], false);
    }
    for (mreg_t *r = all_regs; NULL != r; r = r->next_all) {
        if (1 != r->free_calls) {
            fail("registration freed with %d free callbacks", r->free_calls);
        }
    }
    if (MPI_SUCCESS != MPI_T_finalize()) {
        fail("MPI_T_finalize");
    }
    while (NULL != all_regs) {
        mreg_t *n = all_regs->next_all;
        free(all_regs);
        all_regs = n;
    }
    printf("fuzz_mpit: %ld raises, %ld callbacks, %ld drop reports, %ld free callbacks\n", raises,
           deliveries, drop_reports, free_cbs);
    if (0 < failures && failed == 0) {
        failed = 1; /* a failure in the final frees */
    }
    printf("%ld passed, %ld failed (seed %llu)\n", passed, failed, (unsigned long long) seed);
    return 0 == failed ? 0 : 1;
}
