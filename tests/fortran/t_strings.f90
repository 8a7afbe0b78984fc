! t_strings: CHARACTER(len=*) conversions of the `use papi` wrappers. Output names are
! blank padded or truncated to the caller's length (8, 64, PAPI_MAX_STR_LEN); input
! names lose their trailing blanks (or stop at a C NUL); too long or empty input gives an
! error code. Expected names come from the C API.
program t_strings
  use papi
  use test_checks
  implicit none
  integer(c_int) :: check, code, native, count, flags, cret
  character(len=8) :: n8
  character(len=64) :: n64
  character(len=PAPI_MAX_STR_LEN) :: nmax, want, msg, cmsg
  character(len=PAPI_HUGE_STR_LEN) :: symbol, long_descr, note
  character(len=16) :: short_descr
  character(len=300) :: too_long

  check = PAPI_VER_CURRENT
  call PAPIF_library_init(check)
  if (check /= PAPI_VER_CURRENT) stop 1

  ! A preset: the name is known.
  call PAPIF_event_code_to_name(PAPI_TOT_INS, n8, check)
  call expect(check == PAPI_OK .and. n8 == 'PAPI_TOT', 'len=8 truncates PAPI_TOT_INS')
  call PAPIF_event_code_to_name(PAPI_TOT_INS, n64, check)
  call expect(n64 == 'PAPI_TOT_INS' .and. len_trim(n64) == 12 .and. n64(13:) == ' ', &
      'len=64 is blank padded')
  call PAPIF_event_code_to_name(PAPI_TOT_INS, nmax, check)
  call expect(nmax == 'PAPI_TOT_INS' .and. len_trim(nmax) == 12, 'len=PAPI_MAX_STR_LEN padded')

  ! A native event: compare with what C says.
  call PAPIF_event_name_to_code('perf::PAGE-FAULTS      ', native, check)
  call expect(check == PAPI_OK, 'name_to_code with trailing blanks')
  call papif_test_c_code_to_name(native, want, cret)
  call expect(cret == PAPI_OK .and. len_trim(want) > 8, 'C knows the native name')
  call PAPIF_event_code_to_name(native, n8, check)
  call expect(check == PAPI_OK .and. n8 == want(1:8), 'native name truncated to 8')
  call PAPIF_event_code_to_name(native, n64, check)
  call expect(n64 == want .and. len_trim(n64) == len_trim(want), 'native name in len=64')
  call PAPIF_event_code_to_name(native, nmax, check)
  call expect(nmax == want, 'native name in len=PAPI_MAX_STR_LEN')
  call PAPIF_event_name_to_code(trim(want), code, check)
  call expect(check == PAPI_OK .and. code == native, 'name_to_code of the returned name')

  ! Input forms: trailing blanks, a C NUL, too long, empty.
  call PAPIF_event_name_to_code('PAPI_TOT_INS   ', code, check)
  call expect(check == PAPI_OK .and. code == PAPI_TOT_INS, 'preset name with blanks')
  call PAPIF_event_name_to_code('PAPI_TOT_INS' // c_null_char // 'junk', code, check)
  call expect(check == PAPI_OK .and. code == PAPI_TOT_INS, 'name ending in C_NULL_CHAR')
  too_long = repeat('x', len(too_long))
  call PAPIF_event_name_to_code(too_long, code, check)
  call expect(check /= PAPI_OK, 'a 300-character name is an error')
  call PAPIF_event_name_to_code('', code, check)
  call expect(check /= PAPI_OK, 'an empty name is an error')

  ! Event info strings.
  call PAPIF_get_event_info(native, symbol, long_descr, short_descr, count, note, flags, check)
  call expect(check == PAPI_OK .and. symbol == want .and. count >= 0, 'get_event_info symbol')
  call expect(len_trim(long_descr) > 0, 'get_event_info long description')

  ! perror (3.5 form): the message of a code, as C prints it.
  call PAPIF_perror(PAPI_EINVAL, msg, check)
  call papif_test_c_strerror(PAPI_EINVAL, cmsg)
  call expect(check == PAPI_OK .and. msg == cmsg .and. len_trim(msg) > 0, 'perror message')
  call PAPIF_perror(PAPI_EINVAL, n8, check)
  call expect(n8 == cmsg(1:8), 'perror truncated to 8')
  ! The 7.x form through the same generic name: prints to stderr.
  call PAPIF_perror('t_strings: the 7.x PAPIF_perror(message) form   ')

  call verdict('t_strings')
end program t_strings
