/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/** @file Helpers shared by the MPI_T event bindings (see mpit_event_internal.h). */

#include "ompi_config.h"

#include <stdlib.h>

#include "ompi/info/info.h"
#include "ompi/mpi/tool/mpit_event_internal.h"
#include "ompi/runtime/mpiruntime.h"
#include "opal/mca/base/mca_base_var_group.h"

/* Context: ANY. */
void mpit_event_copy_string(char *dest, int *len, const char *source)
{
    size_t need;

    if (NULL == len) {
        return;
    }
    if (NULL == source) {
        source = "";
    }
    need = strlen(source) + 1;
    if (NULL == dest || *len <= 0) {
        *len = (int) need;
        return;
    }
    if ((size_t) *len > need) {
        *len = (int) need;
    }
    memcpy(dest, source, (size_t) *len - 1);
    dest[*len - 1] = '\0';
}

/* Context: TOOL. */
int mpit_event_info_in(MPI_Info info, opal_info_t **out)
{
    if (MPI_INFO_NULL == info) {
        *out = NULL;
        return MPI_SUCCESS;
    }
    if (ompi_info_is_freed((ompi_info_t *) info)) {
        return MPI_T_ERR_INVALID;
    }
    *out = &((ompi_info_t *) info)->super;
    return MPI_SUCCESS;
}

/* True between the end of MPI_Init and the start of MPI_Finalize: the only
 * window in which Open MPI 4.1 can create an MPI_Info. */
static bool mpi_info_usable(void)
{
    int32_t state = ompi_mpi_state;

    return state >= OMPI_MPI_STATE_INIT_COMPLETED && state < OMPI_MPI_STATE_FINALIZE_STARTED;
}

/* Context: TOOL. */
int mpit_event_info_out(opal_info_t *src, MPI_Info *out)
{
    opal_info_entry_t *entry;
    MPI_Info info;

    *out = MPI_INFO_NULL;
    if (!mpi_info_usable()) {
        return MPI_SUCCESS;
    }
    if (MPI_SUCCESS != PMPI_Info_create(&info)) {
        return MPI_T_ERR_MEMORY;
    }
    if (NULL != src) {
        /* src is the caller's private copy (the engine's get_info result):
         * nobody else can change it while it is walked. */
        OPAL_LIST_FOREACH (entry, &src->super, opal_info_entry_t) {
            if (OPAL_SUCCESS
                != opal_info_set(&((ompi_info_t *) info)->super, entry->ie_key, entry->ie_value)) {
                (void) PMPI_Info_free(&info);
                return MPI_T_ERR_MEMORY;
            }
        }
    }
    *out = info;
    return MPI_SUCCESS;
}

/* Context: ANY. */
MPI_Datatype mpit_event_datatype(mca_base_var_type_t type)
{
    switch (type) {
    case MCA_BASE_VAR_TYPE_INT32_T:
        return MPI_INT32_T;
    case MCA_BASE_VAR_TYPE_UINT32_T:
        return MPI_UINT32_T;
    case MCA_BASE_VAR_TYPE_INT64_T:
        return MPI_INT64_T;
    case MCA_BASE_VAR_TYPE_UINT64_T:
        return MPI_UINT64_T;
    case MCA_BASE_VAR_TYPE_DOUBLE:
        return MPI_DOUBLE;
    case MCA_BASE_VAR_TYPE_BOOL:
        return MPI_C_BOOL; /* the engine stores C bool */
    default:
        return MPI_DATATYPE_NULL;
    }
}

/* Context: ANY. Only for codes a binding does not map itself. */
int mpit_event_error(int opal_rc)
{
    switch (opal_rc) {
    case OPAL_SUCCESS:
        return MPI_SUCCESS;
    case OPAL_ERR_OUT_OF_RESOURCE:
    case OPAL_ERR_TEMP_OUT_OF_RESOURCE:
        return MPI_T_ERR_MEMORY;
    case OPAL_ERR_NOT_SUPPORTED:
        return MPI_T_ERR_NOT_SUPPORTED;
    default:
        return ompit_opal_to_mpit_error(opal_rc);
    }
}

/* ------------------------------------------------------------------------
 * Categories
 * ------------------------------------------------------------------------ */

static bool is_sep(char c)
{
    return '_' == c || '.' == c;
}

/* Does @p key start with the @p n characters of @p part ('_' == '.')? */
static bool same_prefix(const char *key, const char *part, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        if (key[i] != part[i] && !(is_sep(key[i]) && is_sep(part[i]))) {
            return false;
        }
    }
    return true;
}

/* Length of the group key "framework[_component]" matched at the start of
 * @p key and followed by a separator, or 0. */
static size_t group_match(const char *key, const char *framework, const char *component)
{
    size_t n, m;

    if (NULL == framework || 0 == (n = strlen(framework)) || !same_prefix(key, framework, n)) {
        return 0;
    }
    if (NULL != component && '\0' != component[0]) {
        m = strlen(component);
        if (!is_sep(key[n]) || !same_prefix(key + n + 1, component, m)) {
            return 0;
        }
        n += 1 + m;
    }
    return is_sep(key[n]) ? n : 0;
}

/* Locks: ompi_mpit_lock() held by the caller (walks the variable groups). */
int mpit_event_category_of(const mca_base_event_t *event)
{
    const char *keys[2] = {NULL, NULL};
    const mca_base_var_group_t *group;
    size_t best_len = 0;
    int best = -1, count;

    if (NULL == event->name || 0 != strncmp(event->name, "ompi.", 5)) {
        return -1;
    }
    keys[0] = event->name + 5;
    if (0 == strncmp(keys[0], "mca", 3) && is_sep(keys[0][3])) {
        keys[1] = keys[0] + 4;
    }
    count = mca_base_var_group_get_count();
    for (int g = 0; g < count; ++g) {
        if (OPAL_SUCCESS != mca_base_var_group_get(g, &group) || !group->group_isvalid) {
            continue;
        }
        for (int k = 0; k < 2 && NULL != keys[k]; ++k) {
            size_t len = group_match(keys[k], group->group_framework, group->group_component);
            if (len > best_len) { /* strictly longer: ties keep the lower index */
                best_len = len;
                best = g;
            }
        }
    }
    return best;
}
