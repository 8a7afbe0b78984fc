! test_checks: the failure counter and checks every `use papi` test program shares.
module test_checks
  use, intrinsic :: iso_c_binding, only: c_long_long
  implicit none
  private
  public :: failures, expect, expect_count, verdict

  integer :: failures = 0

contains

  subroutine expect(cond, what)
    logical, intent(in) :: cond
    character(len=*), intent(in) :: what
    if (.not. cond) then
      print '(2a)', 'FAIL: ', what
      failures = failures + 1
    end if
  end subroutine expect

  subroutine expect_count(got, want, what)
    integer(c_long_long), intent(in) :: got, want
    character(len=*), intent(in) :: what
    call expect(got == want, what)
    if (got /= want) print '(a,i0,a,i0)', '    got ', got, ', want ', want
  end subroutine expect_count

  ! The program's last line: "name: PASSED", or "name: FAILED (n checks)" and exit status 1.
  subroutine verdict(name)
    character(len=*), intent(in) :: name
    if (failures > 0) then
      print '(2a,i0,a)', name, ': FAILED (', failures, ' checks)'
      stop 1
    end if
    print '(2a)', name, ': PASSED'
  end subroutine verdict
end module test_checks
