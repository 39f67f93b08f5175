#!/bin/sh
# Operations pending on a communicator the program frees before they
# complete (test_p2p_comm_freed.c): their events are raised after libmpi
# destroyed its own references. glibc fills freed memory (MALLOC_PERTURB_),
# so a communicator used after its destruction is garbage here; ASan
# reports it in check-sanitize. evt/sync and evt/ring.
. "$(dirname "$0")/evt_mpi_run.sh"
run_np 2 test_p2p_comm_freed -x MALLOC_PERTURB_=165 --mca evt sync
run_np 2 test_p2p_comm_freed -x MALLOC_PERTURB_=165 --mca evt ring
exit $status
