/* file_shared_pointer_records_land_once: every rank writes records through the shared file
 * pointer (MPI_File_write_shared, and MPI_File_iwrite_shared completed by MPI_Waitall): the
 * file holds each record exactly once, nothing else, and MPI_File_get_position_shared says
 * where the records end; then every rank reads records back with MPI_File_read_shared and
 * MPI_File_iread_shared (MPI_Testany): every record is read by exactly one rank; opened
 * again with MPI_MODE_APPEND, the shared pointer starts at the end, where every rank adds
 * a record. The file is in argv[1], else $TEST_TMP (a directory every host of the job
 * sees). */
/* ranks: 1 4 16 64 */
#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>
#include "check.h"

#define PER_RANK 6    /* records a rank writes: half blocking, half nonblocking */
#define NB (PER_RANK / 2)

struct rec {
	int32_t rank, seq;
	int64_t tag;
};

static int64_t tag_of(int rank, int seq)
{
	return 0x5eed000000LL + (int64_t)rank * 1000 + seq;
}

int main(int argc, char **argv)
{
	int rank, size;
	char path[4096];
	MPI_File fh;
	MPI_Status st;
	MPI_Offset pos;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank == 0) {
		const char *dir = argc > 1 ? argv[1] : getenv("TEST_TMP");
		snprintf(path, sizeof path, "%s/shared_records.%d", dir ? dir : "/tmp",
			 (int)getpid());
	}
	MPI_Bcast(path, sizeof path, MPI_CHAR, 0, MPI_COMM_WORLD);
	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_CREATE,
				MPI_INFO_NULL, &fh));

	struct rec mine[PER_RANK];
	MPI_Request reqs[NB];
	for (int i = 0; i < PER_RANK; i++)
		mine[i] = (struct rec){ rank, i, tag_of(rank, i) };
	for (int i = 0; i < NB; i++) {
		CHECK_MPI(MPI_File_write_shared(fh, &mine[i], (int)sizeof(struct rec), MPI_BYTE,
						&st));
		int n;
		CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &n));
		CHECK_INT(n, sizeof(struct rec));
	}
	for (int i = 0; i < NB; i++)
		CHECK_MPI(MPI_File_iwrite_shared(fh, &mine[NB + i], (int)sizeof(struct rec),
						 MPI_BYTE, &reqs[i]));
	MPI_Status sts[NB];
	CHECK_MPI(MPI_Waitall(NB, reqs, sts));
	for (int i = 0; i < NB; i++) {
		int n;
		CHECK(reqs[i] == MPI_REQUEST_NULL);
		CHECK_MPI(MPI_Get_count(&sts[i], MPI_BYTE, &n));
		CHECK_INT(n, sizeof(struct rec));
	}
	MPI_Barrier(MPI_COMM_WORLD);

	long long total = (long long)size * PER_RANK * (long long)sizeof(struct rec);
	CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
	CHECK_INT(pos, total);

	if (rank == 0) {
		/* The file itself, byte for byte: every record once, nothing else. */
		int fd = open(path, O_RDONLY);
		struct stat sb;
		CHECK(fd >= 0);
		CHECK(fstat(fd, &sb) == 0);
		CHECK_INT(sb.st_size, total);
		struct rec *all = malloc((size_t)total);
		char *seen = calloc((size_t)size * PER_RANK, 1);
		CHECK(all != NULL && seen != NULL);
		CHECK_INT(pread(fd, all, (size_t)total, 0), total);
		for (int i = 0; i < size * PER_RANK; i++) {
			CHECK(all[i].rank >= 0 && all[i].rank < size);
			CHECK(all[i].seq >= 0 && all[i].seq < PER_RANK);
			CHECK_INT(all[i].tag, tag_of(all[i].rank, all[i].seq));
			CHECK_INT(seen[all[i].rank * PER_RANK + all[i].seq]++, 0);
		}
		free(all);
		free(seen);
		close(fd);
	}

	/* Reading back through the shared pointer: each record goes to one reader. */
	CHECK_MPI(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
	CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
	CHECK_INT(pos, 0);
	MPI_Barrier(MPI_COMM_WORLD);  /* nobody reads before everyone has looked */
	struct rec got[PER_RANK];
	for (int i = 0; i < NB; i++)
		CHECK_MPI(MPI_File_read_shared(fh, &got[i], (int)sizeof(struct rec), MPI_BYTE,
					       MPI_STATUS_IGNORE));
	for (int i = 0; i < NB; i++)
		CHECK_MPI(MPI_File_iread_shared(fh, &got[NB + i], (int)sizeof(struct rec),
						MPI_BYTE, &reqs[i]));
	for (int left = NB; left > 0;) {
		int index, flag;
		CHECK_MPI(MPI_Testany(NB, reqs, &index, &flag, &st));
		if (!flag)
			continue;
		CHECK(index != MPI_UNDEFINED);
		int n;
		CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &n));
		CHECK_INT(n, sizeof(struct rec));
		left--;
	}
	struct rec *every = rank == 0 ? malloc((size_t)total) : NULL;
	MPI_Gather(got, (int)sizeof(got), MPI_BYTE, every, (int)sizeof(got), MPI_BYTE, 0,
		   MPI_COMM_WORLD);
	if (rank == 0) {
		char *seen = calloc((size_t)size * PER_RANK, 1);
		for (int i = 0; i < size * PER_RANK; i++) {
			CHECK(every[i].rank >= 0 && every[i].rank < size);
			CHECK(every[i].seq >= 0 && every[i].seq < PER_RANK);
			CHECK_INT(every[i].tag, tag_of(every[i].rank, every[i].seq));
			CHECK_INT(seen[every[i].rank * PER_RANK + every[i].seq]++, 0);
		}
		free(seen);
		free(every);
	}
	/* Past the end: a read through the shared pointer reads nothing. */
	MPI_Barrier(MPI_COMM_WORLD);
	struct rec past;
	CHECK_MPI(MPI_File_read_shared(fh, &past, (int)sizeof(past), MPI_BYTE, &st));
	int n;
	CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &n));
	CHECK_INT(n, 0);

	CHECK_MPI(MPI_File_close(&fh));

	/* MPI_MODE_APPEND: the shared pointer starts at the end of the file. */
	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY | MPI_MODE_APPEND,
				MPI_INFO_NULL, &fh));
	CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
	CHECK_INT(pos, total);
	MPI_Barrier(MPI_COMM_WORLD);
	struct rec extra = { rank, PER_RANK, tag_of(rank, PER_RANK) };
	CHECK_MPI(MPI_File_write_shared(fh, &extra, (int)sizeof(extra), MPI_BYTE, &st));
	CHECK_MPI(MPI_File_close(&fh));
	if (rank == 0) {
		int fd = open(path, O_RDONLY);
		struct stat sb;
		char *seen = calloc((size_t)size, 1);
		CHECK(fd >= 0 && seen != NULL);
		CHECK(fstat(fd, &sb) == 0);
		CHECK_INT(sb.st_size, total + size * (long long)sizeof(struct rec));
		for (int i = 0; i < size; i++) {
			struct rec r;
			CHECK_INT(pread(fd, &r, sizeof r, total + i * (long long)sizeof r), sizeof r);
			CHECK(r.rank >= 0 && r.rank < size);
			CHECK_INT(r.seq, PER_RANK);
			CHECK_INT(r.tag, tag_of(r.rank, PER_RANK));
			CHECK_INT(seen[r.rank]++, 0);
		}
		free(seen);
		close(fd);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		unlink(path);
	MPI_Barrier(MPI_COMM_WORLD);
	printf("ok %d\n", rank);
	MPI_Finalize();
	return 0;
}
