! mpi_waits_f.f90: the late-sender stage of mpi_waits.c from Fortran (`use mpi`):
! rank 0 sleeps 200 ms, then MPI_Send to rank 1, which is in MPI_Recv; again with
! MPI_Irecv(MPI_ANY_SOURCE, MPI_ANY_TAG) + MPI_Wait(MPI_STATUS_IGNORE). Rank 1 prints
! "EXPECT what 1 seconds": the wait its MPI_Wtime readings (one clock on one node) say it
! had (check_waits.py --part fortran).
program mpi_waits_f
  use mpi
  use iso_c_binding, only: c_int
  implicit none
  interface
    integer(c_int) function usleep(us) bind(C, name='usleep')
      import :: c_int
      integer(c_int), value :: us
    end function usleep
  end interface
  integer :: rank, nranks, ierr, rq, rc
  double precision :: s(2), t(2)
  character(len=64) :: line

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
    s(1) = MPI_Wtime()
    call MPI_Send(s(1), 1, MPI_DOUBLE_PRECISION, 1, 5, MPI_COMM_WORLD, ierr)
    rc = usleep(200000)
    s(2) = MPI_Wtime()
    call MPI_Send(s(2), 1, MPI_DOUBLE_PRECISION, 1, 6, MPI_COMM_WORLD, ierr)
  else if (rank == 1) then
    t(1) = MPI_Wtime()
    call MPI_Recv(s(1), 1, MPI_DOUBLE_PRECISION, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr) ! RECV_LINE
    call MPI_Irecv(s(2), 1, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, rq, ierr)
    t(2) = MPI_Wtime()
    call MPI_Wait(rq, MPI_STATUS_IGNORE, ierr) ! WAIT_LINE
    write (line, '(F12.6)') max(s(1) - t(1), 0d0)
    write (*, '(A)') 'EXPECT late_sender_recv 1 '//trim(adjustl(line))
    write (line, '(F12.6)') max(s(2) - t(2), 0d0)
    write (*, '(A)') 'EXPECT late_sender_wait 1 '//trim(adjustl(line))
    flush (6)
  end if
  call MPI_Finalize(ierr)
end program mpi_waits_f
