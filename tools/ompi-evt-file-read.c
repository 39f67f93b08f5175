/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * ompi-evt-file-read FILE|DIR...: evt/file's flight-recorder files as JSON
 * Lines (json-c). Per file: a "file" line (identity, clocks, dictionary),
 * one "record" line per record (oldest first, the file's rings merged by
 * time), a "summary" line (records, overwritten, drops, problems). A folder
 * is read file by file (*.oevt, sorted by name): only the caller's own
 * regular files (a shared folder may hold anyone's, or a planted FIFO).
 *
 * Exit status: 0 every file valid; 2 some damage was found (what is valid
 * was printed, the damage is in the summary's "problems" and on stderr);
 * 1 usage, or a file that cannot be read at all or was skipped.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ompi/mca/common/evt/common_evt_flight_format.h"
#include "ompi/mca/common/evt/common_evt_flight_read.h"
#include "ompi/mca/common/evt/common_evt_input_open.h"

static void emit(json_object *o)
{
    puts(
        json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
    json_object_put(o);
}

static json_object *value_json(const mca_common_evt_flight_value_t *v)
{
    switch (v->type) {
    case MCA_COMMON_EVT_FLIGHT_TYPE_INT32:
    case MCA_COMMON_EVT_FLIGHT_TYPE_INT64:
        return json_object_new_int64(v->v.i);
    case MCA_COMMON_EVT_FLIGHT_TYPE_UINT32:
    case MCA_COMMON_EVT_FLIGHT_TYPE_UINT64:
        return json_object_new_uint64(v->v.u);
    case MCA_COMMON_EVT_FLIGHT_TYPE_DOUBLE:
        return json_object_new_double(v->v.d);
    case MCA_COMMON_EVT_FLIGHT_TYPE_BOOL:
        return json_object_new_boolean(v->v.b);
    default:
        return NULL;
    }
}

/* A file's path as JSON text: shown printable like the names inside it
 * (a folder may hold any file name). */
static json_object *path_json(const char *path)
{
    char *p = strdup(path);
    json_object *o;

    if (NULL == p) {
        return NULL;
    }
    mca_common_evt_flight_printable(p);
    o = json_object_new_string(p);
    free(p);
    return o;
}

static json_object *file_json(const char *path, const mca_common_evt_flight_file_t *f)
{
    json_object *o = json_object_new_object(), *srcs, *evs;

    json_object_object_add(o, "type", json_object_new_string("file"));
    json_object_object_add(o, "path", path_json(path));
    if (!f->header_valid) {
        json_object_object_add(o, "valid", json_object_new_boolean(0));
        return o;
    }
    json_object_object_add(o, "version", json_object_new_int((int) f->version));
    json_object_object_add(o, "rank", json_object_new_int(f->rank));
    json_object_object_add(o, "world_size", json_object_new_int(f->world_size));
    json_object_object_add(o, "pid", json_object_new_int64(f->pid));
    json_object_object_add(o, "host", json_object_new_string(f->host));
    json_object_object_add(o, "job", json_object_new_string(f->job));
    json_object_object_add(o, "created_ns", json_object_new_int64(f->created_ns));
    json_object_object_add(o, "state", json_object_new_string(f->closed ? "closed" : "open"));
    if (f->closed) {
        json_object_object_add(o, "closed_ns", json_object_new_int64(f->closed_ns));
    }
    json_object_object_add(o, "rings", json_object_new_int((int) f->ring_count));
    json_object_object_add(o, "ring_capacity", json_object_new_int64(f->ring_capacity));
    srcs = json_object_new_array();
    for (size_t i = 0; i < f->nsources; ++i) {
        const mca_common_evt_flight_source_t *s = &f->sources[i];
        json_object *so = json_object_new_object(), *pair = json_object_new_object();

        json_object_object_add(so, "index", json_object_new_int(s->index));
        json_object_object_add(so, "name", json_object_new_string(s->name));
        json_object_object_add(so, "ordered", json_object_new_boolean(0 == s->ordering));
        json_object_object_add(so, "host_clock", json_object_new_boolean(s->host_clock));
        json_object_object_add(so, "ticks_per_second", json_object_new_int64(s->ticks_per_second));
        json_object_object_add(so, "max_ticks", json_object_new_int64(s->max_ticks));
        json_object_object_add(pair, "ticks", json_object_new_int64(s->sample_ticks));
        json_object_object_add(pair, "realtime_ns", json_object_new_int64(s->sample_realtime_ns));
        json_object_object_add(so, "clock_pair", pair);
        json_object_array_add(srcs, so);
    }
    json_object_object_add(o, "sources", srcs);
    evs = json_object_new_array();
    for (size_t i = 0; i < f->nevents; ++i) {
        const mca_common_evt_flight_event_t *e = &f->events[i];
        json_object *eo = json_object_new_object(), *els = json_object_new_array();

        json_object_object_add(eo, "index", json_object_new_int(e->index));
        json_object_object_add(eo, "name", json_object_new_string(e->name));
        json_object_object_add(eo, "source", json_object_new_int(e->source_index));
        json_object_object_add(eo, "extent", json_object_new_int((int) e->extent));
        for (uint32_t j = 0; j < e->num_elements; ++j) {
            json_object *el = json_object_new_object();
            json_object_object_add(el, "type",
                                   json_object_new_string(
                                       mca_common_evt_flight_type_name(e->elements[j].type)));
            json_object_object_add(el, "offset", json_object_new_int((int) e->elements[j].offset));
            if ('\0' != e->elements[j].name[0]) {
                json_object_object_add(el, "name", json_object_new_string(e->elements[j].name));
            }
            json_object_array_add(els, el);
        }
        json_object_object_add(eo, "elements", els);
        json_object_array_add(evs, eo);
    }
    json_object_object_add(o, "events", evs);
    return o;
}

static json_object *record_json(const mca_common_evt_flight_file_t *f,
                                const mca_common_evt_flight_record_t *r)
{
    json_object *o = json_object_new_object();

    json_object_object_add(o, "type", json_object_new_string("record"));
    json_object_object_add(o, "rank", json_object_new_int(f->rank));
    json_object_object_add(o, "ring", json_object_new_int((int) r->ring));
    json_object_object_add(o, "event_index", json_object_new_int64(r->event_index));
    if (NULL != r->event) {
        json_object_object_add(o, "event", json_object_new_string(r->event->name));
        if (NULL != r->event->source) {
            json_object_object_add(o, "source", json_object_new_string(r->event->source->name));
        }
    }
    json_object_object_add(o, "timestamp", json_object_new_int64(r->timestamp));
    if (r->has_time) {
        json_object_object_add(o, "time_ns", json_object_new_int64(r->time_ns));
    }
    json_object_object_add(o, "depth", json_object_new_int(r->depth));
    if (0 != r->obj) {
        json_object_object_add(o, "obj", json_object_new_uint64(r->obj));
    }
    if (NULL != r->event) {
        json_object *data = json_object_new_array();
        for (uint32_t i = 0; i < r->event->num_elements; ++i) {
            mca_common_evt_flight_value_t v;
            if (mca_common_evt_flight_element(r, i, &v)) {
                json_object_array_add(data, value_json(&v));
            }
        }
        json_object_object_add(o, "data", data);
    } else {
        char *hex = malloc((size_t) r->payload_len * 2 + 1);
        if (NULL != hex) {
            for (uint32_t i = 0; i < r->payload_len; ++i) {
                (void) snprintf(hex + 2 * i, 3, "%02x", r->payload[i]);
            }
            hex[2 * r->payload_len] = '\0';
            json_object_object_add(o, "payload_hex", json_object_new_string(hex));
            free(hex);
        }
    }
    return o;
}

static json_object *summary_json(const char *path, const mca_common_evt_flight_file_t *f)
{
    json_object *o = json_object_new_object(), *drops = json_object_new_object(),
                *probs = json_object_new_array();

    json_object_object_add(o, "type", json_object_new_string("summary"));
    json_object_object_add(o, "path", path_json(path));
    json_object_object_add(o, "rank", json_object_new_int(f->rank));
    json_object_object_add(o, "records", json_object_new_int64((int64_t) f->nrecords));
    json_object_object_add(o, "overwritten", json_object_new_uint64(f->overwritten));
    for (size_t i = 0; i < f->ndrops; ++i) {
        const mca_common_evt_flight_event_t *e = mca_common_evt_flight_event(f, f->drops[i]
                                                                                    .event_index);
        char name[32];

        if (NULL == e) {
            (void) snprintf(name, sizeof(name), "#%u", f->drops[i].event_index);
        }
        json_object_object_add(drops, NULL == e ? name : e->name,
                               json_object_new_uint64(f->drops[i].count));
    }
    json_object_object_add(o, "drops", drops);
    json_object_object_add(o, "drops_other", json_object_new_uint64(f->drops_other));
    json_object_object_add(o, "dict_refused", json_object_new_uint64(f->dict_refused));
    for (size_t i = 0; i < f->nproblems; ++i) {
        json_object_array_add(probs, json_object_new_string(f->problems[i]));
    }
    json_object_object_add(o, "problems", probs);
    json_object_object_add(o, "valid", json_object_new_boolean(0 == f->nproblems));
    return o;
}

/* Only the caller's own files are read from a folder (--all-owners: any). */
static bool all_owners;

/* @p name in the folder @p dirfd (AT_FDCWD: a path as given), shown as
 * @p path. @return 0 valid, 2 damaged, 1 unreadable or skipped */
static int read_one(int dirfd, const char *name, const char *path, bool in_folder)
{
    mca_common_evt_flight_file_t *f;
    char why[256];
    int fd, rc;

    rc = mca_common_evt_input_open(dirfd, name, in_folder && !all_owners, &fd, NULL, why,
                                   sizeof(why));
    if (MCA_COMMON_EVT_INPUT_OK != rc) {
        fprintf(stderr, "ompi-evt-file-read: %s: %s%s\n", path, in_folder ? "skipped: " : "", why);
        if (MCA_COMMON_EVT_INPUT_OTHER_OWNER == rc) {
            fprintf(stderr, "ompi-evt-file-read: (--all-owners reads other users' files)\n");
        }
        return 1;
    }
    /* a spool of ompi-evt-record (a chain of images) is read image by
     * image, each with its file and summary objects; a plain recording is
     * one image */
    uint64_t at = 0, next;
    struct stat st;
    int worst = 0;
    do {
        if (0 != fstat(fd, &st) || 0 != mca_common_evt_flight_open_image(fd, at, &f, &next)) {
            fprintf(stderr, "ompi-evt-file-read: %s: %s\n", path, strerror(errno));
            (void) close(fd);
            return 1;
        }
        emit(file_json(path, f));
        for (size_t i = 0; i < f->nrecords; ++i) {
            emit(record_json(f, &f->records[i]));
        }
        emit(summary_json(path, f));
        for (size_t i = 0; i < f->nproblems; ++i) {
            fprintf(stderr, "ompi-evt-file-read: %s: %s\n", path, f->problems[i]);
        }
        if (0 < f->nproblems) {
            worst = 2;
        }
        /* without a valid header the next image cannot be located */
        at = f->header_valid ? next : (uint64_t) st.st_size;
        mca_common_evt_flight_free(f);
    } while (at < (uint64_t) st.st_size);
    (void) close(fd);
    return worst;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *) a, *(char *const *) b);
}

static int read_dir(const char *dir)
{
    size_t n = 0, cap = 0, sl = strlen(MCA_COMMON_EVT_FLIGHT_SUFFIX);
    char **names = NULL;
    struct dirent *de;
    int worst = 0, dfd;
    DIR *d = opendir(dir);

    if (NULL == d) {
        fprintf(stderr, "ompi-evt-file-read: %s: %s\n", dir, strerror(errno));
        return 1;
    }
    dfd = dirfd(d);
    while (NULL != (de = readdir(d))) {
        size_t l = strlen(de->d_name);
        if (l <= sl || 0 != strcmp(de->d_name + l - sl, MCA_COMMON_EVT_FLIGHT_SUFFIX)) {
            continue;
        }
        if (n == cap) {
            char **p = realloc(names, (cap = cap ? 2 * cap : 16) * sizeof(*names));
            if (NULL == p) {
                fprintf(stderr, "ompi-evt-file-read: %s: out of memory\n", dir);
                worst = 1;
                break;
            }
            names = p;
        }
        if (NULL == (names[n] = strdup(de->d_name))) {
            fprintf(stderr, "ompi-evt-file-read: %s: out of memory\n", dir);
            worst = 1;
            break;
        }
        ++n;
    }
    if (1 < n) {
        qsort(names, n, sizeof(*names), by_name);
    }
    if (0 == n && 0 == worst) {
        fprintf(stderr, "ompi-evt-file-read: %s: no *%s files\n", dir,
                MCA_COMMON_EVT_FLIGHT_SUFFIX);
        worst = 1;
    }
    for (size_t i = 0; i < n; ++i) {
        char *path = malloc(strlen(dir) + strlen(names[i]) + 2);
        int rc = 1;
        if (NULL != path) {
            sprintf(path, "%s/%s", dir, names[i]);
            rc = read_one(dfd, names[i], path, true);
        }
        worst = rc > worst ? rc : worst;
        free(path);
        free(names[i]);
    }
    free(names);
    (void) closedir(d);
    return worst;
}

int main(int argc, char **argv)
{
    int worst = 0, first = 1;

    if (1 < argc && 0 == strcmp(argv[1], "--all-owners")) {
        all_owners = true;
        first = 2;
    }
    if (argc <= first || 0 == strcmp(argv[1], "-h") || 0 == strcmp(argv[1], "--help")) {
        fprintf(stderr,
                "usage: ompi-evt-file-read [--all-owners] FILE|DIR...\n"
                "  Prints evt/file flight-recorder files as JSON Lines: a \"file\" line, the\n"
                "  records (oldest first), a \"summary\" line (records, overwritten, drops,\n"
                "  problems). A folder is read file by file (*%s): only this user's\n"
                "  regular files; others are skipped with a line on stderr (--all-owners:\n"
                "  read other users' files too). FIFOs, devices and symbolic links are\n"
                "  never read. Exit 0: all valid; 2: damage found (what is valid is\n"
                "  printed); 1: usage, or a file unreadable or skipped (the others are\n"
                "  printed).\n",
                MCA_COMMON_EVT_FLIGHT_SUFFIX);
        return 1;
    }
    for (int i = first; i < argc; ++i) {
        struct stat st;
        int rc;

        if (0 == stat(argv[i], &st) && S_ISDIR(st.st_mode)) {
            rc = read_dir(argv[i]);
        } else {
            rc = read_one(AT_FDCWD, argv[i], argv[i], false);
        }
        worst = rc > worst ? rc : worst;
    }
    return worst;
}
