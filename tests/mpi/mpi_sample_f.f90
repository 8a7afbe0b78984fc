! mpi_sample_f.f90: a Fortran MPI program for sampling (issue 48): papi_run --sample
! under mpirun (check_sample.py mpi_fortran) and the wrapper's PAPI_SAMPLE
! (check_mpi_sample.py --part fortran). 2 ranks, `use mpi`.
!   mpi_sample_f [UNITS]
! Rank 1 spends 3 times as long as rank 0 in the module procedure ranked::crunch
! (gfortran's __ranked_MOD_crunch); rank 0 then waits for it in ranked::waiter's
! MPI_Barrier (the line marked SAMPLE_BARRIER). Each rank prints its thread's CPU time
! in crunch ("EXPECT crunch RANK SECONDS") and rank 0 the wall time of that barrier
! ("EXPECT barrier 0 SECONDS"): the ranks share the machine's cores.
module ranked
  use mpi
  use, intrinsic :: iso_c_binding, only: c_int, c_long
  implicit none
  integer(8), save :: state = 1
  type, bind(c) :: timespec
    integer(c_long) :: sec, nsec
  end type timespec
  interface
    integer(c_int) function clock_gettime(clock, ts) bind(c, name="clock_gettime")
      import :: c_int, timespec
      integer(c_int), value :: clock
      type(timespec), intent(out) :: ts
    end function clock_gettime
  end interface
contains
  double precision function thread_cpu()
    type(timespec) :: ts
    integer(c_int), parameter :: clock_thread_cputime_id = 3
    if (clock_gettime(clock_thread_cputime_id, ts) /= 0) ts = timespec(0, 0)
    thread_cpu = dble(ts%sec) + 1d-9 * dble(ts%nsec)
  end function thread_cpu

  subroutine crunch(units)
    integer, intent(in) :: units
    integer(8) :: i
    do i = 1, int(units, 8) * 1000000_8
      state = ieor(state * 69069_8 + 1_8, ishft(state, -7))
    end do
  end subroutine crunch

  subroutine waiter(waited)
    double precision, intent(out) :: waited
    integer :: ierr
    double precision :: t0
    t0 = MPI_Wtime()
    call MPI_Barrier(MPI_COMM_WORLD, ierr) ! SAMPLE_BARRIER
    waited = MPI_Wtime() - t0
  end subroutine waiter
end module ranked

program main
  use ranked
  implicit none
  integer :: ierr, rank, units
  double precision :: t0, spent, waited
  character(len=32) :: arg
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  units = 100
  if (command_argument_count() > 0) then
    call get_command_argument(1, arg)
    read (arg, *) units
  end if
  call MPI_Barrier(MPI_COMM_WORLD, ierr) ! both start crunch together
  t0 = thread_cpu()
  if (rank == 1) then
    call crunch(3 * units)
  else
    call crunch(units)
  end if
  spent = thread_cpu() - t0
  call waiter(waited)
  write (*, '(a,i0,a,f0.6)') 'EXPECT crunch ', rank, ' ', spent
  if (rank == 0) write (*, '(a,f0.6)') 'EXPECT barrier 0 ', waited
  flush (6)
  if (state == 0) print *, state
  call MPI_Finalize(ierr)
end program main
