#!/bin/sh
# A Fortran program's MPI calls are all recorded: fortran_bindings_app.F90,
# built here with Open MPI's Fortran wrapper compiler twice (the mpi module,
# and the mpi_f08 module), under ompi-evt-record, -np 2 and 3. Open MPI's
# Fortran bindings call PMPI_X, which libompi_evt defines beside MPI_X.
# Per rank, exactly: N sends to the right neighbour and N receives from the
# left one per pattern (tag) in the mode of its call; N collectives of each
# kind; two communicators created and freed; one window created and freed,
# one put and one get, three fences; one initialization and finalization.
# Then the bring-up without the hook (--mca hook ^evt, libompi_evt
# preloaded): the program's MPI_Init and MPI_Finalize reach libompi_evt
# through PMPI_Init and PMPI_Finalize. Skipped (77) in sanitizer trees (an
# uninstrumented program cannot load this libompi_evt).
set -u
B=${EVT_TOP_BUILDDIR:?run from make check}
rec="$B/tools/ompi-evt-record"
src="$(cd "$(dirname "$0")" && pwd)/fortran_bindings_app.F90"
# the wrapper compiler beside the mpirun the tests use, else the one in PATH
mpirun=${MPIRUN:-mpirun}
fc=${MPIFORT:-}
if [ -z "$fc" ]; then
    case $mpirun in
    */*) [ -x "${mpirun%/*}/mpif90" ] && fc=${mpirun%/*}/mpif90 ;;
    esac
    fc=${fc:-mpif90}
fi
py=/usr/bin/python3
N=5
fail=0
ko() { echo "FAIL: $*"; fail=1; }

if [ -n "${EVT_SANITIZER_CFLAGS:-}" ]; then
    echo "SKIP: sanitizer build ($EVT_SANITIZER_CFLAGS): this libompi_evt needs the sanitizer runtime, which the Fortran program does not load"
    exit 77
fi
# libopenmpi-dev depends on gfortran: its wrapper compiler is there
# wherever this project builds, so a missing one is a failure, not a skip
command -v "$fc" >/dev/null 2>&1 || { echo "FAIL: no $fc (Open MPI's Fortran wrapper compiler, libopenmpi-dev)"; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for module in mpi mpi_f08; do
    flag=
    [ "$module" = mpi_f08 ] && flag=-DEVT_F08
    "$fc" $flag -o "$tmp/app_$module" "$src" >"$tmp/fc.log" 2>&1 ||
        { ko "$module: $fc failed:"; cat "$tmp/fc.log"; continue; }
    for np in 2 3; do
        out="$tmp/$module.np$np"
        timeout 180 "$rec" -o "$out" --format jsonl -- "$mpirun" -np $np --oversubscribe \
            "$tmp/app_$module" $N >"$out.log" 2>&1
        rc=$?
        echo "=== $module, np $np (rc $rc)"
        grep -v '^\[' "$out.log" | head -40
        [ "$rc" -eq 0 ] || { ko "$module np $np: exit $rc"; continue; }
        "$py" - "$out/events.jsonl" "$np" "$N" "$module" <<'PY' || fail=1
import collections, json, sys

path, np_, n, module = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
got = collections.Counter()
for line in open(path):
    d = json.loads(line)
    if "event" not in d:
        continue
    ev, f = d["event"].rsplit(".", 1)[1], d.get("fields", {})
    if ev.startswith("p2p_"):
        key = (ev, f["tag"], f["mode"], f["peer"])
    elif ev in ("coll_complete", "rma_op", "rma_sync"):
        key = (ev, f["kind"])
    else:
        key = (ev,)
    got[(d["rank"],) + key] += 1
want = collections.Counter()
for r in range(np_):
    right, left = (r + 1) % np_, (r + np_ - 1) % np_
    # tag: mode (0 blocking, 1 nonblocking, 2 persistent)
    for tag, mode in ((1, 0), (2, 1), (3, 2), (4, 0)):
        want[(r, "p2p_send_complete", tag, mode, right)] = n
        want[(r, "p2p_recv_complete", tag, mode, left)] = n
    for kind in (0, 1, 12):  # barrier, bcast, allreduce
        want[(r, "coll_complete", kind)] = n
    want[(r, "communicator_created")] = 2
    want[(r, "communicator_freed")] = 2
    want[(r, "win_created")] = 1
    want[(r, "win_freed")] = 1
    want[(r, "rma_op", 0)] = 1  # put
    want[(r, "rma_op", 1)] = 1  # get
    want[(r, "rma_sync", 0)] = 3  # fence
    want[(r, "initialization")] = 1
    want[(r, "finalization")] = 1
bad = 0
for k in sorted(set(got) | set(want), key=str):
    if got[k] != want[k]:
        print("FAIL: %s np %d: rank %d %s: %d events, want %d"
              % (module, np_, k[0], " ".join(map(str, k[1:])), got[k], want[k]))
        bad = 1
if not bad:
    print("PASS: %s np %d: %d events, each rank's as the program made them"
          % (module, np_, sum(got.values())))
sys.exit(bad)
PY
    done
    # no hook: only libompi_evt's MPI_Init and MPI_Finalize bring evt up
    # and down (each says so at evt_base_verbose 10)
    timeout 120 "$mpirun" -np 2 --mca evt_base_verbose 10 --mca hook ^evt \
        -x LD_PRELOAD="$B/.libs/libompi_evt.so" "$tmp/app_$module" 1 >"$tmp/nohook.log" 2>&1
    rc=$?
    init=$(grep -c 'evt:init: MPI_Init seen' "$tmp/nohook.log")
    fini=$(grep -c 'evt:init: MPI_Finalize seen' "$tmp/nohook.log")
    if [ "$rc" -eq 0 ] && [ "$init" -eq 2 ] && [ "$fini" -eq 2 ]; then
        echo "PASS: $module, no hook: both ranks' MPI_Init and MPI_Finalize reached libompi_evt"
    else
        ko "$module, no hook: exit $rc, MPI_Init seen $init times, MPI_Finalize $fini (want 2, 2)"
        tail -20 "$tmp/nohook.log"
    fi
done
exit $fail
