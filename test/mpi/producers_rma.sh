#!/bin/sh
# ompi.mpi.rma_op and rma_sync against the calls test_rma_events makes, with
# evt/sync and evt/ring, -np 2 and 4, and on two nodes of this machine (a
# hostfile of two names and an rsh agent that runs the command here: one
# daemon per node, ranks talking over TCP).
# The daemons run without rtc/hwloc (--mca rtc ^hwloc, it only binds
# processes): the second daemon's crashed about 1 run in 12 here (orted in
# hwloc_shmem_topology_write, writing its topology to shared memory at an
# address its VM-hole search picked).
# Across the two nodes the windows use osc/pt2pt: osc/rdma wants a BTL with
# remote memory access, which btl/tcp is not, and pml/ucx finds no
# transport here.
. "$(dirname "$0")/evt_mpi_run.sh"
ring="--mca evt ring --mca evt_ring_ring_size 2097152"
for np in 2 4; do
    run_np $np test_rma_events --mca evt sync
    run_np $np test_rma_events $ring
done
# osc/pt2pt defers the operations to the synchronisation (osc/sm, chosen
# on one node, completes them in the call)
run_np 2 test_rma_events --mca osc pt2pt --mca evt ring
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cat >"$scratch/agent.sh" <<'A'
#!/bin/sh
host=$1; shift
exec sh -c "$*"
A
chmod +x "$scratch/agent.sh"
printf 'nodeA slots=2\nnodeB slots=2\n' >"$scratch/hosts"
run_np 4 "$PWD/test_rma_events" --hostfile "$scratch/hosts" --mca plm_rsh_agent "$scratch/agent.sh" --mca rtc ^hwloc \
    --mca oob_tcp_if_include lo --mca btl_tcp_if_include lo --mca btl self,tcp --mca osc pt2pt \
    -x LD_LIBRARY_PATH -x OMPI_MCA_mca_base_component_path --mca evt sync
exit $status
