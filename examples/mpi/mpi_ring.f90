! mpi_ring.f90: the Fortran twin of mpi_ring.c (`use mpi`), an ordinary MPI program to
! run under the PMPI wrapper library:
!   mpirun.mpich -np 2 -genv LD_PRELOAD <build>/mpi-wrappers/libpapi_mpi.so ./mpi_ring_f
program mpi_ring_f
  use mpi
  implicit none
  integer :: ierr, rank, nranks, step, token, next, prev
  double precision :: local, total

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  local = 0
  total = 0
  do step = 0, 4
    local = local + work(rank + 1)
    token = step
    next = mod(rank + 1, nranks)
    prev = mod(rank + nranks - 1, nranks)
    call MPI_Sendrecv_replace(token, 1, MPI_INTEGER, next, 0, prev, 0, MPI_COMM_WORLD, &
                              MPI_STATUS_IGNORE, ierr)
    call MPI_Allreduce(local, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  end do
  if (rank == 0) print '(a,i0,a,f0.1)', 'mpi_ring_f: ', nranks, ' ranks, checksum ', total
  call MPI_Finalize(ierr)
contains
  ! (units) x 2e6 iterations of a cheap loop: rank r works r+1 times as long as rank 0.
  double precision function work(units)
    integer, intent(in) :: units
    integer(8) :: i
    work = 0
    do i = 0, units * 2000000_8 - 1
      work = work + dble(mod(i, 7_8)) * 0.5d0
    end do
  end function work
end program mpi_ring_f
