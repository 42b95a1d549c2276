/* file_view_and_access_bad_arguments_return_error_classes: MPI_File_set_view refuses bad
 * views on every member (MPI_ERR_TYPE: uncommitted or invalid types, decreasing
 * displacements; MPI_ERR_ARG: a filetype not made of whole etypes, a negative displacement,
 * MPI_DISPLACEMENT_CURRENT without MPI_MODE_SEQUENTIAL; MPI_ERR_UNSUPPORTED_DATAREP) and keeps
 * the view it had; access calls refuse what the access mode forbids (MPI_ERR_READ_ONLY,
 * MPI_ERR_ACCESS, MPI_ERR_UNSUPPORTED_OPERATION), bad counts, types, buffers and offsets,
 * and a file that is none (MPI_ERR_FILE). The file's handler is MPI_ERRORS_RETURN. */
/* ranks: 1 4 */
#include "file_bytes.h"

int main(int argc, char **argv)
{
	char path[512], rep[MPI_MAX_DATAREP_STRING];
	int rank, rc, v[4] = { 0 };
	MPI_File fh, ro, wo, sq;
	MPI_Datatype loose, odd, back, etype, ftype;
	MPI_Offset d, p;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	file_path(MPI_COMM_WORLD, "bad_args", path, sizeof path);
	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR,
				MPI_INFO_NULL, &fh));
	CHECK_MPI(MPI_File_set_view(fh, 8, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));

	/* Views. */
	CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &loose));          /* never committed */
	CHECK_MPI(MPI_Type_contiguous(6, MPI_BYTE, &odd));           /* 6 bytes: no ints */
	CHECK_MPI(MPI_Type_commit(&odd));
	int bl[2] = { 1, 1 };
	MPI_Aint ds[2] = { 8, 0 };
	CHECK_MPI(MPI_Type_create_hindexed(2, bl, ds, MPI_INT, &back)); /* 8 then 0 */
	CHECK_MPI(MPI_Type_commit(&back));
	rc = MPI_File_set_view(fh, 0, MPI_INT, loose, "native", MPI_INFO_NULL);
	CHECK_CLASS(rc, MPI_ERR_TYPE);
	rc = MPI_File_set_view(fh, 0, loose, MPI_INT, "native", MPI_INFO_NULL);
	CHECK_CLASS(rc, MPI_ERR_TYPE);
	rc = MPI_File_set_view(fh, 0, MPI_INT, MPI_DATATYPE_NULL, "native", MPI_INFO_NULL);
	CHECK_CLASS(rc, MPI_ERR_TYPE);
	rc = MPI_File_set_view(fh, 0, MPI_INT, odd, "native", MPI_INFO_NULL);
	CHECK_CLASS(rc, MPI_ERR_ARG);
	rc = MPI_File_set_view(fh, 0, MPI_INT, back, "native", MPI_INFO_NULL);
	CHECK_CLASS(rc, MPI_ERR_TYPE);
	rc = MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "no-such-representation", MPI_INFO_NULL);
	CHECK_CLASS(rc, MPI_ERR_UNSUPPORTED_DATAREP);
	rc = MPI_File_set_view(fh, -4, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
	CHECK_CLASS(rc, MPI_ERR_ARG);
	rc = MPI_File_set_view(fh, MPI_DISPLACEMENT_CURRENT, MPI_INT, MPI_INT, "native",
			       MPI_INFO_NULL);
	CHECK_CLASS(rc, MPI_ERR_ARG);
	/* One member's bad argument fails the call on every member. */
	rc = MPI_File_set_view(fh, 0, MPI_INT, rank == 0 ? loose : MPI_INT, "native",
			       MPI_INFO_NULL);
	CHECK_CLASS(rc, MPI_ERR_TYPE);
	/* The view is the one set before all of these. */
	CHECK_MPI(MPI_File_get_view(fh, &d, &etype, &ftype, rep));
	CHECK_INT(d, 8);
	CHECK(etype == MPI_INT && ftype == MPI_INT);
	CHECK_STR(rep, "native");

	/* Accesses. */
	rc = MPI_File_write_at(fh, 0, v, -1, MPI_INT, MPI_STATUS_IGNORE);
	CHECK_CLASS(rc, MPI_ERR_COUNT);
	rc = MPI_File_write_at(fh, 0, v, 1, loose, MPI_STATUS_IGNORE);
	CHECK_CLASS(rc, MPI_ERR_TYPE);
	rc = MPI_File_read_at(fh, 0, v, 1, MPI_DATATYPE_NULL, MPI_STATUS_IGNORE);
	CHECK_CLASS(rc, MPI_ERR_TYPE);
	rc = MPI_File_write_at(fh, 0, NULL, 1, MPI_INT, MPI_STATUS_IGNORE);
	CHECK_CLASS(rc, MPI_ERR_BUFFER);
	rc = MPI_File_write_at(fh, -1, v, 1, MPI_INT, MPI_STATUS_IGNORE);
	CHECK_CLASS(rc, MPI_ERR_ARG);
	rc = MPI_File_write(fh, v, 3, MPI_SHORT, MPI_STATUS_IGNORE);  /* 6 bytes: 1.5 ints */
	CHECK_CLASS(rc, MPI_ERR_TYPE);
	rc = MPI_File_read_at(MPI_FILE_NULL, 0, v, 1, MPI_INT, MPI_STATUS_IGNORE);
	CHECK_CLASS(rc, MPI_ERR_FILE);
	rc = MPI_File_seek(fh, 0, MPI_SEEK_SET + MPI_SEEK_CUR + MPI_SEEK_END);
	CHECK_CLASS(rc, MPI_ERR_ARG);
	rc = MPI_File_get_position(fh, NULL);
	CHECK_CLASS(rc, MPI_ERR_ARG);
	/* Zero elements: nothing to check but the arguments, nothing moved. */
	CHECK_MPI(MPI_File_write_at(fh, 0, NULL, 0, MPI_INT, MPI_STATUS_IGNORE));

	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &ro));
	rc = MPI_File_write_at(ro, 0, v, 1, MPI_INT, MPI_STATUS_IGNORE);
	CHECK_CLASS(rc, MPI_ERR_READ_ONLY);
	rc = MPI_File_write(ro, v, 1, MPI_INT, MPI_STATUS_IGNORE);
	CHECK_CLASS(rc, MPI_ERR_READ_ONLY);
	CHECK_MPI(MPI_File_close(&ro));
	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY, MPI_INFO_NULL, &wo));
	rc = MPI_File_read_at(wo, 0, v, 1, MPI_INT, MPI_STATUS_IGNORE);
	CHECK_CLASS(rc, MPI_ERR_ACCESS);
	CHECK_MPI(MPI_File_close(&wo));
	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY | MPI_MODE_SEQUENTIAL,
				MPI_INFO_NULL, &sq));
	rc = MPI_File_write_at(sq, 0, v, 1, MPI_INT, MPI_STATUS_IGNORE);
	CHECK_CLASS(rc, MPI_ERR_UNSUPPORTED_OPERATION);
	rc = MPI_File_write(sq, v, 1, MPI_INT, MPI_STATUS_IGNORE);
	CHECK_CLASS(rc, MPI_ERR_UNSUPPORTED_OPERATION);
	rc = MPI_File_seek(sq, 0, MPI_SEEK_SET);
	CHECK_CLASS(rc, MPI_ERR_UNSUPPORTED_OPERATION);
	rc = MPI_File_get_position(sq, &p);
	CHECK_CLASS(rc, MPI_ERR_UNSUPPORTED_OPERATION);
	/* MPI_DISPLACEMENT_CURRENT is for these files: the shared pointer is at 0. */
	CHECK_MPI(MPI_File_set_view(sq, MPI_DISPLACEMENT_CURRENT, MPI_INT, MPI_INT, "native",
				    MPI_INFO_NULL));
	CHECK_MPI(MPI_File_get_view(sq, &d, &etype, &ftype, rep));
	CHECK_INT(d, 0);
	CHECK_MPI(MPI_File_close(&sq));

	CHECK_MPI(MPI_File_close(&fh));
	file_remove(MPI_COMM_WORLD, path);
	MPI_Type_free(&loose);
	MPI_Type_free(&odd);
	MPI_Type_free(&back);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
