! The external PAPIF_strerror_detail, called with no interface as code that includes
! f90papi.h calls it, in a file of its own: the program itself uses the module's.
subroutine external_detail(detail)
  implicit none
  character(len=*), intent(out) :: detail
  call PAPIF_strerror_detail(detail)
end subroutine external_detail
