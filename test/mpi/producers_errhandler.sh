#!/bin/sh
# errhandler_invoked: MPI_ERRORS_RETURN, user handlers on comm/win/file;
# then MPI_ERRORS_ARE_FATAL: the event must be seen before the abort.
. "$(dirname "$0")/evt_mpi_run.sh"
for np in 2 4; do
    run_np $np test_errhandler_events
done
out=$(timeout 60 "$MPIRUN" --oversubscribe -np 2 ./test_errhandler_events fatal 2>&1)
rc=$?
echo "== mpirun -np 2 test_errhandler_events fatal (exit $rc)"
echo "$out" | head -20
if [ $rc -eq 0 ]; then
    echo "FAIL: the fatal error did not abort the job"; status=1
fi
if ! echo "$out" | grep -q "EVT errhandler_invoked rank 0 err 6 type 1 fatal 1"; then
    echo "FAIL: no errhandler_invoked event before MPI_ERRORS_ARE_FATAL aborted"; status=1
fi
if echo "$out" | grep -q "EVT not aborted"; then
    echo "FAIL: MPI_ERRORS_ARE_FATAL returned"; status=1
fi
exit $status
