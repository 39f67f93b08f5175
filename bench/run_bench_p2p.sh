#!/bin/sh
# make bench: bench_p2p in every configuration, REPS rounds (default 15),
# medians and ratios to the plain binary (run_rounds.sh); then the
# listener's cost measured inside one job.
: "${MPIRUN:=mpirun}"
"$(dirname "$0")/run_rounds.sh" bench_p2p "${REPS:-15}"
# The listener's cost inside one job (less disturbed by other load): per
# pair of blocks (listening / not), the ratio; median and quartiles.
for c in sync ring; do
    [ "$c" = ring ] && [ ! -e "$EVT_TOP_BUILDDIR/components/mca_evt_ring.so" ] && continue
    $MPIRUN -np 2 --bind-to core --mca evt $c ./bench_p2p abab 2>/dev/null |
        awk -v c=$c '/^RESULT/ {printf "abab %-5s %-32s %s\n", c, $2, $3}'
done
# One process talking to itself (bench_p2p self): on a loaded machine two
# busy-polling ranks are descheduled apart and the figures above are mostly
# scheduling noise; here the listener's cost is measured on the message
# path alone, best-of-5 blocks in rotating sets (median [q1, q3] of the
# per-set ratios to plain), callbacks at NONE and at MPI_RESTRICTED, both
# clocks; "clock" is the same loop with nobody listening but the producer's
# clock read where the producer reads it: the floor of events that carry a
# start and a completion time.
for k in monotonic tsc; do
    for lvl in none restricted; do
        for c in sync ring; do
            [ "$c" = ring ] && [ ! -e "$EVT_TOP_BUILDDIR/components/mca_evt_ring.so" ] && continue
            BENCH_CB_LEVEL=$lvl $MPIRUN -np 1 --bind-to core --mca evt $c \
                --mca mca_base_event_clock $k ./bench_p2p self 2>/dev/null |
                awk -v t="self $c clock=$k cb=$lvl" '/^RESULT/ { v[$2] = $3 }
                    END { for (i = 1; i <= 2; i++) {
                              f = i == 1 ? "pingpong" : "msgrate"; p = "self_" f;
                              printf "%-38s %-8s %.3f [%.3f, %.3f] (%.1f -> %.1f ns)  clock floor %.3f [%.3f, %.3f] (%.1f ns)\n", t, f,
                                     v[p "_ratio_median"], v[p "_ratio_q1"], v[p "_ratio_q3"],
                                     v[p "_plain_ns"], v[p "_listen_ns"],
                                     v[p "_clock_ratio_median"], v[p "_clock_ratio_q1"], v[p "_clock_ratio_q3"],
                                     v[p "_clock_ns"] } }'
        done
    done
done
