/* coll_persistent_every_collective_restarts_with_new_data: each of the 17 MPI_…_init collectives, started three times with new buffer contents (Wait, Test, then all at once with Startall), gives the right values and stays allocated and inactive in between */
/* ranks: 1 2 4 64 */
#include "check.h"

#define NREQ 17
#define STARTS 3

static int f(int k, int r, int i)
{
	return k * 100000 + r * 100 + i + 1;
}

int main(int argc, char **argv)
{
	int rank, n, flag;
	MPI_Comm w = MPI_COMM_WORLD;
	MPI_Request q[NREQ];
	MPI_Info info;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(w, &rank);
	MPI_Comm_size(w, &n);
	CHECK_MPI(MPI_Info_create(&info));
	CHECK_MPI(MPI_Info_set(info, "shoal_unused_hint", "1"));

	/* Per-peer tables: counts j % 3 + 1 (v forms), displacements packed. */
	int *cnt = malloc(n * sizeof(int)), *dsp = malloc(n * sizeof(int)), total = 0;
	int *one = malloc(n * sizeof(int)), *iota = malloc(n * sizeof(int));
	int *rev = malloc(n * sizeof(int)), *bytes = malloc(n * sizeof(int));
	int *rsc = malloc(n * sizeof(int));
	MPI_Datatype *ints = malloc(n * sizeof(MPI_Datatype));
	for (int j = 0; j < n; j++) {
		cnt[j] = j % 3 + 1;
		dsp[j] = total;
		total += cnt[j];
		one[j] = 1;
		iota[j] = j;
		rev[j] = n - 1 - j;
		bytes[j] = j * (int)sizeof(int);
		rsc[j] = 1 + j % 2;
		ints[j] = MPI_INT;
	}
	int rsc_total = 0, my_off = 0;
	for (int j = 0; j < n; j++) {
		if (j < rank)
			my_off += rsc[j];
		rsc_total += rsc[j];
	}
	int root = n - 1;
	int bc[2], gs, gr[64], gvs[3], gvr[192], ss[64], sr, svs[128], svr[2], ags, agr[64];
	int agvs[3], agvr[192], ats[64], atr[64], avs[64], avr[64], aws[64], awr[64];
	int rds[2], rdr[2], ars[2], arr[2], rss[128], rsr[2], rbs[128], rbr[2], scs, scr, exs,
	    exr;
	CHECK_CMP(n, <=, 64);

	CHECK_MPI(MPI_Barrier_init(w, info, &q[0]));
	CHECK_MPI(MPI_Bcast_init(bc, 2, MPI_INT, root, w, MPI_INFO_NULL, &q[1]));
	CHECK_MPI(MPI_Gather_init(&gs, 1, MPI_INT, gr, 1, MPI_INT, 0, w, info, &q[2]));
	CHECK_MPI(MPI_Gatherv_init(gvs, cnt[rank], MPI_INT, gvr, cnt, dsp, MPI_INT, root, w, info,
				   &q[3]));
	CHECK_MPI(MPI_Scatter_init(ss, 1, MPI_INT, &sr, 1, MPI_INT, 0, w, info, &q[4]));
	CHECK_MPI(MPI_Scatterv_init(svs, rsc, dsp, MPI_INT, svr, rsc[rank], MPI_INT, 0, w, info,
				    &q[5]));
	CHECK_MPI(MPI_Allgather_init(&ags, 1, MPI_INT, agr, 1, MPI_INT, w, info, &q[6]));
	CHECK_MPI(MPI_Allgatherv_init(agvs, cnt[rank], MPI_INT, agvr, cnt, dsp, MPI_INT, w, info,
				      &q[7]));
	CHECK_MPI(MPI_Alltoall_init(ats, 1, MPI_INT, atr, 1, MPI_INT, w, info, &q[8]));
	CHECK_MPI(MPI_Alltoallv_init(avs, one, rev, MPI_INT, avr, one, iota, MPI_INT, w, info,
				     &q[9]));
	CHECK_MPI(MPI_Alltoallw_init(aws, one, bytes, ints, awr, one, bytes, ints, w, info,
				     &q[10]));
	CHECK_MPI(MPI_Reduce_init(rds, rdr, 2, MPI_INT, MPI_SUM, 0, w, info, &q[11]));
	CHECK_MPI(MPI_Allreduce_init(ars, arr, 2, MPI_INT, MPI_SUM, w, info, &q[12]));
	CHECK_MPI(MPI_Reduce_scatter_init(rss, rsr, rsc, MPI_INT, MPI_SUM, w, info, &q[13]));
	CHECK_MPI(MPI_Reduce_scatter_block_init(rbs, rbr, 2, MPI_INT, MPI_SUM, w, info, &q[14]));
	CHECK_MPI(MPI_Scan_init(&scs, &scr, 1, MPI_INT, MPI_SUM, w, info, &q[15]));
	CHECK_MPI(MPI_Exscan_init(&exs, &exr, 1, MPI_INT, MPI_SUM, w, info, &q[16]));
	CHECK_MPI(MPI_Info_free(&info));

	/* Not started yet: inactive, so Test completes at once and the handle stays. */
	CHECK_MPI(MPI_Test(&q[1], &flag, MPI_STATUS_IGNORE));
	CHECK_INT(flag, 1);
	CHECK(q[1] != MPI_REQUEST_NULL);

	for (int k = 0; k < STARTS; k++) {
		/* New contents for every start. */
		for (int i = 0; i < 2; i++)
			bc[i] = rank == root ? f(k, root, i) : -1;
		gs = f(k, rank, 0);
		for (int i = 0; i < 3; i++)
			gvs[i] = agvs[i] = f(k, rank, i);
		for (int j = 0; j < n; j++) {
			ss[j] = rank == 0 ? f(k, j, 0) : -1;
			ats[j] = aws[j] = f(k, rank, j);
			avs[n - 1 - j] = f(k, rank, j);
		}
		for (int j = 0; j < 128; j++)
			svs[j] = rank == 0 ? f(k, 0, j) : -1;
		ags = f(k, rank, 0);
		for (int i = 0; i < 2; i++)
			rds[i] = ars[i] = f(k, rank, i);
		for (int i = 0; i < rsc_total; i++)
			rss[i] = f(k, rank, i);
		for (int i = 0; i < 2 * n; i++)
			rbs[i] = f(k, rank, i);
		scs = exs = f(k, rank, 0);

		if (k == 0) {
			for (int i = 0; i < NREQ; i++) {
				CHECK_MPI(MPI_Start(&q[i]));
				CHECK_MPI(MPI_Wait(&q[i], MPI_STATUS_IGNORE));
				CHECK(q[i] != MPI_REQUEST_NULL);
			}
		} else if (k == 1) {
			for (int i = 0; i < NREQ; i++) {
				CHECK_MPI(MPI_Start(&q[i]));
				do
					CHECK_MPI(MPI_Test(&q[i], &flag, MPI_STATUS_IGNORE));
				while (!flag);
			}
		} else {
			CHECK_MPI(MPI_Startall(NREQ, q));
			CHECK_MPI(MPI_Waitall(NREQ, q, MPI_STATUSES_IGNORE));
		}
		for (int i = 0; i < NREQ; i++)
			CHECK(q[i] != MPI_REQUEST_NULL);

		for (int i = 0; i < 2; i++)
			CHECK_INT(bc[i], f(k, root, i));
		if (rank == 0)
			for (int j = 0; j < n; j++)
				CHECK_INT(gr[j], f(k, j, 0));
		if (rank == root)
			for (int j = 0; j < n; j++)
				for (int i = 0; i < cnt[j]; i++)
					CHECK_INT(gvr[dsp[j] + i], f(k, j, i));
		CHECK_INT(sr, f(k, rank, 0));
		for (int i = 0; i < rsc[rank]; i++)
			CHECK_INT(svr[i], f(k, 0, dsp[rank] + i));
		for (int j = 0; j < n; j++) {
			CHECK_INT(agr[j], f(k, j, 0));
			for (int i = 0; i < cnt[j]; i++)
				CHECK_INT(agvr[dsp[j] + i], f(k, j, i));
			CHECK_INT(atr[j], f(k, j, rank));
			CHECK_INT(avr[j], f(k, j, rank));
			CHECK_INT(awr[j], f(k, j, rank));
		}
		for (int i = 0; i < 2; i++) {
			long long s = 0;
			for (int j = 0; j < n; j++)
				s += f(k, j, i);
			if (rank == 0)
				CHECK_INT(rdr[i], s);
			CHECK_INT(arr[i], s);
		}
		for (int i = 0; i < rsc[rank]; i++) {
			long long s = 0;
			for (int j = 0; j < n; j++)
				s += f(k, j, my_off + i);
			CHECK_INT(rsr[i], s);
		}
		for (int i = 0; i < 2; i++) {
			long long s = 0;
			for (int j = 0; j < n; j++)
				s += f(k, j, 2 * rank + i);
			CHECK_INT(rbr[i], s);
		}
		long long pre = 0;
		for (int j = 0; j < rank; j++)
			pre += f(k, j, 0);
		CHECK_INT(scr, pre + f(k, rank, 0));
		if (rank > 0)
			CHECK_INT(exr, pre);
	}
	for (int i = 0; i < NREQ; i++) {
		CHECK_MPI(MPI_Request_free(&q[i]));
		CHECK(q[i] == MPI_REQUEST_NULL);
	}
	free(cnt), free(dsp), free(one), free(iota), free(rev), free(bytes), free(rsc), free(ints);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
