#!/bin/sh
# make check-apps: real programs from Debian packages, recorded with
# ompi-evt-record exactly as a user would, held against an independent
# count (evt_oracle.so, preloaded in front of libompi_evt) and read by
# their own readers. Installs nothing: a program whose package is absent
# is skipped with a line that names the package.
#
# Per program: exit status and stdout as in a plain run; per rank, p2p,
# collective and one-sided events = the oracle's counts; one initialization and finalization per
# rank; trace.json flows well formed; no receive completing before its
# send started (the listener's causality line); trace.otf2 read by
# otf2-print without a warning, in time order per location, its regions
# nested, its requests complete, no receive before its send
# (check_otf2.py). Then one program on two nodes of this machine (an rsh agent
# that runs the command locally, a hostfile nodeA/nodeB), and the flight
# recorder (evt/file) after kill -9 of one rank, read back by
# ompi-evt-listen. Wall times plain vs recorded are printed (one run each:
# figures, not checks).
set -u
B=${EVT_TOP_BUILDDIR:?run from make check-apps}
S=${EVT_TOP_SRCDIR:?run from make check-apps}
here=$(cd "$(dirname "$0")" && pwd)
rec="$B/tools/ompi-evt-record"
listen="$B/tools/ompi-evt-listen"
oracle="$(pwd)/.libs/evt_oracle.so"
check="$here/check_outputs.py"
otf2check="$S/test/listen/check_otf2.py"
py=/usr/bin/python3
mpirun=${MPIRUN:-mpirun}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
npass=0 nfail=0 nskip=0
pass() { echo "PASS: $*"; npass=$((npass + 1)); }
fail() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
skip() { echo "SKIP: $*"; nskip=$((nskip + 1)); }
now() { date +%s.%N; }
# EVT_APPS="netpipe meep ..." runs only those parts (default: all)
want() { case " ${EVT_APPS:-all} " in *" all "* | *" $1 "*) return 0 ;; esac; return 1; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

[ -x "$py" ] || { echo "check-apps: $py is needed to read the outputs (apt-get install python3)"; exit 1; }
[ -f "$oracle" ] || { echo "check-apps: $oracle not built"; exit 1; }

# app NAME NP FILTER CMD...: plain run, recorded run, checks. FILTER is a
# sed script applied to both stdouts before comparing them (timings and
# other figures a program prints differ from run to run). With app_aborts
# set, the program ends by MPI_Abort on purpose: no oracle counts (written
# at MPI_Finalize), no finalization events. With app_input set to a file,
# both runs read it on stdin (mpirun hands it to rank 0); otherwise
# /dev/null.
app_aborts=
app_input=
app() {
    name=$1 np=$2 filter=$3
    shift 3
    d="$W/$name"
    mkdir -p "$d/oracle"
    # The plain run is the reference (not recorded; the build's hook is
    # loaded as in any job of this build): one that dies of a signal (seen
    # once in about 45 two-node mpi4py runs, a segfault not reproduced
    # since) is run again, and said with its stderr, so it stays visible.
    # A pair where either run failed the program's own self-check is run
    # again too, and said (see the Burgers solver below).
    for pair in 1 2 3; do
        for try in 1 2 3; do
            t0=$(now)
            timeout 300 "$mpirun" -np "$np" --oversubscribe "$@" <"${app_input:-/dev/null}" \
                >"$d/plain.out" 2>"$d/plain.err"
            prc=$?
            t1=$(now)
            # (a program that ends by MPI_Abort on purpose exits with 255)
            [ "$prc" -gt 128 ] && [ -z "$app_aborts" ] || break
            echo "note: $name: the plain run died with status $prc; running it again"
            sed 's/^/    /' "$d/plain.err" | tail -5
        done
        rm -rf "$d/rec" "$d/oracle"
        mkdir -p "$d/oracle"
        timeout 300 "$rec" -o "$d/rec" -- "$mpirun" -np "$np" --oversubscribe \
            -x LD_PRELOAD="$oracle" -x EVT_ORACLE_DIR="$d/oracle" "$@" \
            <"${app_input:-/dev/null}" >"$d/rec.out" 2>"$d/rec.err"
        rrc=$?
        t2=$(now)
        own=$(grep -h -m1 'Assertion failed with message' "$d/plain.err" "$d/rec.err" | head -1)
        [ -n "$own" ] || break
        echo "note: $name: the program's own check failed ($own); running the pair again"
    done
    echo "time: $name: plain $(secs "$t0" "$t1") s, recorded with outputs $(secs "$t1" "$t2") s"
    [ "$prc" -eq "$rrc" ] && pass "$name: exit status ($rrc)" ||
        { fail "$name: exit status: expected $prc got $rrc"; sed 's/^/    /' "$d/rec.err" | tail -20; }
    # sorted: lines of different ranks interleave in any order
    sed "$filter" "$d/plain.out" | sort >"$d/plain.cmp"
    sed "$filter" "$d/rec.out" | sort >"$d/rec.cmp"
    if cmp -s "$d/plain.cmp" "$d/rec.cmp"; then
        pass "$name: stdout as in a plain run ($(wc -l <"$d/rec.out") lines)"
    else
        fail "$name: stdout: expected the plain run's, got a difference:"
        diff "$d/plain.cmp" "$d/rec.cmp" | head -10 | sed 's/^/    /'
        # what the recorded job said, to tell a rank that ended early from
        # output lost on its way out
        echo "    the recorded run's stderr (last lines), and the oracle's counts:"
        tail -20 "$d/rec.err" | sed 's/^/    /'
        ls -l "$d/oracle" | sed 's/^/    /'
    fi
    [ -f "$d/rec/events.jsonl" ] || { fail "$name: no outputs"; return; }
    "$py" "$check" "$d/rec" "$d/oracle" "$np" ${app_aborts:+aborted} >"$d/check.txt" 2>&1
    sed "s/^\(PASS\|FAIL\): /\1: $name: /" "$d/check.txt"
    npass=$((npass + $(grep -c '^PASS' "$d/check.txt")))
    nfail=$((nfail + $(grep -c '^FAIL' "$d/check.txt")))
    grep -q '^\(PASS\|FAIL\)' "$d/check.txt" || fail "$name: check_outputs.py: $(tail -3 "$d/check.txt")"
    # trace.otf2 as a timeline reader draws it
    "$py" "$otf2check" "$d/rec/trace.otf2/traces.otf2" >"$d/otf2.txt" 2>&1
    sed "s/^\(PASS\|FAIL\): /\1: $name: otf2: /" "$d/otf2.txt"
    npass=$((npass + $(grep -c '^PASS' "$d/otf2.txt")))
    nfail=$((nfail + $(grep -c '^FAIL' "$d/otf2.txt")))
    grep -q '^\(PASS\|FAIL\)' "$d/otf2.txt" || fail "$name: check_otf2.py: $(tail -3 "$d/otf2.txt")"
}

have_mpi4py=false
if "$py" -c 'import mpi4py.MPI' >/dev/null 2>&1; then have_mpi4py=true; fi

# NetPIPE: blocking ping-pong of every size up to 256 bytes, 500 round
# trips each (a fixed count: its own adapts to the latency; its timings
# differ; the size lines are compared)
if ! want netpipe; then
    :
elif command -v NPopenmpi >/dev/null 2>&1; then
    app netpipe 2 's/-->.*//; s/in .*usec//; /Latency/d; /Sync/d; /Now starting/d' \
        NPopenmpi -u 256 -n 500 -o /dev/null
else
    skip "netpipe: NPopenmpi not installed (apt-get install netpipe-openmpi)"
fi

# HPC Challenge (hpcc): HPL, PTRANS, DGEMM, STREAM, the random-access and
# FFT kernels and the latency/bandwidth rings, -np 4 as a 2 x 2 grid of a
# small problem: collectives on row and column communicators, Sendrecv,
# Isend/Irecv completed by Wait, Waitall and Test, MPI_ANY_SOURCE. It
# reads hpccinf.txt from and appends its results to hpccoutf.txt in the
# working directory (stdout stays empty): every run there, plain and
# recorded, must end with its own verdict Success=1.
if ! want hpcc; then
    :
elif command -v hpcc >/dev/null 2>&1 && [ -f /usr/share/doc/hpcc/examples/_hpccinf.txt ]; then
    mkdir -p "$W/hpcc-run"
    sed 's/^1000  *Ns/500          Ns/' /usr/share/doc/hpcc/examples/_hpccinf.txt \
        >"$W/hpcc-run/hpccinf.txt"
    cd "$W/hpcc-run" && app hpcc 4 '' hpcc
    cd - >/dev/null || exit 1
    runs=$(grep -c '^End of HPC Challenge tests' "$W/hpcc-run/hpccoutf.txt" 2>/dev/null)
    ok=$(grep -c '^Success=1$' "$W/hpcc-run/hpccoutf.txt" 2>/dev/null)
    if [ "${runs:-0}" -ge 2 ] && [ "$ok" = "$runs" ]; then
        pass "hpcc: its own verdict, Success=1, in each of its $runs runs"
    else
        fail "hpcc: its own verdict: Success=1 in ${ok:-0} of ${runs:-0} runs (hpccoutf.txt)"
        grep -i 'fail\|Success=' "$W/hpcc-run/hpccoutf.txt" | head -10 | sed 's/^/    /'
    fi
else
    skip "hpcc: hpcc not installed (apt-get install hpcc)"
fi

# ScaLAPACK's BLACS tester (Debian's scalapack-mpi-test, its Open MPI
# build), -np 4 on 2-d process grids: point-to-point sends and broadcasts
# of every type, combines, communicators made and freed with operations
# still pending on them (a recording once crashed there), and last
# BLACS_ABORT, which ends the job by MPI_Abort (exit status 255, plain
# too): held to the plain run's stdout and exit status, the outputs' own
# checks, without the oracle's counts.
blacs=/usr/lib/x86_64-linux-gnu/scalapack/openmpi-tests/BLACS
if ! want scalapack; then
    :
elif [ -x "$blacs/xCbtest" ] && [ -f "$blacs/bt.dat" ]; then
    mkdir -p "$W/blacs-run"
    cp "$blacs"/*.dat "$W/blacs-run/"
    cd "$W/blacs-run" || exit 1
    app_aborts=1
    # its repeatable-sum test is passed in some plain runs and skipped in
    # others (2 of 5 here): the verdict of that line is not compared
    app blacs 4 's/^ *\(PASSED\|SKIPPED\) *REPEATABLE SUM TEST/ REPEATABLE SUM TEST/' \
        "$blacs/xCbtest"
    app_aborts=
    cd - >/dev/null || exit 1
    if [ 26 -le "$(grep -c 'PASSED' "$W/blacs/rec.out")" ] && ! grep -q ' [1-9][0-9]* FAILED' "$W/blacs/rec.out"; then
        pass "blacs: its own verdicts: $(grep -c 'PASSED' "$W/blacs/rec.out") lines PASSED, none FAILED"
    else
        fail "blacs: its own verdicts: $(grep -c 'PASSED' "$W/blacs/rec.out") lines PASSED (at least 26), or a FAILED count"
    fi
else
    skip "scalapack: the BLACS tester not installed (apt-get install scalapack-mpi-test)"
fi

# ScaLAPACK's own testers of the LU and QR factorizations (the same
# package, -np 4): Fortran programs communicating through BLACS, which
# calls the C bindings, on 1x1 to 4x1 process grids of several block sizes
# (broadcasts, reductions, sends on row and column communicators). They read
# LU.dat and QR.dat from the working directory; each prints a line per
# test (its timings and rates differ from run to run: not compared) and
# its own verdict: in the recorded run, tests passed, none failed, and as
# many skipped as in the plain run (QR.dat asks for some illegal shapes).
scalapack=/usr/lib/x86_64-linux-gnu/scalapack/openmpi-tests
if ! want scalapack; then
    :
elif [ -x "$scalapack/xdlu" ] && [ -x "$scalapack/xdqr" ] && [ -f "$scalapack/LU.dat" ] &&
    [ -f "$scalapack/QR.dat" ]; then
    mkdir -p "$W/scalapack-run"
    cp "$scalapack/LU.dat" "$scalapack/QR.dat" "$W/scalapack-run/" || exit 1
    cd "$W/scalapack-run" || exit 1
    for t in lu qr; do
        app "scalapack-$t" 4 's/\( \+[0-9]\+\.[0-9]\+\)\+ \(PASSED\|FAILED\)/ \2/' "$scalapack/xd$t"
        ok=$(sed -n 's/^ *\([0-9]\+\) tests completed and passed residual checks\.$/\1/p' \
            "$W/scalapack-$t/rec.out")
        skip_plain=$(sed -n 's/^ *\([0-9]\+\) tests skipped .*/\1/p' "$W/scalapack-$t/plain.out")
        skip_rec=$(sed -n 's/^ *\([0-9]\+\) tests skipped .*/\1/p' "$W/scalapack-$t/rec.out")
        if [ "${ok:-0}" -gt 0 ] &&
            grep -q '^ *0 tests completed and failed' "$W/scalapack-$t/rec.out" &&
            [ -n "$skip_plain" ] && [ "$skip_plain" = "$skip_rec" ]; then
            pass "scalapack-$t: its own verdict: $ok tests passed, none failed," \
                "$skip_rec skipped as in the plain run"
        else
            fail "scalapack-$t: its own verdict: ${ok:-no} tests passed, or some failed," \
                "or skipped ${skip_rec:-?} against ${skip_plain:-?} plain"
        fi
    done
    cd - >/dev/null || exit 1
else
    skip "scalapack: its LU and QR testers not installed (apt-get install scalapack-mpi-test)"
fi

# MUMPS, the sparse direct solver: Fortran whose MPI calls go through Open
# MPI's Fortran bindings (mpi_send_ and the rest, which call PMPI_X: both
# libompi_evt and the oracle define it, so both see them; an oracle without
# PMPI_X counted nothing and wrote no counts, as its MPI_Finalize was never
# called). Debian's double-precision example solves its 5x5 system from
# the example input on stdin, -np 2 (analysis, factorization and solve
# spread over both ranks). Its timings differ from run to run (not
# compared); the solution it prints is compared, and must be 1..5.
mumps=/usr/lib/mumps
if ! want mumps; then
    :
elif [ -x "$mumps/dsimpletest" ] && [ -f "$mumps/input_simpletest_real" ]; then
    app_input=$mumps/input_simpletest_real
    app mumps 2 's/\([Tt]ime[^=]*=\).*/\1/' "$mumps/dsimpletest"
    app_input=
    sol=$(sed -n 's/^ *Solution is *//p' "$W/mumps/rec.out")
    if echo "$sol" | awk 'NF == 5 { for (i = 1; i <= 5; i++)
                                        if ($i - i > 1e-9 || i - $i > 1e-9) exit 1
                                    ok = 1 }
                          END { exit !ok }'; then
        pass "mumps: its solution, 1..5 within 1e-9 ($sol)"
    else
        fail "mumps: its solution: expected 1..5, got '$sol'"
    fi
else
    skip "mumps: MUMPS's examples not installed (apt-get install mumps-test)"
fi

# The Fortran program of make check (test/mpi/fortran_bindings_app.F90,
# the mpi module), -np 3: every point-to-point mode through the Fortran
# bindings, persistent requests included (the oracle counts each start),
# collectives, a window. libopenmpi-dev brings mpif90: a build failure
# fails.
if ! want fortran; then
    :
elif mpif90 -o "$W/fortran_app" "$S/test/mpi/fortran_bindings_app.F90" >"$W/fc.log" 2>&1; then
    app fortran 3 '' "$W/fortran_app" 20
else
    fail "fortran: mpif90 could not build fortran_bindings_app.F90: $(tail -3 "$W/fc.log")"
fi

# One-sided communication: OpenCoarrays' own test programs, as Debian ships
# them built (Fortran coarrays, whose puts, gets, atomics, locks and syncs
# libcaf_mpi makes with MPI windows): a Burgers PDE solver exchanging halos
# (its printed values differ from run to run, plain too: not compared; run
# on 2 images: on 4 images over 2 cores it fails its own assertion, "Test
# failed: right half not concave up", in about 1 run in 10 with Debian's
# Open MPI alone and nothing of ours loaded, 0 in 50 on 2 images), a
# distributed transpose, atomics, strided puts and gets, and gets and puts
# across teams. (increment_my_neighbor fails 5 plain runs in 8 here, -np 4
# on 2 cores: not used. NetPIPE's MPI-2 module, NPopenmpi2, cannot serve:
# it passes NULL as MPI_Win_create's info, which Open MPI rejects with
# MPI_ERR_INFO.)
cafdir=/usr/lib/x86_64-linux-gnu/open-coarrays/openmpi/bin/OpenCoarrays-2.10.1-tests
if ! want coarrays; then
    :
elif [ -x "$cafdir/coarray_burgers_pde" ]; then
    app coarrays-burgers 2 's/u = .*/u = (values)/' "$cafdir/coarray_burgers_pde"
    app coarrays-transpose 4 's/tran_time.*//' "$cafdir/coarray_distributed_transpose"
    app coarrays-atomics 4 '' "$cafdir/atomics"
    app coarrays-strided 4 '' "$cafdir/strided_sendget"
    app coarrays-teams 4 '' "$cafdir/teams_coarray_sendget"
else
    skip "coarrays: OpenCoarrays' tests not installed (apt-get install libcoarrays-openmpi-dev)"
fi

# mpi4py: its own ringtest demo, and every point-to-point path of mpi4py
# (lowercase send/recv are matched probes)
if ! want mpi4py; then
    :
elif $have_mpi4py; then
    app mpi4py-ringtest 4 's/time for .*loops = .* seconds/time/' \
        "$py" -m mpi4py.bench ringtest -n 4096 -l 200
    app mpi4py-p2p 4 '' "$py" "$S/test/mpi/p2p_mpi4py_app.py" 50
else
    skip "mpi4py: no mpi4py in $py (apt-get install python3-mpi4py)"
fi

# meep: a 2-d waveguide (halo exchanges between the ranks' chunks)
meep=false
if ! want meep && ! want flight; then
    :
elif command -v meep >/dev/null 2>&1 && ldd "$(command -v meep)" | grep -q libmpi; then
    cat >"$W/wg.ctl" <<'CTL'
(set! geometry-lattice (make lattice (size 16 8 no-size)))
(set! geometry (list (make block (center 0 0) (size infinity 1 infinity)
                      (material (make dielectric (epsilon 12))))))
(set! sources (list (make source (src (make continuous-src (frequency 0.15)))
                     (component Ez) (center -7 0))))
(set! pml-layers (list (make pml (thickness 1.0))))
(set! resolution 10)
(run-until 100)
CTL
    want meep && app meep 2 's/[Ee]lapsed .*//; s/time .*//; /^Initializing/d; /^on time step/d; s/[0-9.]* s$//' \
        meep "$W/wg.ctl"
    meep=true
else
    skip "meep: meep with MPI not installed (apt-get install meep-openmpi)"
fi

# LAMMPS: molecular dynamics of a Lennard-Jones melt (4000 atoms, 300
# steps, -np 2 as a 1x1x2 grid): ghost-atom exchanges with MPI_Sendrecv and
# Irecv/Send/Wait between the ranks every step, reductions for its thermo
# output. The velocities are made independent of the rank count (loop
# geom), so the thermo table is the same in every run: it is compared;
# its timings are not.
if ! want lammps; then
    :
elif command -v lmp >/dev/null 2>&1 && ldd "$(command -v lmp)" | grep -q libmpi; then
    mkdir -p "$W/lammps-run"
    cat >"$W/lammps-run/in.lj" <<'LMP'
units lj
atom_style atomic
lattice fcc 0.8442
region box block 0 10 0 10 0 10
create_box 1 box
create_atoms 1 box
mass 1 1.0
velocity all create 3.0 87287 loop geom
pair_style lj/cut 2.5
pair_coeff 1 1 1.0 1.0 2.5
neighbor 0.3 bin
neigh_modify every 20 delay 0 check no
fix 1 all nve
thermo 50
run 300
LMP
    cd "$W/lammps-run" || exit 1
    app lammps 2 's/CPU = .* seconds/CPU =/; s/^Loop time of [0-9.]*/Loop time of/
        /^Performance:/d; /% CPU use/d; /^Total wall time/d
        /^\(Pair\|Neigh\|Comm\|Output\|Modify\|Other\) *|/d' lmp -in in.lj -log none
    cd - >/dev/null || exit 1
    if grep -q '^ *300 ' "$W/lammps/rec.out"; then
        pass "lammps: its thermo table reached step 300"
    else
        fail "lammps: its thermo table did not reach step 300"
    fi
else
    skip "lammps: LAMMPS with MPI not installed (apt-get install lammps)"
fi

# Two nodes on this machine: ranks 0-1 under nodeA's daemon, 2-3 under
# nodeB's, talking over TCP; one node file per node. The job is recorded
# through pmix, whose ranks align their clocks with MPI messages of their
# own: the oracle in front of libompi_evt must count none of them (they
# once reached it through the names PMPI_X, as the program's).
# The daemons run without rtc/hwloc (--mca rtc ^hwloc, it only binds
# processes): the second daemon's crashed about 1 run in 12 here (orted in
# hwloc_shmem_topology_write, writing its topology to shared memory at an
# address its VM-hole search picked).
if want twonode && $have_mpi4py; then
    printf 'nodeA slots=2\nnodeB slots=2\n' >"$W/hosts"
    EVT_TWO_NODES_DIR=$W/nodes
    export EVT_TWO_NODES_DIR
    app twonode 4 '' --hostfile "$W/hosts" --mca plm_rsh_agent "$S/test/two_nodes_agent.sh" \
        --mca rtc ^hwloc \
        --mca oob_tcp_if_include lo --mca btl_tcp_if_include lo --mca btl self,tcp \
        "$py" "$S/test/mpi/p2p_mpi4py_app.py" 50
    n=$(ls "$W/twonode/rec"/nodeA.evt "$W/twonode/rec"/nodeB.evt 2>/dev/null | wc -l)
    [ "$n" -eq 2 ] && pass "twonode: one node file per node" ||
        fail "twonode: node files: expected nodeA.evt and nodeB.evt, got $(ls "$W/twonode/rec" | tr '\n' ' ')"
fi

# The flight recorder: a longer meep run recorded by evt/file, one rank
# killed with SIGKILL midway; what survives is read back by the listener:
# no arrow may join a receive to a send that started after it. The rank is
# killed once its recording holds 20,000 records (read live with
# ompi-evt-file-read), whatever the machine's speed; the rings (2 x 256
# MiB, about 5 M records each) hold far more, so no window wraps, the
# ranks' records pair and the check has arrows to judge.
if want flight && $meep; then
    sed 's/(run-until 100)/(run-until 20000)/' "$W/wg.ctl" >"$W/long.ctl"
    mkdir -m 700 "$W/flight"
    "$mpirun" -np 2 --oversubscribe --mca evt file --mca evt_file_dir "$W/flight" \
        --mca evt_file_size 537919488 \
        -x LD_PRELOAD="$B/.libs/libompi_evt.so" meep "$W/long.ctl" >"$W/flight.out" 2>&1 &
    job=$!
    victim= n=0
    for _ in $(seq 1 600); do
        sleep 0.1
        if [ -z "$victim" ]; then
            victim=$(pgrep -f "meep $W/long.ctl" | while read -r p; do
                [ "$(cat /proc/"$p"/comm 2>/dev/null)" = meep ] && echo "$p"; done | tail -1)
            continue
        fi
        f=$(ls "$W/flight"/*."$victim".oevt 2>/dev/null) || continue
        n=$("$B/tools/ompi-evt-file-read" "$f" 2>/dev/null | tail -1 |
            sed -n 's/.*"records":\([0-9]*\).*/\1/p')
        [ "${n:-0}" -ge 20000 ] && break
    done
    [ -n "$victim" ] && kill -9 "$victim"
    echo "flight: rank process ${victim:-(none found)} killed with ${n:-0} records written"
    wait "$job"
    jrc=$?
    [ -n "$victim" ] && [ "$jrc" -ne 0 ] && pass "flight: rank $victim killed (job exit $jrc)" ||
        fail "flight: expected a rank killed and the job failing, got victim '${victim}' exit $jrc"
    timeout 300 "$listen" --read "$W/flight" -o "$W/flight.outdir" --quiet >"$W/flight.listen" 2>&1
    m=$(grep -o 'causality: [0-9]* violations of [0-9]* flows' "$W/flight.outdir/summary.txt" 2>/dev/null)
    case "$m" in
    "causality: 0 violations of 0 flows")
        fail "flight: no send->receive arrow drawn: nothing to judge"
        grep -E "overwritten|^  rank |trace.json:" "$W/flight.outdir/summary.txt" | sed 's/^/    /' ;;
    "causality: 0 violations of "*) pass "flight: read back after kill -9, $m" ;;
    *) fail "flight: causality: expected 0 violations, got '${m:-no summary}'"
       tail -5 "$W/flight.listen" | sed 's/^/    /' ;;
    esac
    if grep -q "ended early.*[0-9]" "$W/flight.outdir/summary.txt"; then
        pass "flight: the killed rank is listed as ended early"
    else
        fail "flight: expected the killed rank listed as ended early"
        grep -E "^  rank |ended early|never reported" "$W/flight.outdir/summary.txt" | sed 's/^/    /'
    fi
fi

echo "check-apps: $npass passed, $nfail failed, $nskip skipped"
[ "$nfail" -eq 0 ]
