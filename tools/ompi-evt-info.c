/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * ompi-evt-info: what ompi_info cannot show about evt (it knows only the
 * frameworks built into Open MPI): the evt components found, their
 * priorities and the one selected, every evt_* MCA parameter (the
 * framework's and its components'), and every event source and event type
 * with its layout, level, binding and flags.
 *
 *   ompi-evt-info [--parsable | --markdown] [--mca NAME VALUE]... [--help]
 *
 * --markdown prints only the catalogue of event sources and event types as
 * a Markdown page: docs/events-catalogue.md is this output, and make check
 * compares the two so that the page cannot drift from the code.
 *
 * The parsable form has one colon-separated fact per line, like
 * ompi_info --parsable:
 *   evt:component:<name>:priority:<n>      (-1: not usable here)
 *   evt:component:<name>:selected:<yes|no>
 *   evt:delivery:<component or "inline">[:reason:<text>]
 *   mca:evt:...                            (mca_base_var_dump, parsable)
 *   source:<index>:<name>:<attribute>:<value>
 *   event:<index>:<name>:<attribute>:<value>
 *   event:<index>:<name>:element:<i>:<name>:<type>:<offset>
 */

#include "ompi_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ompi/mca/evt/base/base.h"
#include "ompi/runtime/ompi_evt_producers.h"
#include "opal/mca/base/mca_base_event.h"
#include "opal/mca/base/mca_base_framework.h"
#include "opal/mca/base/mca_base_var.h"
#include "opal/mca/base/mca_base_var_enum.h"
#include "opal/mca/memory/patcher/memory_patcher_event.h"
#include "opal/runtime/opal.h"
#include "opal/util/argv.h"

static bool parsable = false;
static bool markdown = false;

static const char *ordering_name(const mca_base_event_source_t *s)
{
    return MCA_BASE_EVENT_SOURCE_ORDERED == s->ordering ? "ordered" : "unordered";
}

static const char *type_name(mca_base_var_type_t type)
{
    switch (type) {
    case MCA_BASE_VAR_TYPE_INT32_T:
        return "int32";
    case MCA_BASE_VAR_TYPE_UINT32_T:
        return "uint32";
    case MCA_BASE_VAR_TYPE_INT64_T:
        return "int64";
    case MCA_BASE_VAR_TYPE_UINT64_T:
        return "uint64";
    case MCA_BASE_VAR_TYPE_DOUBLE:
        return "double";
    case MCA_BASE_VAR_TYPE_BOOL:
        return "bool";
    default:
        return "other";
    }
}

static const char *bind_name(int bind)
{
    static const char *names[] = {"none",     "MPI_COMM",    "MPI_DATATYPE", "MPI_ERRHANDLER",
                                  "MPI_FILE", "MPI_GROUP",   "MPI_OP",       "MPI_REQUEST",
                                  "MPI_WIN",  "MPI_MESSAGE", "MPI_INFO"};

    if (0 <= bind && bind < (int) (sizeof(names) / sizeof(names[0]))) {
        return names[bind];
    }
    return "other";
}

/* Element i's name: the enumerator's string when the producer gave one. */
static void element_name(const mca_base_event_t *ev, int i, char *buf, size_t len)
{
    const char *str = mca_base_event_element_name(ev, i);
    int value;

    if (NULL != str) { /* the producer's names (mca_base_event_set_element_names) */
        (void) snprintf(buf, len, "%s", str);
        return;
    }
    if (NULL != ev->enumerator && NULL != ev->enumerator->get_value
        && OPAL_SUCCESS == ev->enumerator->get_value(ev->enumerator, i, &value, &str)
        && NULL != str) {
        (void) snprintf(buf, len, "%s", str);
        return;
    }
    (void) snprintf(buf, len, "e%d", i);
}

static int is_evt_var(const mca_base_var_t *var)
{
    const char *n = var->mbv_full_name;

    /* the framework's and components' variables, the engine's
     * (mca_base_event_max_registrations, mca_base_event_clock) and the
     * runtime producers' (mpi_events_*) */
    return NULL != n
           && (0 == strcmp(n, "evt") || 0 == strncmp(n, "evt_", 4)
               || 0 == strncmp(n, "mca_base_event_", 15) || 0 == strncmp(n, "mpi_events_", 11));
}

/* Collect the evt_* variables now: selection closes (and deregisters) the
 * losing components' variables. */
static char **dump_vars(void)
{
    char **lines = NULL;
    int count = mca_base_var_get_count();

    for (int i = 0; i < count; ++i) {
        const mca_base_var_t *var;
        char **out = NULL;

        if (OPAL_SUCCESS != mca_base_var_get(i, &var) || !is_evt_var(var)) {
            continue;
        }
        if (OPAL_SUCCESS
            != mca_base_var_dump(i, &out,
                                 parsable ? MCA_BASE_VAR_DUMP_PARSABLE
                                          : MCA_BASE_VAR_DUMP_READABLE)) {
            continue;
        }
        for (int j = 0; NULL != out && NULL != out[j]; ++j) {
            (void) opal_argv_append_nosize(&lines, out[j]);
        }
        opal_argv_free(out);
    }
    return lines;
}

static void print_components(void)
{
    const char *sel = ompi_evt_base_framework.framework_selection;

    if (!parsable) {
        printf("evt components (evt = \"%s\"):\n", NULL == sel ? "" : sel);
        if (0 == ompi_evt_base.num_candidates) {
            printf("  (none found)\n");
        }
    }
    for (int i = 0; i < ompi_evt_base.num_candidates; ++i) {
        const ompi_evt_base_candidate_t *c = &ompi_evt_base.candidates[i];

        if (parsable) {
            printf("evt:component:%s:priority:%d\n", c->name, c->priority);
            printf("evt:component:%s:selected:%s\n", c->name, c->selected ? "yes" : "no");
        } else {
            printf("  %-12s priority %4d  %s\n", c->name, c->priority,
                   c->selected ? "selected" : (c->available ? "available" : "not usable"));
        }
    }
    if (parsable) {
        if (NULL != ompi_evt_base.name) {
            printf("evt:delivery:%s\n", ompi_evt_base.name);
        } else {
            printf("evt:delivery:inline:reason:%s\n",
                   NULL == ompi_evt_base.inline_reason ? "" : ompi_evt_base.inline_reason);
        }
    } else if (NULL != ompi_evt_base.name) {
        printf("  delivery: %s\n", ompi_evt_base.name);
    } else {
        printf("  delivery: inline (%s)\n",
               NULL == ompi_evt_base.inline_reason ? "" : ompi_evt_base.inline_reason);
    }
}

static void print_sources(void)
{
    int n = mca_base_event_source_get_count();

    if (!parsable) {
        printf("\nEvent sources (%d):\n", n);
    }
    for (int i = 0; i < n; ++i) {
        mca_base_event_source_t *s;

        if (OPAL_SUCCESS != mca_base_event_source_get_by_index(i, &s)) {
            continue;
        }
        if (parsable) {
            printf("source:%d:%s:ordering:%s\n", s->index, s->name, ordering_name(s));
            printf("source:%d:%s:ticks_per_second:%lld\n", s->index, s->name,
                   (long long) s->ticks_per_second);
            printf("source:%d:%s:max_ticks:%lld\n", s->index, s->name, (long long) s->max_ticks);
            printf("source:%d:%s:adhoc_timestamp:%s\n", s->index, s->name,
                   s->supports_adhoc ? "yes" : "no");
            printf("source:%d:%s:description:%s\n", s->index, s->name,
                   NULL == s->description ? "" : s->description);
        } else {
            printf("  [%d] %s: %s, %lld ticks/s, ad-hoc timestamps %s\n      %s\n", s->index,
                   s->name, ordering_name(s), (long long) s->ticks_per_second,
                   s->supports_adhoc ? "allowed" : "not allowed",
                   NULL == s->description ? "" : s->description);
        }
    }
}

static void print_events(void)
{
    int n = mca_base_event_get_count();

    if (!parsable) {
        printf("\nEvent types (%d):\n", n);
    }
    for (int i = 0; i < n; ++i) {
        mca_base_event_t *ev;
        char flags[64];
        char ename[64];

        if (OPAL_SUCCESS != mca_base_event_get_by_index(i, &ev)) {
            continue;
        }
        (void) snprintf(flags, sizeof(flags), "%s",
                        (ev->flags & MCA_BASE_EVENT_FLAG_SYNCHRONOUS) ? "synchronous" : "none");
        if (parsable) {
            printf("event:%d:%s:source:%s\n", ev->index, ev->name,
                   NULL == ev->source ? "" : ev->source->name);
            printf("event:%d:%s:level:%d\n", ev->index, ev->name, (int) ev->verbosity + 1);
            printf("event:%d:%s:bind:%s\n", ev->index, ev->name, bind_name(ev->bind));
            printf("event:%d:%s:flags:%s\n", ev->index, ev->name, flags);
            printf("event:%d:%s:extent:%zu\n", ev->index, ev->name, ev->extent);
            printf("event:%d:%s:num_elements:%d\n", ev->index, ev->name, ev->num_elements);
            for (int e = 0; e < ev->num_elements; ++e) {
                element_name(ev, e, ename, sizeof(ename));
                printf("event:%d:%s:element:%d:%s:%s:%td\n", ev->index, ev->name, e, ename,
                       type_name(ev->types[e]), ev->offsets[e]);
            }
            printf("event:%d:%s:description:%s\n", ev->index, ev->name,
                   NULL == ev->description ? "" : ev->description);
        } else {
            printf("  [%d] %s (source %s, level %d, bind %s, flags %s, %zu bytes)\n", ev->index,
                   ev->name, NULL == ev->source ? "?" : ev->source->name, (int) ev->verbosity + 1,
                   bind_name(ev->bind), flags, ev->extent);
            printf("      layout:");
            for (int e = 0; e < ev->num_elements; ++e) {
                element_name(ev, e, ename, sizeof(ename));
                printf(" %s:%s@%td", ename, type_name(ev->types[e]), ev->offsets[e]);
            }
            printf("\n      %s\n", NULL == ev->description ? "" : ev->description);
        }
    }
}

/* The catalogue as Markdown: one table of sources, then one section per
 * event type with its payload as a table (what MPI_T_event_copy fills). */
static void print_markdown(void)
{
    int nsrc = mca_base_event_source_get_count();
    int nev = mca_base_event_get_count();

    printf("# Event catalogue\n\n"
           "Generated by `ompi-evt-info --markdown`; `make check` compares this page with\n"
           "the program's output. Offsets are in bytes from the start of the payload\n"
           "that `MPI_T_event_copy` and `MPI_T_event_read` see; levels are MPI_T\n"
           "verbosity levels (1 user/basic ... 9 mpidev/all).\n\n"
           "## Sources\n\n"
           "| source | ordering | ticks/s | ad-hoc timestamps | description |\n"
           "|---|---|---|---|---|\n");
    for (int i = 0; i < nsrc; ++i) {
        mca_base_event_source_t *s;

        if (OPAL_SUCCESS != mca_base_event_source_get_by_index(i, &s)) {
            continue;
        }
        printf("| `%s` | %s | %lld | %s | %s |\n", s->name, ordering_name(s),
               (long long) s->ticks_per_second, s->supports_adhoc ? "yes" : "no",
               NULL == s->description ? "" : s->description);
    }
    printf("\n## Event types\n");
    for (int i = 0; i < nev; ++i) {
        mca_base_event_t *ev;
        char ename[64];

        if (OPAL_SUCCESS != mca_base_event_get_by_index(i, &ev)) {
            continue;
        }
        printf("\n### `%s`\n\n%s\n\n", ev->name, NULL == ev->description ? "" : ev->description);
        printf("source `%s`, level %d, bound to %s, %s, %zu bytes\n\n",
               NULL == ev->source ? "?" : ev->source->name, (int) ev->verbosity + 1,
               bind_name(ev->bind),
               (ev->flags & MCA_BASE_EVENT_FLAG_SYNCHRONOUS) ? "synchronous" : "not synchronous",
               ev->extent);
        printf("| element | type | offset |\n|---|---|---|\n");
        for (int e = 0; e < ev->num_elements; ++e) {
            element_name(ev, e, ename, sizeof(ename));
            printf("| `%s` | %s | %td |\n", ename, type_name(ev->types[e]), ev->offsets[e]);
        }
    }
}

static void usage(FILE *f, const char *argv0)
{
    fprintf(f,
            "Usage: %s [--parsable | --markdown] [--mca NAME VALUE]... [--help]\n"
            "Lists the evt components (priority, the one selected), the evt MCA\n"
            "parameters, and every MPI_T event source and event type.\n"
            "  --parsable, -p     one colon-separated fact per line\n"
            "  --markdown         only the event catalogue, as a Markdown page\n"
            "  --mca NAME VALUE   set an MCA parameter (e.g. --mca evt ^sync)\n",
            argv0);
}

int main(int argc, char **argv)
{
    char **var_lines = NULL;
    int rc;

    for (int i = 1; i < argc; ++i) {
        if ((0 == strcmp(argv[i], "--parsable") || 0 == strcmp(argv[i], "-p")) && !markdown) {
            parsable = true;
        } else if (0 == strcmp(argv[i], "--markdown") && !parsable) {
            markdown = true;
        } else if (0 == strcmp(argv[i], "--mca") && i + 2 < argc) {
            char name[256];

            (void) snprintf(name, sizeof(name), "OMPI_MCA_%s", argv[i + 1]);
            (void) setenv(name, argv[i + 2], 1);
            i += 2;
        } else if (0 == strcmp(argv[i], "--help") || 0 == strcmp(argv[i], "-h")) {
            usage(stdout, argv[0]);
            return 0;
        } else {
            usage(stderr, argv[0]);
            return 2;
        }
    }

    /* The catalogue needs all of OPAL: the memory-release events exist only
     * where Open MPI's memory hooks work, which opal_init_util alone does
     * not bring up. */
    rc = markdown ? opal_init(&argc, &argv) : opal_init_util(&argc, &argv);
    if (OPAL_SUCCESS != rc) {
        fprintf(stderr, "ompi-evt-info: %s failed (%d)\n",
                markdown ? "opal_init" : "opal_init_util", rc);
        return 1;
    }
    rc = mca_base_event_init();
    if (OPAL_SUCCESS != rc) {
        fprintf(stderr, "ompi-evt-info: the event engine did not start (%d)\n", rc);
        (void) opal_finalize_util();
        return 1;
    }
    (void) ompi_evt_producers_register();
    if (markdown) {
        /* Both memory-release events, as a delivery that takes async-signal
         * raises (evt/ring) has them. */
        rc = opal_memory_patcher_event_register(MCA_BASE_EVENT_DELIVERY_ASYNC_SIGNAL_SAFE);
        if (OPAL_SUCCESS != rc) {
            fprintf(stderr,
                    "ompi-evt-info: the memory-release events could not be registered "
                    "(%d); is Open MPI's memory/patcher component usable here?\n",
                    rc);
        } else {
            print_markdown();
            opal_memory_patcher_event_finalize();
        }
        (void) mca_base_event_finalize();
        (void) opal_finalize();
        return OPAL_SUCCESS == rc ? 0 : 1;
    }

    /* Open (variables of every component registered), list the variables,
     * then select as an MPI process would. This tool opens the framework
     * itself (to list the variables before selection closes the losers),
     * so it adds the base's help folders as ompi_evt_base_open() does: the
     * base's messages live outside Open MPI's help folder. */
    ompi_evt_base_help_init();
    rc = mca_base_framework_open(&ompi_evt_base_framework, MCA_BASE_OPEN_DEFAULT);
    if (OPAL_SUCCESS == rc) {
        var_lines = dump_vars();
        (void) ompi_evt_base_select();
    } else {
        fprintf(stderr, "ompi-evt-info: the evt framework could not be opened (%d)\n", rc);
    }

    print_components();
    if (!parsable) {
        printf("\nMCA parameters:\n");
    }
    for (int i = 0; NULL != var_lines && NULL != var_lines[i]; ++i) {
        printf(parsable ? "%s\n" : "  %s\n", var_lines[i]);
    }
    opal_argv_free(var_lines);
    print_sources();
    print_events();

    (void) ompi_evt_base_close();
    (void) mca_base_event_finalize();
    (void) opal_finalize_util();
    return 0;
}
