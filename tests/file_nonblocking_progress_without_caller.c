/* file_nonblocking_progress_without_caller: an MPI_File_iwrite_at completes while its rank
 * makes no MPI call (the rank polls the file with pread until its bytes are there, and only
 * then calls MPI_Wait); MPI_File_iread_at reads them back (MPI_Request_get_status, then
 * MPI_Test until done); MPI_File_iwrite and MPI_File_iread move the individual file pointer
 * at the call (three started back to back land one after the other); MPI_Cancel of a file
 * request either cancels it (nothing written) or lets it complete (all written), as its
 * status says; a request freed with MPI_Request_free is written before MPI_File_close
 * returns; the _c forms match the int ones. The files are in argv[1], else $TEST_TMP. */
/* ranks: 1 4 16 64 */
/* timeout: 120 */
#include <fcntl.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include "check.h"

#define BLOCK 4096
#define POLL_LIMIT_S 60.0

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void fill(unsigned char *b, size_t n, int seed)
{
	for (size_t i = 0; i < n; i++)
		b[i] = (unsigned char)(seed * 31 + i * 7 + 1);
}

int main(int argc, char **argv)
{
	int rank, size, n;
	char path[4096], own[4200];
	MPI_File fh, mine;
	MPI_Request q, qs[3];
	MPI_Status st, sts[3];
	static unsigned char out[BLOCK], in[BLOCK], got[BLOCK];

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank == 0) {
		const char *dir = argc > 1 ? argv[1] : getenv("TEST_TMP");
		snprintf(path, sizeof path, "%s/nonblocking.%d", dir ? dir : "/tmp", (int)getpid());
	}
	MPI_Bcast(path, sizeof path, MPI_CHAR, 0, MPI_COMM_WORLD);
	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_CREATE,
				MPI_INFO_NULL, &fh));

	/* Progress without the caller: the bytes reach the file before MPI_Wait. */
	fill(out, BLOCK, rank);
	CHECK_MPI(MPI_File_iwrite_at(fh, (MPI_Offset)rank * BLOCK, out, BLOCK, MPI_BYTE, &q));
	int fd = open(path, O_RDONLY);
	CHECK(fd >= 0);
	double until = now() + POLL_LIMIT_S;
	for (;;) {
		ssize_t r = pread(fd, got, BLOCK, (off_t)rank * BLOCK);
		if (r == BLOCK && memcmp(got, out, BLOCK) == 0)
			break;
		CHECK(now() < until);  /* a hang, not a timing: the write never happened */
		usleep(1000);
	}
	close(fd);
	CHECK_MPI(MPI_Wait(&q, &st));
	CHECK(q == MPI_REQUEST_NULL);
	CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &n));
	CHECK_INT(n, BLOCK);

	/* Read back: get_status leaves the request; Test finishes it. */
	MPI_Barrier(MPI_COMM_WORLD);
	int peer = (rank + 1) % size, flag = 0;
	CHECK_MPI(MPI_File_iread_at_c(fh, (MPI_Offset)peer * BLOCK, in, (MPI_Count)BLOCK,
				      MPI_BYTE, &q));
	while (!flag)
		CHECK_MPI(MPI_Request_get_status(q, &flag, &st));
	CHECK(q != MPI_REQUEST_NULL);
	CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &n));
	CHECK_INT(n, BLOCK);
	flag = 0;
	while (!flag)
		CHECK_MPI(MPI_Test(&q, &flag, &st));
	CHECK(q == MPI_REQUEST_NULL);
	fill(out, BLOCK, peer);
	CHECK(memcmp(in, out, BLOCK) == 0);

	/* The individual pointer moves at the call: a file of this rank's own. */
	snprintf(own, sizeof own, "%s.%d", path, rank);
	CHECK_MPI(MPI_File_open(MPI_COMM_SELF, own, MPI_MODE_RDWR | MPI_MODE_CREATE,
				MPI_INFO_NULL, &mine));
	static unsigned char three[3][BLOCK], back[3][BLOCK];
	for (int i = 0; i < 3; i++) {
		fill(three[i], BLOCK, 100 + i);
		if (i == 1)
			CHECK_MPI(MPI_File_iwrite_c(mine, three[i], (MPI_Count)BLOCK, MPI_BYTE,
						    &qs[i]));
		else
			CHECK_MPI(MPI_File_iwrite(mine, three[i], BLOCK, MPI_BYTE, &qs[i]));
	}
	MPI_Offset pos;
	CHECK_MPI(MPI_File_get_position(mine, &pos));
	CHECK_INT(pos, 3 * BLOCK);
	CHECK_MPI(MPI_Waitall(3, qs, sts));
	for (int i = 0; i < 3; i++) {
		CHECK_MPI(MPI_Get_count(&sts[i], MPI_BYTE, &n));
		CHECK_INT(n, BLOCK);
	}
	CHECK_MPI(MPI_File_seek(mine, 0, MPI_SEEK_SET));
	for (int i = 0; i < 3; i++)
		CHECK_MPI(MPI_File_iread(mine, back[i], BLOCK, MPI_BYTE, &qs[i]));
	for (int done = 0; done < 3;) {
		int idx[3], k;
		CHECK_MPI(MPI_Waitsome(3, qs, &k, idx, sts));
		CHECK(k >= 1);
		done += k;
	}
	for (int i = 0; i < 3; i++)
		CHECK(memcmp(back[i], three[i], BLOCK) == 0);

	/* Cancel: cancelled and nothing written, or completed and all written. */
	static unsigned char big[16][BLOCK];
	MPI_Request many[16];
	for (int i = 0; i < 16; i++) {
		memset(big[i], 0xa0 + i, BLOCK);
		CHECK_MPI(MPI_File_iwrite_at(mine, (MPI_Offset)(4 + i) * BLOCK, big[i], BLOCK,
					     MPI_BYTE, &many[i]));
	}
	for (int i = 15; i >= 0; i--)
		CHECK_MPI(MPI_Cancel(&many[i]));
	MPI_Status mst[16];
	CHECK_MPI(MPI_Waitall(16, many, mst));
	int fdm = open(own, O_RDONLY);
	CHECK(fdm >= 0);
	for (int i = 0; i < 16; i++) {
		int cancelled;
		CHECK_MPI(MPI_Test_cancelled(&mst[i], &cancelled));
		ssize_t r = pread(fdm, got, BLOCK, (off_t)(4 + i) * BLOCK);
		if (cancelled) {
			for (ssize_t k = 0; k < r; k++)
				CHECK_INT(got[k], 0);  /* a hole, or beyond the end */
		} else {
			CHECK_INT(r, BLOCK);
			CHECK(memcmp(got, big[i], BLOCK) == 0);
			CHECK_MPI(MPI_Get_count(&mst[i], MPI_BYTE, &n));
			CHECK_INT(n, BLOCK);
		}
	}
	close(fdm);

	/* Freed in flight: MPI_File_close waits for it. */
	static unsigned char last[BLOCK];
	fill(last, BLOCK, 7);
	CHECK_MPI(MPI_File_iwrite_at(mine, 40 * BLOCK, last, BLOCK, MPI_BYTE, &q));
	CHECK_MPI(MPI_Request_free(&q));
	CHECK(q == MPI_REQUEST_NULL);
	CHECK_MPI(MPI_File_close(&mine));
	fdm = open(own, O_RDONLY);
	CHECK(fdm >= 0);
	CHECK_INT(pread(fdm, got, BLOCK, 40 * BLOCK), BLOCK);
	CHECK(memcmp(got, last, BLOCK) == 0);
	close(fdm);
	unlink(own);

	CHECK_MPI(MPI_File_close(&fh));
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		unlink(path);
	printf("ok %d\n", rank);
	MPI_Finalize();
	return 0;
}
