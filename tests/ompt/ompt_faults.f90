! ompt_faults.f90: the Fortran twin of ompt_faults.c (check_ompt.py, case faults): after a
! region that starts the team, thread t of 4 writes one byte into each of (t+1) x pages
! pages of its own in an array allocated before (untouched: malloc maps it fresh; huge
! pages advised off), so its page faults in that region are exactly (t+1) x pages.
program ompt_faults
  use omp_lib
  use, intrinsic :: iso_c_binding
  implicit none
  interface
    integer(c_long) function sysconf(name) bind(C, name="sysconf")
      import :: c_long, c_int
      integer(c_int), value :: name
    end function
    integer(c_int) function madvise(addr, length, advice) bind(C, name="madvise")
      import :: c_intptr_t, c_size_t, c_int
      integer(c_intptr_t), value :: addr
      integer(c_size_t), value :: length
      integer(c_int), value :: advice
    end function
  end interface
  integer(c_int), parameter :: sc_pagesize = 30, madv_nohugepage = 15
  integer, parameter :: pages = 64, warmup_line = 34, faults_line = 38
  integer(1), allocatable, target :: buf(:)
  integer(c_intptr_t) :: first_page, last
  integer :: page, t, i, rc

  page = int(sysconf(sc_pagesize))
  allocate(buf(0:(10 * pages + 1) * page - 1))  ! one page more: its start is not aligned
  first_page = (transfer(c_loc(buf(0)), first_page) + page - 1) / page * page
  last = transfer(c_loc(buf(0)), last) + size(buf, kind=c_intptr_t)
  rc = madvise(first_page, int(last - first_page, c_size_t) / page * page, madv_nohugepage)
  i = int(first_page - transfer(c_loc(buf(0)), first_page))  ! the first whole page's index
  ! the directive below is on warmup_line
!$omp parallel num_threads(4)
  call touch(i, 0)
!$omp end parallel
  ! the directive below is on faults_line
!$omp parallel num_threads(4) private(t)
  t = omp_get_thread_num()
  call touch(i + t * (t + 1) / 2 * pages * page, (t + 1) * pages)
!$omp end parallel
  write (*, '(a,7(i0,a))') '{"file": "ompt_faults.f90", "madvise": ', rc, &
    ', "warmup_line": ', warmup_line, ', "faults_line": ', faults_line, ', "pages": [', pages, &
    ', ', 2 * pages, ', ', 3 * pages, ', ', 4 * pages, ']}'
  deallocate(buf)
contains
  subroutine touch(from, n)
    integer, intent(in) :: from, n
    integer :: k
    do k = 0, n - 1
      buf(from + k * page) = 1_1
    end do
  end subroutine
end program
