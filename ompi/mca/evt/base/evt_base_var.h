/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * An evt component's MCA variables, registered from a table: each still
 * goes through mca_base_component_var_register() (read-only scope, the
 * default set in the storage first). What every component registers the
 * same way has one function each: the variable group with the priority,
 * and the kit's variables (one name and one description in every
 * kit-built component).
 */

#ifndef OMPI_EVT_BASE_VAR_H
#define OMPI_EVT_BASE_VAR_H

#include "ompi_config.h"

#include <stddef.h>

#include "opal/mca/base/mca_base_var.h"

BEGIN_C_DECLS

/** One MCA variable of a component (evt_<component>_<name>). */
typedef struct ompi_evt_base_var_t {
    const char *name;         /**< without the evt_<component>_ prefix */
    const char *help;         /**< ompi_info's description */
    mca_base_var_type_t type; /**< INT, SIZE_T, BOOL or STRING */
    mca_base_var_info_lvl_t level;
    void *storage; /**< an int, size_t, bool or char * of the component */
    long long def; /**< the default of an INT, SIZE_T or BOOL (a STRING's is NULL) */
    /** An INT's named values ({0, NULL}-terminated), or NULL. */
    const mca_base_var_enum_value_t *values;
} ompi_evt_base_var_t;

/** Register @p n variables of @p component, in order: each one's default is
 *  stored first, then mca_base_component_var_register() (read-only) sets
 *  what the user gave. No allocation but the enumerators mca_base_var keeps.
 *  @retval OPAL_SUCCESS; the first error of mca_base_var (the rest are not
 *          registered)
 *  Context: INIT (mca_register_component_params). */
OMPI_DECLSPEC int ompi_evt_base_register_vars(const mca_base_component_t *component,
                                              const ompi_evt_base_var_t *vars, size_t n);

/** What every evt component registers first: its variable group, with
 *  @p description, and evt_<component>_priority (read-only, @p def first),
 *  the priority its evtc_init gives (a component of priority 0 or less is
 *  selected only when the evt parameter names it).
 *  Context: INIT (mca_register_component_params). */
OMPI_DECLSPEC int ompi_evt_base_register_component(const mca_base_component_t *component,
                                                   const char *description, int *priority, int def,
                                                   mca_base_var_info_lvl_t level, const char *help);

/** One kit variable of a component: where it is kept (NULL: the component
 *  has no such variable) and its default. */
typedef struct ompi_evt_base_kit_var_t {
    int *storage;
    int def;
} ompi_evt_base_kit_var_t;

/** A kit-built component's kit variables (the user's side of evt.h's
 *  ompi_evt_base_kit_params_t). */
typedef struct ompi_evt_base_kit_vars_t {
    ompi_evt_base_kit_var_t ring_size;      /**< evt_<c>_ring_size, bytes */
    ompi_evt_base_kit_var_t pool_size;      /**< evt_<c>_pool_size, rings */
    ompi_evt_base_kit_var_t drain_budget;   /**< evt_<c>_drain_budget, records */
    ompi_evt_base_kit_var_t overflow;       /**< evt_<c>_overflow_policy, OMPI_EVT_OVERFLOW_* */
    ompi_evt_base_kit_var_t drain_interval; /**< evt_<c>_drain_interval, microseconds */
} ompi_evt_base_kit_vars_t;

/** Register the kit variables @p kit names for @p component, in the order
 *  above (ompi_evt_base_register_vars()).
 *  Context: INIT (mca_register_component_params). */
OMPI_DECLSPEC int ompi_evt_base_kit_register_params(const mca_base_component_t *component,
                                                    const ompi_evt_base_kit_vars_t *kit);

END_C_DECLS

#endif /* OMPI_EVT_BASE_VAR_H */
