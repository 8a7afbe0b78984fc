!     The 5-7 form, in a file of its own: gfortran rejects two argument lists
!     for one external procedure within one file, and codes use one form.
      SUBROUTINE PERRMSG
      IMPLICIT NONE
      INCLUDE 'f77papi.h'
      CALL PAPIF_PERROR('f77papi.h one-argument form')
      END
