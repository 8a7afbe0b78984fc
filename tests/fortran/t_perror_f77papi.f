!     t_perror_f77papi: both forms of PAPIF_perror with no interface, through
!     INCLUDE 'f77papi.h', linked with -lpapi alone (run_perror_forms.sh checks).
      PROGRAM TPERR7
      IMPLICIT NONE
      INCLUDE 'f77papi.h'
      INTEGER CHECK
      CHARACTER*256 DEST
      CHECK = PAPI_VER_CURRENT
      CALL PAPIF_LIBRARY_INIT(CHECK)
      IF (CHECK .NE. PAPI_VER_CURRENT) STOP 1
      CALL PAPIF_PERROR(PAPI_EINVAL, DEST, CHECK)
      IF (CHECK .NE. PAPI_OK) STOP 2
      PRINT '(A,A)', 'three-argument form: ', TRIM(DEST)
      CALL PERRMSG
      PRINT '(A)', 'perror forms: done'
      END
