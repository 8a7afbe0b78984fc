! t_module_counts: `use papi` low-level calls count exactly N page faults (touching N
! fresh pages gives N faults). Round 1 rehearses every call so that code pages are
! mapped; round 2 asserts the exact counts.
program t_module_counts
  use papi
  use test_checks
  implicit none
  integer(c_int), parameter :: N = 500
  integer(c_int) :: check, es, code, nev, status, events(4), round
  integer(c_long_long) :: values(1), acc(1), t0, t1
  character(len=64) :: name

  check = PAPI_VER_CURRENT
  call PAPIF_library_init(check)
  call expect(check == PAPI_VER_CURRENT, 'library_init returns PAPI_VER_CURRENT')
  call PAPIF_is_initialized(status)
  call expect(status == PAPI_LOW_LEVEL_INITED, 'is_initialized says low level')
  es = PAPI_NULL
  call PAPIF_create_eventset(es, check)
  call ok(check, 'create_eventset')
  name = 'perf::PAGE-FAULTS'  ! blank padded to 64: the trailing blanks must not matter
  call PAPIF_event_name_to_code(name, code, check)
  call papif_test_skip_if_refused(check)
  call ok(check, 'event_name_to_code with trailing blanks')
  call PAPIF_add_event(es, code, check)
  call papif_test_skip_if_refused(check)
  call ok(check, 'add_event')
  call PAPIF_num_events(es, nev)
  call expect(nev == 1, 'num_events is 1')
  nev = size(events, kind=c_int)
  call PAPIF_list_events(es, events, nev, check)
  call ok(check, 'list_events')
  call expect(nev == 1 .and. events(1) == code, 'list_events gives the added code')
  call papif_test_warm_up()

  do round = 1, 2
    call PAPIF_start(es, check)
    call ok(check, 'start')
    call PAPIF_state(es, status, check)
    call expect(iand(status, PAPI_RUNNING) /= 0, 'state is RUNNING')
    call papif_test_touch_pages(N)
    call PAPIF_read(es, values, check)
    call ok(check, 'read')
    if (round == 2) call expect_count(values(1), int(N, c_long_long), 'read after N pages')
    acc = 0
    call PAPIF_accum(es, acc, check)
    call ok(check, 'accum')
    call papif_test_touch_pages(N)
    call PAPIF_accum(es, acc, check)
    if (round == 2) call expect_count(acc(1), int(2 * N, c_long_long), 'accum adds and resets')
    call PAPIF_reset(es, check)
    call ok(check, 'reset')
    call papif_test_touch_pages(N)
    call PAPIF_stop(es, values, check)
    call ok(check, 'stop')
    if (round == 2) call expect_count(values(1), int(N, c_long_long), 'stop after reset')
  end do
  call PAPIF_state(es, status, check)
  call expect(iand(status, PAPI_STOPPED) /= 0, 'state is STOPPED')

  ! The 7.x named-event calls, with a blank-padded name.
  call PAPIF_remove_event(es, code, check)
  call ok(check, 'remove_event')
  call PAPIF_query_named_event(name, check)
  call ok(check, 'query_named_event')
  call PAPIF_add_named_event(es, name, check)
  call ok(check, 'add_named_event')
  do round = 1, 2
    call PAPIF_start(es, check)
    call papif_test_touch_pages(N)
    call PAPIF_stop(es, values, check)
    call ok(check, 'stop (named event)')
    if (round == 2) call expect_count(values(1), int(N, c_long_long), 'named event counts N')
  end do
  call PAPIF_remove_named_event(es, name, check)
  call ok(check, 'remove_named_event')
  call PAPIF_add_named_event(es, 'no::SUCH_EVENT', check)
  call expect(check == PAPI_ENOEVNT, 'unknown named event gives PAPI_ENOEVNT')

  call PAPIF_get_real_usec(t0)
  call PAPIF_get_real_nsec(t1)
  call expect(t0 > 0 .and. t1 >= t0 * 1000, 'real timers advance')
  call PAPIF_cleanup_eventset(es, check)
  call ok(check, 'cleanup_eventset')
  call PAPIF_destroy_eventset(es, check)
  call ok(check, 'destroy_eventset')
  call expect(es == PAPI_NULL, 'destroy_eventset sets PAPI_NULL')
  call PAPIF_shutdown()

  call verdict('t_module_counts')

contains

  subroutine ok(code_, what)
    integer(c_int), intent(in) :: code_
    character(len=*), intent(in) :: what
    call expect(code_ == PAPI_OK, what)
    if (code_ /= PAPI_OK) print '(a,i0)', '    returned ', code_
  end subroutine ok
end program t_module_counts
