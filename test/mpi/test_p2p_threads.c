/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Point-to-point completions raised from several threads at once
 * (MPI_THREAD_MULTIPLE): the request table's concurrent path. Two ranks;
 * THREADS threads on each (more than this machine's cores), thread t
 * exchanging with thread t of the other rank on tag t. Each round a thread
 * posts WINDOW receives and WINDOW sends, alternately small (8 bytes:
 * complete inside the I-call, never tracked) and large (32 KiB: a
 * rendezvous, pending, tracked), and completes them with the member of the
 * Wait/Test family the round number picks (Waitall, a Testany loop, a
 * Testall loop, Wait each, a Testsome loop), so the threads enter, look up
 * and release table entries at the same time, and collide in the table
 * (tracked requests are libmpi's, hashed wherever they fall).
 *
 * A listener on both events (MPI_T_CB_REQUIRE_THREAD_SAFE: served by any
 * thread's drain) counts, per tag, the events and their bytes; a dropped
 * handler counts drops. After a flush point each rank checks, per event:
 * no drop (the table holds 8192 requests, the threads a few hundred at
 * most); per tag exactly the messages of that thread and their bytes;
 * every payload's tag one of ours; and the table empty at the end. A
 * request whose entry another thread took or lost would show as a missing
 * or extra event of its tag, or a request left in the table.
 *
 * Arguments: [rounds]
 */

#include "evt_mpi_test.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "ompi/runtime/ompi_evt_payloads.h"
#include "ompi/runtime/ompi_evt_producers.h"

#define THREADS 6
#define WINDOW  32
#define SMALL   8
#define LARGE   (32 * 1024)
#define METHODS 5

typedef struct {
    atomic_long events[THREADS];
    atomic_llong bytes[THREADS];
    atomic_long foreign; /**< events of a tag no thread used */
    atomic_long dropped;
} counts_t;

static counts_t counts[2]; /* send, recv */
static long rounds = 400;
static int peer;

static void on_event(MPI_T_event_instance ev, MPI_T_event_registration reg, MPI_T_cb_safety s,
                     void *user_data)
{
    counts_t *c = user_data;
    ompi_evt_p2p_payload_t p;

    if (MPI_SUCCESS != MPI_T_event_copy(ev, &p) || p.tag < 0 || p.tag >= THREADS
        || p.comm_peer != peer) {
        atomic_fetch_add(&c->foreign, 1);
        return;
    }
    atomic_fetch_add(&c->events[p.tag], 1);
    atomic_fetch_add(&c->bytes[p.tag], (long long) p.bytes);
}

static void on_dropped(MPI_Count count, MPI_T_event_registration reg, int source_index,
                       MPI_T_cb_safety s, void *user_data)
{
    atomic_fetch_add(&((counts_t *) user_data)->dropped, (long) count);
}

/* Complete the n requests of @p rq by method @p m. */
static void complete(int m, int n, MPI_Request *rq)
{
    int done = 0, flag = 0, idx, out, indices[2 * WINDOW];

    switch (m) {
    case 0:
        MPI_Waitall(n, rq, MPI_STATUSES_IGNORE);
        break;
    case 1:
        /* Not MPI_Waitany: under MPI_THREAD_MULTIPLE, Open MPI 4.1.4's
         * returns now and then with none of its requests complete (it read
         * requests[MPI_UNDEFINED], 3 runs of 18 on a loaded host). Two of a
         * call's requests completed at once by other threads' progress
         * both decrement its stack wait object; the second decrement can
         * land after the call returned, on the next call's object at the
         * same address. Testany has no wait object; our wrapper's path
         * after the call is the same (the one request it completed). */
        while (done < n) {
            flag = 0;
            MPI_Testany(n, rq, &idx, &flag, MPI_STATUS_IGNORE);
            if (flag && MPI_UNDEFINED == idx) {
                break; /* all inactive */
            }
            done += flag;
        }
        break;
    case 2:
        while (!flag) {
            MPI_Testall(n, rq, &flag, MPI_STATUSES_IGNORE);
        }
        break;
    case 3:
        for (int i = 0; i < n; ++i) {
            MPI_Wait(&rq[i], MPI_STATUS_IGNORE);
        }
        break;
    default:
        while (done < n) {
            MPI_Testsome(n, rq, &out, indices, MPI_STATUSES_IGNORE);
            if (MPI_UNDEFINED == out) {
                break;
            }
            done += out;
        }
        break;
    }
}

static void *exchange(void *arg)
{
    int t = (int) (intptr_t) arg;
    static char sbuf[THREADS][LARGE], rbuf[THREADS][WINDOW][LARGE];
    MPI_Request rq[2 * WINDOW];

    for (long r = 0; r < rounds; ++r) {
        for (int i = 0; i < WINDOW; ++i) {
            MPI_Irecv(rbuf[t][i], LARGE, MPI_CHAR, peer, t, MPI_COMM_WORLD, &rq[i]);
        }
        for (int i = 0; i < WINDOW; ++i) {
            MPI_Isend(sbuf[t], i % 2 ? LARGE : SMALL, MPI_CHAR, peer, t, MPI_COMM_WORLD,
                      &rq[WINDOW + i]);
        }
        complete((int) ((r + t) % METHODS), 2 * WINDOW, rq);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    MPI_T_event_registration regs[2];
    static const char *names[2] = {"ompi.mpi.p2p_send_complete", "ompi.mpi.p2p_recv_complete"};
    pthread_t th[THREADS];
    ompi_evt_p2p_stats_t table;
    int provided = 0, size = 0;

    if (MPI_SUCCESS != MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided)
        || MPI_SUCCESS != MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided)) {
        fprintf(stderr, "init failed\n");
        return 2;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &evt_test_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Query_thread(&provided);
    if (2 != size || MPI_THREAD_MULTIPLE != provided) {
        fprintf(stderr, "test_p2p_threads: needs 2 ranks and MPI_THREAD_MULTIPLE (got %d, %d)\n",
                size, provided);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (1 < argc) {
        rounds = atol(argv[1]);
    }
    peer = 1 - evt_test_rank;
    for (int k = 0; k < 2; ++k) {
        regs[k] = evt_test_subscribe_safe(names[k], NULL, on_event, &counts[k],
                                          MPI_T_CB_REQUIRE_THREAD_SAFE);
        EVT_CHECK(MPI_SUCCESS == MPI_T_event_set_dropped_handler(regs[k], on_dropped),
                  "set_dropped_handler(%s)", names[k]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int t = 0; t < THREADS; ++t) {
        pthread_create(&th[t], NULL, exchange, (void *) (intptr_t) t);
    }
    for (int t = 0; t < THREADS; ++t) {
        pthread_join(th[t], NULL);
    }
    evt_test_flush();
    ompi_evt_p2p_test_stats(&table);
    for (int k = 0; k < 2; ++k) {
        const long want = rounds * WINDOW;
        const long long want_bytes = rounds * (WINDOW / 2) * (long long) (SMALL + LARGE);
        long dropped = atomic_load(&counts[k].dropped);

        EVT_CHECK(0 == dropped, "rank %d %s: %ld dropped", evt_test_rank, names[k], dropped);
        EVT_CHECK(0 == atomic_load(&counts[k].foreign), "rank %d %s: %ld events of no thread",
                  evt_test_rank, names[k], atomic_load(&counts[k].foreign));
        for (int t = 0; t < THREADS; ++t) {
            long n = atomic_load(&counts[k].events[t]);
            long long b = atomic_load(&counts[k].bytes[t]);
            EVT_CHECK(want == n && want_bytes == b,
                      "rank %d %s, thread %d: %ld events of %lld bytes, want %ld of %lld",
                      evt_test_rank, names[k], t, n, b, want, want_bytes);
        }
    }
    EVT_CHECK(0 == table.in_use, "rank %d: %lld requests still tracked", evt_test_rank,
              (long long) table.in_use);
    for (int k = 0; k < 2; ++k) {
        evt_test_unsubscribe(regs[k]);
    }
    return evt_test_finish("test_p2p_threads");
}
