! Example: Fortran: what an event set counts: the defaults for new sets, one set's domain
! (user and kernel mode), inheritance by child processes, multiplexing.
! Shows: PAPIF_set_debug PAPIF_set_domain PAPIF_set_granularity PAPIF_set_cmp_domain
! PAPIF_set_cmp_granularity PAPIF_multiplex_init PAPIF_assign_eventset_component
! PAPIF_set_event_domain PAPIF_get_domain PAPIF_get_granularity PAPIF_set_inherit
! PAPIF_set_multiplex PAPIF_get_multiplex
program f_options
  implicit none
#include "fpapi.h"
  integer :: check, es, domain, granularity, multiplexed

  check = PAPI_VER_CURRENT
  call PAPIF_library_init(check)
  if (check /= PAPI_VER_CURRENT) stop 1
  call PAPIF_set_debug(PAPI_QUIET, check)               ! the library prints no errors
  call ok('PAPIF_set_debug')
  call PAPIF_set_domain(PAPI_DOM_USER, check)           ! default of new sets: user mode
  call ok('PAPIF_set_domain')
  call PAPIF_set_granularity(PAPI_GRN_THR, check)       ! and this thread
  call ok('PAPIF_set_granularity')
  call PAPIF_set_cmp_domain(PAPI_DOM_USER, 0, check)    ! the same for component 0 alone
  call ok('PAPIF_set_cmp_domain')
  call PAPIF_set_cmp_granularity(PAPI_GRN_THR, 0, check)
  call ok('PAPIF_set_cmp_granularity')
  call PAPIF_multiplex_init(check)
  call ok('PAPIF_multiplex_init')

  es = PAPI_NULL
  call PAPIF_create_eventset(es, check)
  call ok('PAPIF_create_eventset')
  call PAPIF_assign_eventset_component(es, 0, check)    ! options need the component
  call ok('PAPIF_assign_eventset_component')
  call PAPIF_set_event_domain(es, PAPI_DOM_ALL, check)  ! this set: every mode
  call ok('PAPIF_set_event_domain')
  ! PAPIF_set_inherit sets the option of event set 0, the first one created (this one).
  call PAPIF_set_inherit(PAPI_INHERIT_NONE, check)
  call ok('PAPIF_set_inherit')
  call PAPIF_set_multiplex(es, check)
  call ok('PAPIF_set_multiplex')
  call PAPIF_add_named_event(es, 'perf::PAGE-FAULTS', check)
  call ok('PAPIF_add_named_event')

  call PAPIF_get_domain(es, domain, PAPI_DOMAIN, check)  ! this set's
  call ok('PAPIF_get_domain')
  call PAPIF_get_granularity(es, granularity, PAPI_GRANUL, check)
  call ok('PAPIF_get_granularity')
  call PAPIF_get_multiplex(es, multiplexed)
  print '(a,i0,a,i0,a,i0)', 'domain ', domain, ', granularity ', granularity, &
      ', multiplexed ', multiplexed
  call PAPIF_get_domain(es, domain, PAPI_DEFDOM, check)  ! the default for new sets
  call ok('PAPIF_get_domain')
  print '(a,i0)', 'default domain ', domain

contains

  subroutine ok(what)
    character(len=*), intent(in) :: what
    if (check /= PAPI_OK) then
      call PAPIF_perror(what)
      stop 1
    end if
  end subroutine ok
end program f_options
