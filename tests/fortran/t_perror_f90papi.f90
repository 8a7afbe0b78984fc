! t_perror_f90papi: both forms of PAPIF_perror with no interface, through
! include 'f90papi.h' in free form, linked with -lpapi alone (run_perror_forms.sh checks).
program t_perror_f90papi
  implicit none
  include 'f90papi.h'
  integer :: check
  character(len=256) :: dest
  check = PAPI_VER_CURRENT
  call PAPIF_library_init(check)
  if (check /= PAPI_VER_CURRENT) stop 1
  call PAPIF_perror(PAPI_EINVAL, dest, check)
  if (check /= PAPI_OK) stop 2
  print '(a,a)', 'three-argument form: ', trim(dest)
  call perror_message_form()
  print '(a)', 'perror forms: done'
end program t_perror_f90papi
