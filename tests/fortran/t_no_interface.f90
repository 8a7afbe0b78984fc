! t_no_interface: code with no module and no include file calls PAPIF_* as externals
! with ISO_C_BINDING kinds. PAPIF_FLOPS counts PAPI_FP_OPS, which the test preset CSV
! (tests/highlevel/test_events.csv via PAPI_CSV_EVENT_FILE) maps onto page faults, so
! the totals are exact. The PAPI constants are written out as the reference's numbers.
program t_no_interface
  use, intrinsic :: iso_c_binding, only: c_int, c_long_long, c_float
  implicit none
  integer(c_int), parameter :: N = 200, VER = 117440512, OK = 0, NULL_SET = -1
  integer(c_int) :: check, es, code
  real(c_float) :: rtime, ptime, mflops
  integer(c_long_long) :: flpops, flpops0, values(1)
  external :: PAPIF_library_init, PAPIF_flops, PAPIF_stop_counters, PAPIF_read
  external :: PAPIF_start, PAPIF_stop, PAPIF_reset
  external :: PAPIF_create_eventset, PAPIF_add_event, PAPIF_event_name_to_code
  integer :: failures = 0

  check = VER
  call PAPIF_library_init(check)
  if (check /= VER) stop 1
  call papif_test_warm_up()
  call PAPIF_flops(rtime, ptime, flpops0, mflops, check)
  call papif_test_skip_if_refused(check)
  call PAPIF_flops(rtime, ptime, flpops0, mflops, check)
  if (check /= OK) then
    print '(a,i0)', 'FAIL: PAPIF_flops returned ', check
    failures = failures + 1
  end if
  call papif_test_touch_pages(N)
  call PAPIF_flops(rtime, ptime, flpops, mflops, check)
  if (check /= OK .or. flpops - flpops0 /= N) then
    print '(a,i0,a,i0)', 'FAIL: PAPIF_flops counted ', flpops - flpops0, ' want ', N
    failures = failures + 1
  end if
  if (.not. (rtime > 0.0 .and. mflops >= 0.0)) then
    print *, 'FAIL: PAPIF_flops times', rtime, ptime, mflops
    failures = failures + 1
  end if

  ! PAPIF_flops runs its own event set; stop it to run ours (one running set a thread).
  call PAPIF_stop_counters(values, 0_c_int, check)
  if (check /= OK) then
    print '(a,i0)', 'FAIL: PAPIF_stop_counters returned ', check
    failures = failures + 1
  end if

  ! An event set of its own, read without any interface.
  es = NULL_SET
  call PAPIF_create_eventset(es, check)
  call PAPIF_event_name_to_code('perf::PAGE-FAULTS', code, check)
  call PAPIF_add_event(es, code, check)
  call PAPIF_start(es, check)
  call PAPIF_read(es, values, check)
  call PAPIF_start(es, check)  ! running already: an error code, no crash
  if (check == OK) then
    print *, 'FAIL: start of a running set returned PAPI_OK'
    failures = failures + 1
  end if
  call PAPIF_reset(es, check)
  call papif_test_touch_pages(N)
  call PAPIF_stop(es, values, check)
  if (check /= OK .or. values(1) /= N) then
    print '(a,i0,a,i0)', 'FAIL: read/stop without interface ', values(1), ' check ', check
    failures = failures + 1
  end if
  ! Bad input: an error code back, nothing written, no crash.
  values = -7
  call PAPIF_read(12345_c_int, values, check)
  if (check /= -11 .or. values(1) /= -7) then  ! PAPI_ENOEVST
    print '(a,i0)', 'FAIL: read of a missing event set returned ', check
    failures = failures + 1
  end if
  if (failures > 0) stop 1
  print '(a)', 't_no_interface: PASSED'
end program t_no_interface
