! t_metric_evaluate: PAPIMF_evaluate, a named metric (papi_metrics(3)) from an event set's
! values, with exact results over given counts. The set holds perf::PAGE-FAULTS, then
! perf::TASK-CLOCK (the metric finds its events in the set by code, in any order).
! Built-in table: CPU_UTILIZATION = task-clock / 1e9 / seconds: 1.5e9 ns over 2 s is 0.75
! CPUs, through the module and through the external entry point; an unknown metric, a
! zero time, a metric whose events are not in the set and an invalid set fail with
! their codes (result is intent(out): the C side writes it only on success). With the argument "table" (run under
! PAPI_METRICS_FILE=t_metric_evaluate.csv): FAULTS_PER_CPU_MS = faults / (task-clock /
! 1e6) over 300 faults and 150 ms is 2, and MIXED = (faults - 100) * 2 / time + 1 over
! 0.5 s is 801.
program t_metric_evaluate
  use papi
  use test_checks
  implicit none
  integer(c_int) :: check, es, bad
  integer(c_long_long) :: values(2)
  real(c_double) :: r
  character(len=16) :: mode
  interface
    subroutine external_evaluate(name, es, values, seconds, result, check)
      character(len=*), intent(in) :: name
      integer, intent(in) :: es
      integer(kind=8), intent(in) :: values(*)
      double precision, intent(in) :: seconds
      double precision, intent(out) :: result
      integer, intent(out) :: check
    end subroutine external_evaluate
  end interface

  mode = ''
  if (command_argument_count() > 0) call get_command_argument(1, mode)
  check = PAPI_VER_CURRENT
  call PAPIF_library_init(check)
  if (check /= PAPI_VER_CURRENT) stop 1
  es = PAPI_NULL
  call PAPIF_create_eventset(es, check)
  call PAPIF_add_named_event(es, 'perf::PAGE-FAULTS', check)
  call expect(check == PAPI_OK, 'add perf::PAGE-FAULTS')
  call PAPIF_add_named_event(es, 'perf::TASK-CLOCK', check)
  call expect(check == PAPI_OK, 'add perf::TASK-CLOCK')

  if (mode == 'table') then
    values = [300_c_long_long, 150000000_c_long_long]
    call PAPIMF_evaluate('FAULTS_PER_CPU_MS', es, values, 1.0_c_double, r, check)
    call expect(check == PAPI_OK .and. same(r, 2.0_c_double), 'FAULTS_PER_CPU_MS = 300 / 150 = 2')
    call PAPIMF_evaluate('MIXED', es, values, 0.5_c_double, r, check)
    call expect(check == PAPI_OK .and. same(r, 801.0_c_double), 'MIXED = (300 - 100) * 2 / 0.5 + 1 = 801')
    print '(a,f0.3)', '    MIXED = ', r
  else
    values = [7_c_long_long, 1500000000_c_long_long]
    call PAPIMF_evaluate('CPU_UTILIZATION', es, values, 2.0_c_double, r, check)
    call expect(check == PAPI_OK .and. same(r, 0.75_c_double), 'CPU_UTILIZATION = 1.5 s / 2 s = 0.75')
    print '(a,f0.4)', '    CPU_UTILIZATION = ', r
    r = -1
    call external_evaluate('CPU_UTILIZATION', es, values, 3.0d0, r, check)
    call expect(check == PAPI_OK .and. same(r, 0.5_c_double), 'external PAPIMF_evaluate: 1.5 s / 3 s = 0.5')
    call PAPIMF_evaluate('NO_SUCH_METRIC', es, values, 2.0_c_double, r, check)
    call expect(check == PAPI_ENOEVNT, 'an unknown metric: PAPI_ENOEVNT')
    call PAPIMF_evaluate('CPU_UTILIZATION', es, values, 0.0_c_double, r, check)
    call expect(check == PAPI_EINVAL, 'zero time: PAPI_EINVAL')
    call PAPIMF_evaluate('IPC', es, values, 2.0_c_double, r, check)
    call expect(check == PAPI_EINVAL, 'IPC, its events not in the set: PAPI_EINVAL')
    bad = es + 1000
    call PAPIMF_evaluate('CPU_UTILIZATION', bad, values, 2.0_c_double, r, check)
    call expect(check == PAPI_ENOEVST, 'an invalid event set: PAPI_ENOEVST')
  end if
  call verdict('t_metric_evaluate')

contains

  ! Exact equality, said so (the results are exact in binary: 0.75, 0.5, 2, 801).
  logical function same(a, b)
    real(c_double), intent(in) :: a, b
    same = .not. (a < b .or. a > b)
  end function same
end program t_metric_evaluate
