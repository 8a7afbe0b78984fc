! mpi_exit_status (Fortran, use mpi): as mpi_exit_status.c, exits with the status
! given as its first argument after a few MPI calls; rank 0 prints how many arguments
! it got and their total length; with "env" as second argument, rank 0 also prints
! LD_PRELOAD and the rerun marker as it and a child shell see them.
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
  if (rank == 0 .and. command_argument_count() > 1) then
    call get_command_argument(2, arg)
    if (arg == 'env') call print_env()
  end if
  call MPI_Finalize(ierr)
  call exit(status)
contains
  subroutine print_env()
    character(len=8192) :: pre, mark
    integer :: plen, mlen, pst, mst
    call get_environment_variable('LD_PRELOAD', pre, plen, pst)
    call get_environment_variable('PAPI_MPI_WRONG_MPI_RERUN', mark, mlen, mst)
    if (pst /= 0) pre = '(unset)'
    if (mst /= 0) mark = '(unset)'
    write (*, '(a,a,a,a)') 'mpi_exit_status env: program LD_PRELOAD=', trim(pre), &
        ' marker=', trim(mark)
    flush (6)
    call execute_command_line('echo "mpi_exit_status env: child LD_PRELOAD=${LD_PRELOAD-(unset)}' &
        // ' marker=${PAPI_MPI_WRONG_MPI_RERUN-(unset)}"')
  end subroutine print_env
end program mpi_exit_status
