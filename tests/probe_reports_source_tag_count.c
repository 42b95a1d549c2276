/* probe_reports_source_tag_count: MPI_Probe and MPI_Iprobe report the source, tag and size
 * of a pending message without receiving it; Iprobe says no when nothing matches. */
/* ranks: 2 4 64 */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);

	if (rank != 0) {
		/* Rank r sends r+1 doubles with tag 100+r, and a large message with tag 7. */
		double d[64];
		for (int i = 0; i < 64; i++)
			d[i] = rank + i / 100.0;
		CHECK_MPI(MPI_Send(d, rank % 64 + 1, MPI_DOUBLE, 0, 100 + rank, MPI_COMM_WORLD));
		if (rank == 1) {
			int n = 300000;
			char *big = malloc(n);
			memset(big, 'b', n);
			CHECK_MPI(MPI_Send(big, n, MPI_CHAR, 0, 7, MPI_COMM_WORLD));
			free(big);
			/* Sent only when rank 0 asks, so its wildcard Probes never see it. */
			int late = 88, go = 0;
			CHECK_MPI(MPI_Recv(&go, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
			CHECK_MPI(MPI_Send(&late, 1, MPI_INT, 0, 8, MPI_COMM_WORLD));
		}
	} else {
		MPI_Status st;
		int flag = 1, count = -1, got_big = 0;
		/* Nothing is ever sent with tag 3. */
		CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &flag, &st));
		CHECK_INT(flag, 0);

		for (int n = 1; n < size; n++) {
			CHECK_MPI(MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
			int src = st.MPI_SOURCE;
			CHECK(src >= 1 && src < size);
			if (st.MPI_TAG == 7) {
				/* the large message from rank 1 */
				CHECK_INT(src, 1);
				CHECK_MPI(MPI_Get_count(&st, MPI_CHAR, &count));
				CHECK_INT(count, 300000);
				/* Probing again finds the same message. */
				CHECK_MPI(MPI_Iprobe(1, 7, MPI_COMM_WORLD, &flag, &st));
				CHECK_INT(flag, 1);
				char *big = malloc(300000);
				CHECK_MPI(MPI_Recv(big, 300000, MPI_CHAR, 1, 7, MPI_COMM_WORLD, &st));
				CHECK_INT(big[299999], 'b');
				free(big);
				got_big = 1;
				n--;
				continue;
			}
			CHECK_INT(st.MPI_TAG, 100 + src);
			CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE, &count));
			CHECK_INT(count, src % 64 + 1);
			/* Iprobe for that exact source and tag agrees. */
			MPI_Status st2;
			flag = 0;
			CHECK_MPI(MPI_Iprobe(src, 100 + src, MPI_COMM_WORLD, &flag, &st2));
			CHECK_INT(flag, 1);
			CHECK_INT(st2.MPI_SOURCE, src);
			CHECK_INT(st2.MPI_TAG, 100 + src);
			double d[64];
			CHECK_MPI(MPI_Recv(d, count, MPI_DOUBLE, src, 100 + src, MPI_COMM_WORLD, &st));
			CHECK(d[count - 1] == src + (count - 1) / 100.0);
		}
		/* Rank 1's large message is still pending if the loop ended first. */
		if (!got_big) {
			char *big = malloc(300000);
			CHECK_MPI(MPI_Recv(big, 300000, MPI_CHAR, 1, 7, MPI_COMM_WORLD, &st));
			free(big);
		}
		/* Polling with Iprobe alone makes progress until rank 1's last message shows. */
		flag = 0;
		CHECK_MPI(MPI_Send(&flag, 1, MPI_INT, 1, 6, MPI_COMM_WORLD));
		for (long spins = 0; !flag; spins++) {
			CHECK_MPI(MPI_Iprobe(1, 8, MPI_COMM_WORLD, &flag, &st));
			CHECK(spins < 100000000L);
		}
		CHECK_INT(st.MPI_SOURCE, 1);
		CHECK_INT(st.MPI_TAG, 8);
		int late = 0;
		CHECK_MPI(MPI_Recv(&late, 1, MPI_INT, 1, 8, MPI_COMM_WORLD, &st));
		CHECK_INT(late, 88);
	}
	CHECK_MPI(MPI_Finalize());
	return 0;
}
