! The 5-7 form, in a file of its own: gfortran rejects two argument lists for one
! external procedure within one file, and codes use one form.
subroutine perror_message_form()
  implicit none
  include 'f90papi.h'
  call PAPIF_perror('f90papi.h one-argument form')
end subroutine perror_message_form
