! bench_fortran_read: ns per PAPIF_read through the module against the C PAPI_read on
! the same event set (perf::PAGE-FAULTS), batches alternated so that both see the same
! machine state. Prints the medians and the median of the per-round ratios (goal <= 1.05).
program bench_fortran_read
  use papi
  use, intrinsic :: iso_c_binding, only: c_double
  implicit none
  integer(c_int), parameter :: BATCH = 200, ROUNDS = 301
  interface
    function bench_now_ns() bind(C) result(t)
      import :: c_long_long
      integer(c_long_long) :: t
    end function bench_now_ns
    function bench_c_read_batch(es, batch) bind(C) result(ns)
      import :: c_int, c_double
      integer(c_int), value :: es, batch
      real(c_double) :: ns
    end function bench_c_read_batch
  end interface
  integer, parameter :: dp = kind(1.0d0)
  real(dp) :: f_ns(ROUNDS), c_ns(ROUNDS), ratio(ROUNDS)
  integer(c_long_long) :: values(4), t0, t1
  integer(c_int) :: check, es, r, i

  check = PAPI_VER_CURRENT
  call PAPIF_library_init(check)
  if (check /= PAPI_VER_CURRENT) stop 1
  es = PAPI_NULL
  call PAPIF_create_eventset(es, check)
  call PAPIF_add_named_event(es, 'perf::PAGE-FAULTS', check)
  if (check /= PAPI_OK) then
    print '(a,i0)', 'SKIPPED: perf::PAGE-FAULTS cannot be added: ', check
    stop 77
  end if
  call PAPIF_start(es, check)
  do r = 1, ROUNDS
    t0 = bench_now_ns()
    do i = 1, BATCH
      call PAPIF_read(es, values, check)
    end do
    t1 = bench_now_ns()
    if (check /= PAPI_OK) stop 1
    f_ns(r) = real(t1 - t0, dp) / BATCH
    c_ns(r) = bench_c_read_batch(es, BATCH)
    if (c_ns(r) < 0) stop 1
    ratio(r) = f_ns(r) / c_ns(r)
  end do
  call PAPIF_stop(es, values, check)
  print '(a,f10.1)', 'PAPIF_read (use papi)  median ns/call: ', median(f_ns)
  print '(a,f10.1)', 'PAPI_read  (C)         median ns/call: ', median(c_ns)
  print '(a,f10.3)', 'Fortran/C, median of per-round ratios:  ', median(ratio)

contains

  function median(x) result(m)
    real(dp), intent(in) :: x(:)
    real(dp) :: m, s(size(x)), t
    integer :: a, b
    s = x
    do a = 2, size(s)  ! insertion sort: a few hundred values
      t = s(a)
      b = a - 1
      do while (b >= 1)
        if (s(b) <= t) exit
        s(b + 1) = s(b)
        b = b - 1
      end do
      s(b + 1) = t
    end do
    m = s((size(s) + 1) / 2)
  end function median
end program bench_fortran_read
