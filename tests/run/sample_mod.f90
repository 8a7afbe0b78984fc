! sample_mod.f90: a module procedure for papi_run --sample (check_sample.py fortran):
! gfortran names it __sampled_MOD_crunch, the profile must read sampled::crunch.
module sampled
  implicit none
contains
  subroutine crunch(units, state)
    integer, intent(in) :: units
    integer(8), intent(inout) :: state
    integer(8) :: i
    do i = 1, int(units, 8) * 1000000_8
      state = ieor(state * 69069_8 + 1_8, ishft(state, -7))
    end do
  end subroutine crunch
end module sampled

program main
  use sampled
  implicit none
  integer(8) :: s
  s = 1
  call crunch(40, s)
  if (s == 0) print *, s
end program main
