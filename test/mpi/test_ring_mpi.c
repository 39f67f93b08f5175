/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* mpirun -np 2 --mca evt ring: events raised by a helper thread while the
 * main thread sits in MPI_Recv or MPI_Barrier are delivered by the ring's
 * drain inside that call's progress loop (not at the raise, not after the
 * call). Four phases, each rank blocked in two of them:
 *   1 rank 0 in MPI_Recv (rank 1 sends after 400 ms)   2 the reverse
 *   3 rank 1 in MPI_Barrier (rank 0 enters after 400 ms) 4 the reverse
 * The blocked rank's helper raises 50 events 100 ms into the phase.
 * With TEST_RING_MPI_T_FIRST set, MPI_T_init_thread comes before MPI_Init:
 * the ring starts before Open MPI's progress engine, whose start must not
 * make it forget its drain. */
#include "ompi_config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#include "evt_mpi_common.h"
#include "evt_example_producer.h"
#include "ompi/mca/evt/base/base.h"

#define PER_PHASE 50

static atomic_int in_blocking; /* main thread is inside MPI_Recv/MPI_Barrier */
static atomic_int delivered, delivered_blocked, delivered_other_thread;
/* a second registration at MPI_T_CB_REQUIRE_NONE: its callback may call
 * MPI, so it never runs inside an MPI call's progress */
static atomic_int none_delivered, none_delivered_blocked;
static mca_base_event_t *waiting_ev; /* ompi.mything_base_waiting, NONE only */

static void waiting_register(void)
{
    const mca_base_var_type_t types[1] = {MCA_BASE_VAR_TYPE_INT32_T};
    const ptrdiff_t offsets[1] = {0};
    int ei = mca_base_event_register("ompi", "mything", "base", "waiting", "waits for MPI",
                                     OPAL_INFO_LVL_4, 1, types, offsets, NULL,
                                     MCA_BASE_VAR_BIND_NO_OBJECT, 0, my_event->source, NULL);
    if (0 <= ei) {
        (void) mca_base_event_get_by_index(ei, &waiting_ev);
    }
}
static pthread_t main_thread;
static atomic_int raise_go; /* helper: raise when set to a phase number */

static void cb(MPI_T_event_instance inst, MPI_T_event_registration h, MPI_T_cb_safety s, void *ud)
{
    atomic_fetch_add(&delivered, 1);
    if (atomic_load(&in_blocking)) {
        atomic_fetch_add(&delivered_blocked, 1);
    }
    if (!pthread_equal(pthread_self(), main_thread)) {
        atomic_fetch_add(&delivered_other_thread, 1);
    }
}

static void none_cb(MPI_T_event_instance inst, MPI_T_event_registration h, MPI_T_cb_safety s,
                    void *ud)
{
    atomic_fetch_add(&none_delivered, 1);
    if (atomic_load(&in_blocking)) {
        atomic_fetch_add(&none_delivered_blocked, 1);
    }
}

static void *helper(void *arg)
{
    int done = 0;
    while (done < 2) {
        int phase = atomic_load(&raise_go);
        if (phase > 0) {
            usleep(100000);
            for (int i = 0; i < PER_PHASE; ++i) {
                my_producer_raise(phase * 1000 + i);
            }
            atomic_store(&raise_go, 0);
            ++done;
        }
        usleep(1000);
    }
    return NULL;
}

static void phase(int n, int blocked_rank, int barrier)
{
    int before = atomic_load(&delivered), token = n;

    if (evt_test_rank == blocked_rank) {
        int before_blocked = atomic_load(&delivered_blocked);
        /* this thread's ring: records only a NONE-level callback takes */
        for (int32_t i = 0; i < PER_PHASE; ++i) {
            (void) mca_base_event_raise(waiting_ev, NULL, &i);
        }
        atomic_store(&raise_go, n);
        atomic_store(&in_blocking, 1);
        if (barrier) {
            MPI_Barrier(MPI_COMM_WORLD);
        } else {
            MPI_Recv(&token, 1, MPI_INT, 1 - evt_test_rank, n, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        atomic_store(&in_blocking, 0);
        CHECK(PER_PHASE == atomic_load(&delivered_blocked) - before_blocked,
              "phase %d: %d of %d delivered while blocked", n,
              atomic_load(&delivered_blocked) - before_blocked, PER_PHASE);
        CHECK(0 == atomic_load(&raise_go), "phase %d: helper done", n);
    } else {
        usleep(400000);
        if (barrier) {
            MPI_Barrier(MPI_COMM_WORLD);
        } else {
            MPI_Send(&token, 1, MPI_INT, 1 - evt_test_rank, n, MPI_COMM_WORLD);
        }
        CHECK(before == atomic_load(&delivered), "phase %d: nothing raised here", n);
    }
}

int main(int argc, char **argv)
{
    MPI_T_event_registration h, hn;
    MPI_Count ts;
    int provided, idx, size;
    bool mpit_first = NULL != getenv("TEST_RING_MPI_T_FIRST");
    pthread_t t;

    main_thread = pthread_self();
    if (mpit_first) {
        MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &evt_test_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(2 == size, "size %d", size);
    if (!mpit_first) {
        MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    }
    CHECK(NULL != ompi_evt_base.name && 0 == strcmp(ompi_evt_base.name, "ring"), "ring selected");
    my_producer_register();
    waiting_register();
    CHECK(NULL != waiting_ev, "waiting event");
    CHECK(MPI_SUCCESS == MPI_T_event_get_index("ompi.mything_base_happened", &idx), "index");
    CHECK(MPI_SUCCESS == MPI_T_event_handle_alloc(idx, NULL, MPI_INFO_NULL, &h), "alloc");
    CHECK(MPI_SUCCESS
              == MPI_T_event_register_callback(h, MPI_T_CB_REQUIRE_MPI_RESTRICTED, MPI_INFO_NULL,
                                               NULL, cb),
          "callback");
    CHECK(MPI_SUCCESS == MPI_T_event_get_index("ompi.mything_base_waiting", &idx), "index 2");
    CHECK(MPI_SUCCESS == MPI_T_event_handle_alloc(idx, NULL, MPI_INFO_NULL, &hn), "alloc none");
    CHECK(MPI_SUCCESS
              == MPI_T_event_register_callback(hn, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, NULL,
                                               none_cb),
          "callback none");

    /* deferred: a raise is not delivered at once */
    my_producer_raise(-1);
    CHECK(0 == atomic_load(&delivered), "ring defers delivery");
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(1 == atomic_load(&delivered), "drained by the barrier's progress");
    atomic_store(&delivered, 0);
    atomic_store(&delivered_blocked, 0);

    pthread_create(&t, NULL, helper, NULL);
    phase(1, 0, 0);
    phase(2, 1, 0);
    phase(3, 1, 1);
    phase(4, 0, 1);
    pthread_join(t, NULL);

    CHECK(2 * PER_PHASE == atomic_load(&delivered), "delivered %d", atomic_load(&delivered));
    CHECK(0 == atomic_load(&delivered_other_thread), "callbacks ran in the main thread");
    CHECK(0 == atomic_load(&none_delivered_blocked),
          "a NONE-level callback never ran inside MPI_Recv/MPI_Barrier (%d did)",
          atomic_load(&none_delivered_blocked));
    /* an MPI_T call is a point where the tool may call MPI: they arrive */
    CHECK(MPI_SUCCESS == MPI_T_source_get_timestamp(0, &ts), "timestamp");
    CHECK(2 * PER_PHASE == atomic_load(&none_delivered), "NONE-level delivered %d",
          atomic_load(&none_delivered));
    CHECK(MPI_SUCCESS == MPI_T_event_handle_free(hn, NULL, NULL), "free none");
    CHECK(MPI_SUCCESS == MPI_T_event_handle_free(h, NULL, NULL), "free");
    MPI_T_finalize();
    MPI_Finalize();
    return evt_report();
}
