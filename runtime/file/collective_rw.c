/* Two-phase collective I/O (MPI 4.1, 14.4): the engine under every _all, split and
 * nonblocking collective access. Entered by a rank's thread, or by its collective I/O thread
 * (collective.c), collectively over the file's communicators.
 *
 * Ranks of a node share one address space, so a member publishes a descriptor of its access
 * (buffer, memory type, count, view, start position, the file bytes it spans) by pointer on
 * f->node, and the node's aggregators read and write the members' buffers directly: each
 * aggregator owns a contiguous file domain of the collective's range [min, max), walks, per
 * window of cb_buffer_size bytes, every member's view pieces in the window, and moves them
 * with vectored system calls that point straight into the members' buffers (pieces of at
 * least SHL_FILE_COLL_DIRECT_MIN bytes of contiguous memory) or into the aggregator's
 * collective buffer (smaller pieces and non-contiguous memory, copied there by the datatype
 * layer). A write window with holes is read, filled and written back whole. The closing
 * agreement (an allreduce of the members' errno values on the file's communicator)
 * releases the members' buffers and reports an aggregator's failure on every member.
 *
 * Across nodes every node has its aggregators and the domains are shared out among all of
 * them. A member reaches its own node's aggregators through its descriptor, as above; for
 * each domain of another node it packs, straight from its buffer, the list of its pieces
 * there (offset, length) and, for a write, their data, and the members exchange these over
 * f->comm (PMPI_Alltoallv_c). An aggregator then writes its domain from its node's members
 * and what arrived; for a read it fills the replies, which go back the same way and each
 * member unpacks into its buffer.
 *
 * A member of a non-native representation converts its data into a contiguous buffer of the
 * file's representation first (writes) or from it afterwards (reads) and publishes that
 * buffer. Independent access through the engine (shl_file_rw) replaces two-phase I/O when
 * the hints disable it and when every member's access is one contiguous range of at least
 * SHL_FILE_COLL_INDEP_MIN bytes (automatic). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "runtime/file/collective.h"

/* A piece of contiguous memory at least this long is written or read by the system call
 * straight from or into its buffer; shorter ones are copied through the collective buffer,
 * where neighbours merge into one iovec entry. Above a page the kernel's copy of one entry
 * costs less than a copy of ours plus its own. */
#define SHL_FILE_COLL_DIRECT_MIN 4096

/* Automatic mode: members whose accesses are each one contiguous file range at least this
 * long access the file independently; the large pieces gain nothing from aggregation. */
#define SHL_FILE_COLL_INDEP_MIN (4 << 20)

/* cb_buffer_size when the hints leave it 0. */
#define SHL_FILE_COLL_BUFFER (16 << 20)

/* The agreement's value for a failed conversion to or from the file's representation:
 * above every errno value. */
#define SHL_FILE_COLL_ECONV 100000

/* Domains start at multiples of this: whole pages for the page cache and the disk. */
#define SHL_FILE_COLL_ALIGN 4096

/* One member's access, published by pointer on f->node for the call's duration. */
struct member {
	char *buf;
	struct shl_datatype *type;      /* NULL: `bytes` dense bytes at buf */
	const struct shl_file_view *v;
	MPI_Offset start, bytes;        /* the stream range [start, start + bytes) */
	MPI_Offset lo, hi;              /* the file bytes it touches; lo == hi: none */
	_Atomic MPI_Offset done;        /* reads: stream bytes this node's aggregators moved */
};

/* One piece of a member's access in another node's domain, as exchanged. */
struct piece {
	MPI_Offset off, len;
};

/* What one member sent an aggregator of another node: its pieces in the aggregator's domain
 * (file order), and the data (writes) or the room for it (reads), consumed window by
 * window. */
struct remote {
	const struct piece *pc;
	size_t n, i;
	MPI_Offset used;        /* bytes of pc[i] in earlier windows */
	char *data;             /* the next piece's bytes */
	MPI_Offset valid;       /* reads: bytes below the end of file */
};

/* One aggregation: the node's members, what other nodes' members sent, the direction. */
struct agg {
	struct shl_file *f;
	struct shl_file_coll *st;
	struct member **ms;
	int nm;
	struct remote *rs;
	int nr;
	enum shl_file_dir dir;
};

/* The first stream position of `m` whose file byte is at or past `x` (the end of the
 * access if none): file bytes grow with stream positions, so a binary search. */
static MPI_Offset stream_at(const struct member *m, MPI_Offset x)
{
	MPI_Offset lo = m->start, hi = m->start + m->bytes;

	if (x <= m->lo)
		return lo;
	if (x >= m->hi)
		return hi;
	while (lo < hi) {
		MPI_Offset mid = lo + (hi - lo) / 2;
		if (shl_file_view_byte(m->v, mid) >= x)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

static bool ensure_cbuf(struct shl_file_coll *st, size_t w)
{
	char *p;

	if (st->cbuf_size >= w)
		return true;
	p = malloc(w);
	if (p == NULL)
		return false;
	free(st->cbuf);
	st->cbuf = p;
	st->cbuf_size = w;
	return true;
}

static struct shl_file_coll_ent *new_ent(struct shl_file_coll *st, size_t n)
{
	if (n == st->ents_cap) {
		size_t cap = st->ents_cap ? 2 * st->ents_cap : 1024;
		struct shl_file_coll_ent *e = realloc(st->ents, cap * sizeof(*e));
		if (e == NULL)
			return NULL;
		st->ents = e;
		st->ents_cap = cap;
	}
	return &st->ents[n];
}

/* What the piece walk of one member in one window carries. */
struct walk {
	struct shl_file_coll *st;
	struct member *m;
	int mi;
	MPI_Offset p;          /* stream position of the next piece */
	size_t n;              /* entries so far in st->ents */
	bool sorted;           /* entries in file order so far */
	bool nomem;
};

static bool collect(void *ctx, MPI_Offset off, size_t len)
{
	struct walk *w = ctx;
	struct member *m = w->m;
	struct shl_file_coll_ent *e = new_ent(w->st, w->n);

	if (e == NULL) {
		w->nomem = true;
		return false;
	}
	if (w->n > 0 && e[-1].off > off)
		w->sorted = false;
	*e = (struct shl_file_coll_ent){ .off = off, .p = w->p, .len = len, .m = w->mi };
	if (m->type == NULL)
		e->ptr = m->buf + (w->p - m->start);
	w->n++;
	w->p += (MPI_Offset)len;
	return true;
}

static int by_offset(const void *a, const void *b)
{
	const struct shl_file_coll_ent *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->m - y->m;
}

static bool add_iov(struct shl_file_coll *st, size_t *n, char *base, size_t len)
{
	if (*n > 0) {
		struct iovec *last = &st->iov[*n - 1];
		if ((char *)last->iov_base + last->iov_len == base) {
			last->iov_len += len;
			return true;
		}
	}
	if (*n == st->iov_cap) {
		size_t cap = st->iov_cap ? 2 * st->iov_cap : 1024;
		struct iovec *v = realloc(st->iov, cap * sizeof(*v));
		if (v == NULL)
			return false;
		st->iov = v;
		st->iov_cap = cap;
	}
	st->iov[(*n)++] = (struct iovec){ .iov_base = base, .iov_len = len };
	return true;
}

/* Move the bytes of iov[0..n) from or to the file at `off`, in batches of IOV_MAX entries,
 * resuming after short transfers. Returns the bytes moved (reads stop at the end of file)
 * or -errno; a write that moves nothing is -ENOSPC. */
static MPI_Offset move_iov(int fd, enum shl_file_dir dir, struct iovec *iov, size_t n,
			   MPI_Offset off)
{
	MPI_Offset total = 0;

	while (n > 0) {
		int k = n > IOV_MAX ? IOV_MAX : (int)n;
		ssize_t r = dir == SHL_FILE_WRITE ? pwritev(fd, iov, k, off) : preadv(fd, iov, k, off);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0) {
			if (dir == SHL_FILE_READ)
				return total;
			return -ENOSPC;
		}
		total += r;
		off += r;
		while (n > 0 && (size_t)r >= iov->iov_len) {
			r -= (ssize_t)iov->iov_len;
			iov++;
			n--;
		}
		if (n > 0 && r > 0) {
			iov->iov_base = (char *)iov->iov_base + r;
			iov->iov_len -= (size_t)r;
		}
	}
	return total;
}

/* Take (F_WRLCK) or drop (F_UNLCK) an OFD lock on file bytes [lo, hi). */
static int lock_range(int fd, short type, MPI_Offset lo, MPI_Offset hi)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET, .l_start = lo,
			    .l_len = hi - lo };

	while (fcntl(fd, F_OFD_SETLKW, &fl) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

/* Whether entry `e` goes through the collective buffer. */
static bool buffered(const struct shl_file_coll_ent *e)
{
	return e->ptr == NULL || e->len < SHL_FILE_COLL_DIRECT_MIN;
}

/* A read entry's bytes below the end of file `eof`, moved from the collective buffer
 * (holding file byte `w0` first) when `staged`, and counted for their member. */
static void deliver(const struct agg *a, const struct shl_file_coll_ent *e, MPI_Offset w0,
		    MPI_Offset eof, bool staged)
{
	size_t len = e->len;
	const char *src = a->st->cbuf + (e->off - w0);

	if (e->off >= eof)
		return;
	if ((MPI_Offset)len > eof - e->off)
		len = (size_t)(eof - e->off);
	if (e->m < 0) {
		if (staged)
			memcpy(e->ptr, src, len);
		a->rs[-1 - e->m].valid += (MPI_Offset)len;
		return;
	}
	struct member *m = a->ms[e->m];
	size_t from = (size_t)(e->p - m->start);
	if (staged && e->ptr != NULL)
		memcpy(e->ptr, src, len);
	else if (staged)
		shl_dt_copy_range(m->buf, m->type, (const void *)((uintptr_t)src - from), NULL, from,
				  len);
	atomic_fetch_add_explicit(&m->done, (MPI_Offset)len, memory_order_relaxed);
}

/* A write entry's bytes into the collective buffer, which holds file byte `w0` first. */
static void stage(const struct agg *a, const struct shl_file_coll_ent *e, MPI_Offset w0)
{
	char *dst = a->st->cbuf + (e->off - w0);

	if (e->ptr != NULL) {
		memcpy(dst, e->ptr, e->len);
	} else {
		struct member *m = a->ms[e->m];
		size_t from = (size_t)(e->p - m->start);
		shl_dt_copy_range((void *)((uintptr_t)dst - from), NULL, m->buf, m->type, from,
				  e->len);
	}
}

/* The entries of window [w0, w1): every member's pieces there and what other nodes' members
 * sent for it, in file order. Returns their number, or -ENOMEM. */
static ssize_t gather_window(const struct agg *a, MPI_Offset w0, MPI_Offset w1)
{
	struct walk w = { .st = a->st, .sorted = true };

	for (int i = 0; i < a->nm; i++) {
		struct member *m = a->ms[i];
		MPI_Offset lo, hi;

		if (m->bytes == 0 || m->hi <= w0 || m->lo >= w1)
			continue;
		lo = stream_at(m, w0);
		hi = stream_at(m, w1);
		if (lo >= hi)
			continue;
		w.m = m;
		w.mi = i;
		w.p = lo;
		if (!shl_file_view_pieces(m->v, lo, hi - lo, collect, &w) && w.nomem)
			return -ENOMEM;
	}
	for (int r = 0; r < a->nr; r++) {
		struct remote *rs = &a->rs[r];
		while (rs->i < rs->n) {
			const struct piece *pc = &rs->pc[rs->i];
			MPI_Offset o = pc->off + rs->used, l = pc->len - rs->used;
			struct shl_file_coll_ent *e;
			if (o >= w1)
				break;
			if (l > w1 - o)
				l = w1 - o;
			if ((e = new_ent(a->st, w.n)) == NULL)
				return -ENOMEM;
			if (w.n > 0 && e[-1].off > o)
				w.sorted = false;
			*e = (struct shl_file_coll_ent){ .off = o, .len = (size_t)l, .ptr = rs->data,
							 .m = -1 - r };
			w.n++;
			rs->data += l;
			rs->used += l;
			if (rs->used == pc->len) {
				rs->i++;
				rs->used = 0;
			}
		}
	}
	if (!w.sorted)
		qsort(a->st->ents, w.n, sizeof(*a->st->ents), by_offset);
	return (ssize_t)w.n;
}

/* One window [w0, w1) of an aggregator's domain: returns 0 or -errno. */
static int window(const struct agg *a, MPI_Offset w0, MPI_Offset w1)
{
	struct shl_file_coll *st = a->st;
	struct shl_file *f = a->f;
	ssize_t n = gather_window(a, w0, w1);
	MPI_Offset h0, h1, end, got;
	bool holes = false, overlap = false;
	size_t niov = 0;
	int err = 0;

	if (n <= 0)
		return (int)n;
	h0 = st->ents[0].off;
	end = h0;
	for (ssize_t i = 0; i < n; i++) {
		struct shl_file_coll_ent *e = &st->ents[i];
		if (e->off > end)
			holes = true;
		else if (e->off < end)
			overlap = true;
		if (e->off + (MPI_Offset)e->len > end)
			end = e->off + (MPI_Offset)e->len;
	}
	h1 = end;

	if (!overlap && !(a->dir == SHL_FILE_WRITE && holes)) {
		/* Straight: one vectored call over the hull; a read's holes land in the
		 * collective buffer, unused there. */
		MPI_Offset at = h0;
		for (ssize_t i = 0; i < n; i++) {
			struct shl_file_coll_ent *e = &st->ents[i];
			bool via = buffered(e);
			if (e->off > at && !add_iov(st, &niov, st->cbuf + (at - w0),
						    (size_t)(e->off - at)))
				return -ENOMEM;
			if (a->dir == SHL_FILE_WRITE && via)
				stage(a, e, w0);
			if (!add_iov(st, &niov, via ? st->cbuf + (e->off - w0) : e->ptr, e->len))
				return -ENOMEM;
			at = e->off + (MPI_Offset)e->len;
		}
		got = move_iov(f->fd, a->dir, st->iov, niov, h0);
		if (got < 0)
			return (int)got;
		if (a->dir == SHL_FILE_READ)
			for (ssize_t i = 0; i < n; i++)
				deliver(a, &st->ents[i], w0, h0 + got, buffered(&st->ents[i]));
		return 0;
	}

	/* Staged: the whole hull through the collective buffer. A write with holes reads
	 * the hull first (under an OFD lock in atomic mode) and writes it back whole. */
	if (a->dir == SHL_FILE_WRITE && holes && f->atomic &&
	    (err = lock_range(f->fd, F_WRLCK, h0, h1)) < 0)
		return err;
	if (a->dir == SHL_FILE_READ || holes) {
		struct iovec one = { .iov_base = st->cbuf + (h0 - w0), .iov_len = (size_t)(h1 - h0) };
		got = move_iov(f->fd, SHL_FILE_READ, &one, 1, h0);
		if (got < 0) {
			err = (int)got;
			goto out;
		}
		if (got < h1 - h0)
			memset(st->cbuf + (h0 - w0) + got, 0, (size_t)(h1 - h0 - got));
	} else {
		got = h1 - h0;
	}
	if (a->dir == SHL_FILE_READ) {
		for (ssize_t i = 0; i < n; i++)
			deliver(a, &st->ents[i], w0, h0 + got, true);
		return 0;
	}
	for (ssize_t i = 0; i < n; i++)
		stage(a, &st->ents[i], w0);
	{
		struct iovec one = { .iov_base = st->cbuf + (h0 - w0), .iov_len = (size_t)(h1 - h0) };
		got = move_iov(f->fd, SHL_FILE_WRITE, &one, 1, h0);
		if (got < 0)
			err = (int)got;
	}
out:
	if (a->dir == SHL_FILE_WRITE && holes && f->atomic)
		lock_range(f->fd, F_UNLCK, h0, h1);
	return err;
}

/* The aggregator of file domain [d0, d1): window by window. Returns 0 or -errno. */
static int aggregate(struct agg *a, MPI_Offset d0, MPI_Offset d1)
{
	size_t wsize = a->f->hints.cb_buffer_size ? a->f->hints.cb_buffer_size
						  : SHL_FILE_COLL_BUFFER;

	a->st = shl_file_coll_state(a->f);
	if (a->st == NULL || !ensure_cbuf(a->st, wsize))
		return -ENOMEM;
	for (MPI_Offset w0 = d0; w0 < d1;) {
		MPI_Offset w1 = d1 - w0 > (MPI_Offset)wsize ? w0 + (MPI_Offset)wsize : d1;
		int err = window(a, w0, w1);
		if (err < 0)
			return err;
		w0 = w1;
	}
	return 0;
}

/* Aggregators of this node: its share of the cb_nodes hint (the collective's aggregators,
 * spread over the nodes in proportion to their members), at least one, at most one per
 * member. */
static int aggregators(const struct shl_file *f)
{
	long n = f->hints.cb_nodes > 0 ? (long)f->hints.cb_nodes * f->node_size / f->size : 1;

	if (n < 1)
		n = 1;
	return n < f->node_size ? (int)n : f->node_size;
}

/* Which of a node's `nagg` aggregators node rank `nr` is, or -1: spread over the members. */
static int agg_index(int nr, int node_size, int nagg)
{
	for (int a = 0; a < nagg; a++)
		if ((int)((long)a * node_size / nagg) == nr)
			return a;
	return -1;
}

/* Domain `i` of `n` over [gmin, gmax): page-aligned inner bounds. */
static void domain(MPI_Offset gmin, MPI_Offset gmax, int i, int n, MPI_Offset *d0,
		   MPI_Offset *d1)
{
	MPI_Offset per = (gmax - gmin + n - 1) / n;
	MPI_Offset a = i == 0 ? gmin : (gmin + i * per + SHL_FILE_COLL_ALIGN - 1) /
					       SHL_FILE_COLL_ALIGN * SHL_FILE_COLL_ALIGN;
	MPI_Offset b = i == n - 1 ? gmax : (gmin + (i + 1) * per + SHL_FILE_COLL_ALIGN - 1) /
						   SHL_FILE_COLL_ALIGN * SHL_FILE_COLL_ALIGN;

	*d0 = a < gmax ? a : gmax;
	*d1 = b < gmax ? b : gmax;
}

/* Two-phase I/O among one node's members `ms`: this member's share of the aggregation
 * (none, or one domain). Returns 0 or -errno. */
static int two_phase(struct shl_file *f, struct member **ms, enum shl_file_dir dir)
{
	MPI_Offset gmin = INT64_MAX, gmax = 0, d0, d1;
	int nagg = aggregators(f), me = agg_index(f->node_rank, f->node_size, nagg);
	struct agg a = { .f = f, .ms = ms, .nm = f->node_size, .dir = dir };

	for (int i = 0; i < f->node_size; i++) {
		if (ms[i]->bytes == 0)
			continue;
		if (ms[i]->lo < gmin)
			gmin = ms[i]->lo;
		if (ms[i]->hi > gmax)
			gmax = ms[i]->hi;
	}
	if (gmin >= gmax || me < 0)
		return 0;
	domain(gmin, gmax, me, nagg, &d0, &d1);
	return d0 < d1 ? aggregate(&a, d0, d1) : 0;
}

/* ---- across nodes ---- */

/* What a member's walk over its pieces in another node's domain carries. */
struct pack {
	struct member *m;
	MPI_Offset p;          /* stream position of the next piece */
	struct piece *pc;      /* NULL: count only */
	char *data;            /* NULL: no data (a read's request) */
	size_t n;
	MPI_Offset bytes;
};

static bool pack_piece(void *ctx, MPI_Offset off, size_t len)
{
	struct pack *k = ctx;
	struct member *m = k->m;

	if (k->pc != NULL)
		k->pc[k->n] = (struct piece){ off, (MPI_Offset)len };
	if (k->data != NULL) {
		size_t from = (size_t)(k->p - m->start);
		shl_dt_copy_range((void *)((uintptr_t)k->data + (uintptr_t)k->bytes - from), NULL,
				  m->buf, m->type, from, len);
	}
	k->n++;
	k->bytes += (MPI_Offset)len;
	k->p += (MPI_Offset)len;
	return true;
}

/* A message between a member and another node's aggregator: a count of pieces, the
 * pieces, then data. */
struct msg_head {
	MPI_Offset n;       /* pieces */
	MPI_Offset valid;   /* a read's reply: data bytes below the end of file */
};

/* Two-phase I/O across nodes: `ms` this node's members, [gmin, gmax) the whole access.
 * Collective over `comm` (f->comm or a duplicate) and `node` (f->node or one). Returns 0
 * or -errno (local), or a positive MPI class when one of the exchanges failed. */
static int two_phase_net(struct shl_file *f, MPI_Comm comm, MPI_Comm node, struct member **ms,
			 struct member *me, enum shl_file_dir dir, MPI_Offset gmin, MPI_Offset gmax)
{
	int size = f->size, rc, err = 0, lead = f->rank, nagg = aggregators(f), mine[2], G = 0,
	    myagg = -1;
	int *roles = malloc((size_t)size * 2 * sizeof(int)), *agg = malloc((size_t)size * sizeof(int));
	MPI_Count *scount = calloc((size_t)size * 4, sizeof(MPI_Count)), *rcount = scount + size;
	MPI_Aint *sdisp = calloc((size_t)size * 2, sizeof(MPI_Aint)), *rdisp = sdisp + size;
	MPI_Offset *slo = calloc((size_t)size, sizeof(MPI_Offset));  /* stream start per aggregator */
	char *sbuf = NULL, *rbuf = NULL, *reply = NULL;
	MPI_Count *qcount = NULL;
	MPI_Aint *qdisp = NULL;
	struct remote *rs = NULL;
	struct agg a = { .f = f, .ms = ms, .nm = f->node_size, .dir = dir };
	MPI_Offset d0 = 0, d1 = 0, total;

	if (roles == NULL || agg == NULL || scount == NULL || sdisp == NULL || slo == NULL) {
		rc = MPI_ERR_NO_MEM;
		goto out;
	}
	/* Who aggregates, and on which node (by its leader's rank in f->comm). */
	if ((rc = PMPI_Bcast(&lead, 1, MPI_INT, 0, node)) != MPI_SUCCESS)
		goto out;
	mine[0] = agg_index(f->node_rank, f->node_size, nagg) >= 0;
	mine[1] = lead;
	if ((rc = PMPI_Allgather(mine, 2, MPI_INT, roles, 2, MPI_INT, comm)) != MPI_SUCCESS)
		goto out;
	for (int r = 0; r < size; r++)
		if (roles[2 * r]) {
			if (r == f->rank)
				myagg = G;
			agg[G++] = r;
		}
	if (myagg >= 0)
		domain(gmin, gmax, myagg, G, &d0, &d1);

	/* What this member sends each other node's aggregator: its pieces there (and their
	 * data for a write). Counted first, then packed. */
	for (int pass = 0; pass < 2; pass++) {
		total = 0;
		for (int g = 0; g < G && me->bytes > 0; g++) {
			int to = agg[g];
			MPI_Offset lo, hi, x0, x1;
			struct pack k = { .m = me };
			if (roles[2 * to + 1] == lead)
				continue;
			domain(gmin, gmax, g, G, &x0, &x1);
			lo = stream_at(me, x0);
			hi = stream_at(me, x1);
			if (lo >= hi)
				continue;
			k.p = lo;
			slo[to] = lo;
			if (pass == 1) {
				char *at = sbuf + sdisp[to];
				k.pc = (struct piece *)(at + sizeof(struct msg_head));
				k.n = 0;
			}
			if (pass == 1 && dir == SHL_FILE_WRITE)
				k.data = sbuf + sdisp[to] + sizeof(struct msg_head) +
					 (size_t)scount[2 * size + to] * sizeof(struct piece);
			shl_file_view_pieces(me->v, lo, hi - lo, pack_piece, &k);
			if (pass == 0) {
				scount[2 * size + to] = (MPI_Count)k.n;  /* pieces, kept */
				scount[3 * size + to] = k.bytes;         /* data bytes, kept */
				scount[to] = (MPI_Count)(sizeof(struct msg_head) +
							 k.n * sizeof(struct piece)) +
					     (dir == SHL_FILE_WRITE ? k.bytes : 0);
				sdisp[to] = total;
				total += scount[to];
			} else {
				((struct msg_head *)(sbuf + sdisp[to]))->n = (MPI_Offset)k.n;
			}
		}
		if (pass == 0 && (sbuf = malloc((size_t)total + 1)) == NULL)
			err = ENOMEM;
		if (err != 0)
			break;
	}
	/* A member out of memory sends nothing: its failure is agreed on at the end. */
	if (err != 0)
		for (int r = 0; r < size; r++)
			scount[r] = 0;
	if ((rc = PMPI_Alltoall_c(scount, 1, MPI_COUNT, rcount, 1, MPI_COUNT, comm)) !=
	    MPI_SUCCESS)
		goto out;
	total = 0;
	for (int r = 0; r < size; r++) {
		rdisp[r] = total;
		total += rcount[r];
	}
	if ((rbuf = malloc((size_t)total + 1)) == NULL) {
		rc = MPI_ERR_NO_MEM;
		goto out;
	}
	if ((rc = PMPI_Alltoallv_c(sbuf, scount, sdisp, MPI_BYTE, rbuf, rcount, rdisp, MPI_BYTE,
				   comm)) != MPI_SUCCESS)
		goto out;

	/* The aggregation: this node's members through their descriptors, the others through
	 * what they sent. A read's replies take the place of the requests' pieces' data. */
	if (myagg >= 0 && d0 < d1) {
		int nr = 0;
		MPI_Offset rtotal = 0;
		rs = calloc((size_t)size, sizeof(*rs));
		qcount = calloc((size_t)size * 2, sizeof(MPI_Count));
		qdisp = calloc((size_t)size, sizeof(MPI_Aint));
		if (rs == NULL || qcount == NULL || qdisp == NULL)
			err = ENOMEM;
		for (int r = 0; r < size && err == 0; r++) {
			struct msg_head *h = (struct msg_head *)(rbuf + rdisp[r]);
			MPI_Offset bytes = 0;
			if (rcount[r] == 0)
				continue;
			for (MPI_Offset i = 0; i < h->n; i++)
				bytes += ((struct piece *)(h + 1))[i].len;
			qcount[size + r] = bytes;
			if (dir == SHL_FILE_READ) {
				qdisp[r] = rtotal;
				qcount[r] = (MPI_Count)sizeof(struct msg_head) + bytes;
				rtotal += qcount[r];
			}
		}
		if (err == 0 && dir == SHL_FILE_READ && (reply = malloc((size_t)rtotal + 1)) == NULL)
			err = ENOMEM;
		for (int r = 0; r < size && err == 0; r++) {
			struct msg_head *h = (struct msg_head *)(rbuf + rdisp[r]);
			if (rcount[r] == 0)
				continue;
			rs[nr] = (struct remote){ .pc = (const struct piece *)(h + 1), .n = (size_t)h->n };
			rs[nr].data = dir == SHL_FILE_WRITE
					      ? (char *)(rs[nr].pc + h->n)
					      : reply + qdisp[r] + sizeof(struct msg_head);
			nr++;
		}
		a.rs = rs;
		a.nr = nr;
		if (err == 0)
			err = -aggregate(&a, d0, d1);
		/* The replies: each member's valid bytes, the data after them. */
		for (int r = 0, k = 0; r < size && err == 0 && dir == SHL_FILE_READ; r++) {
			if (rcount[r] == 0)
				continue;
			((struct msg_head *)(reply + qdisp[r]))->n = 0;
			((struct msg_head *)(reply + qdisp[r]))->valid = rs[k++].valid;
		}
		if (err != 0 && qcount != NULL)
			for (int r = 0; r < size; r++)
				qcount[r] = 0;
	}
	if (dir == SHL_FILE_READ) {
		/* The replies go back; each side knows their sizes (a member: the bytes it
		 * asked for). A member then unpacks each: the data of its stream range in that
		 * domain, up to the end of file. */
		MPI_Count *bcount = calloc((size_t)size * 2, sizeof(MPI_Count)), *acount;
		MPI_Aint *bdisp = calloc((size_t)size * 2, sizeof(MPI_Aint)), *adisp;
		char *back = NULL;
		MPI_Offset btotal = 0;
		if (bcount == NULL || bdisp == NULL) {
			free(bcount);
			free(bdisp);
			rc = MPI_ERR_NO_MEM;
			goto out;
		}
		acount = bcount + size;
		adisp = bdisp + size;
		for (int r = 0; r < size; r++) {
			if (qcount != NULL && qcount[r] > 0) {
				acount[r] = qcount[r];
				adisp[r] = qdisp[r];
			}
			if (scount[r] > 0) {
				bcount[r] = (MPI_Count)sizeof(struct msg_head) + scount[3 * size + r];
				bdisp[r] = btotal;
				btotal += bcount[r];
			}
		}
		if ((back = malloc((size_t)btotal + 1)) == NULL) {
			rc = MPI_ERR_NO_MEM;
			free(bcount);
			free(bdisp);
			goto out;
		}
		rc = PMPI_Alltoallv_c(reply, acount, adisp, MPI_BYTE, back, bcount, bdisp, MPI_BYTE,
				      comm);
		for (int to = 0; to < size && rc == MPI_SUCCESS; to++) {
			struct msg_head *h = (struct msg_head *)(back + bdisp[to]);
			MPI_Offset from, left;
			if (bcount[to] == 0)
				continue;
			from = slo[to] - me->start;
			left = h->valid < scount[3 * size + to] ? h->valid : scount[3 * size + to];
			shl_dt_copy_range(me->buf, me->type,
					  (const void *)((uintptr_t)(h + 1) - (uintptr_t)from), NULL,
					  (size_t)from, (size_t)left);
			atomic_fetch_add_explicit(&me->done, left, memory_order_relaxed);
		}
		free(back);
		free(bcount);
		free(bdisp);
	}
out:
	free(reply);
	free(qcount);
	free(qdisp);
	free(rs);
	free(sbuf);
	free(rbuf);
	free(roles);
	free(agg);
	free(scount);
	free(sdisp);
	free(slo);
	if (rc != MPI_SUCCESS)
		return rc;
	return -err;
}

/* ---- the call ---- */

/* Whether a collective accesses the file independently: the hints disable collective
 * buffering, or (automatic) every member's access is one large contiguous range
 * (`all_plain`, agreed among the members). */
static bool independent(const struct shl_file *f, enum shl_file_dir dir, bool all_plain)
{
	enum shl_file_cb cb = dir == SHL_FILE_READ ? f->hints.cb_read : f->hints.cb_write;

	if (cb == SHL_FILE_CB_DISABLE)
		return true;
	return cb != SHL_FILE_CB_ENABLE && all_plain;
}

/* Whether member `m`'s access leaves it out of the aggregation in automatic mode. */
static bool plain(const struct member *m)
{
	return m->bytes == 0 ||
	       (m->hi - m->lo == m->bytes && m->bytes >= SHL_FILE_COLL_INDEP_MIN);
}

int shl_file_coll_rw(struct shl_file *f, MPI_Comm comm, MPI_Comm node, enum shl_file_dir dir,
		     MPI_Offset pos, void *buf, MPI_Count count, struct shl_datatype *type,
		     MPI_Offset *moved)
{
	const struct shl_datarep *rep = f->view.rep;
	bool native = rep == NULL || shl_file_rep_native(rep);
	struct member me = {
		.buf = buf, .type = type->contig ? NULL : type, .v = &f->view, .start = pos,
		.bytes = (MPI_Offset)count * (MPI_Offset)type->size,
	};
	struct member *pme = &me, *ms[f->node_size];
	MPI_Offset gmin = INT64_MAX, gmax = 0;
	char *conv = NULL;
	bool all_plain = true, indep;
	int err = 0, all = 0, rc;

	*moved = 0;
	/* A non-native representation: the member's data as a contiguous stream in the
	 * file's representation, converted before a write and after a read. */
	if (!native && count > 0) {
		MPI_Offset sbytes = 0;
		if (shl_file_rep_size(rep, type, count, &sbytes) != MPI_SUCCESS ||
		    (conv = malloc((size_t)sbytes + 1)) == NULL)
			err = ENOMEM;
		else if (dir == SHL_FILE_WRITE &&
			 shl_file_rep_convert(rep, true, buf, count, type, conv, 0) != MPI_SUCCESS)
			err = SHL_FILE_COLL_ECONV;
		me.buf = conv;
		me.type = NULL;
		me.bytes = err == 0 ? sbytes : 0;
	}
	if (me.bytes > 0) {
		me.lo = shl_file_view_byte(&f->view, pos);
		me.hi = shl_file_view_byte(&f->view, pos + me.bytes - 1) + 1;
	}
	rc = PMPI_Allgather(&pme, sizeof(pme), MPI_BYTE, ms, sizeof(pme), MPI_BYTE, node);
	if (rc != MPI_SUCCESS)
		goto out;
	if (!f->offnode) {
		for (int i = 0; i < f->node_size; i++) {
			all_plain = all_plain && plain(ms[i]);
			if (ms[i]->bytes > 0 && ms[i]->lo < gmin)
				gmin = ms[i]->lo;
			if (ms[i]->bytes > 0 && ms[i]->hi > gmax)
				gmax = ms[i]->hi;
		}
	} else {
		long long v[3] = { me.bytes > 0 ? -me.lo : -INT64_MAX, me.bytes > 0 ? me.hi : 0,
				   !plain(&me) }, g[3];
		rc = PMPI_Allreduce(v, g, 3, MPI_LONG_LONG, MPI_MAX, comm);
		if (rc != MPI_SUCCESS)
			goto out;
		gmin = -g[0];
		gmax = g[1];
		all_plain = g[2] == 0;
	}
	indep = independent(f, dir, all_plain);
	/* A member that failed already takes part with an empty access; the agreement
	 * below reports it. */
	if (indep) {
		MPI_Offset n = count == 0 || err != 0 ? 0
						      : shl_file_rw(f, &f->view, dir, pos, buf, count, type);
		if (n < 0)
			err = (int)-n;
		else
			*moved = n;
	} else if (!f->offnode) {
		if (err == 0)
			err = -two_phase(f, ms, dir);
	} else if (gmin < gmax) {
		rc = two_phase_net(f, comm, node, ms, &me, dir, gmin, gmax);
		if (rc > 0)
			goto out;
		if (err == 0)
			err = -rc;
	}
	rc = PMPI_Allreduce(&err, &all, 1, MPI_INT, MPI_MAX, comm);
	if (rc != MPI_SUCCESS)
		goto out;
	if (all != 0) {
		rc = all == SHL_FILE_COLL_ECONV ? MPI_ERR_CONVERSION : -all;
		goto out;
	}
	if (indep)
		goto out;
	if (dir == SHL_FILE_WRITE) {
		*moved = (MPI_Offset)count * (MPI_Offset)type->size;
	} else if (conv == NULL) {
		*moved = atomic_load_explicit(&me.done, memory_order_relaxed);
	} else {
		/* The whole elements the end of file left. */
		MPI_Offset done = atomic_load_explicit(&me.done, memory_order_relaxed);
		MPI_Count whole = done == me.bytes ? count : (MPI_Count)(done * count / me.bytes);
		if (whole > 0 &&
		    shl_file_rep_convert(rep, false, buf, whole, type, conv, 0) != MPI_SUCCESS)
			rc = MPI_ERR_CONVERSION;
		else
			*moved = (MPI_Offset)whole * (MPI_Offset)type->size;
	}
out:
	free(conv);
	return rc;
}
