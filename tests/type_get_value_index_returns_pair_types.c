/* type_get_value_index_returns_pair_types: MPI_Type_get_value_index maps (value, MPI_INT) to
 * the named MINLOC/MAXLOC pair type (usable in a reduction, envelope NAMED), any other
 * combination to MPI_DATATYPE_NULL with MPI_SUCCESS, and refuses invalid arguments. */
/* ranks: 1 2 */
#include "check.h"

/* A datatype's name, for checks that print both sides. */
static const char *name_of(MPI_Datatype t, char buf[MPI_MAX_OBJECT_NAME])
{
	int len;

	if (t == MPI_DATATYPE_NULL)
		return "MPI_DATATYPE_NULL";
	CHECK_MPI(MPI_Type_get_name(t, buf, &len));
	return buf;
}

int main(int argc, char **argv)
{
	MPI_Datatype p, t;
	int rank, size;
	char got[MPI_MAX_OBJECT_NAME], want[MPI_MAX_OBJECT_NAME];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

	struct { MPI_Datatype value, pair; } named[] = {
		{ MPI_FLOAT, MPI_FLOAT_INT }, { MPI_DOUBLE, MPI_DOUBLE_INT },
		{ MPI_LONG, MPI_LONG_INT }, { MPI_INT, MPI_2INT }, { MPI_SHORT, MPI_SHORT_INT },
		{ MPI_LONG_DOUBLE, MPI_LONG_DOUBLE_INT },
	};
	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		int ni, na, nd, comb;
		p = MPI_DATATYPE_NULL;
		CHECK_MPI(MPI_Type_get_value_index(named[i].value, MPI_INT, &p));
		CHECK_STR(name_of(p, got), name_of(named[i].pair, want));
		CHECK(p == named[i].pair);
		CHECK_MPI(MPI_Type_get_envelope(p, &ni, &na, &nd, &comb));
		CHECK_INT(comb, MPI_COMBINER_NAMED);
	}

	/* No predefined pair: MPI_DATATYPE_NULL, not an error. */
	MPI_Datatype none[][2] = {
		{ MPI_DOUBLE, MPI_LONG }, { MPI_DOUBLE, MPI_INT64_T }, { MPI_CHAR, MPI_INT },
		{ MPI_UNSIGNED, MPI_INT }, { MPI_INT, MPI_DOUBLE }, { MPI_DOUBLE_INT, MPI_INT },
	};
	for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
		p = MPI_FLOAT;
		CHECK_MPI(MPI_Type_get_value_index(none[i][0], none[i][1], &p));
		CHECK_STR(name_of(p, got), "MPI_DATATYPE_NULL");
	}
	/* A derived duplicate of MPI_DOUBLE is not MPI_DOUBLE. */
	CHECK_MPI(MPI_Type_dup(MPI_DOUBLE, &t));
	CHECK_MPI(MPI_Type_get_value_index(t, MPI_INT, &p));
	CHECK_STR(name_of(p, got), "MPI_DATATYPE_NULL");
	CHECK_MPI(MPI_Type_free(&t));

	CHECK_CLASS(MPI_Type_get_value_index(MPI_DATATYPE_NULL, MPI_INT, &p), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_get_value_index(MPI_DOUBLE, MPI_DATATYPE_NULL, &p), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_get_value_index(MPI_DOUBLE, MPI_INT, NULL), MPI_ERR_ARG);

	/* The returned type works with MPI_MAXLOC: the largest value, lowest index on ties. */
	struct { double v; int i; } in = { rank == size - 1 ? 5.0 : 1.0, rank }, out;
	CHECK_MPI(MPI_Type_get_value_index(MPI_DOUBLE, MPI_INT, &p));
	CHECK_MPI(MPI_Allreduce(&in, &out, 1, p, MPI_MAXLOC, MPI_COMM_WORLD));
	CHECK_DBL_CMP(out.v, ==, 5.0);
	CHECK_INT(out.i, size - 1);

	MPI_Finalize();
	return 0;
}
