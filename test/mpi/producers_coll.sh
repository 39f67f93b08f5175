#!/bin/sh
# ompi.mpi.coll_complete against the calls test_coll_events makes, with
# evt/sync and evt/ring, -np 2 and 4, and on two nodes of this machine (a
# hostfile of two names and an rsh agent that runs the command here: one
# daemon per node, ranks talking over TCP).
# The daemons run without rtc/hwloc (--mca rtc ^hwloc, it only binds
# processes): the second daemon's crashed about 1 run in 12 here (orted in
# hwloc_shmem_topology_write, writing its topology to shared memory at an
# address its VM-hole search picked).
. "$(dirname "$0")/evt_mpi_run.sh"
ring="--mca evt ring --mca evt_ring_ring_size 2097152"
for np in 2 4; do
    run_np $np test_coll_events --mca evt sync
    run_np $np test_coll_events $ring
done
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cat >"$scratch/agent.sh" <<'A'
#!/bin/sh
host=$1; shift
exec sh -c "$*"
A
chmod +x "$scratch/agent.sh"
printf 'nodeA slots=2\nnodeB slots=2\n' >"$scratch/hosts"
run_np 4 "$PWD/test_coll_events" --hostfile "$scratch/hosts" --mca plm_rsh_agent "$scratch/agent.sh" --mca rtc ^hwloc \
    --mca oob_tcp_if_include lo --mca btl_tcp_if_include lo --mca btl self,tcp \
    -x LD_LIBRARY_PATH -x OMPI_MCA_mca_base_component_path --mca evt sync
exit $status
