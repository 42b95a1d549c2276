/* msgrate: OSU mbw_mr-style message rate: rank r < n/2 sends to rank r + n/2 (one pair per
 * rank pair); per iteration each sender posts a window of -W sends of -s bytes and waits
 * for them and for a 4-byte ack from its receiver. A barrier before the warm-up and one
 * after it, before the timer starts. Rate = pairs x window x iters / (mean sender time),
 * in messages per second. Needs an even rank count >= 2.
 * Runs on rank threads of any MPI. Prints: RESULT msgrate <ranks> <msgs/s> msg/s */
#include "bench.h"

int main(int argc, char **argv)
{
	struct bench_opts o = { .size = 8, .iters = 1000, .window = BENCH_WINDOW };

	MPI_Init(&argc, &argv);
	int rank = bench_rank(), n = bench_size();
	if (bench_parse(argc, argv, &o) != 0 || n < 2 || n % 2 != 0 || o.window < 1) {
		if (rank == 0 && (n < 2 || n % 2 != 0))
			fprintf(stderr, "msgrate: needs an even number of ranks\n");
		MPI_Finalize();
		return 2;
	}
	int pairs = n / 2, sender = rank < pairs;
	int peer = sender ? rank + pairs : rank - pairs;
	char *buf = bench_alloc(o.size), ack[4] = { 0 };
	MPI_Request *req = malloc(sizeof *req * (size_t)o.window);
	long warm = bench_warmup_for(o.iters);
	double t0 = 0;

	bench_sync();
	for (long k = -warm; k < o.iters; k++) {
		if (k == 0) {  /* as OSU's mbw_mr: every pair starts its timed loop together */
			bench_sync();
			t0 = MPI_Wtime();
		}
		for (long w = 0; w < o.window; w++) {
			if (sender)
				MPI_Isend(buf, (int)o.size, MPI_BYTE, peer, BENCH_TAG_DATA,
					  MPI_COMM_WORLD, &req[w]);
			else
				MPI_Irecv(buf, (int)o.size, MPI_BYTE, peer, BENCH_TAG_DATA,
					  MPI_COMM_WORLD, &req[w]);
		}
		MPI_Waitall((int)o.window, req, MPI_STATUSES_IGNORE);
		if (sender)
			MPI_Recv(ack, 4, MPI_BYTE, peer, BENCH_TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		else
			MPI_Send(ack, 4, MPI_BYTE, peer, BENCH_TAG_ACK, MPI_COMM_WORLD);
	}
	double t = sender ? MPI_Wtime() - t0 : 0;
	double sum = bench_sum_to_root(t);
	if (rank == 0)
		bench_result("msgrate", n, (double)pairs * o.window * o.iters / (sum / pairs), "msg/s");
	free(req);
	free(buf);
	MPI_Finalize();
	return 0;
}
