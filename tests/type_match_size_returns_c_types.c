/* type_match_size_returns_c_types: MPI_Type_match_size gives the predefined C type of each
 * class and size (signed char to long, float to long double, the C complex types), and
 * MPI_ERR_ARG for a size the class lacks or an unknown class. */
/* ranks: 1 */
#include <complex.h>

#include "check.h"

static void match(int cls, int size, MPI_Datatype want)
{
	MPI_Datatype t = MPI_DATATYPE_NULL;
	int tsize;

	CHECK_MPI(MPI_Type_match_size(cls, size, &t));
	CHECK(t == want);
	CHECK_MPI(MPI_Type_size(t, &tsize));
	CHECK_INT(tsize, size);
}

int main(int argc, char **argv)
{
	MPI_Datatype t;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	match(MPI_TYPECLASS_INTEGER, 1, MPI_SIGNED_CHAR);
	match(MPI_TYPECLASS_INTEGER, sizeof(short), MPI_SHORT);
	match(MPI_TYPECLASS_INTEGER, sizeof(int), MPI_INT);
	match(MPI_TYPECLASS_INTEGER, sizeof(long), MPI_LONG);
	match(MPI_TYPECLASS_REAL, sizeof(float), MPI_FLOAT);
	match(MPI_TYPECLASS_REAL, sizeof(double), MPI_DOUBLE);
	match(MPI_TYPECLASS_REAL, sizeof(long double), MPI_LONG_DOUBLE);
	match(MPI_TYPECLASS_COMPLEX, sizeof(float _Complex), MPI_C_FLOAT_COMPLEX);
	match(MPI_TYPECLASS_COMPLEX, sizeof(double _Complex), MPI_C_DOUBLE_COMPLEX);
	match(MPI_TYPECLASS_COMPLEX, sizeof(long double _Complex), MPI_C_LONG_DOUBLE_COMPLEX);
	CHECK_CLASS(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 3, &t), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Type_match_size(MPI_TYPECLASS_REAL, 2, &t), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 4, &t), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, -8, &t), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Type_match_size(99, 4, &t), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, NULL), MPI_ERR_ARG);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
