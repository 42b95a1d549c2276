! The storage of the sentinels of the `mpi` and `mpi_f08` modules (runtime/fortran/fortran.h
! says how the bindings recognise them): one BIND(C) variable each, defined once here, in
! libmpifort, and used by both modules. No thread enters it: it is data.
module shl_mpi_sentinels
  implicit none
  private
  integer, bind(C, name="shl_f_bottom"), public :: MPI_BOTTOM
  integer, bind(C, name="shl_f_in_place"), public :: MPI_IN_PLACE
  integer, bind(C, name="shl_f_status_ignore"), public :: MPI_STATUS_IGNORE(8)
  integer, bind(C, name="shl_f_statuses_ignore"), public :: MPI_STATUSES_IGNORE(8, 1)
  integer, bind(C, name="shl_f_errcodes_ignore"), public :: MPI_ERRCODES_IGNORE(1)
  integer, bind(C, name="shl_f_unweighted"), public :: MPI_UNWEIGHTED(1)
  integer, bind(C, name="shl_f_weights_empty"), public :: MPI_WEIGHTS_EMPTY(1)
  integer, bind(C, name="shl_f_buffer_automatic"), public :: MPI_BUFFER_AUTOMATIC
  character(len=1), bind(C, name="shl_f_argv_null"), public :: MPI_ARGV_NULL(1)
  character(len=1), bind(C, name="shl_f_argvs_null"), public :: MPI_ARGVS_NULL(1, 1)
end module shl_mpi_sentinels
