/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Nothing is dropped on a message-rate loop at default settings.
 * Two ranks (more are idle), the loop of bench_p2p's "msgrate": windows of
 * WINDOW 8-byte MPI_Isend (rank 0) / MPI_Irecv (rank 1) completed by
 * MPI_Waitall, and a zero-byte ack per window. Both p2p events have a
 * listener at the level given on the command line ("none" (default),
 * "restricted", "thread_safe") that counts what it receives, and a dropped
 * handler that counts drops. After the loop and a flush point every rank
 * checks, per event, delivered + dropped == raised (the completions the
 * loop made, known from the loop itself) and dropped == 0: at the default
 * ring size, pool size and overflow policy the drains keep pace (the end of
 * each wrapped MPI call in context NONE, opal_progress in MPI_RESTRICTED,
 * the raising thread past the high-water mark). Nothing here depends on
 * timing: on a loaded machine the loop is only slower. Every instance is
 * also checked to carry its completion's clock read as its timestamp
 * (timestamp == complete_time: no second read for the record).
 *
 * Arguments: [none|restricted|thread_safe] [windows] [window]
 */

#include "evt_mpi_test.h"

#include <stdint.h>

#include "ompi/runtime/ompi_evt_payloads.h"

#define MAX_WINDOW 4096

typedef struct {
    long delivered;
    long dropped;
    long bad;
} counts_t;

static counts_t sends, recvs;

static void on_event(MPI_T_event_instance ev, MPI_T_event_registration reg, MPI_T_cb_safety s,
                     void *user_data)
{
    counts_t *c = user_data;
    ompi_evt_p2p_payload_t p;
    MPI_Count ts = -1;

    /* The record is stamped with the completion's own clock read (one read
     * per completion, shared by payload and record): its timestamp is
     * complete_time exactly. */
    if (MPI_SUCCESS != MPI_T_event_copy(ev, &p) || p.complete_time < p.start_time
        || MPI_SUCCESS != MPI_T_event_get_timestamp(ev, &ts) || ts != p.complete_time) {
        ++c->bad;
    }
    ++c->delivered;
}

static void on_dropped(MPI_Count count, MPI_T_event_registration reg, int source_index,
                       MPI_T_cb_safety s, void *user_data)
{
    ((counts_t *) user_data)->dropped += (long) count;
}

static MPI_T_event_registration listen_to(const char *name, MPI_T_cb_safety level, counts_t *c)
{
    MPI_T_event_registration reg = NULL;
    int index = -1;

    EVT_CHECK(MPI_SUCCESS == MPI_T_event_get_index(name, &index), "get_index(%s)", name);
    EVT_CHECK(MPI_SUCCESS == MPI_T_event_handle_alloc(index, NULL, MPI_INFO_NULL, &reg),
              "handle_alloc(%s)", name);
    EVT_CHECK(MPI_SUCCESS == MPI_T_event_register_callback(reg, level, MPI_INFO_NULL, c, on_event),
              "register_callback(%s)", name);
    EVT_CHECK(MPI_SUCCESS == MPI_T_event_set_dropped_handler(reg, on_dropped),
              "set_dropped_handler(%s)", name);
    return reg;
}

int main(int argc, char **argv)
{
    static char bufs[MAX_WINDOW][8];
    MPI_Request rq[MAX_WINDOW];
    MPI_T_cb_safety level = MPI_T_CB_REQUIRE_NONE;
    MPI_T_event_registration regs[2];
    long windows = 2000, window = 64, want_sends = 0, want_recvs = 0;
    char ack = 0;

    evt_test_init(&argc, &argv);
    if (1 < argc && 0 == strcmp(argv[1], "restricted")) {
        level = MPI_T_CB_REQUIRE_MPI_RESTRICTED;
    } else if (1 < argc && 0 == strcmp(argv[1], "thread_safe")) {
        level = MPI_T_CB_REQUIRE_THREAD_SAFE;
    } else if (1 < argc && 0 != strcmp(argv[1], "none")) {
        fprintf(stderr, "unknown level %s (none, restricted, thread_safe)\n", argv[1]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (2 < argc) {
        windows = atol(argv[2]);
    }
    if (3 < argc) {
        window = atol(argv[3]);
    }
    if (0 >= windows || 0 >= window || MAX_WINDOW < window) {
        fprintf(stderr, "bad windows %ld or window %ld (1..%d)\n", windows, window, MAX_WINDOW);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    regs[0] = listen_to("ompi.mpi.p2p_send_complete", level, &sends);
    regs[1] = listen_to("ompi.mpi.p2p_recv_complete", level, &recvs);
    MPI_Barrier(MPI_COMM_WORLD);

    for (long w = 0; w < windows; ++w) {
        if (0 == evt_test_rank) {
            for (long i = 0; i < window; ++i) {
                MPI_Isend(bufs[i], 8, MPI_CHAR, 1, 1, MPI_COMM_WORLD, &rq[i]);
            }
            MPI_Waitall((int) window, rq, MPI_STATUSES_IGNORE);
            MPI_Recv(&ack, 0, MPI_CHAR, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (1 == evt_test_rank) {
            for (long i = 0; i < window; ++i) {
                MPI_Irecv(bufs[i], 8, MPI_CHAR, 0, 1, MPI_COMM_WORLD, &rq[i]);
            }
            MPI_Waitall((int) window, rq, MPI_STATUSES_IGNORE);
            MPI_Send(&ack, 0, MPI_CHAR, 0, 2, MPI_COMM_WORLD);
        }
    }
    if (0 == evt_test_rank) {
        want_sends = windows * window;
        want_recvs = windows;
    } else if (1 == evt_test_rank) {
        want_sends = windows;
        want_recvs = windows * window;
    }
    /* a flush point: what is still queued is delivered, drops reported */
    evt_test_flush();
    printf("rank %d: sends delivered %ld dropped %ld raised %ld; recvs delivered %ld dropped %ld "
           "raised %ld\n",
           evt_test_rank, sends.delivered, sends.dropped, want_sends, recvs.delivered,
           recvs.dropped, want_recvs);
    EVT_CHECK(sends.delivered + sends.dropped == want_sends, "send: %ld + %ld != %ld",
              sends.delivered, sends.dropped, want_sends);
    EVT_CHECK(recvs.delivered + recvs.dropped == want_recvs, "recv: %ld + %ld != %ld",
              recvs.delivered, recvs.dropped, want_recvs);
    EVT_CHECK(0 == sends.dropped && 0 == recvs.dropped, "dropped: send %ld, recv %ld",
              sends.dropped, recvs.dropped);
    EVT_CHECK(0 == sends.bad && 0 == recvs.bad, "bad payloads: send %ld, recv %ld", sends.bad,
              recvs.bad);
    MPI_T_event_handle_free(regs[0], NULL, NULL);
    MPI_T_event_handle_free(regs[1], NULL, NULL);
    return evt_test_finish("test_p2p_msgrate");
}
