#!/bin/bash
# mpicc_static_refused: mpicc -static is refused with a non-zero status and a message (a rank program must be a loadable shared object), and produces no file.
. "$SHOAL_TESTS/lib/common.bash"
cd "$TEST_TMP"
printf '#include <mpi.h>\nint main(int c, char **v) { MPI_Init(&c, &v); MPI_Finalize(); return 0; }\n' >s.c
run "$MPICC" -static -o s s.c
expect_nonzero
expect_err 'static'
[ -e s ] && fail "mpicc -static produced a program"
exit 0
