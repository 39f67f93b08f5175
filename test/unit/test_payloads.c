/* Unit tests: the payload structs of ompi/runtime/ompi_evt_payloads.h are
 * the layouts the built-in producers register (element count, types,
 * offsets, extent), and a payload raised from one comes back whole through
 * a copy into the same struct. The memory events are checked in
 * test_memory_event.c (they need opal_init and the memory hooks). */
#include "opal_config.h"

#include <criterion/criterion.h>
#include <stddef.h>
#include <string.h>

#include "ompi/runtime/ompi_evt_payloads.h"
#include "ompi/runtime/ompi_evt_producers.h"
#include "opal/mca/base/mca_base_event.h"
#include "opal/runtime/opal.h"

#define I32       MCA_BASE_VAR_TYPE_INT32_T
#define I64       MCA_BASE_VAR_TYPE_INT64_T
#define U64       MCA_BASE_VAR_TYPE_UINT64_T
#define U32       MCA_BASE_VAR_TYPE_UINT32_T
#define DBL       MCA_BASE_VAR_TYPE_DOUBLE
#define MAX_ELEMS 16

typedef struct {
    const char *name;
    size_t size; /**< sizeof the struct: the registered extent */
    int n;
    mca_base_var_type_t types[MAX_ELEMS];
    size_t offsets[MAX_ELEMS];
    const char *names[MAX_ELEMS]; /**< element names (upstream's for its events) */
} layout_t;

#define OFF(type, field) offsetof(type, field)

static const layout_t layouts[] = {
    {"ompi.mpi.initialization",
     sizeof(ompi_evt_initialization_payload_t),
     5,
     {I32, I32, I32, I32, U64},
     {OFF(ompi_evt_initialization_payload_t, model),
      OFF(ompi_evt_initialization_payload_t, thread_level),
      OFF(ompi_evt_initialization_payload_t, world_rank),
      OFF(ompi_evt_initialization_payload_t, world_size),
      OFF(ompi_evt_initialization_payload_t, instance_id)},
     {"model", "thread_level", "world_rank", "world_size", "instance_id"}},
    {"ompi.mpi.finalization",
     sizeof(ompi_evt_finalization_payload_t),
     3,
     {I32, I32, U64},
     {OFF(ompi_evt_finalization_payload_t, model), OFF(ompi_evt_finalization_payload_t, world_rank),
      OFF(ompi_evt_finalization_payload_t, instance_id)},
     {"model", "world_rank", "instance_id"}},
    {"ompi.mpi.communicator_created",
     sizeof(ompi_evt_comm_created_payload_t),
     2,
     {I32, U64},
     {OFF(ompi_evt_comm_created_payload_t, size), OFF(ompi_evt_comm_created_payload_t, handle)},
     {"size", "handle"}},
    {"ompi.mpi.communicator_freed",
     sizeof(ompi_evt_comm_handle_payload_t),
     1,
     {U64},
     {OFF(ompi_evt_comm_handle_payload_t, handle)},
     {"handle"}},
    {"ompi.mpi.communicator_name_set",
     sizeof(ompi_evt_comm_handle_payload_t),
     1,
     {U64},
     {OFF(ompi_evt_comm_handle_payload_t, handle)},
     {"handle"}},
    {"ompi.mpi.errhandler_invoked",
     sizeof(ompi_evt_errhandler_invoked_payload_t),
     4,
     {I32, I32, U64, U64},
     {OFF(ompi_evt_errhandler_invoked_payload_t, err_code),
      OFF(ompi_evt_errhandler_invoked_payload_t, object_type),
      OFF(ompi_evt_errhandler_invoked_payload_t, errhandler),
      OFF(ompi_evt_errhandler_invoked_payload_t, object)},
     {"err_code", "object_type", "errhandler", "object"}},
    {"ompi.mpi.win_created",
     sizeof(ompi_evt_win_created_payload_t),
     4,
     {I64, I32, I32, U64},
     {OFF(ompi_evt_win_created_payload_t, size), OFF(ompi_evt_win_created_payload_t, disp_unit),
      OFF(ompi_evt_win_created_payload_t, flavor), OFF(ompi_evt_win_created_payload_t, handle)},
     {"size", "disp_unit", "flavor", "handle"}},
    {"ompi.mpi.win_freed",
     sizeof(ompi_evt_win_freed_payload_t),
     2,
     {I32, U64},
     {OFF(ompi_evt_win_freed_payload_t, flavor), OFF(ompi_evt_win_freed_payload_t, handle)},
     {"flavor", "handle"}},
    {"ompi.mpi.p2p_send_complete",
     sizeof(ompi_evt_p2p_payload_t),
     8,
     {U64, U64, I64, I64, I32, I32, I32, I32},
     {OFF(ompi_evt_p2p_payload_t, comm), OFF(ompi_evt_p2p_payload_t, bytes),
      OFF(ompi_evt_p2p_payload_t, start_time), OFF(ompi_evt_p2p_payload_t, complete_time),
      OFF(ompi_evt_p2p_payload_t, peer), OFF(ompi_evt_p2p_payload_t, tag),
      OFF(ompi_evt_p2p_payload_t, mode), OFF(ompi_evt_p2p_payload_t, comm_peer)},
     {"comm", "bytes", "start_time", "complete_time", "peer", "tag", "mode", "comm_peer"}},
    {"ompi.mpi.p2p_recv_complete",
     sizeof(ompi_evt_p2p_payload_t),
     8,
     {U64, U64, I64, I64, I32, I32, I32, I32},
     {OFF(ompi_evt_p2p_payload_t, comm), OFF(ompi_evt_p2p_payload_t, bytes),
      OFF(ompi_evt_p2p_payload_t, start_time), OFF(ompi_evt_p2p_payload_t, complete_time),
      OFF(ompi_evt_p2p_payload_t, peer), OFF(ompi_evt_p2p_payload_t, tag),
      OFF(ompi_evt_p2p_payload_t, mode), OFF(ompi_evt_p2p_payload_t, comm_peer)},
     {"comm", "bytes", "start_time", "complete_time", "peer", "tag", "mode", "comm_peer"}},
    {"ompi.mpi.coll_complete",
     sizeof(ompi_evt_coll_payload_t),
     14,
     {U64, U64, U64, U64, I64, I64, I32, I32, I32, I32, U32, I32, I32, U32},
     {OFF(ompi_evt_coll_payload_t, comm), OFF(ompi_evt_coll_payload_t, seq),
      OFF(ompi_evt_coll_payload_t, bytes_sent), OFF(ompi_evt_coll_payload_t, bytes_recv),
      OFF(ompi_evt_coll_payload_t, start_time), OFF(ompi_evt_coll_payload_t, complete_time),
      OFF(ompi_evt_coll_payload_t, kind), OFF(ompi_evt_coll_payload_t, root),
      OFF(ompi_evt_coll_payload_t, op), OFF(ompi_evt_coll_payload_t, mode),
      OFF(ompi_evt_coll_payload_t, cid), OFF(ompi_evt_coll_payload_t, comm_size),
      OFF(ompi_evt_coll_payload_t, comm_rank), OFF(ompi_evt_coll_payload_t, flags)},
     {"comm", "seq", "bytes_sent", "bytes_recv", "start_time", "complete_time", "kind", "root",
      "op", "mode", "cid", "comm_size", "comm_rank", "flags"}},
    {"ompi.mpi.rma_op",
     sizeof(ompi_evt_rma_op_payload_t),
     10,
     {U64, U64, U64, I64, I64, I64, I32, I32, I32, I32},
     {OFF(ompi_evt_rma_op_payload_t, win), OFF(ompi_evt_rma_op_payload_t, bytes_sent),
      OFF(ompi_evt_rma_op_payload_t, bytes_recv), OFF(ompi_evt_rma_op_payload_t, start_time),
      OFF(ompi_evt_rma_op_payload_t, complete_time), OFF(ompi_evt_rma_op_payload_t, target_disp),
      OFF(ompi_evt_rma_op_payload_t, kind), OFF(ompi_evt_rma_op_payload_t, target),
      OFF(ompi_evt_rma_op_payload_t, peer), OFF(ompi_evt_rma_op_payload_t, op)},
     {"win", "bytes_sent", "bytes_recv", "start_time", "complete_time", "target_disp", "kind",
      "target", "peer", "op"}},
    {"ompi.mpi.rma_sync",
     sizeof(ompi_evt_rma_sync_payload_t),
     9,
     {U64, I64, I64, I32, I32, I32, I32, I32, I32},
     {OFF(ompi_evt_rma_sync_payload_t, win), OFF(ompi_evt_rma_sync_payload_t, start_time),
      OFF(ompi_evt_rma_sync_payload_t, complete_time), OFF(ompi_evt_rma_sync_payload_t, kind),
      OFF(ompi_evt_rma_sync_payload_t, target), OFF(ompi_evt_rma_sync_payload_t, peer),
      OFF(ompi_evt_rma_sync_payload_t, assert_flags), OFF(ompi_evt_rma_sync_payload_t, lock_type),
      OFF(ompi_evt_rma_sync_payload_t, group_size)},
     {"win", "start_time", "complete_time", "kind", "target", "peer", "assert", "lock_type",
      "group_size"}},
    /* events from PMIx, source ompi.pmix */
    {"ompi.pmix.proc_resource_usage",
     sizeof(ompi_evt_pmix_resource_usage_payload_t),
     15,
     {I32, I32, I32, I32, U32, I32, U32, U32, U64, DBL, DBL, DBL, DBL, DBL, I64},
     {OFF(ompi_evt_pmix_resource_usage_payload_t, rank),
      OFF(ompi_evt_pmix_resource_usage_payload_t, pid),
      OFF(ompi_evt_pmix_resource_usage_payload_t, state),
      OFF(ompi_evt_pmix_resource_usage_payload_t, priority),
      OFF(ompi_evt_pmix_resource_usage_payload_t, num_threads),
      OFF(ompi_evt_pmix_resource_usage_payload_t, cpu),
      OFF(ompi_evt_pmix_resource_usage_payload_t, origin),
      OFF(ompi_evt_pmix_resource_usage_payload_t, seq),
      OFF(ompi_evt_pmix_resource_usage_payload_t, cpu_time_usec),
      OFF(ompi_evt_pmix_resource_usage_payload_t, percent_cpu),
      OFF(ompi_evt_pmix_resource_usage_payload_t, pss_mb),
      OFF(ompi_evt_pmix_resource_usage_payload_t, vsize_mb),
      OFF(ompi_evt_pmix_resource_usage_payload_t, rss_mb),
      OFF(ompi_evt_pmix_resource_usage_payload_t, peak_vsize_mb),
      OFF(ompi_evt_pmix_resource_usage_payload_t, sample_time)},
     {"rank", "pid", "state", "priority", "num_threads", "cpu", "origin", "seq", "cpu_time_usec",
      "percent_cpu", "pss_mb", "vsize_mb", "rss_mb", "peak_vsize_mb", "sample_time"}},
    {"ompi.pmix.monitor_alert",
     sizeof(ompi_evt_pmix_monitor_alert_payload_t),
     4,
     {I32, I32, I32, U32},
     {OFF(ompi_evt_pmix_monitor_alert_payload_t, status),
      OFF(ompi_evt_pmix_monitor_alert_payload_t, kind),
      OFF(ompi_evt_pmix_monitor_alert_payload_t, rank),
      OFF(ompi_evt_pmix_monitor_alert_payload_t, flags)},
     {"status", "kind", "rank", "flags"}},
    {"ompi.pmix.job_event",
     sizeof(ompi_evt_pmix_job_event_payload_t),
     5,
     {I32, I32, I32, I32, U32},
     {OFF(ompi_evt_pmix_job_event_payload_t, status),
      OFF(ompi_evt_pmix_job_event_payload_t, source_rank),
      OFF(ompi_evt_pmix_job_event_payload_t, affected_rank),
      OFF(ompi_evt_pmix_job_event_payload_t, exit_code),
      OFF(ompi_evt_pmix_job_event_payload_t, flags)},
     {"status", "source_rank", "affected_rank", "exit_code", "flags"}},
};
#define NUM_LAYOUTS (sizeof(layouts) / sizeof(layouts[0]))

static void up(void)
{
    cr_assert_eq(opal_init_util(NULL, NULL), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_init(), OPAL_SUCCESS);
    cr_assert_eq(ompi_evt_producers_register(), OPAL_SUCCESS);
}

static void down(void)
{
    (void) mca_base_event_finalize();
}

TestSuite(payloads, .init = up, .fini = down);

Test(payloads, registered_layouts_are_the_structs)
{
    for (size_t k = 0; k < NUM_LAYOUTS; ++k) {
        const layout_t *l = &layouts[k];
        mca_base_event_t *ev = NULL;

        cr_assert_eq(mca_base_event_get_by_name(l->name, &ev), OPAL_SUCCESS, "%s registered",
                     l->name);
        cr_expect_eq(ev->num_elements, l->n, "%s: %d elements", l->name, ev->num_elements);
        cr_expect_eq(ev->extent, l->size, "%s: extent %zu, sizeof %zu", l->name, ev->extent,
                     l->size);
        for (int i = 0; i < l->n && i < ev->num_elements; ++i) {
            cr_expect_eq(ev->types[i], l->types[i], "%s element %d: type", l->name, i);
            cr_expect_eq((size_t) ev->offsets[i], l->offsets[i], "%s element %d: offset %td",
                         l->name, i, ev->offsets[i]);
            const char *nm = mca_base_event_element_name(ev, i);
            cr_expect(NULL != nm && 0 == strcmp(nm, l->names[i]), "%s element %d: name %s", l->name,
                      i, NULL == nm ? "(none)" : nm);
        }
    }
}

/* Every built-in event of the "ompi" and "ompi.pmix" sources is in the
 * table above: a new one needs its struct in the header. */
Test(payloads, every_builtin_event_has_a_struct)
{
    int n = mca_base_event_get_count();

    for (int i = 0; i < n; ++i) {
        mca_base_event_t *ev;
        bool known = false;

        cr_assert_eq(mca_base_event_get_by_index(i, &ev), OPAL_SUCCESS);
        if (0 != strcmp(ev->source->name, "ompi") && 0 != strcmp(ev->source->name, "ompi.pmix")) {
            continue;
        }
        for (size_t k = 0; k < NUM_LAYOUTS; ++k) {
            known = known || 0 == strcmp(ev->name, layouts[k].name);
        }
        cr_expect(known, "%s has no struct in ompi_evt_payloads.h", ev->name);
    }
}

static ompi_evt_win_created_payload_t copied;
static int calls;

static void on_win_created(mca_base_event_record_t *rec, mca_base_event_registration_t *reg,
                           mca_base_event_cb_safety_t safety, void *user)
{
    memset(&copied, 0xa5, sizeof(copied));
    cr_assert_eq(mca_base_event_copy(rec, &copied), OPAL_SUCCESS);
    ++calls;
}

/* What a producer raises with the struct, a tool copies back into it. */
Test(payloads, raise_and_copy_round_trip)
{
    ompi_evt_win_created_payload_t sent = {.size = -123456789012LL,
                                           .disp_unit = 8,
                                           .flavor = 2,
                                           .handle = 0x1122334455667788ULL};
    mca_base_event_registration_t *reg = NULL;
    mca_base_event_t *ev = NULL;

    cr_assert_eq(mca_base_event_get_by_name("ompi.mpi.win_created", &ev), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &reg), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_register_callback(reg, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL, NULL,
                                                  on_win_created),
                 OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_raise(ev, NULL, &sent), OPAL_SUCCESS);
    cr_assert_eq(calls, 1);
    cr_expect_eq(copied.size, sent.size);
    cr_expect_eq(copied.disp_unit, sent.disp_unit);
    cr_expect_eq(copied.flavor, sent.flavor);
    cr_expect_eq(copied.handle, sent.handle);
    cr_expect_eq(mca_base_event_handle_free(reg, NULL, NULL), OPAL_SUCCESS);
}
