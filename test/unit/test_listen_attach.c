/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Unit tests: the targets of tools/evt_listen_attach (ompi-evt-listen
 * --attach), and an attach that finds no server. Attaching for real is
 * tested under the tests' own PMIx server (test/pmix/test_pmix_server.sh). */
#include "ompi_config.h"

#include <criterion/criterion.h>

#include "opal/constants.h"
#include "tools/evt_listen_attach.h"

Test(listen_attach, targets)
{
    ompi_evt_listen_attach_target_t t;
    const char *why = NULL;

    cr_assert_eq(ompi_evt_listen_attach_parse("pid:1234", &t, &why), OPAL_SUCCESS);
    cr_assert_eq(t.kind, OMPI_EVT_LISTEN_ATTACH_PID);
    cr_assert_eq(t.pid, 1234);
    cr_assert_eq(ompi_evt_listen_attach_parse("uri:pmix-server.9;tcp4://127.0.0.1:4000", &t, &why),
                 OPAL_SUCCESS);
    cr_assert_eq(t.kind, OMPI_EVT_LISTEN_ATTACH_URI);
    cr_assert_str_eq(t.value, "pmix-server.9;tcp4://127.0.0.1:4000");
    cr_assert_eq(ompi_evt_listen_attach_parse("system", &t, &why), OPAL_SUCCESS);
    cr_assert_eq(t.kind, OMPI_EVT_LISTEN_ATTACH_SYSTEM);
    cr_assert_eq(ompi_evt_listen_attach_parse("nspace:prterun-vm-1@0", &t, &why), OPAL_SUCCESS);
    cr_assert_eq(t.kind, OMPI_EVT_LISTEN_ATTACH_NSPACE);
    cr_assert_str_eq(t.value, "prterun-vm-1@0");
}

Test(listen_attach, bad_targets)
{
    const char *bad[]
        = {NULL,   "",        "pid:",    "pid:x",   "pid:-3", "pid:12abc", "pid:99999999999999",
           "uri:", "nspace:", "systems", "file:/x", "PID:1"};
    ompi_evt_listen_attach_target_t t;

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); ++i) {
        const char *why = NULL;
        cr_assert_eq(ompi_evt_listen_attach_parse(bad[i], &t, &why), OPAL_ERR_BAD_PARAM, "%s",
                     NULL == bad[i] ? "(null)" : bad[i]);
        cr_assert_not_null(why, "%s: no reason", NULL == bad[i] ? "(null)" : bad[i]);
    }
}

static void no_batch(const void *buf, size_t len, const mca_common_evt_wire_batch_t *b, void *ctx)
{
    cr_assert_fail("no batch expected");
}

Test(listen_attach, no_server_is_a_clear_error)
{
    ompi_evt_listen_attach_target_t t;
    ompi_evt_listen_attach_t *a = (void *) 1;
    char tmp[] = "/tmp/test_listen_attach.XXXXXX", err[512] = "";

    cr_assert_not_null(mkdtemp(tmp));
    cr_assert_eq(ompi_evt_listen_attach_parse("system", &t, NULL), OPAL_SUCCESS);
    cr_assert_eq(ompi_evt_listen_attach_open(&t, tmp, 500, no_batch, NULL, NULL, &a, err,
                                             sizeof(err)),
                 OPAL_ERR_UNREACH);
    cr_assert_null(a);
    cr_assert(NULL != strstr(err, "PMIx_tool_init failed"), "%s", err);
    cr_assert_eq(ompi_evt_listen_attach_open(NULL, tmp, 500, no_batch, NULL, NULL, &a, NULL, 0),
                 OPAL_ERR_BAD_PARAM);
    (void) rmdir(tmp);
}
