! Example: Fortran with the include file (no module, no interface): count page faults
! with one event set, read, accumulate, reset, list and remove events.
! Shows: PAPIF_library_init PAPIF_is_initialized PAPIF_get_dmem_info PAPIF_create_eventset
! PAPIF_query_named_event PAPIF_add_named_event PAPIF_event_name_to_code PAPIF_query_event
! PAPIF_add_event PAPIF_start PAPIF_read PAPIF_read_ts PAPIF_accum PAPIF_reset PAPIF_state
! PAPIF_stop PAPIF_write PAPIF_list_events PAPIF_num_events PAPIF_remove_named_event
! PAPIF_remove_event PAPIF_add_events PAPIF_remove_events PAPIF_cleanup_eventset
! PAPIF_destroy_eventset PAPIF_shutdown PAPIF_perror
program f_eventset
  implicit none
#include "fpapi.h"
  integer :: es, code, check, status, level, n, list(2)
  integer(kind=8) :: v(2), acc(2), cyc, dmem(PAPIF_DMEM_MAXVAL), page, next
  integer(kind=1), allocatable, volatile :: mem(:)

  check = PAPI_VER_CURRENT
  call PAPIF_library_init(check)
  if (check /= PAPI_VER_CURRENT) stop 1
  call PAPIF_is_initialized(level)
  if (level /= PAPI_LOW_LEVEL_INITED) stop 1
  ! Fresh memory to touch: each page faults once, the first time it is written.
  call PAPIF_get_dmem_info(dmem, check)
  call ok('PAPIF_get_dmem_info')
  page = dmem(PAPIF_DMEM_PAGESIZE)
  allocate(mem(201 * page))
  next = page + 1   ! the first page holds the allocator's header: touched already

  es = PAPI_NULL
  call PAPIF_create_eventset(es, check)
  call ok('PAPIF_create_eventset')
  call PAPIF_query_named_event('perf::PAGE-FAULTS', check)
  call ok('PAPIF_query_named_event')
  call PAPIF_add_named_event(es, 'perf::PAGE-FAULTS', check)
  call ok('PAPIF_add_named_event')
  call PAPIF_event_name_to_code('perf::TASK-CLOCK', code, check)
  call ok('PAPIF_event_name_to_code')
  call PAPIF_query_event(code, check)
  call ok('PAPIF_query_event')
  call PAPIF_add_event(es, code, check)
  call ok('PAPIF_add_event')

  acc = 0
  call PAPIF_start(es, check)
  call ok('PAPIF_start')
  call touch_pages(100)
  call PAPIF_read(es, v, check)           ! running totals; it keeps counting
  call ok('PAPIF_read')
  call PAPIF_read_ts(es, v, cyc, check)   ! the same, with the time of the read
  call ok('PAPIF_read_ts')
  call PAPIF_accum(es, acc, check)        ! acc = acc + counts, counters restart
  call ok('PAPIF_accum')
  call touch_pages(20)
  call PAPIF_reset(es, check)             ! the 20 are forgotten
  call ok('PAPIF_reset')
  call touch_pages(50)
  call PAPIF_state(es, status, check)
  call ok('PAPIF_state')
  call PAPIF_stop(es, v, check)
  call ok('PAPIF_stop')
  print '(a,i0,a,i0,a,l1)', 'page faults: ', acc(1), ', then ', v(1), &
      ' after a reset; running: ', iand(status, PAPI_RUNNING) /= 0
  call PAPIF_write(es, v, check)
  call ok('PAPIF_write')

  n = 2
  call PAPIF_list_events(es, list, n, check)
  call ok('PAPIF_list_events')
  call PAPIF_num_events(es, n)
  print '(i0,a)', n, ' events in the set'
  call PAPIF_remove_named_event(es, 'perf::PAGE-FAULTS', check)
  call ok('PAPIF_remove_named_event')
  call PAPIF_remove_event(es, code, check)
  call ok('PAPIF_remove_event')
  call PAPIF_add_events(es, list, 2, check)     ! both back at once
  call ok('PAPIF_add_events')
  call PAPIF_remove_events(es, list, 2, check)
  call ok('PAPIF_remove_events')
  call PAPIF_cleanup_eventset(es, check)
  call ok('PAPIF_cleanup_eventset')
  call PAPIF_destroy_eventset(es, check)
  call ok('PAPIF_destroy_eventset')
  call PAPIF_shutdown()
  call PAPIF_is_initialized(level)
  print '(a,i0)', 'after PAPIF_shutdown: initialised ', level

contains

  ! Stop with the reason the library recorded when the last call failed.
  subroutine ok(what)
    character(len=*), intent(in) :: what
    if (check /= PAPI_OK) then
      call PAPIF_perror(what)
      stop 1
    end if
  end subroutine ok

  ! Touch n pages never touched before: exactly n page faults.
  subroutine touch_pages(n)
    integer, intent(in) :: n
    integer :: i
    do i = 1, n
      mem(next) = 1
      next = next + page
    end do
  end subroutine touch_pages
end program f_eventset
