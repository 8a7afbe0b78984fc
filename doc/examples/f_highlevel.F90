! Example: Fortran: the high-level calls: regions (PAPI 7), rates, and the 3.5 counter
! calls. work(n) touches n fresh pages; with the preset table of
! tests/highlevel/test_events.csv (PAPI_CSV_EVENT_FILE), which maps the presets onto page
! faults, every count is exact on any machine (with transparent huge pages "always", run
! it with them off for the process, as the tests do: one fault would map 2 MB); without
! it a machine without a hardware PMU has no PAPI_FP_OPS and the rate calls return
! PAPI_ENOEVNT.
! Shows: PAPIF_hl_region_begin PAPIF_hl_read PAPIF_hl_region_end PAPIF_hl_stop
! PAPIF_flops_rate PAPIF_flips_rate PAPIF_ipc PAPIF_epc PAPIF_rate_stop PAPIF_flops
! PAPIF_flips PAPIF_num_counters PAPIF_start_counters PAPIF_read_counters
! PAPIF_accum_counters PAPIF_stop_counters
program f_highlevel
  implicit none
#include "fpapi.h"
  integer :: check, n, events(2)
  real :: rtime, ptime, rate
  integer(kind=8) :: ops, ref, core, evt, counts(2), more(2), last(2), dmem(PAPIF_DMEM_MAXVAL), &
      page, next
  integer(kind=1), allocatable, volatile :: mem(:)

  check = PAPI_VER_CURRENT
  call PAPIF_library_init(check)
  if (check /= PAPI_VER_CURRENT) stop 1
  call PAPIF_get_dmem_info(dmem, check)
  page = dmem(PAPIF_DMEM_PAGESIZE)
  allocate(mem(1001 * page))
  next = page + 1   ! the first page holds the allocator's header: touched already

  ! Regions: a report at exit under PAPI_OUTPUT_DIRECTORY/papi_hl_output.
  call PAPIF_hl_region_begin('compute', check)
  if (check /= PAPI_OK) stop 1
  call work(100)
  call PAPIF_hl_read('compute', check)
  call work(50)
  call PAPIF_hl_region_end('compute', check)
  if (check /= PAPI_OK) stop 1
  call PAPIF_hl_stop(check)
  if (check /= PAPI_OK) stop 1
  print '(a)', 'region compute: measured'

  ! Rates: the first call starts, each later one returns the totals.
  call PAPIF_flops_rate(PAPI_FP_OPS, rtime, ptime, ops, rate, check)
  if (counted('PAPIF_flops_rate')) then
    call work(100)
    call PAPIF_flops_rate(PAPI_FP_OPS, rtime, ptime, ops, rate, check)
    print '(a,i0,a)', 'PAPIF_flops_rate: ', ops, ' operations'
    call PAPIF_rate_stop(check)
  end if
  call PAPIF_flips_rate(PAPI_FP_INS, rtime, ptime, ops, rate, check)
  if (counted('PAPIF_flips_rate')) then
    call work(60)
    call PAPIF_flips_rate(PAPI_FP_INS, rtime, ptime, ops, rate, check)
    print '(a,i0,a)', 'PAPIF_flips_rate: ', ops, ' instructions'
    call PAPIF_rate_stop(check)
  end if
  call PAPIF_ipc(rtime, ptime, ops, rate, check)
  if (counted('PAPIF_ipc')) then
    call work(80)
    call PAPIF_ipc(rtime, ptime, ops, rate, check)
    print '(a,i0,a,f4.2,a)', 'PAPIF_ipc: ', ops, ' instructions, ', rate, ' per cycle'
    call PAPIF_rate_stop(check)
  end if
  call PAPIF_epc(PAPI_FP_OPS, rtime, ptime, ref, core, evt, rate, check)
  if (counted('PAPIF_epc')) then
    call work(40)
    call PAPIF_epc(PAPI_FP_OPS, rtime, ptime, ref, core, evt, rate, check)
    print '(a,i0,a,i0,a,i0,a)', 'PAPIF_epc: ', evt, ' events, ', core, ' cycles, ', ref, &
        ' reference cycles'
    call PAPIF_rate_stop(check)
  end if

  ! The 3.5 calls.
  call PAPIF_flops(rtime, ptime, ops, rate, check)
  if (counted('PAPIF_flops')) then
    call work(30)
    call PAPIF_flops(rtime, ptime, ops, rate, check)
    print '(a,i0,a)', 'PAPIF_flops: ', ops, ' operations'
    call PAPIF_stop_counters(last, 0, check)
  end if
  call PAPIF_flips(rtime, ptime, ops, rate, check)
  if (counted('PAPIF_flips')) then
    call work(20)
    call PAPIF_flips(rtime, ptime, ops, rate, check)
    print '(a,i0,a)', 'PAPIF_flips: ', ops, ' instructions'
    call PAPIF_stop_counters(last, 0, check)
  end if
  call PAPIF_num_counters(n)
  print '(i0,a)', n, ' hardware counters'
  events = [PAPI_TOT_INS, PAPI_TOT_CYC]
  call PAPIF_start_counters(events, 2, check)
  if (counted('PAPIF_start_counters')) then
    call work(10)
    call PAPIF_read_counters(counts, 2, check)   ! read, and restart from zero
    call work(10)
    more = 0
    call PAPIF_accum_counters(more, 2, check)    ! add to more, restart
    call work(10)
    call PAPIF_stop_counters(last, 2, check)
    if (check /= PAPI_OK) stop 1
    print '(a,i0,a,i0,a,i0,a)', 'PAPIF_start_counters: ', counts(1), ', ', more(1), ', ', &
        last(1), ' instructions'
  end if

contains

  ! PAPI_ENOEVNT (the event cannot be counted here) is told and skipped; other errors stop.
  logical function counted(what)
    character(len=*), intent(in) :: what
    counted = check == PAPI_OK
    if (check /= PAPI_OK .and. check /= PAPI_ENOEVNT) then
      call PAPIF_perror(what)
      stop 1
    end if
    if (.not. counted) print '(a,a)', what, ': not counted here'
  end function counted

  ! Touch n pages never touched before: n page faults.
  subroutine work(n)
    integer, intent(in) :: n
    integer :: i
    do i = 1, n
      mem(next) = 1
      next = next + page
    end do
  end subroutine work
end program f_highlevel
