# mpi4py's point-to-point paths, N rounds, each rank sending to its right
# neighbour and receiving from its left one: one send and one receive per
# pattern and round, 7 patterns (test_p2p_mpi4py.sh counts them).
#   1 comm.send / comm.recv        MPI_Send; MPI_Mprobe + MPI_Mrecv
#   2 comm.isend / comm.irecv      MPI_Isend; MPI_Irecv; MPI_Wait
#   3 comm.sendrecv                MPI_Isend; MPI_Mprobe + MPI_Mrecv
#   4 comm.probe, then comm.recv   MPI_Probe; MPI_Mprobe + MPI_Mrecv
#   5 comm.mprobe, message.recv    MPI_Mprobe; MPI_Mrecv
#   6 comm.improbe polling loop, message.irecv, request.wait
#                                  MPI_Improbe; MPI_Imrecv; MPI_Wait
#   7 comm.Sendrecv of a buffer    MPI_Sendrecv
import sys

from mpi4py import MPI

comm = MPI.COMM_WORLD
rank = comm.Get_rank()
size = comm.Get_size()
right = (rank + 1) % size
left = (rank - 1) % size
rounds = int(sys.argv[1])

for i in range(rounds):
    obj = {"from": rank, "round": i, "pad": "x" * (i % 7)}
    if rank % 2 == 0:
        comm.send(obj, dest=right, tag=1)
        got = comm.recv(source=left, tag=1)
    else:
        got = comm.recv(source=left, tag=1)
        comm.send(obj, dest=right, tag=1)
    assert got["from"] == left, got

    rreq = comm.irecv(source=left, tag=2)
    sreq = comm.isend(obj, dest=right, tag=2)
    sreq.wait()
    assert rreq.wait()["round"] == i

    got = comm.sendrecv(obj, dest=right, sendtag=3, source=left, recvtag=3)
    assert got["from"] == left, got

    sreq = comm.isend(obj, dest=right, tag=4)
    status = MPI.Status()
    comm.probe(source=MPI.ANY_SOURCE, tag=4, status=status)
    got = comm.recv(source=status.Get_source(), tag=status.Get_tag())
    sreq.wait()
    assert got["from"] == left, got

    sreq = comm.isend(obj, dest=right, tag=5)
    msg = comm.mprobe(source=left, tag=MPI.ANY_TAG)
    got = msg.recv()
    sreq.wait()
    assert got["from"] == left, got

    sreq = comm.isend(obj, dest=right, tag=6)
    msg = None
    while msg is None:
        msg = comm.improbe(source=MPI.ANY_SOURCE, tag=6)
    got = msg.irecv().wait()
    sreq.wait()
    assert got["from"] == left, got

    out = bytearray(b"%8d" % rank)
    inb = bytearray(8)
    comm.Sendrecv([out, MPI.BYTE], dest=right, sendtag=7, recvbuf=[inb, MPI.BYTE], source=left,
                  recvtag=7)
    assert int(inb) == left, inb

comm.Barrier()
if rank == 0:
    print("p2p_mpi4py_app: %d ranks, %d rounds done" % (size, rounds))
