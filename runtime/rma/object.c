/* A window as an object: its error handler and how errors of window calls are raised
 * (shl_win_err), its attributes (predefined and user keyvals, on comm/attr.c's lists), its
 * name, its info hints, its group, and the memory of MPI_Alloc_mem / MPI_Free_mem. Entered
 * by rank threads: a window's object by its owner rank's threads only (name, hints and
 * attribute lists under the rank lock); the MPI_Alloc_mem registry by any rank, under its
 * own mutex. Must not touch a target's memory nor run collectives. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "runtime/rma/rma.h"

/* ---- errors ---- */

int shl_win_err(struct shl_win *w, int errclass, const char *fn, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (w == NULL)
		return shl_err(NULL, errclass, fn, "%s", what);
	/* The user handler gets the handle the user knows, which it may not change. */
	MPI_Win h = w;
	char name[MPI_MAX_OBJECT_NAME + 16];
	if (w->name != NULL)
		snprintf(name, sizeof(name), "window %s", w->name);
	else
		snprintf(name, sizeof(name), "a window");
	return shl_err_raise(w->errh, &h, name, errclass, fn, what);
}

int shl_win_arg(const char *fn, MPI_Win win, struct shl_win **w)
{
	if (!shl_win_ok(win))
		return shl_err(NULL, MPI_ERR_WIN, fn, "win is not a valid window%s",
			       win == MPI_WIN_NULL ? " (MPI_WIN_NULL)" : " (freed already?)");
	*w = win;
	return MPI_SUCCESS;
}

/* ---- error handlers (MPI 4.1, 9.3.2) ---- */

int PMPI_Win_create_errhandler(MPI_Win_errhandler_function *win_errhandler_fn,
			       MPI_Errhandler *errhandler)
{
	const char *fn = "MPI_Win_create_errhandler";
	struct shl_errhandler *e;

	shl_rank_or_die(fn);
	if (win_errhandler_fn == NULL || errhandler == NULL)
		return shl_err(NULL, MPI_ERR_ARG, fn, "win_errhandler_fn or errhandler is NULL");
	e = shl_handle_alloc(sizeof(*e));
	if (e == NULL)
		return shl_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
	*e = (struct shl_errhandler){ .magic = SHL_ERRH_MAGIC, .kind = SHL_ERRH_USER,
				      .obj = SHL_ERRH_WIN, .fn.win = win_errhandler_fn,
				      .refs = 1, .handles = 1 };
	*errhandler = e;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Win_create_errhandler);

int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler)
{
	const char *fn = "MPI_Win_set_errhandler";
	struct shl_win *w;
	int err;

	shl_rank_or_die(fn);
	if ((err = shl_win_arg(fn, win, &w)) != MPI_SUCCESS)
		return err;
	const char *why;
	if ((err = shl_errh_fit(errhandler, SHL_ERRH_WIN, &why)) != MPI_SUCCESS)
		return shl_win_err(w, err, fn, "%s", why);
	shl_errh_replace(&w->errh, errhandler);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Win_set_errhandler);

int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler)
{
	const char *fn = "MPI_Win_get_errhandler";
	struct shl_win *w;
	int err;

	shl_rank_or_die(fn);
	if ((err = shl_win_arg(fn, win, &w)) != MPI_SUCCESS)
		return err;
	if (errhandler == NULL)
		return shl_win_err(w, MPI_ERR_ARG, fn, "errhandler is NULL");
	*errhandler = shl_errh_give(w->errh);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Win_get_errhandler);

int PMPI_Win_call_errhandler(MPI_Win win, int errorcode)
{
	const char *fn = "MPI_Win_call_errhandler";
	struct shl_win *w;
	int err;

	shl_rank_or_die(fn);
	if ((err = shl_win_arg(fn, win, &w)) != MPI_SUCCESS)
		return err;
	shl_win_err(w, errorcode, fn, "the user raised error code %d", errorcode);
	/* Success unless the handler itself failed (MPI 4.1, 9.3.4). */
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Win_call_errhandler);

/* ---- attributes (MPI 4.1, 7.7.3 and 12.2.6) ---- */

void shl_win_attrs_init(struct shl_win *w)
{
	const struct shl_win_peer *me = &w->peers[w->rank];

	w->attr_size = me->size;
	/* disp_unit of the _c creations is an MPI_Aint; the attribute is an int. */
	w->attr_disp_unit = me->disp_unit > INT32_MAX ? INT32_MAX : (int)me->disp_unit;
	w->attr_flavor = w->flavor;
	/* The ranks of a node share one address space: every window is unified. */
	w->attr_model = MPI_WIN_UNIFIED;
}

/* Whether `id` is one of the predefined window keyvals. */
static bool predefined(int id)
{
	return id == MPI_WIN_BASE || id == MPI_WIN_SIZE || id == MPI_WIN_DISP_UNIT ||
	       id == MPI_WIN_CREATE_FLAVOR || id == MPI_WIN_MODEL;
}

int PMPI_Win_set_attr(MPI_Win win, int win_keyval, void *attribute_val)
{
	const char *fn = "MPI_Win_set_attr";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_win *w;
	int err;

	if ((err = shl_win_arg(fn, win, &w)) != MPI_SUCCESS)
		return err;
	if (predefined(win_keyval))
		return shl_win_err(w, MPI_ERR_KEYVAL, fn, "win_keyval %d is predefined and "
				   "read-only", win_keyval);
	err = shl_attr_set(r, SHL_KEYVAL_WIN, &w->attrs, w, win_keyval, attribute_val);
	if (err == -EINVAL)
		return shl_win_err(w, MPI_ERR_KEYVAL, fn, "win_keyval %d is not a window keyval "
				   "of this rank", win_keyval);
	if (err == -ENOMEM)
		return shl_win_err(w, MPI_ERR_NO_MEM, fn, "out of memory");
	if (err != MPI_SUCCESS)
		return shl_win_err(w, err, fn, "the delete callback of win_keyval %d failed",
				   win_keyval);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Win_set_attr);

int PMPI_Win_get_attr(MPI_Win win, int win_keyval, void *attribute_val, int *flag)
{
	const char *fn = "MPI_Win_get_attr";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_win *w;
	void *v = NULL;
	int err;

	if ((err = shl_win_arg(fn, win, &w)) != MPI_SUCCESS)
		return err;
	if (attribute_val == NULL || flag == NULL)
		return shl_win_err(w, MPI_ERR_ARG, fn, "attribute_val or flag is NULL");
	switch (win_keyval) {
	case MPI_WIN_BASE: v = w->peers[w->rank].base; break;  /* the address itself */
	case MPI_WIN_SIZE: v = &w->attr_size; break;
	case MPI_WIN_DISP_UNIT: v = &w->attr_disp_unit; break;
	case MPI_WIN_CREATE_FLAVOR: v = &w->attr_flavor; break;
	case MPI_WIN_MODEL: v = &w->attr_model; break;
	default:
		if (shl_attr_get(r, SHL_KEYVAL_WIN, &w->attrs, win_keyval, attribute_val, flag) < 0)
			return shl_win_err(w, MPI_ERR_KEYVAL, fn, "win_keyval %d is not a window "
					   "keyval of this rank", win_keyval);
		return MPI_SUCCESS;
	}
	*flag = 1;
	*(void **)attribute_val = v;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Win_get_attr);

int PMPI_Win_delete_attr(MPI_Win win, int win_keyval)
{
	const char *fn = "MPI_Win_delete_attr";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_win *w;
	int err;

	if ((err = shl_win_arg(fn, win, &w)) != MPI_SUCCESS)
		return err;
	if (predefined(win_keyval))
		return shl_win_err(w, MPI_ERR_KEYVAL, fn, "win_keyval %d is predefined and "
				   "read-only", win_keyval);
	err = shl_attr_delete(r, SHL_KEYVAL_WIN, &w->attrs, w, win_keyval);
	if (err < 0)
		return shl_win_err(w, MPI_ERR_KEYVAL, fn, "win_keyval %d %s", win_keyval,
				   err == -ENOENT ? "has no attribute on win"
						  : "is not a window keyval of this rank");
	if (err != MPI_SUCCESS)
		return shl_win_err(w, err, fn, "the delete callback of win_keyval %d failed",
				   win_keyval);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Win_delete_attr);

int shl_win_attrs_delete(struct shl_win *w)
{
	return shl_attr_delete_list(shl_self, &w->attrs, w);
}

/* ---- names (MPI 4.1, 7.8) ---- */

int PMPI_Win_set_name(MPI_Win win, const char *win_name)
{
	const char *fn = "MPI_Win_set_name";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_win *w;
	int err;

	if ((err = shl_win_arg(fn, win, &w)) != MPI_SUCCESS)
		return err;
	if (win_name == NULL)
		return shl_win_err(w, MPI_ERR_ARG, fn, "win_name is NULL");
	shl_rank_lock(r);
	/* Longer names are truncated to MPI_MAX_OBJECT_NAME - 1 characters (MPI 4.1, 7.8). */
	snprintf(w->name_buf, sizeof(w->name_buf), "%s", win_name);
	w->name = w->name_buf;
	shl_rank_unlock(r);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Win_set_name);

int PMPI_Win_get_name(MPI_Win win, char *win_name, int *resultlen)
{
	const char *fn = "MPI_Win_get_name";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_win *w;
	int err;

	if ((err = shl_win_arg(fn, win, &w)) != MPI_SUCCESS)
		return err;
	if (win_name == NULL || resultlen == NULL)
		return shl_win_err(w, MPI_ERR_ARG, fn, "win_name or resultlen is NULL");
	shl_rank_lock(r);
	*resultlen = snprintf(win_name, MPI_MAX_OBJECT_NAME, "%s", w->name ? w->name : "");
	shl_rank_unlock(r);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Win_get_name);

/* ---- info hints (MPI 4.1, 12.2.1 and 12.2.7) ---- */

/* "true" or "false" (any case) in *b; false if `s` is neither. */
static bool parse_bool(const char *s, bool *b)
{
	if (strcasecmp(s, "true") == 0)
		*b = true;
	else if (strcasecmp(s, "false") == 0)
		*b = false;
	else
		return false;
	return true;
}

/* accumulate_ordering: "none", or a comma-separated list of rar, raw, war, waw. */
static bool parse_ordering(const char *s, uint8_t *bits)
{
	static const char *const names[] = { "rar", "raw", "war", "waw" };
	uint8_t got = 0;

	while (*s == ' ')
		s++;
	if (strcasecmp(s, "none") == 0) {
		*bits = 0;
		return true;
	}
	for (;;) {
		size_t n;
		int i;

		while (*s == ' ')
			s++;
		n = strcspn(s, ", ");
		for (i = 0; i < 4; i++)
			if (n == 3 && strncasecmp(s, names[i], 3) == 0)
				break;
		if (i == 4)
			return false;
		got |= (uint8_t)(1u << i);
		s += n;
		while (*s == ' ')
			s++;
		if (*s == '\0')
			break;
		if (*s++ != ',')
			return false;
	}
	*bits = got;
	return true;
}

/* A non-negative decimal number of bytes. */
static bool parse_size(const char *s, MPI_Aint *v)
{
	char *end;
	long long n;

	errno = 0;
	n = strtoll(s, &end, 10);
	if (errno != 0 || end == s || n < 0)
		return false;
	while (*end == ' ')
		end++;
	if (*end != '\0')
		return false;
	*v = (MPI_Aint)n;
	return true;
}

/* Take the hints of `in` that the window acts on; a recognised key with an invalid value
 * keeps the value in effect (MPI 4.1, 10.4.1 lets an implementation ignore it).
 * alloc_shared_noncontig shapes the memory at creation only (`creating`). */
static void take_hints(struct shl_win *w, const struct shl_info *in, bool creating)
{
	for (int i = 0; i < in->n; i++) {
		const char *k = in->e[i].key, *v = in->e[i].value;

		if (strcmp(k, "no_locks") == 0)
			parse_bool(v, &w->no_locks);
		else if (strcmp(k, "accumulate_ordering") == 0)
			parse_ordering(v, &w->acc_ordering);
		else if (strcmp(k, "accumulate_ops") == 0) {
			if (strcmp(v, "same_op") == 0)
				w->acc_same_op = true;
			else if (strcmp(v, "same_op_no_op") == 0)
				w->acc_same_op = false;
		} else if (strcmp(k, "same_size") == 0)
			parse_bool(v, &w->same_size);
		else if (strcmp(k, "same_disp_unit") == 0)
			parse_bool(v, &w->same_disp_unit);
		else if (strcmp(k, "alloc_shared_noncontig") == 0 && creating)
			parse_bool(v, &w->alloc_shared_noncontig);
		else if (strcmp(k, "mpi_accumulate_granularity") == 0)
			parse_size(v, &w->acc_granularity);
	}
}

int shl_win_hints(struct shl_win *w, MPI_Info info, const char *fn)
{
	struct shl_info *in = NULL;

	if (info != MPI_INFO_NULL && (in = shl_info_get(shl_self, info)) == NULL)
		return MPI_ERR_INFO;
	/* The defaults of MPI 4.1, 12.2.1. */
	w->no_locks = false;
	w->acc_ordering = SHL_WIN_ORDER_ALL;
	w->acc_same_op = false;
	w->same_size = false;
	w->same_disp_unit = false;
	w->alloc_shared_noncontig = false;
	w->acc_granularity = 0;
	if (in == NULL)
		return MPI_SUCCESS;
	take_hints(w, in, true);
	w->info = shl_info_dup(in);
	return w->info != NULL ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

int PMPI_Win_set_info(MPI_Win win, MPI_Info info)
{
	const char *fn = "MPI_Win_set_info";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_win *w;
	struct shl_info *in, *copy;
	int err;

	if ((err = shl_win_arg(fn, win, &w)) != MPI_SUCCESS)
		return err;
	in = shl_info_get(r, info);
	if (in == NULL)
		return shl_win_err(w, MPI_ERR_INFO, fn, "info is not a valid info object%s",
				   info == MPI_INFO_NULL ? " (MPI_INFO_NULL)" : "");
	copy = shl_info_dup(in);
	if (copy == NULL)
		return shl_win_err(w, MPI_ERR_NO_MEM, fn, "out of memory");
	shl_rank_lock(r);
	/* Hints the info does not name keep their values. */
	take_hints(w, in, false);
	shl_info_free(w->info);
	w->info = copy;
	shl_rank_unlock(r);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Win_set_info);

/* Every hint the window uses, with its value in effect, into `out`. Returns 0 or -ENOMEM. */
static int put_hints(const struct shl_win *w, struct shl_info *out)
{
	static const char *const order[] = { "rar", "raw", "war", "waw" };
	char ordering[32] = "", granularity[32];
	int rc = 0;

	for (int i = 0; i < 4; i++)
		if (w->acc_ordering & (1u << i))
			snprintf(ordering + strlen(ordering), sizeof(ordering) - strlen(ordering),
				 "%s%s", ordering[0] ? "," : "", order[i]);
	snprintf(granularity, sizeof(granularity), "%ld", (long)w->acc_granularity);
	rc |= shl_info_set(out, "no_locks", w->no_locks ? "true" : "false");
	rc |= shl_info_set(out, "accumulate_ordering", ordering[0] ? ordering : "none");
	rc |= shl_info_set(out, "accumulate_ops", w->acc_same_op ? "same_op" : "same_op_no_op");
	rc |= shl_info_set(out, "same_size", w->same_size ? "true" : "false");
	rc |= shl_info_set(out, "same_disp_unit", w->same_disp_unit ? "true" : "false");
	rc |= shl_info_set(out, "alloc_shared_noncontig",
			   w->alloc_shared_noncontig ? "true" : "false");
	rc |= shl_info_set(out, "mpi_accumulate_granularity", granularity);
	return rc < 0 ? -ENOMEM : 0;
}

int PMPI_Win_get_info(MPI_Win win, MPI_Info *info_used)
{
	const char *fn = "MPI_Win_get_info";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_win *w;
	struct shl_info *out;
	int err;

	if ((err = shl_win_arg(fn, win, &w)) != MPI_SUCCESS)
		return err;
	if (info_used == NULL)
		return shl_win_err(w, MPI_ERR_ARG, fn, "info_used is NULL");
	out = shl_info_dup(NULL);
	if (out == NULL)
		return shl_win_err(w, MPI_ERR_NO_MEM, fn, "out of memory");
	shl_rank_lock(r);
	err = put_hints(w, out);
	shl_rank_unlock(r);
	if (err < 0) {
		shl_info_free(out);
		return shl_win_err(w, MPI_ERR_NO_MEM, fn, "out of memory");
	}
	*info_used = out;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Win_get_info);

/* ---- the group (MPI 4.1, 12.2.8) ---- */

int PMPI_Win_get_group(MPI_Win win, MPI_Group *group)
{
	const char *fn = "MPI_Win_get_group";
	struct shl_win *w;
	struct shl_group *g;
	int err;

	shl_rank_or_die(fn);
	if ((err = shl_win_arg(fn, win, &w)) != MPI_SUCCESS)
		return err;
	if (group == NULL)
		return shl_win_err(w, MPI_ERR_ARG, fn, "group is NULL");
	g = shl_group_new(w->size);
	if (g == NULL)
		return shl_win_err(w, MPI_ERR_NO_MEM, fn, "out of memory");
	for (int i = 0; i < w->size; i++)
		g->world[i] = w->peers[i].world;
	*group = g;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Win_get_group);

/* ---- MPI_Alloc_mem and MPI_Free_mem (MPI 4.1, 9.2) ---- */

/* Blocks of MPI_Alloc_mem get at least this alignment: a cache line, so that no two blocks
 * share one and vector loads of a block never split a line at its start. */
#define SHL_ALLOC_MEM_ALIGN 64

/* The live blocks of every rank of the node process, by address, so that MPI_Free_mem
 * of anything else is an error rather than a corrupted heap: a chained hash table,
 * grown when it holds twice as many blocks as buckets. */
struct block {
	void *base;
	struct block *next;
};

static struct {
	pthread_mutex_t mu;
	struct block **bucket;
	size_t nbuckets, n;
} blocks = { .mu = PTHREAD_MUTEX_INITIALIZER };

static size_t bucket_of(const void *p, size_t nbuckets)
{
	uint64_t h = (uint64_t)(uintptr_t)p / SHL_ALLOC_MEM_ALIGN;

	h *= UINT64_C(0x9e3779b97f4a7c15);
	return (size_t)(h >> 32) & (nbuckets - 1);
}

/* blocks.mu held: double the buckets (or make the first 64). Returns 0 or -ENOMEM. */
static int blocks_grow(void)
{
	size_t n = blocks.nbuckets ? 2 * blocks.nbuckets : 64;
	struct block **b = calloc(n, sizeof(*b));

	if (b == NULL)
		return -ENOMEM;
	for (size_t i = 0; i < blocks.nbuckets; i++) {
		while (blocks.bucket[i] != NULL) {
			struct block *e = blocks.bucket[i];
			blocks.bucket[i] = e->next;
			e->next = b[bucket_of(e->base, n)];
			b[bucket_of(e->base, n)] = e;
		}
	}
	free(blocks.bucket);
	blocks.bucket = b;
	blocks.nbuckets = n;
	return 0;
}

/* Enter block `base` (its entry `e`, allocated by the caller). Returns 0 or -ENOMEM. */
static int blocks_add(void *base, struct block *e)
{
	int rc = 0;

	pthread_mutex_lock(&blocks.mu);
	if (blocks.n >= 2 * blocks.nbuckets)
		rc = blocks_grow();
	if (rc == 0) {
		size_t i = bucket_of(base, blocks.nbuckets);
		*e = (struct block){ base, blocks.bucket[i] };
		blocks.bucket[i] = e;
		blocks.n++;
	}
	pthread_mutex_unlock(&blocks.mu);
	return rc;
}

/* Take block `base` out; whether it was there. */
static bool blocks_remove(void *base)
{
	struct block *e = NULL, **link;

	pthread_mutex_lock(&blocks.mu);
	if (blocks.nbuckets > 0) {
		link = &blocks.bucket[bucket_of(base, blocks.nbuckets)];
		while (*link != NULL && (*link)->base != base)
			link = &(*link)->next;
		e = *link;
		if (e != NULL) {
			*link = e->next;
			blocks.n--;
		}
	}
	pthread_mutex_unlock(&blocks.mu);
	free(e);
	return e != NULL;
}

/* The alignment of a block: SHL_ALLOC_MEM_ALIGN, or the hint mpi_minimum_memory_alignment
 * of `in` (MPI 4.1, 9.2) when it is a larger power of two (up to 1 GiB); another value is
 * ignored, as hints may be. */
static size_t alignment(const struct shl_info *in)
{
	for (int i = 0; in != NULL && i < in->n; i++) {
		MPI_Aint v;
		if (strcmp(in->e[i].key, "mpi_minimum_memory_alignment") == 0 &&
		    parse_size(in->e[i].value, &v) && v > SHL_ALLOC_MEM_ALIGN &&
		    v <= (MPI_Aint)1 << 30 && (v & (v - 1)) == 0)
			return (size_t)v;
	}
	return SHL_ALLOC_MEM_ALIGN;
}

int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
	const char *fn = "MPI_Alloc_mem";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_info *in = NULL;
	struct block *e;
	void *p;

	if (size < 0)
		return shl_err(NULL, MPI_ERR_SIZE, fn, "size %ld is negative", (long)size);
	if (baseptr == NULL)
		return shl_err(NULL, MPI_ERR_ARG, fn, "baseptr is NULL");
	if (info != MPI_INFO_NULL && (in = shl_info_get(r, info)) == NULL)
		return shl_err(NULL, MPI_ERR_INFO, fn, "info is not a valid info object");
	size_t align = alignment(in);
	if ((uint64_t)size > SIZE_MAX - align)
		return shl_err(NULL, MPI_ERR_NO_MEM, fn, "size %ld is more than memory holds",
			       (long)size);
	/* A zero size gets a block of its own too: every pointer returned is distinct and
	 * freed once. */
	size_t bytes = size == 0 ? align : ((size_t)size + align - 1) & ~(align - 1);
	p = aligned_alloc(align, bytes);
	e = malloc(sizeof(*e));
	if (p == NULL || e == NULL || blocks_add(p, e) < 0) {
		free(p);
		free(e);
		return shl_err(NULL, MPI_ERR_NO_MEM, fn, "could not allocate %ld bytes",
			       (long)size);
	}
	memcpy(baseptr, &p, sizeof(p));
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Alloc_mem);

int PMPI_Free_mem(void *base)
{
	const char *fn = "MPI_Free_mem";

	shl_rank_or_die(fn);
	if (base == NULL)
		return MPI_SUCCESS;
	if (!blocks_remove(base))
		return shl_err(NULL, MPI_ERR_BASE, fn, "base %p is not the start of memory "
			       "MPI_Alloc_mem returned (freed already?)", base);
	free(base);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Free_mem);
