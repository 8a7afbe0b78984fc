! mpi_waits_f.f90: the late-sender stage of mpi_waits.c from Fortran (`use mpi`):
! rank 0 sleeps 200 ms, then MPI_Send to rank 1, which is in MPI_Recv; again with
! MPI_Irecv(MPI_ANY_SOURCE, MPI_ANY_TAG) + MPI_Wait(MPI_STATUS_IGNORE), + MPI_Waitall and
! + MPI_Waitsome (MPI_STATUSES_IGNORE: the forwarder reads its own statuses). Rank 1 writes
! "EXPECT what 1 seconds": the wait its CLOCK_MONOTONIC readings (one clock on one node;
! Open MPI's MPI_Wtime counts from each rank's own start) say it had (check_waits.py
! --part fortran), into the file named by the second argument when one is given (the
! launcher merges rank 1's stdout with rank 0's report in chunks, which can cut a line),
! else on stdout. Under MPICH and Open MPI.
! Built twice: `use mpi`, and with -DF08 `use mpi_f08`.
program mpi_waits_f
#ifdef F08
  use mpi_f08
#else
  use mpi
#endif
  use iso_c_binding, only: c_int, c_long
  implicit none
  type, bind(C) :: timespec
    integer(c_long) :: sec, nsec
  end type timespec
  interface
    integer(c_int) function usleep(us) bind(C, name='usleep')
      import :: c_int
      integer(c_int), value :: us
    end function usleep
    integer(c_int) function clock_gettime(id, ts) bind(C, name='clock_gettime')
      import :: c_int, timespec
      integer(c_int), value :: id
      type(timespec) :: ts
    end function clock_gettime
  end interface
  integer :: rank, nranks, ierr, rc
#ifdef F08
  type(MPI_Request) :: rq, rqs(1)
#else
  integer :: rq, rqs(1)
#endif
  integer :: nout, idx(1)
  double precision :: s(4), t(4)
  character(len=64) :: line
  character(len=4096) :: path
  integer :: out, plen

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  rc = 0
  s = 0
  t = 0
  ! the stages start together, whatever MPI_Init took
  call MPI_Allreduce(MPI_IN_PLACE, rc, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    rc = usleep(200000)
    s(1) = now()
    call MPI_Send(s(1), 1, MPI_DOUBLE_PRECISION, 1, 5, MPI_COMM_WORLD, ierr)
    rc = usleep(200000)
    s(2) = now()
    call MPI_Send(s(2), 1, MPI_DOUBLE_PRECISION, 1, 6, MPI_COMM_WORLD, ierr)
    rc = usleep(200000)
    s(3) = now()
    call MPI_Send(s(3), 1, MPI_DOUBLE_PRECISION, 1, 7, MPI_COMM_WORLD, ierr)
    rc = usleep(200000)
    s(4) = now()
    call MPI_Send(s(4), 1, MPI_DOUBLE_PRECISION, 1, 8, MPI_COMM_WORLD, ierr)
  else if (rank == 1) then
    t(1) = now()
    call MPI_Recv(s(1), 1, MPI_DOUBLE_PRECISION, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr) ! RECV_LINE
    call MPI_Irecv(s(2), 1, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, rq, ierr)
    t(2) = now()
    call MPI_Wait(rq, MPI_STATUS_IGNORE, ierr) ! WAIT_LINE
    call MPI_Irecv(s(3), 1, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, rqs(1), ierr)
    t(3) = now()
    call MPI_Waitall(1, rqs, MPI_STATUSES_IGNORE, ierr) ! WAITALL_LINE
    call MPI_Irecv(s(4), 1, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, rqs(1), ierr)
    t(4) = now()
    call MPI_Waitsome(1, rqs, nout, idx, MPI_STATUSES_IGNORE, ierr) ! WAITSOME_LINE
    out = 6
    call get_command_argument(2, path, plen)
    if (plen > 0) open (newunit=out, file=path(1:plen), status='replace', action='write')
    write (line, '(F12.6)') max(s(1) - t(1), 0d0)
    write (out, '(A)') 'EXPECT late_sender_recv 1 '//trim(adjustl(line))
    write (line, '(F12.6)') max(s(2) - t(2), 0d0)
    write (out, '(A)') 'EXPECT late_sender_wait 1 '//trim(adjustl(line))
    write (line, '(F12.6)') max(s(3) - t(3), 0d0)
    write (out, '(A)') 'EXPECT late_sender_waitall 1 '//trim(adjustl(line))
    write (line, '(F12.6)') max(s(4) - t(4), 0d0)
    write (out, '(A)') 'EXPECT late_sender_waitsome 1 '//trim(adjustl(line))
    if (out /= 6) then
      close (out)
    else
      flush (6)
    end if
  end if
  call MPI_Finalize(ierr)
contains
  double precision function now()
    type(timespec) :: ts
    integer(c_int) :: r
    r = clock_gettime(1_c_int, ts) ! CLOCK_MONOTONIC
    now = dble(ts%sec) + 1d-9 * dble(ts%nsec)
  end function now
end program mpi_waits_f
