/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * ompi-evt-record's node-shared-memory transport: the consumer.
 *
 * The ranks record with evt/file into files of a private folder in shared
 * memory (/dev/shm): the raise is the kit's store into a mapped ring, and
 * nothing in a rank encodes or sends. A thread of the
 * recorder maps each file read-only as it appears (inotify reports its
 * name; a look at the folder every 20 ms finds it without), and writes what the
 * rings committed since its last look into the rank's spool in the output
 * folder: raw records, straight from the mapping (the kernel's copy into
 * the file is the only one), nothing decoded. A ring is copied when three
 * eighths of it wait (all but the newest eighth, whose lines are still in
 * the producing core's cache), and when its writer has finished: few large
 * copies cost the ranks less than many small ones. One look copies a
 * quarter of a ring at most, and comes back for the rest after the other
 * rings: a full ring's copy must not leave another to wrap. A spool is a chain of
 * evt/file images (common_evt_flight_format.h), each with the dictionary
 * known when it was written and rings holding the records copied since the
 * previous one; the listener reads the chain as one recording
 * (tools/listen/evt_listen_flight.c).
 *
 * The rings are evt/file's, in overwrite-oldest mode: a raise never waits
 * for the consumer. The consumer says how far it copied each ring and that
 * it is alive (common_evt_flight_format.h: the only words of a rank's file
 * it writes), and with evt_file_consumer_wait (the recorder sets it unless
 * --no-wait) a rank's progress calls wait while a ring is more than five
 * eighths behind the copy. Records the producer overwrote before the
 * consumer copied them (raised between two progress calls, or without the
 * wait) are lost, and counted exactly: when the writer has
 * finished (or died), every record it ever committed is either copied or
 * lost, and the ring's counters say how many it committed (evicted plus
 * those still in the ring). A copy that the producer overwrote while it
 * was being taken is recognised by the ring's oldest position, read again
 * after the copy (the producer moves it before it reuses the bytes): it is
 * then taken again through memory, and what was overwritten is cut off.
 *
 * Each file is unlinked once mapped: the shared memory goes back to the
 * system when the rank and the consumer have let go of it, even if either
 * dies.
 *
 * Context: TOOL (the recorder's main thread calls these; the consumer
 * thread is the spool's own).
 */

#ifndef EVT_RECORD_SPOOL_H
#define EVT_RECORD_SPOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct record_spool record_spool_t;

/** Ring capacity of a spool's images (at least; a power of two): an image
 *  closes when a ring's records would not fit in it. */
#define RECORD_SPOOL_IMAGE_BYTES (16u * 1024u * 1024u)

/**
 * Start the consumer thread: files appearing in @p live_dir are followed,
 * spools are created in @p out_dir (0600, never over an existing name).
 * @return the spool, or NULL with @p err set
 */
record_spool_t *record_spool_start(const char *live_dir, const char *out_dir, char *err,
                                   size_t errlen);

/** Records copied so far (any thread; a display). */
uint64_t record_spool_records(const record_spool_t *spool);

/**
 * After the job ended: take what is left in every file, write the last
 * images, stop the thread. Says on @p msgs (NULL: nothing) what was lost
 * and which ranks of a job left no file here, after the first failed
 * write, if any (a full disk: the spools are then incomplete, and one
 * whose image was under way holds no readable header).
 * @return 0 when every rank's records were all copied, 1 when some were
 *         lost or a rank is missing, -1 on an error writing the spools
 */
int record_spool_finish(record_spool_t *spool, FILE *msgs);

/** CPU seconds the consumer thread used, all of it (after
 *  record_spool_finish()): what the transport cost the host besides the
 *  ranks' raises. */
double record_spool_cpu(const record_spool_t *spool);

/** Spools written (after record_spool_finish()). */
int record_spool_count(const record_spool_t *spool);

/** Seconds the ranks' progress calls waited for the copy, all ranks
 *  together (after record_spool_finish()). */
double record_spool_waited(const record_spool_t *spool);

/** Free the spool (after record_spool_finish()). */
void record_spool_free(record_spool_t *spool);

#endif /* EVT_RECORD_SPOOL_H */
