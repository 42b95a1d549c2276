/* Data representations (MPI 4.1, 14.5): "native", "internal" (laid out as native: MPI
 * leaves its layout to the implementation), "external32" (big-endian, the sizes of MPI 4.1
 * Table 14.2, converted by the datatype layer's external32 code) and the ones a program
 * registers with MPI_Register_datarep; for each, the extent of a type in the file, a type's
 * layout in the file (view.c flattens it), and the conversion between memory and the file's
 * stream of data.
 * A registration belongs to the rank that made it: its functions are in that rank's copy of
 * the program. Entries live until the process ends (MPI has no way to remove one).
 * Entered by rank threads (find, register, extent, layout, size); shl_file_rep_convert also
 * by the node's I/O workers and collective I/O threads, on a representation found before. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/file/file.h"

enum rep_kind { REP_INTERNAL, REP_EXTERNAL32, REP_USER };

/* Predefined types whose file extent a registered representation remembers. */
#define REP_CACHE 128

struct shl_datarep {
	enum rep_kind kind;
	const char *name;
	int owner;                    /* REP_USER: the registering rank's world rank */
	MPI_Datarep_conversion_function *read, *write;       /* MPI_Register_datarep */
	MPI_Datarep_conversion_function_c *read_c, *write_c; /* MPI_Register_datarep_c */
	MPI_Datarep_extent_function *extent;
	void *extra_state;
	/* The extent function's answers, by predefined type: asked once, on the rank's thread
	 * (set_view's layout asks for every predefined type of the etype and filetype), so
	 * that I/O workers, which are no rank, need not call the program. Appended under
	 * `mu`; read without it up to `ncached` (release/acquire). */
	pthread_mutex_t mu;
	_Atomic int ncached;
	struct {
		const struct shl_datatype *type;
		MPI_Aint extent;
	} cached[REP_CACHE];
	struct shl_datarep *next;
	char name_buf[MPI_MAX_DATAREP_STRING];
};

static const struct shl_datarep rep_internal = { .kind = REP_INTERNAL, .name = "internal" };
static const struct shl_datarep rep_external32 = { .kind = REP_EXTERNAL32,
						   .name = "external32" };

/* The registered representations of every rank of the process. */
static struct {
	pthread_mutex_t mu;
	struct shl_datarep *head;
} reps = { .mu = PTHREAD_MUTEX_INITIALIZER };

bool shl_file_rep_native(const struct shl_datarep *rep)
{
	return rep == NULL || rep->kind == REP_INTERNAL;
}

const char *shl_file_rep_name(const struct shl_datarep *rep)
{
	return rep == NULL ? "native" : rep->name;
}

int shl_file_rep_find(const char *name, const struct shl_datarep **rep)
{
	struct shl_rank *r = shl_self;
	struct shl_datarep *e;

	if (name == NULL)
		return MPI_ERR_UNSUPPORTED_DATAREP;
	if (strcmp(name, "native") == 0) {
		*rep = NULL;
		return MPI_SUCCESS;
	}
	if (strcmp(name, "internal") == 0) {
		*rep = &rep_internal;
		return MPI_SUCCESS;
	}
	if (strcmp(name, "external32") == 0) {
		*rep = &rep_external32;
		return MPI_SUCCESS;
	}
	pthread_mutex_lock(&reps.mu);
	for (e = reps.head; e != NULL; e = e->next)
		if (r != NULL && e->owner == r->world_rank && strcmp(e->name, name) == 0)
			break;
	pthread_mutex_unlock(&reps.mu);
	if (e == NULL)
		return MPI_ERR_UNSUPPORTED_DATAREP;
	*rep = e;
	return MPI_SUCCESS;
}

/* ---- MPI_Register_datarep (MPI 4.1, 14.5.3) ---- */

static int reg(const char *fn, const char *datarep, MPI_Datarep_conversion_function *rd,
	       MPI_Datarep_conversion_function *wr, MPI_Datarep_conversion_function_c *rd_c,
	       MPI_Datarep_conversion_function_c *wr_c, MPI_Datarep_extent_function *extent,
	       void *extra_state)
{
	struct shl_rank *r = shl_rank_or_die(fn);
	const struct shl_datarep *old;
	struct shl_datarep *e;

	if (datarep == NULL)
		return shl_file_err(NULL, MPI_ERR_ARG, fn, "datarep is NULL");
	if (datarep[0] == '\0' || strlen(datarep) >= MPI_MAX_DATAREP_STRING)
		return shl_file_err(NULL, MPI_ERR_ARG, fn, "datarep \"%.64s%s\" is %s", datarep,
				    strlen(datarep) > 64 ? "..." : "",
				    datarep[0] == '\0' ? "empty"
						       : "longer than MPI_MAX_DATAREP_STRING - 1 "
							 "characters");
	if (extent == NULL)
		return shl_file_err(NULL, MPI_ERR_ARG, fn, "dtype_file_extent_fn is NULL");
	if (shl_file_rep_find(datarep, &old) == MPI_SUCCESS)
		return shl_file_err(NULL, MPI_ERR_DUP_DATAREP, fn, "datarep \"%s\" is defined "
				    "already%s", datarep,
				    old == NULL || old->kind != REP_USER ? " (predefined)" : "");
	e = calloc(1, sizeof(*e));
	if (e == NULL)
		return shl_file_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
	*e = (struct shl_datarep){ .kind = REP_USER, .owner = r->world_rank, .read = rd,
				   .write = wr, .read_c = rd_c, .write_c = wr_c, .extent = extent,
				   .extra_state = extra_state };
	pthread_mutex_init(&e->mu, NULL);
	strcpy(e->name_buf, datarep);
	e->name = e->name_buf;
	pthread_mutex_lock(&reps.mu);
	e->next = reps.head;
	reps.head = e;
	pthread_mutex_unlock(&reps.mu);
	return MPI_SUCCESS;
}

int PMPI_Register_datarep(const char *datarep, MPI_Datarep_conversion_function *read_conversion_fn,
			  MPI_Datarep_conversion_function *write_conversion_fn,
			  MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state)
{
	return reg("MPI_Register_datarep", datarep, read_conversion_fn, write_conversion_fn,
		   NULL, NULL, dtype_file_extent_fn, extra_state);
}
SHL_WEAK_ALIAS(Register_datarep);

int PMPI_Register_datarep_c(const char *datarep,
			    MPI_Datarep_conversion_function_c *read_conversion_fn,
			    MPI_Datarep_conversion_function_c *write_conversion_fn,
			    MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state)
{
	return reg("MPI_Register_datarep_c", datarep, NULL, NULL, read_conversion_fn,
		   write_conversion_fn, dtype_file_extent_fn, extra_state);
}
SHL_WEAK_ALIAS(Register_datarep_c);

/* ---- extents and sizes in the file ---- */

/* The file bytes of one predefined element `basic` in `rep` (not native). */
static int basic_extent(const struct shl_datarep *rep, const struct shl_datatype *basic,
			MPI_Aint *extent)
{
	if (rep->kind == REP_INTERNAL) {
		*extent = basic->extent;
		return MPI_SUCCESS;
	}
	if (rep->kind == REP_EXTERNAL32) {
		*extent = (MPI_Aint)shl_dt_x32_basic(basic);
		return MPI_SUCCESS;
	}
	struct shl_datarep *e = (struct shl_datarep *)rep;
	int n = atomic_load_explicit(&e->ncached, memory_order_acquire);
	for (int i = 0; i < n; i++)
		if (e->cached[i].type == basic) {
			*extent = e->cached[i].extent;
			return MPI_SUCCESS;
		}
	MPI_Aint x = -1;
	int rc = rep->extent((MPI_Datatype)basic, &x, rep->extra_state);
	if (rc != MPI_SUCCESS || x < 0)
		return MPI_ERR_CONVERSION;
	pthread_mutex_lock(&e->mu);
	n = atomic_load_explicit(&e->ncached, memory_order_relaxed);
	if (n < REP_CACHE) {
		e->cached[n].type = basic;
		e->cached[n].extent = x;
		atomic_store_explicit(&e->ncached, n + 1, memory_order_release);
	}
	pthread_mutex_unlock(&e->mu);
	*extent = x;
	return MPI_SUCCESS;
}

/* Counting the file bytes of a signature, one run of predefined elements at a time. */
struct measure {
	const struct shl_datarep *rep;
	MPI_Offset bytes;
	int err;
};

static bool visit_measure(void *ctx, const struct shl_datatype *basic, char *addr, size_t n)
{
	struct measure *m = ctx;
	MPI_Aint x;

	if ((m->err = basic_extent(m->rep, basic, &x)) != MPI_SUCCESS)
		return false;
	m->bytes += (MPI_Offset)x * (MPI_Offset)n;
	return true;
}

int shl_file_rep_size(const struct shl_datarep *rep, struct shl_datatype *type, MPI_Count count,
		      MPI_Offset *bytes)
{
	if (shl_file_rep_native(rep)) {
		*bytes = (MPI_Offset)type->size * count;
		return MPI_SUCCESS;
	}
	if (rep->kind == REP_EXTERNAL32) {
		*bytes = (MPI_Offset)shl_dt_x32_size(type, 1) * count;
		return MPI_SUCCESS;
	}
	struct measure m = { .rep = rep };
	if (count > 0 && type->size > 0)
		shl_dt_walk(type, NULL, 1, visit_measure, &m);
	*bytes = m.bytes * count;
	return m.err;
}

/* ---- a type's layout in the file (file.h, design item 5) ----
 * The type rebuilt from its contents with each predefined type replaced by as many bytes as
 * it takes in the file: counts and strides in elements scale with the new element, byte
 * displacements (hvector, hindexed, struct, resized) stay as the program gave them. */

/* Reads a constructor's recorded arguments in binding order: counts and byte quantities
 * are large counts when a _c constructor made the type, else integers and addresses. */
struct args {
	const struct shl_dt_contents *c;
	bool large;
	size_t i, a, l;
};

static MPI_Count arg_count(struct args *g)
{
	return g->large ? g->c->large[g->l++] : g->c->ints[g->i++];
}

static MPI_Count arg_addr(struct args *g)
{
	return g->large ? g->c->large[g->l++] : g->c->aints[g->a++];
}

static int arg_int(struct args *g)
{
	return g->c->ints[g->i++];
}

/* `n` counts (addresses when `addr`) into a new array, or NULL. */
static MPI_Count *arg_counts(struct args *g, size_t n, bool addr)
{
	MPI_Count *v = malloc((n ? n : 1) * sizeof(*v));

	for (size_t k = 0; v != NULL && k < n; k++)
		v[k] = addr ? arg_addr(g) : arg_count(g);
	return v;
}

static int *arg_ints(struct args *g, size_t n)
{
	int *v = malloc((n ? n : 1) * sizeof(*v));

	for (size_t k = 0; v != NULL && k < n; k++)
		v[k] = arg_int(g);
	return v;
}

static int rebuild(const struct shl_datarep *rep, struct shl_datatype *t, MPI_Datatype *out);

/* The committed type of file layout of `t` in `rep` as a user handle (freed with
 * PMPI_Type_free), or an error class. */
static int rebuild(const struct shl_datarep *rep, struct shl_datatype *t, MPI_Datatype *out)
{
	const struct shl_dt_contents *c = &t->contents;
	struct args g = { .c = c, .large = c->nlarge > 0 };
	MPI_Datatype kids[c->ntypes ? c->ntypes : 1];
	MPI_Count *v1 = NULL, *v2 = NULL, *v3 = NULL, n;
	int *i1 = NULL, *i2 = NULL, *i3 = NULL;
	int err = MPI_SUCCESS;

	if (t->predefined) {
		MPI_Aint x;
		if ((err = basic_extent(rep, t, &x)) != MPI_SUCCESS)
			return err;
		if ((err = PMPI_Type_contiguous_c(x, MPI_BYTE, out)) == MPI_SUCCESS &&
		    (err = PMPI_Type_commit(out)) != MPI_SUCCESS)
			PMPI_Type_free(out);
		return err;
	}
	size_t built = 0;
	for (; built < c->ntypes && err == MPI_SUCCESS; built++)
		err = rebuild(rep, c->types[built], &kids[built]);
	if (err != MPI_SUCCESS) {
		built--;
		goto out;
	}
	switch (c->combiner) {
	case MPI_COMBINER_DUP:
		err = PMPI_Type_dup(kids[0], out);
		break;
	case MPI_COMBINER_CONTIGUOUS:
		n = arg_count(&g);
		err = PMPI_Type_contiguous_c(n, kids[0], out);
		break;
	case MPI_COMBINER_VECTOR:
	case MPI_COMBINER_HVECTOR: {
		MPI_Count count = arg_count(&g), blen = arg_count(&g);
		if (c->combiner == MPI_COMBINER_VECTOR)
			err = PMPI_Type_vector_c(count, blen, arg_count(&g), kids[0], out);
		else
			err = PMPI_Type_create_hvector_c(count, blen, arg_addr(&g), kids[0], out);
		break;
	}
	case MPI_COMBINER_INDEXED:
	case MPI_COMBINER_HINDEXED:
		n = arg_count(&g);
		v1 = arg_counts(&g, (size_t)n, false);
		v2 = arg_counts(&g, (size_t)n, c->combiner == MPI_COMBINER_HINDEXED);
		if (v1 == NULL || v2 == NULL)
			err = MPI_ERR_NO_MEM;
		else if (c->combiner == MPI_COMBINER_INDEXED)
			err = PMPI_Type_indexed_c(n, v1, v2, kids[0], out);
		else
			err = PMPI_Type_create_hindexed_c(n, v1, v2, kids[0], out);
		break;
	case MPI_COMBINER_INDEXED_BLOCK:
	case MPI_COMBINER_HINDEXED_BLOCK: {
		n = arg_count(&g);
		MPI_Count blen = arg_count(&g);
		v2 = arg_counts(&g, (size_t)n, c->combiner == MPI_COMBINER_HINDEXED_BLOCK);
		if (v2 == NULL)
			err = MPI_ERR_NO_MEM;
		else if (c->combiner == MPI_COMBINER_INDEXED_BLOCK)
			err = PMPI_Type_create_indexed_block_c(n, blen, v2, kids[0], out);
		else
			err = PMPI_Type_create_hindexed_block_c(n, blen, v2, kids[0], out);
		break;
	}
	case MPI_COMBINER_STRUCT:
		n = arg_count(&g);
		v1 = arg_counts(&g, (size_t)n, false);
		v2 = arg_counts(&g, (size_t)n, true);
		err = v1 && v2 ? PMPI_Type_create_struct_c(n, v1, v2, kids, out) : MPI_ERR_NO_MEM;
		break;
	case MPI_COMBINER_SUBARRAY: {
		int ndims = arg_int(&g);
		v1 = arg_counts(&g, (size_t)ndims, false);
		v2 = arg_counts(&g, (size_t)ndims, false);
		v3 = arg_counts(&g, (size_t)ndims, false);
		int order = arg_int(&g);
		err = v1 && v2 && v3 ? PMPI_Type_create_subarray_c(ndims, v1, v2, v3, order,
								   kids[0], out)
				     : MPI_ERR_NO_MEM;
		break;
	}
	case MPI_COMBINER_DARRAY: {
		int size = arg_int(&g), rank = arg_int(&g), ndims = arg_int(&g);
		v1 = arg_counts(&g, (size_t)ndims, false);
		i1 = arg_ints(&g, (size_t)ndims);
		i2 = arg_ints(&g, (size_t)ndims);
		i3 = arg_ints(&g, (size_t)ndims);
		int order = arg_int(&g);
		err = v1 && i1 && i2 && i3
			      ? PMPI_Type_create_darray_c(size, rank, ndims, v1, i1, i2, i3, order,
							  kids[0], out)
			      : MPI_ERR_NO_MEM;
		break;
	}
	case MPI_COMBINER_RESIZED: {
		MPI_Count lb = arg_addr(&g), extent = arg_addr(&g);
		err = PMPI_Type_create_resized_c(kids[0], lb, extent, out);
		break;
	}
	default:
		err = MPI_ERR_UNSUPPORTED_OPERATION;
		break;
	}
	if (err == MPI_SUCCESS)
		err = PMPI_Type_commit(out);
out:
	while (built-- > 0)
		PMPI_Type_free(&kids[built]);
	free(v1);
	free(v2);
	free(v3);
	free(i1);
	free(i2);
	free(i3);
	return err;
}

int shl_file_rep_layout(const struct shl_datarep *rep, struct shl_datatype *type,
			struct shl_datatype **layout)
{
	MPI_Datatype t;
	int err;

	if (shl_file_rep_native(rep)) {
		shl_dt_hold(type);
		*layout = type;
		return MPI_SUCCESS;
	}
	if ((err = rebuild(rep, type, &t)) != MPI_SUCCESS)
		return err;
	/* The caller's reference outlives the handle. */
	*layout = t;
	shl_dt_hold(t);
	PMPI_Type_free(&t);
	return MPI_SUCCESS;
}

int shl_file_rep_extent(const struct shl_datarep *rep, struct shl_datatype *type,
			MPI_Aint *extent)
{
	struct shl_datatype *layout;
	int err;

	if (shl_file_rep_native(rep)) {
		*extent = type->extent;
		return MPI_SUCCESS;
	}
	if (type->predefined)
		return basic_extent(rep, type, extent);
	if ((err = shl_file_rep_layout(rep, type, &layout)) != MPI_SUCCESS)
		return err;
	*extent = layout->extent;
	shl_dt_release(layout);
	return MPI_SUCCESS;
}

/* ---- conversion ---- */

/* A registered representation's conversion of `count` elements of `type` at `buf`, the
 * first of them element `position` of the access: the user's function gets the memory
 * type, a count of its elements and that position (MPI 4.1, 14.5.3 leaves the unit to the
 * implementation's split of an access; Shoal calls once per access, in chunks of INT_MAX
 * elements for the int binding). */
static int convert_user(const struct shl_datarep *rep, bool to_file, void *buf, MPI_Count count,
			struct shl_datatype *type, void *stream, MPI_Offset position)
{
	MPI_Datarep_conversion_function *fn = to_file ? rep->write : rep->read;
	MPI_Datarep_conversion_function_c *fn_c = to_file ? rep->write_c : rep->read_c;
	MPI_Datatype t = type;

	if (fn == NULL && fn_c == NULL) {
		/* MPI_CONVERSION_FN_NULL: the data is in the file as in memory, packed. */
		size_t bytes = type->size * (size_t)count;
		if (to_file)
			shl_dt_copy(stream, NULL, buf, type, bytes);
		else
			shl_dt_copy(buf, type, stream, NULL, bytes);
		return MPI_SUCCESS;
	}
	if (fn_c != NULL)
		return fn_c(buf, t, count, stream, position, rep->extra_state) == MPI_SUCCESS
			       ? MPI_SUCCESS : MPI_ERR_CONVERSION;
	/* The int binding takes at most INT_MAX elements a call. */
	MPI_Aint ext = type->extent;
	MPI_Offset fbytes = 0;
	if (shl_file_rep_size(rep, type, 1, &fbytes) != MPI_SUCCESS)
		return MPI_ERR_CONVERSION;
	for (MPI_Count done = 0; done < count;) {
		int k = count - done > INT_MAX ? INT_MAX : (int)(count - done);
		if (fn((char *)buf + done * ext, t, k, (char *)stream + done * fbytes,
		       position + done, rep->extra_state) != MPI_SUCCESS)
			return MPI_ERR_CONVERSION;
		done += k;
	}
	return MPI_SUCCESS;
}

int shl_file_rep_convert(const struct shl_datarep *rep, bool to_file, void *buf, MPI_Count count,
			 struct shl_datatype *type, void *stream, MPI_Offset position)
{
	if (count <= 0 || type->size == 0)
		return MPI_SUCCESS;
	if (shl_file_rep_native(rep)) {
		size_t bytes = type->size * (size_t)count;
		if (to_file)
			shl_dt_copy(stream, NULL, buf, type, bytes);
		else
			shl_dt_copy(buf, type, stream, NULL, bytes);
		return MPI_SUCCESS;
	}
	if (rep->kind == REP_EXTERNAL32)
		return shl_dt_x32_convert(type, buf, (size_t)count, stream, to_file, NULL)
			       ? MPI_SUCCESS : MPI_ERR_CONVERSION;
	return convert_user(rep, to_file, buf, count, type, stream, position);
}
