/* large_count_above_int_max_accepted_by_c_calls: _c sends and receives take counts above
 * INT_MAX: INT_MAX + 10 of a zero-size type is a 0-byte message, and a receive of 2^32 + 16
 * bytes (a mapping never touched beyond what arrives) takes messages of any protocol. */
/* ranks: 2 */
#include <limits.h>
#include <stdbool.h>
#include <sys/mman.h>
#include "check.h"

#define HUGE_COUNT ((MPI_Count)INT_MAX + 10)
/* A receive count that an int cut to 32 bits would make 16, less than SMALL. */
#define HUGE_BYTES (((MPI_Count)1 << 32) + 16)
/* Bytes sent into the huge receive buffer: eager, and above the 128 KiB split-copy size. */
#define SMALL 100
#define LARGE (256 * 1024)

static int rank, partner;
static unsigned char *big;  /* HUGE_BYTES + 1 bytes, reserved but not backed until written */

/* The message of `n` bytes received into `big` with `st` is the pattern `seed`. */
static void check_big(MPI_Count n, int seed, const MPI_Status *st, int tag)
{
	MPI_Count count;

	for (MPI_Count i = 0; i < n; i++)
		if (big[i] != (unsigned char)(seed + i * 7))
			CHECK_INT(big[i], (unsigned char)(seed + i * 7));
	CHECK_INT(big[n], 0);  /* nothing past the message */
	CHECK_INT(st->MPI_SOURCE, partner);
	CHECK_INT(st->MPI_TAG, tag);
	CHECK_MPI(MPI_Get_count_c(st, MPI_BYTE, &count));
	CHECK_INT(count, n);
	memset(big, 0, (size_t)n);
}

/* Rank 0's side: n bytes of pattern `seed` with `tag`, by Send_c, or by Sendrecv_c. */
static void send_pattern(MPI_Count n, int seed, int tag, bool sendrecv)
{
	unsigned char *buf = malloc((size_t)n);

	CHECK(buf != NULL);
	for (MPI_Count i = 0; i < n; i++)
		buf[i] = (unsigned char)(seed + i * 7);
	if (sendrecv)
		CHECK_MPI(MPI_Sendrecv_c(buf, n, MPI_BYTE, partner, tag, NULL, 0, MPI_BYTE,
					 partner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	else
		CHECK_MPI(MPI_Send_c(buf, n, MPI_BYTE, partner, tag, MPI_COMM_WORLD));
	free(buf);
}

/* Rank 1 receives n bytes into `big` with a count of HUGE_BYTES, in every receive call. */
static void receive_into_huge_buffer(MPI_Count n)
{
	MPI_Request q;
	MPI_Message msg;
	MPI_Status st;
	int tag = 10;

	if (rank == 0) {
		for (int t = 0; t < 5; t++)
			send_pattern(n, t + 1, tag + t, t == 4);
		return;
	}
	CHECK_MPI(MPI_Recv_c(big, HUGE_BYTES, MPI_BYTE, partner, tag, MPI_COMM_WORLD, &st));
	check_big(n, 1, &st, tag);
	CHECK_MPI(MPI_Irecv_c(big, HUGE_BYTES, MPI_BYTE, partner, tag + 1, MPI_COMM_WORLD, &q));
	CHECK_MPI(MPI_Wait(&q, &st));
	check_big(n, 2, &st, tag + 1);
	CHECK_MPI(MPI_Recv_init_c(big, HUGE_BYTES, MPI_BYTE, partner, tag + 2, MPI_COMM_WORLD,
				  &q));
	CHECK_MPI(MPI_Start(&q));
	CHECK_MPI(MPI_Wait(&q, &st));
	CHECK_MPI(MPI_Request_free(&q));
	check_big(n, 3, &st, tag + 2);
	CHECK_MPI(MPI_Mprobe(partner, tag + 3, MPI_COMM_WORLD, &msg, &st));
	CHECK_MPI(MPI_Mrecv_c(big, HUGE_BYTES, MPI_BYTE, &msg, &st));
	check_big(n, 4, &st, tag + 3);
	CHECK_MPI(MPI_Sendrecv_c(NULL, 0, MPI_BYTE, partner, 0, big, HUGE_BYTES, MPI_BYTE,
				 partner, tag + 4, MPI_COMM_WORLD, &st));
	check_big(n, 5, &st, tag + 4);
}

/* INT_MAX + 10 elements of a zero-size datatype: a 0-byte message in every call. Get_count
 * of a zero-size type is 0 (the status holds bytes, and 0 bytes are 0 elements). */
static void zero_size_type(void)
{
	MPI_Datatype empty;
	MPI_Request q;
	MPI_Status st;
	MPI_Count count;
	int dummy = 0;

	CHECK_MPI(MPI_Type_contiguous(0, MPI_INT, &empty));
	CHECK_MPI(MPI_Type_commit(&empty));
	if (rank == 0) {
		CHECK_MPI(MPI_Send_c(&dummy, HUGE_COUNT, empty, partner, 1, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Ssend_c(&dummy, HUGE_COUNT, empty, partner, 2, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Isend_c(&dummy, HUGE_COUNT, empty, partner, 3, MPI_COMM_WORLD, &q));
		CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
	} else {
		for (int tag = 1; tag <= 3; tag++) {
			st.MPI_TAG = -1;
			CHECK_MPI(MPI_Recv_c(&dummy, HUGE_COUNT, empty, partner, tag,
					     MPI_COMM_WORLD, &st));
			CHECK_INT(st.MPI_TAG, tag);
			CHECK_MPI(MPI_Get_count_c(&st, empty, &count));
			CHECK_INT(count, 0);
			CHECK_MPI(MPI_Get_elements_c(&st, empty, &count));
			CHECK_INT(count, 0);
		}
	}
	CHECK_MPI(MPI_Sendrecv_replace_c(&dummy, HUGE_COUNT, empty, partner, 4, partner, 4,
					 MPI_COMM_WORLD, &st));
	CHECK_INT(st.MPI_SOURCE, partner);
	CHECK_MPI(MPI_Type_free(&empty));
}

int main(int argc, char **argv)
{
	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	partner = 1 - rank;
	zero_size_type();
	/* MAP_NORESERVE: only the pages the messages land in are ever backed. */
	big = mmap(NULL, (size_t)HUGE_BYTES + 1, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	CHECK(big != MAP_FAILED);
	receive_into_huge_buffer(SMALL);
	receive_into_huge_buffer(LARGE);
	munmap(big, (size_t)HUGE_BYTES + 1);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
