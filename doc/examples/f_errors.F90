! Example: Fortran: what went wrong: the text of an error code (PAPI 3's PAPIF_perror with
! three arguments), a message with the library's reason on stderr, and the reason itself.
! Shows: PAPIF_perror PAPIF_perror_message PAPIF_strerror_detail
program f_errors
  implicit none
#include "fpapi.h"
  integer :: check, es
  character(len=PAPI_MAX_STR_LEN) :: text
  character(len=PAPI_HUGE_STR_LEN) :: detail

  check = PAPI_VER_CURRENT
  call PAPIF_library_init(check)
  if (check /= PAPI_VER_CURRENT) stop 1
  es = PAPI_NULL
  call PAPIF_create_eventset(es, check)
  call PAPIF_add_named_event(es, 'perf::NO-SUCH-EVENT', check)
  if (check /= PAPI_ENOEVNT) stop 1
  call PAPIF_perror(check, text, check)        ! the text of the code, into text
  if (check /= PAPI_OK) stop 1
  print '(a,a)', 'PAPIF_perror: ', trim(text)
  call PAPIF_strerror_detail(detail)           ! why (an extension of this library)
  print '(a,l1)', 'the reason names the event: ', index(detail, 'perf::NO-SUCH-EVENT') > 0
  call PAPIF_perror_message('adding the event')  ! message: text and reason, on stderr
end program f_errors
