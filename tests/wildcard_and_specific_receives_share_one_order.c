/* wildcard_and_specific_receives_share_one_order: receives from MPI_ANY_SOURCE and from one
 * source, posted in any mix, match a sender's messages in the order they were posted; and
 * messages that arrived one after another from different senders are taken by
 * MPI_ANY_SOURCE receives (and seen by MPI_Iprobe) in that order, with receives from one
 * source mixed in. At 70 ranks some sources share a matching bin (64 of them). */
/* ranks: 2 3 8 70 */
#include "check.h"

enum { TAG = 7, OTHER_TAG = 99, CHAIN_TAG = 1000, GO_TAG = 1 };

/* The sender of the chain's k-th message: senders in a scrambled order, some twice in a row. */
static int chain_source(int k, int size)
{
	return 1 + (k * 7 + k / 3) % (size - 1);
}

/* Rank 0 posts receives from `src` (S) and from any source (W) in the order of `pattern`,
 * then has `src` send len(pattern) messages 0, 1, ...: the i-th posted gets value i. A W
 * for OTHER_TAG posted first must be passed over and stay posted. */
static void posted_order(int src, const char *pattern)
{
	int n = (int)strlen(pattern), other = -1, go = 1;
	int *vals = calloc((size_t)n, sizeof *vals);
	MPI_Request *reqs = malloc(sizeof *reqs * (size_t)n), wild_other;
	MPI_Status *sts = malloc(sizeof *sts * (size_t)n), st;

	CHECK_MPI(MPI_Irecv(&other, 1, MPI_INT, MPI_ANY_SOURCE, OTHER_TAG, MPI_COMM_WORLD,
			    &wild_other));
	for (int i = 0; i < n; i++) {
		int from = pattern[i] == 'S' ? src : MPI_ANY_SOURCE;
		int tag = i % 3 == 2 ? MPI_ANY_TAG : TAG;
		CHECK_MPI(MPI_Irecv(&vals[i], 1, MPI_INT, from, tag, MPI_COMM_WORLD, &reqs[i]));
	}
	CHECK_MPI(MPI_Send(&n, 1, MPI_INT, src, GO_TAG, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Waitall(n, reqs, sts));
	for (int i = 0; i < n; i++) {
		CHECK_INT(vals[i], i);
		CHECK_INT(sts[i].MPI_SOURCE, src);
		CHECK_INT(sts[i].MPI_TAG, TAG);
	}
	int flag = 1;
	CHECK_MPI(MPI_Test(&wild_other, &flag, &st));
	CHECK_INT(flag, 0);
	CHECK_MPI(MPI_Send(&go, 1, MPI_INT, 0, OTHER_TAG, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Wait(&wild_other, &st));
	CHECK_INT(other, 1);
	CHECK_INT(st.MPI_SOURCE, 0);

	/* A cancelled wildcard between two receives from src takes nothing. */
	CHECK_MPI(MPI_Irecv(&vals[0], 1, MPI_INT, src, TAG, MPI_COMM_WORLD, &reqs[0]));
	CHECK_MPI(MPI_Irecv(&vals[1], 1, MPI_INT, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &reqs[1]));
	CHECK_MPI(MPI_Irecv(&vals[2], 1, MPI_INT, src, TAG, MPI_COMM_WORLD, &reqs[2]));
	CHECK_MPI(MPI_Cancel(&reqs[1]));
	CHECK_MPI(MPI_Wait(&reqs[1], &st));
	int cancelled = 0;
	CHECK_MPI(MPI_Test_cancelled(&st, &cancelled));
	CHECK_INT(cancelled, 1);
	n = 2;
	CHECK_MPI(MPI_Send(&n, 1, MPI_INT, src, GO_TAG, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Wait(&reqs[0], MPI_STATUS_IGNORE));
	CHECK_MPI(MPI_Wait(&reqs[2], MPI_STATUS_IGNORE));
	CHECK_INT(vals[0], 0);
	CHECK_INT(vals[2], 1);
	free(vals);
	free(reqs);
	free(sts);
}

/* Each message of the chain is in rank 0's hands (probed) before the next is sent. */
static void arrival_order(int size, int chain)
{
	for (int k = 0; k < chain; k++) {
		int src = chain_source(k, size);
		CHECK_MPI(MPI_Send(&k, 1, MPI_INT, src, GO_TAG, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Probe(src, CHAIN_TAG + k, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	}
	for (int k = 0; k < chain; k++) {
		int src = chain_source(k, size), flag = 0, v = -1;
		MPI_Status st;
		CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
		CHECK_INT(flag, 1);
		CHECK_INT(st.MPI_SOURCE, src);
		CHECK_INT(st.MPI_TAG, CHAIN_TAG + k);
		int from = k % 4 == 3 ? src : MPI_ANY_SOURCE;
		CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, from, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
		CHECK_INT(v, k);
		CHECK_INT(st.MPI_SOURCE, src);
		CHECK_INT(st.MPI_TAG, CHAIN_TAG + k);
	}
}

/* A sender: in posted_order, send 0..n-1 for each go; in arrival_order, its chain links. */
static void sender(int rank, int size, int rounds, int chain)
{
	for (int r = 0; r < rounds; r++) {
		int n;
		CHECK_MPI(MPI_Recv(&n, 1, MPI_INT, 0, GO_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		for (int i = 0; i < n; i++)
			CHECK_MPI(MPI_Send(&i, 1, MPI_INT, 0, TAG, MPI_COMM_WORLD));
	}
	for (int k = 0; k < chain; k++) {
		if (chain_source(k, size) != rank)
			continue;
		int got;
		CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, 0, GO_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		CHECK_INT(got, k);
		CHECK_MPI(MPI_Send(&k, 1, MPI_INT, 0, CHAIN_TAG + k, MPI_COMM_WORLD));
	}
}

int main(int argc, char **argv)
{
	static const char *patterns[] = { "SWSWWSSW", "WWWS", "SSSW", "WSWSWSWSWS" };
	const int npatterns = (int)(sizeof patterns / sizeof patterns[0]);
	int rank, size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size < 2) {
		CHECK_MPI(MPI_Finalize());
		return 0;
	}
	/* The senders tried: the first, the last, and at 70 ranks 65 (1's bin). */
	int tried[3] = { 1, size - 1, size > 65 ? 65 : 1 };
	int chain = 2 * (size - 1) < 150 ? 2 * (size - 1) : 150;

	if (rank == 0) {
		for (int t = 0; t < 3; t++)
			for (int p = 0; p < npatterns; p++)
				posted_order(tried[t], patterns[p]);
		arrival_order(size, chain);
	} else {
		int rounds = 0;
		for (int t = 0; t < 3; t++)
			if (tried[t] == rank)
				rounds += 2 * npatterns;
		sender(rank, size, rounds, chain);
	}
	CHECK_MPI(MPI_Finalize());
	return 0;
}
