/* file_ordered_access_in_rank_order: MPI_File_write_ordered lays the ranks' records in
 * rank order from the shared file pointer (rank r gives r % 3 + 1 records, rank 0 first),
 * twice, the second time after the first; MPI_File_read_ordered reads each rank's own
 * records back; the split forms (_begin/_end) do the same and hand the status out at _end;
 * MPI_File_seek_shared with MPI_SEEK_SET, MPI_SEEK_CUR and MPI_SEEK_END, checked with
 * MPI_File_get_position_shared; errors: offsets or whence that differ between ranks
 * (MPI_ERR_NOT_SAME), bad whence, negative position (MPI_ERR_ARG), an _end without its
 * _begin, a second _begin (MPI_ERR_OTHER), on every rank; MPI_File_set_view puts the
 * pointer at 0, in etypes of the new view. The file is in argv[1], else $TEST_TMP. */
/* ranks: 1 4 16 64 */
#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>
#include "check.h"

struct rec {
	int32_t rank, index, round, pad;
};

static int nrec(int rank)
{
	return rank % 3 + 1;
}

/* Records before rank `rank`'s in one round. */
static int before(int rank)
{
	int n = 0;
	for (int r = 0; r < rank; r++)
		n += nrec(r);
	return n;
}

static void fill(struct rec *v, int rank, int round)
{
	for (int i = 0; i < nrec(rank); i++)
		v[i] = (struct rec){ rank, i, round, 0x0dd };
}

/* Rank 0: the file holds `rounds` rounds, each the ranks' records in rank order. */
static void check_file(const char *path, int size, int rounds)
{
	int per_round = before(size);
	long long bytes = (long long)rounds * per_round * (long long)sizeof(struct rec);
	struct rec *all = malloc((size_t)bytes);
	struct stat sb;
	int fd = open(path, O_RDONLY);

	CHECK(fd >= 0 && all != NULL);
	CHECK(fstat(fd, &sb) == 0);
	CHECK_INT(sb.st_size, bytes);
	CHECK_INT(pread(fd, all, (size_t)bytes, 0), bytes);
	for (int round = 0, k = 0; round < rounds; round++)
		for (int r = 0; r < size; r++)
			for (int i = 0; i < nrec(r); i++, k++) {
				CHECK_INT(all[k].rank, r);
				CHECK_INT(all[k].index, i);
				CHECK_INT(all[k].round, round);
				CHECK_INT(all[k].pad, 0x0dd);
			}
	close(fd);
	free(all);
}

static void check_back(const struct rec *v, int rank, int round, const MPI_Status *st)
{
	int n;

	CHECK_MPI(MPI_Get_count(st, MPI_BYTE, &n));
	CHECK_INT(n, nrec(rank) * (int)sizeof(struct rec));
	for (int i = 0; i < nrec(rank); i++) {
		CHECK_INT(v[i].rank, rank);
		CHECK_INT(v[i].index, i);
		CHECK_INT(v[i].round, round);
	}
}

int main(int argc, char **argv)
{
	int rank, size, rc;
	char path[4096];
	MPI_File fh;
	MPI_Status st;
	MPI_Offset pos;
	struct rec out[3], in[3];
	const int R = (int)sizeof(struct rec);

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank == 0) {
		const char *dir = argc > 1 ? argv[1] : getenv("TEST_TMP");
		snprintf(path, sizeof path, "%s/ordered.%d", dir ? dir : "/tmp", (int)getpid());
	}
	MPI_Bcast(path, sizeof path, MPI_CHAR, 0, MPI_COMM_WORLD);
	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_CREATE,
				MPI_INFO_NULL, &fh));
	long long round_bytes = (long long)before(size) * R;

	/* Two rounds of write_ordered: the second starts where the first ended. */
	for (int round = 0; round < 2; round++) {
		fill(out, rank, round);
		CHECK_MPI(MPI_File_write_ordered(fh, out, nrec(rank) * R, MPI_BYTE, &st));
		int n;
		CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &n));
		CHECK_INT(n, nrec(rank) * R);
		CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
		CHECK_INT(pos, (round + 1) * round_bytes);
		/* The next round may move the pointer once it starts anywhere. */
		MPI_Barrier(MPI_COMM_WORLD);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		check_file(path, size, 2);

	/* Split write: the third round, the status at _end. */
	fill(out, rank, 2);
	CHECK_MPI(MPI_File_write_ordered_begin(fh, out, nrec(rank) * R, MPI_BYTE));
	rc = MPI_File_write_ordered_begin(fh, out, nrec(rank) * R, MPI_BYTE);
	CHECK_CLASS(rc, MPI_ERR_OTHER);
	rc = MPI_File_read_ordered_end(fh, in, &st);
	CHECK_CLASS(rc, MPI_ERR_OTHER);
	CHECK_MPI(MPI_File_write_ordered_end(fh, out, &st));
	int n;
	CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &n));
	CHECK_INT(n, nrec(rank) * R);
	rc = MPI_File_write_ordered_end(fh, out, &st);
	CHECK_CLASS(rc, MPI_ERR_OTHER);
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		check_file(path, size, 3);

	/* Seeks: to the end, back one round from there, to the start. */
	CHECK_MPI(MPI_File_seek_shared(fh, 0, MPI_SEEK_END));
	CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
	CHECK_INT(pos, 3 * round_bytes);
	CHECK_MPI(MPI_File_seek_shared(fh, -round_bytes, MPI_SEEK_CUR));
	CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
	CHECK_INT(pos, 2 * round_bytes);
	CHECK_MPI(MPI_File_read_ordered(fh, in, nrec(rank) * R, MPI_BYTE, &st));
	check_back(in, rank, 2, &st);
	CHECK_MPI(MPI_File_seek_shared(fh, round_bytes, MPI_SEEK_SET));
	CHECK_MPI(MPI_File_read_ordered_begin(fh, in, nrec(rank) * R, MPI_BYTE));
	memset(&st, 0, sizeof st);
	CHECK_MPI(MPI_File_read_ordered_end(fh, in, &st));
	check_back(in, rank, 1, &st);
	CHECK_MPI(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
	CHECK_MPI(MPI_File_read_ordered(fh, in, nrec(rank) * R, MPI_BYTE, &st));
	check_back(in, rank, 0, &st);
	CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
	CHECK_INT(pos, round_bytes);

	/* Errors, on every rank; the pointer stays. */
	if (size > 1) {
		rc = MPI_File_seek_shared(fh, rank == size - 1 ? 1 : 0, MPI_SEEK_SET);
		CHECK_CLASS(rc, MPI_ERR_NOT_SAME);
		rc = MPI_File_seek_shared(fh, 0, rank == 0 ? MPI_SEEK_CUR : MPI_SEEK_SET);
		CHECK_CLASS(rc, MPI_ERR_NOT_SAME);
	}
	rc = MPI_File_seek_shared(fh, 0, 12345);
	CHECK_CLASS(rc, MPI_ERR_ARG);
	rc = MPI_File_seek_shared(fh, -round_bytes - 1, MPI_SEEK_CUR);
	CHECK_CLASS(rc, MPI_ERR_ARG);
	CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
	CHECK_INT(pos, round_bytes);

	/* A view of 16-byte etypes: set_view puts the pointer back to 0, which counts etypes. */
	MPI_Datatype rect;
	MPI_Type_contiguous(R, MPI_BYTE, &rect);
	MPI_Type_commit(&rect);
	CHECK_MPI(MPI_File_set_view(fh, 0, rect, rect, "native", MPI_INFO_NULL));
	CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
	CHECK_INT(pos, 0);
	MPI_Barrier(MPI_COMM_WORLD);
	CHECK_MPI(MPI_File_read_ordered(fh, in, nrec(rank), rect, &st));
	CHECK_MPI(MPI_Get_count(&st, rect, &n));
	CHECK_INT(n, nrec(rank));
	for (int i = 0; i < nrec(rank); i++)
		CHECK_INT(in[i].round, 0);
	CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
	CHECK_INT(pos, before(size));
	MPI_Type_free(&rect);

	CHECK_MPI(MPI_File_close(&fh));
	if (rank == 0)
		unlink(path);
	MPI_Barrier(MPI_COMM_WORLD);
	printf("ok %d\n", rank);
	MPI_Finalize();
	return 0;
}
