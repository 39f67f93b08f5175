! Copyright (c) 2026      The ompi-evt developers.
!
! MPI calls through Open MPI's Fortran bindings: the mpi module, or with
! EVT_F08 defined the mpi_f08 module. Each pattern N times on a ring (send
! right, receive from the left), one tag per pattern:
!   1 MPI_Send / MPI_Recv           (blocking)
!   2 MPI_Isend / MPI_Irecv, MPI_Waitall  (nonblocking)
!   3 MPI_Send_init / MPI_Recv_init, MPI_Startall, MPI_Waitall (persistent)
!   4 MPI_Sendrecv
! then N each of MPI_Allreduce, MPI_Bcast, MPI_Barrier; a communicator made
! by MPI_Comm_dup and one by MPI_Comm_split, both freed; one window
! (MPI_Win_create), in three fences one MPI_Put and one MPI_Get to the
! right neighbour, freed. test_fortran_bindings.sh counts the events.
#ifdef EVT_F08
#define HANDLE(t) type(t)
#else
#define HANDLE(t) integer
#endif
program fortran_bindings_app
#ifdef EVT_F08
    use mpi_f08
#else
    use mpi
#endif
    implicit none
    integer :: ierr, rank, np, right, left, i, n
    HANDLE(MPI_Comm) :: dup, split
    HANDLE(MPI_Win) :: win
    HANDLE(MPI_Request) :: reqs(2), preqs(2)
    integer :: sbuf(4), rbuf(4), x, y, wbuf
    integer(kind=MPI_ADDRESS_KIND) :: wsize, disp
    character(len=16) :: arg

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
    call get_command_argument(1, arg)
    read (arg, *) n
    right = mod(rank + 1, np)
    left = mod(rank + np - 1, np)
    sbuf = rank

    do i = 1, n
        if (mod(rank, 2) == 0) then
            call MPI_Send(sbuf, 4, MPI_INTEGER, right, 1, MPI_COMM_WORLD, ierr)
            call MPI_Recv(rbuf, 4, MPI_INTEGER, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
        else
            call MPI_Recv(rbuf, 4, MPI_INTEGER, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
            call MPI_Send(sbuf, 4, MPI_INTEGER, right, 1, MPI_COMM_WORLD, ierr)
        end if
        call MPI_Irecv(rbuf, 4, MPI_INTEGER, left, 2, MPI_COMM_WORLD, reqs(1), ierr)
        call MPI_Isend(sbuf, 4, MPI_INTEGER, right, 2, MPI_COMM_WORLD, reqs(2), ierr)
        call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE, ierr)
    end do

    call MPI_Recv_init(rbuf, 4, MPI_INTEGER, left, 3, MPI_COMM_WORLD, preqs(1), ierr)
    call MPI_Send_init(sbuf, 4, MPI_INTEGER, right, 3, MPI_COMM_WORLD, preqs(2), ierr)
    do i = 1, n
        call MPI_Startall(2, preqs, ierr)
        call MPI_Waitall(2, preqs, MPI_STATUSES_IGNORE, ierr)
    end do
    call MPI_Request_free(preqs(1), ierr)
    call MPI_Request_free(preqs(2), ierr)

    do i = 1, n
        call MPI_Sendrecv(sbuf, 4, MPI_INTEGER, right, 4, rbuf, 4, MPI_INTEGER, left, 4, &
                          MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
        call MPI_Allreduce(sbuf, rbuf, 4, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
        call MPI_Bcast(sbuf, 4, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
        call MPI_Barrier(MPI_COMM_WORLD, ierr)
    end do

    call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
    call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), rank, split, ierr)
    call MPI_Comm_free(split, ierr)
    call MPI_Comm_free(dup, ierr)

    wsize = 4
    call MPI_Win_create(wbuf, wsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
    disp = 0
    x = rank
    call MPI_Win_fence(0, win, ierr)
    call MPI_Put(x, 1, MPI_INTEGER, right, disp, 1, MPI_INTEGER, win, ierr)
    call MPI_Win_fence(0, win, ierr)
    call MPI_Get(y, 1, MPI_INTEGER, right, disp, 1, MPI_INTEGER, win, ierr)
    call MPI_Win_fence(0, win, ierr)
    call MPI_Win_free(win, ierr)
    if (y /= rank) then
        print *, 'rank', rank, ': got', y, 'from the window, expected', rank
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end if

    call MPI_Finalize(ierr)
end program fortran_bindings_app
