/* type_create_struct_of_no_blocks_with_null_arrays_is_empty: MPI_Type_create_struct and
 * MPI_Type_create_struct_c with count 0 and NULL arrays (nothing to read in them) build a
 * valid empty type: it commits, has size 0, lower bound 0 and extent 0, and a send of 5 of
 * it is a message of 0 bytes that leaves the receive buffer untouched; its envelope names
 * no datatypes (MPI_Type_get_contents has none to return). */
/* ranks: 1 2 */
#include "check.h"

static void check_empty(MPI_Datatype t, int rank, int size)
{
	int n = -1, out[2] = { 1, 2 };
	MPI_Aint lb = -1, extent = -1;
	MPI_Count size_c = -1;
	unsigned char in[8];
	MPI_Request r;
	MPI_Status st;

	CHECK_MPI(MPI_Type_commit(&t));
	CHECK_MPI(MPI_Type_size(t, &n));
	CHECK_INT(n, 0);
	CHECK_MPI(MPI_Type_size_c(t, &size_c));
	CHECK_INT(size_c, 0);
	CHECK_MPI(MPI_Type_get_extent(t, &lb, &extent));
	CHECK_INT(lb, 0);
	CHECK_INT(extent, 0);

	/* The _c forms answer for both constructors (the int ones refuse a _c type). */
	MPI_Count ni = -1, na = -1, nc = -1, nd = -1, counts[1] = { -1 };
	int combiner = -1, ints[1] = { -1 };
	MPI_Aint addrs[1];
	MPI_Datatype types[1];
	CHECK_MPI(MPI_Type_get_envelope_c(t, &ni, &na, &nc, &nd, &combiner));
	CHECK_INT(combiner, MPI_COMBINER_STRUCT);
	CHECK_INT(na, 0);
	CHECK_INT(nd, 0);
	CHECK_MPI(MPI_Type_get_contents_c(t, ni, na, nc, nd, ints, addrs, counts, types));
	CHECK_INT(ni + nc, 1);  /* the count 0, as an int or as an MPI_Count */
	CHECK_INT(ni ? ints[0] : counts[0], 0);

	/* Around a ring: 5 of the type out, bytes in. */
	memset(in, 0x77, sizeof in);
	CHECK_MPI(MPI_Irecv(in, sizeof in, MPI_BYTE, (rank + size - 1) % size, 4, MPI_COMM_WORLD,
			    &r));
	CHECK_MPI(MPI_Send(out, 5, t, (rank + 1) % size, 4, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Wait(&r, &st));
	CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &n));
	CHECK_INT(n, 0);
	CHECK_INT(st.MPI_SOURCE, (rank + size - 1) % size);
	for (size_t i = 0; i < sizeof in; i++)
		CHECK_INT(in[i], 0x77);
	CHECK_MPI(MPI_Type_free(&t));
	CHECK(t == MPI_DATATYPE_NULL);
}

int main(int argc, char **argv)
{
	MPI_Datatype t;
	int rank, size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));

	t = MPI_DATATYPE_NULL;
	CHECK_MPI(MPI_Type_create_struct(0, NULL, NULL, NULL, &t));
	CHECK(t != MPI_DATATYPE_NULL);
	check_empty(t, rank, size);

	t = MPI_DATATYPE_NULL;
	CHECK_MPI(MPI_Type_create_struct_c(0, NULL, NULL, NULL, &t));
	CHECK(t != MPI_DATATYPE_NULL);
	check_empty(t, rank, size);

	CHECK_MPI(MPI_Finalize());
	return 0;
}
