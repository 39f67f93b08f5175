/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * ompi-evt-listen's reading side, as a library (libevt_listen, linked by
 * the tool and by bench/bench_listen). One idea per file:
 *
 *   evt_listen_input.c     which files to read (folders, node files), one
 *                          reader per file, every batch decoded (counted
 *                          when invalid)
 *   evt_listen_registry.c  what the batches say about each process and each
 *                          event type, collected by a first pass: sequence
 *                          numbers (lost and duplicate batches), FINAL,
 *                          drops, clock pairs, offsets, time span; types
 *                          interned across batches and processes
 *   evt_listen_timemap.c   the one place where source ticks become job
 *                          timeline nanoseconds
 *   evt_listen_merge.c     the second pass: records of every file merged by
 *                          time in a bounded reorder window, handed to sinks
 *   evt_listen_jsonl.c, _perfetto.c, _otf2.c, _summary.c   the sinks
 *   evt_listen_fields.c    what the sinks read from an event the same way:
 *                          element names, the point-to-point fields
 *   evt_listen_out.c       what the writers share: output files, JSON
 *                          text, per-type caches
 *   evt_listen_filter.c    --events patterns
 *   evt_listen_fanout.c    the sinks that pass 2 runs on a second thread
 *
 * Everything runs on one thread, except the sinks marked on_worker, which
 * pass 2 hands their events on a second one. Inputs are untrusted: everything comes
 * through the wire decoder and the node file reader, which validate.
 */

#ifndef EVT_LISTEN_H
#define EVT_LISTEN_H

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ompi/mca/common/evt/common_evt_name_filter.h"
#include "ompi/mca/common/evt/common_evt_seqset.h"
#include "ompi/mca/common/evt/common_evt_wire.h"

/* ------------------------------------------------------------------------
 * Event types, interned (one per distinct name + layout + source)
 * ------------------------------------------------------------------------ */

/** Roles the Perfetto and OTF2 writers give completions that span time:
 *  point-to-point sends and receives, collectives, one-sided
 *  communication and synchronisation calls. */
typedef enum {
    LISTEN_P2P_NONE = 0,
    LISTEN_P2P_SEND,
    LISTEN_P2P_RECV,
    LISTEN_P2P_COLL,
    LISTEN_P2P_RMA_OP,
    LISTEN_P2P_RMA_SYNC
} listen_p2p_kind_t;

/** Element indexes of a collective completion's fields. */
enum {
    LISTEN_COLL_KIND,
    LISTEN_COLL_ROOT,
    LISTEN_COLL_OP,
    LISTEN_COLL_SENT,
    LISTEN_COLL_RECV,
    LISTEN_COLL_CID,
    LISTEN_COLL_SEQ,
    LISTEN_COLL_RANK,
    LISTEN_COLL_SIZE,
    LISTEN_COLL_FLAGS,
    LISTEN_COLL_FIELDS
};

/** Element indexes of a one-sided call's fields (a synchronisation call
 *  has no bytes nor op: those stay -1). */
enum {
    LISTEN_RMA_WIN,
    LISTEN_RMA_KIND,
    LISTEN_RMA_TARGET,
    LISTEN_RMA_PEER,
    LISTEN_RMA_SENT,
    LISTEN_RMA_RECV,
    LISTEN_RMA_OP,
    LISTEN_RMA_LOCK,
    LISTEN_RMA_FIELDS
};

typedef struct listen_type {
    uint32_t id;  /**< dense, 0.. */
    char *name;   /**< event name */
    char *source; /**< source name */
    uint16_t num_elements;
    uint16_t payload_size;
    mca_common_evt_wire_element_t *elements; /**< names owned here */
    bool selected;                           /**< passes --events */
    listen_p2p_kind_t p2p;                   /**< a completion with the fields below */
    /** Element indexes of the p2p fields (valid when p2p is SEND or RECV;
     *  start and complete also when it is COLL). */
    int p2p_comm, p2p_bytes, p2p_start, p2p_complete, p2p_peer, p2p_tag;
    /** Element index of a p2p completion's "mode" (0 blocking, 1
     *  nonblocking, 2 persistent), -1 when its type has none. */
    int p2p_mode;
    /** Element indexes of the collective's fields (p2p == COLL). */
    int coll[LISTEN_COLL_FIELDS];
    /** Element indexes of a one-sided call's fields (p2p == RMA_*). */
    int rma[LISTEN_RMA_FIELDS];
    void *sink_data[4]; /**< per-sink cache (escaped names ...) */
} listen_type_t;

/* ------------------------------------------------------------------------
 * Processes (nspace, rank)
 * ------------------------------------------------------------------------ */

/** Reference clock pair of one source of a process (time mapping). */
typedef struct listen_clock {
    char *name; /**< source name */
    uint64_t ticks_per_second;
    int64_t ref_ticks;            /**< source ticks ... */
    int64_t ref_realtime_ns;      /**< ... sampled with this CLOCK_REALTIME */
    uint64_t ref_seq;             /**< the batch the pair comes from (lowest seq) */
    int64_t min_ticks, max_ticks; /**< range of the records seen */
    bool any;                     /**< a record was seen */
    /** the ticks are the host's CLOCK_MONOTONIC (all batches said so):
     *  listen_registry_finish() gives every such clock of a host one pair */
    bool host_clock;
} listen_clock_t;

typedef struct listen_proc {
    uint32_t id;  /**< dense, 0..: index in listen_registry_t::procs (listen_procs_settle) */
    uint32_t job; /**< index in listen_registry_t::jobs (listen_procs_settle) */
    char nspace[MCA_COMMON_EVT_WIRE_NSPACE_MAX + 1];
    uint32_t rank;
    char host[MCA_COMMON_EVT_WIRE_HOST_MAX + 1];
    uint32_t pid;
    mca_common_evt_seqset_t seen;    /**< batches read (pass 1) */
    mca_common_evt_seqset_t emitted; /**< batches merged (pass 2) */
    uint64_t batches, duplicates, records;
    /** batches that found no room where they were recorded (a node sink,
     *  --attach): only their drop counts are in the file
     *  (MCA_COMMON_EVT_WIRE_FLAG_NOT_STORED) */
    uint64_t not_stored;
    bool final_seen;
    uint64_t final_seq;
    bool host_changed; /**< batches of this proc came with another host */
    listen_clock_t *clocks;
    size_t num_clocks;
    mca_common_evt_wire_offset_t *offsets; /**< sorted by local_realtime_ns, unique */
    size_t num_offsets;
    /** the offset applied at each sample (listen_time_settle()): the sample's
     *  own, or, where it agrees within the uncertainties with what more
     *  certain samples say, theirs; NULL: the samples' own */
    int64_t *applied_offsets;
    uint64_t *drops;  /**< per type id (num_types_alloc entries) */
    uint64_t *counts; /**< events emitted per type id (pass 2, after --events) */
    size_t types_alloc;
    int64_t world_size; /**< the job size it reported (initialization event, recording
                             header); 0 unknown */
    bool window_cut;    /**< its recording lost its oldest records or some types */
    /** Its sends (receives) as read miss some: a batch lost or not read, drops, a window
     *  cut. Order then no longer identifies a message: not paired. */
    bool sends_partial, recvs_partial;
} listen_proc_t;

/** An integer element's value as int64 (unsigned values reinterpreted);
 *  doubles truncated, bools 0/1. */
static inline int64_t listen_value_i64(const mca_common_evt_wire_value_t *v)
{
    switch (v->type) {
    case MCA_COMMON_EVT_WIRE_ELEM_INT32:
    case MCA_COMMON_EVT_WIRE_ELEM_INT64:
        return v->v.i;
    case MCA_COMMON_EVT_WIRE_ELEM_UINT32:
    case MCA_COMMON_EVT_WIRE_ELEM_UINT64:
        return (int64_t) v->v.u;
    case MCA_COMMON_EVT_WIRE_ELEM_DOUBLE:
        if (!(v->v.d == v->v.d)) {
            return 0; /* NaN */
        }
        return v->v.d > 9.2e18 ? INT64_MAX : v->v.d < -9.2e18 ? INT64_MIN : (int64_t) v->v.d;
    default:
        return v->v.b ? 1 : 0;
    }
}

/* ------------------------------------------------------------------------
 * Filtering
 * ------------------------------------------------------------------------ */

/** --events: "PAT,PAT,^PAT" (glob '*'), the rule of evt_pmix_events
 *  (ompi/mca/common/evt/common_evt_name_filter.h). NULL/"" selects everything.
 *  @retval 0, -1 (bad pattern list, message in err) */
typedef struct listen_filter {
    mca_common_evt_name_filter_t names;
} listen_filter_t;
int listen_filter_parse(listen_filter_t *f, const char *spec, char *err, size_t errlen);
bool listen_filter_match(const listen_filter_t *f, const char *name);
void listen_filter_free(listen_filter_t *f);

/* ------------------------------------------------------------------------
 * The registry (pass 1)
 * ------------------------------------------------------------------------ */

/** A job (namespace) and the ranks it started, as far as the recording tells. */
typedef struct listen_job {
    const char *nspace; /**< of its first process */
    uint32_t size;      /**< ranks 0..size-1: the reported job size, or the highest rank + 1 */
    uint32_t reported;  /**< processes with at least one batch */
    size_t first;       /**< index of its first process in listen_registry_t::procs */
    /** Its ranks are few enough to be listed one by one (a damaged rank
     *  number can make size huge): else only those that reported are. */
    bool listable;
} listen_job_t;

typedef struct listen_registry {
    listen_type_t **types;
    size_t num_types, cap_types;
    listen_proc_t **procs;
    size_t num_procs, cap_procs;
    void *type_index; /**< name -> type chains (private) */
    /* job timeline, after listen_registry_finish() */
    int64_t t_min, t_max;          /**< first and last event (job ns); t_min > t_max: none */
    const char *only_nspace;       /**< --nspace: other batches ignored */
    const listen_filter_t *filter; /**< --events: sets listen_type_t::selected */
    uint64_t ignored_batches;      /**< of other namespaces */
    /** Set by pass 2: nothing is added any more (a batch that would add a
     *  process or a type is skipped, see listen_merge_stats_t::unseen), so
     *  that what a second thread's sinks read stays as pass 1 left it. */
    bool frozen;
    listen_job_t *jobs;            /**< after listen_procs_settle(), in nspace order */
    size_t num_jobs;
} listen_registry_t;

void listen_registry_init(listen_registry_t *reg);
void listen_registry_fini(listen_registry_t *reg);

/** The types of a decoded batch, mapped to interned types: map[i] for
 *  batch-local type i. @retval 0, 1 a type pass 1 did not see while the
 *  registry is frozen (nothing added), or -1 on allocation failure. */
int listen_registry_map_types(listen_registry_t *reg, const mca_common_evt_wire_batch_t *b,
                              listen_type_t **map);
/** End of pass 1: every process's per-type arrays (counts, drops) reach
 *  every type pass 1 saw, so that pass 2 may count any event of a known
 *  process and type; then nothing is added any more (frozen).
 *  @retval -1 allocation failure (the registry is left unfrozen). */
int listen_registry_freeze(listen_registry_t *reg);
/** Find or add the process that sent @p b (frozen: find only). NULL on
 *  allocation failure, or when frozen and pass 1 did not see it. */
listen_proc_t *listen_registry_proc(listen_registry_t *reg, const mca_common_evt_wire_batch_t *b);
/** Pass 1: account one decoded batch (seq, final, drops, clock pairs,
 *  offsets, tick ranges). Returns false when the batch is ignored (other
 *  namespace). @retval -1 allocation failure. */
int listen_registry_scan(listen_registry_t *reg, const mca_common_evt_wire_batch_t *b);
/** After pass 1: fix the time span (needs the time map). */
void listen_registry_finish(listen_registry_t *reg);
/** The process's clock entry named @p name, or NULL. */
listen_clock_t *listen_proc_clock(listen_proc_t *p, const char *name);

/* ------------------------------------------------------------------------
 * The processes in (namespace, rank) order (evt_listen_procs.c)
 * ------------------------------------------------------------------------ */

/** Pass 1, per batch: what a batch tells about its process beyond its
 *  accounting (the job size; a recording that lost records). */
struct listen_file;
void listen_procs_note(listen_registry_t *reg, const mca_common_evt_wire_batch_t *b,
                       const struct listen_file *file);
/** After pass 1: order reg->procs by (namespace, rank) and number them so
 *  (every output lists them in that order, whatever order the batches came
 *  in), find the jobs and their sizes, and which processes' sends and
 *  receives can be paired by order. @retval 0, -1 out of memory */
int listen_procs_settle(listen_registry_t *reg);
/** The process (nspace, rank), or NULL (never reported). */
const listen_proc_t *listen_procs_find(const listen_registry_t *reg, const char *nspace,
                                       int64_t rank);
/** Step through the ranks of @p j in order: @p *r the next rank to show
 *  (start at 0), @p *i the next process index (start at j->first).
 *  @retval false past the last; else *p is the rank's process, or NULL
 *  when it never reported (ranks of a job that is not listable are
 *  skipped to the next that reported). */
bool listen_procs_step(const listen_registry_t *reg, const listen_job_t *j, int64_t *r, size_t *i,
                       const listen_proc_t **p);
/** The job of @p nspace, or NULL. */
const listen_job_t *listen_procs_job(const listen_registry_t *reg, const char *nspace);
/** Whether the sends of @p me to rank @p peer of its job (@p me_sends),
 *  or those of @p peer to @p me, and the receives matching them can be
 *  paired by order: MPI's non-overtaking rule makes the n-th send of
 *  (src, dst, tag) match the n-th receive only when both sides were read
 *  from their beginning without a hole (the events carry no message
 *  sequence number to align them otherwise). */
bool listen_procs_pairable(const listen_registry_t *reg, const listen_proc_t *me, int64_t peer,
                           bool me_sends);

/* ------------------------------------------------------------------------
 * Time mapping: the one place where ticks become job timeline ns
 * ------------------------------------------------------------------------ */

/**
 * Job timeline nanoseconds of @p ticks of source @p clock of process @p p:
 *   realtime = ref_realtime + (ticks - ref_ticks) * 1e9 / ticks_per_second
 *   job      = realtime + offset(realtime)
 * where offset() interpolates the offsets applied at the process's samples
 * linearly (held constant before the first and after the last; 0 without
 * samples; listen_time_settle()). The
 * reference pair is the one of the process's lowest-numbered batch, so all
 * events of a process use the same pair (its order is kept exactly).
 */
int64_t listen_time_map(const listen_proc_t *p, const listen_clock_t *clock, int64_t ticks);
/** Fix the offsets applied at @p p's samples (p->applied_offsets), once
 *  every sample is known: a sample that agrees, within its uncertainty and
 *  theirs, with what the more certain samples say at its time adds only
 *  its noise (a measurement under load: a long round trip) and takes their
 *  value; one that does not is a real change (drift) and is applied as
 *  measured. @retval -1 out of memory (the samples' own are applied). */
int listen_time_settle(listen_proc_t *p);

/* ------------------------------------------------------------------------
 * Inputs
 * ------------------------------------------------------------------------ */

typedef struct listen_file {
    char *path;
    char host[MCA_COMMON_EVT_WIRE_HOST_MAX + 1]; /**< from the node file header */
    uint64_t frames, invalid_batches, damaged, skipped_bytes;
    bool truncated, read_error;
    char *first_error;           /**< first problem met, or NULL */
    bool flight;                 /**< an evt/file recording (*.oevt), not a node file */
    uint64_t flight_overwritten; /**< records the circular file overwrote (its capacity) */
    uint64_t flight_uncarried; /**< records whose type is not in the dictionary or cannot be carried
                                  (not listed) */
    int32_t flight_world_size; /**< the job size its header gives (<= 0: unknown) */
} listen_file_t;

typedef struct listen_inputs {
    listen_file_t *files;
    size_t num_files;
    bool all_owners; /**< read other users' files found in a folder too */
    char **skipped;  /**< "PATH: why", per file of a folder not read */
    size_t num_skipped;
} listen_inputs_t;

/** Resolve the command line's DIR|FILE arguments into node files. A file
 *  named is read if it is a regular file (not a FIFO, device or symbolic
 *  link). In a folder, only regular files of the caller (all_owners: of
 *  anyone) are read; a node file or recording that is someone else's, not
 *  a regular file, a symbolic link or unreadable is skipped and listed in
 *  skipped (a shared folder may hold anything).
 *  @retval 0, or -1 with a message in @p err (no such path, a foreign or
 *  unreadable file named, a folder without node files). */
int listen_inputs_add(listen_inputs_t *in, const char *arg, char *err, size_t errlen);
void listen_inputs_free(listen_inputs_t *in);

/** A batch read from a file, decoded, with its own copy of the bytes. */
typedef struct listen_batch {
    uint8_t *bytes;
    size_t len;
    mca_common_evt_wire_batch_t wire;
    listen_proc_t *proc;
    listen_type_t **types;   /**< batch-local type id -> interned type */
    listen_clock_t **clocks; /**< batch-local source id -> the process's clock */
    uint32_t file;
} listen_batch_t;

/** evt/file recordings as input (evt_listen_flight.c): the records of a
 *  flight-recorder file re-expressed as wire batches of its process. */
typedef struct listen_flight listen_flight_t;
/** The file starts with evt/file's magic. */
bool listen_flight_is_recording(const char *path);
/** Decode the whole file; sets the file's host and per-pass counters. */
listen_flight_t *listen_flight_open(listen_file_t *f, char *err, size_t errlen);
/** @retval 1 a batch (caller owns it), 0 end, -1 out of memory */
int listen_flight_next(listen_flight_t *fl, listen_file_t *f, listen_batch_t **out);
void listen_flight_close(listen_flight_t *fl);

/** Sequential reading of one file: each call yields the next valid batch
 *  (invalid ones are counted in the file's record and skipped). */
typedef struct listen_cursor listen_cursor_t;
listen_cursor_t *listen_cursor_open(listen_file_t *f, char *err, size_t errlen);
/** @retval 1 a batch (caller owns it: listen_batch_free), 0 end, -1 error */
int listen_cursor_next(listen_cursor_t *c, listen_batch_t **out);
void listen_cursor_close(listen_cursor_t *c);
void listen_batch_free(listen_batch_t *b);

/* ------------------------------------------------------------------------
 * Events handed to sinks, in time order
 * ------------------------------------------------------------------------ */

typedef struct listen_event {
    int64_t time_ns; /**< job timeline */
    const listen_proc_t *proc;
    const listen_type_t *type;
    const listen_clock_t *clock; /**< to map other tick values of the record */
    const mca_common_evt_wire_type_t *wire_type;
    const uint8_t *payload;
    int64_t ticks; /**< the record's own timestamp */
    uint8_t depth;
} listen_event_t;

typedef struct listen_sink {
    const char *name;
    void *ctx;
    /** Before the first event: the registry is complete (pass 1 done). */
    int (*begin)(void *ctx, const listen_registry_t *reg);
    int (*event)(void *ctx, const listen_event_t *ev);
    /** After the last event. */
    int (*end)(void *ctx, const listen_registry_t *reg);
    /** Lines for the summary about what this output made of the events
     *  (may be NULL). */
    void (*report)(void *ctx, FILE *f);
    void (*destroy)(void *ctx);
    /** Pass 2 calls this sink's event() on a second thread (begin() and
     *  end() on the merge's). Such a sink reads only its event's fields,
     *  the registry (frozen in pass 2) and its own state: never a
     *  process's counts or emitted set, which the merge writes meanwhile. */
    bool on_worker;
    /** Set by pass 2 when end() failed: this output was not written. */
    bool failed;
} listen_sink_t;

/** Merge statistics (pass 2). */
typedef struct listen_merge_stats {
    uint64_t events;       /**< handed to the sinks */
    uint64_t filtered;     /**< not selected by --events */
    uint64_t out_of_order; /**< older than an event already handed on */
    uint64_t forced;       /**< handed on because the window was full */
    uint64_t duplicate_batches;
    /** batches of a process, type or clock pass 1 did not see (a file that
     *  grew or changed between the passes): not written */
    uint64_t unseen;
    uint64_t peak_window; /**< most records held at once */
} listen_merge_stats_t;

typedef struct listen_merge_opts {
    int64_t window_ns;    /**< time window (job ns) */
    size_t window_events; /**< most records held */
} listen_merge_opts_t;

/** The outputs --format names (jsonl; perfetto or chrome; otf2; report). */
enum { LISTEN_FMT_JSONL = 1, LISTEN_FMT_PERFETTO = 2, LISTEN_FMT_OTF2 = 4, LISTEN_FMT_REPORT = 8 };
/** Parse a --format list ("jsonl,otf2") into LISTEN_FMT_* bits in @p fmt.
 *  @retval 0, -1 (an unknown or empty list: message in err) */
int listen_formats_parse(const char *s, int *fmt, char *err, size_t errlen);

/** Set (to the signal) by the listener's SIGINT/SIGTERM/SIGHUP handler:
 *  the merge stops at its next batch and fails, so the outputs'
 *  temporaries are removed (sinks' destroy) instead of left behind. An
 *  atomic (lock-free, so async-signal-safe): the handler may run on the
 *  output thread while the merge's thread reads it. */
extern atomic_int listen_stop_signal;

/** Pass 2: read every file again, merge by time, feed the sinks.
 *  @retval 0; 1 every event merged, but some sinks' end() failed (each
 *          marked failed, named in err; the others finished); -1 (I/O or
 *          allocation failure: message in err) */
int listen_merge_run(listen_inputs_t *in, listen_registry_t *reg, const listen_filter_t *filter,
                     const listen_merge_opts_t *opts, listen_sink_t *sinks, size_t num_sinks,
                     listen_merge_stats_t *stats, char *err, size_t errlen);

/** The sinks of pass 2 that run on a second thread (evt_listen_fanout.c).
 *  Context: the merge thread, for all of these. */
typedef struct listen_fanout listen_fanout_t;
/** Start the thread that runs @p sinks (their event() only) over the
 *  events handed to it, in the order handed. @retval NULL (message in err) */
listen_fanout_t *listen_fanout_start(listen_sink_t *sinks, size_t num_sinks, char *err,
                                     size_t errlen);
/** Hand one event on (copied; its pointers must stay valid: see
 *  listen_fanout_release). May wait while the thread is several blocks
 *  behind. @retval 0, -1 a sink of the thread failed */
int listen_fanout_event(listen_fanout_t *f, const listen_event_t *ev);
/** @p b's records have all been handed on: it is the fanout's, freed once
 *  the thread has written them (at once when a sink of the thread has
 *  failed: it writes nothing more). May wait as listen_fanout_event(). */
void listen_fanout_release(listen_fanout_t *f, listen_batch_t *b);
/** Hand on what is left and wait until the thread has written it and
 *  ended. @retval 0, -1 a sink of the thread failed */
int listen_fanout_finish(listen_fanout_t *f);
/** Stop the thread if it still runs (the blocks it has not written yet,
 *  handed over or not, are dropped), free every batch it holds, and
 *  @p f. NULL is allowed. */
void listen_fanout_free(listen_fanout_t *f);

/** Pass 1 over every file. @retval 0, -1 (message in err). */
int listen_scan_run(listen_inputs_t *in, listen_registry_t *reg, const listen_filter_t *filter,
                    char *err, size_t errlen);

/* ------------------------------------------------------------------------
 * Sinks
 * ------------------------------------------------------------------------ */

/** Output files are written as NAME.tmp.PID (O_EXCL|O_NOFOLLOW, 0600) and
 *  renamed when complete. */
FILE *listen_out_open(const char *dir, const char *name, char **tmp_path, char *err, size_t errlen);
int listen_out_commit(FILE *f, const char *tmp_path, const char *dir, const char *name, char *err,
                      size_t errlen);

/** Make the folder @p dir and everything below it private: folders 0700,
 *  files 0600, whatever the umask and a library (OTF2) made them; symbolic
 *  links are neither followed nor changed. @retval 0, -1 (some entry could
 *  not be changed) */
int listen_out_private_tree(const char *dir);

/** A text output file (events.jsonl, trace.json) written through stdio
 *  before the first event and after the last, and in between through a
 *  buffer of our own that the writer composes text in and that goes to the
 *  file in large pieces. */
typedef struct listen_outbuf {
    FILE *f;   /**< the temporary file; NULL once committed */
    char *tmp; /**< its path */
    char *dir;
    const char *name; /**< the final name in dir (a literal) */
    char *buf;        /**< LISTEN_OUTBUF_BYTES */
    size_t used;
} listen_outbuf_t;

#define LISTEN_OUTBUF_BYTES (4 * 1024 * 1024)
/** The most one event may append between two listen_outbuf_room() calls. */
#define LISTEN_OUTBUF_EVENT_MAX (160 * 1024)

/** A writer's context of @p size zeroed bytes that begins with a
 *  listen_outbuf_t, opened on DIR/.NAME.tmp.PID (listen_out_open).
 *  Free it with listen_outbuf_close() and free().
 *  @retval the context, NULL (message in err) */
void *listen_outbuf_new(size_t size, const char *dir, const char *name, char *err, size_t errlen);
/** Make room for one event: write the buffer out when less than
 *  LISTEN_OUTBUF_EVENT_MAX is left. @retval 0, -1 write error */
int listen_outbuf_room(listen_outbuf_t *o);
/** Write the buffer to the file, bypassing stdio (whose buffer must be
 *  empty: fflush before the first event). @retval 0, -1 write error */
int listen_outbuf_flush(listen_outbuf_t *o);
/** Close the file and rename it DIR/NAME (a failure is printed).
 *  The buffer must have been flushed. @retval 0, -1 */
int listen_outbuf_commit(listen_outbuf_t *o);
/** Remove the temporary file if not committed, free everything. */
void listen_outbuf_close(listen_outbuf_t *o);

/** A sink's cache per dense id (type or process id): v[id] is what was
 *  made for id, or NULL (not yet, or v too short: id >= n). */
typedef struct listen_slots {
    void **v;
    size_t n;
} listen_slots_t;
/** What is cached for @p id: made by make(ctx, key) the first time (the
 *  table grows to hold it). NULL when that fails (tried again next time). */
void *listen_slot_get(listen_slots_t *t, size_t id, void *(*make)(void *ctx, const void *key),
                      void *ctx, const void *key);
/** Free every cached object with @p free_entry, then the table. */
void listen_slots_free(listen_slots_t *t, void (*free_entry)(void *));

/* ------------------------------------------------------------------------
 * Receives seen before their send (evt_listen_owed.c), for a writer that
 * must hold the sender's records until the send comes. Context: the
 * thread of the sink using it.
 * ------------------------------------------------------------------------ */

typedef struct listen_owed listen_owed_t;
/** listen_owed_seen(): this receive's send is still to come */
#define LISTEN_OWED_OWES 1
/** listen_owed_seen(): this send was owed to a receive seen before it */
#define LISTEN_OWED_PAID 2
/** @retval an empty table holding at most @p max_keys unbalanced keys
 *  (beyond, a new key is not followed: listen_owed_seen() answers 0 and
 *  counts it), NULL when no memory */
listen_owed_t *listen_owed_new(size_t max_keys);
/** A send (@p send) or receive of the message from @p sender to
 *  @p receiver with @p tag was seen, in order of completion.
 *  @retval LISTEN_OWED_OWES, LISTEN_OWED_PAID, 0 (neither), -1 no memory */
int listen_owed_seen(listen_owed_t *t, uint64_t sender, uint64_t receiver, int64_t tag, bool send);
/** Keys whose receives and sends do not balance (each owes or is owed). */
size_t listen_owed_keys(const listen_owed_t *t);
/** Sends and receives not followed, the table being full. */
uint64_t listen_owed_unfollowed(const listen_owed_t *t);
void listen_owed_free(listen_owed_t *t);

/* ------------------------------------------------------------------------
 * Time order and nesting per location, for a format that wants both
 * (evt_listen_nest.c). Context: the thread of the sink using it.
 * ------------------------------------------------------------------------ */

/** Which part of a region the open callback writes. */
typedef enum {
    LISTEN_NEST_WHOLE, /**< its region opens: the region's records and its start's */
    LISTEN_NEST_START, /**< a region split (it overlaps another): its start's records alone */
    LISTEN_NEST_AT_END /**< the split region's own records, opening at its end */
} listen_nest_part_t;

/** What a location's records are made of: a region from t0 to t1 (its
 *  opening records at t0, its closing ones at t1), or a point at t0. A
 *  caller's item begins with this and is malloc'ed; the buffer frees it. */
typedef struct listen_nest_item {
    uint64_t t0, t1;
    bool point;
    bool moved;   /**< set by the buffer: counted as moved once */
    bool early;   /**< set by the buffer: counted as written early once */
    uint8_t part; /**< set by the buffer: listen_nest_part_t, for the open callback */
    uint64_t seq; /**< set by the buffer: order of adding */
} listen_nest_item_t;

/** Write the opening records of @p it at @p ts: a point's only ones, or
 *  what it->part says. @retval 0, -1 stops everything */
typedef int (*listen_nest_open_fn)(void *ctx, size_t loc, listen_nest_item_t *it, uint64_t ts);
/** Write the closing records of region @p it at @p ts. @retval 0, -1 */
typedef int (*listen_nest_close_fn)(void *ctx, size_t loc, listen_nest_item_t *it, uint64_t ts);

typedef struct listen_nest_stats {
    uint64_t late;       /**< opened after later records already written: moved up to them */
    uint64_t overlapped; /**< would have ended outside an open region (or nested too deep):
                              split, its region written at its end */
    uint64_t early;      /**< written before the horizon passed, the location being full */
} listen_nest_stats_t;

/** Fewest items a location may hold, however many locations share. */
#define LISTEN_NEST_MIN_ITEMS 512
/** Most regions open at once in a location (deeper ones are split). */
#define LISTEN_NEST_MAX_DEPTH 64

typedef struct listen_nest listen_nest_t;
/** A buffer for @p num_locs locations holding at most @p max_items items
 *  in all (but LISTEN_NEST_MIN_ITEMS per location at least); an item is
 *  written when its location's stream is @p horizon_ns past its t0.
 *  @retval the buffer, NULL when no memory */
listen_nest_t *listen_nest_new(size_t num_locs, uint64_t horizon_ns, size_t max_items,
                               listen_nest_open_fn open, listen_nest_close_fn close, void *ctx);
/** Hand @p it (its t0, t1, point set) to location @p loc, whose stream
 *  has reached @p now, and write what is due. @p it is the buffer's even
 *  on failure. @retval 0, -1 (no memory, or a callback failed) */
int listen_nest_add(listen_nest_t *n, size_t loc, listen_nest_item_t *it, uint64_t now);
/** Location @p loc owes @p delta more records (negative: fewer) that
 *  may open before what it holds: another location's record says so (a
 *  receive whose send is still to come). While it owes any, its items
 *  wait past the horizon, up to its share, so that a record coming late
 *  is written at its time and not moved up after its partner. */
void listen_nest_await(listen_nest_t *n, size_t loc, int64_t delta);
/** Write everything left, closing every region. @retval 0, -1 */
int listen_nest_finish(listen_nest_t *n);
const listen_nest_stats_t *listen_nest_stats(const listen_nest_t *n);
/** Free the buffer and the items it still holds (nothing is written). */
void listen_nest_free(listen_nest_t *n);

/** Fill in @p sink (begin and report may be NULL; see listen_sink_t). */
void listen_sink_set(listen_sink_t *sink, const char *name, void *ctx,
                     int (*begin)(void *, const listen_registry_t *),
                     int (*event)(void *, const listen_event_t *),
                     int (*end)(void *, const listen_registry_t *), void (*report)(void *, FILE *),
                     void (*destroy)(void *));

int listen_sink_jsonl(listen_sink_t *s, const char *dir, char *err, size_t errlen);
int listen_sink_perfetto(listen_sink_t *s, const char *dir, char *err, size_t errlen);
int listen_sink_otf2(listen_sink_t *s, const char *dir, char *err, size_t errlen);
/** report.html and report.csv (evt_listen_report.c). */
int listen_sink_report(listen_sink_t *s, const char *dir, char *err, size_t errlen);

/** The summary sink counts events per type and process (proc->counts);
 *  listen_summary_write() writes summary.txt (and prints it) at the end. */
typedef struct listen_summary_info {
    const listen_inputs_t *inputs;
    const listen_merge_stats_t *merge;
    const listen_filter_t *filter;
    const char *outputs;  /**< which files were written, or NULL */
    listen_sink_t *sinks; /**< their reports go into the summary */
    size_t num_sinks;
} listen_summary_info_t;
int listen_summary_write(const listen_registry_t *reg, const listen_summary_info_t *info,
                         const char *dir, FILE *also, char *err, size_t errlen);

/* ------------------------------------------------------------------------
 * What the sinks read from an event
 * ------------------------------------------------------------------------ */

/** Size of the buffer listen_element_name() may use. */
#define LISTEN_ELEMENT_NAME_BUF 16
/** The name an element is shown under: its own, or "e<i>" when it has
 *  none (written into @p buf). */
const char *listen_element_name(const listen_type_t *t, uint16_t i,
                                char buf[LISTEN_ELEMENT_NAME_BUF]);

/** The fields of a point-to-point completion. */
typedef struct listen_p2p {
    int64_t start, end; /**< the request's start and completion (job ns) */
    int64_t peer, tag;
    uint64_t bytes;
    /** 0 a blocking call, 1 a nonblocking request, 2 a persistent one
     *  (0 when the type has no mode) */
    int64_t mode;
} listen_p2p_t;
/** Read the p2p fields of @p ev, whose type's p2p is not LISTEN_P2P_NONE
 *  (a collective or one-sided call: start and end; bytes its bytes sent;
 *  peer and tag 0). */
void listen_event_p2p(const listen_event_t *ev, listen_p2p_t *out);

/** The fields of a collective completion (ompi.mpi.coll_complete). */
typedef struct listen_coll {
    int64_t start, end; /**< the call's start and completion (job ns) */
    int64_t kind, root, op, cid, seq, comm_rank, comm_size, flags;
    uint64_t sent, recv;
} listen_coll_t;
/** Bit of listen_coll_t.flags: an intercommunicator. */
#define LISTEN_COLL_FLAG_INTER 1
/** Read the fields of @p ev, whose type's p2p is LISTEN_P2P_COLL. */
void listen_event_coll(const listen_event_t *ev, listen_coll_t *out);

/** The fields of a one-sided call (ompi.mpi.rma_op, ompi.mpi.rma_sync). */
typedef struct listen_rma {
    int64_t start, end; /**< the call's entry and return (job ns) */
    uint64_t win;       /**< the window handle (per process) */
    int64_t kind, target, peer, op, lock_type;
    uint64_t sent, recv; /**< 0 for a synchronisation call */
} listen_rma_t;
/** Read the fields of @p ev, whose type's p2p is LISTEN_P2P_RMA_OP or
 *  LISTEN_P2P_RMA_SYNC. */
void listen_event_rma(const listen_event_t *ev, listen_rma_t *out);
/** The MPI call of an rma_op (rma_sync) kind ("MPI_Put", ...), or NULL
 *  for a kind this reader does not know. */
const char *listen_rma_op_name(int64_t kind);
const char *listen_rma_sync_name(int64_t kind);
#define LISTEN_RMA_OP_KINDS   10
#define LISTEN_RMA_SYNC_KINDS 15

/* ------------------------------------------------------------------------
 * Following a sink folder while the job writes it (evt_listen_follow.c)
 * ------------------------------------------------------------------------ */

typedef struct listen_follow listen_follow_t;
/** Follow the node files of @p dir (it may not exist yet); the job is
 *  over when @p ranks ranks sent their FINAL batch (0: as many as the
 *  ranks' initialization events say the jobs have). NULL: no memory. */
listen_follow_t *listen_follow_new(const char *dir, uint64_t ranks);
/** Read what was appended since the last call (new files too): never
 *  blocks, never counts an incomplete tail as damage. @retval 0, -1 (an
 *  I/O error or no memory) */
int listen_follow_poll(listen_follow_t *f);
/** Every expected rank sent its FINAL batch. */
bool listen_follow_done(const listen_follow_t *f);
/** Events read so far. */
uint64_t listen_follow_events(const listen_follow_t *f);
/** Show the counts: on a terminal (@p tty) a screen redrawn in place, like
 *  top; otherwise one plain line. Rates are over the time since the last
 *  view. */
void listen_follow_view(listen_follow_t *f, FILE *out, bool tty);
void listen_follow_free(listen_follow_t *f);

/* ------------------------------------------------------------------------
 * Pairing sends with receives (evt_listen_match.c)
 * ------------------------------------------------------------------------ */

/** Sends or receives waiting for their partner, at most (then paired
 *  with the oldest partner waiting, or not paired: both counted). */
#define LISTEN_MATCH_MAX_PENDING (1u << 20)
/** How long after a message started the stream must be before it is
 *  paired: a message of the same pair started earlier but not yet come
 *  would have been open that long (job ns). */
#define LISTEN_MATCH_HORIZON_NS INT64_C(10000000)

/** One send or receive, as the pairing carries it to its caller. */
typedef struct listen_msg {
    int64_t ts;           /**< the caller's point in time (job ns) */
    int64_t start, end;   /**< the request's start and completion (job ns) */
    int64_t rank;         /**< its world rank */
    uint64_t uncertainty; /**< the most uncertain of its rank's clock offsets (ns) */
    uint64_t bytes;
    uint32_t pid, tid; /**< the caller's */
} listen_msg_t;

/** A send and its receive were paired. @retval 0, -1 stops the pairing
 *  (listen_match_add or listen_match_finish fails) */
typedef int (*listen_match_pair_fn)(void *ctx, const listen_msg_t *send, const listen_msg_t *recv);

struct listen_match_queue;
struct listen_match_wait;
/** A slot of the pairing's table: a queue and its key's hash (NULL: empty). */
typedef struct listen_match_slot {
    uint64_t hash;
    struct listen_match_queue *q;
} listen_match_slot_t;
typedef struct listen_match {
    listen_match_pair_fn pair;
    void *ctx;
    listen_match_slot_t *slots; /**< open addressing, at most half full */
    size_t qcap, qn;            /**< slots, queues in the table */
    uint64_t pending;           /**< waiting now */
    uint64_t paired;            /**< pairs handed to pair() */
    uint64_t unpaired;          /**< not paired: beyond LISTEN_MATCH_MAX_PENDING */
    uint64_t mismatched;        /**< the partner in order had another byte count: not paired */
    uint64_t reordered; /**< messages that completed before one of their pair started earlier */
    uint64_t early;     /**< paired at once, LISTEN_MATCH_MAX_PENDING waiting */
    int64_t now;        /**< the stream's latest time */
    /** queues that came to have both sends and receives waiting, oldest
     *  first (a ring; a queue emptied since is skipped) */
    struct listen_match_queue **ready;
    size_t ready_head, ready_n, ready_cap;
    /** queues and waits no longer used, for the next ones */
    struct listen_match_queue *free_queues;
    struct listen_match_wait *free_waits;
} listen_match_t;

/** An empty pairing that hands its pairs to @p pair(@p ctx, ...). */
void listen_match_init(listen_match_t *m, listen_match_pair_fn pair, void *ctx);
/**
 * A send (@p is_send) from @p src to @p dst with @p tag in namespace
 * number @p ns, or a receive, handed on when the stream (the merge's
 * time order, not a field of the record: one wrong clock must not make
 * every pair due) reached @p now: waits with those of its pair in order
 * of their start; the oldest send and receive of a pair are paired
 * (pair() called, or counted mismatched when the byte counts differ) once
 * the stream is LISTEN_MATCH_HORIZON_NS past their starts. @retval 0, -1
 * no memory or pair() failed.
 */
int listen_match_add(listen_match_t *m, uint32_t ns, int64_t src, int64_t dst, int64_t tag,
                     bool is_send, const listen_msg_t *me, int64_t now);
/** After the last message: pair every pair's waiting sends and receives
 *  in order (what is left is unpaired). @retval 0, -1 pair() failed */
int listen_match_finish(listen_match_t *m);
/** Free what still waits. */
void listen_match_fini(listen_match_t *m);

/** Index of sink_data[] slots in listen_type_t. */
enum { LISTEN_SLOT_JSONL = 0, LISTEN_SLOT_PERFETTO = 1, LISTEN_SLOT_OTF2 = 2 };

/** JSON text of @p s as json-c writes it (quoted, escaped); malloc'ed. */
char *listen_json_string(const char *s);
/** Write the JSON text of a wire value into @p out (cap >=
 *  LISTEN_JSON_VALUE_MAX; not NUL-terminated) and return its length:
 *  integers exactly, doubles as json-c writes them (non-finite ones as the
 *  strings "nan", "inf", "-inf"), booleans as true/false. */
#define LISTEN_JSON_VALUE_MAX 48
size_t listen_json_value(char *out, size_t cap, const mca_common_evt_wire_value_t *v);

/** A type's names as JSON text, made once per type by the JSON writers. */
typedef struct listen_json_type {
    char *name;   /**< JSON string of the event name */
    char *source; /**< JSON string of the source name */
    size_t name_len, source_len;
    /** Per element, its key: its name as a JSON string and ':'. An
     *  element without a name has a NULL key, or with @p name_all the key
     *  of listen_element_name() ("e<i>"). */
    char **keys;
    size_t *key_len;
    uint16_t n;
} listen_json_type_t;
/** NULL on allocation failure. */
listen_json_type_t *listen_json_type_make(const listen_type_t *t, bool name_all);
/** Free a listen_json_type_t (NULL is fine). */
void listen_json_type_free(void *jt);

#endif /* EVT_LISTEN_H */
