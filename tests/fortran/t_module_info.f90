! t_module_info: the `use papi` routines that flatten C structures and options:
! thread_init with a Fortran function, thread_id, locks, dmem (PAPIF_DMEM_* indices),
! exe, hardware info, clock rate, domain and granularity (default and per event set),
! preload, components, and their error codes on bad input.
program t_module_info
  use papi
  use test_checks
  implicit none
  integer(c_int) :: check, es, code, domain, gran, cidx, ncomp, nctr, cr, ncpu, nnodes, &
      totalcpus, vendor, model, want_cpus
  integer(c_long) :: tid
  integer(c_long_long) :: dmem(PAPIF_DMEM_MAXVAL), page, ts, te, ds, de, bs, be, v0, v1
  real(c_float) :: revision, mhz
  character(len=PAPI_MAX_STR_LEN) :: vendor_string, model_string, name, preload
  character(len=PAPI_HUGE_STR_LEN) :: fullname, dev_string, c_name
  integer(c_int) :: dev_type, dev_value

  check = PAPI_VER_CURRENT
  call PAPIF_library_init(check)
  if (check /= PAPI_VER_CURRENT) stop 1

  ! A Fortran function gives the thread ids.
  call PAPIF_thread_init(fortran_thread_id, check)
  call expect(check == PAPI_OK, 'thread_init with a Fortran function')
  call PAPIF_thread_id(tid)
  call expect(tid == 4242_c_long, 'thread_id comes from the Fortran function')
  call PAPIF_register_thread(check)
  call expect(check == PAPI_OK, 'register_thread')
  call PAPIF_lock(PAPI_USR1_LOCK, check)
  call expect(check == PAPI_OK, 'lock')
  call PAPIF_unlock(PAPI_USR1_LOCK, check)
  call expect(check == PAPI_OK, 'unlock')
  call PAPIF_lock(99, check)
  call expect(check == PAPI_EINVAL, 'lock 99 is PAPI_EINVAL')

  ! Memory: the page size is what the system says, the sizes are positive.
  call PAPIF_get_dmem_info(dmem, check)
  call papif_test_page_size(page)
  call expect(check == PAPI_OK, 'get_dmem_info')
  call expect(dmem(PAPIF_DMEM_PAGESIZE) == page, 'PAPIF_DMEM_PAGESIZE is the page size')
  call expect(dmem(PAPIF_DMEM_VMSIZE) > 0 .and. dmem(PAPIF_DMEM_RESIDENT) > 0, &
      'VMSIZE and RESIDENT are positive')
  call expect(dmem(PAPIF_DMEM_VMPEAK) >= dmem(PAPIF_DMEM_VMSIZE), 'VMPEAK >= VMSIZE')

  call PAPIF_get_exe_info(fullname, name, ts, te, ds, de, bs, be, check)
  call expect(check == PAPI_OK, 'get_exe_info')
  call expect(index(fullname, 't_module_info') > 0 .and. fullname(1:1) == '/', &
      'exe full name is the path of this program')
  call expect(name == 't_module_info', 'exe name')
  call expect(te > ts .and. ts > 0, 'text range')

  call PAPIF_get_hardware_info(ncpu, nnodes, totalcpus, vendor, vendor_string, model, &
      model_string, revision, mhz)
  call papif_test_c_hw_totalcpus(want_cpus)
  call expect(totalcpus == want_cpus .and. totalcpus >= 1, 'hardware totalcpus as in C')
  call expect(nnodes >= 1 .and. ncpu >= 1, 'hardware nodes and cpus')
  ! PAPI 7's device API: the CPU type (index 0), one device, named as C's
  ! PAPI_get_dev_attr names it (on x86 the cpuid brand string, which a hypervisor's
  ! /proc/cpuinfo model name may differ from) (attribute values of papi.h: type attr 3 = INT_COUNT, 2 = CHAR_NAME;
  ! device attr 0 = CPU_CHAR_NAME, 20 = CPU_UINT_THREAD_COUNT).
  call PAPIF_enum_dev_type(0, dev_type, check)
  call expect(check == PAPI_OK .and. dev_type == 0, 'enum_dev_type FIRST is the CPU')
  call PAPIF_get_dev_type_attr(dev_type, 3, dev_value, dev_string, check)
  call expect(check == PAPI_OK .and. dev_value == 1, 'one CPU device')
  call PAPIF_get_dev_type_attr(dev_type, 2, dev_value, dev_string, check)
  call expect(check == PAPI_OK .and. trim(dev_string) == trim(vendor_string), 'CPU type is named by its vendor')
  call PAPIF_get_dev_attr(dev_type, 0, 0, dev_value, dev_string, check)
  call papif_test_c_cpu_name(c_name)
  call expect(check == PAPI_OK .and. len_trim(dev_string) > 0 .and. trim(dev_string) == trim(c_name), &
      'CPU device name as in C')
  call PAPIF_get_dev_attr(dev_type, 0, 20, dev_value, dev_string, check)
  call expect(check == PAPI_OK .and. dev_value == totalcpus, 'CPU thread count is totalcpus')
  call PAPIF_get_dev_attr(dev_type, 1, 20, dev_value, dev_string, check)
  call expect(check == PAPI_EINVAL, 'CPU device 1 does not exist')
  call PAPIF_get_clockrate(cr)
  call expect(cr == int(mhz, c_int), 'clock rate is the hardware MHz')

  ! Domains and granularities.
  call PAPIF_get_domain(PAPI_NULL, domain, PAPI_DEFDOM, check)
  call expect(check == PAPI_OK .and. domain == PAPI_DOM_USER, 'default domain is USER')
  call PAPIF_get_granularity(PAPI_NULL, gran, PAPI_DEFGRN, check)
  call expect(check == PAPI_OK .and. gran == PAPI_GRN_THR, 'default granularity is THR')
  es = PAPI_NULL
  call PAPIF_create_eventset(es, check)
  call PAPIF_event_name_to_code('perf::PAGE-FAULTS', code, check)
  call PAPIF_add_event(es, code, check)
  call papif_test_skip_if_refused(check)
  call PAPIF_set_event_domain(es, PAPI_DOM_ALL, check)
  call expect(check == PAPI_OK, 'set_event_domain ALL')
  call PAPIF_get_domain(es, domain, PAPI_DOMAIN, check)
  call expect(check == PAPI_OK .and. domain == PAPI_DOM_ALL, 'event set domain is ALL')
  call PAPIF_get_domain(es, domain, 12345, check)
  call expect(check == PAPI_EINVAL, 'get_domain with a bad mode is PAPI_EINVAL')
  call PAPIF_get_granularity(es, gran, PAPI_GRANUL, check)
  call expect(check == PAPI_OK .and. gran == PAPI_GRN_THR, 'event set granularity')
  call PAPIF_get_domain(12345, domain, PAPI_DOMAIN, check)
  call expect(check == PAPI_ENOEVST, 'domain of a missing event set is PAPI_ENOEVST')

  ! Components.
  call PAPIF_num_components(ncomp)
  call expect(ncomp >= 1, 'at least one component')
  call PAPIF_get_component_index('perf_event   ', cidx, check)
  call expect(check == PAPI_OK .and. cidx >= 0 .and. cidx < ncomp, 'perf_event index')
  call PAPIF_get_component_index('no_such_component', cidx, check)
  call expect(check /= PAPI_OK, 'unknown component is an error')
  call PAPIF_num_hwctrs(nctr)
  call expect(nctr >= 0, 'num_hwctrs')
  call PAPIF_get_preload(preload, check)
  call expect(check == PAPI_OK, 'get_preload')

  ! Timers move forward.
  call PAPIF_get_virt_usec(v0)
  call PAPIF_get_virt_nsec(v1)
  call expect(v0 >= 0 .and. v1 >= v0 * 1000, 'virtual timers')
  call PAPIF_get_real_cyc(v0)
  call PAPIF_get_real_cyc(v1)
  call expect(v1 >= v0, 'real cycles')

  call PAPIF_cleanup_eventset(es, check)
  call PAPIF_destroy_eventset(es, check)
  call PAPIF_unregister_thread(check)
  call verdict('t_module_info')

contains

  function fortran_thread_id() bind(C) result(id)
    integer(c_int) :: id
    id = 4242
  end function fortran_thread_id
end program t_module_info
