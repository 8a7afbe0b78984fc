! t_module_highlevel: the high-level routines through `use papi`, exact on the test
! preset CSV (tests/highlevel/test_events.csv: FP_OPS = FP_INS = TOT_INS = page faults,
! TOT_CYC = 2x, REF_CYC = 4x): 3.5 *_counters and PAPIF_ipc, 7.x flops_rate, epc,
! rate_stop, and the marked regions (names with trailing blanks).
program t_module_highlevel
  use papi
  use test_checks
  implicit none
  integer(c_int), parameter :: N = 200
  integer(c_int) :: check, events(2)
  integer(c_long_long) :: values(2), acc(2), read_values(2), c, c0, ref, core, evt
  integer(c_int) :: checks(3)
  real(c_float) :: rt, pt, rate

  check = PAPI_VER_CURRENT
  call PAPIF_library_init(check)
  if (check /= PAPI_VER_CURRENT) stop 1
  call papif_test_warm_up()

  ! 3.5 counters: read and accum reset the counters after copying them.
  events = [PAPI_FP_OPS, PAPI_TOT_INS]
  call PAPIF_start_counters(events, 2_c_int, check)
  call papif_test_skip_if_refused(check)
  call expect(check == PAPI_OK, 'start_counters')
  ! Only touch_pages runs between the calls: checks come after, as any Fortran statement
  ! (an array temporary, an I/O buffer) may fault pages of its own (flang's runtime does).
  acc = 10
  call PAPIF_read_counters(values, 2_c_int, check)
  call papif_test_touch_pages(N)
  call PAPIF_read_counters(values, 2_c_int, check)
  checks(1) = check
  read_values = values
  call papif_test_touch_pages(N)
  call PAPIF_accum_counters(acc, 2_c_int, check)
  checks(2) = check
  call papif_test_touch_pages(N)
  call PAPIF_stop_counters(values, 2_c_int, check)
  checks(3) = check
  call expect(all(checks == PAPI_OK), 'read_counters, accum_counters, stop_counters')
  call expect_count(read_values(1), int(N, c_long_long), 'read_counters gives N (1)')
  call expect_count(read_values(2), int(N, c_long_long), 'read_counters gives N (2)')
  call expect_count(acc(1), 10_c_long_long + N, 'accum_counters adds N (1)')
  call expect_count(acc(2), 10_c_long_long + N, 'accum_counters adds N (2)')
  call expect_count(values(1), int(N, c_long_long), 'stop_counters gives N after accum (1)')
  call expect_count(values(2), int(N, c_long_long), 'stop_counters gives N after accum (2)')

  ! PAPIF_ipc: TOT_INS = N, TOT_CYC = 2N, so IPC is exactly 1/2.
  call PAPIF_ipc(rt, pt, c0, rate, check)
  call PAPIF_ipc(rt, pt, c0, rate, check)
  call papif_test_touch_pages(N)
  call PAPIF_ipc(rt, pt, c, rate, check)
  call expect(check == PAPI_OK .and. c - c0 == N .and. abs(rate - 0.5_c_float) < epsilon(rate), 'ipc is 1/2')
  call PAPIF_rate_stop(check)
  call expect(check == PAPI_OK, 'rate_stop')
  call PAPIF_rate_stop(check)
  call expect(check == PAPI_ENOTRUN, 'second rate_stop is PAPI_ENOTRUN')

  ! 7.x: since the previous call.
  call PAPIF_flops_rate(PAPI_FP_OPS, rt, pt, c, rate, check)
  call expect(check == PAPI_OK .and. c == 0, 'first flops_rate is zero')
  call PAPIF_flops_rate(PAPI_FP_OPS, rt, pt, c, rate, check)
  call papif_test_touch_pages(N)
  call PAPIF_flops_rate(PAPI_FP_OPS, rt, pt, c, rate, check)
  call expect(check == PAPI_OK .and. c == N .and. rate > 0.0, 'flops_rate counts N')
  call PAPIF_flops_rate(PAPI_TOT_INS, rt, pt, c, rate, check)
  call expect(check == PAPI_EINVAL, 'flops_rate of TOT_INS is PAPI_EINVAL')
  call PAPIF_rate_stop(check)
  call PAPIF_epc(0_c_int, rt, pt, ref, core, evt, rate, check)
  call PAPIF_epc(0_c_int, rt, pt, ref, core, evt, rate, check)
  call papif_test_touch_pages(N)
  call PAPIF_epc(0_c_int, rt, pt, ref, core, evt, rate, check)
  call expect(check == PAPI_OK .and. evt == N .and. core == 2 * N .and. ref == 4 * N &
      .and. abs(rate - 0.5_c_float) < epsilon(rate), 'epc: N instructions, 2N cycles, 4N reference cycles')
  call PAPIF_rate_stop(check)
  call expect(check == PAPI_OK, 'rate_stop after epc')

  ! Regions: blank-padded names are the same region; a blank name is no name.
  call PAPIF_hl_region_begin('work    ', check)
  call expect(check == PAPI_OK, 'hl_region_begin')
  call papif_test_touch_pages(N)
  call PAPIF_hl_read('work', check)
  call expect(check == PAPI_OK, 'hl_read')
  call PAPIF_hl_region_end('work  ', check)
  call expect(check == PAPI_OK, 'hl_region_end with other trailing blanks')
  call PAPIF_hl_region_end('work', check)
  call expect(check == PAPI_EINVAL, 'ending a closed region is PAPI_EINVAL')
  call PAPIF_hl_region_begin('   ', check)
  call expect(check == PAPI_EINVAL, 'a blank region name is PAPI_EINVAL')
  call PAPIF_hl_stop(check)
  call expect(check == PAPI_OK, 'hl_stop')

  call verdict('t_module_highlevel')
end program t_module_highlevel
