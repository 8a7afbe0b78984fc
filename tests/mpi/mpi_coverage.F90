! mpi_coverage.F90: newly wrapped calls from Fortran, known numbers of each, built twice:
! with `use mpi` and (-DF08) with `use mpi_f08`. MPICH's f08 bindings of calls without a
! buffer (Comm_split, Startall, Request_free...) enter PMPI_* directly: the wrapper's
! Fortran forwarders count those. Run with an even number of ranks.
program mpi_coverage_fortran
#ifdef F08
  use mpi_f08
  implicit none
  type(MPI_Comm) :: sub, dup
  type(MPI_Request) :: r(2), rq
  type(MPI_Status) :: st(2), s1
#else
  use mpi
  implicit none
  integer :: sub, dup
  integer :: r(2), rq
  integer :: st(MPI_STATUS_SIZE, 2), s1(MPI_STATUS_SIZE)
#endif
#ifdef F08
  type(MPI_File) :: fh
#else
  integer :: fh
#endif
  integer :: rank, nranks, partner, i, ierr
  integer :: out(10), in(10), g(2)
  integer, allocatable :: all(:)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  partner = ieor(rank, 1)
  out = 0; g = 0
  allocate (all(2 * nranks))
  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), rank, sub, ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
  call MPI_Comm_free(sub, ierr)
  call MPI_Comm_free(dup, ierr)
  call MPI_Send_init(out, 10, MPI_INTEGER, partner, 5, MPI_COMM_WORLD, r(1), ierr)
  call MPI_Recv_init(in, 10, MPI_INTEGER, partner, 5, MPI_COMM_WORLD, r(2), ierr)
  do i = 1, 3
    call MPI_Startall(2, r, ierr)
    call MPI_Waitall(2, r, st, ierr)
  end do
  call MPI_Request_free(r(1), ierr)
  call MPI_Request_free(r(2), ierr)
  call MPI_Iallgather(g, 2, MPI_INTEGER, all, 2, MPI_INTEGER, MPI_COMM_WORLD, rq, ierr)
  call MPI_Wait(rq, s1, ierr)
  ! a string argument (its hidden length is passed through)
  call MPI_File_open(MPI_COMM_WORLD, 'papi_mpi_coverage_f.tmp', &
                     ior(ior(MPI_MODE_CREATE, MPI_MODE_RDWR), MPI_MODE_DELETE_ON_CLOSE), &
                     MPI_INFO_NULL, fh, ierr)
  if (ierr /= MPI_SUCCESS) stop 3
  call MPI_File_close(fh, ierr)
  call MPI_Finalize(ierr)
end program mpi_coverage_fortran
