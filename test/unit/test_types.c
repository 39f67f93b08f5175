/* Unit tests: element types allowed in event payloads. */
#include "opal_config.h"

#include <criterion/criterion.h>

#include "opal/mca/base/mca_base_event.h"

Test(event_types, exact_width_sizes)
{
    cr_expect_eq(mca_base_event_type_size(MCA_BASE_VAR_TYPE_INT32_T), 4);
    cr_expect_eq(mca_base_event_type_size(MCA_BASE_VAR_TYPE_UINT32_T), 4);
    cr_expect_eq(mca_base_event_type_size(MCA_BASE_VAR_TYPE_INT64_T), 8);
    cr_expect_eq(mca_base_event_type_size(MCA_BASE_VAR_TYPE_UINT64_T), 8);
    cr_expect_eq(mca_base_event_type_size(MCA_BASE_VAR_TYPE_DOUBLE), 8);
}

Test(event_types, platform_dependent_types_rejected)
{
    cr_expect_eq(mca_base_event_type_size(MCA_BASE_VAR_TYPE_INT), 0);
    cr_expect_eq(mca_base_event_type_size(MCA_BASE_VAR_TYPE_SIZE_T), 0);
    cr_expect_eq(mca_base_event_type_size(MCA_BASE_VAR_TYPE_STRING), 0);
    cr_expect_eq(mca_base_event_type_size(MCA_BASE_VAR_TYPE_LONG), 0);
}
