/* The C side the Fortran bindings share (libmpifort): the sentinels' addresses and their
 * inline checks, CHARACTER and status conversions, the lengths of per-rank arrays. Used
 * by the generated mpif_bindings.c (runtime/fortran/bindgen.py), the mpi_f08 C entry
 * points and runtime/fortran/callbacks.c; the functions are in runtime/fortran/support.c.
 * libmpifort calls only the public PMPI_* API (and libmpi's exported shl_f_*). Each rank
 * loads its own copy of libmpifort, so its globals (the sentinel registry) are per rank;
 * entered by the rank threads that call MPI from Fortran (and their own threads under
 * MPI_THREAD_MULTIPLE, which only read the registry).
 *
 * Sentinels. Fortran passes MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS_IGNORE, ... by reference:
 * the binding sees the address of a variable and maps it to the C value. The variables
 * are
 *   - the modules' (`mpi`, `mpi_f08`): BIND(C) variables of module shl_mpi_sentinels
 *     (runtime/fortran/sentinels.f90, compiled into libmpifort: one definition that both
 *     modules use), named shl_f_bottom, shl_f_in_place, ... (set 0 of the registry);
 *   - mpif.h's: COMMON blocks /shl_f_bottom/ ... (symbols shl_f_bottom_, ...), which live
 *     in each program or library that includes mpif.h; mpif_sentinels.o, linked into each
 *     of them, registers their addresses when it is loaded (shl_f_sentinels_add).
 * A check first tests the span all registered sentinels lie in: a buffer elsewhere (the
 * usual case) costs one comparison. */
#ifndef SHL_RUNTIME_FORTRAN_FORTRAN_H
#define SHL_RUNTIME_FORTRAN_FORTRAN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "mpi.h"

#define SHL_F_API __attribute__((visibility("default")))
/* Arrays of handles or statuses up to this many entries convert on the stack. */
#define SHL_F_STACK_ENTRIES 32
/* Strings up to this many bytes (with the NUL) convert on the stack. */
#define SHL_F_STRING_STACK 256

/* One set of sentinel addresses (NULL: the set has none of that kind). */
struct shl_f_sentinels {
	void *bottom, *in_place, *status_ignore, *statuses_ignore, *errcodes_ignore,
		*unweighted, *weights_empty, *buffer_automatic, *argv_null, *argvs_null;
};

/* The registry: set 0 the modules', then one per registering program or library. */
#define SHL_F_SENTINEL_SETS 64
struct shl_f_registry {
	uintptr_t lo, span;  /* every registered address a satisfies a - lo <= span */
	int n;
	struct shl_f_sentinels set[SHL_F_SENTINEL_SETS];
};
extern SHL_F_API struct shl_f_registry shl_f_registry;

/* Registers a program's or library's sentinels (mpif_sentinels.o's constructor; mpi_f08
 * may register typed ones of its own). Thread-safe against other registrations; called
 * before the rank's threads use the bindings (constructors run at load). */
SHL_F_API void shl_f_sentinels_add(const struct shl_f_sentinels *s);

#define SHL_F_SENTINEL_CHECK(fn, field)                                                    \
	static inline int shl_f_is_##fn(const void *p)                                     \
	{                                                                                  \
		const struct shl_f_registry *r = &shl_f_registry;                          \
		if ((uintptr_t)p - r->lo > r->span)                                        \
			return 0;                                                          \
		for (int i = 0; i < r->n; i++)                                             \
			if (p == r->set[i].field)                                          \
				return 1;                                                  \
		return 0;                                                                  \
	}
SHL_F_SENTINEL_CHECK(bottom, bottom)
SHL_F_SENTINEL_CHECK(in_place, in_place)
SHL_F_SENTINEL_CHECK(status_ignore, status_ignore)
SHL_F_SENTINEL_CHECK(statuses_ignore, statuses_ignore)
SHL_F_SENTINEL_CHECK(errcodes_ignore, errcodes_ignore)
SHL_F_SENTINEL_CHECK(unweighted, unweighted)
SHL_F_SENTINEL_CHECK(weights_empty, weights_empty)
SHL_F_SENTINEL_CHECK(buffer_automatic, buffer_automatic)
SHL_F_SENTINEL_CHECK(argv_null, argv_null)
SHL_F_SENTINEL_CHECK(argvs_null, argvs_null)
#undef SHL_F_SENTINEL_CHECK

/* A choice buffer's C address: MPI_BOTTOM, MPI_IN_PLACE and MPI_BUFFER_AUTOMATIC become
 * the C ones; any other address is the buffer. */
static inline void *shl_f_buf(void *p)
{
	const struct shl_f_registry *r = &shl_f_registry;
	if ((uintptr_t)p - r->lo > r->span)
		return p;
	for (int i = 0; i < r->n; i++) {
		if (p == r->set[i].bottom)
			return MPI_BOTTOM;
		if (p == r->set[i].in_place)
			return MPI_IN_PLACE;
		if (p == r->set[i].buffer_automatic)
			return MPI_BUFFER_AUTOMATIC;
	}
	return p;
}

/* A weights array of the distributed graph calls: MPI_UNWEIGHTED, MPI_WEIGHTS_EMPTY. */
static inline int *shl_f_weights(int *p)
{
	if (shl_f_is_unweighted(p))
		return MPI_UNWEIGHTED;
	if (shl_f_is_weights_empty(p))
		return MPI_WEIGHTS_EMPTY;
	return p;
}

/* Handles in. libmpi names a predefined handle (MPI_COMM_WORLD, MPI_INT, MPI_SUM, ...) by
 * -1 minus its offset in libmpi's predefined section, for offsets below 2^30
 * (docs/architecture.md, "Handles as integers"): with the section's address, found at load
 * and checked against PMPI_*_f2c (support.c; 0 when the check fails), such an integer
 * converts without a call. The pointer it gives for an integer that names no object of
 * the kind is checked by the call it is passed to, as any C handle is (the call's error
 * class, MPI_ERR_COMM ...). Other integers go through PMPI_*_f2c. Messages have an
 * encoding of their own (PMPI_Message_f2c only). */
extern SHL_F_API uintptr_t shl_f_predef_base;
#define SHL_F_PREDEF_SPAN ((MPI_Fint)1 << 30)
#define SHL_F_F2C(conv, ctype)                                                             \
	static inline ctype shl_f_##conv##_f2c(MPI_Fint f)                                 \
	{                                                                                  \
		if (f < 0 && f >= -SHL_F_PREDEF_SPAN && shl_f_predef_base != 0)             \
			return (ctype)(shl_f_predef_base + (uintptr_t)(-1 - (intptr_t)f)); \
		if (f == 0)                                                                \
			return (ctype)0;                                                   \
		return PMPI_##conv##_f2c(f);                                               \
	}
SHL_F_F2C(Comm, MPI_Comm)
SHL_F_F2C(Type, MPI_Datatype)
SHL_F_F2C(Request, MPI_Request)
SHL_F_F2C(Errhandler, MPI_Errhandler)
SHL_F_F2C(Group, MPI_Group)
SHL_F_F2C(Info, MPI_Info)
SHL_F_F2C(Op, MPI_Op)
SHL_F_F2C(Win, MPI_Win)
SHL_F_F2C(File, MPI_File)
SHL_F_F2C(Session, MPI_Session)
#undef SHL_F_F2C
static inline MPI_Message shl_f_Message_f2c(MPI_Fint f)
{
	return PMPI_Message_f2c(f);
}

/* An array length from a C int expression (negative: none). */
static inline size_t shl_f_len(long long n)
{
	return n > 0 ? (size_t)n : 0;
}

/* A Fortran status (MPI_STATUS_SIZE integers, only 4-aligned) as a C MPI_Status: NULL
 * for MPI_STATUS_IGNORE, the Fortran array itself when it is aligned as MPI_Status (the
 * layouts are the same: core/convert.c), else `tmp`, filled from it when `read`. */
static inline MPI_Status *shl_f_status_in(MPI_Fint *f, MPI_Status *tmp, int read)
{
	if (shl_f_is_status_ignore(f) || f == NULL)
		return MPI_STATUS_IGNORE;
	if (((uintptr_t)f & (_Alignof(MPI_Status) - 1)) == 0)
		return (MPI_Status *)(void *)f;
	if (read)
		memcpy(tmp, f, sizeof *tmp);
	return tmp;
}

/* Copies `n` C statuses back to the Fortran array `f` (nothing when C wrote in place or
 * the statuses were ignored). */
static inline void shl_f_status_out(MPI_Fint *f, const MPI_Status *c, long long n)
{
	if (c == NULL || (const void *)c == (const void *)f || n <= 0)
		return;
	memcpy(f, c, (size_t)n * sizeof *c);
}

/* An array of `n` Fortran statuses as C ones: MPI_STATUSES_IGNORE, the array itself, or
 * *c (room for SHL_F_STACK_ENTRIES on entry) or memory of its own; -1 when out of memory.
 * shl_f_statuses_free gives back what it took. */
SHL_F_API int shl_f_statuses(MPI_Fint *f, size_t n, MPI_Status **c);
SHL_F_API void shl_f_statuses_free(MPI_Fint *f, MPI_Status *c, MPI_Status *stack);

/* A CHARACTER argument in: trailing blanks dropped, NUL-terminated, in `stack`
 * (SHL_F_STRING_STACK bytes) or memory of its own (free it unless it is `stack`); NULL
 * when out of memory. */
SHL_F_API char *shl_f_str_in(const char *f, size_t len, char *stack);
/* A C string out into a CHARACTER(LEN=len): copied (cut at len), blank-padded. `c` holds
 * at most `csize` bytes. */
SHL_F_API void shl_f_str_out(char *f, size_t len, const char *c, size_t csize);

/* MPI_ERR_NO_MEM for the binding of `fn` (reported through MPI_COMM_WORLD's handler). */
SHL_F_API int shl_f_nomem(const char *fn);

/* The number of datatypes an alltoallw takes: the (remote) group's size. */
SHL_F_API int shl_f_comm_size(MPI_Comm comm);
/* The in- and out-neighbours of a process topology (neighbourhood collectives). */
SHL_F_API int shl_f_neighbors_in(MPI_Comm comm);
SHL_F_API int shl_f_neighbors_out(MPI_Comm comm);

/* An array of handles that a nonblocking or persistent call reads until it completes (the
 * datatypes of MPI_Ialltoallw, MPI_Neighbor_alltoallw_init, ...), which C takes as the
 * caller's memory: a copy that lives as long as the rank, one per distinct array (a program
 * passes the same few arrays again and again), so nothing frees it under a pending call.
 * NULL when out of memory. */
SHL_F_API void *shl_f_keep(const void *a, size_t n, size_t size);

#endif
