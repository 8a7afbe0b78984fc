! t_overflow_frequency: `use papi` PAPIF_overflow_frequency and PAPIF_get_overflow_callchain
! (extensions of this library): perf::TASK-CLOCK at 250 Hz calls the Fortran handler 250
! times per second of CPU time (at least 80%, at most 110%: a tick that lands in the kernel
! is dropped, more of them on a loaded machine); in the handler the chain starts at a nonzero
! address; hz 0 and the chain outside a handler are refused with PAPI_EINVAL.
! PAPIF_get_overflow_rate says 250 Hz after the run, not slowed; 100000 Hz asked is 10000 Hz
! used (the cap of 10,000 signals a second) where the kernel allows 100000; a bad event set
! is PAPI_ENOEVST, an event without overflow PAPI_EINVAL.
module t_ovf_handler
  use, intrinsic :: iso_c_binding, only: c_int, c_long_long
  use papi
  implicit none
  integer(c_int), volatile :: calls = 0, chains_ok = 0

contains

  ! Called in the signal handler: integer work and the chain, no I/O.
  integer(c_int) function on_overflow() bind(C)
    integer(c_long_long) :: pcs(16)
    integer(c_int) :: n
    calls = calls + 1
    call PAPIF_get_overflow_callchain(pcs, 16_c_int, n)
    if (n >= 1) then
      if (pcs(1) /= 0) chains_ok = chains_ok + 1
    end if
    on_overflow = 0
  end function on_overflow
end module t_ovf_handler

program t_overflow_frequency
  use papi
  use test_checks
  use t_ovf_handler
  implicit none
  integer(c_int), parameter :: hz = 250
  integer(c_int) :: check, es, code, n, rate_hz, slowed
  integer(c_long_long) :: values(1), pcs(4), rate, qfull
  real :: t0, t1
  real(kind=8) :: x, expected
  integer :: i

  check = PAPI_VER_CURRENT
  call PAPIF_library_init(check)
  call expect(check == PAPI_VER_CURRENT, 'library_init returns PAPI_VER_CURRENT')
  es = PAPI_NULL
  call PAPIF_create_eventset(es, check)
  call expect(check == PAPI_OK, 'create_eventset')
  call PAPIF_event_name_to_code('perf::TASK-CLOCK', code, check)
  call papif_test_skip_if_refused(check)
  call PAPIF_add_event(es, code, check)
  call papif_test_skip_if_refused(check)

  call PAPIF_get_overflow_callchain(pcs, 4_c_int, n)
  call expect(n == PAPI_EINVAL, 'get_overflow_callchain outside a handler is PAPI_EINVAL')
  call PAPIF_overflow_frequency(es, code, 0_c_int, 0_c_int, on_overflow, check)
  call expect(check == PAPI_EINVAL, 'overflow_frequency with hz 0 is PAPI_EINVAL')
  call PAPIF_get_overflow_rate(es, code, rate, rate_hz, slowed, qfull, check)
  call expect(check == PAPI_EINVAL, 'get_overflow_rate without overflow is PAPI_EINVAL')
  call PAPIF_get_overflow_rate(es + 1000, code, rate, rate_hz, slowed, qfull, check)
  call expect(check == PAPI_ENOEVST, 'get_overflow_rate of a bad set is PAPI_ENOEVST')

  call PAPIF_overflow_frequency(es, code, hz, 0_c_int, on_overflow, check)
  call expect(check == PAPI_OK, 'overflow_frequency at 250 Hz')
  call PAPIF_start(es, check)
  call expect(check == PAPI_OK, 'start')
  x = 1.0d0
  call cpu_time(t0)
  t1 = t0
  do while (t1 - t0 < 1.0)
    do i = 1, 200000  ! mostly user time: a sample in the kernel is dropped
      x = x * 1.0000001d0 + 1.0d-9
    end do
    call cpu_time(t1)
  end do
  call PAPIF_stop(es, values, check)
  call expect(check == PAPI_OK, 'stop')
  expected = real(values(1), 8) * 1.0d-9 * hz
  print '(a,i0,a,i0,a,f8.1,a,f12.3)', 'frequency ', hz, ' Hz: ', calls, ' calls, expected ', &
    expected, '; x ', x
  call expect(calls >= 0.8d0 * expected .and. calls <= 1.1d0 * expected + 1, &
              'calls within -20%/+10% of hz per second of task clock')
  call expect(chains_ok == calls, 'every chain in the handler starts at an address')
  call PAPIF_get_overflow_rate(es, code, rate, rate_hz, slowed, qfull, check)
  print '(a,i0,a,i0,a,i0,a,i0)', 'rate used ', rate, ' hz ', rate_hz, ' slowed ', slowed, &
    ' queue overflows ', qfull
  call expect(check == PAPI_OK .and. rate == hz .and. rate_hz == 1 .and. slowed == 0, &
              'get_overflow_rate: 250 Hz in frequency mode, not slowed')
  call PAPIF_overflow_frequency(es, code, 100000_c_int, 0_c_int, on_overflow, check)
  if (check == PAPI_OK) then
    call PAPIF_get_overflow_rate(es, code, rate, rate_hz, slowed, qfull, check)
    print '(a,i0,a,i0)', '100000 Hz asked: rate used ', rate, ' hz ', rate_hz
    call expect(check == PAPI_OK .and. rate == 10000 .and. rate_hz == 1, &
                'get_overflow_rate: 100000 Hz asked runs at 10000 Hz')
  else
    call expect(check == PAPI_EINVAL, '100000 Hz refused only above the kernel''s limit')
    print '(a)', '100000 Hz is above this kernel''s perf_event_max_sample_rate: cap not checked'
  end if
  call PAPIF_cleanup_eventset(es, check)  ! removes the overflow setting with the event
  call expect(check == PAPI_OK, 'cleanup_eventset')
  call verdict('t_overflow_frequency')
end program t_overflow_frequency
