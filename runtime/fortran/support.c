/* The functions of runtime/fortran/fortran.h (the sentinel registry, string and status
 * conversions, per-rank array lengths) and the few bindings written by hand in C:
 * MPI_F_SYNC_REG. Part of libmpifort, whose copy each rank has: the registry is per rank.
 * Entered by the loader's thread that loads a rank's program (the constructors, which
 * register sentinels) and by the rank threads that call MPI from Fortran. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/fortran/fortran.h"

SHL_F_API struct shl_f_registry shl_f_registry;
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;

/* The modules' sentinels: BIND(C) variables of module shl_mpi_sentinels
 * (runtime/fortran/sentinels.f90), compiled into this library. */
extern char shl_f_bottom[], shl_f_in_place[], shl_f_status_ignore[],
	shl_f_statuses_ignore[], shl_f_errcodes_ignore[], shl_f_unweighted[],
	shl_f_weights_empty[], shl_f_buffer_automatic[], shl_f_argv_null[],
	shl_f_argvs_null[];

static void widen(uintptr_t *lo, uintptr_t *hi, const void *p)
{
	if (p == NULL)
		return;
	if ((uintptr_t)p < *lo)
		*lo = (uintptr_t)p;
	if ((uintptr_t)p > *hi)
		*hi = (uintptr_t)p;
}

void shl_f_sentinels_add(const struct shl_f_sentinels *s)
{
	struct shl_f_registry *r = &shl_f_registry;

	pthread_mutex_lock(&registry_lock);
	if (r->n == SHL_F_SENTINEL_SETS) {
		pthread_mutex_unlock(&registry_lock);
		fprintf(stderr, "shoal: libmpifort: more than %d programs and libraries register "
			"mpif.h sentinels; MPI_BOTTOM and its kin of the others are not seen\n",
			SHL_F_SENTINEL_SETS);
		return;
	}
	for (int i = 0; i < r->n; i++)
		if (memcmp(&r->set[i], s, sizeof *s) == 0) {
			pthread_mutex_unlock(&registry_lock);
			return;
		}
	r->set[r->n] = *s;
	uintptr_t lo = r->n ? r->lo : UINTPTR_MAX, hi = r->n ? r->lo + r->span : 0;
	const void *const *a = (const void *const *)s;
	for (size_t i = 0; i < sizeof *s / sizeof(void *); i++)
		widen(&lo, &hi, a[i]);
	if (lo > hi)
		lo = hi = 0;
	/* The span grows before the count: a concurrent check sees a wider span and the
	 * sets it knew. */
	__atomic_store_n(&r->lo, lo, __ATOMIC_RELEASE);
	__atomic_store_n(&r->span, hi - lo, __ATOMIC_RELEASE);
	__atomic_store_n(&r->n, r->n + 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&registry_lock);
}

__attribute__((constructor)) static void register_module_sentinels(void)
{
	struct shl_f_sentinels s = {
		.bottom = shl_f_bottom, .in_place = shl_f_in_place,
		.status_ignore = shl_f_status_ignore, .statuses_ignore = shl_f_statuses_ignore,
		.errcodes_ignore = shl_f_errcodes_ignore, .unweighted = shl_f_unweighted,
		.weights_empty = shl_f_weights_empty, .buffer_automatic = shl_f_buffer_automatic,
		.argv_null = shl_f_argv_null, .argvs_null = shl_f_argvs_null,
	};
	shl_f_sentinels_add(&s);
}

SHL_F_API uintptr_t shl_f_predef_base;

/* The address of libmpi's predefined section (fortran.h, "Handles in"), from
 * MPI_COMM_WORLD's integer; kept only if PMPI_*_f2c agrees for a handle of each of a few
 * kinds, else 0 (every conversion then calls libmpi). */
__attribute__((constructor)) static void find_predef_base(void)
{
	MPI_Fint w = PMPI_Comm_c2f(MPI_COMM_WORLD);
	if (w >= 0 || w < -SHL_F_PREDEF_SPAN)
		return;
	uintptr_t base = (uintptr_t)MPI_COMM_WORLD + 1 + (intptr_t)w;
#define AGREES(conv, h) \
	(PMPI_##conv##_c2f(h) < 0 && PMPI_##conv##_f2c(PMPI_##conv##_c2f(h)) == (h) && \
	 base + (uintptr_t)(-1 - (intptr_t)PMPI_##conv##_c2f(h)) == (uintptr_t)(h))
	if (AGREES(Comm, MPI_COMM_SELF) && AGREES(Type, MPI_INT) && AGREES(Type, MPI_DOUBLE) &&
	    AGREES(Op, MPI_SUM) && AGREES(Errhandler, MPI_ERRORS_RETURN) &&
	    AGREES(Group, MPI_GROUP_EMPTY))
		shl_f_predef_base = base;
#undef AGREES
}

int shl_f_statuses(MPI_Fint *f, size_t n, MPI_Status **c)
{
	if (shl_f_is_statuses_ignore(f) || f == NULL) {
		*c = MPI_STATUSES_IGNORE;
		return 0;
	}
	if (((uintptr_t)f & (_Alignof(MPI_Status) - 1)) == 0) {
		*c = (MPI_Status *)(void *)f;
		return 0;
	}
	if (n > SHL_F_STACK_ENTRIES) {
		*c = malloc(n * sizeof(MPI_Status));
		if (*c == NULL)
			return -1;
	}
	/* Statuses the call leaves alone keep the values they had. */
	memcpy(*c, f, n * sizeof(MPI_Status));
	return 0;
}

void shl_f_statuses_free(MPI_Fint *f, MPI_Status *c, MPI_Status *stack)
{
	if (c != NULL && c != stack && (void *)c != (void *)f)
		free(c);
}

char *shl_f_str_in(const char *f, size_t len, char *stack)
{
	while (len > 0 && f[len - 1] == ' ')
		len--;
	char *s = len < SHL_F_STRING_STACK ? stack : malloc(len + 1);
	if (s == NULL)
		return NULL;
	memcpy(s, f, len);
	s[len] = 0;
	return s;
}

void shl_f_str_out(char *f, size_t len, const char *c, size_t csize)
{
	size_t n = strnlen(c, csize);
	if (n > len)
		n = len;
	memcpy(f, c, n);
	memset(f + n, ' ', len - n);
}

int shl_f_nomem(const char *fn)
{
	fprintf(stderr, "shoal: %s (Fortran binding): out of memory converting its arguments\n",
		fn);
	PMPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_NO_MEM);
	return MPI_ERR_NO_MEM;
}

int shl_f_comm_size(MPI_Comm comm)
{
	int inter = 0, n = 0;
	if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS)
		return 0;
	if ((inter ? PMPI_Comm_remote_size(comm, &n) : PMPI_Comm_size(comm, &n)) != MPI_SUCCESS)
		return 0;
	return n;
}

/* The in- (`out` 0) or out-degree (1) of comm's topology; 0 without one. */
static int neighbors(MPI_Comm comm, int out)
{
	int kind = MPI_UNDEFINED, n = 0, indeg = 0, outdeg = 0, weighted = 0, rank = 0;
	if (PMPI_Topo_test(comm, &kind) != MPI_SUCCESS)
		return 0;
	switch (kind) {
	case MPI_CART:
		if (PMPI_Cartdim_get(comm, &n) != MPI_SUCCESS)
			return 0;
		return 2 * n;
	case MPI_GRAPH:
		if (PMPI_Comm_rank(comm, &rank) != MPI_SUCCESS ||
		    PMPI_Graph_neighbors_count(comm, rank, &n) != MPI_SUCCESS)
			return 0;
		return n;
	case MPI_DIST_GRAPH:
		if (PMPI_Dist_graph_neighbors_count(comm, &indeg, &outdeg, &weighted) !=
		    MPI_SUCCESS)
			return 0;
		return out ? outdeg : indeg;
	default:
		return 0;
	}
}

int shl_f_neighbors_in(MPI_Comm comm)
{
	return neighbors(comm, 0);
}

int shl_f_neighbors_out(MPI_Comm comm)
{
	return neighbors(comm, 1);
}

/* MPI_F_SYNC_REG(buf): a call the compiler cannot see into, so that it keeps no copy of
 * `buf` in a register across it (MPI 4.1, 19.1.20). */
SHL_F_API void pmpi_f_sync_reg_(void *buf);
SHL_F_API void pmpi_f_sync_reg_(void *buf)
{
	__asm__ __volatile__("" : : "r"(buf) : "memory");
}
extern void mpi_f_sync_reg_(void *buf)
	__attribute__((weak, alias("pmpi_f_sync_reg_"), visibility("default")));

/* shl_f_keep's arrays, hashed by their bytes; entered by the rank's threads. */
#define SHL_F_KEPT_BUCKETS 256
static struct kept {
	struct kept *next;
	size_t bytes;
	_Alignas(max_align_t) unsigned char a[];
} *kept[SHL_F_KEPT_BUCKETS];
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;

void *shl_f_keep(const void *a, size_t n, size_t size)
{
	size_t bytes = n * size;
	unsigned h = (unsigned)bytes;
	for (size_t i = 0; i < bytes; i++)
		h = h * 31u + ((const unsigned char *)a)[i];
	struct kept **b = &kept[h % SHL_F_KEPT_BUCKETS], *k;
	pthread_mutex_lock(&kept_lock);
	for (k = *b; k; k = k->next)
		if (k->bytes == bytes && memcmp(k->a, a, bytes) == 0)
			break;
	if (!k && (k = malloc(sizeof *k + (bytes ? bytes : 1)))) {
		k->bytes = bytes;
		memcpy(k->a, a, bytes);
		k->next = *b;
		*b = k;
	}
	pthread_mutex_unlock(&kept_lock);
	return k ? k->a : NULL;
}
