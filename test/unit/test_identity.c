/* Unit tests: this process's identity for a batch's sender
 * (ompi/mca/common/evt/common_evt_identity.h) before PMIx is up: from the
 * PMIx server's environment, defaults without it, names cut to what the
 * wire carries. With PMIx up the mpirun tests check it (the node names two
 * "nodes" of one machine get, in test/mpi and test/pmix). */
#include <criterion/criterion.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ompi/mca/common/evt/common_evt_identity.h"

Test(identity, from_the_environment)
{
    mca_common_evt_wire_sender_t who;
    char host[256] = "";

    cr_assert_eq(0, setenv("PMIX_NAMESPACE", "prterun-test-4242@1", 1));
    cr_assert_eq(0, setenv("PMIX_RANK", "17", 1));
    memset(&who, 0x5a, sizeof(who)); /* garbage in: every field written */
    cr_assert_not(mca_common_evt_identity(&who), "PMIx is not up in this test");
    cr_assert_str_eq(who.nspace, "prterun-test-4242@1");
    cr_assert_eq(who.rank, 17u);
    cr_assert_eq(who.pid, (uint32_t) getpid());
    cr_assert_eq(0, gethostname(host, sizeof(host) - 1));
    cr_assert_eq(0, strncmp(who.host, host, MCA_COMMON_EVT_WIRE_HOST_MAX));
}

Test(identity, defaults_without_a_server)
{
    mca_common_evt_wire_sender_t who;

    cr_assert_eq(0, unsetenv("PMIX_NAMESPACE"));
    cr_assert_eq(0, unsetenv("PMIX_RANK"));
    cr_assert_not(mca_common_evt_identity(&who));
    cr_assert_str_eq(who.nspace, "unknown");
    cr_assert_eq(who.rank, 0u);
    cr_assert_neq(who.host[0], '\0');
}

Test(identity, long_names_are_cut_to_the_wire)
{
    mca_common_evt_wire_sender_t who;
    char ns[MCA_COMMON_EVT_WIRE_NSPACE_MAX + 40];

    memset(ns, 'n', sizeof(ns) - 1);
    ns[sizeof(ns) - 1] = '\0';
    cr_assert_eq(0, setenv("PMIX_NAMESPACE", ns, 1));
    cr_assert_not(mca_common_evt_identity(&who));
    cr_assert_eq(strlen(who.nspace), (size_t) MCA_COMMON_EVT_WIRE_NSPACE_MAX);
    cr_assert_eq(0, strncmp(who.nspace, ns, MCA_COMMON_EVT_WIRE_NSPACE_MAX));
}
