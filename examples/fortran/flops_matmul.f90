! flops_matmul: floating-point operations and MFLOP/s of a matrix multiply with
! PAPIF_flops (`use papi`). The first call starts counting; each later call gives the
! totals since then and the rate since the previous call.
program flops_matmul
  use papi
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  real(dp), allocatable :: a(:, :), b(:, :), c(:, :)
  real(c_float) :: rtime, ptime, mflops
  integer(c_long_long) :: flpops, values(1)
  integer(c_int) :: check, ret
  character(len=PAPI_MAX_STR_LEN) :: message
  integer :: n, i, j, k

  check = PAPI_VER_CURRENT
  call PAPIF_library_init(check)
  if (check /= PAPI_VER_CURRENT) error stop 'PAPIF_library_init failed'
  call PAPIF_flops(rtime, ptime, flpops, mflops, check)
  if (check /= PAPI_OK) then
    call PAPIF_perror(check, message, ret)
    print '(2a)', 'PAPIF_flops cannot count here: ', trim(message)
    stop 2
  end if
  print '(a6, 3a12, a14)', 'n', 'real s', 'process s', 'flpops', 'MFLOP/s'
  do n = 50, 250, 50
    allocate (a(n, n), b(n, n), c(n, n))
    a = 1.0_dp
    b = 2.0_dp
    c = 0.0_dp
    do j = 1, n
      do k = 1, n
        do i = 1, n
          c(i, j) = c(i, j) + a(i, k) * b(k, j)
        end do
      end do
    end do
    call PAPIF_flops(rtime, ptime, flpops, mflops, check)
    if (check /= PAPI_OK) error stop 'PAPIF_flops failed'
    print '(i6, 2f12.6, i12, f14.3)', n, rtime, ptime, flpops, mflops
    if (abs(c(n, n) - 2.0_dp * n) > 0.5_dp) error stop 'wrong product'
    deallocate (a, b, c)
  end do
  call PAPIF_stop_counters(values, 0_c_int, check)
end program flops_matmul
