/* File views (MPI 4.1, 14.3): MPI_File_set_view and MPI_File_get_view, the flattened
 * filetype (the runs of one tile in the file and their prefix sums), and the map from a
 * view's data stream to file bytes that every access goes through (shl_file_view_pieces,
 * shl_file_view_byte).
 * Entered by rank threads (the MPI calls, collective over the file's communicator) and, for
 * the map, by any thread that accesses a file (rank threads, I/O workers, collective I/O
 * threads): the map only reads a view, never allocates and never writes. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/file/file.h"

void shl_file_view_default(struct shl_file_view *v)
{
	*v = (struct shl_file_view){
		.disp = 0, .etype = MPI_BYTE, .filetype = MPI_BYTE, .rep = NULL, .esize = 1,
		.tile_bytes = 1, .tile_extent = 1, .nruns = 0, .runs = NULL, .before = NULL,
		.dense = true,
	};
}

void shl_file_view_clear(struct shl_file_view *v)
{
	shl_dt_release(v->etype);
	shl_dt_release(v->filetype);
	free(v->runs);
	free(v->before);
	shl_file_view_default(v);
}

/* ---- the map ---- */

/* The run of one tile that holds data byte `rem` (< tile_bytes) of the tile: the last run
 * whose data starts at or before it. O(log runs). */
static size_t run_of(const struct shl_file_view *v, size_t rem)
{
	size_t lo = 0, hi = v->nruns;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (v->before[mid] <= rem)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

bool shl_file_view_pieces(const struct shl_file_view *v, MPI_Offset pos, MPI_Offset len,
			  shl_file_piece_fn fn, void *ctx)
{
	MPI_Offset base, cur = 0, tile;
	size_t i, in, rem, have = 0;

	if (len <= 0)
		return true;
	if (v->dense)
		return fn(ctx, v->disp + pos, (size_t)len);
	if (v->tile_bytes == 0)
		return true;   /* a view without data maps no byte (set_view refuses none) */
	tile = pos / (MPI_Offset)v->tile_bytes;
	rem = (size_t)(pos % (MPI_Offset)v->tile_bytes);
	i = run_of(v, rem);
	in = rem - v->before[i];
	base = v->disp + tile * v->tile_extent;
	while (len > 0) {
		MPI_Offset off = base + v->runs[i].off + (MPI_Offset)in;
		size_t n = v->runs[i].len - in;

		if ((MPI_Offset)n > len)
			n = (size_t)len;
		if (have > 0 && cur + (MPI_Offset)have == off) {
			have += n;
		} else {
			if (have > 0 && !fn(ctx, cur, have))
				return false;
			cur = off;
			have = n;
		}
		len -= (MPI_Offset)n;
		in = 0;
		if (++i == v->nruns) {
			i = 0;
			base += v->tile_extent;
		}
	}
	return fn(ctx, cur, have);
}

MPI_Offset shl_file_view_byte(const struct shl_file_view *v, MPI_Offset pos)
{
	MPI_Offset tile;
	size_t i, rem;

	if (v->dense)
		return v->disp + pos;
	if (v->tile_bytes == 0)
		return v->disp;
	tile = pos / (MPI_Offset)v->tile_bytes;
	rem = (size_t)(pos % (MPI_Offset)v->tile_bytes);
	i = run_of(v, rem);
	return v->disp + tile * v->tile_extent + v->runs[i].off + (MPI_Offset)(rem - v->before[i]);
}

MPI_Offset shl_file_view_stream(const struct shl_file_view *v, MPI_Offset byte)
{
	MPI_Offset lo = 0, hi;

	if (byte <= v->disp || v->tile_bytes == 0)
		return 0;
	if (v->dense)
		return byte - v->disp;
	/* Tile (byte - disp) / tile_extent + 1 starts at or after `byte`: its first data byte
	 * bounds the search. The smallest stream position whose byte is at or after `byte`
	 * counts the data bytes before it. */
	hi = ((byte - v->disp) / v->tile_extent + 1) * (MPI_Offset)v->tile_bytes;
	while (lo < hi) {
		MPI_Offset mid = lo + (hi - lo) / 2;
		if (shl_file_view_byte(v, mid) >= byte)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* ---- flattening ---- */

/* Fill v->runs, v->before, v->nruns, v->tile_bytes, v->tile_extent and v->dense from `t`,
 * the filetype as laid out in the file: one tile's runs in typemap order (the loop form
 * expanded), runs that continue each other merged. MPI 4.1, 14.3 asks for non-negative,
 * non-decreasing displacements; a file open for writing must not see a byte twice
 * (`writable`). Returns 0, -ENOMEM, or -EINVAL with *why set. */
static int flatten(struct shl_file_view *v, const struct shl_datatype *t, bool writable,
		   const char **why)
{
	size_t total = t->nruns, idx[SHL_DT_LOOPS] = { 0 }, n = 0, sum = 0;
	ptrdiff_t org = 0;
	int k;

	v->tile_bytes = t->size;
	v->tile_extent = t->extent;
	v->nruns = 0;
	v->runs = NULL;
	v->before = NULL;
	v->dense = false;
	if (t->size == 0)
		return 0;
	if (t->extent <= 0) {
		*why = "holds data but its extent is not positive, so its tiles do not advance";
		return -EINVAL;
	}
	for (k = 0; k < t->nloops; k++)
		if (__builtin_mul_overflow(total, t->loops[k].count, &total))
			return -ENOMEM;
	if (total > SIZE_MAX / sizeof(*v->runs) - 1)
		return -ENOMEM;
	v->runs = malloc(total * sizeof(*v->runs));
	v->before = malloc((total + 1) * sizeof(*v->before));
	if (v->runs == NULL || v->before == NULL)
		return -ENOMEM;
	for (;;) {
		for (size_t r = 0; r < t->nruns; r++) {
			ptrdiff_t off = org + t->runs[r].off;
			size_t len = t->runs[r].len;
			struct shl_block *last = n > 0 ? &v->runs[n - 1] : NULL;

			if (len == 0)
				continue;
			if (off < 0) {
				*why = "has a negative displacement (MPI 4.1, 14.3)";
				return -EINVAL;
			}
			if (last != NULL && last->off + (ptrdiff_t)last->len == off) {
				last->len += len;
				sum += len;
				continue;
			}
			if (last != NULL && off < last->off) {
				*why = "has displacements that decrease (MPI 4.1, 14.3 asks for "
				       "monotonically non-decreasing ones)";
				return -EINVAL;
			}
			if (last != NULL && writable && off < last->off + (ptrdiff_t)last->len) {
				*why = "covers some bytes twice, which a file open for writing does "
				       "not allow (MPI 4.1, 14.3)";
				return -EINVAL;
			}
			v->before[n] = sum;
			v->runs[n++] = (struct shl_block){ off, len };
			sum += len;
		}
		for (k = t->nloops - 1; k >= 0; k--) {
			if (++idx[k] < t->loops[k].count) {
				org += t->loops[k].stride;
				break;
			}
			org -= (ptrdiff_t)(t->loops[k].count - 1) * t->loops[k].stride;
			idx[k] = 0;
		}
		if (k < 0)
			break;
	}
	v->before[n] = sum;
	v->nruns = n;
	v->dense = n == 1 && v->runs[0].off == 0 && (MPI_Offset)v->runs[0].len == t->extent;
	return 0;
}

/* ---- MPI_File_set_view ---- */

/* The shared file pointer's hooks (file.h) for a build whose shared.c does not define them:
 * a file without a shared pointer of its own keeps nothing to reset, and is at its
 * start. shared.c's definitions replace these. */
__attribute__((weak)) int shl_file_shared_reset(struct shl_file *f)
{
	(void)f;
	return MPI_SUCCESS;
}

__attribute__((weak)) MPI_Offset shl_file_shared_position(struct shl_file *f)
{
	(void)f;
	return 0;
}

/* FNV-1a of a representation's name: the members compare names through one allreduce. */
static long long name_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return (long long)(h & 0x7fffffff);
}

/* Why `t` (argument `what`) cannot be part of a view, or NULL. */
static const char *type_unusable(MPI_Datatype t)
{
	if (!shl_type_ok(t))
		return "is not a valid datatype";
	return shl_dt_unusable(t);
}

/* The arguments of MPI_File_set_view that this rank checks alone, and the view they make.
 * Returns MPI_SUCCESS or the class, with the reason in `why`. */
static int make_view(struct shl_file *f, MPI_Offset disp, MPI_Datatype etype,
		     MPI_Datatype filetype, const char *datarep, MPI_Info info,
		     struct shl_file_view *nv, char *why, size_t whylen)
{
	const struct shl_datarep *rep = NULL;
	struct shl_datatype *layout_e = NULL, *layout_f = NULL;
	const char *bad;
	int err, rc;

	if (disp == MPI_DISPLACEMENT_CURRENT) {
		if (!(f->amode & MPI_MODE_SEQUENTIAL)) {
			snprintf(why, whylen, "disp is MPI_DISPLACEMENT_CURRENT but the file was "
				 "not opened with MPI_MODE_SEQUENTIAL");
			return MPI_ERR_ARG;
		}
		disp = shl_file_view_byte(&f->view,
					  shl_file_shared_position(f) * (MPI_Offset)f->view.esize);
	} else if (disp < 0) {
		snprintf(why, whylen, "disp is %lld: a displacement is at least 0", (long long)disp);
		return MPI_ERR_ARG;
	}
	if ((bad = type_unusable(etype)) != NULL) {
		snprintf(why, whylen, "etype %s", bad);
		return MPI_ERR_TYPE;
	}
	if ((bad = type_unusable(filetype)) != NULL) {
		snprintf(why, whylen, "filetype %s", bad);
		return MPI_ERR_TYPE;
	}
	if (datarep == NULL) {
		snprintf(why, whylen, "datarep is NULL");
		return MPI_ERR_ARG;
	}
	if (info != MPI_INFO_NULL && shl_info_get(shl_self, info) == NULL) {
		snprintf(why, whylen, "info is not a valid info object");
		return MPI_ERR_INFO;
	}
	if (shl_file_rep_find(datarep, &rep) != MPI_SUCCESS) {
		snprintf(why, whylen, "datarep \"%.64s\" is no data representation: \"native\", "
			 "\"internal\", \"external32\" or one registered with "
			 "MPI_Register_datarep", datarep);
		return MPI_ERR_UNSUPPORTED_DATAREP;
	}
	err = MPI_SUCCESS;
	if (shl_file_rep_native(rep)) {
		layout_e = etype;
		layout_f = filetype;
		shl_dt_hold(layout_e);
		shl_dt_hold(layout_f);
	} else if ((err = shl_file_rep_layout(rep, etype, &layout_e)) != MPI_SUCCESS ||
		   (err = shl_file_rep_layout(rep, filetype, &layout_f)) != MPI_SUCCESS) {
		snprintf(why, whylen, "etype or filetype has no layout in the %s representation",
			 datarep);
		goto out;
	}
	if (layout_e->size == 0) {
		snprintf(why, whylen, "etype holds no data");
		err = MPI_ERR_TYPE;
		goto out;
	}
	if (layout_f->size % layout_e->size != 0) {
		snprintf(why, whylen, "filetype (%zu bytes of data in the file) is not made of "
			 "whole etypes (%zu bytes each)", layout_f->size, layout_e->size);
		err = MPI_ERR_ARG;   /* ROMIO's and OMPIO's class too */
		goto out;
	}
	if (layout_e->true_lb < 0) {
		snprintf(why, whylen, "etype has a negative displacement (MPI 4.1, 14.3)");
		err = MPI_ERR_TYPE;
		goto out;
	}
	rc = flatten(nv, layout_f, (f->amode & (MPI_MODE_WRONLY | MPI_MODE_RDWR)) != 0, &bad);
	if (rc != 0) {
		if (rc == -ENOMEM)
			snprintf(why, whylen, "no memory for the runs of filetype");
		else
			snprintf(why, whylen, "filetype %s", bad);
		err = rc == -ENOMEM ? MPI_ERR_NO_MEM : MPI_ERR_TYPE;
		goto out;
	}
	nv->disp = disp;
	nv->esize = layout_e->size;
	nv->rep = rep;
	nv->etype = etype;
	nv->filetype = filetype;
	shl_dt_hold(etype);
	shl_dt_hold(filetype);
out:
	shl_dt_release(layout_e);
	shl_dt_release(layout_f);
	return err;
}

int PMPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
		       const char *datarep, MPI_Info info)
{
	static const char fn[] = "MPI_File_set_view";
	struct shl_file_view nv;
	struct shl_file *f;
	char why[256] = "";
	long long mine[6], all[6];
	int err;

	shl_rank_or_die(fn);
	if ((err = shl_file_check(fn, fh, &f)) != MPI_SUCCESS)
		return err;
	shl_file_view_default(&nv);
	if (atomic_load_explicit(&f->pending, memory_order_acquire) > 0 || f->split) {
		snprintf(why, sizeof(why), "nonblocking or split collective accesses of the file "
			 "are pending (MPI 4.1, 14.3)");
		err = MPI_ERR_OTHER;
	} else {
		err = make_view(f, disp, etype, filetype, datarep, info, &nv, why, sizeof(why));
	}
	/* Collective: every member learns whether some member failed, and the members must
	 * name one representation and etypes of one extent in it (MPI 4.1, 14.3). */
	mine[0] = err;
	mine[1] = err == MPI_SUCCESS ? (long long)nv.esize : 0;
	mine[2] = -mine[1];
	mine[3] = err == MPI_SUCCESS ? name_hash(datarep) : 0;
	mine[4] = -mine[3];
	mine[5] = err == MPI_SUCCESS && !nv.dense;
	int rc = PMPI_Allreduce(mine, all, 6, MPI_LONG_LONG, MPI_MAX, f->comm);
	if (rc != MPI_SUCCESS) {
		shl_file_view_clear(&nv);
		return shl_file_err(f, rc, fn, "the members could not agree on the view");
	}
	if (err != MPI_SUCCESS) {
		shl_file_view_clear(&nv);
		return shl_file_err(f, err, fn, "%s", why);
	}
	if (all[0] != MPI_SUCCESS) {
		shl_file_view_clear(&nv);
		return shl_file_err(f, (int)all[0], fn, "another member of the file's group gave "
				    "arguments it refused");
	}
	if (all[1] != -all[2] || all[3] != -all[4]) {
		shl_file_view_clear(&nv);
		return shl_file_err(f, all[3] != -all[4] ? MPI_ERR_UNSUPPORTED_DATAREP : MPI_ERR_ARG,
				    fn, "the members name %s (MPI 4.1, 14.3: datarep and the "
				    "etype's extent in it must be the same on every member)",
				    all[3] != -all[4] ? "different data representations"
						      : "etypes of different sizes");
	}
	nv.holes_somewhere = all[5] != 0;
	shl_file_view_clear(&f->view);
	f->view = nv;
	f->fp = 0;
	err = shl_file_shared_reset(f);
	if (err != MPI_SUCCESS)
		return shl_file_err(f, err, fn, "the shared file pointer could not be reset");
	/* Hints given here act as MPI_File_set_info's (MPI 4.1, 14.3). */
	return PMPI_File_set_info(fh, info);
}
SHL_WEAK_ALIAS(File_set_view);

/* ---- MPI_File_get_view ---- */

/* A new handle on `t` the caller frees, for a derived type (MPI 4.1, 14.3). */
static MPI_Datatype handle_out(struct shl_datatype *t)
{
	if (!t->predefined) {
		shl_dt_hold(t);
		atomic_fetch_add_explicit(&t->handles, 1, memory_order_relaxed);
	}
	return t;
}

int PMPI_File_get_view(MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype,
		       MPI_Datatype *filetype, char *datarep)
{
	static const char fn[] = "MPI_File_get_view";
	struct shl_file *f;
	int err;

	shl_rank_or_die(fn);
	if ((err = shl_file_check(fn, fh, &f)) != MPI_SUCCESS)
		return err;
	if (disp == NULL || etype == NULL || filetype == NULL || datarep == NULL)
		return shl_file_err(f, MPI_ERR_ARG, fn, "%s is NULL",
				    disp == NULL ? "disp" : etype == NULL ? "etype"
						   : filetype == NULL ? "filetype" : "datarep");
	*disp = f->view.disp;
	*etype = handle_out(f->view.etype);
	*filetype = handle_out(f->view.filetype);
	snprintf(datarep, MPI_MAX_DATAREP_STRING, "%s", shl_file_rep_name(f->view.rep));
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(File_get_view);
