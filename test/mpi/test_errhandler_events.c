/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * ompi.mpi.errhandler_invoked {err_code, object_type, errhandler, object}:
 *   - an error detected inside libmpi on a communicator with
 *     MPI_ERRORS_RETURN (send to a rank that does not exist) raises one
 *     event with MPI_ERR_RANK, type 1, MPI_ERRORS_RETURN, the comm;
 *   - a user communicator handler (MPI_Comm_create_errhandler) invoked by
 *     MPI_Comm_call_errhandler: one event, before the handler runs;
 *   - windows (type 2) and files (type 3), predefined and user handlers.
 * With "fatal" as argument: an error on MPI_COMM_WORLD (MPI_ERRORS_ARE_FATAL)
 * prints the event from the callback before the job aborts; the driver
 * script checks that line.
 */

#include "evt_mpi_test.h"

#include <stdint.h>
#include <unistd.h>

#include "ompi/runtime/ompi_evt_payloads.h"

static int events = 0;
static int seq = 0;
static int event_seq = -1, handler_seq = -1;
static ompi_evt_errhandler_invoked_payload_t last;
static int fatal_mode = 0;

static void on_invoked(MPI_T_event_instance ev, MPI_T_event_registration reg,
                       MPI_T_cb_safety safety, void *user)
{
    EVT_CHECK(MPI_SUCCESS == MPI_T_event_copy(ev, &last), "copy");
    ++events;
    event_seq = seq++;
    if (fatal_mode) {
        printf("EVT errhandler_invoked rank %d err %d type %d fatal %d\n", evt_test_rank,
               last.err_code, last.object_type,
               last.errhandler == (uint64_t) (uintptr_t) MPI_ERRORS_ARE_FATAL);
        fflush(stdout);
    }
}

static int user_comm_calls = 0, user_win_calls = 0, user_file_calls = 0;

static void user_comm_handler(MPI_Comm *comm, int *err, ...)
{
    ++user_comm_calls;
    handler_seq = seq++;
}

static void user_win_handler(MPI_Win *win, int *err, ...)
{
    ++user_win_calls;
    handler_seq = seq++;
}

static void user_file_handler(MPI_File *file, int *err, ...)
{
    ++user_file_calls;
    handler_seq = seq++;
}

static void expect(const char *what, int before, int err_class, int type, MPI_Errhandler eh,
                   const void *obj)
{
    int cls = -1;

    EVT_CHECK(events == before + 1, "%s: %d events, want 1", what, events - before);
    if (events != before + 1) {
        return;
    }
    MPI_Error_class(last.err_code, &cls);
    EVT_CHECK(cls == err_class, "%s: error class %d want %d", what, cls, err_class);
    EVT_CHECK(last.object_type == type, "%s: object_type %d want %d", what, last.object_type,
              type);
    EVT_CHECK(last.errhandler == (uint64_t) (uintptr_t) eh, "%s: errhandler", what);
    EVT_CHECK(last.object == (uint64_t) (uintptr_t) obj, "%s: object", what);
}

int main(int argc, char **argv)
{
    MPI_T_event_registration reg;
    MPI_Errhandler ceh, weh, feh;
    MPI_Comm comm;
    MPI_Win win;
    MPI_File file;
    static int buf[16];
    int size, before, rc;

    fatal_mode = argc > 1 && 0 == strcmp(argv[1], "fatal");
    evt_test_init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    reg = evt_test_subscribe("ompi.mpi.errhandler_invoked", NULL, on_invoked, NULL);

    if (fatal_mode) {
        /* MPI_COMM_WORLD keeps MPI_ERRORS_ARE_FATAL: rank 0 errs, the job
         * aborts; the event line must come out first. */
        MPI_Barrier(MPI_COMM_WORLD);
        if (0 == evt_test_rank) {
            MPI_Send(buf, 1, MPI_INT, size + 5, 0, MPI_COMM_WORLD);
            printf("EVT not aborted\n");
        }
        MPI_Barrier(MPI_COMM_WORLD);
        return evt_test_finish("test_errhandler_events fatal");
    }

    /* 1. libmpi-internal error, MPI_ERRORS_RETURN. */
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    before = events;
    rc = MPI_Send(buf, 1, MPI_INT, size + 5, 0, comm);
    {
        int cls = -1;
        MPI_Error_class(rc, &cls);
        EVT_CHECK(MPI_ERR_RANK == cls, "send to bad rank returned class %d", cls);
    }
    expect("comm ERRORS_RETURN, bad rank", before, MPI_ERR_RANK, OMPI_EVT_ERRHANDLER_OBJECT_COMM,
           MPI_ERRORS_RETURN, comm);
    before = events;
    rc = MPI_Send(buf, -1, MPI_INT, 0, 0, comm);
    expect("comm ERRORS_RETURN, bad count", before, MPI_ERR_COUNT, OMPI_EVT_ERRHANDLER_OBJECT_COMM,
           MPI_ERRORS_RETURN, comm);
    /* no error, no event */
    before = events;
    MPI_Barrier(comm);
    EVT_CHECK(events == before, "a successful call raised %d events", events - before);

    /* 2. user comm handler through MPI_Comm_call_errhandler. */
    MPI_Comm_create_errhandler(user_comm_handler, &ceh);
    MPI_Comm_set_errhandler(comm, ceh);
    before = events;
    MPI_Comm_call_errhandler(comm, MPI_ERR_OTHER);
    expect("comm user handler, call_errhandler", before, MPI_ERR_OTHER,
           OMPI_EVT_ERRHANDLER_OBJECT_COMM, ceh, comm);
    EVT_CHECK(1 == user_comm_calls, "user comm handler ran %d times", user_comm_calls);
    EVT_CHECK(event_seq < handler_seq, "event after the handler (%d, %d)", event_seq,
              handler_seq);
    /* and for an error found inside libmpi */
    before = events;
    MPI_Send(buf, 1, MPI_INT, size + 5, 0, comm);
    expect("comm user handler, bad rank", before, MPI_ERR_RANK, OMPI_EVT_ERRHANDLER_OBJECT_COMM,
           ceh, comm);
    EVT_CHECK(2 == user_comm_calls, "user comm handler ran %d times", user_comm_calls);
    MPI_Errhandler_free(&ceh);

    /* 3. windows: predefined then user handler. */
    MPI_Win_create(buf, sizeof(buf), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    before = events;
    MPI_Win_call_errhandler(win, MPI_ERR_WIN);
    expect("win ERRORS_RETURN", before, MPI_ERR_WIN, OMPI_EVT_ERRHANDLER_OBJECT_WIN,
           MPI_ERRORS_RETURN, win);
    MPI_Win_create_errhandler(user_win_handler, &weh);
    MPI_Win_set_errhandler(win, weh);
    before = events;
    MPI_Win_call_errhandler(win, MPI_ERR_OTHER);
    expect("win user handler", before, MPI_ERR_OTHER, OMPI_EVT_ERRHANDLER_OBJECT_WIN, weh, win);
    EVT_CHECK(1 == user_win_calls, "user win handler ran %d times", user_win_calls);
    MPI_Win_free(&win);
    MPI_Errhandler_free(&weh);

    /* 4. files: MPI_FILE_NULL's handler (MPI_ERRORS_RETURN by default)
     * runs when an open fails; then a user handler on an open file. */
    before = events;
    rc = MPI_File_open(MPI_COMM_SELF, "/nonexistent-dir/evt-test", MPI_MODE_RDONLY, MPI_INFO_NULL,
                       &file);
    EVT_CHECK(MPI_SUCCESS != rc, "open of a missing file succeeded");
    {
        int cls = -1;
        MPI_Error_class(rc, &cls);
        /* the event carries the code the call returned */
        expect("file open error", before, cls, OMPI_EVT_ERRHANDLER_OBJECT_FILE, MPI_ERRORS_RETURN,
               MPI_FILE_NULL);
    }
    {
        char path[64];
        snprintf(path, sizeof(path), "/tmp/evt-errh-%d-%d", (int) getpid(), evt_test_rank);
        rc = MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_RDWR
                           | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &file);
        EVT_CHECK(MPI_SUCCESS == rc, "file open %s", path);
        if (MPI_SUCCESS == rc) {
            MPI_File_create_errhandler(user_file_handler, &feh);
            MPI_File_set_errhandler(file, feh);
            before = events;
            MPI_File_call_errhandler(file, MPI_ERR_IO);
            expect("file user handler", before, MPI_ERR_IO, OMPI_EVT_ERRHANDLER_OBJECT_FILE, feh,
                   file);
            EVT_CHECK(1 == user_file_calls, "user file handler ran %d times", user_file_calls);
            MPI_File_close(&file);
            MPI_Errhandler_free(&feh);
        }
    }

    MPI_Comm_free(&comm);
    evt_test_unsubscribe(reg);
    return evt_test_finish("test_errhandler_events");
}
