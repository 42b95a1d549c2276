#!/bin/bash
# fortran_f08_section_error_names_the_call: a non-contiguous section that mpi_f08 cannot
# describe without a copy (a datatype of two elements), given to a nonblocking call, is
# MPI_ERR_BUFFER: under MPI_ERRORS_RETURN the call returns a code of that class whose string
# names MPI_Isend and MPI_SUBARRAYS_SUPPORTED, and the buffer is not touched; under the
# default handler the job ends with that message.
. "$SHOAL_TESTS/lib/common.bash"

cat >"$TEST_TMP/secterr.f90" <<'SRC'
program secterr
  use mpi_f08
  implicit none
  double precision :: a(10, 2)
  type(MPI_Datatype) :: pair
  type(MPI_Request) :: req
  character(len=MPI_MAX_ERROR_STRING) :: text
  integer :: ierr, cls, len
  character(len=8) :: mode

  call get_command_argument(1, mode)
  call MPI_Init()
  call MPI_Type_contiguous(2, MPI_DOUBLE, pair)
  call MPI_Type_commit(pair)
  a = 1
  if (mode == 'return') call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  call MPI_Isend(a(1:10:2, 1), 2, pair, 0, 0, MPI_COMM_WORLD, req, ierr)
  call MPI_Error_class(ierr, cls)
  call MPI_Error_string(ierr, text, len)
  print '(a, i0)', 'class ', cls
  print '(a)', text(1:len)
  if (cls == MPI_ERR_BUFFER .and. req == MPI_REQUEST_NULL .and. mode == 'return') &
    print '(a)', 'error returned'
  call MPI_Finalize()
end program secterr
SRC
build_fortran secterr -g "$TEST_TMP/secterr.f90"

run "$MPIEXEC" -n 1 "$TEST_TMP/secterr" return
expect_rc 0
expect_out "error returned"
expect_out "MPI_Isend: buf is a non-contiguous array section.*MPI_SUBARRAYS_SUPPORTED"

run "$MPIEXEC" -n 2 "$TEST_TMP/secterr" fatal
expect_nonzero
expect_err "rank [01]: .*MPI_Isend: buf is a non-contiguous"
