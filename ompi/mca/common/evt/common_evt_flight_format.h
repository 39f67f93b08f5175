/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The on-disk format of evt/file's flight-recorder files, version 1: what
 * the writer (evt_file_module.c) lays out and the reader
 * (ompi/mca/common/evt/common_evt_flight_read.c) validates. Plain C99 and <stdint.h> only, so a
 * reader builds without Open MPI. The writer checks at compile time that
 * the kit's ring layout is the one described here.
 *
 * A file is one process's, fixed-size, mapped MAP_SHARED by the writer: what
 * the writer stored is in the kernel's page cache the moment it is stored,
 * so it survives kill -9 and crashes (not a machine crash: evt_file_sync).
 *
 *     offset 0      header (one page): identity, clock-free layout, the
 *                   counters the writer updates (dictionary use, state)
 *     dict_offset   dictionary: append-only entries (sources, event types)
 *     drops_offset  u64 per event index: export drops the writer learnt of
 *     rings_offset  ring i at rings_offset + i * ring_stride:
 *                     +0     the kit's ring control block (positions)
 *                     +4096  ring_capacity data bytes
 *
 * Commit protocol (why a record is wholly there or not at all): the writer
 * writes a record's bytes beyond tail, then stores tail (release); a reader
 * takes only what lies between oldest and tail. Evicting moves oldest
 * (release) before the bytes are reused, so nothing between oldest and
 * tail is ever half overwritten. A dictionary entry is written beyond
 * dict_used, then dict_used is stored (release); each entry has a checksum
 * too, so random damage is found.
 *
 * Ring records (the kit's): an 8-byte header {u32 size, u32 kind}, then for
 * kind MCA_COMMON_EVT_FLIGHT_KIND_RECORD a 32-byte record {u32 event, u16 depth,
 * u16 flags, u64 obj, i64 timestamp, u64 epoch} and the event's payload
 * (extent bytes), the whole rounded up to 8. Kind MCA_COMMON_EVT_FLIGHT_KIND_SKIP
 * pads to the end of the data bytes. Positions are free-running u32 byte
 * counters (offset = position mod capacity).
 *
 * Evicted count: ctl.evicted counts the records evicted, ctl.evict_mark is
 * (evicted mod 2^32) << 32 | the oldest it goes with; the writer stores
 * evicted, evict_mark, oldest in that order. A reader: if the mark's
 * position differs from oldest, the writer died after the mark: use the
 * mark's position as oldest (those records were being evicted); if the
 * mark's count differs from evicted's low 32 bits, it died after evicted:
 * the count that goes with oldest is evicted minus the difference.
 *
 * All integers are in the writer's byte order; the header says which
 * (endian), and a reader refuses the other one.
 */

#ifndef MCA_COMMON_EVT_FLIGHT_FORMAT_H
#define MCA_COMMON_EVT_FLIGHT_FORMAT_H

#include <stddef.h>
#include <stdint.h>

/** First 8 bytes of every file. */
#define MCA_COMMON_EVT_FLIGHT_MAGIC "OEVTREC1"
/** This format. */
#define MCA_COMMON_EVT_FLIGHT_VERSION 1
/** Written as a u32: reads back as this in the writer's byte order. */
#define MCA_COMMON_EVT_FLIGHT_ENDIAN 0x01020304u
/** Header bytes (a page: the mutable part shares no page with records). */
#define MCA_COMMON_EVT_FLIGHT_HEADER_SIZE 4096
/** Bytes from the start of a ring slot to its data. */
#define MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE 4096
/** File name suffix. */
#define MCA_COMMON_EVT_FLIGHT_SUFFIX ".oevt"

/** Ring record kinds (the kit's). */
#define MCA_COMMON_EVT_FLIGHT_KIND_SKIP   0
#define MCA_COMMON_EVT_FLIGHT_KIND_RECORD 1
/** Ring record header and captured-record sizes (the kit's). */
#define MCA_COMMON_EVT_FLIGHT_RING_HDR_SIZE 8
#define MCA_COMMON_EVT_FLIGHT_REC_SIZE      32
#define MCA_COMMON_EVT_FLIGHT_ALIGN         8
/** Largest payload (the engine's MCA_BASE_EVENT_MAX_PAYLOAD). */
#define MCA_COMMON_EVT_FLIGHT_MAX_PAYLOAD 256

/** Writer states (header state). */
enum {
    MCA_COMMON_EVT_FLIGHT_STATE_OPEN = 1,   /**< written to; the process may be dead */
    MCA_COMMON_EVT_FLIGHT_STATE_CLOSED = 2, /**< the writer finalized */
};

/** Element types in the dictionary (stable on disk, not the engine's). */
enum {
    MCA_COMMON_EVT_FLIGHT_TYPE_INT32 = 1,
    MCA_COMMON_EVT_FLIGHT_TYPE_UINT32 = 2,
    MCA_COMMON_EVT_FLIGHT_TYPE_INT64 = 3,
    MCA_COMMON_EVT_FLIGHT_TYPE_UINT64 = 4,
    MCA_COMMON_EVT_FLIGHT_TYPE_DOUBLE = 5,
    MCA_COMMON_EVT_FLIGHT_TYPE_BOOL = 6, /**< one byte, 0 or 1 */
};

/** Dictionary entry kinds. */
enum {
    MCA_COMMON_EVT_FLIGHT_ENTRY_SOURCE = 1,
    MCA_COMMON_EVT_FLIGHT_ENTRY_EVENT = 2,
    MCA_COMMON_EVT_FLIGHT_ENTRY_NAMES = 3, /**< element names given after the event's entry */
};

/** The header. The fixed part (up to header_sum) never changes after the
 *  file is created and is covered by header_sum; the mutable part follows
 *  on its own cache line. */
typedef struct mca_common_evt_flight_header_t {
    char magic[8];        /**< MCA_COMMON_EVT_FLIGHT_MAGIC */
    uint32_t version;     /**< MCA_COMMON_EVT_FLIGHT_VERSION */
    uint32_t endian;      /**< MCA_COMMON_EVT_FLIGHT_ENDIAN */
    uint32_t header_size; /**< MCA_COMMON_EVT_FLIGHT_HEADER_SIZE */
    uint32_t flags;       /**< 0 */
    uint64_t file_size;   /**< bytes of the whole file */
    /* identity */
    int32_t rank; /**< MPI_COMM_WORLD rank; -1 unknown */
    uint32_t pid;
    int32_t world_size; /**< -1 unknown */
    uint32_t reserved0;
    char host[64];      /**< NUL-terminated */
    char job[64];       /**< job id (Open MPI jobid / PMIx nspace), NUL-terminated */
    int64_t created_ns; /**< CLOCK_REALTIME at creation, ns */
    /* layout */
    uint32_t ring_count;
    uint32_t ring_capacity; /**< data bytes per ring: a power of two */
    uint64_t rings_offset;
    uint64_t ring_stride; /**< MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE + ring_capacity */
    uint64_t dict_offset;
    uint64_t dict_size;
    uint64_t drops_offset;
    uint32_t drops_count;   /**< u64 counters, one per event index below it */
    uint32_t ctl_size;      /**< the kit's control block: 128 */
    uint32_t ring_hdr_size; /**< MCA_COMMON_EVT_FLIGHT_RING_HDR_SIZE */
    uint32_t rec_size;      /**< MCA_COMMON_EVT_FLIGHT_REC_SIZE */
    uint64_t header_sum;    /**< mca_common_evt_flight_sum() of the bytes before it */
    /* ---- mutable, written by the process ---- */
    uint64_t pad[3];
    /** Committed dictionary bytes (stored with release after an entry). */
    uint64_t dict_used;
    /** OMPI_EVT_FILE_STATE_*. */
    uint32_t state;
    uint32_t reserved1;
    /** Event types recorded without a dictionary entry (dictionary full). */
    uint64_t dict_refused;
    /** Export drops of events at index >= drops_count. */
    uint64_t drops_other;
    /** CLOCK_REALTIME at a clean finalize, ns (0 while open). */
    int64_t closed_ns;
} mca_common_evt_flight_header_t;

/** Offsets of the kit's ring control block fields (ompi_evt_ring_ctl_t). */
#define MCA_COMMON_EVT_FLIGHT_CTL_TAIL       0
#define MCA_COMMON_EVT_FLIGHT_CTL_OLDEST     4
#define MCA_COMMON_EVT_FLIGHT_CTL_EVICTED    8
#define MCA_COMMON_EVT_FLIGHT_CTL_EVICT_MARK 16
#define MCA_COMMON_EVT_FLIGHT_CTL_HEAD       64
#define MCA_COMMON_EVT_FLIGHT_CTL_SIZE       128

/** A dictionary entry header; the body follows. size covers header and
 *  body and is a multiple of 8; sum is mca_common_evt_flight_sum() of the entry
 *  with sum set to 0. */
typedef struct mca_common_evt_flight_dict_entry_t {
    uint32_t size;
    uint32_t kind; /**< OMPI_EVT_FILE_ENTRY_* */
    uint64_t sum;
} mca_common_evt_flight_dict_entry_t;

/** Source entry body; then name_len name bytes (no NUL). */
typedef struct mca_common_evt_flight_dict_source_t {
    int32_t index;
    uint32_t ordering; /**< 0 ordered, 1 unordered (MPI_T_source_order) */
    int64_t ticks_per_second;
    int64_t max_ticks;
    /** One clock pair sampled together: the source's clock, and
     *  CLOCK_REALTIME in ns (the middle of two reads around it). */
    int64_t sample_ticks;
    int64_t sample_realtime_ns;
    uint32_t name_len;
    uint32_t flags; /**< OMPI_EVT_FILE_SOURCE_* (files that predate them: 0) */
} mca_common_evt_flight_dict_source_t;

/** The source's ticks are its host's CLOCK_MONOTONIC, read alike by every
 *  process of the host (mca_base_event_source_on_host_clock()). */
#define MCA_COMMON_EVT_FLIGHT_SOURCE_HOST_CLOCK 0x1u

/** Event entry body; then num_elements mca_common_evt_flight_dict_element_t, then the
 *  event's name and each element's name (name_len bytes each, no NUL; an
 *  element name of length 0 means the engine has none). */
typedef struct mca_common_evt_flight_dict_event_t {
    int32_t index;
    int32_t source;  /**< source index */
    uint32_t extent; /**< payload bytes */
    uint32_t num_elements;
    uint32_t flags; /**< engine event flags */
    int32_t bind;   /**< MPI_T bind object kind */
    uint32_t name_len;
    uint32_t reserved;
} mca_common_evt_flight_dict_event_t;

/** Names entry body: element names of an event whose entry came earlier
 *  without them (a producer named the elements after registering the
 *  event); then num_elements u32 name lengths, then the names (no NUL). */
typedef struct mca_common_evt_flight_dict_names_t {
    int32_t index;         /**< the event's index */
    uint32_t num_elements; /**< as in its event entry */
} mca_common_evt_flight_dict_names_t;

typedef struct mca_common_evt_flight_dict_element_t {
    uint32_t type;   /**< OMPI_EVT_FILE_TYPE_* */
    uint32_t offset; /**< in the payload */
    uint32_t name_len;
    uint32_t reserved;
} mca_common_evt_flight_dict_element_t;

/** The checksum of headers and dictionary entries: 64-bit FNV-1a. */
static inline uint64_t mca_common_evt_flight_sum(const void *buf, size_t len)
{
    const unsigned char *p = (const unsigned char *) buf;
    uint64_t h = 0xcbf29ce484222325ull;

    for (size_t i = 0; i < len; ++i) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/** Bytes of an element of type @p type (0: unknown type). */
static inline uint32_t mca_common_evt_flight_type_size(uint32_t type)
{
    switch (type) {
    case MCA_COMMON_EVT_FLIGHT_TYPE_INT32:
    case MCA_COMMON_EVT_FLIGHT_TYPE_UINT32:
        return 4;
    case MCA_COMMON_EVT_FLIGHT_TYPE_INT64:
    case MCA_COMMON_EVT_FLIGHT_TYPE_UINT64:
    case MCA_COMMON_EVT_FLIGHT_TYPE_DOUBLE:
        return 8;
    case MCA_COMMON_EVT_FLIGHT_TYPE_BOOL:
        return 1;
    default:
        return 0;
    }
}

/** Bytes a ring record with @p extent payload bytes takes. */
static inline uint32_t mca_common_evt_flight_record_size(uint32_t extent)
{
    return (MCA_COMMON_EVT_FLIGHT_RING_HDR_SIZE + MCA_COMMON_EVT_FLIGHT_REC_SIZE + extent
            + MCA_COMMON_EVT_FLIGHT_ALIGN - 1)
           & ~(uint32_t) (MCA_COMMON_EVT_FLIGHT_ALIGN - 1);
}

#endif /* MCA_COMMON_EVT_FLIGHT_FORMAT_H */
