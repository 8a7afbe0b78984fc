! mpi_pattern_f.F90: the call pattern of mpi_pattern.c (MPI_Pcontrol(2/-2): the level
! only, no name, so no region; no MPI_PROC_NULL calls) in Fortran, built three ways:
! with include 'mpif.h' (-DUSE_MPIF_H), with `use mpi`, and with `use mpi_f08` (-DF08;
! MPICH's f08 bindings enter PMPI_* directly for Init, Finalize, Comm_rank/size, Wait*,
! Probe and Barrier: the wrapper library defines those symbols). The calls pass ierr,
! optional in mpi_f08.
! Argument 1: pages per rank (rank r touches (r+1)x).
program mpi_pattern_f
#if defined(F08)
  use mpi_f08
#elif !defined(USE_MPIF_H)
  use mpi
#endif
  implicit none
#ifdef USE_MPIF_H
  include 'mpif.h'
#endif
  integer, parameter :: reps = 5, ndbl = 100
  integer :: sizes(4) = [0, 8, 1000, 65536]
  integer :: ierr, rank, nranks, partner, s, r, i, me, pages
  character :: buf(65536)
  double precision :: dout(ndbl), din(ndbl), d(ndbl), r5(5), r5o(5), x4(4), y4(4)
#ifdef F08
  integer :: si(10), ri(10), a(10), b(10), one
  type(MPI_Request) :: req(2), rq, preq(2)
  type(MPI_Status) :: st, sts(2)
#else
  integer :: si(10), ri(10), a(10), b(10), one, req(2), rq, preq(2)
  integer :: st(MPI_STATUS_SIZE), sts(MPI_STATUS_SIZE, 2)
#endif
  integer, allocatable :: all(:), a2(:)
  character(len=32) :: arg

  pages = 0
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) pages
  end if
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  call touch_pages((rank + 1) * pages)
  buf = 'x'; dout = 0; si = 0; a = 0; d = 0; r5 = 0; x4 = 0
  partner = ieor(rank, 1)
  if (partner < nranks) then
    do s = 1, 4
      do r = 1, reps
        if (mod(rank, 2) == 0) then
          call MPI_Send(buf, sizes(s), MPI_BYTE, partner, 1, MPI_COMM_WORLD, ierr)
          call MPI_Recv(buf, sizes(s), MPI_BYTE, partner, 1, MPI_COMM_WORLD, st, ierr)
        else
          call MPI_Recv(buf, sizes(s), MPI_BYTE, partner, 1, MPI_COMM_WORLD, st, ierr)
          call MPI_Send(buf, sizes(s), MPI_BYTE, partner, 1, MPI_COMM_WORLD, ierr)
        end if
      end do
    end do
    call MPI_Irecv(din, ndbl, MPI_DOUBLE_PRECISION, partner, 2, MPI_COMM_WORLD, req(1), ierr)
    call MPI_Isend(dout, ndbl, MPI_DOUBLE_PRECISION, partner, 2, MPI_COMM_WORLD, req(2), ierr)
    call MPI_Waitall(2, req, sts, ierr)
    call MPI_Sendrecv(si, 10, MPI_INTEGER, partner, 3, ri, 10, MPI_INTEGER, partner, 3, &
                      MPI_COMM_WORLD, st, ierr)
    ! Persistent requests, started twice: the partner is filed at *_init.
    call MPI_Send_init(dout, ndbl, MPI_DOUBLE_PRECISION, partner, 5, MPI_COMM_WORLD, preq(1), ierr)
    call MPI_Recv_init(din, ndbl, MPI_DOUBLE_PRECISION, partner, 5, MPI_COMM_WORLD, preq(2), ierr)
    do i = 1, 2
      call MPI_Startall(2, preq, ierr)
      call MPI_Waitall(2, preq, sts, ierr)
    end do
    call MPI_Request_free(preq(1), ierr)
    call MPI_Request_free(preq(2), ierr)
    if (mod(rank, 2) == 0) then
      call MPI_Send(buf, 12, MPI_BYTE, partner, 4, MPI_COMM_WORLD, ierr)
    else
      call MPI_Probe(partner, 4, MPI_COMM_WORLD, st, ierr)
      ! From any source: the partner is the status's MPI_SOURCE.
      call MPI_Recv(buf, 12, MPI_BYTE, MPI_ANY_SOURCE, 4, MPI_COMM_WORLD, st, ierr)
    end if
  end if
  call MPI_Bcast(d, ndbl, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
  call MPI_Allreduce(a, b, 10, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Reduce(r5, r5o, 5, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  allocate (all(2 * nranks), a2(2 * nranks))
  a2 = 0
  one = rank
  call MPI_Gather(one, 1, MPI_INTEGER, all, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call MPI_Alltoall(a2, 2, MPI_INTEGER, all, 2, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  do i = 1, 3
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
  end do
  call MPI_Pcontrol(2)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_Pcontrol(-2)
  call MPI_Ibarrier(MPI_COMM_WORLD, rq, ierr)
  call MPI_Wait(rq, st, ierr)
  call MPI_Iallreduce(x4, y4, 4, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, rq, ierr)
  call MPI_Wait(rq, st, ierr)
  do i = 1, 100
    call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  end do
  call MPI_Finalize(ierr)
contains
  ! Touch n fresh pages: allocate, write one byte per page, free.
  subroutine touch_pages(n)
    integer, intent(in) :: n
    character, allocatable :: p(:)
    integer :: k
    if (n <= 0) return
    allocate (p(n * 4096))
    do k = 1, n
      p((k - 1) * 4096 + 1) = 'y'
    end do
    if (p(1) /= 'y') print *, 'unexpected'
    deallocate (p)
  end subroutine touch_pages
end program mpi_pattern_f
