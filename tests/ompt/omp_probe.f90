! omp_probe.f90: whether a Fortran compiler links -fopenmp here (tests/ompt/CMakeLists.txt).
program omp_probe
  use omp_lib
  implicit none
  if (omp_get_max_threads() < 1) stop 1
end program
