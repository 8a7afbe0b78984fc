! region_sample_mod.f90: PAPI_SAMPLE's names for Fortran (check_region_sample.py --names):
! the module procedure sampled::crunch (gfortran's __sampled_MOD_crunch) spends 0.3 s of
! CPU in region "fortran"; its samples must read sampled::crunch.
module sampled
  implicit none
  integer(8), save :: state = 1
contains
  subroutine crunch(seconds)
    real, intent(in) :: seconds
    real :: t0, t
    integer(8) :: i
    call cpu_time(t0)
    t = t0
    do while (t - t0 < seconds)
      do i = 1, 100000_8
        state = ieor(state * 69069_8 + 1_8, ishft(state, -7))
      end do
      call cpu_time(t)
    end do
  end subroutine crunch
end module sampled

program region_sample_mod
  use papi
  use sampled
  implicit none
  integer(c_int) :: check
  call PAPIF_hl_region_begin('fortran', check)
  if (check /= PAPI_OK) stop 1
  call crunch(0.3)
  call PAPIF_hl_region_end('fortran', check)
  if (check /= PAPI_OK) stop 1
  if (state == 0) print *, state
end program region_sample_mod
