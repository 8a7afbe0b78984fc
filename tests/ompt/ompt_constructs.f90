! ompt_constructs.f90: the Fortran twin of ompt_constructs.c's constructs that libomp reports
! for a gfortran program (check_ompt.py, case constructs; gfortran's libgomp has no OMPT:
! the checker runs it under LLVM's libomp, which implements libgomp's entry points): in a
! region of 4 threads a named critical section thread 0 takes first and holds hold_ms while
! the others ask late_ms later, a lock thread 1 holds likewise, a single whose executor
! creates ntasks tasks of task_ms and waits for them, a dynamic loop of dyn iterations; then
! a reduction over 8 threads and a target region. Prints its own clock's waits as JSON.
program ompt_constructs
  use omp_lib
  use, intrinsic :: iso_c_binding, only: c_int
  implicit none
  interface
    integer(c_int) function usleep(us) bind(C, name="usleep")
      import :: c_int
      integer(c_int), value :: us
    end function
  end interface
  integer, parameter :: hold_ms = 100, late_ms = 10, ntasks = 8, task_ms = 10, dyn = 40
  integer, parameter :: reducers = 8
  integer(omp_lock_kind) :: lock
  integer :: t, k, i, rc, on_target
  integer(8) :: reduced
  double precision :: at, held, critical_held, lock_held, sum_dyn
  double precision :: critical_wait(0:3), lock_wait(0:3), task_took(ntasks)

  call omp_init_lock(lock)
  sum_dyn = 0
!$omp parallel num_threads(4) private(t, at, held, rc, k, i) reduction(+:sum_dyn)
  t = omp_get_thread_num()
  if (t /= 0) rc = usleep(late_ms * 1000_c_int)
  at = omp_get_wtime()
!$omp critical (ompt_constructs_named)
  critical_wait(t) = 1d3 * (omp_get_wtime() - at)
  if (t == 0) then
    held = omp_get_wtime()
    rc = usleep(hold_ms * 1000_c_int)
    critical_held = 1d3 * (omp_get_wtime() - held)
  end if
!$omp end critical (ompt_constructs_named)
!$omp barrier
  if (t /= 1) rc = usleep(late_ms * 1000_c_int)
  at = omp_get_wtime()
  call omp_set_lock(lock)
  lock_wait(t) = 1d3 * (omp_get_wtime() - at)
  if (t == 1) then
    held = omp_get_wtime()
    rc = usleep(hold_ms * 1000_c_int)
    lock_held = 1d3 * (omp_get_wtime() - held)
  end if
  call omp_unset_lock(lock)
!$omp single
  do k = 1, ntasks
!$omp task firstprivate(k) private(held, rc)
    held = omp_get_wtime()
    rc = usleep(task_ms * 1000_c_int)
    task_took(k) = 1d3 * (omp_get_wtime() - held)
!$omp end task
  end do
!$omp taskwait
!$omp end single
!$omp do schedule(dynamic, 1)
  do i = 0, dyn - 1
    sum_dyn = sum_dyn + i
  end do
!$omp end do
!$omp end parallel
  call omp_destroy_lock(lock)
  reduced = 0
!$omp parallel do reduction(+:reduced) num_threads(reducers)
  do i = 0, 10 * reducers - 1
    reduced = reduced + i
  end do
!$omp end parallel do
  on_target = 0
!$omp target map(tofrom: on_target)
  on_target = 1
!$omp end target
  write (*, '(a,i0,a,i0,a,f10.3,a,f10.3,a,f10.3,a,i0,a,i0,a,i0,a)', advance='no') &
    '{"file": "ompt_constructs.f90", "function": "ompt_constructs", "dyn": ', dyn, &
    ', "tasks": ', ntasks, ', "tasks_ms": ', sum(task_took), ', "critical_held_ms": ', &
    critical_held, ', "lock_held_ms": ', lock_held, ', "reducers": ', reducers, &
    ', "reduced": ', reduced, ', "on_target": ', on_target, ', "critical_wait_ms": ['
  write (*, '(3(f10.3,a),f10.3,a)', advance='no') (critical_wait(t), ', ', t = 0, 2), &
    critical_wait(3), '], "lock_wait_ms": ['
  write (*, '(3(f10.3,a),f10.3,a)') (lock_wait(t), ', ', t = 0, 2), lock_wait(3), ']}'
end program ompt_constructs
