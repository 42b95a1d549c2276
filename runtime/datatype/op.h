/* Reduction operations: MPI_Op objects, the predefined kernels by (operation, basic type),
 * and the fold every reducing collective uses to combine inputs in canonical rank order.
 * Entered by rank threads (a fold by whichever member's thread runs a meeting). Never calls
 * an error handler (callers convert); allocates only a fold's accumulator buffers. */
#ifndef SHL_RUNTIME_OP_H
#define SHL_RUNTIME_OP_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "mpi.h"
#include "runtime/datatype/datatype.h"

#define SHL_OP_MAGIC 0x6f706572u

enum shl_op_kind {
	SHL_OP_MAX, SHL_OP_MIN, SHL_OP_SUM, SHL_OP_PROD, SHL_OP_LAND, SHL_OP_BAND, SHL_OP_LOR,
	SHL_OP_BOR, SHL_OP_LXOR, SHL_OP_BXOR, SHL_OP_MINLOC, SHL_OP_MAXLOC, SHL_OP_REPLACE,
	SHL_OP_NO_OP, SHL_OP_USER,
};

/* A user function written in Fortran (mpif.h, `mpi`, `mpi_f08` MPI_Op_create): every
 * argument by reference, the datatype as its Fortran integer. */
typedef void shl_f_user_function(void *invec, void *inoutvec, MPI_Fint *len, MPI_Fint *datatype);
typedef void shl_f_user_function_c(void *invec, void *inoutvec, MPI_Count *len,
				   MPI_Fint *datatype);

/* An operation. Predefined ones are immutable statics; a user one is created by one rank
 * and lives while `refs` (its handle plus each pending nonblocking reduction) is above 0. */
struct shl_op {
	uint32_t magic;
	enum shl_op_kind kind;
	bool commute;
	bool fortran;                 /* fn / fn_c is a shl_f_user_function(_c) */
	MPI_User_function *fn;        /* SHL_OP_USER from MPI_Op_create, else NULL */
	MPI_User_function_c *fn_c;    /* SHL_OP_USER from MPI_Op_create_c, else NULL */
	_Atomic int refs;             /* SHL_OP_USER only */
};

_Static_assert(sizeof(struct shl_op) <= SHL_HANDLE_READ_MAX,
	       "struct shl_op outgrew SHL_HANDLE_READ_MAX (core/handle.h)");

static inline bool shl_op_ok(MPI_Op op)
{
	return shl_handle_mapped(op, sizeof(*op)) && op->magic == SHL_OP_MAGIC;
}

/* shl_op_call for a function written in Fortran, out of line. */
void shl_op_call_fortran(const struct shl_op *op, const void *in, void *inout, MPI_Count len,
			 MPI_Datatype type);

/* Exported for libmpifort (runtime/fortran/callbacks.h): a user op whose function is
 * written in Fortran. Same checks and errors as MPI_Op_create / MPI_Op_create_c. */
int shl_f_op_create(shl_f_user_function *fn, int commute, MPI_Op *op);
int shl_f_op_create_c(shl_f_user_function_c *fn, int commute, MPI_Op *op);

/* Any thread: inout = in op inout for `len` elements of `type` with user op `op`'s
 * function, given the handle `type` (at most INT_MAX elements for an MPI_Op_create
 * function: shl_fold_init refuses more). */
static inline void shl_op_call(const struct shl_op *op, const void *in, void *inout,
			       MPI_Count len, MPI_Datatype type)
{
	MPI_Datatype t = type;

	if (__builtin_expect(op->fortran, 0)) {
		shl_op_call_fortran(op, in, inout, len, type);
		return;
	}
	if (op->fn_c != NULL) {
		MPI_Count n = len;
		op->fn_c((void *)in, inout, &n, &t);
	} else {
		int n = (int)len;
		op->fn((void *)in, inout, &n, &t);
	}
}

/* Any thread: take / drop a reference on a user op (no-ops on predefined ones). */
void shl_op_hold(struct shl_op *op);
void shl_op_drop(struct shl_op *op);

/* inout[i] = in[i] op inout[i] for n basic elements in packed form (a pair type packed is
 * its value then its int, no padding). */
typedef void shl_kern(const void *in, void *inout, size_t n);

/* The kernel of predefined op `op` (not MPI_REPLACE, MPI_NO_OP: NULL) on predefined type
 * `basic`, or NULL where the op is not defined on it. */
shl_kern *shl_op_kern(const struct shl_op *op, const struct shl_datatype *basic);

/* One reduction of `count` elements of a datatype, prepared by shl_fold_init. Predefined
 * ops run their kernel on packed basic elements (derived types must be runs of one basic
 * type); user ops run the user's function on buffers in the datatype's own layout. */
struct shl_fold {
	struct shl_op *op;
	MPI_Datatype type;            /* the handle a user function is given */
	MPI_Count count;
	shl_kern *k;                  /* predefined op; NULL for a user op, MPI_REPLACE and
				       * MPI_NO_OP */
	const struct shl_datatype *basic;  /* predefined op: the one predefined type `type` is
					    * made of (NULL: it holds no data) */
	size_t bytes;                 /* count * type->size: the signature's bytes */
	size_t nbasic;                /* predefined: basic elements in `bytes` */
	size_t span;                  /* bytes of an accumulator buffer */
	ptrdiff_t shift;              /* an accumulator's origin is its buffer + shift */
};

/* Room for shl_fold_init's explanation. */
#define SHL_OP_WHY 160

/* Prepare `f` (count >= 0). Returns 0, or with `why` saying what does not fit MPI_ERR_OP
 * (an op not defined on the type; MPI_REPLACE/MPI_NO_OP unless `accumulate`) or
 * MPI_ERR_COUNT (an MPI_Op_create function takes an int length: count above INT_MAX). */
int shl_fold_init(struct shl_fold *f, struct shl_op *op, MPI_Datatype type, MPI_Count count,
		  bool accumulate, char why[SHL_OP_WHY]);

/* An accumulator (its origin), or NULL when memory is exhausted; shl_fold_free frees it. */
void *shl_fold_buf(const struct shl_fold *f);
void shl_fold_free(const struct shl_fold *f, void *acc);

/* acc = the data of (src, stype). */
void shl_fold_load(const struct shl_fold *f, void *acc, const void *src, MPI_Datatype stype);

/* *acc = *acc op (src, stype), the left operand first whatever the op's commutativity;
 * *tmp is scratch of shl_fold_buf. May swap *acc and *tmp. */
void shl_fold_step(const struct shl_fold *f, void **acc, void **tmp, const void *src,
		   MPI_Datatype stype);

/* (dst, dtype) = acc. */
void shl_fold_store(const struct shl_fold *f, void *dst, MPI_Datatype dtype, const void *acc);

/* (dst, dtype) = elements [first, first + n) of acc (reduce-scatter's blocks). */
void shl_fold_store_part(const struct shl_fold *f, void *dst, MPI_Datatype dtype,
			 const void *acc, size_t first, size_t n);

/* Accumulator dst = accumulator src. */
void shl_fold_dup(const struct shl_fold *f, void *dst, const void *src);

#endif
