/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Reading evt/file's flight-recorder files (format:
 * common_evt_flight_format.h). One decoder (common_evt_flight_read.c, which
 * opens files through common_evt_input_open.c and decodes the dictionary's
 * entries with the wire decoder) that ompi-evt-file-read, ompi-evt-listen
 * and the tests use. This header is plain C (no Open MPI header), the
 * library holds no global state.
 *
 * Every file is untrusted: every length, count, offset and index is checked
 * before use, nothing is read outside the buffer, and damage never stops
 * the decode of what is valid: a damaged header gives no records (nothing
 * in the file can be located without it); a damaged dictionary entry ends
 * the dictionary (the records of events described before it keep their
 * names, the others are returned with their index and raw bytes); a damaged
 * record ends its ring (the records before it are returned). Every such
 * finding is a line in problems[]. Host and job are made printable ASCII
 * (other bytes become '?'): they end up in JSON and on terminals; names
 * come from the wire decoder, which admits [A-Za-z0-9._-] only.
 *
 * Context: any thread; a decoded file is immutable (share it freely).
 */

#ifndef MCA_COMMON_EVT_FLIGHT_READ_H
#define MCA_COMMON_EVT_FLIGHT_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A clock source as recorded. */
typedef struct mca_common_evt_flight_source_t {
    int32_t index;
    char *name;
    uint32_t ordering; /**< 0 ordered, 1 unordered */
    int64_t ticks_per_second;
    int64_t max_ticks;
    int64_t sample_ticks; /**< with sample_realtime_ns: one clock pair */
    int64_t sample_realtime_ns;
    /** the ticks are the recording host's CLOCK_MONOTONIC, which every
     *  process of that host reads alike */
    bool host_clock;
} mca_common_evt_flight_source_t;

/** An element of an event's payload. */
typedef struct mca_common_evt_flight_element_t {
    uint32_t type; /**< MCA_COMMON_EVT_FLIGHT_TYPE_* (the wire's element codes) */
    uint32_t offset;
    char *name; /**< "" when the engine had none */
} mca_common_evt_flight_element_t;

/** An event type as recorded. */
typedef struct mca_common_evt_flight_event_t {
    int32_t index;
    char *name;
    const mca_common_evt_flight_source_t *source; /**< NULL: its source is not in the dictionary */
    int32_t source_index;
    uint32_t extent;
    uint32_t flags;
    int32_t bind;
    uint32_t num_elements;
    mca_common_evt_flight_element_t *elements;
} mca_common_evt_flight_event_t;

/** A record. */
typedef struct mca_common_evt_flight_record_t {
    const mca_common_evt_flight_event_t *event; /**< NULL: not in the dictionary */
    uint32_t event_index;
    uint32_t ring;
    uint16_t depth;
    uint16_t flags;
    uint64_t obj;
    int64_t timestamp;            /**< in the source's ticks */
    bool has_time;                /**< time_ns is known (the source's clock pair) */
    int64_t time_ns;              /**< CLOCK_REALTIME ns, from the clock pair */
    const unsigned char *payload; /**< payload_len bytes (the event's extent) */
    uint32_t payload_len;
} mca_common_evt_flight_record_t;

/** A ring's account. */
typedef struct mca_common_evt_flight_ring_t {
    uint32_t records;     /**< returned */
    uint64_t overwritten; /**< records evicted to make room (newest kept) */
    bool damaged;         /**< a damaged record ended it */
} mca_common_evt_flight_ring_t;

/** A decoded file. */
typedef struct mca_common_evt_flight_file_t {
    bool header_valid;
    uint32_t version;
    int32_t rank, world_size;
    uint32_t pid;
    char host[65];
    char job[65];
    int64_t created_ns, closed_ns;
    bool closed; /**< the writer finalized cleanly */
    uint32_t ring_count, ring_capacity;
    uint64_t file_size; /**< as the header says */
    size_t nsources, nevents;
    mca_common_evt_flight_source_t *sources;
    mca_common_evt_flight_event_t *events;
    size_t nrecords;
    mca_common_evt_flight_record_t *records; /**< all rings merged by time, oldest first
                                               (ring order when memory ran out: a
                                               problem says so) */
    mca_common_evt_flight_ring_t *rings;     /**< ring_count entries (when header_valid) */
    uint64_t overwritten;                    /**< sum over the rings */
    uint64_t dict_refused;                   /**< event types recorded without a dictionary entry */
    size_t ndrops;
    struct {
        uint32_t event_index;
        uint64_t count;
    } * drops; /**< export drops the writer learnt of, per event */
    uint64_t drops_other;
    size_t nproblems;
    char **problems;    /**< what was found damaged (empty: all valid) */
    unsigned char *buf; /**< the bytes: a private copy, or the file mapped */
    size_t len;
    bool mapped; /**< buf is a mapping of the file (read-only) */
} mca_common_evt_flight_file_t;

/**
 * Decode the @p len bytes at @p buf (copied: the caller keeps its buffer).
 * @retval 0  *out set (check header_valid and problems)
 * @retval -1 out of memory (errno ENOMEM) or bad arguments (EINVAL)
 */
int mca_common_evt_flight_decode(const void *buf, size_t len, mca_common_evt_flight_file_t **out);

/** Read @p path and decode it (common_evt_input_open.h: a FIFO, a symbolic link
 *  or any other non-regular file is refused with EINVAL, never waited on).
 *  @retval 0, or -1 with errno (cannot read). */
int mca_common_evt_flight_open(const char *path, mca_common_evt_flight_file_t **out);

/** Decode the regular file open on @p fd (which stays the caller's). The
 *  file is mapped read-only, not read: memory follows the parts the header
 *  locates (dictionary, drop counters, the live part of each ring), not
 *  the file's size, so a huge sparse file costs what it describes.
 *  @retval 0, or -1 with errno. */
int mca_common_evt_flight_open_fd(int fd, mca_common_evt_flight_file_t **out);

/** Decode the image at @p offset of the file open on @p fd: a file is a
 *  chain of images when one recording was written in parts (the spool of
 *  ompi-evt-record's shared-memory transport: each image holds the
 *  records copied since the one before, the last one the writer's end);
 *  a plain recording is one image at offset 0. @p next is set to where the
 *  following image starts (the file's size after the last one). Mapped
 *  when @p offset is a page boundary (the writer aligns its images),
 *  read otherwise. @retval 0, or -1 with errno. */
int mca_common_evt_flight_open_image(int fd, uint64_t offset, mca_common_evt_flight_file_t **out,
                                     uint64_t *next);

void mca_common_evt_flight_free(mca_common_evt_flight_file_t *file);

/** The event with @p index, or NULL. */
const mca_common_evt_flight_event_t *
mca_common_evt_flight_event(const mca_common_evt_flight_file_t *file, uint32_t index);

/** An element's value, widened. @retval false  @p i out of range */
typedef struct mca_common_evt_flight_value_t {
    uint32_t type;
    union {
        int64_t i;
        uint64_t u;
        double d;
        bool b;
    } v;
} mca_common_evt_flight_value_t;
bool mca_common_evt_flight_element(const mca_common_evt_flight_record_t *record, uint32_t i,
                                   mca_common_evt_flight_value_t *value);

/** Make @p s printable ASCII in place: control bytes and bytes >= 0x80
 *  become '?' (they would reach terminals, and need not be valid UTF-8,
 *  which JSON requires). What the decoder does to names, host and job. */
void mca_common_evt_flight_printable(char *s);

/** "int32", "uint64", ... ("unknown" for others). */
const char *mca_common_evt_flight_type_name(uint32_t type);

#ifdef __cplusplus
}
#endif

#endif /* MCA_COMMON_EVT_FLIGHT_READ_H */
