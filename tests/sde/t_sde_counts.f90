! t_sde_counts: the test library's software-defined events (sde_testlib.c) counted
! through `use papi`, exact: a registered, a callback and a created counter (DELTA), a
! SUM group, and an INSTANT created counter.
program t_sde_counts
  use papi
  use test_checks
  implicit none
  interface
    integer(c_int) function sdetest_setup() bind(C, name='sdetest_setup')
      import :: c_int
    end function sdetest_setup
    subroutine sdetest_work(n) bind(C, name='sdetest_work')
      import :: c_int
      integer(c_int), value :: n
    end subroutine sdetest_work
  end interface
  character(len=*), parameter :: names(5) = [character(len=24) :: &
    'sde:::sdetest::REG_LL', 'sde:::sdetest::CB', 'sde:::sdetest::CREATED', &
    'sde:::sdetest::TOTAL', 'sde:::sdetest::LEVEL']
  integer(c_long_long), parameter :: want(5) = [10_c_long_long, 60_c_long_long, &
    20_c_long_long, 30_c_long_long, 14_c_long_long]
  integer(c_int) :: check, es, e
  integer(c_long_long) :: v(5)

  check = PAPI_VER_CURRENT
  call PAPIF_library_init(check)
  call expect(check == PAPI_VER_CURRENT, 'library_init')
  call expect(sdetest_setup() == 0, 'sdetest_setup')
  es = PAPI_NULL
  call PAPIF_create_eventset(es, check)
  call expect(check == PAPI_OK, 'create_eventset')
  do e = 1, size(names)
    call PAPIF_add_named_event(es, trim(names(e)), check)
    call expect(check == PAPI_OK, 'add '//trim(names(e)))
  end do
  call sdetest_work(4_c_int)
  call PAPIF_start(es, check)
  call expect(check == PAPI_OK, 'start')
  call sdetest_work(10_c_int)
  call PAPIF_stop(es, v, check)
  call expect(check == PAPI_OK, 'stop')
  do e = 1, size(names)
    call expect_count(v(e), want(e), trim(names(e)))
  end do
  call verdict('t_sde_counts')
end program t_sde_counts
