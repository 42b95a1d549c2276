/* type_zero_counts_and_null_type_arguments: every constructor (int and _c) accepts a count of
 * zero and builds an empty type that commits, sends and receives nothing; every constructor
 * refuses MPI_DATATYPE_NULL as its old type, and every query, commit, free, dup, pack and
 * name call refuses MPI_DATATYPE_NULL, with MPI_ERR_TYPE. */
/* ranks: 1 */
#include "check.h"

static void empty(MPI_Datatype t, const char *what)
{
	int size = -1, buf[4] = { 7, 7, 7, 7 }, src[4] = { 1, 2, 3, 4 }, n = -1;
	MPI_Count sizec = -1;
	MPI_Status st;

	CHECK_MPI(MPI_Type_commit(&t));
	CHECK_MPI(MPI_Type_size(t, &size));
	if (size != 0)
		fprintf(stderr, "%s\n", what);
	CHECK_INT(size, 0);
	CHECK_MPI(MPI_Type_size_c(t, &sizec));
	CHECK_INT(sizec, 0);
	CHECK_MPI(MPI_Sendrecv(src, 3, t, 0, 0, buf, 3, t, 0, 0, MPI_COMM_SELF, &st));
	CHECK_MPI(MPI_Get_count(&st, t, &n));
	CHECK_INT(n, 0);
	CHECK_MPI(MPI_Get_elements(&st, t, &n));
	CHECK_INT(n, 0);
	for (int i = 0; i < 4; i++)
		CHECK_INT(buf[i], 7);
	CHECK_MPI(MPI_Type_free(&t));
}

int main(int argc, char **argv)
{
	MPI_Datatype t = MPI_DATATYPE_NULL, n = MPI_DATATYPE_NULL, types[2] = { MPI_INT, MPI_INT };
	int ints[2] = { 1, 1 }, gs[1] = { 4 }, ss[1] = { 2 }, st[1] = { 0 };
	int di[1] = { MPI_DISTRIBUTE_BLOCK }, da[1] = { MPI_DISTRIBUTE_DFLT_DARG }, ps[1] = { 1 };
	MPI_Aint aints[2] = { 0, 8 }, lb, ext, addr = 0;
	MPI_Count cnts[2] = { 1, 1 }, clb, cext, csize;
	int i1, i2, i3, i4, comb, size, pos = 0;
	char buf[64], name[MPI_MAX_OBJECT_NAME];

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

	/* Count zero: an empty type. */
	CHECK_MPI(MPI_Type_contiguous(0, MPI_INT, &t));
	empty(t, "contiguous");
	CHECK_MPI(MPI_Type_vector(0, 2, 3, MPI_INT, &t));
	empty(t, "vector");
	CHECK_MPI(MPI_Type_vector(3, 0, 3, MPI_INT, &t));
	empty(t, "vector of empty blocks");
	CHECK_MPI(MPI_Type_create_hvector(0, 2, 24, MPI_INT, &t));
	empty(t, "hvector");
	CHECK_MPI(MPI_Type_indexed(0, ints, ints, MPI_INT, &t));
	empty(t, "indexed");
	CHECK_MPI(MPI_Type_create_hindexed(0, ints, aints, MPI_INT, &t));
	empty(t, "hindexed");
	CHECK_MPI(MPI_Type_create_indexed_block(0, 1, ints, MPI_INT, &t));
	empty(t, "idx_block");
	CHECK_MPI(MPI_Type_create_hindexed_block(0, 1, aints, MPI_INT, &t));
	empty(t, "hidx_block");
	CHECK_MPI(MPI_Type_create_struct(0, ints, aints, types, &t));
	empty(t, "struct");
	CHECK_MPI(MPI_Type_contiguous_c(0, MPI_INT, &t));
	empty(t, "contiguous_c");
	CHECK_MPI(MPI_Type_vector_c(0, 2, 3, MPI_INT, &t));
	empty(t, "vector_c");
	CHECK_MPI(MPI_Type_create_hvector_c(0, 2, 24, MPI_INT, &t));
	empty(t, "hvector_c");
	CHECK_MPI(MPI_Type_indexed_c(0, cnts, cnts, MPI_INT, &t));
	empty(t, "indexed_c");
	CHECK_MPI(MPI_Type_create_hindexed_c(0, cnts, cnts, MPI_INT, &t));
	empty(t, "hindexed_c");
	CHECK_MPI(MPI_Type_create_indexed_block_c(0, 1, cnts, MPI_INT, &t));
	empty(t, "idxb_c");
	CHECK_MPI(MPI_Type_create_hindexed_block_c(0, 1, cnts, MPI_INT, &t));
	empty(t, "hidxb_c");
	CHECK_MPI(MPI_Type_create_struct_c(0, cnts, cnts, types, &t));
	empty(t, "struct_c");
	CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &n));
	CHECK_MPI(MPI_Type_create_resized(n, 0, 0, &t));
	CHECK_MPI(MPI_Type_free(&n));
	CHECK_MPI(MPI_Type_commit(&t));
	CHECK_MPI(MPI_Type_get_extent(t, &lb, &ext));
	CHECK_INT(ext, 0);
	CHECK_MPI(MPI_Type_free(&t));

	/* MPI_DATATYPE_NULL as the old type of every constructor. */
	n = MPI_DATATYPE_NULL;
	types[1] = MPI_DATATYPE_NULL;
	CHECK_CLASS(MPI_Type_contiguous(1, n, &t), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_vector(1, 1, 1, n, &t), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_create_hvector(1, 1, 4, n, &t), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_indexed(1, ints, ints, n, &t), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_create_hindexed(1, ints, aints, n, &t), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_create_indexed_block(1, 1, ints, n, &t), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_create_hindexed_block(1, 1, aints, n, &t), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_create_struct(2, ints, aints, types, &t), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_create_subarray(1, gs, ss, st, MPI_ORDER_C, n, &t), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_create_darray(1, 0, 1, gs, di, da, ps, MPI_ORDER_C, n, &t),
		    MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_create_resized(n, 0, 4, &t), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_dup(n, &t), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_contiguous_c(1, n, &t), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_create_struct_c(2, cnts, cnts, types, &t), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_create_resized_c(n, 0, 4, &t), MPI_ERR_TYPE);

	/* ... and as the argument of every query and action. */
	CHECK_CLASS(MPI_Type_commit(&n), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_free(&n), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_size(n, &size), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_size_x(n, &csize), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_size_c(n, &csize), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_get_extent(n, &lb, &ext), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_get_extent_x(n, &clb, &cext), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_get_extent_c(n, &clb, &cext), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_get_true_extent(n, &lb, &ext), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_get_true_extent_x(n, &clb, &cext), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_get_true_extent_c(n, &clb, &cext), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_get_envelope(n, &i1, &i2, &i3, &comb), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_get_contents(n, 0, 0, 0, ints, aints, types), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_set_name(n, "x"), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_get_name(n, name, &i4), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Pack(&addr, 1, n, buf, sizeof buf, &pos, MPI_COMM_SELF), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Pack_size(1, n, MPI_COMM_SELF, &size), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Unpack(buf, sizeof buf, &pos, &addr, 1, n, MPI_COMM_SELF), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Pack_external_size("external32", 1, n, &lb), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Send(buf, 1, n, 0, 0, MPI_COMM_SELF), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Bcast(buf, 1, n, 0, MPI_COMM_SELF), MPI_ERR_TYPE);
	CHECK_INT(pos, 0);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
