/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

#include "ompi_config.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mpi.h"
#include "opal/constants.h"

#include "ompi/mca/evt/pmix/evt_pmix_clock.h"
#include "ompi/runtime/ompi_evt_pmpi_next.h"

/* Tags on the private communicator. */
enum {
    CLOCK_TAG_TURN = 1,
    CLOCK_TAG_PING = 2,
    CLOCK_TAG_PONG = 3,
    CLOCK_TAG_DONE = 4,
    CLOCK_TAG_SAMPLE = 5
};

/* Written at INIT before any batch is built, read by every reading. */
static int64_t clock_skew_ns;

int64_t ompi_evt_pmix_clock_realtime_ns(void)
{
    struct timespec ts;
    (void) clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec + clock_skew_ns;
}

void ompi_evt_pmix_clock_set_skew(int64_t skew_ns)
{
    clock_skew_ns = skew_ns;
}

int ompi_evt_pmix_clock_parse_skew(const char *spec, const char *host, int64_t *skew_ns,
                                   const char **error)
{
    const char *colon = NULL == spec ? NULL : strrchr(spec, ':');
    char *end;
    double seconds;

    *skew_ns = 0;
    if (NULL == colon || colon == spec || '\0' == colon[1]) {
        *error = "expected HOST:SECONDS";
        return OPAL_ERR_BAD_PARAM;
    }
    errno = 0;
    seconds = strtod(colon + 1, &end);
    if (0 != errno || '\0' != *end || !(seconds >= -1e6 && seconds <= 1e6)) {
        *error = "SECONDS must be a number of at most 1e6 in magnitude";
        return OPAL_ERR_BAD_PARAM;
    }
    if (NULL != host && strlen(host) == (size_t) (colon - spec)
        && 0 == strncmp(spec, host, (size_t) (colon - spec))) {
        *skew_ns = (int64_t) (seconds * 1e9 + (seconds < 0 ? -0.5 : 0.5));
    }
    return OPAL_SUCCESS;
}

static int64_t mono_ns(void)
{
    struct timespec ts;
    (void) clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Complete @p req by @p deadline (CLOCK_MONOTONIC ns). @p polite: sleep
 * between polls (a rank waiting for its turn leaves the core to the two
 * that measure). A p2p request (@p p2p) not complete in time is cancelled
 * and freed; a collective one cannot be cancelled (MPI; Open MPI 4.1's
 * PMPI_Cancel blocks on it) and is left to libmpi. Context: INIT. */
static int wait_until(MPI_Request *req, int64_t deadline, bool polite, bool p2p)
{
    for (;;) {
        int done = 0;

        if (MPI_SUCCESS != EVT_LIBMPI(Test)(req, &done, MPI_STATUS_IGNORE)) {
            return OPAL_ERROR;
        }
        if (done) {
            return OPAL_SUCCESS;
        }
        if (mono_ns() >= deadline) {
            if (p2p) {
                (void) EVT_LIBMPI(Cancel)(req);
                (void) EVT_LIBMPI(Request_free)(req);
            }
            return OPAL_ERR_TIMEOUT;
        }
        if (polite) {
            struct timespec ts = {.tv_sec = 0, .tv_nsec = 200000};
            (void) nanosleep(&ts, NULL);
        } else {
            /* the partner may share this core (oversubscribed nodes) */
            (void) sched_yield();
        }
    }
}

static int send_wait(const void *buf, int count, MPI_Datatype type, int peer, int tag,
                     MPI_Comm comm, int64_t deadline)
{
    MPI_Request req;

    if (MPI_SUCCESS != EVT_LIBMPI(Isend)(buf, count, type, peer, tag, comm, &req)) {
        return OPAL_ERROR;
    }
    return wait_until(&req, deadline, false, true);
}

static int recv_wait(void *buf, int count, MPI_Datatype type, int peer, int tag, MPI_Comm comm,
                     int64_t deadline, bool polite)
{
    MPI_Request req;

    if (MPI_SUCCESS != EVT_LIBMPI(Irecv)(buf, count, type, peer, tag, comm, &req)) {
        return OPAL_ERROR;
    }
    return wait_until(&req, deadline, polite, true);
}

/* Rank 0: each other clock's leader in turn gets "your turn", then its
 * pings (a flag: 1 a round trip, 0 the end) are answered with rank 0's
 * time. */
static int serve(const ompi_evt_pmix_clock_t *clock, MPI_Comm comm, int size, int64_t deadline)
{
    for (int i = 0; i < clock->nleaders; ++i) {
        int peer = clock->leaders[i];
        int rc = send_wait(NULL, 0, MPI_BYTE, peer, CLOCK_TAG_TURN, comm, deadline);

        for (int round = 0; OPAL_SUCCESS == rc && round < OMPI_EVT_PMIX_CLOCK_MAX_ROUNDS; ++round) {
            int32_t more = 0;
            int64_t now;

            rc = recv_wait(&more, 1, MPI_INT32_T, peer, CLOCK_TAG_PING, comm, deadline, false);
            if (OPAL_SUCCESS != rc || 0 == more) {
                break;
            }
            now = ompi_evt_pmix_clock_realtime_ns();
            rc = send_wait(&now, 1, MPI_INT64_T, peer, CLOCK_TAG_PONG, comm, deadline);
        }
        if (OPAL_SUCCESS != rc) {
            return rc;
        }
    }
    /* everyone measured: release them together (a rank measured early
     * must not go back to the application, which may spin in MPI calls
     * and take the core from the two that measure) */
    for (int peer = 1; peer < size; ++peer) {
        int rc = send_wait(NULL, 0, MPI_BYTE, peer, CLOCK_TAG_DONE, comm, deadline);
        if (OPAL_SUCCESS != rc) {
            return rc;
        }
    }
    return OPAL_SUCCESS;
}

void ompi_evt_pmix_clock_drop_noise(mca_common_evt_wire_offset_t *sample)
{
    if (sample->offset_ns < (int64_t) sample->uncertainty_ns
        && -sample->offset_ns < (int64_t) sample->uncertainty_ns) {
        /* not told apart from 0: applying the noise would reorder events */
        sample->offset_ns = 0;
    }
}

/* Other ranks: wait for the turn, then round trips until the shortest has
 * not improved for OMPI_EVT_PMIX_CLOCK_ROUNDS of them and is shorter than
 * OMPI_EVT_PMIX_CLOCK_GOOD_RTT_NS or OMPI_EVT_PMIX_CLOCK_MIN_NS have passed
 * (round trips stretched by a descheduled process are outlasted), at most
 * OMPI_EVT_PMIX_CLOCK_MAX_ROUNDS - 1; keep the shortest. */
static int measure(MPI_Comm comm, int64_t deadline, mca_common_evt_wire_offset_t *sample)
{
    int64_t best_rtt = INT64_MAX;
    int32_t more = 1, end = 0;
    int rc = recv_wait(NULL, 0, MPI_BYTE, 0, CLOCK_TAG_TURN, comm, deadline, true);
    int since_best = 0;
    int64_t start = mono_ns();

    for (int round = 0; OPAL_SUCCESS == rc && round < OMPI_EVT_PMIX_CLOCK_MAX_ROUNDS - 1
                        && (since_best < OMPI_EVT_PMIX_CLOCK_ROUNDS
                            || (best_rtt > OMPI_EVT_PMIX_CLOCK_GOOD_RTT_NS
                                && mono_ns() - start < OMPI_EVT_PMIX_CLOCK_MIN_NS));
         ++round) {
        int64_t reference = 0, t1, t2;
        MPI_Request req;

        /* the receive is posted first: the answer never waits in the
         * unexpected queue */
        if (MPI_SUCCESS
            != EVT_LIBMPI(Irecv)(&reference, 1, MPI_INT64_T, 0, CLOCK_TAG_PONG, comm, &req)) {
            return OPAL_ERROR;
        }
        t1 = ompi_evt_pmix_clock_realtime_ns();
        rc = send_wait(&more, 1, MPI_INT32_T, 0, CLOCK_TAG_PING, comm, deadline);
        if (OPAL_SUCCESS != rc) {
            (void) EVT_LIBMPI(Cancel)(&req);
            (void) EVT_LIBMPI(Request_free)(&req);
            break;
        }
        rc = wait_until(&req, deadline, false, true);
        t2 = ompi_evt_pmix_clock_realtime_ns();
        ++since_best;
        if (OPAL_SUCCESS == rc && t2 - t1 < best_rtt) {
            int64_t middle = t1 + (t2 - t1) / 2;

            best_rtt = t2 - t1;
            since_best = 0;
            sample->local_realtime_ns = middle;
            sample->offset_ns = reference - middle;
            sample->uncertainty_ns = (uint64_t) (best_rtt / 2);
        }
    }
    ompi_evt_pmix_clock_drop_noise(sample);
    if (OPAL_SUCCESS == rc) {
        rc = send_wait(&end, 1, MPI_INT32_T, 0, CLOCK_TAG_PING, comm, deadline);
    }
    if (OPAL_SUCCESS == rc) {
        /* sleep until every rank is measured */
        rc = recv_wait(NULL, 0, MPI_BYTE, 0, CLOCK_TAG_DONE, comm, deadline, true);
    }
    return rc;
}

/* This rank's clock key. Context: INIT. */
static void clock_key(ompi_evt_pmix_clock_key_t *key, const char *host, bool align)
{
    int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);

    memset(key, 0, sizeof(*key));
    (void) snprintf(key->host, sizeof(key->host), "%s", NULL == host ? "" : host);
    if (0 <= fd) {
        ssize_t n = read(fd, key->boot_id, sizeof(key->boot_id) - 1);

        key->boot_id[0 < n ? n : 0] = '\0';
        (void) close(fd);
    }
    key->skew_ns = clock_skew_ns;
    key->align = align;
}

bool ompi_evt_pmix_clock_same(const ompi_evt_pmix_clock_key_t *a,
                              const ompi_evt_pmix_clock_key_t *b)
{
    return 0 == strcmp(a->host, b->host) && 0 == strcmp(a->boot_id, b->boot_id)
           && a->skew_ns == b->skew_ns;
}

int ompi_evt_pmix_clock_groups(ompi_evt_pmix_clock_t *clock, const ompi_evt_pmix_clock_key_t *keys,
                               int rank, int size)
{
    clock->all_align = true;
    clock->leader = rank;
    for (int r = 0; r < size; ++r) {
        clock->all_align = clock->all_align && 0 != keys[r].align;
        if (r < clock->leader && ompi_evt_pmix_clock_same(&keys[r], &keys[rank])) {
            clock->leader = r;
        }
    }
    clock->reference_clock = ompi_evt_pmix_clock_same(&keys[0], &keys[rank]);
    clock->followers = calloc((size_t) size, sizeof(int));
    clock->leaders = calloc((size_t) size, sizeof(int));
    if (NULL == clock->followers || NULL == clock->leaders) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    for (int r = 1; r < size; ++r) {
        bool leads = true;

        for (int q = 0; q < r && leads; ++q) {
            leads = !ompi_evt_pmix_clock_same(&keys[q], &keys[r]);
        }
        if (0 == rank && leads) {
            clock->leaders[clock->nleaders++] = r;
        }
        if (r != rank && clock->leader == rank && !clock->reference_clock
            && ompi_evt_pmix_clock_same(&keys[r], &keys[rank])) {
            clock->followers[clock->nfollowers++] = r;
        }
    }
    return OPAL_SUCCESS;
}

static int clock_join(ompi_evt_pmix_clock_t *clock, const char *host, bool align, int timeout_ms)
{
    int64_t deadline = mono_ns() + (int64_t) timeout_ms * 1000000;
    ompi_evt_pmix_clock_key_t mine, *keys = NULL;
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Request req;
    int initialized = 0, finalized = 0, rank, size, rc;

    (void) EVT_LIBMPI(Initialized)(&initialized);
    (void) EVT_LIBMPI(Finalized)(&finalized);
    if (clock->given_up || clock->have_comm || !initialized || finalized) {
        return OPAL_ERR_NOT_AVAILABLE;
    }
    if (MPI_SUCCESS != EVT_LIBMPI(Comm_idup)(MPI_COMM_WORLD, &comm, &req)) {
        clock->given_up = true;
        return OPAL_ERROR;
    }
    rc = wait_until(&req, deadline, true, false);
    if (OPAL_SUCCESS != rc) {
        /* a rank did not take part: the request stays with libmpi */
        clock->given_up = true;
        return rc;
    }
    (void) EVT_LIBMPI(Comm_set_errhandler)(comm, MPI_ERRORS_RETURN);
    clock->comm = comm;
    clock->have_comm = true;
    (void) EVT_LIBMPI(Comm_rank)(comm, &rank);
    (void) EVT_LIBMPI(Comm_size)(comm, &size);
    clock_key(&mine, host, align);
    keys = calloc((size_t) size, sizeof(*keys));
    if (NULL == keys) {
        rc = OPAL_ERR_OUT_OF_RESOURCE;
    } else if (MPI_SUCCESS
               != EVT_LIBMPI(Iallgather)(&mine, (int) sizeof(mine), MPI_BYTE, keys,
                                         (int) sizeof(mine), MPI_BYTE, comm, &req)) {
        rc = OPAL_ERROR;
    } else {
        rc = wait_until(&req, deadline, true, false);
    }
    if (OPAL_SUCCESS == rc) {
        rc = ompi_evt_pmix_clock_groups(clock, keys, rank, size);
    }
    free(keys);
    if (OPAL_SUCCESS != rc) {
        clock->given_up = true;
        ompi_evt_pmix_clock_release(clock);
    }
    return rc;
}

/* A rank reading another rank's clock: its leader's sample. */
static int follow(const ompi_evt_pmix_clock_t *clock, int64_t deadline,
                  mca_common_evt_wire_offset_t *sample)
{
    int64_t v[3];
    int rc = recv_wait(NULL, 0, MPI_BYTE, 0, CLOCK_TAG_DONE, clock->comm, deadline, true);

    if (OPAL_SUCCESS == rc) {
        rc = recv_wait(v, 3, MPI_INT64_T, clock->leader, CLOCK_TAG_SAMPLE, clock->comm, deadline,
                       true);
    }
    if (OPAL_SUCCESS == rc) {
        sample->local_realtime_ns = v[0];
        sample->offset_ns = v[1];
        sample->uncertainty_ns = (uint64_t) v[2];
    }
    return rc;
}

/* A leader: measure, then hand the sample to the ranks reading its clock. */
static int lead(const ompi_evt_pmix_clock_t *clock, int64_t deadline,
                mca_common_evt_wire_offset_t *sample)
{
    int rc = measure(clock->comm, deadline, sample);
    int64_t v[3] = {sample->local_realtime_ns, sample->offset_ns, (int64_t) sample->uncertainty_ns};

    for (int i = 0; OPAL_SUCCESS == rc && i < clock->nfollowers; ++i) {
        rc = send_wait(v, 3, MPI_INT64_T, clock->followers[i], CLOCK_TAG_SAMPLE, clock->comm,
                       deadline);
    }
    return rc;
}

static int clock_align(ompi_evt_pmix_clock_t *clock, bool last, int timeout_ms,
                       mca_common_evt_wire_offset_t *sample)
{
    int64_t deadline = mono_ns() + (int64_t) timeout_ms * 1000000;
    mca_common_evt_wire_offset_t measured = {0};
    int initialized = 0, finalized = 0, rank, size, rc;

    (void) EVT_LIBMPI(Initialized)(&initialized);
    (void) EVT_LIBMPI(Finalized)(&finalized);
    if (clock->given_up || !clock->have_comm || !initialized || finalized) {
        return OPAL_ERR_NOT_AVAILABLE;
    }
    if (!clock->all_align) {
        clock->given_up = true;
        return OPAL_ERR_NOT_SUPPORTED;
    }
    (void) EVT_LIBMPI(Comm_rank)(clock->comm, &rank);
    (void) EVT_LIBMPI(Comm_size)(clock->comm, &size);
    if (0 == rank) {
        rc = serve(clock, clock->comm, size, deadline);
        measured.local_realtime_ns = ompi_evt_pmix_clock_realtime_ns();
    } else if (clock->reference_clock) {
        /* rank 0's own clock: exactly 0; wait with the others, off the
         * cores of the ranks that measure */
        rc = recv_wait(NULL, 0, MPI_BYTE, 0, CLOCK_TAG_DONE, clock->comm, deadline, true);
        measured.local_realtime_ns = ompi_evt_pmix_clock_realtime_ns();
    } else if (clock->leader == rank) {
        rc = lead(clock, deadline, &measured);
    } else {
        rc = follow(clock, deadline, &measured);
    }
    if (OPAL_SUCCESS != rc) {
        clock->given_up = true;
    }
    if (last || OPAL_SUCCESS != rc) {
        ompi_evt_pmix_clock_release(clock);
    }
    if (OPAL_SUCCESS == rc) {
        *sample = measured;
    }
    return rc;
}

static void clock_release(ompi_evt_pmix_clock_t *clock)
{
    int initialized = 0, finalized = 0;

    /* a clock that has its communicator joined with libmpi's entry points */
    if (clock->have_comm) {
        (void) EVT_LIBMPI(Initialized)(&initialized);
        (void) EVT_LIBMPI(Finalized)(&finalized);
        if (initialized && !finalized) {
            (void) EVT_LIBMPI(Comm_free)(&clock->comm);
        }
    }
    clock->have_comm = false;
    free(clock->followers);
    free(clock->leaders);
    clock->followers = clock->leaders = NULL;
    clock->nfollowers = clock->nleaders = 0;
}

/* The clock's MPI traffic is our own: it goes to libmpi's own entry
 * points (EVT_LIBMPI(), which no PMPI tool in front of libompi_evt sees),
 * and raises no event and is not tracked (ompi_evt_pmpi_quiet_enter()). */

int ompi_evt_pmix_clock_join(ompi_evt_pmix_clock_t *clock, const char *host, bool align,
                             int timeout_ms)
{
    int rc;

    if (!ompi_evt_libmpi_ready()) {
        /* libmpi's own entry points not found: no traffic of ours that a
         * PMPI tool would count as the program's; each rank keeps its
         * clock */
        clock->given_up = true;
        return OPAL_ERR_NOT_AVAILABLE;
    }
    ompi_evt_pmpi_quiet_enter();
    rc = clock_join(clock, host, align, timeout_ms);
    ompi_evt_pmpi_quiet_exit();
    return rc;
}

int ompi_evt_pmix_clock_align(ompi_evt_pmix_clock_t *clock, bool last, int timeout_ms,
                              mca_common_evt_wire_offset_t *sample)
{
    int rc;

    if (!ompi_evt_libmpi_ready()) {
        return OPAL_ERR_NOT_AVAILABLE; /* never joined */
    }
    ompi_evt_pmpi_quiet_enter();
    rc = clock_align(clock, last, timeout_ms, sample);
    ompi_evt_pmpi_quiet_exit();
    return rc;
}

void ompi_evt_pmix_clock_release(ompi_evt_pmix_clock_t *clock)
{
    ompi_evt_pmpi_quiet_enter();
    clock_release(clock);
    ompi_evt_pmpi_quiet_exit();
}
