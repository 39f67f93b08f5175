/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The on-disk format of evt/file's flight-recorder files, version 2: what
 * the writer (ompi/mca/evt/file) lays out and the reader
 * (common_evt_flight_read.c) validates. The header and the rings are the
 * writer's memory, mapped: host byte order, plain C99 and <stdint.h> here.
 * The dictionary is the export wire's (common_evt_wire.h): the same batches,
 * decoded by the same validating decoder, with the CRC-32C of node files.
 * The writer checks at compile time that the kit's ring layout is the one
 * described here.
 *
 * A file is one process's, fixed-size, mapped MAP_SHARED by the writer: what
 * the writer stored is in the kernel's page cache the moment it is stored,
 * so it survives kill -9 and crashes (not a machine crash: evt_file_sync).
 *
 *     offset 0      header (one page): identity, clock-free layout, the
 *                   counters the writer updates (dictionary use, state)
 *     dict_offset   dictionary: append-only entries, each
 *                     u32 batch length, u32 CRC-32C of the batch (both in
 *                     the header's byte order), a wire batch, zero padding
 *                     to a multiple of 8.
 *                   A batch has no records: its TYPES and CLOCKS describe
 *                   event types and their sources, its LAYOUTS section
 *                   where each type's values lie in a ring record (engine
 *                   event and source index, extent, element offsets,
 *                   flags, bind). An event index described again (its
 *                   element names were given after its first entry) takes
 *                   the later description.
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
 * All integers outside the dictionary's batches are in the writer's byte
 * order; the header says which (endian), and a reader refuses the other
 * one. Version 1 files (their own dictionary encoding, FNV-1a sums) are
 * refused with that said.
 */

#ifndef MCA_COMMON_EVT_FLIGHT_FORMAT_H
#define MCA_COMMON_EVT_FLIGHT_FORMAT_H

#include <stddef.h>
#include <stdint.h>

/** First 8 bytes of every file. */
#define MCA_COMMON_EVT_FLIGHT_MAGIC "OEVTREC1"
/** This format. */
#define MCA_COMMON_EVT_FLIGHT_VERSION 2
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

/** Element types (the wire's codes, MCA_COMMON_EVT_WIRE_ELEM_*). */
enum {
    MCA_COMMON_EVT_FLIGHT_TYPE_INT32 = 1,
    MCA_COMMON_EVT_FLIGHT_TYPE_UINT32 = 2,
    MCA_COMMON_EVT_FLIGHT_TYPE_INT64 = 3,
    MCA_COMMON_EVT_FLIGHT_TYPE_UINT64 = 4,
    MCA_COMMON_EVT_FLIGHT_TYPE_DOUBLE = 5,
    MCA_COMMON_EVT_FLIGHT_TYPE_BOOL = 6, /**< one byte, 0 or 1 */
};

/** Bytes before a dictionary entry's batch: u32 length, u32 CRC-32C. */
#define MCA_COMMON_EVT_FLIGHT_DICT_ENTRY_HEAD 8

/** The header. The fixed part (up to header_crc) never changes after the
 *  file is created and is covered by header_crc; the mutable part follows
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
    uint32_t header_crc;    /**< CRC-32C of the bytes before it */
    uint32_t reserved2;
    /* ---- mutable, written by the process ---- */
    uint64_t pad[3];
    /** Committed dictionary bytes (stored with release after an entry). */
    uint64_t dict_used;
    /** MCA_COMMON_EVT_FLIGHT_STATE_*. */
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

/** A consumer that copies a file's rings while its writer runs (ompi-evt-record's
 *  shared-memory transport) says how far it got, for a writer that waits for
 *  it rather than overwrite what it has not copied (evt_file_consumer_wait):
 *  per ring, the u32 position it copied up to, in the ring's control space
 *  at CTL_CONSUMED (a cache line of its own: the producer's positions are
 *  written at every raise); in the header page, at HDR_CONSUMER_BEAT, the
 *  u64 CLOCK_MONOTONIC ns of its last look, which says it is alive (0: no
 *  consumer). Both are stored with release by the consumer only, are zero
 *  in a file nobody consumes, and mean nothing to a reader of the file. */
#define MCA_COMMON_EVT_FLIGHT_CTL_CONSUMED      2048
#define MCA_COMMON_EVT_FLIGHT_HDR_CONSUMER_BEAT 2048
/** In the header page: the u64 ns the writer's progress calls spent waiting
 *  for the consumer (written by the writer, relaxed; a figure for the
 *  consumer to report). */
#define MCA_COMMON_EVT_FLIGHT_HDR_CONSUMER_WAITED 2056
/** In the header page: the u32 number of the writer's threads waiting for
 *  the consumer now (written by the writer): a consumer that sees it
 *  nonzero looks again without its usual pause. */
#define MCA_COMMON_EVT_FLIGHT_HDR_WRITERS_WAITING 2064

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

/** Bytes a dictionary entry holding a batch of @p len bytes takes (its
 *  head, the batch, the padding). */
static inline uint64_t mca_common_evt_flight_dict_entry_size(uint64_t len)
{
    return (MCA_COMMON_EVT_FLIGHT_DICT_ENTRY_HEAD + len + MCA_COMMON_EVT_FLIGHT_ALIGN - 1)
           & ~(uint64_t) (MCA_COMMON_EVT_FLIGHT_ALIGN - 1);
}

/** Bytes a ring record with @p extent payload bytes takes. */
static inline uint32_t mca_common_evt_flight_record_size(uint32_t extent)
{
    return (MCA_COMMON_EVT_FLIGHT_RING_HDR_SIZE + MCA_COMMON_EVT_FLIGHT_REC_SIZE + extent
            + MCA_COMMON_EVT_FLIGHT_ALIGN - 1)
           & ~(uint32_t) (MCA_COMMON_EVT_FLIGHT_ALIGN - 1);
}

#endif /* MCA_COMMON_EVT_FLIGHT_FORMAT_H */
