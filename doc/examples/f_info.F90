! Example: Fortran: the machine, the program, the components, the events and the clocks.
! Shows: PAPIF_get_hardware_info PAPIF_get_clockrate PAPIF_num_hwctrs PAPIF_num_components
! PAPIF_get_component_index PAPIF_num_cmp_hwctrs PAPIF_enum_dev_type PAPIF_get_dev_type_attr
! PAPIF_get_dev_attr PAPIF_get_exe_info PAPIF_get_preload PAPIF_enum_event
! PAPIF_get_event_info PAPIF_event_code_to_name PAPIF_get_real_cyc PAPIF_get_real_usec
! PAPIF_get_real_nsec PAPIF_get_virt_cyc PAPIF_get_virt_usec PAPIF_get_virt_nsec
program f_info
  implicit none
#include "fpapi.h"
  ! PAPI 7's device API in numbers (papi.h's enums; fpapi.h has no names for them).
  integer, parameter :: DEV_TYPE_FIRST = 0, DEV_TYPE_ATTR_COUNT = 3, DEV_ATTR_CPU_NAME = 0, &
      DEV_ATTR_CPU_THREADS = 20
  integer :: check, ncpu, nnodes, totalcpus, vendor, model, cr, nctr, ncomp, cidx, code, &
      count, flags, handle, value, presets
  real :: revision, mhz
  character(len=PAPI_MAX_STR_LEN) :: vendor_string, model_string, name, preload, symbol, &
      short_descr
  character(len=PAPI_HUGE_STR_LEN) :: fullname, long_descr, note, dev_string
  integer(kind=8) :: ts, te, ds, de, bs, be, r0, r1, n0, n1, c0, c1, v0, v1, vn, vc

  check = PAPI_VER_CURRENT
  call PAPIF_library_init(check)
  if (check /= PAPI_VER_CURRENT) stop 1

  call PAPIF_get_hardware_info(ncpu, nnodes, totalcpus, vendor, vendor_string, model, &
      model_string, revision, mhz)
  call PAPIF_get_clockrate(cr)
  call PAPIF_num_hwctrs(nctr)
  print '(a,a,i0,a,i0,a,i0,a)', trim(model_string), ': ', totalcpus, ' CPUs, ', cr, ' MHz, ', &
      nctr, ' hardware counters'
  if (totalcpus < 1 .or. cr /= int(mhz)) stop 1

  call PAPIF_num_components(ncomp)
  call PAPIF_get_component_index('perf_event', cidx, check)
  if (check /= PAPI_OK) stop 1
  call PAPIF_num_cmp_hwctrs(cidx, nctr)
  print '(i0,a,i0,a,i0,a)', ncomp, ' components; perf_event is ', cidx, ' with ', nctr, &
      ' hardware counters'

  ! The CPU as a device: how many, its name, its hardware threads.
  call PAPIF_enum_dev_type(DEV_TYPE_FIRST, handle, check)
  if (check /= PAPI_OK) stop 1
  call PAPIF_get_dev_type_attr(handle, DEV_TYPE_ATTR_COUNT, value, dev_string, check)
  if (check /= PAPI_OK .or. value /= 1) stop 1
  call PAPIF_get_dev_attr(handle, 0, DEV_ATTR_CPU_NAME, value, dev_string, check)
  if (check /= PAPI_OK) stop 1
  call PAPIF_get_dev_attr(handle, 0, DEV_ATTR_CPU_THREADS, value, name, check)
  if (check /= PAPI_OK) stop 1
  print '(a,a,a,i0,a,l1)', 'CPU device: ', trim(dev_string), ', ', value, &
      ' threads, as totalcpus: ', value == totalcpus

  call PAPIF_get_exe_info(fullname, name, ts, te, ds, de, bs, be, check)
  if (check /= PAPI_OK) stop 1
  print '(a,a,a,l1)', 'program ', trim(name), ', text before data: ', ts < te .and. te <= de
  call PAPIF_get_preload(preload, check)
  if (check /= PAPI_OK) stop 1

  ! Every preset defined for this machine; then one native event by name.
  presets = 0
  code = PAPI_PRESET_MASK
  call PAPIF_enum_event(code, PAPI_ENUM_FIRST, check)
  do while (check == PAPI_OK)
    call PAPIF_get_event_info(code, symbol, long_descr, short_descr, count, note, flags, check)
    if (check == PAPI_OK .and. count > 0) presets = presets + 1
    call PAPIF_enum_event(code, PAPI_ENUM_EVENTS, check)
  end do
  print '(i0,a)', presets, ' presets are defined for this machine'
  call PAPIF_event_name_to_code('perf::PAGE-FAULTS', code, check)
  if (check /= PAPI_OK) stop 1
  call PAPIF_event_code_to_name(code, symbol, check)
  call PAPIF_get_event_info(code, symbol, long_descr, short_descr, count, note, flags, check)
  if (check /= PAPI_OK) stop 1
  print '(a,a)', 'native event ', trim(symbol)

  ! Clocks: real (wall-clock) and virtual (this thread's CPU time).
  call PAPIF_get_real_usec(r0)
  call PAPIF_get_real_nsec(n0)
  call PAPIF_get_real_cyc(c0)
  call PAPIF_get_virt_usec(v0)
  call busy(50000_8)
  call PAPIF_get_real_usec(r1)
  call PAPIF_get_real_nsec(n1)
  call PAPIF_get_real_cyc(c1)
  call PAPIF_get_virt_usec(v1)
  call PAPIF_get_virt_nsec(vn)
  call PAPIF_get_virt_cyc(vc)
  print '(a,l1,a,l1,a,l1)', 'clocks moved: real ', r1 > r0 .and. n1 > n0 .and. c1 > c0, &
      ', virtual ', v1 >= v0 .and. vn > 0 .and. vc > 0, ', virtual within real ', v1 - v0 <= r1 - r0 + 1000

contains

  ! At least usec microseconds of real time, spent computing.
  subroutine busy(usec)
    integer(kind=8), intent(in) :: usec
    integer(kind=8) :: t0, t
    real, volatile :: x
    x = 0
    call PAPIF_get_real_usec(t0)
    t = t0
    do while (t - t0 < usec)
      x = x + 1.0
      call PAPIF_get_real_usec(t)
    end do
  end subroutine busy
end program f_info
