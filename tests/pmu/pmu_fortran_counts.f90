! pmu_fortran_counts: `use papi` on the hardware PMU. INST_RETIRED and CPU_CYCLES by
! name; between two loop lengths the instruction counts differ by exactly the extra loop
! instructions, and cycles are exactly 2**shift x instructions (QEMU icount).
program pmu_fortran_counts
  use papi
  use test_checks
  implicit none
  interface
    subroutine pmu_loop_c(n) bind(C, name='pmu_loop_c')
      import :: c_long
      integer(c_long), value :: n
    end subroutine
  end interface
  integer(c_long), parameter :: N1 = 1000_c_long, N2 = 500000_c_long
  integer(c_int) :: check, es, code, shift, round
  integer(c_long_long) :: v1(2), v2(2), c1, c2
  character(len=16) :: env
  integer :: envlen, envstat

  shift = 4
  call get_environment_variable('PMU_ICOUNT_SHIFT', env, envlen, envstat)
  if (envstat == 0) read (env(1:envlen), *) shift

  check = PAPI_VER_CURRENT
  call PAPIF_library_init(check)
  if (check /= PAPI_VER_CURRENT) stop 1
  if (PAPIF_num_hwctrs_value() <= 0) then
    print '(a)', 'SKIPPED: no hardware counters'
    stop 77
  end if
  es = PAPI_NULL
  call PAPIF_create_eventset(es, check)
  call ok(check, 'create_eventset')
  call PAPIF_event_name_to_code('INST_RETIRED', code, check)
  call ok(check, 'event_name_to_code INST_RETIRED')
  call PAPIF_add_event(es, code, check)
  call ok(check, 'add INST_RETIRED')
  call PAPIF_event_name_to_code('CPU_CYCLES', code, check)
  call ok(check, 'event_name_to_code CPU_CYCLES')
  call PAPIF_add_event(es, code, check)
  call ok(check, 'add CPU_CYCLES')

  do round = 1, 2 ! round 1 maps the code pages and resolves lazy bindings
    call measure(N1, v1)
    call measure(N2, v2)
  end do
  c1 = v1(1) - 2 * N1
  c2 = v2(1) - 2 * N2
  call expect(c1 == c2, 'the same constant for both loop lengths')
  call expect(c1 >= 0 .and. c1 < 2000, 'a small constant')
  call expect(v1(2) == v1(1) * 2_c_long_long**shift, 'cycles = 2**shift x instructions (N1)')
  call expect(v2(2) == v2(1) * 2_c_long_long**shift, 'cycles = 2**shift x instructions (N2)')
  print '(a,i0,a,i0,a,i0,a,i0,a,i0)', 'pmu_fortran_counts: n=', N2, ' inst=', v2(1), &
    ' (loop + ', c2, ') cyc=', v2(2), ' shift=', shift
  call PAPIF_cleanup_eventset(es, check)
  call PAPIF_destroy_eventset(es, check)
  call verdict('pmu_fortran_counts')

contains

  subroutine measure(n, v)
    integer(c_long), intent(in) :: n
    integer(c_long_long), intent(out) :: v(2)
    call PAPIF_start(es, check)
    call pmu_loop_c(n)
    call PAPIF_stop(es, v, check)
    call ok(check, 'start/stop')
  end subroutine

  integer(c_int) function PAPIF_num_hwctrs_value() result(n)
    call PAPIF_num_hwctrs(n)
  end function

  subroutine ok(ret, what)
    integer(c_int), intent(in) :: ret
    character(len=*), intent(in) :: what
    if (ret /= PAPI_OK) then
      print '(a,a,a,i0)', 'FAIL ', what, ': ', ret
      failures = failures + 1
    end if
  end subroutine
end program
