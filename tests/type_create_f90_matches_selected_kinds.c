/* type_create_f90_matches_selected_kinds: MPI_Type_create_f90_integer/real/complex answer
 * the size of gfortran's SELECTED_INT_KIND / SELECTED_REAL_KIND, the same handle for the
 * same arguments, combiner MPI_COMBINER_F90_* with the arguments as contents, reduce like
 * their base type, and MPI_ERR_ARG for a range no kind has. */
/* ranks: 1 4 */
#include "check.h"

static MPI_Datatype f90(int comb, int p, int r, int bytes)
{
	MPI_Datatype t, again;
	int n, ni, na, nd, c, ints[2];

	if (comb == MPI_COMBINER_F90_INTEGER) {
		CHECK_MPI(MPI_Type_create_f90_integer(r, &t));
		CHECK_MPI(MPI_Type_create_f90_integer(r, &again));
	} else if (comb == MPI_COMBINER_F90_REAL) {
		CHECK_MPI(MPI_Type_create_f90_real(p, r, &t));
		CHECK_MPI(MPI_Type_create_f90_real(p, r, &again));
	} else {
		CHECK_MPI(MPI_Type_create_f90_complex(p, r, &t));
		CHECK_MPI(MPI_Type_create_f90_complex(p, r, &again));
	}
	CHECK(t == again);
	CHECK_MPI(MPI_Type_size(t, &n));
	CHECK_INT(n, bytes);
	CHECK_MPI(MPI_Type_get_envelope(t, &ni, &na, &nd, &c));
	CHECK_INT(c, comb);
	CHECK_INT(na, 0);
	CHECK_INT(nd, 0);
	CHECK_INT(ni, comb == MPI_COMBINER_F90_INTEGER ? 1 : 2);
	CHECK_MPI(MPI_Type_get_contents(t, 2, 0, 0, ints, NULL, NULL));
	if (comb == MPI_COMBINER_F90_INTEGER) {
		CHECK_INT(ints[0], r);
	} else {
		CHECK_INT(ints[0], p);
		CHECK_INT(ints[1], r);
	}
	return t;
}

int main(int argc, char **argv)
{
	MPI_Datatype t;
	int rank, size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
	f90(MPI_COMBINER_F90_INTEGER, 0, 2, 1);
	f90(MPI_COMBINER_F90_INTEGER, 0, 4, 2);
	t = f90(MPI_COMBINER_F90_INTEGER, 0, 9, 4);
	f90(MPI_COMBINER_F90_INTEGER, 0, 18, 8);
	f90(MPI_COMBINER_F90_INTEGER, 0, 38, 16);
	f90(MPI_COMBINER_F90_REAL, 6, MPI_UNDEFINED, 4);
	f90(MPI_COMBINER_F90_REAL, 15, 300, 8);
	f90(MPI_COMBINER_F90_REAL, MPI_UNDEFINED, 1000, 16);  /* REAL(10): x87, 16 bytes */
	f90(MPI_COMBINER_F90_REAL, 33, MPI_UNDEFINED, 16);
	f90(MPI_COMBINER_F90_COMPLEX, 6, 37, 8);
	f90(MPI_COMBINER_F90_COMPLEX, 15, MPI_UNDEFINED, 16);
	f90(MPI_COMBINER_F90_COMPLEX, 30, MPI_UNDEFINED, 32);

	int v = rank + 1, sum = 0;
	CHECK_MPI(MPI_Allreduce(&v, &sum, 1, t, MPI_SUM, MPI_COMM_WORLD));
	CHECK_INT(sum, size * (size + 1) / 2);
	MPI_Datatype r8 = f90(MPI_COMBINER_F90_REAL, 15, 300, 8);
	double d = rank, dmax = -1;
	CHECK_MPI(MPI_Allreduce(&d, &dmax, 1, r8, MPI_MAX, MPI_COMM_WORLD));
	CHECK(dmax == size - 1);

	CHECK_CLASS(MPI_Type_create_f90_integer(39, &t), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Type_create_f90_real(34, MPI_UNDEFINED, &t), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Type_create_f90_complex(MPI_UNDEFINED, 5000, &t), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Type_create_f90_real(MPI_UNDEFINED, MPI_UNDEFINED, &t), MPI_ERR_ARG);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
