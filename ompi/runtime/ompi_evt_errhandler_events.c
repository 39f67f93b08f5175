/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * ompi.mpi.errhandler_invoked {i32 err_code@0, i32 object_type@4,
 * u64 errhandler@8, u64 object@16}, synchronous, raised before the error
 * handler runs (so MPI_ERRORS_ARE_FATAL still reports). object_type is
 * Open MPI's ompi_errhandler_type_t of the object the handler runs on:
 * 1 communicator, 2 window, 3 file. errhandler is the MPI_Errhandler
 * (ompi_errhandler_t *), object the MPI_Comm / MPI_Win / MPI_File.
 *
 * How: errors detected inside libmpi go through ompi_errhandler_invoke(),
 * which calls the handler object's function pointer (eh_comm_fn, eh_win_fn
 * or eh_file_fn): a PMPI wrapper never sees them. So the producer
 * interposes the handler objects themselves: it replaces those pointers
 * with a trampoline per object kind that raises and then calls the saved
 * original, found by the handler's address in a fixed table.
 *   - predefined handlers (MPI_ERRORS_ARE_FATAL, MPI_ERRORS_RETURN,
 *     MPI_ERRORS_THROW_EXCEPTIONS) are interposed once MPI is initialized
 *     (MPI_Init constructs them and would undo an earlier change): from
 *     the registration when MPI is already up, and again (idempotent) from
 *     the MPI_{Comm,Win,File}_set_errhandler and _create_errhandler
 *     wrappers; MPI_COMM_WORLD and MPI_COMM_SELF use MPI_ERRORS_ARE_FATAL
 *     by default, so they are covered from the first registration after
 *     MPI_Init.
 *   - user handlers created with MPI_{Comm,Win,File}_create_errhandler
 *     are interposed by those wrappers before they return.
 *   - MPI_{Comm,Win,File}_call_errhandler go through ompi_errhandler_invoke
 *     too, so they are covered without a wrapper of their own (a wrapper
 *     would raise twice).
 *
 * Not covered: errors of MPI calls made before MPI_Init or after
 * MPI_Finalize (Open MPI calls the fatal handler's function directly, not
 * through the object); handlers created through the Fortran or C++
 * bindings (they reach ompi_errhandler_create() without our wrapper); user
 * handlers beyond the table's capacity (ERRH_TABLE_SIZE, counted in
 * errh_not_interposed: those run uninterposed, without the event).
 *
 * Thread safety: the table is written under a mutex (creation, install)
 * and read lock-free by the trampolines; an entry's original pointers are
 * stored before its key is published (release), and the handler object's
 * pointer is swapped only after that, so a trampoline that runs always
 * finds its entry.
 */

#include "ompi_config.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "mpi.h"
#include "ompi/communicator/communicator.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/file/file.h"
#include "ompi/runtime/ompi_evt_payloads.h"
#include "ompi/runtime/ompi_evt_pmpi_next.h"
#include "ompi/runtime/ompi_evt_producers.h"
#include "ompi/win/win.h"

/** Predefined handlers (3) plus user-created ones. A fixed table: the
 *  trampolines read it without a lock and it is never freed. */
#define ERRH_TABLE_SIZE 256

typedef struct {
    /** The handler object; 0 = free slot. Published with a release store
     *  after the fields below (pairs with the acquire in errh_lookup()). */
    _Atomic uintptr_t key;
    MPI_Comm_errhandler_function *comm_fn;
    MPI_Win_errhandler_function *win_fn;
    ompi_file_errhandler_fn *file_fn;
} errh_entry_t;

static errh_entry_t errh_table[ERRH_TABLE_SIZE];
static pthread_mutex_t errh_lock = PTHREAD_MUTEX_INITIALIZER;
/** User handlers left uninterposed because the table was full. */
static atomic_ulong errh_not_interposed = 0;

static mca_base_event_t *errh_event = NULL;

/* object_type carries Open MPI's handler type; tools compare it with the
 * header's names. */
_Static_assert((int) OMPI_EVT_ERRHANDLER_OBJECT_COMM == (int) OMPI_ERRHANDLER_TYPE_COMM
                   && (int) OMPI_EVT_ERRHANDLER_OBJECT_WIN == (int) OMPI_ERRHANDLER_TYPE_WIN
                   && (int) OMPI_EVT_ERRHANDLER_OBJECT_FILE == (int) OMPI_ERRHANDLER_TYPE_FILE,
               "errhandler_invoked object_type values");

static void comm_trampoline(MPI_Comm *comm, int *err, ...);
static void win_trampoline(MPI_Win *win, int *err, ...);
static void file_trampoline(MPI_File *file, int *err, ...);

/**
 * Find the entry of @p eh. Context: RAISE (inside an error handler), any
 * thread. Locks: none.
 */
static errh_entry_t *errh_lookup(const ompi_errhandler_t *eh)
{
    for (int i = 0; i < ERRH_TABLE_SIZE; ++i) {
        /* acquire: pairs with the release store in errh_interpose(); the
         * original pointers of the entry are visible once its key is. */
        if ((uintptr_t) eh == atomic_load_explicit(&errh_table[i].key, memory_order_acquire)) {
            return &errh_table[i];
        }
    }
    return NULL;
}

/**
 * Interpose @p eh: save its pointers and put the trampolines in their
 * place. Idempotent (an already interposed handler is left alone; a slot
 * whose key is a reused address gets the new object's pointers).
 * @retval true interposed (now or before);  false table full
 * Context: ANY. Locks: takes errh_lock.
 */
static bool errh_interpose(ompi_errhandler_t *eh)
{
    errh_entry_t *entry = NULL;
    bool ok = true;

    pthread_mutex_lock(&errh_lock);
    if (comm_trampoline == eh->eh_comm_fn || win_trampoline == eh->eh_win_fn
        || file_trampoline == eh->eh_file_fn) {
        goto cleanup; /* already ours */
    }
    for (int i = 0; i < ERRH_TABLE_SIZE && NULL == entry; ++i) {
        /* relaxed: writers are serialised by errh_lock */
        if ((uintptr_t) eh == atomic_load_explicit(&errh_table[i].key, memory_order_relaxed)) {
            entry = &errh_table[i];
        }
    }
    for (int i = 0; i < ERRH_TABLE_SIZE && NULL == entry; ++i) {
        if (0 == atomic_load_explicit(&errh_table[i].key, memory_order_relaxed)) {
            entry = &errh_table[i];
        }
    }
    if (NULL == entry) {
        atomic_fetch_add_explicit(&errh_not_interposed, 1, memory_order_relaxed);
        ok = false;
        goto cleanup;
    }
    /* A reused key: hide it while its pointers change. */
    atomic_store_explicit(&entry->key, 0, memory_order_relaxed);
    entry->comm_fn = eh->eh_comm_fn;
    entry->win_fn = eh->eh_win_fn;
    entry->file_fn = eh->eh_file_fn;
    /* release: publishes the saved pointers before the key; pairs with the
     * acquire in errh_lookup(). */
    atomic_store_explicit(&entry->key, (uintptr_t) eh, memory_order_release);
    /* Only now can a trampoline be reached through this object. The
     * function pointers are plain words: a concurrent invocation reads the
     * old (original) or the new (trampoline) one, both correct. */
    if (NULL != eh->eh_comm_fn) {
        eh->eh_comm_fn = comm_trampoline;
    }
    if (NULL != eh->eh_win_fn) {
        eh->eh_win_fn = win_trampoline;
    }
    if (NULL != eh->eh_file_fn) {
        eh->eh_file_fn = file_trampoline;
    }
cleanup:
    pthread_mutex_unlock(&errh_lock);
    return ok;
}

/* Context: INIT, ANY. */
void ompi_evt_errhandler_events_install(void)
{
    int initialized = 0, finalized = 0;

    (void) PMPI_Initialized(&initialized);
    (void) PMPI_Finalized(&finalized);
    if (!initialized || finalized) {
        return;
    }
    (void) errh_interpose(&ompi_mpi_errors_are_fatal.eh);
    (void) errh_interpose(&ompi_mpi_errors_return.eh);
    (void) errh_interpose(&ompi_mpi_errors_throw_exceptions.eh);
}

/* Context: INIT, ANY. */
int ompi_evt_errhandler_events_register(void)
{
    const mca_base_var_type_t types[4] = {MCA_BASE_VAR_TYPE_INT32_T, MCA_BASE_VAR_TYPE_INT32_T,
                                          MCA_BASE_VAR_TYPE_UINT64_T, MCA_BASE_VAR_TYPE_UINT64_T};
    const ptrdiff_t offsets[4] = {offsetof(ompi_evt_errhandler_invoked_payload_t, err_code),
                                  offsetof(ompi_evt_errhandler_invoked_payload_t, object_type),
                                  offsetof(ompi_evt_errhandler_invoked_payload_t, errhandler),
                                  offsetof(ompi_evt_errhandler_invoked_payload_t, object)};
    /* upstream's field names (Open MPI main) */
    static const char *const names[4] = {"err_code", "object_type", "errhandler", "object"};
    mca_base_event_source_t *source;
    int ei;

    source = ompi_evt_ompi_source();
    if (NULL == source) {
        return OPAL_ERR_NOT_AVAILABLE;
    }
    ei = mca_base_event_register_ptr("ompi", NULL, NULL, "mpi.errhandler_invoked",
                                     "An error handler is about to run: {err_code, object_type "
                                     "(1 comm, 2 win, 3 file), errhandler, object}",
                                     OPAL_INFO_LVL_4, 4, types, offsets, NULL,
                                     MCA_BASE_VAR_BIND_NO_OBJECT, MCA_BASE_EVENT_FLAG_SYNCHRONOUS,
                                     source, NULL, &errh_event);
    if (0 > ei) {
        return ei;
    }
    ei = mca_base_event_set_element_names(errh_event, names);
    if (OPAL_SUCCESS != ei) {
        return ei;
    }
    ompi_evt_errhandler_events_install();
    return OPAL_SUCCESS;
}

/**
 * Raise errhandler_invoked. Context: RAISE (inside libmpi's error path).
 */
static void errh_raise(int err, int object_type, const ompi_errhandler_t *eh, const void *obj)
{
    mca_base_event_t *ev = errh_event;
    ompi_evt_errhandler_invoked_payload_t payload;

    if (NULL == ev || !mca_base_event_active(ev)) {
        return;
    }
    payload.err_code = err;
    payload.object_type = object_type;
    payload.errhandler = (uint64_t) (uintptr_t) eh;
    payload.object = (uint64_t) (uintptr_t) obj;
    (void) mca_base_event_raise(ev, NULL, &payload);
}

/** The message ompi_errhandler_invoke() passes after the error code. */
#define ERRH_MESSAGE(last, msg)            \
    do {                                   \
        va_list ap_;                       \
        va_start(ap_, last);               \
        (msg) = va_arg(ap_, const char *); \
        va_end(ap_);                       \
    } while (0)

/* Context: RAISE (called by ompi_errhandler_invoke through eh_comm_fn). */
static void comm_trampoline(MPI_Comm *comm, int *err, ...)
{
    ompi_errhandler_t *eh = (NULL != comm && NULL != *comm) ? (*comm)->error_handler : NULL;
    errh_entry_t *entry = (NULL != eh) ? errh_lookup(eh) : NULL;
    const char *msg;

    ERRH_MESSAGE(err, msg);
    errh_raise(NULL != err ? *err : MPI_ERR_UNKNOWN, OMPI_ERRHANDLER_TYPE_COMM, eh,
               NULL != comm ? *comm : NULL);
    if (NULL != entry && NULL != entry->comm_fn) {
        entry->comm_fn(comm, err, msg, NULL);
    } else {
        /* The object's handler changed under us (set_errhandler racing the
         * error): fall back to the default semantics. */
        ompi_mpi_errors_are_fatal_comm_handler(comm, err, msg, NULL);
    }
}

/* Context: RAISE (through eh_win_fn). */
static void win_trampoline(MPI_Win *win, int *err, ...)
{
    ompi_errhandler_t *eh = (NULL != win && NULL != *win) ? (*win)->error_handler : NULL;
    errh_entry_t *entry = (NULL != eh) ? errh_lookup(eh) : NULL;
    const char *msg;

    ERRH_MESSAGE(err, msg);
    errh_raise(NULL != err ? *err : MPI_ERR_UNKNOWN, OMPI_ERRHANDLER_TYPE_WIN, eh,
               NULL != win ? *win : NULL);
    if (NULL != entry && NULL != entry->win_fn) {
        entry->win_fn(win, err, msg, NULL);
    } else {
        ompi_mpi_errors_are_fatal_win_handler(win, err, msg, NULL);
    }
}

/* Context: RAISE (through eh_file_fn). */
static void file_trampoline(MPI_File *file, int *err, ...)
{
    ompi_errhandler_t *eh = (NULL != file && NULL != *file) ? (*file)->error_handler : NULL;
    errh_entry_t *entry = (NULL != eh) ? errh_lookup(eh) : NULL;
    const char *msg;

    ERRH_MESSAGE(err, msg);
    errh_raise(NULL != err ? *err : MPI_ERR_UNKNOWN, OMPI_ERRHANDLER_TYPE_FILE, eh,
               NULL != file ? *file : NULL);
    if (NULL != entry && NULL != entry->file_fn) {
        entry->file_fn(file, err, msg, NULL);
    } else {
        ompi_mpi_errors_return_file_handler(file, err, msg, NULL);
    }
}

/* ------------------------------------------------------------------------
 * Wrappers: interpose user handlers at creation, and make sure the
 * predefined ones are interposed once MPI is up.
 * ------------------------------------------------------------------------ */

static int evt_Comm_create_errhandler(MPI_Comm_errhandler_function *function,
                                      MPI_Errhandler *errhandler)
{
    int rc = EVT_CALL_NEXT(Comm_create_errhandler, (function, errhandler));

    if (MPI_SUCCESS == rc) {
        ompi_evt_errhandler_events_install();
        (void) errh_interpose((ompi_errhandler_t *) *errhandler);
    }
    return rc;
}

static int evt_Win_create_errhandler(MPI_Win_errhandler_function *function,
                                     MPI_Errhandler *errhandler)
{
    int rc = EVT_CALL_NEXT(Win_create_errhandler, (function, errhandler));

    if (MPI_SUCCESS == rc) {
        ompi_evt_errhandler_events_install();
        (void) errh_interpose((ompi_errhandler_t *) *errhandler);
    }
    return rc;
}

static int evt_File_create_errhandler(MPI_File_errhandler_function *function,
                                      MPI_Errhandler *errhandler)
{
    int rc = EVT_CALL_NEXT(File_create_errhandler, (function, errhandler));

    if (MPI_SUCCESS == rc) {
        ompi_evt_errhandler_events_install();
        (void) errh_interpose((ompi_errhandler_t *) *errhandler);
    }
    return rc;
}

static int evt_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    ompi_evt_errhandler_events_install();
    return EVT_CALL_NEXT(Comm_set_errhandler, (comm, errhandler));
}

static int evt_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler)
{
    ompi_evt_errhandler_events_install();
    return EVT_CALL_NEXT(Win_set_errhandler, (win, errhandler));
}

static int evt_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler)
{
    ompi_evt_errhandler_events_install();
    return EVT_CALL_NEXT(File_set_errhandler, (file, errhandler));
}

/* ------------------------------------------------------------------------
 * Entry points: MPI_X for the application, PMPI_X for a PMPI tool
 * preloaded before libompi_evt (its MPI_X calls PMPI_X: ours). Both run
 * the wrapper, which reaches the next PMPI_X (libmpi's); libompi_evt's own
 * MPI calls (ompi_evt_pmpi_quiet_enter()) go straight there.
 * ------------------------------------------------------------------------ */

int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function *function, MPI_Errhandler *errhandler)
{
    return EVT_PMPI_ENTRY(Comm_create_errhandler, (function, errhandler));
}
int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function *function, MPI_Errhandler *errhandler)
{
    return EVT_PMPI_ENTRY(Comm_create_errhandler, (function, errhandler));
}

int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    return EVT_PMPI_ENTRY(Comm_set_errhandler, (comm, errhandler));
}
int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    return EVT_PMPI_ENTRY(Comm_set_errhandler, (comm, errhandler));
}

int MPI_File_create_errhandler(MPI_File_errhandler_function *function, MPI_Errhandler *errhandler)
{
    return EVT_PMPI_ENTRY(File_create_errhandler, (function, errhandler));
}
int PMPI_File_create_errhandler(MPI_File_errhandler_function *function, MPI_Errhandler *errhandler)
{
    return EVT_PMPI_ENTRY(File_create_errhandler, (function, errhandler));
}

int MPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler)
{
    return EVT_PMPI_ENTRY(File_set_errhandler, (file, errhandler));
}
int PMPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler)
{
    return EVT_PMPI_ENTRY(File_set_errhandler, (file, errhandler));
}

int MPI_Win_create_errhandler(MPI_Win_errhandler_function *function, MPI_Errhandler *errhandler)
{
    return EVT_PMPI_ENTRY(Win_create_errhandler, (function, errhandler));
}
int PMPI_Win_create_errhandler(MPI_Win_errhandler_function *function, MPI_Errhandler *errhandler)
{
    return EVT_PMPI_ENTRY(Win_create_errhandler, (function, errhandler));
}

int MPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler)
{
    return EVT_PMPI_ENTRY(Win_set_errhandler, (win, errhandler));
}
int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler)
{
    return EVT_PMPI_ENTRY(Win_set_errhandler, (win, errhandler));
}
