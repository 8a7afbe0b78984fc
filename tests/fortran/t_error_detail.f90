! t_error_detail: why a call failed, whole, in Fortran. Adding an event that does not
! exist, with a 220-character name, fails with PAPI_ENOEVNT; the reason then names the
! whole name (longer than PAPI_MAX_STR_LEN), through `use papi`'s PAPIF_strerror_detail,
! through the external PAPIF_strerror_detail of code without an interface
! (t_error_detail_ext.f90), and equal to C's PAPI_strerror_detail() character for
! character. PAPIF_perror's message form prints it after the message (the ctest greps
! stderr for it); the 3.5 form gives the code's text, as the 3.5 reference says.
program t_error_detail
  use, intrinsic :: iso_c_binding, only: c_ptr, c_char, c_size_t, c_f_pointer, c_associated
  use papi
  use test_checks
  implicit none
  interface
    function c_strerror_detail() bind(C, name='PAPI_strerror_detail') result(p)
      import :: c_ptr
      type(c_ptr) :: p
    end function c_strerror_detail
    function c_strlen(s) bind(C, name='strlen') result(n)
      import :: c_ptr, c_size_t
      type(c_ptr), value :: s
      integer(c_size_t) :: n
    end function c_strlen
  end interface
  integer(c_int) :: check, es, code
  character(len=220) :: name
  character(len=PAPI_HUGE_STR_LEN) :: detail, detail_ext, code_text
  character(len=:), allocatable :: from_c

  check = PAPI_VER_CURRENT
  call PAPIF_library_init(check)
  if (check /= PAPI_VER_CURRENT) stop 1
  es = PAPI_NULL
  call PAPIF_create_eventset(es, check)
  call expect(check == PAPI_OK, 'create_eventset')

  name = 'perf::NO_SUCH_EVENT_' // repeat('Z', 200)
  call PAPIF_add_named_event(es, name, check)
  call expect(check == PAPI_ENOEVNT, 'adding a nonexistent event is PAPI_ENOEVNT')

  call PAPIF_strerror_detail(detail)
  print '(2a)', 'detail: ', trim(detail)
  call expect(len_trim(detail) > PAPI_MAX_STR_LEN, 'the reason is longer than PAPI_MAX_STR_LEN')
  call expect(index(detail, trim(name)) > 0, 'the reason names the whole event name')
  from_c = c_string(c_strerror_detail())
  call expect(len(from_c) > 0 .and. len(from_c) < PAPI_HUGE_STR_LEN, 'C has a reason that fits')
  call expect(trim(detail) == from_c, 'the Fortran reason is C''s, whole')

  call external_detail(detail_ext)
  call expect(detail_ext == detail, 'the external PAPIF_strerror_detail gives the same reason')

  ! The message form says why (stderr: "t_error_detail perror: <reason>").
  call PAPIF_perror('t_error_detail perror')
  ! The 3.5 form: the text of the code.
  code = PAPI_ENOEVNT
  call PAPIF_perror(code, code_text, check)
  call expect(check == PAPI_OK .and. code_text == 'Event does not exist', '3.5 form: the code''s text')

  ! A call that succeeds keeps the last failure's reason (PAPI 7: the last error).
  call PAPIF_add_named_event(es, 'perf::PAGE-FAULTS', check)
  call expect(check == PAPI_OK, 'adding perf::PAGE-FAULTS')
  call PAPIF_strerror_detail(detail_ext)
  call expect(detail_ext == detail, 'a success leaves the reason as it was')

  call PAPIF_cleanup_eventset(es, check)
  call PAPIF_destroy_eventset(es, check)
  call verdict('t_error_detail')

contains

  function c_string(p) result(s)
    type(c_ptr), intent(in) :: p
    character(len=:), allocatable :: s
    character(kind=c_char), pointer :: chars(:)
    integer :: i, n
    s = ''
    if (.not. c_associated(p)) return
    n = int(c_strlen(p))
    call c_f_pointer(p, chars, [n])
    s = repeat(' ', n)
    do i = 1, n
      s(i:i) = chars(i)
    end do
  end function c_string
end program t_error_detail
