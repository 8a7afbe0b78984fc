! ompt_balance.f90: the Fortran twin of ompt_balance.c for the OMPT tool (check_ompt.py,
! case balance): thread t of 4 works (t+1) units in a schedule(static) loop (load balance
! 0.625), 300 ms of serial time, a balanced region; prints its own serialization and the
! directives' lines, the first region's wall time, each thread's wait in it (the
! region's end less the end of its work) and each thread's body in both regions as JSON.
! gfortran's runtime (libgomp) has no OMPT: the checker runs
! it under LLVM's libomp (LD_PRELOAD), which implements libgomp's entry points.
program ompt_balance
  use omp_lib
  use, intrinsic :: iso_c_binding, only: c_int
  implicit none
  interface
    integer(c_int) function usleep(us) bind(C, name="usleep")
      import :: c_int
      integer(c_int), value :: us
    end function
  end interface
  integer, parameter :: unit_ms = 50, imbalanced_line = 26, balanced_line = 38
  integer :: i, rc, n
  double precision :: start, t, in_parallel, wall, began(0:3), done(0:3), t_end
  double precision :: b_start, b_began(0:3), b_done(0:3)

  n = omp_get_max_threads()  ! the runtime, and with it the tool, starts here
  start = omp_get_wtime()
  t = start
  ! the directive below is on imbalanced_line
!$omp parallel do schedule(static) num_threads(4) private(rc)
  do i = 0, 3
    began(i) = omp_get_wtime()
    rc = sleep_units(i + 1)
    done(i) = omp_get_wtime()
  end do
!$omp end parallel do
  t_end = omp_get_wtime()
  in_parallel = t_end - t
  rc = usleep(300000_c_int)
  t = omp_get_wtime()
  ! the directive below is on balanced_line
!$omp parallel num_threads(4) private(rc)
  b_began(omp_get_thread_num()) = omp_get_wtime()
  rc = sleep_units(1)
  b_done(omp_get_thread_num()) = omp_get_wtime()
!$omp end parallel
  b_start = t
  in_parallel = in_parallel + omp_get_wtime() - t
  wall = omp_get_wtime() - start
  write (*, '(a,f7.4,a,f8.4,a,i0,a,i0,a,i0,a)', advance='no') '{"serialization": ', in_parallel / wall, &
    ', "wall_s": ', wall, ', "unit_ms": ', unit_ms, ', "file": "ompt_balance.f90", &
    &"imbalanced_line": ', imbalanced_line, ', "balanced_line": ', balanced_line, ', "region_ms": '
  write (*, '(f10.3,a,3(f10.3,a),f10.3,a)', advance='no') 1d3 * (t_end - start), ', "waits_ms": [', &
    (1d3 * (t_end - done(i)), ', ', i = 0, 2), 1d3 * (t_end - done(3)), '],'
  ! each thread's body: from its start (the least its work can be) and from the fork (the most)
  write (*, '(a,3(a,f10.3,a,f10.3,a),a,f10.3,a,f10.3,a)', advance='no') ' "body_ms": [', &
    ('[', 1d3 * (done(i) - began(i)), ', ', 1d3 * (done(i) - start), '], ', i = 0, 2), &
    '[', 1d3 * (done(3) - began(3)), ', ', 1d3 * (done(3) - start), ']],'
  write (*, '(a,3(a,f10.3,a,f10.3,a),a,f10.3,a,f10.3,a)') ' "balanced_body_ms": [', &
    ('[', 1d3 * (b_done(i) - b_began(i)), ', ', 1d3 * (b_done(i) - b_start), '], ', i = 0, 2), &
    '[', 1d3 * (b_done(3) - b_began(3)), ', ', 1d3 * (b_done(3) - b_start), ']]}'
contains
  integer function sleep_units(k)
    integer, intent(in) :: k
    integer :: j
    sleep_units = 0
    do j = 1, k  ! usleep takes at most one second
      sleep_units = sleep_units + usleep(int(unit_ms * 1000, c_int))
    end do
  end function
end program
