/* bad_handles_fail_with_error_class: with MPI_ERRORS_RETURN, every handle-taking function
 * given a handle that is no object of its kind (random 64-bit words, small ints as an MPI
 * with int handles uses, two ints read as one pointer, pointers to the stack and the heap,
 * freed handles, a handle of another kind) returns the error class of that argument
 * (MPI_ERR_COMM, MPI_ERR_TYPE, MPI_ERR_OP, MPI_ERR_REQUEST, MPI_ERR_GROUP, MPI_ERR_INFO,
 * MPI_ERR_ERRHANDLER) and never faults, also for one entry of the arrays of
 * MPI_Alltoallw, MPI_Ialltoallw, MPI_Type_create_struct, the Wait/Test family and
 * MPI_Startall. */
/* ranks: 1 2 4 */
#include <stdint.h>

#include "check.h"

#define NBAD 40

static uintptr_t bad[NBAD];
static int nbad;

/* xorshift64: the same words on every rank and run. */
static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void add(uintptr_t v)
{
	if (nbad < NBAD)
		bad[nbad++] = v;
}

static void user_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
}

static void user_errh(MPI_Comm *comm, int *code, ...)
{
}

/* A handle of kind T from word v. */
#define AS(T, v) ((T)(uintptr_t)(v))

int main(int argc, char **argv)
{
	int rank, size, local = 0, flag, idx, outcount, indices[4];
	static int heap_int_handles[8] = { 0x44000000, 0x4c00010b, 0x58000003, 0x4c00010b };
	int *heap = malloc(64);
	char buf[256] = { 0 };
	MPI_Status st = { 0 }, sts[4];
	uint64_t seed = 0x9e3779b97f4a7c15ull;

	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
	CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));

	/* Small ints: handles of an MPI whose handles are ints (Fortran's too). */
	for (int v = 1; v <= 8; v++)
		add((uintptr_t)v);
	add(91);
	add(0x44000000);  /* an int communicator handle as a pointer */
	add(0x4c00010b);  /* an int datatype handle */
	/* Two int handles read as one pointer: an int array passed for a handle array. */
	uintptr_t two;
	memcpy(&two, heap_int_handles, sizeof two);
	add(two);
	memcpy(&two, heap_int_handles + 2, sizeof two);
	add(two);
	/* Mapped memory that holds no object: the stack, the heap, the program's data. */
	add((uintptr_t)&local);
	add((uintptr_t)heap);
	add((uintptr_t)heap_int_handles);
	add(UINTPTR_MAX);
	add((uintptr_t)1 << 63);
	while (nbad < NBAD)
		add((uintptr_t)next(&seed));

	/* Freed handles of every kind, and handles of another kind. */
	MPI_Comm freed_comm;
	MPI_Datatype freed_type;
	MPI_Op freed_op;
	MPI_Group freed_group, group;
	MPI_Info freed_info;
	MPI_Errhandler freed_errh;
	MPI_Request freed_req;
	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &freed_comm));
	CHECK_MPI(MPI_Comm_free(&(MPI_Comm){ freed_comm }));
	CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &freed_type));
	CHECK_MPI(MPI_Type_commit(&freed_type));
	CHECK_MPI(MPI_Type_free(&(MPI_Datatype){ freed_type }));
	CHECK_MPI(MPI_Op_create(user_op, 1, &freed_op));
	CHECK_MPI(MPI_Op_free(&(MPI_Op){ freed_op }));
	CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &group));
	CHECK_MPI(MPI_Group_incl(group, 1, (int[]){ 0 }, &freed_group));
	CHECK_MPI(MPI_Group_free(&(MPI_Group){ freed_group }));
	CHECK_MPI(MPI_Info_create(&freed_info));
	CHECK_MPI(MPI_Info_free(&(MPI_Info){ freed_info }));
	CHECK_MPI(MPI_Comm_create_errhandler(user_errh, &freed_errh));
	CHECK_MPI(MPI_Errhandler_free(&(MPI_Errhandler){ freed_errh }));
	/* A rank reuses its freed requests first: the live one is made before. */
	MPI_Request live;
	CHECK_MPI(MPI_Recv_init(buf, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &live));
	CHECK_MPI(MPI_Irecv(buf, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &freed_req));
	CHECK_MPI(MPI_Wait(&(MPI_Request){ freed_req }, MPI_STATUS_IGNORE));

	MPI_Datatype pair;
	CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair));
	CHECK_MPI(MPI_Type_commit(&pair));

	int counts[64], displs[64];
	MPI_Datatype types[64], rtypes[64];
	for (int i = 0; i < size; i++) {
		counts[i] = 1;
		displs[i] = i * (int)sizeof(int);
		types[i] = rtypes[i] = MPI_INT;
	}
	int *sbuf = calloc((size_t)size, sizeof(int)), *rbuf = calloc((size_t)size, sizeof(int));

	for (int k = 0; k < nbad + 2; k++) {
		/* The bad words, then the freed handles, then a handle of another kind. */
		uintptr_t v = k < nbad ? bad[k] : 0;
		MPI_Comm comm = k < nbad ? AS(MPI_Comm, v) : k == nbad ? freed_comm : AS(MPI_Comm, MPI_INT);
		MPI_Datatype type = k < nbad ? AS(MPI_Datatype, v) : k == nbad ? freed_type
								  : AS(MPI_Datatype, MPI_COMM_WORLD);
		MPI_Op op = k < nbad ? AS(MPI_Op, v) : k == nbad ? freed_op : AS(MPI_Op, MPI_INT);
		MPI_Group grp = k < nbad ? AS(MPI_Group, v) : k == nbad ? freed_group
							    : AS(MPI_Group, MPI_COMM_WORLD);
		MPI_Info info = k < nbad ? AS(MPI_Info, v) : k == nbad ? freed_info
							   : AS(MPI_Info, MPI_SUM);
		MPI_Errhandler errh = k < nbad ? AS(MPI_Errhandler, v) : k == nbad ? freed_errh
								   : AS(MPI_Errhandler, MPI_SUM);
		MPI_Request req = k < nbad ? AS(MPI_Request, v) : k == nbad ? freed_req
							    : AS(MPI_Request, MPI_COMM_WORLD);
		MPI_Comm c2;
		MPI_Datatype t2;
		MPI_Group g2;
		MPI_Aint lb, extent;
		int n;

		/* Communicators. */
		CHECK_CLASS(MPI_Comm_rank(comm, &n), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Comm_size(comm, &n), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Comm_dup(comm, &c2), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Comm_split(comm, 0, 0, &c2), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Comm_compare(comm, MPI_COMM_WORLD, &n), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Comm_group(comm, &g2), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Comm_test_inter(comm, &n), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Comm_get_name(comm, (char[MPI_MAX_OBJECT_NAME]){ 0 }, &n),
			    MPI_ERR_COMM);
		c2 = comm;
		CHECK_CLASS(MPI_Comm_free(&c2), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Send(buf, 1, MPI_INT, 0, 0, comm), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Recv(buf, 1, MPI_INT, 0, 0, comm, &st), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Isend(buf, 1, MPI_INT, 0, 0, comm, &(MPI_Request){ 0 }), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Iprobe(0, 0, comm, &flag, &st), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Barrier(comm), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Bcast(buf, 1, MPI_INT, 0, comm), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Allreduce(sbuf, rbuf, 1, MPI_INT, MPI_SUM, comm), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Alltoallw(sbuf, counts, displs, types, rbuf, counts, displs, rtypes,
					  comm), MPI_ERR_COMM);

		/* Datatypes, single and in arrays. */
		CHECK_CLASS(MPI_Send(buf, 1, type, 0, 0, MPI_COMM_SELF), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Recv(buf, 1, type, 0, 0, MPI_COMM_SELF, &st), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Irecv(buf, 1, type, 0, 0, MPI_COMM_SELF, &(MPI_Request){ 0 }),
			    MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Bcast(buf, 1, type, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Allreduce(sbuf, rbuf, 1, type, MPI_SUM, MPI_COMM_WORLD),
			    MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Type_size(type, &n), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Type_get_extent(type, &lb, &extent), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Type_contiguous(2, type, &t2), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Type_vector(2, 1, 2, type, &t2), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Type_dup(type, &t2), MPI_ERR_TYPE);
		t2 = type;
		CHECK_CLASS(MPI_Type_commit(&t2), MPI_ERR_TYPE);
		t2 = type;
		CHECK_CLASS(MPI_Type_free(&t2), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Pack_size(1, type, MPI_COMM_WORLD, &n), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Get_count(&st, type, &n), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Type_create_struct(3, (int[]){ 1, 1, 1 },
						   (MPI_Aint[]){ 0, 8, 16 },
						   (MPI_Datatype[]){ MPI_INT, type, MPI_INT }, &t2),
			    MPI_ERR_TYPE);
		int e = size > 1 ? size - 1 : 0;
		types[e] = type;
		CHECK_CLASS(MPI_Alltoallw(sbuf, counts, displs, types, rbuf, counts, displs, rtypes,
					  MPI_COMM_WORLD), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Ialltoallw(sbuf, counts, displs, types, rbuf, counts, displs, rtypes,
					   MPI_COMM_WORLD, &(MPI_Request){ 0 }), MPI_ERR_TYPE);
		types[e] = MPI_INT;
		rtypes[e] = type;
		CHECK_CLASS(MPI_Ialltoallw(sbuf, counts, displs, types, rbuf, counts, displs, rtypes,
					   MPI_COMM_WORLD, &(MPI_Request){ 0 }), MPI_ERR_TYPE);
		rtypes[e] = MPI_INT;

		/* Operations. */
		CHECK_CLASS(MPI_Allreduce(sbuf, rbuf, 1, MPI_INT, op, MPI_COMM_WORLD), MPI_ERR_OP);
		CHECK_CLASS(MPI_Reduce(sbuf, rbuf, 1, MPI_INT, op, 0, MPI_COMM_WORLD), MPI_ERR_OP);
		CHECK_CLASS(MPI_Reduce_local(sbuf, rbuf, 1, MPI_INT, op), MPI_ERR_OP);
		CHECK_CLASS(MPI_Op_commutative(op, &n), MPI_ERR_OP);
		MPI_Op o2 = op;
		CHECK_CLASS(MPI_Op_free(&o2), MPI_ERR_OP);

		/* Requests, single and as one entry of an array. */
		MPI_Request r1 = req;
		CHECK_CLASS(MPI_Wait(&r1, &st), MPI_ERR_REQUEST);
		CHECK_CLASS(MPI_Test(&r1, &flag, &st), MPI_ERR_REQUEST);
		CHECK_CLASS(MPI_Request_get_status(req, &flag, &st), MPI_ERR_REQUEST);
		CHECK_CLASS(MPI_Cancel(&r1), MPI_ERR_REQUEST);
		CHECK_CLASS(MPI_Request_free(&r1), MPI_ERR_REQUEST);
		CHECK_CLASS(MPI_Start(&r1), MPI_ERR_REQUEST);
		MPI_Request reqs[4] = { MPI_REQUEST_NULL, MPI_REQUEST_NULL, req, MPI_REQUEST_NULL };
		CHECK_CLASS(MPI_Waitall(4, reqs, sts), MPI_ERR_REQUEST);
		CHECK_CLASS(MPI_Waitany(4, reqs, &idx, &st), MPI_ERR_REQUEST);
		CHECK_CLASS(MPI_Waitsome(4, reqs, &outcount, indices, sts), MPI_ERR_REQUEST);
		CHECK_CLASS(MPI_Testall(4, reqs, &flag, sts), MPI_ERR_REQUEST);
		CHECK_CLASS(MPI_Testany(4, reqs, &idx, &flag, &st), MPI_ERR_REQUEST);
		CHECK_CLASS(MPI_Testsome(4, reqs, &outcount, indices, sts), MPI_ERR_REQUEST);
		MPI_Request starts[2] = { live, req };
		CHECK_CLASS(MPI_Startall(2, starts), MPI_ERR_REQUEST);
		/* A bad entry starts none of them: the live one is still inactive. */
		CHECK_MPI(MPI_Start(&live));
		CHECK_MPI(MPI_Wait(&live, MPI_STATUS_IGNORE));

		/* Groups. */
		CHECK_CLASS(MPI_Group_size(grp, &n), MPI_ERR_GROUP);
		CHECK_CLASS(MPI_Group_rank(grp, &n), MPI_ERR_GROUP);
		CHECK_CLASS(MPI_Group_union(grp, group, &g2), MPI_ERR_GROUP);
		CHECK_CLASS(MPI_Group_incl(grp, 0, NULL, &g2), MPI_ERR_GROUP);
		CHECK_CLASS(MPI_Group_compare(group, grp, &n), MPI_ERR_GROUP);
		CHECK_CLASS(MPI_Group_translate_ranks(grp, 1, (int[]){ 0 }, group, &n),
			    MPI_ERR_GROUP);
		CHECK_CLASS(MPI_Comm_create(MPI_COMM_WORLD, grp, &c2), MPI_ERR_GROUP);
		g2 = grp;
		CHECK_CLASS(MPI_Group_free(&g2), MPI_ERR_GROUP);

		/* Info objects. */
		CHECK_CLASS(MPI_Info_get_nkeys(info, &n), MPI_ERR_INFO);
		CHECK_CLASS(MPI_Info_set(info, "k", "v"), MPI_ERR_INFO);
		MPI_Info i2 = info;
		CHECK_CLASS(MPI_Info_dup(info, &i2), MPI_ERR_INFO);
		i2 = info;
		CHECK_CLASS(MPI_Info_free(&i2), MPI_ERR_INFO);
		CHECK_CLASS(MPI_Comm_set_info(MPI_COMM_WORLD, info), MPI_ERR_INFO);

		/* Error handlers. */
		CHECK_CLASS(MPI_Comm_set_errhandler(MPI_COMM_WORLD, errh), MPI_ERR_ERRHANDLER);
		MPI_Errhandler e2 = errh;
		CHECK_CLASS(MPI_Errhandler_free(&e2), MPI_ERR_ERRHANDLER);

		/* The rest of the point-to-point, collective, datatype, group and info functions
		 * that take these handles, one bad argument each. */
		MPI_Request rq;
		MPI_Message msg;
		MPI_Errhandler eh;
		MPI_Info inf;
		MPI_Count cnt, lbc, extc;
		char name[MPI_MAX_OBJECT_NAME];
		int ni, na, nd, comb, pos = 0;
		CHECK_CLASS(MPI_Comm_get_errhandler(comm, &eh), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Ssend(buf, 1, MPI_INT, 0, 0, comm), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Bsend(buf, 1, MPI_INT, 0, 0, comm), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Rsend(buf, 1, MPI_INT, 0, 0, comm), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Issend(buf, 1, MPI_INT, 0, 0, comm, &rq), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Ibsend(buf, 1, MPI_INT, 0, 0, comm, &rq), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Irsend(buf, 1, MPI_INT, 0, 0, comm, &rq), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Send_init(buf, 1, MPI_INT, 0, 0, comm, &rq), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Recv_init(buf, 1, MPI_INT, 0, 0, comm, &rq), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Sendrecv(buf, 1, MPI_INT, 0, 0, buf + 8, 1, MPI_INT, 0, 0, comm, &st),
			    MPI_ERR_COMM);
		CHECK_CLASS(MPI_Sendrecv_replace(buf, 1, MPI_INT, 0, 0, 0, 0, comm, &st),
			    MPI_ERR_COMM);
		CHECK_CLASS(MPI_Probe(0, 0, comm, &st), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Mprobe(0, 0, comm, &msg, &st), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Improbe(0, 0, comm, &flag, &msg, &st), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Send_c(buf, 1, MPI_INT, 0, 0, comm), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Irecv_c(buf, 1, MPI_INT, 0, 0, comm, &rq), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Comm_remote_size(comm, &n), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Comm_remote_group(comm, &g2), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Comm_dup_with_info(comm, MPI_INFO_NULL, &c2), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Comm_idup(comm, &c2, &rq), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Comm_create_group(comm, group, 0, &c2), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &c2),
			    MPI_ERR_COMM);
		CHECK_CLASS(MPI_Comm_set_name(comm, "x"), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Comm_get_info(comm, &inf), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Intercomm_create(comm, 0, MPI_COMM_WORLD, 0, 0, &c2), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Intercomm_merge(comm, 0, &c2), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Comm_call_errhandler(comm, MPI_ERR_OTHER), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Ibarrier(comm, &rq), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Ibcast(buf, 1, MPI_INT, 0, comm, &rq), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Gather(sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, 0, comm), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Scatterv(sbuf, counts, displs, MPI_INT, rbuf, 1, MPI_INT, 0, comm),
			    MPI_ERR_COMM);
		CHECK_CLASS(MPI_Allgatherv(sbuf, 1, MPI_INT, rbuf, counts, displs, MPI_INT, comm),
			    MPI_ERR_COMM);
		CHECK_CLASS(MPI_Ialltoall(sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, comm, &rq),
			    MPI_ERR_COMM);
		CHECK_CLASS(MPI_Reduce_scatter_block(sbuf, rbuf, 1, MPI_INT, MPI_SUM, comm),
			    MPI_ERR_COMM);
		CHECK_CLASS(MPI_Iscan(sbuf, rbuf, 1, MPI_INT, MPI_SUM, comm, &rq), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Barrier_init(comm, MPI_INFO_NULL, &rq), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Alltoallw_init(sbuf, counts, displs, types, rbuf, counts, displs,
					       rtypes, comm, MPI_INFO_NULL, &rq), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Pack(buf, 1, MPI_INT, buf + 64, 64, &pos, comm), MPI_ERR_COMM);

		CHECK_CLASS(MPI_Get_elements(&st, type, &n), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Ssend(buf, 1, type, 0, 0, MPI_COMM_SELF), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Ibsend(buf, 1, type, 0, 0, MPI_COMM_SELF, &rq), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Send_init(buf, 1, type, 0, 0, MPI_COMM_SELF, &rq), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Recv_init(buf, 1, type, 0, 0, MPI_COMM_SELF, &rq), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Sendrecv(buf, 1, type, 0, 0, buf + 8, 1, MPI_INT, 0, 0, MPI_COMM_SELF,
					 &st), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Sendrecv(buf, 1, MPI_INT, 0, 0, buf + 8, 1, type, 0, 0, MPI_COMM_SELF,
					 &st), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Sendrecv_replace(buf, 1, type, 0, 0, 0, 0, MPI_COMM_SELF, &st),
			    MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Recv_c(buf, 1, type, 0, 0, MPI_COMM_SELF, &st), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Gather(sbuf, 1, type, rbuf, 1, MPI_INT, 0, MPI_COMM_WORLD),
			    MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Scatter(sbuf, 1, MPI_INT, rbuf, 1, type, 0, MPI_COMM_WORLD),
			    MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Allgather(sbuf, 1, type, rbuf, 1, MPI_INT, MPI_COMM_WORLD),
			    MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Alltoall(sbuf, 1, MPI_INT, rbuf, 1, type, MPI_COMM_WORLD),
			    MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Alltoallv(sbuf, counts, displs, type, rbuf, counts, displs, MPI_INT,
					  MPI_COMM_WORLD), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Iallreduce(sbuf, rbuf, 1, type, MPI_SUM, MPI_COMM_WORLD, &rq),
			    MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Scan(sbuf, rbuf, 1, type, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Allreduce_init(sbuf, rbuf, 1, type, MPI_SUM, MPI_COMM_WORLD,
					       MPI_INFO_NULL, &rq), MPI_ERR_TYPE);
		types[e] = type;
		CHECK_CLASS(MPI_Alltoallw_init(sbuf, counts, displs, types, rbuf, counts, displs,
					       rtypes, MPI_COMM_WORLD, MPI_INFO_NULL, &rq),
			    MPI_ERR_TYPE);
		types[e] = MPI_INT;
		CHECK_CLASS(MPI_Type_create_hvector(2, 1, 8, type, &t2), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Type_indexed(1, (int[]){ 1 }, (int[]){ 0 }, type, &t2), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Type_create_hindexed(1, (int[]){ 1 }, (MPI_Aint[]){ 0 }, type, &t2),
			    MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Type_create_indexed_block(1, 1, (int[]){ 0 }, type, &t2),
			    MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Type_create_subarray(1, (int[]){ 4 }, (int[]){ 2 }, (int[]){ 0 },
						     MPI_ORDER_C, type, &t2), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Type_create_resized(type, 0, 8, &t2), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Type_contiguous_c(2, type, &t2), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Type_create_struct_c(2, (MPI_Count[]){ 1, 1 },
						     (MPI_Count[]){ 0, 8 },
						     (MPI_Datatype[]){ type, MPI_INT }, &t2),
			    MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Type_size_c(type, &cnt), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Type_get_extent_c(type, &lbc, &extc), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Type_get_true_extent(type, &lb, &extent), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Type_get_envelope(type, &ni, &na, &nd, &comb), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Type_get_contents(type, 0, 0, 0, NULL, NULL, NULL), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Type_set_name(type, "x"), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Type_get_name(type, name, &n), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Type_get_attr(type, MPI_KEYVAL_INVALID, &n, &flag), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Get_count_c(&st, type, &cnt), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Status_set_elements(&st, type, 1), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Pack(buf, 1, type, buf + 64, 64, &pos, MPI_COMM_WORLD), MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Unpack(buf, 64, &pos, buf + 64, 1, type, MPI_COMM_WORLD),
			    MPI_ERR_TYPE);
		CHECK_CLASS(MPI_Pack_external_size("external32", 1, type, &lb), MPI_ERR_TYPE);

		CHECK_CLASS(MPI_Ireduce(sbuf, rbuf, 1, MPI_INT, op, 0, MPI_COMM_WORLD, &rq),
			    MPI_ERR_OP);
		CHECK_CLASS(MPI_Reduce_scatter(sbuf, rbuf, counts, MPI_INT, op, MPI_COMM_WORLD),
			    MPI_ERR_OP);
		CHECK_CLASS(MPI_Scan(sbuf, rbuf, 1, MPI_INT, op, MPI_COMM_WORLD), MPI_ERR_OP);
		CHECK_CLASS(MPI_Exscan(sbuf, rbuf, 1, MPI_INT, op, MPI_COMM_WORLD), MPI_ERR_OP);
		CHECK_CLASS(MPI_Allreduce_init(sbuf, rbuf, 1, MPI_INT, op, MPI_COMM_WORLD,
					       MPI_INFO_NULL, &rq), MPI_ERR_OP);
		CHECK_CLASS(MPI_Reduce_local_c(sbuf, rbuf, 1, MPI_INT, op), MPI_ERR_OP);

		CHECK_CLASS(MPI_Group_intersection(grp, group, &g2), MPI_ERR_GROUP);
		CHECK_CLASS(MPI_Group_difference(group, grp, &g2), MPI_ERR_GROUP);
		CHECK_CLASS(MPI_Group_excl(grp, 0, NULL, &g2), MPI_ERR_GROUP);
		CHECK_CLASS(MPI_Group_range_incl(grp, 1, (int[][3]){ { 0, 0, 1 } }, &g2),
			    MPI_ERR_GROUP);
		CHECK_CLASS(MPI_Comm_create_group(MPI_COMM_WORLD, grp, 0, &c2), MPI_ERR_GROUP);

		CHECK_CLASS(MPI_Info_get(info, "k", 4, name, &flag), MPI_ERR_INFO);
		CHECK_CLASS(MPI_Info_get_valuelen(info, "k", &n, &flag), MPI_ERR_INFO);
		CHECK_CLASS(MPI_Info_delete(info, "k"), MPI_ERR_INFO);
		CHECK_CLASS(MPI_Info_get_nthkey(info, 0, name), MPI_ERR_INFO);
		CHECK_CLASS(MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &c2), MPI_ERR_INFO);

		if (k < nbad) {
			MPI_Message m = AS(MPI_Message, v);
			CHECK_CLASS(MPI_Imrecv(buf, 1, MPI_INT, &m, &rq), MPI_ERR_REQUEST);
		}

		/* Messages (the bad words only: a freed request is no message). */
		if (k < nbad) {
			MPI_Message m = AS(MPI_Message, v);
			CHECK_CLASS(MPI_Mrecv(buf, 1, MPI_INT, &m, &st), MPI_ERR_REQUEST);
		}
	}

	/* Keyvals are ints: one never created, and one freed. */
	int kv;
	CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &kv, NULL));
	int freed_kv = kv;
	CHECK_MPI(MPI_Comm_free_keyval(&kv));
	void *val;
	CHECK_CLASS(MPI_Comm_get_attr(MPI_COMM_WORLD, 12345, &val, &flag), MPI_ERR_KEYVAL);
	CHECK_CLASS(MPI_Comm_set_attr(MPI_COMM_WORLD, freed_kv, NULL), MPI_ERR_KEYVAL);

	/* Nothing above disturbed the communicator. */
	CHECK_MPI(MPI_Request_free(&live));
	CHECK_MPI(MPI_Type_free(&pair));
	CHECK_MPI(MPI_Group_free(&group));
	CHECK_MPI(MPI_Alltoallw(sbuf, counts, displs, types, rbuf, counts, displs, rtypes,
				MPI_COMM_WORLD));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	free(sbuf);
	free(rbuf);
	free(heap);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
