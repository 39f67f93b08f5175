#!/bin/sh
# The rsh agent of the tests that run a job on two nodes of this machine (a
# hostfile of two names, --mca plm_rsh_agent this script): it runs the
# daemon's command here, with a session folder of its node's own under
# EVT_TWO_NODES_DIR, as separate machines have. With one folder for both,
# two daemons creating the same job folder at once race in Open MPI's mkdir
# (orte_session_dir failed, "File exists": seen once in a full run).
host=$1
shift
: "${EVT_TWO_NODES_DIR:?the caller exports EVT_TWO_NODES_DIR, a folder of its own}"
OMPI_MCA_orte_tmpdir_base=$EVT_TWO_NODES_DIR/$host
export OMPI_MCA_orte_tmpdir_base
mkdir -p "$OMPI_MCA_orte_tmpdir_base" || exit 1
exec sh -c "$*"
