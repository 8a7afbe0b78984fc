! mpi_exit_status (Fortran, use mpi): as mpi_exit_status.c, exits with the status
! given as its first argument after a few MPI calls; rank 0 prints how many arguments
! it got and their total length.
program mpi_exit_status
  use mpi
  implicit none
  integer :: ierr, rank, nranks, total, i, nbytes, status, arglen
  character(len=256) :: arg
  nbytes = 0
  do i = 1, command_argument_count()
    call get_command_argument(i, arg, arglen)
    nbytes = nbytes + arglen
  end do
  status = 0
  if (command_argument_count() > 0) then
    call get_command_argument(1, arg)
    read (arg, *) status
  end if
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  call MPI_Allreduce(1, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) write (*, '(a,i0,a,i0,a,i0,a,i0,a)') 'mpi_exit_status: ', nranks, &
      ' ranks, sum ', total, ', ', command_argument_count(), ' arguments, ', nbytes, ' bytes'
  call MPI_Finalize(ierr)
  call exit(status)
end program mpi_exit_status
