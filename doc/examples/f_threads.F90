! Example: Fortran: threads: a function of the program names the threads, a thread
! registers before it counts and unregisters when done; the user locks order sections.
! Shows: PAPIF_thread_init PAPIF_thread_id PAPIF_register_thread PAPIF_lock PAPIF_unlock
! PAPIF_unregister_thread PAPIF_unregster_thread
program f_threads
  implicit none
#include "fpapi.h"
  integer :: check
  integer(kind=8) :: id
  integer, external :: my_thread_id

  check = PAPI_VER_CURRENT
  call PAPIF_library_init(check)
  if (check /= PAPI_VER_CURRENT) stop 1
  call PAPIF_thread_init(my_thread_id, check)  ! ids come from my_thread_id below
  if (check /= PAPI_OK) stop 1
  call PAPIF_thread_id(id)
  print '(a,i0)', 'thread id ', id
  call PAPIF_register_thread(check)
  if (check /= PAPI_OK) stop 1
  call PAPIF_lock(PAPI_USR1_LOCK, check)       ! one thread at a time from here ...
  if (check /= PAPI_OK) stop 1
  call PAPIF_unlock(PAPI_USR1_LOCK, check)     ! ... to here
  if (check /= PAPI_OK) stop 1
  call PAPIF_unregister_thread(check)
  if (check /= PAPI_OK) stop 1
  ! PAPI's own spelling of the same routine, kept for old programs.
  call PAPIF_register_thread(check)
  call PAPIF_unregster_thread(check)
  if (check /= PAPI_OK) stop 1
  print '(a)', 'registered, locked, unlocked, unregistered'
end program f_threads

! The id of the calling thread (an OpenMP program would return omp_get_thread_num()).
integer function my_thread_id()
  my_thread_id = 7
end function my_thread_id
