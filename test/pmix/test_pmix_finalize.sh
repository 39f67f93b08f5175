#!/bin/sh
# Ranks reaching MPI_Finalize at different times cost the job nothing.
# np 4 on this machine with a node sink (rank 0 holds it); one rank (EARLY)
# reaches MPI_Finalize, the others LATE ms later, more than
# evt_pmix_finalize_timeout (TIMEOUT ms). Then:
#   - no late rank's MPI_Finalize takes long (< 2000 ms; its waits start
#     when every rank is present), and the early rank's takes about LATE
#     (< LATE + 2000 ms: what MPI_Finalize's own fence takes);
#   - every rank's FINAL batch is in the node file (the summary: no rank
#     ended early), every message is counted and every rank has its two
#     clock samples (evt_pmix_clockcheck over events.jsonl).
# Twice: the sink finalizes first (EARLY 0), another rank does (EARLY 2).
. "$(dirname "$0")/evt_pmix_common.sh"
: "${LISTEN:?LISTEN must name ompi-evt-listen}"
late=4000
timeout_ms=3000
rounds=50

# finalize_ms LABEL RANK: how long RANK's MPI_Finalize took
finalize_ms() {
    sed -n "s/^rank $2: MPI_Finalize took \([0-9]*\) ms$/\1/p" "$scratch/$1.out" | head -1
}

for early in 0 2; do
    l=early$early
    d=$(sink_dir $l)
    run $l timeout 120 "$MPIRUN" -np 4 --oversubscribe -x LD_LIBRARY_PATH \
        -x OMPI_MCA_mca_base_component_path --mca evt pmix --mca evt_pmix_sink "$d" \
        --mca evt_pmix_finalize_timeout $timeout_ms --mca evt_pmix_verbose 1 \
        "$PWD/evt_pmix_late" -e $early -l $late -n $rounds
    [ "$rc" -eq 0 ] || fail "$l: mpirun exit $rc"
    for r in 0 1 2 3; do
        ms=$(finalize_ms $l $r)
        if [ -z "$ms" ]; then
            fail "$l: rank $r did not say how long MPI_Finalize took"
        elif [ $r -eq $early ] && [ "$ms" -ge $((late + 2000)) ]; then
            fail "$l: the early rank $r spent $ms ms in MPI_Finalize (want < $((late + 2000)))"
        elif [ $r -ne $early ] && [ "$ms" -ge 2000 ]; then
            fail "$l: late rank $r spent $ms ms in MPI_Finalize (want < 2000)"
        fi
    done
    if grep -q "did not arrive" "$scratch/$l.out"; then
        fail "$l: the sink says a rank's last batch did not arrive"
    fi
    run $l-read timeout 120 "$LISTEN" --read "$d" -o "$scratch/$l.res" --format jsonl
    [ "$rc" -eq 0 ] || fail "$l: ompi-evt-listen --read exit $rc"
    grep -q 'ranks that ended early (no FINAL batch): none' "$scratch/$l.res/summary.txt" \
        || fail "$l: the summary says some rank ended early: $(grep 'ended early' \
            "$scratch/$l.res/summary.txt")"
    # rank 0 with each of 3 ranks, 2 messages per round
    run $l-check timeout 120 ./evt_pmix_clockcheck -t 0 -m $((rounds * 6)) \
        "$scratch/$l.res/events.jsonl"
    [ "$rc" -eq 0 ] || fail "$l: messages or clock samples missing"
done
finish
