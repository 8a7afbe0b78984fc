! The external PAPIMF_evaluate, called with no interface as code that includes f90papi.h
! calls it, in a file of its own: the program itself uses the module's.
subroutine external_evaluate(name, es, values, seconds, result, check)
  implicit none
  character(len=*), intent(in) :: name
  integer, intent(in) :: es
  integer(kind=8), intent(in) :: values(*)
  double precision, intent(in) :: seconds
  double precision, intent(out) :: result
  integer, intent(out) :: check
  call PAPIMF_evaluate(name, es, values, seconds, result, check)
end subroutine external_evaluate
