/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* The producer of "Writing an MPI_T event producer" (the page documenting
 * opal/mca/base/mca_base_event.h of Open MPI main), pasted
 * unchanged from the page (the one copy in the tree): source
 * "ompi.mything", event "ompi.mything_base_happened" {value:int32}.
 * test/unit/test_producer_example.c checks that it compiles and delivers; the
 * mpirun tests include it to raise events of their own. One inclusion per
 * program (my_producer_register is not static, as on the page). */

#ifndef EVT_EXAMPLE_PRODUCER_H
#define EVT_EXAMPLE_PRODUCER_H

#include "opal/mca/base/mca_base_event.h"

static mca_base_event_t *my_event = NULL;

void my_producer_register(void)
{
    mca_base_event_source_t *source;
    /* {value:int32} -- a single 4-byte element at offset 0. */
    const mca_base_var_type_t types[1] = {MCA_BASE_VAR_TYPE_INT32_T};
    const ptrdiff_t offsets[1] = {0};
    int si, ei;

    si = mca_base_event_source_register("ompi.mything",
                                        "My subsystem events",
                                        MCA_BASE_EVENT_SOURCE_ORDERED,
                                        1000000000 /* ticks/sec */,
                                        OPAL_COUNT_MAX /* max_ticks */,
                                        NULL /* default clock */,
                                        true /* allow ad-hoc timestamp reads:
                                                the default clock is freely
                                                readable */,
                                        NULL);
    if (0 > si || OPAL_SUCCESS != mca_base_event_source_get_by_index(si, &source)) {
        return;
    }
    /* The exported event-type name is "ompi.mything_base_happened" -- see
       the note on the "ompi." prefix below. */
    ei = mca_base_event_register("ompi", "mything", "base", "happened",
                                 "My thing happened", OPAL_INFO_LVL_4,
                                 1, types, offsets, NULL,
                                 MCA_BASE_VAR_BIND_NO_OBJECT, 0, source, NULL);
    if (0 <= ei) {
        (void) mca_base_event_get_by_index(ei, &my_event);
    }
}

static inline void my_producer_raise(int32_t value)
{
    if (NULL != my_event) {
        mca_base_event_raise(my_event, my_event->source, &value);
    }
}

#endif /* EVT_EXAMPLE_PRODUCER_H */
