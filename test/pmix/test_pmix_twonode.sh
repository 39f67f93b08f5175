#!/bin/sh
# Two "nodes" on this machine under the stock mpirun: a
# hostfile of two names and an rsh agent that runs the command locally, so
# mpirun starts a daemon (and a PMIx server) per node. Each node's sink
# writes its own file, which holds exactly its own ranks' events (ranks 0-1
# on nodeA, 2-3 on nodeB), every one of them accounted.
# The daemons run without rtc/hwloc (--mca rtc ^hwloc, it only binds
# processes): the second daemon's crashed about 1 run in 12 here (orted in
# hwloc_shmem_topology_write, writing its topology to shared memory at an
# address its VM-hole search picked).
. "$(dirname "$0")/evt_pmix_common.sh"
EVT_TWO_NODES_DIR=$scratch/nodes
export EVT_TWO_NODES_DIR
printf 'nodeA slots=2\nnodeB slots=2\n' >"$scratch/hosts"
d=$(sink_dir two)
run two timeout 120 "$MPIRUN" --hostfile "$scratch/hosts" -np 4 --oversubscribe \
    --mca plm_rsh_agent "$EVT_TOP_SRCDIR/test/two_nodes_agent.sh" --mca rtc ^hwloc --mca oob_tcp_if_include lo \
    --mca btl_tcp_if_include lo --mca btl self,tcp -x LD_LIBRARY_PATH \
    -x OMPI_MCA_mca_base_component_path --mca evt pmix --mca evt_pmix_sink "$d" \
    --mca evt_pmix_verbose 10 "$PWD/evt_pmix_producer" -n 50000 -c 4
[ "$rc" -eq 0 ] || fail "mpirun exit $rc"
for n in nodeA nodeB; do
    [ -f "$d/$n.evt" ] || fail "no node file $d/$n.evt"
done
files=$(ls "$d"/*.evt | wc -l)
[ "$files" -eq 2 ] || fail "$files node files (want 2)"
run check timeout 60 ./evt_pmix_check -v -N 4 -n 50000 -c 4 -H nodeA=0,1 -H nodeB=2,3 \
    "$d"/nodeA.evt "$d"/nodeB.evt
[ "$rc" -eq 0 ] || fail "the node files do not hold exactly their own ranks' events"
finish
