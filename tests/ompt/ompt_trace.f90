! ompt_trace.f90: the OpenMP slices of a gfortran program (check_ompt_trace.py): 3
! instances of one parallel region of 4 threads, thread t busy (t+1) x 5 ms in each.
program ompt_trace
  use omp_lib
  implicit none
  integer :: k
  double precision :: t0
  do k = 1, 3
    !$omp parallel num_threads(4) private(t0)
    t0 = omp_get_wtime()
    do while (omp_get_wtime() - t0 < 0.005d0 * (omp_get_thread_num() + 1))
    end do
    !$omp end parallel
  end do
  print '(a)', '{"file": "ompt_trace.f90"}'
end program ompt_trace
