#!/bin/bash
# fortran_callbacks_attributes: attribute copy/delete callbacks written in Fortran, the predefined MPI_*_DUP_FN / NULL_COPY_FN, MPI-1 attributes, predefined attributes read from Fortran as values (MPI_TAG_UB, MPI_WIN_*), values crossing between C and Fortran, and MPI_Type_match_size from Fortran (tests/fortran_callbacks_attributes.f90 with a C part built here), at 1 and 4 ranks.
# timeout: 120
. "$SHOAL_TESTS/lib/common.bash"
name=fortran_callbacks_attributes
cat >"$TEST_TMP/cpart.c" <<'C'
#include <stdint.h>
#include <mpi.h>

static int value_in_c = 17;

/* Sets the attribute to a C pointer and says its address. */
void c_set_pointer(MPI_Fint *comm, MPI_Fint *keyval, MPI_Aint *addr)
{
	MPI_Comm_set_attr(MPI_Comm_f2c(*comm), *keyval, &value_in_c);
	*addr = (MPI_Aint)&value_in_c;
}

/* 1 when C reads the attribute as a pointer whose value is `want`. */
int c_reads_value(MPI_Fint *comm, MPI_Fint *keyval, MPI_Aint *want)
{
	void *v = NULL;
	int flag = 0;

	MPI_Comm_get_attr(MPI_Comm_f2c(*comm), *keyval, &v, &flag);
	return flag && (MPI_Aint)v == *want;
}
C
"$MPICC" -g -c -o "$TEST_TMP/cpart.o" "$TEST_TMP/cpart.c" >"$TEST_TMP/build.log" 2>&1 &&
"$SHOAL_BUILD/bin/mpifort" -O1 -g -J "$TEST_TMP" -o "$TEST_TMP/$name" "$SHOAL_TESTS/$name.f90" \
	"$TEST_TMP/cpart.o" >>"$TEST_TMP/build.log" 2>&1 || { cat "$TEST_TMP/build.log"; fail "could not build $name"; }
for n in 1 4; do
	run -t 60 "$MPIEXEC" -n $n "$TEST_TMP/$name"
	expect_rc 0
	expect_out_count '^ok$' $n
done
exit 0
