/* Assertions for Shoal's tests: each prints both values, file, line and the rank, then fails
 * the test (exit status 1).  Entered by any rank thread (and by helper threads in
 * MPI_THREAD_MULTIPLE tests); must not depend on anything but the public MPI interface. */
#ifndef SHOAL_TESTS_CHECK_H
#define SHOAL_TESTS_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>

/* The rank of the caller in MPI_COMM_WORLD, or -1 outside MPI_Init..MPI_Finalize. */
static inline int check_rank(void)
{
	int inited = 0, finalized = 0, rank = -1;

	MPI_Initialized(&inited);
	MPI_Finalized(&finalized);
	if (inited && !finalized)
		MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	return rank;
}

/* Report a failed check and end the job with status 1.  Inside MPI the whole job is
 * aborted so that peers blocked on the failed rank don't hang until the timeout. */
__attribute__((noreturn)) static inline void check_fail(const char *file, int line, const char *what)
{
	int rank = check_rank();

	fflush(stdout);
	fprintf(stderr, "%s:%d: rank %d: check failed: %s\n", file, line, rank, what);
	fflush(stderr);
	if (rank >= 0)
		MPI_Abort(MPI_COMM_WORLD, 1);
	exit(1);
}

#define CHECK_MSG_MAX 1024

/* CHECK(cond): cond must hold. */
#define CHECK(cond)                                                                     \
	do {                                                                            \
		if (!(cond))                                                            \
			check_fail(__FILE__, __LINE__, #cond);                          \
	} while (0)

/* CHECK_INT(a, b): integers a and b must be equal. */
#define CHECK_INT(a, b)                                                                 \
	do {                                                                            \
		long long check_a_ = (long long)(a), check_b_ = (long long)(b);         \
		if (check_a_ != check_b_) {                                             \
			char check_m_[CHECK_MSG_MAX];                                   \
			snprintf(check_m_, sizeof check_m_, "%s == %s (%lld != %lld)",  \
				 #a, #b, check_a_, check_b_);                           \
			check_fail(__FILE__, __LINE__, check_m_);                       \
		}                                                                       \
	} while (0)

/* CHECK_CMP(a, op, b): integers, e.g. CHECK_CMP(n, <=, 4). */
#define CHECK_CMP(a, op, b)                                                             \
	do {                                                                            \
		long long check_a_ = (long long)(a), check_b_ = (long long)(b);         \
		if (!(check_a_ op check_b_)) {                                          \
			char check_m_[CHECK_MSG_MAX];                                   \
			snprintf(check_m_, sizeof check_m_, "%s %s %s (%lld vs %lld)",  \
				 #a, #op, #b, check_a_, check_b_);                      \
			check_fail(__FILE__, __LINE__, check_m_);                       \
		}                                                                       \
	} while (0)

/* CHECK_DBL_CMP(a, op, b): doubles, e.g. CHECK_DBL_CMP(elapsed, >=, 0.15). */
#define CHECK_DBL_CMP(a, op, b)                                                         \
	do {                                                                            \
		double check_a_ = (double)(a), check_b_ = (double)(b);                  \
		if (!(check_a_ op check_b_)) {                                          \
			char check_m_[CHECK_MSG_MAX];                                   \
			snprintf(check_m_, sizeof check_m_, "%s %s %s (%.9g vs %.9g)",  \
				 #a, #op, #b, check_a_, check_b_);                      \
			check_fail(__FILE__, __LINE__, check_m_);                       \
		}                                                                       \
	} while (0)

/* CHECK_STR(a, b): C strings must be equal. */
#define CHECK_STR(a, b)                                                                 \
	do {                                                                            \
		const char *check_a_ = (a), *check_b_ = (b);                            \
		if (strcmp(check_a_, check_b_) != 0) {                                  \
			char check_m_[CHECK_MSG_MAX];                                   \
			snprintf(check_m_, sizeof check_m_, "%s == %s (\"%.400s\" != \"%.400s\")", \
				 #a, #b, check_a_, check_b_);                           \
			check_fail(__FILE__, __LINE__, check_m_);                       \
		}                                                                       \
	} while (0)

/* CHECK_MPI(call): an MPI call must return MPI_SUCCESS. */
#define CHECK_MPI(call) CHECK_INT((call), MPI_SUCCESS)

/* CHECK_CLASS(rc, cls): an MPI error code must belong to error class cls. */
#define CHECK_CLASS(rc, cls)                                                            \
	do {                                                                            \
		int check_rc_ = (rc), check_cls_ = -1;                                  \
		if (check_rc_ == MPI_SUCCESS)                                           \
			check_cls_ = MPI_SUCCESS;                                       \
		else if (MPI_Error_class(check_rc_, &check_cls_) != MPI_SUCCESS)        \
			check_cls_ = -1;                                                \
		if (check_cls_ != (cls)) {                                              \
			char check_m_[CHECK_MSG_MAX];                                   \
			snprintf(check_m_, sizeof check_m_,                             \
				 "error class of %s is %s (%d != %d, code %d)", #rc,    \
				 #cls, check_cls_, (int)(cls), check_rc_);              \
			check_fail(__FILE__, __LINE__, check_m_);                       \
		}                                                                       \
	} while (0)

/* CHECK_DETACH(buf, size): MPI_Buffer_detach hands back the buffer `buf` of `size` bytes
 * attached for buffered sends. */
#define CHECK_DETACH(buf, size)                                                         \
	do {                                                                            \
		void *check_b_ = NULL;                                                  \
		int check_n_ = -1;                                                      \
		CHECK_MPI(MPI_Buffer_detach(&check_b_, &check_n_));                     \
		CHECK(check_b_ == (buf));                                               \
		CHECK_INT(check_n_, (size));                                            \
	} while (0)

/* CHECK_EMPTY_STATUS(st, source): an empty status (MPI 4.1 §3.7.3), `source` being
 * MPI_ANY_SOURCE, or MPI_PROC_NULL for a receive from it: tag MPI_ANY_TAG, 0 elements. */
#define CHECK_EMPTY_STATUS(st, source)                                                  \
	do {                                                                            \
		const MPI_Status *check_st_ = (st);                                     \
		int check_count_ = -1;                                                  \
		CHECK_INT(check_st_->MPI_SOURCE, (source));                             \
		CHECK_INT(check_st_->MPI_TAG, MPI_ANY_TAG);                             \
		CHECK_MPI(MPI_Get_count(check_st_, MPI_INT, &check_count_));            \
		CHECK_INT(check_count_, 0);                                             \
	} while (0)

/* A barrier built from point-to-point messages only, so that point-to-point tests do not
 * depend on collectives: everyone reports to rank 0 on `tag`, then rank 0 releases all. */
static inline void check_barrier(MPI_Comm comm, int tag)
{
	int rank, size, token = 0;

	MPI_Comm_rank(comm, &rank);
	MPI_Comm_size(comm, &size);
	if (rank == 0) {
		for (int i = 1; i < size; i++)
			CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, MPI_ANY_SOURCE, tag, comm,
					   MPI_STATUS_IGNORE));
		for (int i = 1; i < size; i++)
			CHECK_MPI(MPI_Send(&token, 1, MPI_INT, i, tag, comm));
	} else {
		CHECK_MPI(MPI_Send(&token, 1, MPI_INT, 0, tag, comm));
		CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, 0, tag, comm, MPI_STATUS_IGNORE));
	}
}

/* How long a test polls (MPI_Test in a loop) for a completion that must come, where MPI_Wait
 * would hang the test if it never did: generous, so that no loaded machine reaches it, and
 * below tests/run's 60 s limit, so that a completion that never comes fails at its line. */
#define CHECK_POLL_S 30.0

/* Repetitions bounded for a loaded machine. A test that repeats a step to widen a race
 * window makes up to `max` rounds, but once it has made `min` it stops as soon as the ranks
 * have spent CHECK_BUDGET_S seconds in the loop: each round is checked, never the time
 * the rounds take. Every rank of `comm` takes the same decision (an MPI_Allreduce every
 * CHECK_BUDGET_STRIDE rounds past `min`), so collectives inside the loop stay matched.
 *	struct check_budget b;
 *	for (check_budget_start(&b, MPI_COMM_WORLD, 100, 3000); check_budget_more(&b);)
 *		step(b.round);   // 0, 1, 2, ...
 */
#define CHECK_BUDGET_S 2.0
#define CHECK_BUDGET_STRIDE 16

struct check_budget {
	MPI_Comm comm;
	int round;     /* the round about to run, from 0 (-1 before the first) */
	int min, max;
	double end;    /* MPI_Wtime() past which rounds beyond `min` stop */
};

static inline void check_budget_start(struct check_budget *b, MPI_Comm comm, int min, int max)
{
	b->comm = comm;
	b->round = -1;
	b->min = min;
	b->max = max;
	b->end = MPI_Wtime() + CHECK_BUDGET_S;
}

/* Whether to run one more round (then b->round is its number). */
static inline int check_budget_more(struct check_budget *b)
{
	int next = b->round + 1;

	if (next >= b->max)
		return 0;
	if (next >= b->min && (next - b->min) % CHECK_BUDGET_STRIDE == 0) {
		int over = MPI_Wtime() > b->end, any = 0;
		CHECK_MPI(MPI_Allreduce(&over, &any, 1, MPI_INT, MPI_MAX, b->comm));
		if (any)
			return 0;
	}
	b->round = next;
	return 1;
}

/* Resident memory of the node process (all its ranks, one process per node), in KiB. */
static inline long check_rss_kib(void)
{
	char line[256];
	long kib = -1;
	FILE *f = fopen("/proc/self/status", "r");

	CHECK(f != NULL);
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "VmRSS: %ld", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

/* An error handler that records its calls, for MPI_Comm_create_errhandler: how many, and
 * the communicator and error class of the last. */
static int check_handler_calls, check_handler_class;
static MPI_Comm check_handler_comm;

static inline void check_recording_handler(MPI_Comm *comm, int *code, ...)
{
	check_handler_calls++;
	check_handler_comm = *comm;
	if (MPI_Error_class(*code, &check_handler_class) != MPI_SUCCESS)
		check_handler_class = -1;
}

/* Group `g` has the `n` members `expect` (ranks of `world`), in that order. */
static inline void check_group_members(MPI_Group g, MPI_Group world, int n, const int *expect)
{
	int size = -1;

	CHECK_MPI(MPI_Group_size(g, &size));
	CHECK_INT(size, n);
	for (int i = 0; i < n; i++) {
		int w = -1;
		CHECK_MPI(MPI_Group_translate_ranks(g, 1, &i, world, &w));
		CHECK_INT(w, expect[i]);
	}
}

#endif
