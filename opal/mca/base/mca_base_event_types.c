/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/** @file Element types of event payloads: which ones are allowed and their sizes. */

#include "opal_config.h"

#include "opal/mca/base/mca_base_event.h"

/* Context: ANY. Only exact-width types give a payload a portable layout. */
size_t mca_base_event_type_size(mca_base_var_type_t type)
{
    switch (type) {
    case MCA_BASE_VAR_TYPE_INT32_T:
    case MCA_BASE_VAR_TYPE_UINT32_T:
        return 4;
    case MCA_BASE_VAR_TYPE_INT64_T:
    case MCA_BASE_VAR_TYPE_UINT64_T:
    case MCA_BASE_VAR_TYPE_DOUBLE:
        return 8;
    case MCA_BASE_VAR_TYPE_BOOL:
        return sizeof(bool);
    default:
        return 0;
    }
}
