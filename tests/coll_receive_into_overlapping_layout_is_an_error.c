/* coll_receive_into_overlapping_layout_is_an_error: a collective whose receive buffer would
 * write some location twice (a receive type that overlaps itself: MPI_ERR_TYPE; v/w counts
 * and displacements that make two blocks overlap: MPI_ERR_ARG) fails in its blocking,
 * nonblocking, persistent and large-count forms, leaves the buffer alone and the
 * communicator usable; interleaved and out-of-order blocks that do not overlap still work. */
/* ranks: 2 4 */
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define MAXR 8

static int rank, size;
static int buf[4 * MAXR * MAXR], sbuf[4 * MAXR * MAXR];
static MPI_Datatype ovl, squeezed;

static void untouched(void)
{
	for (int i = 0; i < 4 * MAXR * MAXR; i++)
		CHECK_INT(buf[i], -1);
}

static void reset(void)
{
	for (int i = 0; i < 4 * MAXR * MAXR; i++) {
		buf[i] = -1;
		sbuf[i] = rank * 100 + i;
	}
}

/* Every rank calls: Allgather(v), Alltoall(v/w), Scatter(v), the reductions. */
static void symmetric_calls(void)
{
	MPI_Request q;
	int cnt[MAXR], dsp[MAXR], bytes[MAXR], ints[MAXR];
	MPI_Count ccnt[MAXR];
	MPI_Aint cdsp[MAXR];
	MPI_Datatype bytet[MAXR], ovlt[MAXR], intt[MAXR];
	MPI_Comm w = MPI_COMM_WORLD;

	for (int k = 0; k < size; k++) {
		cnt[k] = 2;
		ccnt[k] = 2;
		dsp[k] = size - 1 - k;       /* out of order, each block 2 long: neighbours overlap */
		cdsp[k] = size - 1 - k;
		bytes[k] = 8;
		ints[k] = 4 * k;             /* disjoint, in order */
		bytet[k] = MPI_BYTE;
		ovlt[k] = ovl;
		intt[k] = MPI_INT;
	}
	reset();
	/* A squeezed type (2 ints in an extent of 1): n blocks of 2 overlap. */
	CHECK_CLASS(MPI_Allgather(sbuf, 4, MPI_INT, buf, 2, squeezed, w), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Iallgather(sbuf, 4, MPI_INT, buf, 2, squeezed, w, &q), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Allgather_init(sbuf, 4, MPI_INT, buf, 2, squeezed, w, MPI_INFO_NULL, &q),
		    MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Allgather_c(sbuf, 4, MPI_INT, buf, 2, squeezed, w), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Alltoall(sbuf, 4, MPI_INT, buf, 2, squeezed, w), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Ialltoall(sbuf, 4, MPI_INT, buf, 2, squeezed, w, &q), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Alltoall_init(sbuf, 4, MPI_INT, buf, 2, squeezed, w, MPI_INFO_NULL, &q),
		    MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Alltoall_c(sbuf, 4, MPI_INT, buf, 2, squeezed, w), MPI_ERR_TYPE);
	/* Every rank also receives in a Scatter (no MPI_IN_PLACE). */
	CHECK_CLASS(MPI_Scatter(sbuf, 4, MPI_INT, buf, 2, squeezed, 0, w), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Iscatter(sbuf, 4, MPI_INT, buf, 2, squeezed, 0, w, &q), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Scatterv_init(sbuf, ints, ints, MPI_INT, buf, 1, ovl, 0, w,
				      MPI_INFO_NULL, &q), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Scatter_c(sbuf, 4, MPI_INT, buf, 2, squeezed, 0, w), MPI_ERR_TYPE);

	/* Predefined types, blocks that overlap through the displacements. */
	CHECK_CLASS(MPI_Allgatherv(sbuf, 2, MPI_INT, buf, cnt, dsp, MPI_INT, w), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Iallgatherv(sbuf, 2, MPI_INT, buf, cnt, dsp, MPI_INT, w, &q), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Allgatherv_init(sbuf, 2, MPI_INT, buf, cnt, dsp, MPI_INT, w,
					MPI_INFO_NULL, &q), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Allgatherv_c(sbuf, 2, MPI_INT, buf, ccnt, cdsp, MPI_INT, w), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Alltoallv(sbuf, cnt, ints, MPI_INT, buf, cnt, dsp, MPI_INT, w),
		    MPI_ERR_ARG);
	CHECK_CLASS(MPI_Ialltoallv(sbuf, cnt, ints, MPI_INT, buf, cnt, dsp, MPI_INT, w, &q),
		    MPI_ERR_ARG);
	CHECK_CLASS(MPI_Alltoallv_init(sbuf, cnt, ints, MPI_INT, buf, cnt, dsp, MPI_INT, w,
				       MPI_INFO_NULL, &q), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Alltoallv_c(sbuf, ccnt, cdsp, MPI_INT, buf, ccnt, cdsp, MPI_INT, w),
		    MPI_ERR_ARG);
	/* w: 8 bytes at byte displacements 0, 4, 8...: each block overlaps the next. */
	for (int k = 0; k < size; k++)
		dsp[k] = 4 * k, cdsp[k] = 4 * k, ccnt[k] = 8;
	CHECK_CLASS(MPI_Alltoallw(sbuf, bytes, dsp, bytet, buf, bytes, dsp, bytet, w),
		    MPI_ERR_ARG);
	CHECK_CLASS(MPI_Ialltoallw(sbuf, bytes, dsp, bytet, buf, bytes, dsp, bytet, w, &q),
		    MPI_ERR_ARG);
	CHECK_CLASS(MPI_Alltoallw_init(sbuf, bytes, dsp, bytet, buf, bytes, dsp, bytet, w,
				       MPI_INFO_NULL, &q), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Alltoallw_c(sbuf, ccnt, cdsp, bytet, buf, ccnt, cdsp, bytet, w),
		    MPI_ERR_ARG);
	/* w with a receive type that overlaps itself. */
	for (int k = 0; k < size; k++)
		dsp[k] = 16 * k, ints[k] = 1;
	CHECK_CLASS(MPI_Alltoallw(sbuf, ints, dsp, intt, buf, ints, dsp, ovlt, w), MPI_ERR_TYPE);

	/* Reductions: the receive buffer's type writes an int twice. */
	CHECK_CLASS(MPI_Allreduce(sbuf, buf, 1, ovl, MPI_SUM, w), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Iallreduce(sbuf, buf, 1, ovl, MPI_SUM, w, &q), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Allreduce_init(sbuf, buf, 1, ovl, MPI_SUM, w, MPI_INFO_NULL, &q),
		    MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Allreduce_c(sbuf, buf, 1, ovl, MPI_SUM, w), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Scan(sbuf, buf, 1, ovl, MPI_SUM, w), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Iexscan(sbuf, buf, 1, ovl, MPI_SUM, w, &q), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Reduce_scatter_block(sbuf, buf, 1, ovl, MPI_SUM, w), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Reduce_scatter(sbuf, buf, ints, ovl, MPI_SUM, w), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Reduce_local(sbuf, buf, 1, ovl, MPI_SUM), MPI_ERR_TYPE);
	untouched();
}

/* Only the root receives in Gather(v) and Reduce; only non-roots in Bcast. The erroneous
 * call returns before joining, so the other members do not call at all. */
static void rooted_calls(void)
{
	MPI_Request q;
	int cnt[MAXR], dsp[MAXR];
	MPI_Count ccnt[MAXR];
	MPI_Aint cdsp[MAXR];
	MPI_Comm w = MPI_COMM_WORLD;

	for (int k = 0; k < size; k++)
		cnt[k] = 1, dsp[k] = 0, ccnt[k] = 1, cdsp[k] = k == size - 1 ? 0 : k + 1;
	reset();
	if (rank == 0) {
		CHECK_CLASS(MPI_Gather(sbuf, 2, MPI_INT, buf, 2, squeezed, 0, w), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Igather_c(sbuf, 2, MPI_INT, buf, 2, squeezed, 0, w, &q),
			    MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Gatherv(sbuf, 1, MPI_INT, buf, cnt, dsp, MPI_INT, 0, w),
			    MPI_ERR_ARG);
		CHECK_CLASS(MPI_Igatherv(sbuf, 1, MPI_INT, buf, cnt, dsp, MPI_INT, 0, w, &q),
			    MPI_ERR_ARG);
		CHECK_CLASS(MPI_Gatherv_init(sbuf, 1, MPI_INT, buf, cnt, dsp, MPI_INT, 0, w,
					     MPI_INFO_NULL, &q), MPI_ERR_ARG);
		/* Rotated displacements 1, 2, ..., 0: disjoint, so only a self-overlap fails. */
		CHECK_CLASS(MPI_Gatherv_c(sbuf, 1, ovl, buf, ccnt, cdsp, ovl, 0, w), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Reduce(sbuf, buf, 1, ovl, MPI_SUM, 0, w), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Ireduce(sbuf, buf, 1, ovl, MPI_SUM, 0, w, &q), MPI_ERR_TYPE);
	} else {
		CHECK_CLASS(MPI_Bcast(buf, 1, ovl, 0, w), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Ibcast_c(buf, 1, ovl, 0, w, &q), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Bcast_init(buf, 1, ovl, 0, w, MPI_INFO_NULL, &q), MPI_ERR_TYPE);
	}
	untouched();
	/* The root may send from an overlapping layout. */
	reset();
	int src[4] = { 7, 8, 9, 10 };
	CHECK_MPI(MPI_Bcast(rank == 0 ? src : buf, rank == 0 ? 1 : 4, rank == 0 ? ovl : MPI_INT,
			    0, w));
	if (rank != 0) {
		CHECK_INT(buf[0], 7);
		CHECK_INT(buf[1], 8);
		CHECK_INT(buf[2], 8);
		CHECK_INT(buf[3], 9);
	}
}

/* Layouts that look suspicious but write every location once. */
static void accepted_calls(void)
{
	int cnt[MAXR], dsp[MAXR], bytes[MAXR], bdsp[MAXR];
	MPI_Datatype col, colr, bytet[MAXR];
	MPI_Comm w = MPI_COMM_WORLD;

	/* Allgatherv into reversed displacements. */
	reset();
	for (int k = 0; k < size; k++)
		cnt[k] = 2, dsp[k] = 2 * (size - 1 - k);
	CHECK_MPI(MPI_Allgatherv(sbuf, 2, MPI_INT, buf, cnt, dsp, MPI_INT, w));
	for (int k = 0; k < size; k++) {
		CHECK_INT(buf[2 * (size - 1 - k)], k * 100);
		CHECK_INT(buf[2 * (size - 1 - k) + 1], k * 100 + 1);
	}
	/* Gatherv of one column per rank into a size x size matrix: columns interleave (a
	 * column resized to one int), and each block is one element at displacement k. */
	CHECK_MPI(MPI_Type_vector(size, 1, size, MPI_INT, &col));
	CHECK_MPI(MPI_Type_create_resized(col, 0, sizeof(int), &colr));
	CHECK_MPI(MPI_Type_commit(&colr));
	reset();
	for (int k = 0; k < size; k++)
		cnt[k] = 1, dsp[k] = k;
	CHECK_MPI(MPI_Gatherv(sbuf, size, MPI_INT, buf, cnt, dsp, colr, 0, w));
	if (rank == 0)
		for (int row = 0; row < size; row++)
			for (int k = 0; k < size; k++)
				CHECK_INT(buf[row * size + k], k * 100 + row);
	/* Alltoallw: byte blocks out of order, touching but not overlapping. */
	reset();
	for (int k = 0; k < size; k++)
		bytes[k] = 4, bdsp[k] = 4 * (size - 1 - k), bytet[k] = MPI_BYTE, dsp[k] = 4 * k;
	CHECK_MPI(MPI_Alltoallw(sbuf, bytes, dsp, bytet, buf, bytes, bdsp, bytet, w));
	for (int k = 0; k < size; k++)
		CHECK_INT(buf[size - 1 - k], k * 100 + rank);
	MPI_Type_free(&col);
	MPI_Type_free(&colr);
}

int main(int argc, char **argv)
{
	MPI_Datatype pair;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size > MAXR)
		return 77;
	/* Blocks of 2 ints, 1 int apart: the middle int is written twice. */
	CHECK_MPI(MPI_Type_vector(2, 2, 1, MPI_INT, &ovl));
	CHECK_MPI(MPI_Type_commit(&ovl));
	/* Two ints in an extent of one: fine alone, overlapping from 2 elements. */
	CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair));
	CHECK_MPI(MPI_Type_create_resized(pair, 0, sizeof(int), &squeezed));
	CHECK_MPI(MPI_Type_commit(&squeezed));

	symmetric_calls();
	rooted_calls();
	accepted_calls();
	MPI_Type_free(&ovl);
	MPI_Type_free(&squeezed);
	MPI_Type_free(&pair);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
