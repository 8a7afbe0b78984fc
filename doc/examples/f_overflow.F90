! Example: Fortran: a handler called 100 times per second of CPU time (the task clock in
! frequency mode) that takes the call chain of each overflow, and the rate it ran at
! (extensions of this library).
! Shows: PAPIF_overflow_frequency PAPIF_get_overflow_callchain PAPIF_get_overflow_rate
program f_overflow
  implicit none
#include "fpapi.h"
  integer :: check, es, code
  integer(kind=8) :: values(1), rate, queue_full
  integer :: hz, slowed
  real :: t0, t1
  real(kind=8) :: x
  integer :: i
  integer, external :: on_overflow
  integer :: calls, chains
  common /ovf/ calls, chains

  calls = 0
  chains = 0
  check = PAPI_VER_CURRENT
  call PAPIF_library_init(check)
  if (check /= PAPI_VER_CURRENT) stop 1
  es = PAPI_NULL
  call PAPIF_create_eventset(es, check)
  call PAPIF_event_name_to_code('perf::TASK-CLOCK', code, check)
  call PAPIF_add_event(es, code, check)
  if (check /= PAPI_OK) stop 1
  call PAPIF_overflow_frequency(es, code, 100, 0, on_overflow, check)
  if (check /= PAPI_OK) stop 1
  call PAPIF_start(es, check)
  x = 1.0d0
  call cpu_time(t0)
  t1 = t0
  do while (t1 - t0 < 0.5)
    do i = 1, 200000  ! mostly user time: a sample in the kernel is dropped
      x = x * 1.0000001d0
    end do
    call cpu_time(t1)
  end do
  call PAPIF_stop(es, values, check)
  if (check /= PAPI_OK) stop 1
  print '(a,l1,a,l1)', 'within 10% of 100 calls per CPU second: ', &
    abs(calls - values(1) * 1.0d-7) <= 0.1d0 * values(1) * 1.0d-7 + 1, &
    '; every chain starts at an address: ', chains == calls .and. calls > 0
  ! The rate used: what the samples stand for (slower than asked past 10,000 a second).
  call PAPIF_get_overflow_rate(es, code, rate, hz, slowed, queue_full, check)
  if (check /= PAPI_OK) stop 1
  print '(a,i0,a,i0,a,i0,a)', 'rate used: ', rate, ' (hz ', hz, '), slowed ', slowed, ' times'
end program f_overflow

! Called at each overflow: the chain, innermost first (pcs(1) is the interrupted address).
integer function on_overflow()
  implicit none
  integer(kind=8) :: pcs(8)
  integer :: n, calls, chains
  common /ovf/ calls, chains
  calls = calls + 1
  call PAPIF_get_overflow_callchain(pcs, 8, n)
  if (n >= 1) then
    if (pcs(1) /= 0) chains = chains + 1
  end if
  on_overflow = 0
end function on_overflow
