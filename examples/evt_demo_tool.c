/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/*
 * evt_demo_tool: an MPI_T events tool written against the standard MPI-4
 * names only (MPI_T_event_*, MPI_T_source_*), compiled through the mpi.h
 * shim. Built as a shared library and attached to any MPI program with
 * LD_PRELOAD (it links libompi_evt):
 *   - at load (before main, so before MPI_Init) it calls MPI_T_init_thread
 *     and subscribes to every event type known;
 *   - MPI_Pcontrol(level) makes it subscribe to event types registered
 *     since (a program that adds its own events calls it);
 *   - each instance it receives is printed: event, source, timestamp, rank,
 *     decoded payload;
 *   - at exit (after MPI_Finalize) it prints a summary per event and calls
 *     MPI_T_finalize.
 */

#include <mpi.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_EVENTS 256
#define MAX_ELEMS 32
#define NAME_LEN 256

typedef struct tool_event_t {
    char name[NAME_LEN];
    int index;
    int num_elements;
    MPI_Datatype types[MAX_ELEMS];
    MPI_Aint displs[MAX_ELEMS];
    MPI_T_event_registration handle;
    int subscribed;
    long long count;
    MPI_Count first_ts, last_ts;
} tool_event_t;

static tool_event_t events[MAX_EVENTS];
static int num_seen = 0;
static int tool_up = 0;
static int my_rank = -1;

/* Element names of the built-in events (the standard API gives types and
 * displacements only). */
static const struct {
    const char *event;
    const char *elems[MAX_ELEMS];
} known[] = {
    {"ompi.mpi.initialization",
     {"model", "thread_level", "world_rank", "world_size", "instance_id"}},
    {"ompi.mpi.finalization", {"model", "world_rank", "instance_id"}},
    {"ompi.mpi.communicator_created", {"size", "handle"}},
    {"ompi.mpi.communicator_freed", {"handle"}},
    {"ompi.mpi.communicator_name_set", {"handle"}},
    {"ompi.mpi.errhandler_invoked", {"err_code", "object_type", "errhandler", "object"}},
    {"ompi.mpi.win_created", {"size", "disp_unit", "flavor", "handle"}},
    {"ompi.mpi.win_freed", {"flavor", "handle"}},
    {"ompi.mpi.p2p_send_complete",
     {"comm", "bytes", "start_time", "complete_time", "peer", "tag", "mode", "comm_peer"}},
    {"ompi.mpi.p2p_recv_complete",
     {"comm", "bytes", "start_time", "complete_time", "peer", "tag", "mode", "comm_peer"}},
    {"ompi.mca.memory.patcher.released", {"count", "bytes"}},
    {"ompi.mca.memory.patcher.release", {"bytes", "address"}},
    {"ompi.evt_demo_app_iteration", {"iteration", "rank", "bytes"}},
};

static const char *elem_name(const char *event, int i, char *buf, size_t len)
{
    for (size_t k = 0; k < sizeof(known) / sizeof(known[0]); ++k) {
        if (0 == strcmp(known[k].event, event) && i < MAX_ELEMS && NULL != known[k].elems[i]) {
            return known[k].elems[i];
        }
    }
    snprintf(buf, len, "e%d", i);
    return buf;
}

static void source_name(int index, char *buf, int len)
{
    char desc[256];
    int dlen = sizeof(desc);
    MPI_T_source_order order;
    MPI_Count tps, maxt;

    if (MPI_SUCCESS != MPI_T_source_get_info(index, buf, &len, desc, &dlen, &order, &tps, &maxt,
                                             NULL)) {
        snprintf(buf, len, "source %d", index);
    }
}

static int current_rank(void)
{
    int flag = 0, fin = 0;

    if (0 > my_rank && MPI_SUCCESS == MPI_Initialized(&flag) && flag
        && MPI_SUCCESS == MPI_Finalized(&fin) && !fin) {
        MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
    }
    return my_rank;
}

static void on_event(MPI_T_event_instance instance, MPI_T_event_registration handle,
                     MPI_T_cb_safety safety, void *user_data)
{
    tool_event_t *ev = (tool_event_t *) user_data;
    char line[2048], src[NAME_LEN], tmp[32];
    MPI_Count ts = 0;
    int si = -1, off;

    (void) MPI_T_event_get_timestamp(instance, &ts);
    (void) MPI_T_event_get_source(instance, &si);
    source_name(si, src, sizeof(src));
    if (0 == ev->count) {
        ev->first_ts = ts;
    }
    ev->last_ts = ts;
    ++ev->count;

    off = snprintf(line, sizeof(line), "[evt_demo_tool rank %d] %s source=%s t=%lld:",
                   current_rank(), ev->name, src, (long long) ts);
    for (int i = 0; i < ev->num_elements && off < (int) sizeof(line) - 64; ++i) {
        const char *n = elem_name(ev->name, i, tmp, sizeof(tmp));
        MPI_Datatype t = ev->types[i];
        unsigned char v[16] = {0};

        if (MPI_SUCCESS != MPI_T_event_read(instance, i, v)) {
            off += snprintf(line + off, sizeof(line) - off, " %s=?", n);
        } else if (MPI_INT32_T == t) {
            int32_t x;
            memcpy(&x, v, sizeof(x));
            off += snprintf(line + off, sizeof(line) - off, " %s=%" PRId32, n, x);
        } else if (MPI_UINT32_T == t) {
            uint32_t x;
            memcpy(&x, v, sizeof(x));
            off += snprintf(line + off, sizeof(line) - off, " %s=%" PRIu32, n, x);
        } else if (MPI_INT64_T == t) {
            int64_t x;
            memcpy(&x, v, sizeof(x));
            off += snprintf(line + off, sizeof(line) - off, " %s=%" PRId64, n, x);
        } else if (MPI_UINT64_T == t) {
            uint64_t x;
            memcpy(&x, v, sizeof(x));
            off += snprintf(line + off, sizeof(line) - off, " %s=%" PRIu64, n, x);
        } else if (MPI_DOUBLE == t) {
            double x;
            memcpy(&x, v, sizeof(x));
            off += snprintf(line + off, sizeof(line) - off, " %s=%g", n, x);
        } else {
            off += snprintf(line + off, sizeof(line) - off, " %s=<%d bytes>", n, 8);
        }
    }
    printf("%s\n", line);
    fflush(stdout);
}

/* Subscribe to every event type not seen yet. */
static void subscribe_new(void)
{
    int num = 0;

    if (!tool_up || MPI_SUCCESS != MPI_T_event_get_num(&num)) {
        return;
    }
    for (int i = num_seen; i < num && i < MAX_EVENTS; ++i) {
        tool_event_t *ev = &events[i];
        int name_len = NAME_LEN, verbosity, nelem = MAX_ELEMS, bind, desc_len = 0;
        MPI_T_enum enumtype;

        ev->index = i;
        if (MPI_SUCCESS != MPI_T_event_get_info(i, ev->name, &name_len, &verbosity, ev->types,
                                                ev->displs, &nelem, &enumtype, NULL, NULL,
                                                &desc_len, &bind)) {
            continue;
        }
        ev->num_elements = nelem;
        if (MPI_T_BIND_NO_OBJECT != bind) {
            continue; /* bound events need an object handle; not in this demo */
        }
        if (MPI_SUCCESS != MPI_T_event_handle_alloc(i, NULL, MPI_INFO_NULL, &ev->handle)) {
            continue;
        }
        if (MPI_SUCCESS == MPI_T_event_register_callback(ev->handle, MPI_T_CB_REQUIRE_NONE,
                                                         MPI_INFO_NULL, ev, on_event)) {
            ev->subscribed = 1;
        }
    }
    num_seen = num < MAX_EVENTS ? num : MAX_EVENTS;
}

__attribute__((constructor)) static void tool_start(void)
{
    int provided;

    if (MPI_SUCCESS != MPI_T_init_thread(MPI_THREAD_SINGLE, &provided)) {
        fprintf(stderr, "evt_demo_tool: MPI_T_init_thread failed\n");
        return;
    }
    tool_up = 1;
    subscribe_new();
}

/* The standard channel from a program to its profiling tool. */
int MPI_Pcontrol(const int level, ...)
{
    subscribe_new();
    return MPI_SUCCESS;
}

__attribute__((destructor)) static void tool_stop(void)
{
    int subscribed = 0;

    if (!tool_up) {
        return;
    }
    /* Free every handle first: the frees are flush points, so whatever is
     * still pending (e.g. the memory producer's last batch) is printed
     * before the summary. */
    for (int i = 0; i < num_seen; ++i) {
        if (events[i].subscribed) {
            (void) MPI_T_event_handle_free(events[i].handle, NULL, NULL);
        }
    }
    printf("[evt_demo_tool rank %d] summary:\n", my_rank);
    for (int i = 0; i < num_seen; ++i) {
        tool_event_t *ev = &events[i];

        if (!ev->subscribed) {
            continue;
        }
        ++subscribed;
        if (0 < ev->count) {
            printf("[evt_demo_tool rank %d]   %-34s %4lld instance(s), over %.3f ms\n", my_rank,
                   ev->name, ev->count, (double) (ev->last_ts - ev->first_ts) / 1e6);
        }
    }
    printf("[evt_demo_tool rank %d]   (%d event types subscribed)\n", my_rank, subscribed);
    fflush(stdout);
    /* After MPI_Finalize: legal, and safe with libompi_evt. */
    (void) MPI_T_finalize();
}
