/* What the generated C entry points of mpi_f08 (f08_bindings.c, runtime/fortran/
 * bindgen_f08.py) share: the choice buffers as CFI descriptors (the module's sentinels,
 * contiguous arrays passed as they are, non-contiguous sections described by a datatype or
 * copied), strings, and the errors of those steps. Included by f08_bindings.c alone, so its
 * functions are static; part of libmpifort.so, a copy per rank (the error code made below
 * is the rank's). Entered by rank threads. Calls only the public PMPI_ interface. */
#ifndef SHL_FORTRAN_F08_H
#define SHL_FORTRAN_F08_H

#include <ISO_Fortran_binding.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "runtime/fortran/fortran.h"

#define SHL_F08_LIKELY(x) __builtin_expect(!!(x), 1)
#define SHL_F08_STACK 32

/* MPI_X_f08ts is PMPI_X_f08ts unless a profiling library defines its own. */
#define SHL_F08_EXPORT __attribute__((visibility("default")))
#define SHL_F08_ALIAS(name) \
	extern __typeof__(PMPI_##name##_f08ts) MPI_##name##_f08ts \
		__attribute__((weak, alias("PMPI_" #name "_f08ts"), visibility("default")));

/* Whether the described elements lie one after the other (a scalar, a whole array, a
 * contiguous section, an empty one). */
static inline bool shl_f08_contig(const CFI_cdesc_t *d)
{
	CFI_index_t want = (CFI_index_t)d->elem_len;
	for (int r = 0; r < d->rank; r++) {
		CFI_index_t n = d->dim[r].extent;
		if (n == 0)
			return true;
		if (n != 1 && d->dim[r].sm != want)
			return false;
		want *= n;
	}
	return true;
}

enum { SHL_F08_NONE, SHL_F08_COMM, SHL_F08_WIN, SHL_F08_FILE };

/* Reports an error of the binding itself through the error handler of the call's object
 * (MPI_COMM_SELF's for calls without one), with a code of `errclass` whose string is
 * "func: arg what" (string literals: the pointers key the codes); returns the code for
 * ierror. The rank's copy of libmpifort keeps one code per message. */
static inline int shl_f08_error(int errclass, const char *func, const char *arg,
				const char *what, int objkind, void *obj)
{
	static struct f08_code {
		const char *func, *arg, *what;
		int code;
		struct f08_code *next;
	} *codes;
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	struct f08_code *c;
	pthread_mutex_lock(&lock);
	for (c = codes; c; c = c->next)
		if (c->func == func && c->arg == arg && c->what == what)
			break;
	int code = errclass;
	if (c) {
		code = c->code;
	} else if ((c = malloc(sizeof *c)) && PMPI_Add_error_code(errclass, &code) == MPI_SUCCESS) {
		char text[MPI_MAX_ERROR_STRING];
		snprintf(text, sizeof text, "%s: %s%s", func, arg, what);
		PMPI_Add_error_string(code, text);
		*c = (struct f08_code){ func, arg, what, code, codes };
		codes = c;
	} else {
		free(c);
		code = errclass;
	}
	pthread_mutex_unlock(&lock);
	switch (objkind) {
	case SHL_F08_COMM:
		PMPI_Comm_call_errhandler((MPI_Comm)obj, code);
		break;
	case SHL_F08_WIN:
		PMPI_Win_call_errhandler((MPI_Win)obj, code);
		break;
	case SHL_F08_FILE:
		PMPI_File_call_errhandler((MPI_File)obj, code);
		break;
	default:
		PMPI_Comm_call_errhandler(MPI_COMM_SELF, code);
	}
	return code;
}

static inline int shl_f08_no_mem(const char *func, int objkind, void *obj)
{
	return shl_f08_error(MPI_ERR_NO_MEM, func, "", "no memory to convert the arguments",
			     objkind, obj);
}

/* A string argument: a NUL-terminated copy without the trailing blanks (free()d). */
static inline char *shl_f08_str_in(const CFI_cdesc_t *d)
{
	size_t n = d->elem_len;
	const char *s = d->base_addr;
	while (n > 0 && s[n - 1] == ' ')
		n--;
	char *c = malloc(n + 1);
	if (c) {
		memcpy(c, s, n);
		c[n] = '\0';
	}
	return c;
}

/* A string result: C's string copied into the Fortran variable, blank-padded. */
static inline void shl_f08_str_out(const CFI_cdesc_t *d, const char *c)
{
	shl_f_str_out(d->base_addr, d->elem_len, c, d->elem_len);
}


/* ---- non-contiguous sections ---- */

#define SHL_F08_OUT 1      /* the call writes the buffer */
#define SHL_F08_BLOCKING 2 /* the buffer is not used after the call returns */

/* What a non-contiguous section became for one call: the address to pass, and what to undo
 * after it (a copy to write back and free, a datatype to free). */
struct shl_f08_sect {
	void *addr;
	void *tmp;
	const CFI_cdesc_t *d;
	bool unpack;
	MPI_Datatype made;
};

/* Copies the section's elements to (to_tmp) or from a contiguous `tmp`, in array element
 * order (the first dimension fastest). */
static inline void shl_f08_copy(const CFI_cdesc_t *d, char *tmp, bool to_tmp)
{
	CFI_index_t idx[CFI_MAX_RANK] = { 0 };
	size_t len = d->elem_len;
	for (;;) {
		char *p = d->base_addr;
		for (int r = 1; r < d->rank; r++)
			p += idx[r] * d->dim[r].sm;
		CFI_index_t n = d->dim[0].extent, sm = d->dim[0].sm;
		for (CFI_index_t i = 0; i < n; i++, p += sm, tmp += len) {
			if (to_tmp)
				memcpy(tmp, p, len);
			else
				memcpy(p, tmp, len);
		}
		int r = 1;
		while (r < d->rank && ++idx[r] == d->dim[r].extent)
			idx[r++] = 0;
		if (r >= d->rank)
			return;
	}
}

/* A datatype of all the elements of the section's dimensions 0..r-1 (nested hvectors of
 * the descriptor's strides over `elem`); *t is `elem` itself for r = 0. */
static inline int shl_f08_whole(const CFI_cdesc_t *d, int r, MPI_Datatype elem, MPI_Datatype *t)
{
	*t = elem;
	for (int k = 0; k < r; k++) {
		MPI_Datatype next;
		int rc = PMPI_Type_create_hvector((int)d->dim[k].extent, 1, (MPI_Aint)d->dim[k].sm,
						  *t, &next);
		if (*t != elem)
			PMPI_Type_free(t);
		if (rc != MPI_SUCCESS)
			return rc;
		*t = next;
	}
	return MPI_SUCCESS;
}

/* A datatype of the first `m` elements, in array element order, of the section's
 * dimensions 0..r-1 (0 < m <= their number): q whole slices along dimension r-1, then the
 * first elements of the next slice. *t is `elem` itself when that is all it takes. */
static inline int shl_f08_first(const CFI_cdesc_t *d, int r, MPI_Count m, MPI_Datatype elem,
				MPI_Datatype *t)
{
	if (r == 0) {
		*t = elem;
		return MPI_SUCCESS;
	}
	MPI_Count slice = 1;
	for (int k = 0; k < r - 1; k++)
		slice *= d->dim[k].extent;
	MPI_Count q = m / slice, rem = m % slice;
	MPI_Aint sm = (MPI_Aint)d->dim[r - 1].sm;
	MPI_Datatype whole = elem, head = MPI_DATATYPE_NULL, tail = MPI_DATATYPE_NULL;
	int rc = MPI_SUCCESS;
	if (q > 0) {
		rc = shl_f08_whole(d, r - 1, elem, &whole);
		if (rc == MPI_SUCCESS)
			rc = PMPI_Type_create_hvector((int)q, 1, sm, whole, &head);
		if (whole != elem)
			PMPI_Type_free(&whole);
	}
	if (rc == MPI_SUCCESS && rem > 0)
		rc = shl_f08_first(d, r - 1, rem, elem, &tail);
	if (rc == MPI_SUCCESS && q > 0 && rem > 0) {
		int len[2] = { 1, 1 };
		MPI_Aint disp[2] = { 0, (MPI_Aint)q * sm };
		MPI_Datatype parts[2] = { head, tail };
		rc = PMPI_Type_create_struct(2, len, disp, parts, t);
	} else if (rc == MPI_SUCCESS) {
		*t = q > 0 ? head : tail;
		return MPI_SUCCESS;
	}
	if (head != MPI_DATATYPE_NULL)
		PMPI_Type_free(&head);
	if (tail != MPI_DATATYPE_NULL && tail != elem)
		PMPI_Type_free(&tail);
	return rc;
}

/* A section the call cannot take as it is (rank >= 1, not contiguous, not empty). With a
 * predefined datatype of the elements' size and a count of at most the section's elements,
 * the call gets a datatype that walks the first `count` of them (nested hvectors of the
 * descriptor's strides: no copy, so nonblocking calls work too) and count 1; otherwise a
 * blocking call gets a contiguous copy of the section, written back after it if the call
 * writes the buffer. A nonblocking call in that case is MPI_ERR_BUFFER (mpi_f08's
 * MPI_SUBARRAYS_SUPPORTED is .FALSE.). */
static inline int shl_f08_sect_enter(const CFI_cdesc_t *d, struct shl_f08_sect *s, MPI_Count *count,
			      MPI_Datatype *type, int flags, const char *func, const char *arg,
			      int objkind, void *obj)
{
	MPI_Count elems = 1;
	for (int r = 0; r < d->rank; r++)
		elems *= d->dim[r].extent;
	s->d = d;
	if (count && type && *count == 0) {
		s->addr = d->base_addr;
		return MPI_SUCCESS;
	}
	if (count && type && *count > 0 && *count <= elems) {
		int ni = 0, na = 0, nd = 0, combiner = 0, size = 0;
		bool fits = true;
		for (int r = 0; r < d->rank; r++)
			fits &= d->dim[r].extent <= 0x7fffffff;
		if (fits && PMPI_Type_get_envelope(*type, &ni, &na, &nd, &combiner) == MPI_SUCCESS &&
		    combiner == MPI_COMBINER_NAMED &&
		    PMPI_Type_size(*type, &size) == MPI_SUCCESS && (size_t)size == d->elem_len) {
			MPI_Datatype t;
			int rc = shl_f08_first(d, d->rank, *count, *type, &t);
			if (rc != MPI_SUCCESS)
				return rc;
			rc = PMPI_Type_commit(&t);
			if (rc != MPI_SUCCESS) {
				PMPI_Type_free(&t);
				return rc;
			}
			s->made = t;
			*type = t;
			*count = 1;
			s->addr = d->base_addr;
			return MPI_SUCCESS;
		}
	}
	if (!(flags & SHL_F08_BLOCKING))
		return shl_f08_error(MPI_ERR_BUFFER, func, arg,
				     " is a non-contiguous array section, which a nonblocking, "
				     "persistent or one-sided call takes only with a predefined "
				     "datatype of the elements' size and a count of at most the "
				     "section's elements (MPI_SUBARRAYS_SUPPORTED is .FALSE.)",
				     objkind, obj);
	/* Room for what the call may touch, were the count too large for the section (only the
	 * section's elements are copied back). */
	size_t bytes = (size_t)elems * d->elem_len;
	MPI_Aint lb, extent, tlb, textent;
	if (count && type && *count > 0 &&
	    PMPI_Type_get_extent(*type, &lb, &extent) == MPI_SUCCESS &&
	    PMPI_Type_get_true_extent(*type, &tlb, &textent) == MPI_SUCCESS) {
		MPI_Count reach = (*count - 1) * (MPI_Count)extent + tlb + textent;
		if (reach > 0 && (size_t)reach > bytes)
			bytes = (size_t)reach;
	}
	s->tmp = malloc(bytes ? bytes : 1);
	if (!s->tmp)
		return shl_f08_no_mem(func, objkind, obj);
	shl_f08_copy(d, s->tmp, true);
	s->unpack = flags & SHL_F08_OUT;
	s->addr = s->tmp;
	return MPI_SUCCESS;
}

/* Undoes what shl_f08_sect_enter made, after the call (`rc` its result). */
static inline void shl_f08_sect_leave(struct shl_f08_sect *s, int rc)
{
	if (SHL_F08_LIKELY(!s->tmp && !s->made))
		return;
	if (s->tmp) {
		if (s->unpack && rc == MPI_SUCCESS)
			shl_f08_copy(s->d, s->tmp, false);
		free(s->tmp);
	}
	if (s->made)
		PMPI_Type_free(&s->made);
}

#endif
