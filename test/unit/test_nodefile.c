/* Unit tests: node files (ompi/mca/common/evt/common_evt_nodefile.h). Creation
 * rules (0600, O_EXCL, no symlink, safe folder), validation at append,
 * reading back, and crash tolerance: every truncation point and corrupted
 * frames, with and without the index. */
#include "test_event_common.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ompi/mca/common/evt/common_evt_nodefile.h"
#include "ompi/mca/common/evt/common_evt_wire.h"

TestSuite(nodefile, .init = evt_test_setup, .fini = evt_test_teardown);

#define NBATCH 12

typedef struct {
    uint8_t *bytes;
    size_t len;
    uint64_t offset; /* frame offset in the file */
} kept_t;

static kept_t kept[NBATCH];
static char dir[64];
static char path[128];

static opal_count_t clk(void *ctx)
{
    (void) ctx;
    return 5;
}

static void make_dir(void)
{
    strcpy(dir, "/tmp/evt_nodefile_XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/nodeA.evt", dir);
}

static void rm_dir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
}

/* NBATCH batches of varying sizes (rank = batch % 3), appended. */
static void write_file(void)
{
    mca_base_event_source_t *src = evt_test_source("ompi.nf", MCA_BASE_EVENT_SOURCE_ORDERED, clk,
                                                   NULL);
    mca_base_event_t *ev = evt_test_event("nf", MCA_BASE_VAR_BIND_NO_OBJECT, 0, src);
    mca_common_evt_nodefile_t f;
    struct stat st;

    cr_assert_eq(mca_common_evt_nodefile_open(&f, dir, "nodeA"), OPAL_SUCCESS, "%s", f.error);
    for (int k = 0; k < NBATCH; ++k) {
        mca_common_evt_wire_sender_t snd;
        mca_common_evt_wire_encoder_t enc;
        const void *buf;
        size_t len;

        memset(&snd, 0, sizeof(snd));
        strcpy(snd.nspace, "ns");
        strcpy(snd.host, "nodeA");
        snd.rank = (uint32_t) (k % 3);
        cr_assert_eq(mca_common_evt_wire_encoder_construct(&enc, &snd, 8192), OPAL_SUCCESS);
        cr_assert_eq(mca_common_evt_wire_encoder_begin(&enc, (uint64_t) k / 3,
                                                       k == NBATCH - 1
                                                           ? MCA_COMMON_EVT_WIRE_FLAG_FINAL
                                                           : 0),
                     OPAL_SUCCESS);
        for (int i = 0; i < 1 + k * 3; ++i) {
            evt_test_payload_t p = {k, (uint64_t) i};
            mca_base_event_record_t r = {.event = ev, .source = src, .timestamp = i, .data = &p};
            cr_assert_eq(mca_common_evt_wire_encoder_add_record(&enc, &r), OPAL_SUCCESS);
        }
        cr_assert_eq(mca_common_evt_wire_encoder_finish(&enc, &buf, &len), OPAL_SUCCESS);
        kept[k].bytes = malloc(len);
        memcpy(kept[k].bytes, buf, len);
        kept[k].len = len;
        kept[k].offset = f.offset;
        cr_assert_eq(mca_common_evt_nodefile_append(&f, buf, len), OPAL_SUCCESS, "%s", f.error);
        mca_common_evt_wire_encoder_destruct(&enc);
    }
    cr_expect_eq(f.batches, NBATCH);
    cr_expect_eq(mca_common_evt_nodefile_sync(&f), OPAL_SUCCESS);
    mca_common_evt_nodefile_close(&f);
    mca_common_evt_nodefile_close(&f);
    cr_assert_eq(stat(path, &st), 0);
    cr_expect_eq(st.st_mode & 0777, 0600);
}

static void free_kept(void)
{
    for (int k = 0; k < NBATCH; ++k) {
        free(kept[k].bytes);
        kept[k].bytes = NULL;
    }
}

/* Read @p p; return the indexes (into kept) of the batches returned. */
static int read_all(const char *p, int *which, mca_common_evt_nodefile_stats_t *stats)
{
    mca_common_evt_nodefile_reader_t r;
    const void *b;
    size_t len;
    uint64_t off;
    int n = 0, rc;

    cr_assert_eq(mca_common_evt_nodefile_reader_open(&r, p), OPAL_SUCCESS, "%s", r.error);
    cr_expect_str_eq(r.host, "nodeA");
    while (OPAL_SUCCESS == (rc = mca_common_evt_nodefile_reader_next(&r, &b, &len, &off))) {
        mca_common_evt_wire_batch_t batch;
        int k = -1;
        for (int i = 0; i < NBATCH; ++i) {
            if (kept[i].offset == off) {
                k = i;
            }
        }
        cr_assert_geq(k, 0, "a frame at offset %llu", (unsigned long long) off);
        cr_assert_eq(len, kept[k].len);
        cr_assert_eq(memcmp(b, kept[k].bytes, len), 0, "batch %d intact", k);
        cr_assert_eq(mca_common_evt_wire_decode(b, len, &batch), OPAL_SUCCESS);
        mca_common_evt_wire_batch_destruct(&batch);
        which[n++] = k;
    }
    cr_assert_eq(rc, OPAL_ERR_NOT_FOUND);
    *stats = r.stats;
    mca_common_evt_nodefile_reader_close(&r);
    mca_common_evt_nodefile_reader_close(&r);
    return n;
}

static void copy_prefix(const char *from, const char *to, off_t n)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    uint8_t buf[4096];
    cr_assert(in && out);
    while (n > 0) {
        size_t want = n < (off_t) sizeof(buf) ? (size_t) n : sizeof(buf);
        size_t got = fread(buf, 1, want, in);
        if (0 == got) {
            break;
        }
        cr_assert_eq(fwrite(buf, 1, got, out), got);
        n -= (off_t) got;
    }
    fclose(in);
    fclose(out);
}

static void flip_byte(const char *p, off_t at)
{
    int fd = open(p, O_RDWR);
    uint8_t c;
    cr_assert_geq(fd, 0);
    cr_assert_eq(pread(fd, &c, 1, at), 1);
    c ^= 0x5a;
    cr_assert_eq(pwrite(fd, &c, 1, at), 1);
    close(fd);
}

Test(nodefile, round_trip_in_order)
{
    int which[NBATCH];
    mca_common_evt_nodefile_stats_t st;
    char ipath[160];
    struct stat s;

    make_dir();
    write_file();
    cr_assert_eq(read_all(path, which, &st), NBATCH);
    for (int k = 0; k < NBATCH; ++k) {
        cr_expect_eq(which[k], k);
    }
    cr_expect_eq(st.frames, NBATCH);
    cr_expect_eq(st.damaged, 0);
    cr_expect_not(st.truncated);
    snprintf(ipath, sizeof(ipath), "%s.idx", path);
    cr_assert_eq(stat(ipath, &s), 0);
    cr_expect_eq(s.st_size, 16 + NBATCH * 32, "one index entry per frame");
    cr_expect_eq(s.st_mode & 0777, 0600);
    cr_expect(mca_common_evt_nodefile_is_nodefile(path));
    cr_expect_not(mca_common_evt_nodefile_is_nodefile(ipath));
    free_kept();
    rm_dir();
}

Test(nodefile, creation_rules)
{
    mca_common_evt_nodefile_t f;
    char sub[128], link[160];

    make_dir();
    cr_expect_eq(mca_common_evt_nodefile_open(&f, dir, ""), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_common_evt_nodefile_open(&f, dir, "a/b"), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_common_evt_nodefile_open(&f, dir, ".."), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_common_evt_nodefile_open(&f, dir, "x\ny"), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_common_evt_nodefile_open(&f, dir, NULL), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_common_evt_nodefile_open(NULL, dir, "h"), OPAL_ERR_BAD_PARAM);
    snprintf(sub, sizeof(sub), "%s/missing", dir);
    cr_expect_eq(mca_common_evt_nodefile_open(&f, sub, "h"), OPAL_ERR_NOT_FOUND);
    cr_expect_neq(f.error[0], '\0', "the reason is given");

    /* a folder others may write to: refused without the sticky bit */
    snprintf(sub, sizeof(sub), "%s/open", dir);
    cr_assert_eq(mkdir(sub, 0777), 0);
    cr_assert_eq(chmod(sub, 0777), 0);
    cr_expect_eq(mca_common_evt_nodefile_open(&f, sub, "h"), OPAL_ERR_PERM);
    cr_assert_eq(chmod(sub, 01777), 0);
    cr_assert_eq(mca_common_evt_nodefile_open(&f, sub, "h"), OPAL_SUCCESS, "%s", f.error);
    mca_common_evt_nodefile_close(&f);

    /* exists already: refused, and a planted symlink is never followed */
    cr_expect_eq(mca_common_evt_nodefile_open(&f, sub, "h"), OPAL_EXISTS);
    snprintf(link, sizeof(link), "%s/victim.evt", sub);
    cr_assert_eq(symlink("/tmp/evt_nodefile_target_never_created", link), 0);
    cr_expect_eq(mca_common_evt_nodefile_open(&f, sub, "victim"), OPAL_EXISTS);
    cr_expect_neq(access("/tmp/evt_nodefile_target_never_created", F_OK), 0);
    rm_dir();
}

/* The index's name is taken (a file, or a planted symlink): the open is
 * refused and leaves no node file behind, so the next run in the folder
 * is not blocked by a 0-byte <host>.evt. */
Test(nodefile, creates_both_files_or_neither)
{
    mca_common_evt_nodefile_t f;
    char evt[160], idx[160];
    struct stat st;
    int fd;

    make_dir();
    snprintf(evt, sizeof(evt), "%s/taken.evt", dir);
    snprintf(idx, sizeof(idx), "%s/taken.evt.idx", dir);
    fd = open(idx, O_WRONLY | O_CREAT | O_EXCL, 0600);
    cr_assert_geq(fd, 0);
    (void) close(fd);
    cr_expect_eq(mca_common_evt_nodefile_open(&f, dir, "taken"), OPAL_EXISTS);
    cr_expect_neq(strstr(f.error, "taken.evt.idx"), NULL, "the reason names the index: %s",
                  f.error);
    cr_expect_neq(lstat(evt, &st), 0, "a node file was left behind");
    cr_expect_eq(lstat(idx, &st), 0, "the file that was there is kept");

    snprintf(evt, sizeof(evt), "%s/planted.evt", dir);
    snprintf(idx, sizeof(idx), "%s/planted.evt.idx", dir);
    cr_assert_eq(symlink("/tmp/evt_nodefile_target_never_created", idx), 0);
    cr_expect_eq(mca_common_evt_nodefile_open(&f, dir, "planted"), OPAL_EXISTS);
    cr_expect_neq(lstat(evt, &st), 0, "a node file was left behind");
    cr_expect_neq(access("/tmp/evt_nodefile_target_never_created", F_OK), 0);

    /* and the folder is usable again once the name is free */
    cr_assert_eq(unlink(idx), 0);
    cr_expect_eq(mca_common_evt_nodefile_open(&f, dir, "planted"), OPAL_SUCCESS, "%s", f.error);
    mca_common_evt_nodefile_close(&f);
    rm_dir();
}

Test(nodefile, append_validates)
{
    mca_common_evt_nodefile_t f;
    uint8_t junk[64] = "OEVW not a batch at all";
    struct stat s1, s2;

    make_dir();
    cr_assert_eq(mca_common_evt_nodefile_open(&f, dir, "nodeA"), OPAL_SUCCESS);
    cr_assert_eq(stat(path, &s1), 0);
    cr_expect_eq(mca_common_evt_nodefile_append(&f, junk, sizeof(junk)), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_common_evt_nodefile_append(&f, NULL, 10), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(f.rejected, 1);
    cr_expect_eq(f.batches, 0);
    cr_expect_neq(f.error[0], '\0');
    cr_assert_eq(stat(path, &s2), 0);
    cr_expect_eq(s1.st_size, s2.st_size, "nothing written");
    mca_common_evt_nodefile_close(&f);
    cr_expect_eq(mca_common_evt_nodefile_append(&f, junk, sizeof(junk)), OPAL_ERR_BAD_PARAM,
                 "closed");
    rm_dir();
}

Test(nodefile, reader_errors)
{
    mca_common_evt_nodefile_reader_t r;
    char p[160];
    FILE *fp;

    make_dir();
    snprintf(p, sizeof(p), "%s/none.evt", dir);
    cr_expect_eq(mca_common_evt_nodefile_reader_open(&r, p), OPAL_ERR_NOT_FOUND);
    cr_expect_neq(strstr(r.error, "none.evt"), NULL, "%s", r.error);
    cr_expect_eq(mca_common_evt_nodefile_reader_open(&r, dir), OPAL_ERR_FILE_OPEN_FAILURE);
    snprintf(p, sizeof(p), "%s/foreign.evt", dir);
    fp = fopen(p, "w");
    fputs("{\"this\": \"is json\"}\n", fp);
    fclose(fp);
    cr_expect_eq(mca_common_evt_nodefile_reader_open(&r, p), OPAL_ERR_UNPACK_FAILURE);
    cr_expect_neq(strstr(r.error, "not an ompi-evt node file"), NULL, "%s", r.error);
    fp = fopen(p, "w");
    fclose(fp);
    cr_expect_eq(mca_common_evt_nodefile_reader_open(&r, p), OPAL_ERR_UNPACK_FAILURE, "empty file");
    cr_expect_eq(mca_common_evt_nodefile_reader_open(NULL, p), OPAL_ERR_BAD_PARAM);
    rm_dir();
}

/* Every truncation point: the frames complete before the cut come back,
 * nothing else; a cut inside a frame is reported as truncated. */
Test(nodefile, every_truncation)
{
    char cut[160], cidx[170], idx[160];
    struct stat s;

    make_dir();
    write_file();
    cr_assert_eq(stat(path, &s), 0);
    snprintf(cut, sizeof(cut), "%s/cut.evt", dir);
    snprintf(cidx, sizeof(cidx), "%s.idx", cut);
    snprintf(idx, sizeof(idx), "%s.idx", path);
    /* one copy, cut shorter and shorter */
    copy_prefix(path, cut, s.st_size);
    /* the index survives whole (written after each frame; a crash may
     * leave entries for frames cut off: they must not matter) */
    copy_prefix(idx, cidx, 1 << 20);
    for (off_t n = s.st_size; n >= (off_t) kept[0].offset; --n) {
        int which[NBATCH], expect = 0, got;
        mca_common_evt_nodefile_stats_t st;
        bool clean = false; /* the cut falls between frames (or in padding) */

        cr_assert_eq(truncate(cut, n), 0);
        for (int k = 0; k < NBATCH; ++k) {
            uint64_t end = kept[k].offset + 16 + kept[k].len;
            uint64_t next = k + 1 < NBATCH ? kept[k + 1].offset : (uint64_t) s.st_size;
            if (end <= (uint64_t) n) {
                expect = k + 1;
            }
            clean = clean || (uint64_t) n == kept[k].offset
                    || ((uint64_t) n >= end && (uint64_t) n <= next);
        }
        got = read_all(cut, which, &st);
        cr_assert_eq(got, expect, "cut at %lld: %d batches, expected %d", (long long) n, got,
                     expect);
        for (int k = 0; k < got; ++k) {
            cr_assert_eq(which[k], k);
        }
        cr_assert_eq(st.truncated, !clean, "cut at %lld", (long long) n);
    }
    free_kept();
    rm_dir();
}

/* A damaged frame in the middle: every other frame comes back (the index,
 * or the scan without it, finds the next one); the damage is counted. */
Test(nodefile, corrupted_frames)
{
    const int bad = 5;
    struct {
        off_t at;
        const char *what;
    } cases[] = {
        {0, "frame magic"},
        {5, "frame length (header checksum)"},
        {9, "batch checksum field"},
        {16 + 40, "batch bytes"},
    };
    char idx[160];

    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); ++c) {
        for (int with_index = 1; with_index >= 0; --with_index) {
            int which[NBATCH], got, j = 0;
            mca_common_evt_nodefile_stats_t st;

            make_dir();
            write_file();
            snprintf(idx, sizeof(idx), "%s.idx", path);
            flip_byte(path, (off_t) kept[bad].offset + cases[c].at);
            if (!with_index) {
                cr_assert_eq(unlink(idx), 0);
            }
            got = read_all(path, which, &st);
            cr_assert_eq(got, NBATCH - 1, "%s, index %d: %d batches", cases[c].what, with_index,
                         got);
            for (int k = 0; k < NBATCH; ++k) {
                if (k != bad) {
                    cr_assert_eq(which[j++], k);
                }
            }
            cr_expect_eq(st.damaged, 1);
            cr_expect_eq(st.skipped_bytes, kept[bad + 1].offset - kept[bad].offset);
            cr_expect_not(st.truncated);
            cr_expect_eq(st.index_used, (bool) with_index, "%s", cases[c].what);
            free_kept();
            rm_dir();
        }
    }
}

/* Damage to the file header makes the file unreadable as a node file;
 * a damaged index is ignored. */
Test(nodefile, damaged_headers)
{
    mca_common_evt_nodefile_reader_t r;
    int which[NBATCH];
    mca_common_evt_nodefile_stats_t st;
    char idx[160];

    make_dir();
    write_file();
    snprintf(idx, sizeof(idx), "%s.idx", path);
    flip_byte(idx, 2);
    flip_byte(path, (off_t) kept[3].offset + 30);
    cr_expect_eq(read_all(path, which, &st), NBATCH - 1, "scan without the damaged index");
    cr_expect_not(st.index_used);
    flip_byte(path, 25); /* a host byte */
    cr_expect_eq(mca_common_evt_nodefile_reader_open(&r, path), OPAL_ERR_UNPACK_FAILURE);
    cr_expect_neq(strstr(r.error, "damaged"), NULL, "%s", r.error);
    free_kept();
    rm_dir();
}

/* A sink that decoded a batch anyway appends it without a second decode:
 * the same frame and index entry; arguments checked. */
Test(nodefile, append_decoded)
{
    mca_common_evt_nodefile_t f;
    char other[128];

    make_dir();
    write_file(); /* kept[] and nodeA.evt, through mca_common_evt_nodefile_append() */
    cr_assert_eq(mca_common_evt_nodefile_open(&f, dir, "nodeB"), OPAL_SUCCESS, "%s", f.error);
    for (int k = 0; k < NBATCH; ++k) {
        mca_common_evt_wire_batch_t b;
        cr_assert_eq(mca_common_evt_wire_decode(kept[k].bytes, kept[k].len, &b), OPAL_SUCCESS);
        cr_assert_eq(f.offset, kept[k].offset, "same layout as the validating append");
        cr_assert_eq(mca_common_evt_nodefile_append_decoded(&f, kept[k].bytes, kept[k].len, &b),
                     OPAL_SUCCESS, "%s", f.error);
        cr_expect_eq(mca_common_evt_nodefile_append_decoded(&f, kept[k].bytes, kept[k].len, NULL),
                     OPAL_ERR_BAD_PARAM);
        mca_common_evt_wire_batch_destruct(&b);
        cr_expect_eq(mca_common_evt_nodefile_append_decoded(&f, kept[k].bytes, kept[k].len, &b),
                     OPAL_ERR_BAD_PARAM, "a destructed batch is no decoded batch");
    }
    mca_common_evt_nodefile_close(&f);
    /* byte for byte the validating append's file, the host aside */
    snprintf(other, sizeof(other), "%s/nodeB.evt", dir);
    {
        FILE *a = fopen(path, "rb"), *b = fopen(other, "rb");
        uint8_t x[65536], y[65536];
        size_t na, nb;
        cr_assert(a && b);
        na = fread(x, 1, sizeof(x), a);
        nb = fread(y, 1, sizeof(y), b);
        fclose(a);
        fclose(b);
        cr_assert_eq(na, nb);
        cr_expect_eq(memcmp(x + kept[0].offset, y + kept[0].offset, na - kept[0].offset), 0);
    }
    /* and it reads back (host header differs: read_all expects nodeA) */
    {
        char cmd[400];
        snprintf(cmd, sizeof(cmd), "mv '%s' '%s' && mv '%s.idx' '%s.idx'", other, path, other,
                 path);
        cr_assert_eq(unlink(path), 0);
        {
            char ip[160];
            snprintf(ip, sizeof(ip), "%s.idx", path);
            cr_assert_eq(unlink(ip), 0);
        }
        cr_assert_eq(system(cmd), 0);
    }
    {
        mca_common_evt_nodefile_reader_t r;
        const void *b;
        size_t len;
        int n = 0;
        cr_assert_eq(mca_common_evt_nodefile_reader_open(&r, path), OPAL_SUCCESS);
        cr_expect_str_eq(r.host, "nodeB");
        while (OPAL_SUCCESS == mca_common_evt_nodefile_reader_next(&r, &b, &len, NULL)) {
            cr_assert_eq(len, kept[n].len);
            cr_assert_eq(memcmp(b, kept[n].bytes, len), 0);
            ++n;
        }
        cr_expect_eq(n, NBATCH);
        cr_expect_eq(r.stats.damaged, 0);
        mca_common_evt_nodefile_reader_close(&r);
    }
    free_kept();
    rm_dir();
}

/* Following a file while it is written: the file grows a few bytes at a
 * time (the index entry of a frame written after the frame, as the writer
 * does). At every length the follower returns each whole frame once, in
 * order, and OPAL_ERR_WOULD_BLOCK for what is not whole yet, never damage;
 * at the end it has every batch. */
Test(nodefile, follow_a_growing_file)
{
    char grow[160], gidx[200], idx[160];
    struct stat s, si;
    mca_common_evt_nodefile_reader_t r;
    int next = 0;
    uint8_t *data, *ibytes;
    FILE *in;
    int fd, ifd;

    make_dir();
    write_file();
    snprintf(grow, sizeof(grow), "%s/grow.evt", dir);
    snprintf(gidx, sizeof(gidx), "%s.idx", grow);
    snprintf(idx, sizeof(idx), "%s.idx", path);
    cr_assert_eq(stat(path, &s), 0);
    cr_assert_eq(stat(idx, &si), 0);
    data = malloc((size_t) s.st_size);
    ibytes = malloc((size_t) si.st_size);
    in = fopen(path, "rb");
    cr_assert_eq(fread(data, 1, (size_t) s.st_size, in), (size_t) s.st_size);
    fclose(in);
    in = fopen(idx, "rb");
    cr_assert_eq(fread(ibytes, 1, (size_t) si.st_size, in), (size_t) si.st_size);
    fclose(in);
    fd = open(grow, O_WRONLY | O_CREAT | O_EXCL, 0600);
    ifd = open(gidx, O_WRONLY | O_CREAT | O_EXCL, 0600);
    cr_assert(fd >= 0 && ifd >= 0);
    /* the headers, then the reader */
    cr_assert_eq(write(fd, data, kept[0].offset), (ssize_t) kept[0].offset);
    cr_assert_eq(write(ifd, ibytes, 16), 16);
    cr_assert_eq(mca_common_evt_nodefile_reader_open(&r, grow), OPAL_SUCCESS, "%s", r.error);
    cr_assert_eq(mca_common_evt_nodefile_reader_follow(&r), OPAL_SUCCESS);
    for (off_t at = (off_t) kept[0].offset; at < s.st_size;) {
        off_t step = 7 + at % 13, end = at + step > s.st_size ? s.st_size : at + step;
        const void *b;
        size_t len;
        uint64_t off;
        int rc;

        cr_assert_eq(write(fd, data + at, (size_t) (end - at)), end - at);
        at = end;
        /* a frame's index entry once the frame is whole */
        for (int k = 0; k < NBATCH; ++k) {
            uint64_t fend = kept[k].offset + 16 + ((kept[k].len + 7) & ~(size_t) 7);
            if (fend > (uint64_t) at - (uint64_t) step && fend <= (uint64_t) at) {
                cr_assert_eq(pwrite(ifd, ibytes + 16 + 32 * k, 32, 16 + 32 * k), 32);
            }
        }
        while (OPAL_SUCCESS == (rc = mca_common_evt_nodefile_reader_next(&r, &b, &len, &off))) {
            cr_assert_lt(next, NBATCH);
            cr_assert_eq(off, kept[next].offset, "batch %d at length %lld", next, (long long) at);
            cr_assert_eq(len, kept[next].len);
            cr_assert_eq(memcmp(b, kept[next].bytes, len), 0);
            ++next;
        }
        cr_assert_eq(rc, OPAL_ERR_WOULD_BLOCK, "at length %lld: %d", (long long) at, rc);
        cr_assert_eq(r.stats.damaged, 0, "damage at length %lld", (long long) at);
    }
    cr_expect_eq(next, NBATCH);
    mca_common_evt_nodefile_reader_close(&r);
    close(fd);
    close(ifd);
    free(data);
    free(ibytes);
    free_kept();
    rm_dir();
}

/* Following: damage in the middle of a file whose index names the frames
 * after it is damage (counted, skipped); the same damage at the end, with
 * nothing after it, is waited for. */
Test(nodefile, follow_damage_and_tail)
{
    const int bad = 5;
    mca_common_evt_nodefile_reader_t r;
    const void *b;
    size_t len;
    int n = 0, rc;
    char cut[160], cidx[200], idx[160];

    make_dir();
    write_file();
    flip_byte(path, (off_t) kept[bad].offset + 16 + 40);
    cr_assert_eq(mca_common_evt_nodefile_reader_open(&r, path), OPAL_SUCCESS, "%s", r.error);
    cr_assert_eq(mca_common_evt_nodefile_reader_follow(&r), OPAL_SUCCESS);
    while (OPAL_SUCCESS == (rc = mca_common_evt_nodefile_reader_next(&r, &b, &len, NULL))) {
        ++n;
    }
    cr_expect_eq(rc, OPAL_ERR_WOULD_BLOCK);
    cr_expect_eq(n, NBATCH - 1);
    cr_expect_eq(r.stats.damaged, 1);
    mca_common_evt_nodefile_reader_close(&r);

    /* the file cut inside the damaged frame, its index too: the tail may
     * still be written */
    snprintf(cut, sizeof(cut), "%s/cut.evt", dir);
    snprintf(cidx, sizeof(cidx), "%s.idx", cut);
    snprintf(idx, sizeof(idx), "%s.idx", path);
    copy_prefix(path, cut, (off_t) kept[bad].offset + 16 + 60);
    copy_prefix(idx, cidx, 16 + 32 * bad);
    cr_assert_eq(mca_common_evt_nodefile_reader_open(&r, cut), OPAL_SUCCESS, "%s", r.error);
    cr_assert_eq(mca_common_evt_nodefile_reader_follow(&r), OPAL_SUCCESS);
    n = 0;
    while (OPAL_SUCCESS == (rc = mca_common_evt_nodefile_reader_next(&r, &b, &len, NULL))) {
        ++n;
    }
    cr_expect_eq(rc, OPAL_ERR_WOULD_BLOCK);
    cr_expect_eq(n, bad);
    cr_expect_eq(r.stats.damaged, 0);
    cr_expect_not(r.stats.truncated);
    mca_common_evt_nodefile_reader_close(&r);
    free_kept();
    rm_dir();
}

/* A file size limit below a node file's header: the open refuses, says
 * why, and leaves no file (a torn header would make the next run's open
 * fail with "File exists"); it never raises SIGXFSZ (default action here:
 * the test would die). */
Test(nodefile, a_size_limit_below_the_header_is_refused_before_any_file)
{
    mca_common_evt_nodefile_t f;
    struct rlimit lim;
    char idx[sizeof(path) + 8];

    make_dir();
    cr_assert_eq(getrlimit(RLIMIT_FSIZE, &lim), 0);
    lim.rlim_cur = 20;
    cr_assert_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
    cr_assert_eq(mca_common_evt_nodefile_open(&f, dir, "nodeA"), OPAL_ERR_FILE_WRITE_FAILURE);
    cr_expect_not_null(strstr(f.error, "RLIMIT_FSIZE"), "%s", f.error);
    snprintf(idx, sizeof(idx), "%s.idx", path);
    cr_expect_neq(access(path, F_OK), 0, "a node file was left");
    cr_expect_neq(access(idx, F_OK), 0, "an index was left");
    rm_dir();
}

/* A crafted file whose every 16 bytes are a frame header with a valid CRC
 * claiming a body to the end of the file (whose CRC never matches): each
 * such candidate costs a checksum over the rest of the file, so scanning
 * them all would cost the square of the file's size (minutes for these 4
 * MiB). The reader's resynchronisation is bounded: the file reads to its
 * end as damaged, within the timeout. */
Test(nodefile, a_crafted_run_of_frame_headers_is_read_in_bounded_time, .timeout = 60)
{
    const size_t run = 4 << 20;
    mca_common_evt_nodefile_t f;
    mca_common_evt_nodefile_reader_t r;
    unsigned char *crafted = malloc(run);
    const void *b;
    size_t len;
    int fd, rc;

    cr_assert_not_null(crafted);
    make_dir();
    cr_assert_eq(mca_common_evt_nodefile_open(&f, dir, "nodeA"), OPAL_SUCCESS, "%s", f.error);
    mca_common_evt_nodefile_close(&f);
    memset(crafted, 0, run);
    for (size_t at = 0; at + MCA_COMMON_EVT_NODEFILE_FRAME_BYTES <= run;
         at += MCA_COMMON_EVT_NODEFILE_FRAME_BYTES) {
        unsigned char *h = crafted + at;
        size_t rest = run - at - MCA_COMMON_EVT_NODEFILE_FRAME_BYTES;
        uint32_t n = (uint32_t) (rest < MCA_COMMON_EVT_WIRE_MAX_BATCH
                                     ? rest
                                     : MCA_COMMON_EVT_WIRE_MAX_BATCH);
        uint32_t body_crc = 0x12345678, head_crc;

        if (n < MCA_COMMON_EVT_WIRE_HEADER_BYTES) {
            break;
        }
        memcpy(h, MCA_COMMON_EVT_NODEFILE_FRAME, 4);
        memcpy(h + 4, &n, 4); /* little-endian host, as the format */
        memcpy(h + 8, &body_crc, 4);
        head_crc = mca_common_evt_wire_crc32c(0, h, 12);
        memcpy(h + 12, &head_crc, 4);
    }
    fd = open(path, O_WRONLY | O_APPEND);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, crafted, run), (ssize_t) run);
    cr_assert_eq(close(fd), 0);
    free(crafted);
    cr_assert_eq(mca_common_evt_nodefile_reader_open(&r, path), OPAL_SUCCESS, "%s", r.error);
    while (OPAL_SUCCESS == (rc = mca_common_evt_nodefile_reader_next(&r, &b, &len, NULL))) {
    }
    cr_expect_eq(rc, OPAL_ERR_NOT_FOUND, "%s", r.error);
    cr_expect_eq(r.stats.frames, 0);
    cr_expect_geq(r.stats.damaged, 1);
    mca_common_evt_nodefile_reader_close(&r);
    rm_dir();
}
