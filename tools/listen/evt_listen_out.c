/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * What every writer shares: output files (written under a temporary name
 * with O_EXCL|O_NOFOLLOW, mode 0600 since they hold a job's data, renamed
 * into place when complete, so a reader never sees half a file and a
 * planted symlink is never followed), JSON text, and caches per type or
 * process id. All JSON strings
 * (names, hosts) and all doubles are produced by json-c; the writers cache
 * the escaped text of each name once and compose lines from those pieces
 * and integers, which is what makes millions of lines per second possible.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "evt_listen.h"

FILE *listen_out_open(const char *dir, const char *name, char **tmp_path, char *err, size_t errlen)
{
    size_t n = strlen(dir) + strlen(name) + 64;
    char *tmp = malloc(n);
    FILE *f;
    int fd;

    if (NULL == tmp) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    snprintf(tmp, n, "%s/.%s.tmp.%ld", dir, name, (long) getpid());
    (void) unlink(tmp); /* ours, from an earlier crash of this pid */
    fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
        free(tmp);
        return NULL;
    }
    f = fdopen(fd, "w");
    if (NULL == f) {
        snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
        close(fd);
        unlink(tmp);
        free(tmp);
        return NULL;
    }
    (void) setvbuf(f, NULL, _IOFBF, 1 << 20);
    *tmp_path = tmp;
    return f;
}

int listen_out_commit(FILE *f, const char *tmp_path, const char *dir, const char *name, char *err,
                      size_t errlen)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *final = malloc(n);
    int bad = ferror(f);

    bad |= fclose(f);
    if (NULL == final) {
        snprintf(err, errlen, "out of memory");
        unlink(tmp_path);
        return -1;
    }
    snprintf(final, n, "%s/%s", dir, name);
    if (0 != bad) {
        snprintf(err, errlen, "writing %s failed: %s", final, strerror(errno));
        unlink(tmp_path);
        free(final);
        return -1;
    }
    if (0 != rename(tmp_path, final)) {
        snprintf(err, errlen, "%s: %s", final, strerror(errno));
        unlink(tmp_path);
        free(final);
        return -1;
    }
    free(final);
    return 0;
}

void *listen_outbuf_new(size_t size, const char *dir, const char *name, char *err, size_t errlen)
{
    listen_outbuf_t *o = calloc(1, size);

    if (NULL == o || NULL == (o->dir = strdup(dir))
        || NULL == (o->buf = malloc(LISTEN_OUTBUF_BYTES))) {
        if (NULL != o) {
            free(o->dir);
        }
        free(o);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    o->name = name;
    o->f = listen_out_open(dir, name, &o->tmp, err, errlen);
    if (NULL == o->f) {
        free(o->buf);
        free(o->dir);
        free(o);
        return NULL;
    }
    return o;
}

int listen_outbuf_flush(listen_outbuf_t *o)
{
    size_t done = 0;

    while (done < o->used) {
        ssize_t w = write(fileno(o->f), o->buf + done, o->used - done);
        if (w < 0) {
            if (EINTR == errno) {
                continue;
            }
            /* the callers only stop: which output, and why, is said here */
            fprintf(stderr, "ompi-evt-listen: writing %s/%s failed: %s\n", o->dir, o->name,
                    strerror(errno));
            return -1;
        }
        done += (size_t) w;
    }
    o->used = 0;
    return 0;
}

int listen_outbuf_room(listen_outbuf_t *o)
{
    if (LISTEN_OUTBUF_BYTES - o->used < LISTEN_OUTBUF_EVENT_MAX) {
        return listen_outbuf_flush(o);
    }
    return 0;
}

int listen_outbuf_commit(listen_outbuf_t *o)
{
    char err[512];
    FILE *f = o->f;

    o->f = NULL; /* closed by listen_out_commit, whatever happens */
    if (0 != listen_out_commit(f, o->tmp, o->dir, o->name, err, sizeof(err))) {
        fprintf(stderr, "ompi-evt-listen: %s\n", err);
        return -1;
    }
    return 0;
}

void listen_outbuf_close(listen_outbuf_t *o)
{
    if (NULL != o->f) {
        fclose(o->f);
        unlink(o->tmp);
    }
    free(o->buf);
    free(o->tmp);
    free(o->dir);
    memset(o, 0, sizeof(*o));
}

void *listen_slot_get(listen_slots_t *t, size_t id, void *(*make)(void *ctx, const void *key),
                      void *ctx, const void *key)
{
    if (id >= t->n) {
        size_t n = id + 16;
        void **v = realloc(t->v, n * sizeof(*v));
        if (NULL == v) {
            return NULL;
        }
        memset(v + t->n, 0, (n - t->n) * sizeof(*v));
        t->v = v;
        t->n = n;
    }
    if (NULL == t->v[id]) {
        t->v[id] = make(ctx, key);
    }
    return t->v[id];
}

void listen_slots_free(listen_slots_t *t, void (*free_entry)(void *))
{
    for (size_t i = 0; i < t->n; ++i) {
        free_entry(t->v[i]);
    }
    free(t->v);
    t->v = NULL;
    t->n = 0;
}

void listen_sink_set(listen_sink_t *sink, const char *name, void *ctx,
                     int (*begin)(void *, const listen_registry_t *),
                     int (*event)(void *, const listen_event_t *),
                     int (*end)(void *, const listen_registry_t *), void (*report)(void *, FILE *),
                     void (*destroy)(void *))
{
    sink->name = name;
    sink->ctx = ctx;
    sink->begin = begin;
    sink->event = event;
    sink->end = end;
    sink->report = report;
    sink->destroy = destroy;
    sink->on_worker = false;
    sink->failed = false;
}

char *listen_json_string(const char *s)
{
    json_object *o = json_object_new_string(s);
    char *out;

    if (NULL == o) {
        return NULL;
    }
    out = strdup(
        json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
    json_object_put(o);
    return out;
}

listen_json_type_t *listen_json_type_make(const listen_type_t *t, bool name_all)
{
    listen_json_type_t *j = calloc(1, sizeof(*j));

    if (NULL == j) {
        return NULL;
    }
    j->n = t->num_elements;
    j->name = listen_json_string(t->name);
    j->source = listen_json_string(t->source);
    j->keys = calloc(t->num_elements + 1, sizeof(*j->keys));
    j->key_len = calloc(t->num_elements + 1, sizeof(*j->key_len));
    if (NULL == j->name || NULL == j->source || NULL == j->keys || NULL == j->key_len) {
        listen_json_type_free(j);
        return NULL;
    }
    j->name_len = strlen(j->name);
    j->source_len = strlen(j->source);
    for (uint16_t i = 0; i < t->num_elements; ++i) {
        char un[LISTEN_ELEMENT_NAME_BUF], *k;
        if ('\0' == t->elements[i].name[0] && !name_all) {
            continue;
        }
        k = listen_json_string(listen_element_name(t, i, un));
        if (NULL == k || NULL == (j->keys[i] = malloc(strlen(k) + 2))) {
            free(k);
            listen_json_type_free(j);
            return NULL;
        }
        j->key_len[i] = (size_t) sprintf(j->keys[i], "%s:", k);
        free(k);
    }
    return j;
}

void listen_json_type_free(void *p)
{
    listen_json_type_t *j = p;

    if (NULL == j) {
        return;
    }
    for (uint16_t i = 0; NULL != j->keys && i < j->n; ++i) {
        free(j->keys[i]);
    }
    free(j->keys);
    free(j->key_len);
    free(j->name);
    free(j->source);
    free(j);
}

static const char digits2[201]
    = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
      "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
      "8081828384858687888990919293949596979899";

static inline size_t ndigits(uint64_t v)
{
    size_t n = 1;
    while (v >= 10000) {
        v /= 10000;
        n += 4;
    }
    return n + (v >= 10) + (v >= 100) + (v >= 1000);
}

/* Decimal digits of v into out (at least 20 bytes), written in place from
 * the end; returns the count. */
static size_t u64_to(char *out, uint64_t v)
{
    size_t n = ndigits(v);
    char *p = out + n;

    while (v >= 100) {
        unsigned d = (unsigned) (v % 100) * 2;
        v /= 100;
        *--p = digits2[d + 1];
        *--p = digits2[d];
    }
    if (v >= 10) {
        unsigned d = (unsigned) v * 2;
        *--p = digits2[d + 1];
        *--p = digits2[d];
    } else {
        *--p = (char) ('0' + v);
    }
    return n;
}

static size_t put(char *out, size_t cap, const char *s, size_t n)
{
    if (n < cap) {
        memcpy(out, s, n);
        out[n] = '\0';
    }
    return n;
}

size_t listen_json_value(char *out, size_t cap, const mca_common_evt_wire_value_t *v)
{
    /* cap >= LISTEN_JSON_VALUE_MAX (integers take at most 20 digits and a sign) */
    switch (v->type) {
    case MCA_COMMON_EVT_WIRE_ELEM_INT32:
    case MCA_COMMON_EVT_WIRE_ELEM_INT64:
        if (v->v.i < 0) {
            out[0] = '-';
            return 1 + u64_to(out + 1, 0 - (uint64_t) v->v.i);
        }
        return u64_to(out, (uint64_t) v->v.i);
    case MCA_COMMON_EVT_WIRE_ELEM_UINT32:
    case MCA_COMMON_EVT_WIRE_ELEM_UINT64:
        return u64_to(out, v->v.u);
    case MCA_COMMON_EVT_WIRE_ELEM_BOOL:
        return v->v.b ? put(out, cap, "true", 4) : put(out, cap, "false", 5);
    case MCA_COMMON_EVT_WIRE_ELEM_DOUBLE: {
        json_object *o;
        const char *s;
        size_t n;
        if (isnan(v->v.d)) {
            return put(out, cap, "\"nan\"", 5);
        }
        if (isinf(v->v.d)) {
            return v->v.d > 0 ? put(out, cap, "\"inf\"", 5) : put(out, cap, "\"-inf\"", 6);
        }
        o = json_object_new_double(v->v.d);
        if (NULL == o) {
            return put(out, cap, "null", 4);
        }
        s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
        n = put(out, cap, s, strlen(s));
        json_object_put(o);
        return n;
    }
    default:
        return put(out, cap, "null", 4);
    }
}

/* Set the modes of the folder open on @p dfd and of all below it. */
static int private_tree_at(int dfd, int depth)
{
    DIR *d;
    struct dirent *de;
    int ret = 0;

    if (0 != fchmod(dfd, 0700)) {
        (void) close(dfd);
        return -1;
    }
    if (64 < depth) { /* an archive is a few levels deep */
        (void) close(dfd);
        return -1;
    }
    d = fdopendir(dfd);
    if (NULL == d) {
        (void) close(dfd);
        return -1;
    }
    while (NULL != (de = readdir(d))) {
        struct stat st;
        int fd;

        if (0 == strcmp(de->d_name, ".") || 0 == strcmp(de->d_name, "..")) {
            continue;
        }
        if (0 != fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW)) {
            ret = -1;
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            fd = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (0 > fd || 0 != private_tree_at(fd, depth + 1)) {
                ret = -1;
            }
        } else if (S_ISREG(st.st_mode)) {
            fd = openat(dirfd(d), de->d_name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
            if (0 > fd || 0 != fchmod(fd, 0600)) {
                ret = -1;
            }
            if (0 <= fd) {
                (void) close(fd);
            }
        } /* anything else (a link) is left alone: never followed */
    }
    (void) closedir(d);
    return ret;
}

int listen_out_private_tree(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

    return 0 > fd ? -1 : private_tree_at(fd, 0);
}

int listen_formats_parse(const char *s, int *fmt, char *err, size_t errlen)
{
    char *copy = strdup(s), *save = NULL, *tok;
    int f = 0;

    if (NULL == copy) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (tok = strtok_r(copy, ",", &save); NULL != tok; tok = strtok_r(NULL, ",", &save)) {
        if (0 == strcmp(tok, "jsonl")) {
            f |= LISTEN_FMT_JSONL;
        } else if (0 == strcmp(tok, "perfetto") || 0 == strcmp(tok, "chrome")) {
            f |= LISTEN_FMT_PERFETTO;
        } else if (0 == strcmp(tok, "otf2")) {
            f |= LISTEN_FMT_OTF2;
        } else if (0 == strcmp(tok, "report")) {
            f |= LISTEN_FMT_REPORT;
        } else {
            snprintf(err, errlen,
                     "--format: unknown format \"%s\" (known: jsonl, perfetto, otf2, report)", tok);
            free(copy);
            return -1;
        }
    }
    free(copy);
    if (0 == f) {
        snprintf(err, errlen, "--format: no format given");
        return -1;
    }
    *fmt = f;
    return 0;
}
