/*
 * An unmodified MPI-4 tool: only standard MPI_T names and <mpi.h>. Built by
 * test_pkgconfig_install.sh against an installed ompi-evt with
 *     mpicc $(pkg-config --cflags ompi-evt) mpi4_tool_compile.c $(pkg-config --libs ompi-evt)
 * and run as a singleton (MPI_T only). Prints "N passed, M failed".
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int passed, failed;

#define CHECK(cond)                                                  \
    do {                                                             \
        if (cond) {                                                  \
            ++passed;                                                \
        } else {                                                     \
            ++failed;                                                \
            fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                            \
    } while (0)

static int delivered;

static void on_event(MPI_T_event_instance instance, MPI_T_event_registration registration,
                     MPI_T_cb_safety cb_safety, void *user_data)
{
    MPI_Count ts;
    int source;

    ++delivered;
    (void) MPI_T_event_get_timestamp(instance, &ts);
    (void) MPI_T_event_get_source(instance, &source);
}

static void on_free(MPI_T_event_registration registration, MPI_T_cb_safety cb_safety,
                    void *user_data)
{
    *(int *) user_data = 1;
}

static void on_dropped(MPI_Count count, MPI_T_event_registration registration, int source_index,
                       MPI_T_cb_safety cb_safety, void *user_data)
{
}

int main(void)
{
    int provided, num_events = -1, num_sources = -1, index, freed = 0, num_cat = 0;
    MPI_T_source_order ordering;
    MPI_Count ticks, max_ticks, now;
    MPI_T_cb_safety safety = MPI_T_CB_REQUIRE_THREAD_SAFE;
    char name[256];
    int name_len;

    CHECK(MPI_T_ERR_NOT_INITIALIZED == MPI_T_event_get_num(&num_events));
    CHECK(MPI_SUCCESS == MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    CHECK(MPI_SUCCESS == MPI_T_event_get_num(&num_events));
    CHECK(num_events >= 0);
    CHECK(MPI_T_ERR_INVALID_NAME == MPI_T_event_get_index("no.such.event", &index));
    CHECK(MPI_SUCCESS == MPI_T_source_get_num(&num_sources));
    for (int s = 0; s < num_sources; ++s) {
        name_len = sizeof(name);
        CHECK(MPI_SUCCESS == MPI_T_source_get_info(s, name, &name_len, NULL, NULL, &ordering,
                                                   &ticks, &max_ticks, NULL));
        int rc = MPI_T_source_get_timestamp(s, &now);
        CHECK(MPI_SUCCESS == rc || MPI_T_ERR_NOT_SUPPORTED == rc);
        CHECK(MPI_T_SOURCE_ORDERED == ordering || MPI_T_SOURCE_UNORDERED == ordering);
    }
    CHECK(MPI_T_ERR_INVALID_INDEX == MPI_T_source_get_timestamp(num_sources, &now));
    CHECK(MPI_SUCCESS == MPI_T_category_get_num(&num_cat));
    for (int c = 0; c < num_cat; ++c) {
        int n = 0;
        if (MPI_SUCCESS == MPI_T_category_get_num_events(c, &n) && n > 0) {
            int first;
            CHECK(MPI_SUCCESS == MPI_T_category_get_events(c, 1, &first));
        }
    }
    for (int e = 0; e < num_events; ++e) {
        int bind = -1, num_elements = 0;
        MPI_T_event_registration reg;

        name_len = sizeof(name);
        CHECK(MPI_SUCCESS == MPI_T_event_get_info(e, name, &name_len, NULL, NULL, NULL,
                                                  &num_elements, NULL, NULL, NULL, NULL, &bind));
        CHECK(MPI_SUCCESS == MPI_T_event_get_index(name, &index) && index == e);
        if (MPI_T_BIND_NO_OBJECT != bind || 0 != freed) {
            continue;
        }
        /* one registration on the first unbound event */
        CHECK(MPI_SUCCESS == MPI_T_event_handle_alloc(e, NULL, MPI_INFO_NULL, &reg));
        CHECK(MPI_SUCCESS == MPI_T_event_register_callback(reg, safety, MPI_INFO_NULL, NULL,
                                                           on_event));
        CHECK(MPI_SUCCESS == MPI_T_event_set_dropped_handler(reg, on_dropped));
        CHECK(MPI_SUCCESS == MPI_T_event_handle_free(reg, &freed, on_free));
        CHECK(1 == freed);
    }
    CHECK(MPI_SUCCESS == MPI_T_finalize());
    CHECK(MPI_T_ERR_NOT_INITIALIZED == MPI_T_event_get_num(&num_events));
    CHECK(MPI_T_ERR_NOT_SUPPORTED != MPI_T_ERR_NOT_ACCESSIBLE);
    printf("mpi4_tool: %d events, %d sources, %d delivered\n", num_events, num_sources, delivered);
    printf("%d passed, %d failed\n", passed, failed);
    return 0 == failed ? 0 : 1;
}
