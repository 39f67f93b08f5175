#!/bin/sh
# evt/file survives the death of its process: 4-rank jobs of
# test_file_crash under --mca evt file, every rank dying at a random point,
# then file_check reads the files back (everything raised before the
# death, up to the capacity, in order, nothing invented). What a rank
# raised is what it counted in its progress file as it went: when the
# first rank dies, mpirun kills the others wherever they are.
#   kill    every rank SIGKILLs itself after its own random count (the
#           first to get there ends the job)
#   killrace rank 0 SIGKILLs itself after its count; the others would too,
#           but raise a millisecond apart: mpirun kills them on the way
#   segv    rank 1 segfaults (evt_file_sync=1: the fatal-signal msync path
#           runs and hands the signal on), mpirun kills the spinning others
#   abort   rank 2 calls MPI_Abort, mpirun kills the others
#   extkill every rank spins; this script kill -9s rank 3 at a random time
# Each run's files are then read by ompi-evt-listen --read: every record
# file_check found is an event of events.jsonl (per rank), and the ranks
# that died are listed as ended early.
# EVT_FILE_SEED=n repeats a run (the seed is printed); EVT_FILE_CASES
# names the cases to run (default: all).
set -u
seed=${EVT_FILE_SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
cases=${EVT_FILE_CASES:-kill killrace segv abort extkill}
echo "seed $seed"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
run() { # name, extra mpirun args, modes...
    name=$1; margs=$2; shift 2
    mkdir -m 0700 "$dir/$name" "$dir/$name.progress"
    # shellcheck disable=SC2086
    timeout 120 ${MPIRUN:-mpirun} --oversubscribe -np 4 --mca evt file \
        --mca evt_file_dir "$dir/$name" --mca evt_file_size 131072 $margs \
        ./test_file_crash "$seed" "$dir/$name.progress" "$@" >"$dir/$name.out" 2>&1 &
    mpirun_pid=$!
    started=$(date +%s)
}
check() { # name, modes...
    name=$1; shift
    wait "$mpirun_pid"
    rc=$?
    echo "=== $name (mpirun exit $rc, $(($(date +%s) - started)) s)"
    grep -v '^\s*$' "$dir/$name.out" | head -20
    [ "$rc" -ne 0 ] || { echo "FAIL [$name]: mpirun exited 0 although ranks died"; fail=1; }
    [ "$rc" -ne 124 ] || { echo "FAIL [$name]: timeout"; fail=1; }
    ./file_check "$dir/$name" "$dir/$name.progress" "$seed" 4 "$@" >"$dir/$name.check" 2>&1 \
        || { echo "FAIL [$name]"; fail=1; }
    cat "$dir/$name.check"
    listen "$name"
}
listen() { # name: the listener reads the same files
    mkdir -m 0700 "$dir/$1.listen"
    timeout 120 ../../tools/ompi-evt-listen --read "$dir/$1" -o "$dir/$1.listen" --quiet \
        --format jsonl
    lrc=$?
    [ "$lrc" -eq 0 ] || { echo "FAIL [$1]: ompi-evt-listen --read exit $lrc"; fail=1; return; }
    for r in 0 1 2 3; do
        want=$(sed -n "s/^rank $r ([a-z]*): seq [0-9.]*, \([0-9]*\) records,.*/\1/p" "$dir/$1.check")
        got=$(grep -c "\"rank\":$r,.*\"event\":\"ompi.test_file_seq\"" "$dir/$1.listen/events.jsonl")
        if [ -z "$want" ] || [ "$got" -ne "$want" ]; then
            echo "FAIL [$1]: rank $r: ${got} numbered events in events.jsonl, file_check found ${want:-none}"
            fail=1
        fi
    done
    early=$(sed -n 's/^ranks that ended early (no FINAL batch): //p' "$dir/$1.listen/summary.txt")
    echo "[$1] listener: ranks that ended early: $early"
    [ -n "$early" ] && [ "$early" != none ] \
        || { echo "FAIL [$1]: the listener does not say which ranks ended early"; fail=1; }
}

wanted() { case " $cases " in *" $1 "*) return 0 ;; esac; return 1; }

if wanted kill; then
    run kill "" kill
    check kill kill
fi
if wanted killrace; then
    run killrace "" kill slowkill
    check killrace kill slowkill
fi
if wanted segv; then
    run segv "--mca evt_file_sync 1" spin segv spin spin
    check segv spin segv spin spin
fi
if wanted abort; then
    run abort "" spin spin abort spin
    check abort spin spin abort spin
fi
wanted extkill || exit $fail

run extkill "" spin
# wait for the four ranks to spin, then kill rank 3 at a random moment
i=0
while [ "$(grep -c spinning "$dir/extkill.out" 2>/dev/null)" -lt 4 ] && [ $i -lt 600 ]; do
    sleep 0.1; i=$((i + 1))
done
sleep "0.$(( (seed % 9) + 1 ))"
victim=$(ls "$dir/extkill" | sed -n 's/^evt\..*\.3\..*\.\([0-9]*\)\.oevt$/\1/p')
echo "kill -9 rank 3 (pid ${victim:-none})"
[ -n "$victim" ] && kill -9 "$victim"
check extkill spin
exit $fail
