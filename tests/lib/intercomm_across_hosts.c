/* Helper program of intercomm_across_hosts_create_merge_dup_split.sh (compiled by the test, not a
 * test itself): intercommunicators of MPI_COMM_WORLD's groups on several hosts (parity,
 * halves, one rank against the rest), point-to-point and a barrier on them, merge with the
 * high flag, dup; values, ranks and sizes checked. Prints "ok RANK". */
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>

static int rank, size, fails;
#define CHECK(c, ...) do { if (!(c)) { if (fails++ < 20) { fprintf(stderr, "rank %d line %d: ", \
	rank, __LINE__); fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } } while (0)

/* World rank of rank i of c's remote group (remote) or local group. */
static int world_of(MPI_Comm c, int i, int remote)
{
	MPI_Group g, w;
	int out;

	if (remote)
		MPI_Comm_remote_group(c, &g);
	else
		MPI_Comm_group(c, &g);
	MPI_Comm_group(MPI_COMM_WORLD, &w);
	MPI_Group_translate_ranks(g, 1, &i, w, &out);
	MPI_Group_free(&g);
	MPI_Group_free(&w);
	return out;
}

/* Each rank r sends its world rank to remote rank r % rsize; each receives, by
 * MPI_ANY_SOURCE, from every remote rank that targets it; a 1 MiB message goes from the
 * second group's rank 0 to the first group's rank 0. */
static void traffic(MPI_Comm ic, int first, const char *what)
{
	int r, n, rn, v, expect = 0, flag;
	MPI_Status st;
	MPI_Request q;

	MPI_Comm_test_inter(ic, &flag);
	CHECK(flag, "%s: not an intercommunicator", what);
	MPI_Comm_rank(ic, &r);
	MPI_Comm_size(ic, &n);
	MPI_Comm_remote_size(ic, &rn);
	CHECK(world_of(ic, r, 0) == rank, "%s: rank %d of mine is world %d", what, r,
	      world_of(ic, r, 0));
	MPI_Isend(&rank, 1, MPI_INT, r % rn, 11, ic, &q);
	for (int j = 0; j < rn; j++)
		expect += j % n == r;
	for (int k = 0; k < expect; k++) {
		MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 11, ic, &st);
		CHECK(st.MPI_SOURCE >= 0 && st.MPI_SOURCE < rn && st.MPI_SOURCE % n == r &&
		      v == world_of(ic, st.MPI_SOURCE, 1), "%s: got %d from remote %d", what, v,
		      st.MPI_SOURCE);
	}
	MPI_Wait(&q, MPI_STATUS_IGNORE);
	if (r == 0) {
		int cnt = 1 << 18, *big = malloc(sizeof(int) * cnt);
		if (!first) {
			for (int i = 0; i < cnt; i++)
				big[i] = i ^ rank;
			MPI_Send(big, cnt, MPI_INT, 0, 12, ic);
		} else {
			int from = world_of(ic, 0, 1);
			MPI_Recv(big, cnt, MPI_INT, 0, 12, ic, &st);
			for (int i = 0; i < cnt; i++)
				if (big[i] != (i ^ from)) {
					CHECK(0, "%s big: [%d] = %d", what, i, big[i]);
					break;
				}
		}
		free(big);
	}
	MPI_Barrier(ic);
	/* Bcast each way: from the first group's rank 0, then (Ibcast) from the second's last rank
	 * (MPI_ROOT there, MPI_PROC_NULL for the rest of its group). */
	for (int dir = 0; dir < 2; dir++) {
		int cnt = 3000, *b = malloc(sizeof(int) * cnt), sends = dir ? !first : first;
		int root = dir ? rn - 1 : 0, rootw;
		if (sends) {
			root = r == (dir ? n - 1 : 0) ? MPI_ROOT : MPI_PROC_NULL;
			for (int i = 0; i < cnt; i++)
				b[i] = root == MPI_ROOT ? i * 7 + rank : -1;
		}
		if (dir == 0) {
			MPI_Bcast(b, cnt, MPI_INT, root, ic);
		} else {
			MPI_Request bq;
			MPI_Ibcast(b, cnt, MPI_INT, root, ic, &bq);
			MPI_Wait(&bq, MPI_STATUS_IGNORE);
		}
		rootw = sends ? -1 : world_of(ic, root, 1);
		for (int i = 0; i < cnt; i++)
			if (sends ? (root == MPI_ROOT ? b[i] != i * 7 + rank : b[i] != -1)
				  : b[i] != i * 7 + rootw) {
				CHECK(0, "%s bcast %d: [%d] = %d", what, dir, i, b[i]);
				break;
			}
		free(b);
	}
	/* Allgather (nonblocking on odd sizes): block j from remote rank j. */
	int *all = malloc(sizeof(int) * 2 * rn), me2[2] = { rank, rank * 10 };
	if (n % 2) {
		MPI_Request aq;
		MPI_Iallgather(me2, 2, MPI_INT, all, 2, MPI_INT, ic, &aq);
		MPI_Wait(&aq, MPI_STATUS_IGNORE);
	} else {
		MPI_Allgather(me2, 2, MPI_INT, all, 2, MPI_INT, ic);
	}
	for (int j = 0; j < rn; j++)
		CHECK(all[2 * j] == world_of(ic, j, 1) && all[2 * j + 1] == 10 * all[2 * j],
		      "%s allgather: block %d = %d %d", what, j, all[2 * j], all[2 * j + 1]);
	/* Alltoall: block j to remote rank j. */
	int *out = malloc(sizeof(int) * rn), *in = malloc(sizeof(int) * rn);
	for (int j = 0; j < rn; j++)
		out[j] = rank * 1000 + j;
	MPI_Alltoall(out, 1, MPI_INT, in, 1, MPI_INT, ic);
	for (int j = 0; j < rn; j++)
		CHECK(in[j] == world_of(ic, j, 1) * 1000 + r, "%s alltoall: block %d = %d", what, j,
		      in[j]);
	/* Alltoallv: j + 1 ints to remote rank j, r + 1 from each. */
	int *sc = malloc(sizeof(int) * rn), *sd = malloc(sizeof(int) * rn);
	int *rc = malloc(sizeof(int) * rn), *rd = malloc(sizeof(int) * rn), tot = 0;
	for (int j = 0; j < rn; j++) {
		sc[j] = j + 1;
		sd[j] = tot;
		tot += j + 1;
		rc[j] = r + 1;
		rd[j] = j * (r + 1);
	}
	int *vs = malloc(sizeof(int) * (tot + 1)), *vr = malloc(sizeof(int) * rn * (r + 1));
	for (int j = 0; j < rn; j++)
		for (int i = 0; i < j + 1; i++)
			vs[sd[j] + i] = rank * 100 + j * 10 + i;
	MPI_Alltoallv(vs, sc, sd, MPI_INT, vr, rc, rd, MPI_INT, ic);
	for (int j = 0; j < rn; j++)
		for (int i = 0; i <= r; i++)
			if (vr[rd[j] + i] != world_of(ic, j, 1) * 100 + r * 10 + i) {
				CHECK(0, "%s alltoallv: from %d [%d] = %d", what, j, i, vr[rd[j] + i]);
				j = rn;
				break;
			}
	/* Gather to the first group's rank 0; Scatter from the second's last rank. */
	int groot = first ? (r == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
	for (int j = 0; j < rn; j++)
		in[j] = -1;
	MPI_Gather(&rank, 1, MPI_INT, in, 1, MPI_INT, groot, ic);
	for (int j = 0; groot == MPI_ROOT && j < rn; j++)
		CHECK(in[j] == world_of(ic, j, 1), "%s gather: block %d = %d", what, j, in[j]);
	int sroot = !first ? (r == n - 1 ? MPI_ROOT : MPI_PROC_NULL) : rn - 1, got = -1;
	for (int j = 0; j < rn; j++)
		out[j] = 500 + j + rank;
	MPI_Scatter(out, 1, MPI_INT, &got, 1, MPI_INT, sroot, ic);
	if (sroot >= 0)
		CHECK(got == 500 + r + world_of(ic, sroot, 1), "%s scatter: got %d", what, got);
	/* Reductions: each group gets the fold of the other's inputs. */
	long sumw = 0;
	for (int j = 0; j < rn; j++)
		sumw += world_of(ic, j, 1);
	int two[2] = { rank, -rank }, res[2] = { 0, 0 };
	MPI_Request rq;
	MPI_Iallreduce(two, res, 2, MPI_INT, MPI_SUM, ic, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	CHECK(res[0] == sumw && res[1] == -sumw, "%s iallreduce: %d %d, not %ld", what, res[0],
	      res[1], sumw);
	double dv = rank * 0.5, dres[1] = { -1 };
	MPI_Allreduce(&dv, dres, 1, MPI_DOUBLE, MPI_MAX, ic);
	int maxw = 0;
	for (int j = 0; j < rn; j++)
		maxw = world_of(ic, j, 1) > maxw ? world_of(ic, j, 1) : maxw;
	CHECK(dres[0] == maxw * 0.5, "%s allreduce max: %g", what, dres[0]);
	/* Reduce to the first group's rank 0, then (Ireduce) to the second's last rank. */
	for (int dir = 0; dir < 2; dir++) {
		int gets = dir ? !first : first, rroot;
		if (gets)
			rroot = r == (dir ? n - 1 : 0) ? MPI_ROOT : MPI_PROC_NULL;
		else
			rroot = dir ? rn - 1 : 0;
		dres[0] = -1;
		if (dir == 0) {
			MPI_Reduce(&dv, dres, 1, MPI_DOUBLE, MPI_SUM, rroot, ic);
		} else {
			MPI_Ireduce(&dv, dres, 1, MPI_DOUBLE, MPI_SUM, rroot, ic, &rq);
			MPI_Wait(&rq, MPI_STATUS_IGNORE);
		}
		CHECK(rroot == MPI_ROOT ? dres[0] == sumw * 0.5 : dres[0] == -1,
		      "%s reduce %d: %g (root %d)", what, dir, dres[0], rroot);
	}
	/* Reduce_scatter: n * rn elements in, rn to each of the other group's members; vin
	 * also holds Reduce_scatter_block's 2 * rn (more than n * rn when n is 1). */
	int tot2 = n * rn, *vin = malloc(sizeof(int) * (tot2 > 2 * rn ? tot2 : 2 * rn));
	int *vout = malloc(sizeof(int) * rn);
	int *cnts = malloc(sizeof(int) * n);
	for (int i = 0; i < n; i++)
		cnts[i] = rn;
	for (int e = 0; e < tot2; e++)
		vin[e] = rank + e;
	MPI_Reduce_scatter(vin, vout, cnts, MPI_INT, MPI_SUM, ic);
	for (int i = 0; i < rn; i++)
		if (vout[i] != sumw + rn * (r * rn + i)) {
			CHECK(0, "%s reduce_scatter: [%d] = %d", what, i, vout[i]);
			break;
		}
	if (n == rn) {
		int blk[2];
		for (int e = 0; e < 2 * n; e++)
			vin[e] = 3 * rank + e;
		MPI_Reduce_scatter_block(vin, blk, 2, MPI_INT, MPI_SUM, ic);
		for (int i = 0; i < 2; i++)
			CHECK(blk[i] == 3 * sumw + rn * (2 * r + i), "%s reduce_scatter_block: "
			      "[%d] = %d", what, i, blk[i]);
	}
	free(vin);
	free(vout);
	free(cnts);
	free(all);
	free(out);
	free(in);
	free(sc);
	free(sd);
	free(rc);
	free(rd);
	free(vs);
	free(vr);
}

/* Groups by `color` (0 or 1) of world; leaders: the local group's rank `lead`
 * (clamped), remote leader named in world. */
static void scenario(const int *color, int lead, const char *what)
{
	MPI_Comm local, ic, merged, dup;
	int mine = color[rank], ln = 0, rn = 0, lr, rleader = -1, lw = -1;

	for (int w = 0; w < size; w++)
		ln += color[w] == mine;
	rn = size - ln;
	MPI_Comm_split(MPI_COMM_WORLD, mine, rank, &local);
	MPI_Comm_rank(local, &lr);
	int myl = lead < ln ? lead : ln - 1, theirl = lead < rn ? lead : rn - 1;
	for (int w = 0, i = 0, j = 0; w < size; w++) {
		if (color[w] == mine && i++ == myl)
			lw = w;
		if (color[w] != mine && j++ == theirl)
			rleader = w;
	}
	MPI_Intercomm_create(local, myl, MPI_COMM_WORLD, rleader, 5, &ic);
	int icr, ics, icrs;
	MPI_Comm_rank(ic, &icr);
	MPI_Comm_size(ic, &ics);
	MPI_Comm_remote_size(ic, &icrs);
	CHECK(icr == lr && ics == ln && icrs == rn, "%s: rank %d size %d remote %d", what, icr,
	      ics, icrs);
	for (int j = 0, w = 0; w < size; w++)
		if (color[w] != mine) {
			CHECK(world_of(ic, j, 1) == w, "%s: remote %d is world %d", what, j,
			      world_of(ic, j, 1));
			j++;
		}
	/* Group 0 is the group of the leader of lower world rank. */
	int first = lw < rleader;
	traffic(ic, first, what);
	/* Merge: high groups after low ones; each in its order. */
	for (int high = 0; high < 3; high++) {
		int h = high == 2 ? 0 : (mine == 1) ^ high, mr, ms, low;
		MPI_Intercomm_merge(ic, h, &merged);
		MPI_Comm_rank(merged, &mr);
		MPI_Comm_size(merged, &ms);
		low = high == 2 ? first : !h;
		CHECK(ms == size && mr == (low ? lr : rn + lr), "%s merge %d: rank %d of %d", what,
		      high, mr, ms);
		int sum = 0, ring = -1, to = (mr + 1) % ms, from = (mr + ms - 1) % ms, fw;
		MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, merged);
		CHECK(sum == size * (size - 1) / 2, "%s merge %d: sum %d", what, high, sum);
		MPI_Sendrecv(&rank, 1, MPI_INT, to, 3, &ring, 1, MPI_INT, from, 3, merged,
			     MPI_STATUS_IGNORE);
		MPI_Group g, w;
		MPI_Comm_group(merged, &g);
		MPI_Comm_group(MPI_COMM_WORLD, &w);
		MPI_Group_translate_ranks(g, 1, &from, w, &fw);
		MPI_Group_free(&g);
		MPI_Group_free(&w);
		CHECK(ring == fw, "%s merge %d: ring got %d, not %d", what, high, ring, fw);
		MPI_Comm_free(&merged);
	}
	/* A dup: the same groups, its messages apart from the parent's. */
	MPI_Comm_dup(ic, &dup);
	int dr, ds, drs;
	MPI_Comm_rank(dup, &dr);
	MPI_Comm_size(dup, &ds);
	MPI_Comm_remote_size(dup, &drs);
	CHECK(dr == icr && ds == ics && drs == icrs, "%s dup: rank %d size %d remote %d", what,
	      dr, ds, drs);
	if (icr == 0) {
		int a = 100 + rank, b = -1, c = -1;
		MPI_Request q[2];
		MPI_Irecv(&b, 1, MPI_INT, 0, 9, ic, &q[0]);
		MPI_Irecv(&c, 1, MPI_INT, 0, 9, dup, &q[1]);
		MPI_Send(&a, 1, MPI_INT, 0, 9, dup);
		a += 1000;
		MPI_Send(&a, 1, MPI_INT, 0, 9, ic);
		MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
		int o = world_of(ic, 0, 1);
		CHECK(c == 100 + o && b == 1100 + o, "%s dup: got %d on dup, %d on parent", what,
		      c, b);
	}
	traffic(dup, first, what);
	MPI_Comm_free(&dup);
	/* An idup, completed while the parent carries a message. */
	MPI_Request iq;
	int tok = rank, tin = -1;
	MPI_Comm_idup(ic, &dup, &iq);
	if (icr == 0) {
		MPI_Sendrecv(&tok, 1, MPI_INT, 0, 4, &tin, 1, MPI_INT, MPI_ANY_SOURCE, 4, ic,
			     MPI_STATUS_IGNORE);
		CHECK(tin == world_of(ic, 0, 1), "%s: during idup got %d", what, tin);
	}
	MPI_Wait(&iq, MPI_STATUS_IGNORE);
	MPI_Comm_remote_size(dup, &drs);
	MPI_Comm_rank(dup, &dr);
	CHECK(dr == icr && drs == icrs, "%s idup: rank %d remote %d", what, dr, drs);
	traffic(dup, first, what);
	MPI_Comm_free(&dup);
	/* Split by parity of the rank in the group, keys reversing the order: a color on one
	 * side only gives MPI_COMM_NULL. */
	MPI_Comm sp;
	int want = 0, rwant = 0;
	for (int i = 0; i < ln; i++)
		want += i % 2 == lr % 2;
	for (int j = 0; j < rn; j++)
		rwant += j % 2 == lr % 2;
	MPI_Comm_split(ic, lr % 2, -lr, &sp);
	if (rwant == 0) {
		CHECK(sp == MPI_COMM_NULL, "%s split: a color on one side gave a communicator", what);
	} else {
		int sr, ss, srs;
		CHECK(sp != MPI_COMM_NULL, "%s split: MPI_COMM_NULL", what);
		MPI_Comm_rank(sp, &sr);
		MPI_Comm_size(sp, &ss);
		MPI_Comm_remote_size(sp, &srs);
		CHECK(ss == want && srs == rwant &&  sr == (ln - 1 - lr) / 2,
		      "%s split: rank %d size %d remote %d (want %d %d)", what, sr, ss,
		      srs, want, rwant);
		CHECK(world_of(sp, sr, 0) == rank, "%s split: not me", what);
		/* Group 0 of the new one is made of the parent's group 0. */
		traffic(sp, first, what);
		MPI_Comm_free(&sp);
	}
	/* Create: each group names its first half (rounded up). */
	MPI_Group lg, half;
	int range[1][3] = { { 0, (ln + 1) / 2 - 1, 1 } };
	MPI_Comm_group(ic, &lg);
	MPI_Group_range_incl(lg, 1, range, &half);
	MPI_Comm cr;
	MPI_Comm_create(ic, half, &cr);
	if (lr >= (ln + 1) / 2) {
		CHECK(cr == MPI_COMM_NULL, "%s create: a communicator outside the group", what);
	} else {
		int cs, crs, crr;
		CHECK(cr != MPI_COMM_NULL, "%s create: MPI_COMM_NULL", what);
		MPI_Comm_rank(cr, &crr);
		MPI_Comm_size(cr, &cs);
		MPI_Comm_remote_size(cr, &crs);
		CHECK(crr == lr && cs == (ln + 1) / 2 && crs == (rn + 1) / 2,
		      "%s create: rank %d size %d remote %d", what, crr, cs, crs);
		traffic(cr, first, what);
		MPI_Comm_free(&cr);
	}
	MPI_Group_free(&half);
	MPI_Group_free(&lg);
	MPI_Comm_free(&ic);
	MPI_Comm_free(&local);
}

int main(int argc, char **argv)
{
	int *color;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	color = malloc(sizeof(int) * size);
	for (int w = 0; w < size; w++)
		color[w] = w % 2;
	scenario(color, 0, "parity");
	for (int w = 0; w < size; w++)
		color[w] = w >= size / 2;
	scenario(color, 1, "halves");
	for (int w = 0; w < size; w++)
		color[w] = w != 0;
	scenario(color, 0, "one against the rest");
	for (int w = 0; w < size; w++)
		color[w] = w == size - 1;
	scenario(color, 2, "the rest against the last");
	free(color);
	printf("%s %d\n", fails ? "FAILED" : "ok", rank);
	MPI_Finalize();
	return fails != 0;
}
