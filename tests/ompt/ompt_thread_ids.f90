! ompt_thread_ids.f90: ompt_thread_ids.c's check in Fortran, as PAPI advises it there:
! PAPIF_thread_init(omp_get_thread_num, check) with OpenMP's own function passed as an
! external. Under papi_run (the OMPT tool in the same libpapi) thread t of the team of 4
! must still get PAPIF_thread_id t, and its region "work" be thread t of the region file.
! Prints one JSON line of what it saw (check_thread_ids.py).
program ompt_thread_ids_f
  use, intrinsic :: iso_c_binding, only: c_int, c_long
  implicit none
  integer(c_int), parameter :: VER = 117440512, OK = 0 ! PAPI_VER_CURRENT, PAPI_OK
  integer(c_int) :: check, team
  integer(c_long) :: ids(0:3), master
  integer :: t
  integer, external :: omp_get_thread_num, omp_get_num_threads
  external :: PAPIF_library_init, PAPIF_thread_init, PAPIF_thread_id
  external :: PAPIF_hl_region_begin, PAPIF_hl_region_end

  check = VER
  call PAPIF_library_init(check)
  if (check /= VER) stop 1
  call PAPIF_thread_init(omp_get_thread_num, check)
  if (check /= OK) stop 2
  ids = -1
  team = 0
  !$omp parallel num_threads(4)
  t = 0 ! the team starts (and the OMPT tool with it)
  !$omp end parallel
  !$omp parallel num_threads(4) private(t, check)
  t = omp_get_thread_num()
  call PAPIF_hl_region_begin('work', check)
  call PAPIF_thread_id(ids(t))
  call PAPIF_hl_region_end('work', check)
  !$omp single
  team = omp_get_num_threads()
  !$omp end single
  !$omp end parallel
  call PAPIF_thread_id(master)
  print '(a,i0,a,i0,a,3(i0,", "),i0,a)', '{"team": ', team, ', "master_id": ', master, &
    ', "ids": [', ids, ']}'
end program ompt_thread_ids_f
