/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The export wire format: batches of event records that leave a process
 * (evt/pmix, as a PMIx byte object), are appended to node files
 * (common_evt_nodefile.h) and are read back by ompi-evt-listen. One encoder,
 * one decoder; the decoder is the only code that ever reads a batch.
 *
 * Roles and contexts (decoder of the tags: evt.h):
 *   encoder  INIT to construct/destruct, PROGRESS (or DRAIN) to use. One
 *            thread at a time per encoder (the drain token serialises the
 *            pmix component's use). No PMIx call, no lock, no allocation
 *            after construct, no output.
 *   decoder  ANY. Never trusts its input: every length, count, index, name
 *            and value range is checked before use; a bad batch is an error
 *            code, never a crash, never a read outside [buf, buf + len).
 *
 * ------------------------------------------------------------------------
 * Byte layout, version 1 (MCA_COMMON_EVT_WIRE_VERSION). All integers are
 * little-endian, unaligned (readers copy them out); "str" is a u16 length
 * followed by that many bytes, no NUL.
 *
 *   batch   = header section*
 *   header  (32 bytes)
 *     0  u8[4] magic "OEVW"
 *     4  u16   version (1)
 *     6  u16   header length (32 in v1; a reader skips bytes it does not
 *              know, so later versions can grow the header)
 *     8  u32   flags: MCA_COMMON_EVT_WIRE_FLAG_FINAL (0x1) = last batch of the
 *              process; MCA_COMMON_EVT_WIRE_FLAG_NOT_STORED (0x2) = written by
 *              a receiver that had no room for the batch's records: they
 *              are counted in DROPS; other bits are ignored by a v1 reader
 *    12  u32   number of sections
 *    16  u64   batch sequence number (0, 1, 2, ... per process)
 *    24  u32   total batch length in bytes (header included); must equal
 *              the length the transport delivered
 *    28  u32   reserved, written 0, ignored
 *   section = u16 kind, u16 section flags, u32 body length, body
 *     section flag 0x1 REQUIRED: a reader that does not know the kind must
 *     reject the batch; without it an unknown section is skipped.
 *     Each kind at most once, in this order where present:
 *     1 SENDER  (required, first): str nspace, u32 rank, str host, u32 pid
 *     2 CLOCKS  u16 n, n x { str source name, u8 clock flags, u64 ticks
 *               per second (> 0), i64 source ticks, i64 CLOCK_REALTIME ns }
 *               - the sources the batch uses; the position is the
 *               batch-local source id. The two clock values were sampled
 *               together. Clock flags: 0x1 the source is unordered; 0x2
 *               its ticks are its host's CLOCK_MONOTONIC, which every
 *               sender naming the same host reads (one pair converts them
 *               all alike); other bits: invalid.
 *     3 OFFSETS u16 n, n x { i64 local CLOCK_REALTIME ns when measured,
 *               i64 offset ns (reference clock = local + offset), u64
 *               uncertainty ns } - optional, the rank's offset to the job's
 *               reference clock (cross-node alignment), any number of
 *               samples (e.g. at MPI_Init and MPI_Finalize)
 *     4 TYPES   u16 n, n x { u16 source id, str event name, u16 number of
 *               elements, per element { u8 element type
 *               (MCA_COMMON_EVT_WIRE_ELEM_*), str element name (length 0 when the
 *               producer gave none) } } - the event types the batch uses;
 *               the position is the batch-local type id
 *     5 DROPS   u16 n, n x { u16 type id, u64 count } - records of that
 *               type the process could not export since the previous batch
 *     6 RECORDS u32 n, n x { u16 type id, u8 depth, u8 reserved (0),
 *               i64 timestamp (source ticks), payload }; the payload is the
 *               element values packed in layout order, little-endian, no
 *               padding (its size follows from the type's element types)
 *     7 LAYOUTS u16 n, n x { u16 type id, i32 event index, i32 source
 *               index, i64 source max ticks, u32 extent, u32 event flags,
 *               i32 bind, u16 offset per element of the type } - optional,
 *               at most one per type: where the sending process keeps the
 *               type's values in memory (the engine's indexes, a record's
 *               data size, each element's offset in it, every element
 *               within the extent, extent <= 256). What a reader of raw,
 *               unpacked records needs: the flight recorder's dictionary
 *               is made of batches with this section and no records
 *   Names (event, source, element) are 1..255 bytes of [A-Za-z0-9._-]
 *   (element names also may not start with a digit); nspace and host are
 *   1..255 printable ASCII bytes. A type has at most 256 elements and a
 *   packed payload of at most 256 bytes.
 * ------------------------------------------------------------------------
 */

#ifndef MCA_COMMON_EVT_WIRE_H
#define MCA_COMMON_EVT_WIRE_H

#include "ompi_config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "opal/mca/base/mca_base_event.h"

BEGIN_C_DECLS

/** Format version written by this encoder; the decoder reads exactly this
 *  major format (a later version with the same layout rules adds sections). */
#define MCA_COMMON_EVT_WIRE_VERSION 1
/** First four bytes of every batch. */
#define MCA_COMMON_EVT_WIRE_MAGIC "OEVW"
/** Clock flags of a CLOCKS entry. */
#define MCA_COMMON_EVT_WIRE_CLOCK_UNORDERED 0x1
#define MCA_COMMON_EVT_WIRE_CLOCK_HOST      0x2
/** PMIx status code of the notifications carrying batches:
 *  PMIX_EXTERNAL_ERR_BASE (-3000 in PMIx 3 and 4) - 2600. Written as a
 *  number so this header needs no PMIx; checked where pmix_common.h is in
 *  scope (below). */
#define MCA_COMMON_EVT_WIRE_PMIX_STATUS (-3000 - 2600)
#ifdef PMIX_EXTERNAL_ERR_BASE
_Static_assert(MCA_COMMON_EVT_WIRE_PMIX_STATUS == PMIX_EXTERNAL_ERR_BASE - 2600,
               "MCA_COMMON_EVT_WIRE_PMIX_STATUS follows PMIX_EXTERNAL_ERR_BASE");
#endif
/** pmix_info_t key of the batch (a PMIX_BYTE_OBJECT). */
#define MCA_COMMON_EVT_WIRE_PMIX_KEY "ompi.evt.batch"

/** Batch flag: the last batch this process sends (set at finalize). */
#define MCA_COMMON_EVT_WIRE_FLAG_FINAL 0x1u
/** Batch flag: a receiver (a node sink) had no room for this batch's
 *  records and wrote it restated as drops (mca_common_evt_wire_batch_as_drops()):
 *  the events are counted, but the recording is incomplete. */
#define MCA_COMMON_EVT_WIRE_FLAG_NOT_STORED 0x2u

/** Sizes of the fixed parts. */
#define MCA_COMMON_EVT_WIRE_HEADER_BYTES  32
#define MCA_COMMON_EVT_WIRE_SECTION_BYTES 8
/** Longest nspace/host/name (bytes, without the NUL). */
#define MCA_COMMON_EVT_WIRE_NSPACE_MAX 255
#define MCA_COMMON_EVT_WIRE_HOST_MAX   255
#define MCA_COMMON_EVT_WIRE_NAME_MAX   255
/** Bounds of an event type on the wire. */
#define MCA_COMMON_EVT_WIRE_MAX_ELEMENTS 256
#define MCA_COMMON_EVT_WIRE_MAX_PAYLOAD  256
/** Largest batch the decoder accepts (and the encoder builds). */
#define MCA_COMMON_EVT_WIRE_MAX_BATCH (64u * 1024u * 1024u)
/** Smallest max_bytes the encoder accepts: a sender, a clock, a type and
 *  one record of the largest payload always fit. */
#define MCA_COMMON_EVT_WIRE_MIN_BATCH 4096u
/** At most this many event types (and sources) per batch: the encoder's
 *  lookup tables are allocated at construct; a batch that would need more
 *  is full (OPAL_ERR_TEMP_OUT_OF_RESOURCE), the next one starts empty. */
#define MCA_COMMON_EVT_WIRE_MAX_TYPES   1024
#define MCA_COMMON_EVT_WIRE_MAX_SOURCES 64
#define MCA_COMMON_EVT_WIRE_MAX_OFFSETS 16

/** Section kinds. */
enum {
    MCA_COMMON_EVT_WIRE_SECTION_SENDER = 1,
    MCA_COMMON_EVT_WIRE_SECTION_CLOCKS = 2,
    MCA_COMMON_EVT_WIRE_SECTION_OFFSETS = 3,
    MCA_COMMON_EVT_WIRE_SECTION_TYPES = 4,
    MCA_COMMON_EVT_WIRE_SECTION_DROPS = 5,
    MCA_COMMON_EVT_WIRE_SECTION_RECORDS = 6,
    MCA_COMMON_EVT_WIRE_SECTION_LAYOUTS = 7,
};
/** Section flag: a reader that does not know the kind rejects the batch. */
#define MCA_COMMON_EVT_WIRE_SECTION_REQUIRED 0x1u

/** Element types on the wire (stable numbers, independent of OPAL's enum). */
enum {
    MCA_COMMON_EVT_WIRE_ELEM_INT32 = 1,  /**< 4 bytes */
    MCA_COMMON_EVT_WIRE_ELEM_UINT32 = 2, /**< 4 bytes */
    MCA_COMMON_EVT_WIRE_ELEM_INT64 = 3,  /**< 8 bytes */
    MCA_COMMON_EVT_WIRE_ELEM_UINT64 = 4, /**< 8 bytes */
    MCA_COMMON_EVT_WIRE_ELEM_DOUBLE = 5, /**< 8 bytes, IEEE 754 binary64 */
    MCA_COMMON_EVT_WIRE_ELEM_BOOL = 6,   /**< 1 byte, 0 or 1 */
};

/** The wire (and flight file) element type of an engine element type; 0
 *  for one neither can carry. Context: ANY. */
OMPI_DECLSPEC uint8_t mca_common_evt_wire_elem_type_of(mca_base_var_type_t type);
/** Size in bytes of a wire element type; 0 for an unknown one. Context: ANY. */
OMPI_DECLSPEC size_t mca_common_evt_wire_elem_size(uint8_t elem_type);
/** Short name of a wire element type ("i32", "u64", "double", "bool"...);
 *  "?" for an unknown one. Context: ANY. */
OMPI_DECLSPEC const char *mca_common_evt_wire_elem_name(uint8_t elem_type);

/** CRC-32C (Castagnoli) of @p len bytes, continuing @p crc (0 to start):
 *  the checksum of node files and of the flight recorder's header and
 *  dictionary. Context: ANY but SIGNAL (the first call builds tables). */
OMPI_DECLSPEC uint32_t mca_common_evt_wire_crc32c(uint32_t crc, const void *buf, size_t len);

/** Who sent a batch. */
typedef struct mca_common_evt_wire_sender_t {
    char nspace[MCA_COMMON_EVT_WIRE_NSPACE_MAX + 1]; /**< PMIx namespace */
    uint32_t rank;                                   /**< PMIx rank in nspace */
    char host[MCA_COMMON_EVT_WIRE_HOST_MAX + 1];     /**< node name as PMIx gives it */
    uint32_t pid;
} mca_common_evt_wire_sender_t;

/** One sample of a rank's offset to the job's reference clock. */
typedef struct mca_common_evt_wire_offset_t {
    int64_t local_realtime_ns; /**< CLOCK_REALTIME of this rank at the measurement */
    int64_t offset_ns;         /**< reference time = local time + offset_ns */
    uint64_t uncertainty_ns;   /**< half the measurement's round trip, or 0 */
} mca_common_evt_wire_offset_t;

/* ------------------------------------------------------------------------
 * Encoder
 * ------------------------------------------------------------------------ */

/*
 * The encoder takes what it encodes in one of two forms: the engine's live
 * objects (mca_base_event_t and its source: add_record, add_drops,
 * add_clock; what a component draining the kit has), or the plain
 * descriptors below (add, add_type_drops; what anything else has: a
 * recording read back, a test, a bridge from another tracer). Both end up
 * as the same bytes.
 */

/** A clock source, described. Its address names it in a batch: it must
 *  stay valid and unchanged while an encoder may use it. */
typedef struct mca_common_evt_wire_source_desc_t {
    const char *name;          /**< [A-Za-z0-9._-], 1..255 bytes */
    bool unordered;            /**< MPI_T_SOURCE_UNORDERED */
    bool host_clock;           /**< the ticks are the host's CLOCK_MONOTONIC */
    uint64_t ticks_per_second; /**< > 0 */
    /** Reads the source's clock, for the pair the encoder samples when the
     *  source enters a batch; NULL: the fixed pair below is used. */
    opal_count_t (*now)(void *ctx);
    void *ctx;
    int64_t pair_ticks;       /**< with now NULL: ticks read together with */
    int64_t pair_realtime_ns; /**< this CLOCK_REALTIME */
} mca_common_evt_wire_source_desc_t;

/** An event type, described. Its address names it in a batch: it must stay
 *  valid and unchanged while an encoder may use it. */
typedef struct mca_common_evt_wire_type_desc_t {
    const char *name; /**< [A-Za-z0-9._-], 1..255 bytes */
    const mca_common_evt_wire_source_desc_t *source;
    unsigned num_elements;     /**< at most MCA_COMMON_EVT_WIRE_MAX_ELEMENTS */
    const uint8_t *elem_types; /**< MCA_COMMON_EVT_WIRE_ELEM_* per element */
    /** Where each element lies in a record's data, in this host's byte
     *  order (e.g. offsetof() of a payload struct); packed data is offsets
     *  0, 4, ... */
    const uint32_t *elem_offsets;
    const char *const *elem_names; /**< NULL, or per element (NULL or "" for none) */
} mca_common_evt_wire_type_desc_t;

/** A type's native layout (a LAYOUTS entry): the engine's view of the
 *  type beyond its wire description. Encoder input: type and offsets are
 *  ignored (the element offsets are the type's own). Decoder output: all
 *  fields, validated. */
typedef struct mca_common_evt_wire_layout_t {
    uint16_t type;           /**< batch-local type id */
    int32_t event_index;     /**< the engine's event index (>= 0) */
    int32_t source_index;    /**< the engine's source index (>= 0) */
    int64_t max_ticks;       /**< the source's largest timestamp (> 0) */
    uint32_t extent;         /**< bytes of a record's data, <= MCA_COMMON_EVT_WIRE_MAX_PAYLOAD */
    uint32_t flags;          /**< the engine's event flags */
    int32_t bind;            /**< MPI_T bind object kind */
    const uint16_t *offsets; /**< per element of the type: its offset in the data */
} mca_common_evt_wire_layout_t;

struct mca_common_evt_wire_enc_state_t; /* private to common_evt_wire_encode.c */

/** An encoder builds one batch at a time into storage allocated at
 *  construct. Fields are read-only for users. */
typedef struct mca_common_evt_wire_encoder_t {
    struct mca_common_evt_wire_enc_state_t *state;
    size_t max_bytes;     /**< largest batch built */
    uint32_t num_records; /**< records in the batch being built */
    uint64_t seq;         /**< sequence number of the batch being built */
    bool open;            /**< between begin and finish */
} mca_common_evt_wire_encoder_t;

/**
 * Allocate an encoder's storage.
 *
 * @param[out] enc        the encoder
 * @param[in]  sender     copied; nspace and host must be valid wire strings
 * @param[in]  max_bytes  largest batch, in [MCA_COMMON_EVT_WIRE_MIN_BATCH,
 *                        MCA_COMMON_EVT_WIRE_MAX_BATCH]
 * @retval OPAL_SUCCESS
 * @retval OPAL_ERR_BAD_PARAM              NULL, bad sender string, max_bytes out of range
 * @retval OPAL_ERR_OUT_OF_RESOURCE        no memory
 * Context: INIT (allocates about 3 x max_bytes + 320 KiB of tables). Locks: none.
 */
OMPI_DECLSPEC int mca_common_evt_wire_encoder_construct(mca_common_evt_wire_encoder_t *enc,
                                                        const mca_common_evt_wire_sender_t *sender,
                                                        size_t max_bytes);
/** Free the storage; a destructed or zeroed encoder may be destructed again.
 *  Context: INIT. */
OMPI_DECLSPEC void mca_common_evt_wire_encoder_destruct(mca_common_evt_wire_encoder_t *enc);

/**
 * Start a batch (an open batch is discarded).
 * @param[in] seq    batch sequence number (the caller numbers its batches)
 * @param[in] flags  MCA_COMMON_EVT_WIRE_FLAG_*
 * @retval OPAL_SUCCESS
 * @retval OPAL_ERR_BAD_PARAM  not constructed
 * Context: PROGRESS. Locks: none.
 */
OMPI_DECLSPEC int mca_common_evt_wire_encoder_begin(mca_common_evt_wire_encoder_t *enc,
                                                    uint64_t seq, uint32_t flags);
/** Set or clear flags of the open batch (e.g. FINAL, decided late).
 *  Context: PROGRESS. */
OMPI_DECLSPEC int mca_common_evt_wire_encoder_set_flags(mca_common_evt_wire_encoder_t *enc,
                                                        uint32_t flags);

/**
 * Add one record. Its event type (name, element types, element names,
 * source) enters the batch's dictionary on first use; its source's clock
 * pair too, sampled now unless given by mca_common_evt_wire_encoder_add_clock().
 * @retval OPAL_SUCCESS
 * @retval OPAL_ERR_TEMP_OUT_OF_RESOURCE  the batch is full (bytes, types or
 *         sources): nothing was added; finish, send, begin, add again
 * @retval OPAL_ERR_VALUE_OUT_OF_BOUNDS  the record's type would not fit
 *         even into an empty batch of max_bytes: it never will (count it
 *         as dropped)
 * @retval OPAL_ERR_BAD_PARAM  no open batch, NULL record/event/data, an
 *         element type or name the wire cannot carry (see the layout)
 * Context: PROGRESS. No allocation, no lock.
 */
OMPI_DECLSPEC int mca_common_evt_wire_encoder_add_record(mca_common_evt_wire_encoder_t *enc,
                                                         const mca_base_event_record_t *rec);

/**
 * Add one record of the described type @p type: @p data holds its element
 * values where @p type's offsets say. Otherwise as add_record (same return
 * codes; a description the wire cannot carry is OPAL_ERR_BAD_PARAM; a
 * depth above 255 is written as 255).
 * Context: PROGRESS. No allocation, no lock.
 */
OMPI_DECLSPEC int mca_common_evt_wire_encoder_add(mca_common_evt_wire_encoder_t *enc,
                                                  const mca_common_evt_wire_type_desc_t *type,
                                                  uint32_t depth, int64_t timestamp,
                                                  const void *data);

/** add_drops for a described type. Context: PROGRESS. */
OMPI_DECLSPEC int
mca_common_evt_wire_encoder_add_type_drops(mca_common_evt_wire_encoder_t *enc,
                                           const mca_common_evt_wire_type_desc_t *type,
                                           uint64_t count);

/**
 * Enter @p event's type into the open batch's dictionary without a record,
 * with its native layout (a LAYOUTS entry: the engine's indexes, extent,
 * flags, bind object and element offsets).
 * @retval OPAL_SUCCESS
 * @retval OPAL_ERR_TEMP_OUT_OF_RESOURCE  the batch is full: nothing added
 * @retval OPAL_ERR_VALUE_OUT_OF_BOUNDS  the type never fits (as add_record)
 * @retval OPAL_ERR_BAD_PARAM  no open batch, NULL, a type the wire cannot
 *         carry, an element outside the extent, the type already in the batch
 * Context: PROGRESS (no allocation, no lock: callable under the caller's).
 */
OMPI_DECLSPEC int mca_common_evt_wire_encoder_add_type(mca_common_evt_wire_encoder_t *enc,
                                                       const mca_base_event_t *event);

/** add_type for a described type and its layout (@p layout's type and
 *  offsets are not read). Context: PROGRESS. */
OMPI_DECLSPEC int
mca_common_evt_wire_encoder_add_type_desc(mca_common_evt_wire_encoder_t *enc,
                                          const mca_common_evt_wire_type_desc_t *type,
                                          const mca_common_evt_wire_layout_t *layout);

/**
 * Add @p count records of @p event that could not be exported. Counts of
 * the same event in one batch are summed (saturating at UINT64_MAX).
 * @retval OPAL_SUCCESS (count 0 adds nothing)
 * @retval OPAL_ERR_TEMP_OUT_OF_RESOURCE  the batch is full: nothing added
 * @retval OPAL_ERR_VALUE_OUT_OF_BOUNDS  the type never fits (as add_record)
 * @retval OPAL_ERR_BAD_PARAM  no open batch, NULL event, unencodable type
 * Context: PROGRESS.
 */
OMPI_DECLSPEC int mca_common_evt_wire_encoder_add_drops(mca_common_evt_wire_encoder_t *enc,
                                                        mca_base_event_t *event, uint64_t count);

/**
 * Give the clock pair of @p source for this batch: @p source_ticks (the
 * source's clock) and @p realtime_ns (CLOCK_REALTIME) read together. Must
 * come before the first record of that source in the batch (afterwards:
 * OPAL_ERR_BAD_PARAM). Optional: without it the encoder samples the pair
 * itself when the source is first used.
 * @retval OPAL_SUCCESS
 * @retval OPAL_ERR_TEMP_OUT_OF_RESOURCE  the batch is full
 * @retval OPAL_ERR_BAD_PARAM  no open batch, NULL source, pair already set
 * Context: PROGRESS.
 */
OMPI_DECLSPEC int mca_common_evt_wire_encoder_add_clock(mca_common_evt_wire_encoder_t *enc,
                                                        const mca_base_event_source_t *source,
                                                        int64_t source_ticks, int64_t realtime_ns);

/**
 * Add a sample of this rank's offset to the job's reference clock. Samples
 * are kept by the encoder and carried by every later batch (a reader that
 * sees any batch of the rank gets all samples known when it was sent),
 * and by the open batch if it still has room for it.
 * @retval OPAL_SUCCESS  kept; the open batch (if any) carries it
 * @retval OPAL_ERR_TEMP_OUT_OF_RESOURCE  kept, but the open batch is too
 *         full to carry it: the next batch is the first that does
 * @retval OPAL_ERR_OUT_OF_RESOURCE  MCA_COMMON_EVT_WIRE_MAX_OFFSETS samples already
 * @retval OPAL_ERR_BAD_PARAM  NULL
 * Context: PROGRESS (or INIT).
 */
OMPI_DECLSPEC int
mca_common_evt_wire_encoder_add_offset(mca_common_evt_wire_encoder_t *enc,
                                       const mca_common_evt_wire_offset_t *sample);

/** Does the open batch lack a sample the encoder keeps (added when it was
 *  too full)? Context: PROGRESS. */
OMPI_DECLSPEC bool
mca_common_evt_wire_encoder_offsets_pending(const mca_common_evt_wire_encoder_t *enc);

/**
 * Read CLOCK_REALTIME through @p realtime_ns (NULL: clock_gettime) for the
 * clock pairs the encoder samples itself: a sender whose realtime readings
 * are adjusted (evt/pmix's test-only skew) makes them all the same way.
 * @retval OPAL_SUCCESS, OPAL_ERR_BAD_PARAM (not constructed)
 * Context: INIT. @p realtime_ns is called in PROGRESS context: ANY-safe.
 */
OMPI_DECLSPEC int mca_common_evt_wire_encoder_set_realtime(mca_common_evt_wire_encoder_t *enc,
                                                           int64_t (*realtime_ns)(void));

/**
 * Close the batch and return it.
 * @param[out] buf  the batch; valid until the next begin or destruct
 * @param[out] len  its length
 * @retval OPAL_SUCCESS
 * @retval OPAL_ERR_BAD_PARAM  no open batch
 * Context: PROGRESS. A batch with no records is valid (e.g. drops only, or
 * a FINAL marker).
 */
OMPI_DECLSPEC int mca_common_evt_wire_encoder_finish(mca_common_evt_wire_encoder_t *enc,
                                                     const void **buf, size_t *len);

/* ------------------------------------------------------------------------
 * Decoder
 * ------------------------------------------------------------------------ */

/** A value of an element. */
typedef struct mca_common_evt_wire_value_t {
    uint8_t type; /**< MCA_COMMON_EVT_WIRE_ELEM_* */
    union {
        int64_t i;  /**< INT32, INT64 */
        uint64_t u; /**< UINT32, UINT64 */
        double d;   /**< DOUBLE */
        bool b;     /**< BOOL */
    } v;
} mca_common_evt_wire_value_t;

typedef struct mca_common_evt_wire_element_t {
    const char *name; /**< "" when the producer gave none */
    uint8_t type;     /**< MCA_COMMON_EVT_WIRE_ELEM_* */
    uint16_t offset;  /**< in the packed payload */
} mca_common_evt_wire_element_t;

typedef struct mca_common_evt_wire_type_t {
    const char *name; /**< event name */
    uint16_t source;  /**< batch-local source id (index into clocks) */
    uint16_t num_elements;
    uint16_t payload_size; /**< packed bytes of one record's payload */
    const mca_common_evt_wire_element_t *elements;
} mca_common_evt_wire_type_t;

typedef struct mca_common_evt_wire_clock_t {
    const char *name;          /**< source name */
    uint8_t ordering;          /**< 0 ordered, 1 unordered */
    bool host_clock;           /**< the sender host's CLOCK_MONOTONIC (flag 0x2) */
    uint64_t ticks_per_second; /**< > 0 */
    int64_t source_ticks;      /**< sampled together with realtime_ns */
    int64_t realtime_ns;
} mca_common_evt_wire_clock_t;

typedef struct mca_common_evt_wire_drop_t {
    uint16_t type;
    uint64_t count;
} mca_common_evt_wire_drop_t;

typedef struct mca_common_evt_wire_record_t {
    uint16_t type; /**< batch-local type id, < num_types */
    uint8_t depth;
    int64_t timestamp;      /**< source ticks */
    const uint8_t *payload; /**< types[type].payload_size packed bytes, in the buffer */
} mca_common_evt_wire_record_t;

/** A decoded batch. Strings and arrays live in storage the batch owns;
 *  payloads point into the decoded buffer (keep it alive while reading). */
typedef struct mca_common_evt_wire_batch_t {
    mca_common_evt_wire_sender_t sender;
    uint16_t version;
    uint32_t flags;
    uint64_t seq;
    uint32_t num_clocks;
    const mca_common_evt_wire_clock_t *clocks;
    uint32_t num_offsets;
    const mca_common_evt_wire_offset_t *offsets;
    uint32_t num_types;
    const mca_common_evt_wire_type_t *types;
    uint32_t num_drops;
    const mca_common_evt_wire_drop_t *drops;
    uint32_t num_records;
    const uint8_t *records; /**< the RECORDS body after its count (validated) */
    size_t records_len;
    uint32_t num_layouts;
    const mca_common_evt_wire_layout_t *layouts; /**< LAYOUTS entries, in batch order */
    void *storage;     /**< owned; freed by mca_common_evt_wire_batch_destruct */
    const char *error; /**< after a failed decode: what was wrong (static string) */
} mca_common_evt_wire_batch_t;

/**
 * Decode and validate a batch.
 * @param[in]  buf, len  the bytes (untrusted)
 * @param[out] batch     filled on success; on failure holds nothing to free
 *                       and batch->error says why
 * @retval OPAL_SUCCESS
 * @retval OPAL_ERR_BAD_PARAM       NULL arguments
 * @retval OPAL_ERR_UNPACK_FAILURE  not a batch, truncated, inconsistent,
 *                                  out-of-range value, bad name
 * @retval OPAL_ERR_NOT_SUPPORTED   another format version, or an unknown
 *                                  section marked required
 * @retval OPAL_ERR_OUT_OF_RESOURCE no memory
 * Context: ANY. Locks: none. Allocates one block per batch.
 */
OMPI_DECLSPEC int mca_common_evt_wire_decode(const void *buf, size_t len,
                                             mca_common_evt_wire_batch_t *batch);

/** Free what a successful decode allocated; safe on a zeroed batch and on
 *  one whose decode failed. Context: ANY. */
OMPI_DECLSPEC void mca_common_evt_wire_batch_destruct(mca_common_evt_wire_batch_t *batch);

/**
 * Iterate the records of a decoded batch.
 * @param[in,out] cursor  0 before the first call
 * @param[out]    rec     the next record
 * @return true while a record was returned
 * Context: ANY.
 */
OMPI_DECLSPEC bool mca_common_evt_wire_batch_next_record(const mca_common_evt_wire_batch_t *batch,
                                                         size_t *cursor,
                                                         mca_common_evt_wire_record_t *rec);

/** Value of element @p i of a payload of type @p type (validated by the
 *  decode). @retval OPAL_SUCCESS, OPAL_ERR_BAD_PARAM (i out of range).
 *  Context: ANY. */
OMPI_DECLSPEC int mca_common_evt_wire_element_value(const mca_common_evt_wire_type_t *type,
                                                    const uint8_t *payload, unsigned i,
                                                    mca_common_evt_wire_value_t *value);

/** Index of the element named @p name in @p type, or -1. Context: ANY. */
OMPI_DECLSPEC int mca_common_evt_wire_element_find(const mca_common_evt_wire_type_t *type,
                                                   const char *name);

/**
 * Restate a batch as drops: the same header (sequence number, flags plus
 * @p add_flags), sender, clocks, offsets and types, a DROPS section that
 * counts, per type, the batch's own drops plus its records, and no
 * records. What a receiver that has no room for a batch keeps instead, so
 * that a reader still sees the batch number, its FINAL flag and, per rank
 * and type, delivered + dropped == raised.
 * @param[in]  buf, len  the batch's bytes
 * @param[in]  batch     their successful mca_common_evt_wire_decode()
 * @param[out] out       the new batch (malloc'd: the caller frees it)
 * @param[out] out_len   its length (at most len plus 10 bytes per type
 *                       and a section header)
 * @retval OPAL_SUCCESS
 * @retval OPAL_ERR_BAD_PARAM        NULL, or @p batch not decoded
 * @retval OPAL_ERR_OUT_OF_RESOURCE  no memory
 * Context: ANY. Locks: none.
 */
OMPI_DECLSPEC int mca_common_evt_wire_batch_as_drops(const void *buf, size_t len,
                                                     const mca_common_evt_wire_batch_t *batch,
                                                     uint32_t add_flags, void **out,
                                                     size_t *out_len);

/** Read the sequence number, flags and total length from a batch header
 *  without decoding the rest (for indexes). @retval OPAL_SUCCESS,
 *  OPAL_ERR_UNPACK_FAILURE (no valid header). Context: ANY. */
OMPI_DECLSPEC int mca_common_evt_wire_peek(const void *buf, size_t len, uint64_t *seq,
                                           uint32_t *flags);

END_C_DECLS

#endif /* MCA_COMMON_EVT_WIRE_H */
