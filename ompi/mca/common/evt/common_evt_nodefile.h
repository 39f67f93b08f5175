/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Node files: where a node sink (evt/pmix, evt_pmix_sink=DIR) keeps the
 * batches of its node, and what ompi-evt-listen --read reads back.
 *
 *   DIR/<host>.evt      file header, then one frame per batch, appended
 *   DIR/<host>.evt.idx  index header, then one 32-byte entry per frame
 *
 * Both are created with O_CREAT|O_EXCL|O_NOFOLLOW, mode 0600, in a folder
 * owned by the caller's effective user that others cannot write to (or
 * that has the sticky bit): a planted symlink or file is refused. Both or
 * neither: when the second cannot be created, the first is removed.
 *
 * Room: a frame is written only when it fits whole (the space is
 * preallocated first where the file system can, and RLIMIT_FSIZE is
 * respected, so no SIGXFSZ); otherwise nothing is written and the caller
 * learns it (OPAL_ERR_TEMP_OUT_OF_RESOURCE). A writer may keep a reserve
 * (mca_common_evt_nodefile_set_reserve()) that ordinary appends leave free, for
 * the small frames that say what did not fit
 * (mca_common_evt_nodefile_append_reserved()).
 *
 * Byte layout, version 1, integers little-endian; crc = CRC-32C.
 *   file header  u8[4] "OEVN", u16 version (1), u16 header length (8-byte
 *                multiple), u32 crc of the header with this field 0,
 *                u16 host length, u16 reserved, i64 CLOCK_REALTIME ns at
 *                creation, host bytes, zero padding to the header length
 *   frame        u8[4] "OEVF", u32 batch length (<= MCA_COMMON_EVT_WIRE_MAX_BATCH),
 *                u32 crc of the batch, u32 crc of the frame's first 12
 *                bytes; the batch (a valid wire batch); zero padding to a
 *                multiple of 8
 *   index header u8[4] "OEVI", u16 version (1), u16 header length (16),
 *                u32 reserved, u32 crc of the first 12 bytes
 *   index entry  u64 frame offset, u32 batch length, u32 sender rank,
 *                u64 batch sequence number, u32 batch flags, u32 crc of the
 *                entry's first 28 bytes
 *
 * Crash tolerance: a frame is written with one write() after its batch was
 * validated, then its index entry. A reader walks the frames in order and
 * returns every frame whose header and checksum are intact; at the first
 * damage (torn tail, flipped bits, garbage) it counts it, then resumes at
 * the next intact frame the index points to after the damage (or, without
 * a usable index, at the next intact frame found by scanning 8-byte
 * boundaries). So every complete batch before the damage is returned, and
 * usually the ones after it too.
 */

#ifndef MCA_COMMON_EVT_NODEFILE_H
#define MCA_COMMON_EVT_NODEFILE_H

#include "ompi_config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

BEGIN_C_DECLS

#define MCA_COMMON_EVT_NODEFILE_VERSION     1
#define MCA_COMMON_EVT_NODEFILE_MAGIC       "OEVN"
#define MCA_COMMON_EVT_NODEFILE_FRAME       "OEVF"
#define MCA_COMMON_EVT_NODEFILE_IDX_MAGIC   "OEVI"
#define MCA_COMMON_EVT_NODEFILE_SUFFIX      ".evt"
#define MCA_COMMON_EVT_NODEFILE_IDX_SUFFIX  ".evt.idx"
#define MCA_COMMON_EVT_NODEFILE_FRAME_BYTES 16
#define MCA_COMMON_EVT_NODEFILE_ENTRY_BYTES 32

/** A node file open for appending. */
typedef struct mca_common_evt_nodefile_t {
    int fd;            /**< -1 when closed */
    int idx_fd;        /**< -1 when closed */
    uint64_t offset;   /**< where the next frame goes */
    uint64_t batches;  /**< frames appended */
    uint64_t rejected; /**< batches refused by the validation */
    uint64_t reserve;  /**< bytes ordinary appends leave free (0: none) */
    uint64_t limit;    /**< largest file size allowed (RLIMIT_FSIZE at open) */
    bool prealloc;     /**< the file system preallocates (fallocate) */
    char path[4096];
    char error[256]; /**< after a failure: what went wrong */
} mca_common_evt_nodefile_t;

/**
 * Create DIR/<host>.evt and its index.
 * @retval OPAL_SUCCESS
 * @retval OPAL_ERR_BAD_PARAM       NULL, or a host name that is not a plain
 *                                  file name (empty, '/', ".", "..", control
 *                                  characters, longer than 255)
 * @retval OPAL_ERR_NOT_FOUND       DIR does not exist
 * @retval OPAL_ERR_PERM            DIR is not a folder of ours, or others may
 *                                  write to it without the sticky bit
 * @retval OPAL_EXISTS              the file (or a symlink by its name) exists
 * @retval OPAL_ERR_FILE_OPEN_FAILURE  any other failure (f->error says which)
 * Context: INIT or ANY (not a hot path). Locks: none.
 */
OMPI_DECLSPEC int mca_common_evt_nodefile_open(mca_common_evt_nodefile_t *f, const char *dir,
                                               const char *host);

/**
 * Validate @p batch (mca_common_evt_wire_decode) and append it as one frame, then
 * its index entry.
 * @retval OPAL_SUCCESS
 * @retval OPAL_ERR_BAD_PARAM          not a valid batch: nothing written,
 *                                     f->rejected counted
 * @retval OPAL_ERR_TEMP_OUT_OF_RESOURCE no room for the frame (and the
 *                                     reserve): file system full, quota,
 *                                     or RLIMIT_FSIZE; nothing written
 * @retval OPAL_ERR_FILE_WRITE_FAILURE the write failed otherwise (I/O
 *                                     error): the file stays readable up
 *                                     to the last complete frame
 * Context: ANY, one thread at a time per file (the sink's). Locks: none.
 */
OMPI_DECLSPEC int mca_common_evt_nodefile_append(mca_common_evt_nodefile_t *f, const void *batch,
                                                 size_t len);

/**
 * Append a batch the caller has already validated: @p decoded is the
 * successful mca_common_evt_wire_decode() of exactly these @p len bytes (a sink
 * that decodes anyway to filter saves the second decode). Same frame, same
 * index entry, same errors as mca_common_evt_nodefile_append() except that the
 * bytes are not validated again.
 * @retval OPAL_SUCCESS
 * @retval OPAL_ERR_BAD_PARAM          NULL, closed file, no decoded batch
 * @retval OPAL_ERR_FILE_WRITE_FAILURE as mca_common_evt_nodefile_append()
 * Context: ANY, one thread at a time per file.
 */
struct mca_common_evt_wire_batch_t;
OMPI_DECLSPEC int
mca_common_evt_nodefile_append_decoded(mca_common_evt_nodefile_t *f, const void *batch, size_t len,
                                       const struct mca_common_evt_wire_batch_t *decoded);

/**
 * Keep @p bytes free behind the last frame for
 * mca_common_evt_nodefile_append_reserved(): ordinary appends that would eat
 * into them are refused (OPAL_ERR_TEMP_OUT_OF_RESOURCE). The space is
 * preallocated now where the file system can.
 * @retval OPAL_SUCCESS
 * @retval OPAL_ERR_TEMP_OUT_OF_RESOURCE  not that much room (the reserve
 *                                        is still set: appends keep it)
 * @retval OPAL_ERR_BAD_PARAM             closed file
 * Context: INIT or ANY, same thread rule.
 */
OMPI_DECLSPEC int mca_common_evt_nodefile_set_reserve(mca_common_evt_nodefile_t *f, uint64_t bytes);

/**
 * mca_common_evt_nodefile_append_decoded() that may use the reserve: for the
 * small frames that account for what did not fit.
 * @retval as mca_common_evt_nodefile_append_decoded()
 * Context: ANY, same thread rule.
 */
OMPI_DECLSPEC int
mca_common_evt_nodefile_append_reserved(mca_common_evt_nodefile_t *f, const void *batch, size_t len,
                                        const struct mca_common_evt_wire_batch_t *decoded);

/** Flush to stable storage (fdatasync). Context: ANY, same thread rule. */
OMPI_DECLSPEC int mca_common_evt_nodefile_sync(mca_common_evt_nodefile_t *f);

/** Close; safe on a closed or zeroed-then-failed file. Context: ANY. */
OMPI_DECLSPEC void mca_common_evt_nodefile_close(mca_common_evt_nodefile_t *f);

/** Remove the (closed) node file and its index, for a writer that ends
 *  up recording nothing: no empty node file is left to block the next
 *  run. Context: INIT. */
OMPI_DECLSPEC void mca_common_evt_nodefile_remove(mca_common_evt_nodefile_t *f);

/** What a reader found so far. */
typedef struct mca_common_evt_nodefile_stats_t {
    uint64_t frames;        /**< intact frames returned */
    uint64_t damaged;       /**< damaged regions met (each skipped once) */
    uint64_t skipped_bytes; /**< bytes inside damaged regions */
    bool truncated;         /**< damage reaches the end of the file (a torn tail) */
    bool index_used;        /**< the index helped to resume after damage */
} mca_common_evt_nodefile_stats_t;

struct mca_common_evt_nodefile_rstate_t; /* private to common_evt_nodefile.c */

/** A node file open for reading. */
typedef struct mca_common_evt_nodefile_reader_t {
    struct mca_common_evt_nodefile_rstate_t *state;
    char host[256]; /**< from the file header */
    int64_t created_ns;
    mca_common_evt_nodefile_stats_t stats;
    char error[512]; /**< after a failure, or the first damage: what and where */
} mca_common_evt_nodefile_reader_t;

/**
 * Open a node file (its index, PATH.idx, is used when present and valid).
 * @retval OPAL_SUCCESS
 * @retval OPAL_ERR_BAD_PARAM          NULL
 * @retval OPAL_ERR_NOT_FOUND          no such file
 * @retval OPAL_ERR_FILE_OPEN_FAILURE  cannot be read (permission, a folder)
 * @retval OPAL_ERR_UNPACK_FAILURE     not a node file (foreign, or its header
 *                                     is damaged), or another version
 * @retval OPAL_ERR_OUT_OF_RESOURCE    no memory
 * r->error says which. Context: ANY.
 */
OMPI_DECLSPEC int mca_common_evt_nodefile_reader_open(mca_common_evt_nodefile_reader_t *r,
                                                      const char *path);

/**
 * Next intact frame.
 * @param[out] batch   its bytes (checksum verified; still untrusted: decode
 *                     it); valid until the next call
 * @param[out] len     its length
 * @param[out] offset  the frame's offset in the file (may be NULL)
 * @retval OPAL_SUCCESS
 * @retval OPAL_ERR_NOT_FOUND     no more frames (check r->stats for damage)
 * @retval OPAL_ERR_WOULD_BLOCK   following: nothing more yet (see
 *                                mca_common_evt_nodefile_reader_follow())
 * @retval OPAL_ERR_FILE_READ_FAILURE  an I/O error (r->error)
 * @retval OPAL_ERR_OUT_OF_RESOURCE
 * Context: ANY, one thread per reader.
 */
OMPI_DECLSPEC int mca_common_evt_nodefile_reader_next(mca_common_evt_nodefile_reader_t *r,
                                                      const void **batch, size_t *len,
                                                      uint64_t *offset);

/**
 * Follow a file that its node sink may still be writing: from now on,
 * mca_common_evt_nodefile_reader_next() looks at the file's size again at
 * each call, and returns OPAL_ERR_WOULD_BLOCK where it would have found
 * the end, or damage that may be a frame still being written (bytes at
 * the end that are not yet an intact frame, with no intact frame after
 * them in the index: the writer appends a frame, then its index entry).
 * Damage followed by a frame the index names is damage as before. Once
 * the writer is known to be done, read the file again without following
 * to learn whether its end is torn. @retval OPAL_SUCCESS,
 * OPAL_ERR_BAD_PARAM, OPAL_ERR_OUT_OF_RESOURCE. Context: ANY.
 */
OMPI_DECLSPEC int mca_common_evt_nodefile_reader_follow(mca_common_evt_nodefile_reader_t *r);

/** Close; safe twice. Context: ANY. */
OMPI_DECLSPEC void mca_common_evt_nodefile_reader_close(mca_common_evt_nodefile_reader_t *r);

/** True when the first bytes of @p path say "node file" (for --read of a
 *  folder holding several kinds of files). Context: ANY. */
OMPI_DECLSPEC bool mca_common_evt_nodefile_is_nodefile(const char *path);

END_C_DECLS

#endif /* MCA_COMMON_EVT_NODEFILE_H */
