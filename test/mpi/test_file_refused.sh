#!/bin/sh
# evt/file when it cannot record, under mpirun -np 2: every rank says why
# on its own stderr ("evt:file: <cause>: this process records nothing"),
# since mpirun 4.1.4 now and then loses the help messages ranks send
# during MPI_Init; the job itself runs on. When all is well (the default
# folder made by the job, a spawned child) nothing is said.
#   squat    the default folder $TMPDIR/ompi-evt.<uid> belongs to another
#            user, mode 1777 (as root only; else skipped)
#   open     the default folder is ours but mode 0777
#   size     evt_file_size too small for the layout
#   missing  evt_file_dir does not exist
#   ok       the default folder is made, one file per rank
#   spawn    a child spawned by the job records too, without a word
set -u
: "${MPIRUN:=mpirun}"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
chmod 0700 "$dir"
uid=$(id -u)
fail=0

ko() { echo "FAIL [$name]: $*"; fail=1; }

# run NAME TMPDIR [mpirun args...] -- program args...
run() {
    name=$1; tmp=$2; shift 2
    margs=""
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do
        margs="$margs $1"; shift
    done
    shift
    # shellcheck disable=SC2086 # margs: words on purpose
    TMPDIR=$tmp timeout 120 "$MPIRUN" --oversubscribe -np 2 -x TMPDIR --mca evt file $margs \
        "$@" >"$dir/$name.out" 2>&1
    rc=$?
    echo "=== $name (exit $rc)"
    grep -v '^\s*$' "$dir/$name.out" | head -30
    [ "$rc" -eq 0 ] || ko "mpirun exit $rc: the job must run on without recording"
}

# said PATTERN N: N lines of the ranks' own ("ompi-evt: ERROR on HOST
# (rank R, pid P): evt:file: PATTERN"; the help message quotes the same
# cause indented, and mpirun may lose it)
said() {
    n=$(grep -c "^ompi-evt: ERROR on .*: evt:file: $1" "$dir/$name.out")
    [ "$n" -eq "$2" ] || ko "$n lines 'evt:file: $1' from the ranks, want $2"
}

files() { # FOLDER N: N recorder files in FOLDER
    n=$(find "$1" -name '*.oevt' 2>/dev/null | wc -l)
    [ "$n" -eq "$2" ] || ko "$n files in $1, want $2"
}

app=./test_record_app

name=squat
if [ "$uid" -eq 0 ]; then
    mkdir -m 0700 "$dir/squat" "$dir/squat/ompi-evt.$uid"
    chown nobody "$dir/squat/ompi-evt.$uid"
    chmod 1777 "$dir/squat/ompi-evt.$uid"
    run squat "$dir/squat" -- $app ok 3
    said "the folder $dir/squat/ompi-evt.$uid belongs to uid [0-9]*, not to this user.*this process records nothing" 2
    files "$dir/squat/ompi-evt.$uid" 0
else
    echo "=== squat: skipped (needs root to give a folder to another user)"
fi

mkdir -m 0700 "$dir/open" "$dir/open/ompi-evt.$uid"
chmod 0777 "$dir/open/ompi-evt.$uid"
run open "$dir/open" -- $app ok 3
said "the folder $dir/open/ompi-evt.$uid is writable by others (mode 0777).*records nothing" 2
files "$dir/open/ompi-evt.$uid" 0

mkdir -m 0700 "$dir/size"
run size "$dir/size" --mca evt_file_size 4096 -- $app ok 3
said "evt_file_size is too small.*nothing is recorded" 2
files "$dir/size" 0

mkdir -m 0700 "$dir/missing"
run missing "$dir/missing" --mca evt_file_dir "$dir/missing/none" -- $app ok 3
said "cannot open the folder $dir/missing/none: No such file or directory: this process records nothing" 2

mkdir -m 0700 "$dir/ok"
run ok "$dir/ok" -- $app ok 3
said "" 0
files "$dir/ok/ompi-evt.$uid" 2

mkdir -m 0700 "$dir/spawn"
run spawn "$dir/spawn" -- ./test_comm_dynamic spawn
said "" 0
files "$dir/spawn/ompi-evt.$uid" 3

[ $fail -eq 0 ] && echo "test_file_refused: passed" || echo "test_file_refused: FAILED"
exit $fail
