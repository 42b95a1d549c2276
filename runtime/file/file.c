/* Files as objects (MPI 4.1, 14.2): MPI_File_open and MPI_File_close, MPI_File_delete, the
 * size (set_size, preallocate, get_size), the group and access mode, the hints
 * (set_info/get_info and the info of open), MPI_File_sync and atomic mode; and the node's
 * list of files open for writing, which the process's last words name when it ends with
 * them open (a crash, an abort, a rank's exit).
 * Entered by rank threads (a file's calls by its owner rank's threads); the list of files
 * open for writing also by whichever thread ends the process, a crash handler among them. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/exit.h"
#include "runtime/file/file.h"

#define AMODE_ACCESS (MPI_MODE_RDONLY | MPI_MODE_WRONLY | MPI_MODE_RDWR)
#define AMODE_ALL (AMODE_ACCESS | MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_DELETE_ON_CLOSE | \
		   MPI_MODE_UNIQUE_OPEN | MPI_MODE_APPEND | MPI_MODE_SEQUENTIAL)

/* ---- the node's files open for writing ----
 * One entry per rank per file opened with MPI_MODE_WRONLY or MPI_MODE_RDWR, from the end of
 * its MPI_File_open to its MPI_File_close. When the process ends with entries left, its
 * last words (io/exit.h's report hook) name each file and the ranks that had it open: a
 * job that dies while writing a file collectively says which files may be incomplete. */
struct writer {
	struct writer *_Atomic next;
	const struct shl_file *f;
	int world_rank;
	bool said;                    /* named already (the report only) */
	char path[];                  /* absolute */
};

static struct {
	pthread_mutex_t mu;
	struct writer *_Atomic head;  /* under mu; read without it by a crash's report */
	pthread_once_t hook;
} writers = { .mu = PTHREAD_MUTEX_INITIALIZER, .hook = PTHREAD_ONCE_INIT };

/* Append decimal `v` to buf[*n..cap). */
static void put_int(char *buf, size_t *n, size_t cap, long v)
{
	char d[24];
	int k = 0;
	unsigned long u = v < 0 ? (unsigned long)-v : (unsigned long)v;

	do
		d[k++] = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0 && *n < cap)
		buf[(*n)++] = '-';
	while (k > 0 && *n < cap)
		buf[(*n)++] = d[--k];
}

static void put_str(char *buf, size_t *n, size_t cap, const char *s)
{
	while (*s != '\0' && *n < cap)
		buf[(*n)++] = *s++;
}

/* The report hook: one line per file left open for writing. Async-signal-safe (a crash
 * handler calls it): no allocation and no stdio; without `wait` the lock is only tried and
 * the list read as it stands. */
static void report_writers(bool wait)
{
	bool locked = wait ? pthread_mutex_lock(&writers.mu) == 0
			   : pthread_mutex_trylock(&writers.mu) == 0;
	struct writer *head = atomic_load_explicit(&writers.head, memory_order_acquire);

	for (struct writer *w = head; w != NULL; w = w->next)
		w->said = false;
	for (struct writer *w = head; w != NULL; w = w->next) {
		char line[PATH_MAX + 512];
		size_t n = 0, cap = sizeof(line) - 1;
		int nranks = 0;

		if (w->said)
			continue;
		for (struct writer *o = w; o != NULL; o = o->next)
			nranks += !o->said && strcmp(o->path, w->path) == 0;
		put_str(line, &n, cap, "shoal: file ");
		put_str(line, &n, cap, w->path);
		put_str(line, &n, cap, nranks > 1 ? " was open for writing by ranks "
						   : " was open for writing by rank ");
		/* The ranks in increasing order: the smallest not named yet, each time. */
		for (int k = 0; k < nranks; k++) {
			struct writer *least = NULL;
			for (struct writer *o = w; o != NULL; o = o->next)
				if (!o->said && strcmp(o->path, w->path) == 0 &&
				    (least == NULL || o->world_rank < least->world_rank))
					least = o;
			if (least == NULL)
				break;
			if (k > 0)
				put_str(line, &n, cap, ", ");
			put_int(line, &n, cap, least->world_rank);
			least->said = true;
		}
		put_str(line, &n, cap, " and may be incomplete\n");
		if (n == cap)
			line[n++] = '\n';
		for (size_t off = 0; off < n;) {
			ssize_t k = write(STDERR_FILENO, line + off, n - off);
			if (k <= 0 && errno != EINTR)
				break;
			off += k > 0 ? (size_t)k : 0;
		}
	}
	if (locked)
		pthread_mutex_unlock(&writers.mu);
}

static void hook_report(void)
{
	shl_exit_set_report(report_writers);
}

/* Note rank `r`'s file `f`, open for writing. Returns 0 or -ENOMEM. */
static int writer_add(struct shl_rank *r, const struct shl_file *f)
{
	char cwd[PATH_MAX];
	bool rel = f->path[0] != '/';

	if (rel && getcwd(cwd, sizeof(cwd)) == NULL)
		rel = false;
	size_t len = (rel ? strlen(cwd) + 1 : 0) + strlen(f->path) + 1;
	struct writer *w = malloc(sizeof(*w) + len);
	if (w == NULL)
		return -ENOMEM;
	w->f = f;
	w->world_rank = r->world_rank;
	w->said = false;
	snprintf(w->path, len, "%s%s%s", rel ? cwd : "", rel ? "/" : "", f->path);
	pthread_once(&writers.hook, hook_report);
	pthread_mutex_lock(&writers.mu);
	w->next = atomic_load_explicit(&writers.head, memory_order_relaxed);
	atomic_store_explicit(&writers.head, w, memory_order_release);
	pthread_mutex_unlock(&writers.mu);
	return 0;
}

static void writer_remove(const struct shl_file *f)
{
	struct writer *gone = NULL;

	pthread_mutex_lock(&writers.mu);
	for (struct writer *_Atomic *p = &writers.head; *p != NULL; p = &(*p)->next)
		if ((*p)->f == f) {
			gone = *p;
			atomic_store_explicit(p, gone->next, memory_order_release);
			break;
		}
	pthread_mutex_unlock(&writers.mu);
	free(gone);
}

/* ---- hints (MPI 4.1, 14.2.8) ---- */

/* A size in bytes: decimal, with an optional k, m or g (KiB, MiB, GiB). */
static bool parse_bytes(const char *s, size_t *v)
{
	char *end;
	unsigned long long n;

	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno != 0 || end == s || *s == '-')
		return false;
	switch (*end) {
	case 'k': case 'K': n <<= 10; end++; break;
	case 'm': case 'M': n <<= 20; end++; break;
	case 'g': case 'G': n <<= 30; end++; break;
	}
	if (*end != '\0' || n == 0)
		return false;
	*v = (size_t)n;
	return true;
}

static bool parse_int(const char *s, int *v)
{
	size_t n;

	if (!parse_bytes(s, &n) || n > INT_MAX)
		return false;
	*v = (int)n;
	return true;
}

static bool parse_cb(const char *s, enum shl_file_cb *v)
{
	if (strcasecmp(s, "enable") == 0 || strcasecmp(s, "true") == 0)
		*v = SHL_FILE_CB_ENABLE;
	else if (strcasecmp(s, "disable") == 0 || strcasecmp(s, "false") == 0)
		*v = SHL_FILE_CB_DISABLE;
	else if (strcasecmp(s, "automatic") == 0)
		*v = SHL_FILE_CB_AUTOMATIC;
	else
		return false;
	return true;
}

static const char *cb_name(enum shl_file_cb v)
{
	return v == SHL_FILE_CB_ENABLE ? "enable" : v == SHL_FILE_CB_DISABLE ? "disable"
									     : "automatic";
}

/* The hints a file reports as given but does not act on (MPI 4.1, 14.2.8 reserves them);
 * MPI_File_get_info returns them as set. */
static const char *const kept_keys[] = { "access_style", "cb_block_size", "chunked",
					 "chunked_item", "chunked_size", "filename",
					 "io_node_list", "nb_proc", "num_io_nodes" };

static bool kept_key(const char *k)
{
	for (size_t i = 0; i < sizeof(kept_keys) / sizeof(kept_keys[0]); i++)
		if (strcmp(k, kept_keys[i]) == 0)
			return true;
	return false;
}

/* The defaults: collective buffers of 16 MiB, one aggregator per node of the file's group
 * (`nodes`), collective buffering and data sieving as the access asks (automatic), data
 * sieving buffers of 4 MiB (reads) and 512 KiB (writes), no striping request, files
 * created with mode 0666 less the umask. */
static void hints_default(struct shl_file_hints *h, int nodes)
{
	*h = (struct shl_file_hints){
		.cb_buffer_size = (size_t)16 << 20, .cb_nodes = nodes,
		.cb_read = SHL_FILE_CB_AUTOMATIC, .cb_write = SHL_FILE_CB_AUTOMATIC,
		.ds_read = SHL_FILE_CB_AUTOMATIC, .ds_write = SHL_FILE_CB_AUTOMATIC,
		.ind_rd_buffer_size = (size_t)4 << 20, .ind_wr_buffer_size = (size_t)512 << 10,
		.striping_unit = 0, .striping_factor = 0, .file_perm = 0666,
	};
}

/* Take the hints of `in` that a file acts on into `h`, and the reserved ones it keeps
 * into `kept` (NULL: not kept). A key with a value that does not parse keeps the value in
 * effect (MPI 4.1, 10.4.1 lets an implementation ignore a hint); unknown keys are
 * ignored. `opening`: file_perm counts (it acts at creation only). cb_nodes is at most the
 * `members` of the file's group. Returns 0 or -ENOMEM. */
static int hints_take(struct shl_file_hints *h, struct shl_info *kept, const struct shl_info *in,
		      bool opening, int members)
{
	for (int i = 0; in != NULL && i < in->n; i++) {
		const char *k = in->e[i].key, *v = in->e[i].value;
		size_t n;
		int x;

		if (strcmp(k, "cb_buffer_size") == 0)
			parse_bytes(v, &h->cb_buffer_size);
		else if (strcmp(k, "cb_nodes") == 0 && parse_int(v, &x))
			h->cb_nodes = x < members ? x : members;
		else if (strcmp(k, "romio_cb_read") == 0)
			parse_cb(v, &h->cb_read);
		else if (strcmp(k, "romio_cb_write") == 0)
			parse_cb(v, &h->cb_write);
		else if (strcmp(k, "collective_buffering") == 0) {
			enum shl_file_cb cb;
			if (parse_cb(v, &cb) && cb != SHL_FILE_CB_AUTOMATIC)
				h->cb_read = h->cb_write = cb;
		} else if (strcmp(k, "romio_ds_read") == 0)
			parse_cb(v, &h->ds_read);
		else if (strcmp(k, "romio_ds_write") == 0)
			parse_cb(v, &h->ds_write);
		else if (strcmp(k, "ind_rd_buffer_size") == 0)
			parse_bytes(v, &h->ind_rd_buffer_size);
		else if (strcmp(k, "ind_wr_buffer_size") == 0)
			parse_bytes(v, &h->ind_wr_buffer_size);
		else if (strcmp(k, "striping_unit") == 0 && parse_bytes(v, &n))
			h->striping_unit = n;
		else if (strcmp(k, "striping_factor") == 0 && parse_int(v, &x))
			h->striping_factor = x;
		else if (strcmp(k, "file_perm") == 0 && opening) {
			char *end;
			unsigned long m = strtoul(v, &end, 8);
			if (end != v && *end == '\0' && m <= 07777)
				h->file_perm = (int)m;
		} else if (kept != NULL && kept_key(k) && shl_info_set(kept, k, v) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* Every hint in use with its value, then the reserved ones kept as given, into `out`. */
static int hints_put(const struct shl_file *f, struct shl_info *out)
{
	const struct shl_file_hints *h = &f->hints;
	char v[7][32];
	int rc = 0;

	snprintf(v[0], sizeof(v[0]), "%zu", h->cb_buffer_size);
	snprintf(v[1], sizeof(v[1]), "%d", h->cb_nodes);
	snprintf(v[2], sizeof(v[2]), "%zu", h->ind_rd_buffer_size);
	snprintf(v[3], sizeof(v[3]), "%zu", h->ind_wr_buffer_size);
	snprintf(v[4], sizeof(v[4]), "%zu", h->striping_unit);
	snprintf(v[5], sizeof(v[5]), "%d", h->striping_factor);
	snprintf(v[6], sizeof(v[6]), "0%o", (unsigned)h->file_perm);
	rc |= shl_info_set(out, "cb_buffer_size", v[0]);
	rc |= shl_info_set(out, "cb_nodes", v[1]);
	rc |= shl_info_set(out, "romio_cb_read", cb_name(h->cb_read));
	rc |= shl_info_set(out, "romio_cb_write", cb_name(h->cb_write));
	rc |= shl_info_set(out, "collective_buffering",
			   h->cb_read == SHL_FILE_CB_DISABLE && h->cb_write == SHL_FILE_CB_DISABLE
				   ? "false" : "true");
	rc |= shl_info_set(out, "romio_ds_read", cb_name(h->ds_read));
	rc |= shl_info_set(out, "romio_ds_write", cb_name(h->ds_write));
	rc |= shl_info_set(out, "ind_rd_buffer_size", v[2]);
	rc |= shl_info_set(out, "ind_wr_buffer_size", v[3]);
	rc |= shl_info_set(out, "striping_unit", v[4]);
	rc |= shl_info_set(out, "striping_factor", v[5]);
	rc |= shl_info_set(out, "file_perm", v[6]);
	for (int i = 0; f->info != NULL && i < f->info->n; i++)
		rc |= shl_info_set(out, f->info->e[i].key, f->info->e[i].value);
	return rc < 0 ? -ENOMEM : 0;
}

/* ---- agreement between the members ----
 * A collective step ends with every member knowing the worst outcome: the largest error
 * class any member had, the lowest rank that had it and that rank's errno, packed in one
 * integer so one MPI_MAX reduction finds them. */
static unsigned long long verdict_pack(int cls, int rank, int sys)
{
	if (cls == MPI_SUCCESS)
		return 0;
	return ((unsigned long long)(unsigned)cls << 40) |
	       ((unsigned long long)(0x7fffffff - rank) << 8) | ((unsigned)sys & 0xff);
}

struct verdict {
	int cls, rank, sys;
};

static struct verdict verdict_unpack(unsigned long long v)
{
	if (v == 0)
		return (struct verdict){ MPI_SUCCESS, -1, 0 };
	return (struct verdict){ (int)(v >> 40), 0x7fffffff - (int)((v >> 8) & 0x7fffffff),
				 (int)(v & 0xff) };
}

/* Raise the agreed failure `v` of call `fn` on this member: its own reason `why` when it
 * is the member named, else the named member's. */
static int verdict_raise(struct shl_file *f, const char *fn, struct verdict v, int rank,
			 const char *why, const char *path)
{
	if (v.rank == rank && why[0] != '\0')
		return shl_file_err(f, v.cls, fn, "%s", why);
	return shl_file_err(f, v.cls, fn, "%s%s%sit failed on rank %d of the file's group%s%s",
			    path ? "file " : "", path ? path : "", path ? ": " : "", v.rank,
			    v.sys ? ": " : "", v.sys ? strerror(v.sys) : "");
}

/* ---- open and close (MPI 4.1, 14.2.1, 14.2.2) ---- */

/* Why `amode` is no valid access mode (MPI 4.1, 14.2.1), or NULL. */
static const char *amode_fault(int amode)
{
	int access = amode & AMODE_ACCESS;

	if (amode & ~AMODE_ALL)
		return "has bits that are no MPI_MODE_* access mode";
	if (access == 0)
		return "has none of MPI_MODE_RDONLY, MPI_MODE_WRONLY and MPI_MODE_RDWR";
	if (access != MPI_MODE_RDONLY && access != MPI_MODE_WRONLY && access != MPI_MODE_RDWR)
		return "has more than one of MPI_MODE_RDONLY, MPI_MODE_WRONLY and MPI_MODE_RDWR";
	if ((amode & MPI_MODE_RDONLY) && (amode & (MPI_MODE_CREATE | MPI_MODE_EXCL)))
		return "has MPI_MODE_RDONLY with MPI_MODE_CREATE or MPI_MODE_EXCL";
	if ((amode & MPI_MODE_RDWR) && (amode & MPI_MODE_SEQUENTIAL))
		return "has MPI_MODE_SEQUENTIAL with MPI_MODE_RDWR";
	return NULL;
}

/* FNV-1a of `s`, for telling names apart in one reduction. */
static unsigned long long name_hash(const char *s)
{
	unsigned long long h = 0xcbf29ce484222325ull;

	while (s != NULL && *s != '\0')
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ull;
	return h;
}

/* This rank's descriptor of `path` for `amode`, or -errno. `creating`: rank 0's open,
 * which creates the file as amode says. A write-only file is opened for reading too where
 * the permissions allow it: access.c's data sieving reads around what it writes. */
static int open_fd(const char *path, int amode, bool creating, int perm)
{
	int flags = O_CLOEXEC;
	int fd;

	if (creating && (amode & MPI_MODE_CREATE))
		flags |= O_CREAT;
	if (creating && (amode & MPI_MODE_EXCL))
		flags |= O_EXCL;
	if (amode & MPI_MODE_RDONLY)
		flags |= O_RDONLY;
	else
		flags |= O_RDWR;
	fd = open(path, flags, (mode_t)perm);
	if (fd < 0 && (errno == EACCES || errno == EPERM) && (amode & MPI_MODE_WRONLY))
		fd = open(path, (flags & ~O_RDWR) | O_WRONLY, (mode_t)perm);
	return fd >= 0 ? fd : -errno;
}

/* Release what `f` holds (no collective); f's slot too. */
static void file_release(struct shl_file *f)
{
	if (f->fd >= 0)
		close(f->fd);
	free(f->peers);
	free(f->path);
	shl_info_free(f->info);
	if (f->errh != NULL)
		shl_errh_drop(f->errh);
	shl_file_view_clear(&f->view);
	if (f->node != MPI_COMM_NULL)
		PMPI_Comm_free(&f->node);
	if (f->comm != MPI_COMM_NULL)
		PMPI_Comm_free(&f->comm);
	f->magic = 0;
	shl_handle_free(f);
}

int PMPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh)
{
	const char *fn = "MPI_File_open";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *c = shl_comm_get(r, comm);
	struct shl_info *in = NULL;
	struct shl_file *f;
	char why[PATH_MAX + 256] = "";
	const char *fault;
	int cls = MPI_SUCCESS, shared, sys = 0, err;

	if (c == NULL)
		return shl_file_err(NULL, MPI_ERR_COMM, fn, "comm is not a valid communicator%s",
				    comm == MPI_COMM_NULL ? " (MPI_COMM_NULL)" : "");
	if (c->inter)
		return shl_file_err(NULL, MPI_ERR_COMM, fn, "comm is an intercommunicator");
	/* Argument faults are agreed on with the other members, so every member fails. */
	if (fh == NULL)
		cls = MPI_ERR_ARG, snprintf(why, sizeof(why), "fh is NULL");
	else if (filename == NULL)
		cls = MPI_ERR_BAD_FILE, snprintf(why, sizeof(why), "filename is NULL");
	else if (filename[0] == '\0')
		cls = MPI_ERR_BAD_FILE, snprintf(why, sizeof(why), "filename is empty");
	else if (strlen(filename) >= PATH_MAX)
		cls = MPI_ERR_BAD_FILE, snprintf(why, sizeof(why), "filename is %zu bytes long "
						 "(the limit is %d)", strlen(filename), PATH_MAX - 1);
	else if ((fault = amode_fault(amode)) != NULL)
		cls = MPI_ERR_AMODE, snprintf(why, sizeof(why), "amode %#x %s", (unsigned)amode,
					      fault);
	else if (info != MPI_INFO_NULL && (in = shl_info_get(r, info)) == NULL)
		cls = MPI_ERR_INFO, snprintf(why, sizeof(why), "info is not a valid info object");

	f = shl_handle_alloc(sizeof(*f));
	if (f == NULL)
		return shl_file_err(NULL, MPI_ERR_NO_MEM, fn, "no memory for a file");
	f->fd = -1;
	f->comm = f->node = MPI_COMM_NULL;
	shl_file_view_default(&f->view);
	if ((err = PMPI_Comm_dup(comm, &f->comm)) != MPI_SUCCESS) {
		f->comm = MPI_COMM_NULL;
		file_release(f);
		return shl_file_err(NULL, err, fn, "could not make the file's communicator");
	}
	PMPI_Comm_set_errhandler(f->comm, MPI_ERRORS_RETURN);
	f->c = shl_comm_get(r, f->comm);
	f->rank = f->c->rank;
	f->size = f->c->size;

	/* Step 1: the arguments, and the same amode and name everywhere. */
	unsigned long long name = name_hash(filename);
	unsigned long long v[5] = { verdict_pack(cls, f->rank, 0), (unsigned)amode,
				    ~(unsigned long long)(unsigned)amode, name, ~name };
	err = PMPI_Allreduce(MPI_IN_PLACE, v, 5, MPI_UNSIGNED_LONG_LONG, MPI_MAX, f->comm);
	if (err != MPI_SUCCESS) {
		file_release(f);
		return shl_file_err(NULL, err, fn, "the members could not agree on the arguments");
	}
	struct verdict agreed = verdict_unpack(v[0]);
	if (agreed.cls == MPI_SUCCESS && v[1] != ~v[2]) {
		agreed = (struct verdict){ MPI_ERR_NOT_SAME, -1, 0 };
		snprintf(why, sizeof(why), "amode %#x is not the amode of every member (MPI 4.1, "
			 "14.2.1: it must be the same everywhere)", (unsigned)amode);
	}
	if (agreed.cls != MPI_SUCCESS) {
		int rank = f->rank;
		file_release(f);  /* the slot may be another rank's from here on */
		agreed.rank = agreed.rank < 0 ? rank : agreed.rank;
		return verdict_raise(NULL, fn, agreed, rank, why, filename);
	}
	bool names_differ = v[3] != ~v[4];

	/* Step 2: the file's communicators, its peers on this node, its hints. */
	err = PMPI_Comm_split_type(f->comm, MPI_COMM_TYPE_SHARED, f->rank, MPI_INFO_NULL,
				   &f->node);
	if (err != MPI_SUCCESS) {
		f->node = MPI_COMM_NULL;
		file_release(f);
		return shl_file_err(NULL, err, fn, "could not split the file's communicator by node");
	}
	PMPI_Comm_set_errhandler(f->node, MPI_ERRORS_RETURN);
	PMPI_Comm_rank(f->node, &f->node_rank);
	PMPI_Comm_size(f->node, &f->node_size);
	f->offnode = f->node_size < f->size;
	f->amode = amode;
	f->path = strdup(filename);
	f->peers = calloc((size_t)f->node_size, sizeof(*f->peers));
	f->info = shl_info_dup(NULL);
	f->errh = r->file_errh != NULL ? r->file_errh : MPI_ERRORS_RETURN;
	shl_errh_hold(f->errh);
	cls = f->path && f->peers && f->info ? MPI_SUCCESS : MPI_ERR_NO_MEM;
	int leader = f->node_rank == 0, nodes = 1;
	err = PMPI_Allreduce(&leader, &nodes, 1, MPI_INT, MPI_SUM, f->comm);
	hints_default(&f->hints, err == MPI_SUCCESS ? nodes : 1);
	if (cls == MPI_SUCCESS && hints_take(&f->hints, f->info, in, true, f->size) < 0)
		cls = MPI_ERR_NO_MEM;
	if (cls != MPI_SUCCESS)
		snprintf(why, sizeof(why), "out of memory");
	err = PMPI_Allgather(&f, sizeof(f), MPI_BYTE, f->peers != NULL ? (void *)f->peers : NULL,
			     f->peers != NULL ? (int)sizeof(f) : 0, MPI_BYTE, f->node);
	if (err != MPI_SUCCESS && cls == MPI_SUCCESS) {
		cls = err;
		snprintf(why, sizeof(why), "the node's members could not exchange their files");
	}

	/* Step 3: rank 0 opens (creating the file as amode says), then the others. */
	if (cls == MPI_SUCCESS && f->rank == 0) {
		int fd = open_fd(f->path, amode, true, f->hints.file_perm);
		if (fd < 0) {
			cls = shl_file_errno_class(-fd);
			sys = -fd;
			snprintf(why, sizeof(why), "cannot %s %s: %s",
				 amode & MPI_MODE_CREATE ? "create or open" : "open", f->path,
				 strerror(sys));
		}
		f->fd = fd;
	}
	v[0] = verdict_pack(cls, f->rank, sys);
	if ((err = PMPI_Allreduce(MPI_IN_PLACE, v, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, f->comm)) !=
	    MPI_SUCCESS)
		v[0] = verdict_pack(err, f->rank, 0);
	agreed = verdict_unpack(v[0]);
	struct stat st = { 0 };
	if (agreed.cls == MPI_SUCCESS && f->rank != 0) {
		int fd = open_fd(f->path, amode, false, f->hints.file_perm);
		if (fd < 0) {
			cls = shl_file_errno_class(-fd);
			sys = -fd;
			snprintf(why, sizeof(why), "cannot open %s: %s", f->path, strerror(sys));
		}
		f->fd = fd;
	}
	if (agreed.cls == MPI_SUCCESS && cls == MPI_SUCCESS && fstat(f->fd, &st) < 0) {
		sys = errno;
		cls = shl_file_errno_class(sys);
		snprintf(why, sizeof(why), "cannot stat %s: %s", f->path, strerror(sys));
	}
	if (agreed.cls == MPI_SUCCESS && cls == MPI_SUCCESS && !S_ISREG(st.st_mode) &&
	    !S_ISBLK(st.st_mode)) {
		cls = MPI_ERR_BAD_FILE;
		snprintf(why, sizeof(why), "%s is no regular file", f->path);
	}
	if (agreed.cls == MPI_SUCCESS) {
		/* Different names must name one file: the same device and inode everywhere. */
		unsigned long long w[5] = { verdict_pack(cls, f->rank, sys), st.st_dev,
					    ~(unsigned long long)st.st_dev, st.st_ino,
					    ~(unsigned long long)st.st_ino };
		if ((err = PMPI_Allreduce(MPI_IN_PLACE, w, names_differ ? 5 : 1,
					  MPI_UNSIGNED_LONG_LONG, MPI_MAX, f->comm)) != MPI_SUCCESS)
			w[0] = verdict_pack(err, f->rank, 0);
		agreed = verdict_unpack(w[0]);
		if (agreed.cls == MPI_SUCCESS && names_differ &&
		    (w[1] != ~w[2] || w[3] != ~w[4])) {
			agreed = (struct verdict){ MPI_ERR_NOT_SAME, f->rank, 0 };
			snprintf(why, sizeof(why), "filename %s does not name the file every member "
				 "names (MPI 4.1, 14.2.1)", f->path);
		}
	}
	if (agreed.cls != MPI_SUCCESS) {
		err = verdict_raise(NULL, fn, agreed, f->rank, why, filename);
		file_release(f);
		return err;
	}

	/* Step 4: the pointers (at the end of the file with MPI_MODE_APPEND). */
	f->fp = amode & MPI_MODE_APPEND ? (MPI_Offset)st.st_size : 0;
	/* The shared pointer's set-up ends in its own agreement (shared.c): where it
	 * succeeded it did on every member, and every member undoes it below. */
	shared = shl_file_shared_open(f);
	cls = shared;
	if (cls == MPI_SUCCESS && !(amode & MPI_MODE_RDONLY) && writer_add(r, f) < 0)
		cls = MPI_ERR_NO_MEM;
	v[0] = verdict_pack(cls, f->rank, 0);
	if ((err = PMPI_Allreduce(MPI_IN_PLACE, v, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, f->comm)) !=
	    MPI_SUCCESS)
		v[0] = verdict_pack(err, f->rank, 0);
	agreed = verdict_unpack(v[0]);
	if (agreed.cls != MPI_SUCCESS) {
		snprintf(why, sizeof(why), "could not set up the shared file pointer");
		err = verdict_raise(NULL, fn, agreed, f->rank, why, filename);
		if (shared == MPI_SUCCESS)
			shl_file_shared_close(f);
		writer_remove(f);
		file_release(f);
		return err;
	}
	f->magic = SHL_FILE_MAGIC;
	*fh = f;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(File_open);

/* Whether `arg` (a struct shl_file) has no nonblocking operation in flight. */
static bool none_pending(void *arg)
{
	return atomic_load_explicit(&((struct shl_file *)arg)->pending, memory_order_acquire) == 0;
}

int PMPI_File_close(MPI_File *fh)
{
	const char *fn = "MPI_File_close";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_file *f;
	int err, cls = MPI_SUCCESS, sys = 0;

	if (fh == NULL)
		return shl_file_err(NULL, MPI_ERR_ARG, fn, "fh is NULL");
	if ((err = shl_file_check(fn, *fh, &f)) != MPI_SUCCESS)
		return err;
	/* Operations the rank started complete first (MPI 4.1, 14.2.2 makes closing with
	 * requests pending erroneous; they finish rather than touch a closed file). */
	if (!none_pending(f)) {
		/* The rank's own wait: a rank switched in user space parks rather than
		 * holding its carrier, and the rank progresses meanwhile. */
		shl_rank_lock(r);
		while (!shl_wait_once(r, none_pending, f, 1000 * 1000, true))
			;
		shl_rank_unlock(r);
	}
	shl_file_coll_close(f);
	shl_file_shared_close(f);
	writer_remove(f);
	if (close(f->fd) < 0 && errno != EINTR) {
		sys = errno;
		cls = shl_file_errno_class(sys);
	}
	f->fd = -1;
	/* Every member closed before the file goes; with MPI_MODE_DELETE_ON_CLOSE it is gone
	 * when any member returns. */
	err = PMPI_Barrier(f->comm);
	if (err == MPI_SUCCESS && (f->amode & MPI_MODE_DELETE_ON_CLOSE)) {
		if (f->rank == 0 && unlink(f->path) < 0 && errno != ENOENT && cls == MPI_SUCCESS) {
			sys = errno;
			cls = shl_file_errno_class(sys);
		}
		err = PMPI_Barrier(f->comm);
	}
	if (err != MPI_SUCCESS)
		err = shl_file_err(f, err, fn, "the closing barrier failed");
	else if (cls != MPI_SUCCESS)
		err = shl_file_err(f, cls, fn, "closing %s failed: %s", f->path, strerror(sys));
	file_release(f);
	*fh = MPI_FILE_NULL;
	return err;
}
SHL_WEAK_ALIAS(File_close);

int PMPI_File_delete(const char *filename, MPI_Info info)
{
	const char *fn = "MPI_File_delete";
	struct shl_rank *r = shl_rank_or_die(fn);

	if (filename == NULL)
		return shl_file_err(NULL, MPI_ERR_BAD_FILE, fn, "filename is NULL");
	if (filename[0] == '\0')
		return shl_file_err(NULL, MPI_ERR_BAD_FILE, fn, "filename is empty");
	if (info != MPI_INFO_NULL && shl_info_get(r, info) == NULL)
		return shl_file_err(NULL, MPI_ERR_INFO, fn, "info is not a valid info object");
	/* Linux keeps an open file's data until its last descriptor closes: deleting a file
	 * some process has open succeeds, so MPI_ERR_FILE_IN_USE never comes from here. */
	if (unlink(filename) < 0)
		return shl_file_errno(NULL, errno, fn, "cannot delete %s", filename);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(File_delete);

/* ---- size (MPI 4.1, 14.2.4 - 14.2.6) ---- */

/* The members' `size` agreed on (MPI_ERR_NOT_SAME when they differ), then rank 0's
 * `act` on the file, its outcome agreed on: the common part of set_size and preallocate. */
static int resize(const char *fn, MPI_File fh, MPI_Offset size, bool allocate)
{
	struct shl_file *f;
	char why[PATH_MAX + 128] = "";
	int err, cls = MPI_SUCCESS, sys = 0;

	shl_rank_or_die(fn);
	if ((err = shl_file_check(fn, fh, &f)) != MPI_SUCCESS)
		return err;
	if (size < 0)
		cls = MPI_ERR_ARG, snprintf(why, sizeof(why), "size %lld is negative", size);
	else if (f->amode & MPI_MODE_SEQUENTIAL)
		cls = MPI_ERR_UNSUPPORTED_OPERATION,
		snprintf(why, sizeof(why), "the file was opened with MPI_MODE_SEQUENTIAL "
			 "(MPI 4.1, 14.2.4)");
	else if (f->amode & MPI_MODE_RDONLY)
		cls = MPI_ERR_READ_ONLY,
		snprintf(why, sizeof(why), "the file was opened with MPI_MODE_RDONLY");
	unsigned long long v[3] = { verdict_pack(cls, f->rank, 0), (unsigned long long)size,
				    ~(unsigned long long)size };
	if ((err = PMPI_Allreduce(MPI_IN_PLACE, v, 3, MPI_UNSIGNED_LONG_LONG, MPI_MAX, f->comm)) !=
	    MPI_SUCCESS)
		return shl_file_err(f, err, fn, "the members could not agree on size");
	struct verdict agreed = verdict_unpack(v[0]);
	if (agreed.cls == MPI_SUCCESS && v[1] != ~v[2]) {
		return shl_file_err(f, MPI_ERR_NOT_SAME, fn, "size %lld is not the size every "
				    "member gives (from %llu to %llu)", size, ~v[2], v[1]);
	}
	if (agreed.cls != MPI_SUCCESS)
		return verdict_raise(f, fn, agreed, f->rank, why, NULL);
	/* One member changes the file for all; the reduction after it is the barrier after
	 * which every member sees the new size. */
	if (f->rank == 0) {
		int rc;
		if (allocate)
			do
				rc = posix_fallocate(f->fd, 0, size);
			while (rc == EINTR);
		else
			rc = ftruncate(f->fd, size) < 0 ? errno : 0;
		if (rc != 0) {
			sys = rc;
			cls = shl_file_errno_class(rc);
			snprintf(why, sizeof(why), "cannot %s %s to %lld bytes: %s",
				 allocate ? "allocate" : "resize", f->path, size, strerror(rc));
		}
	}
	v[0] = verdict_pack(cls, f->rank, sys);
	if ((err = PMPI_Allreduce(MPI_IN_PLACE, v, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, f->comm)) !=
	    MPI_SUCCESS)
		return shl_file_err(f, err, fn, "the members could not agree on the outcome");
	agreed = verdict_unpack(v[0]);
	return agreed.cls == MPI_SUCCESS ? MPI_SUCCESS
					 : verdict_raise(f, fn, agreed, f->rank, why, NULL);
}

int PMPI_File_set_size(MPI_File fh, MPI_Offset size)
{
	return resize("MPI_File_set_size", fh, size, false);
}
SHL_WEAK_ALIAS(File_set_size);

int PMPI_File_preallocate(MPI_File fh, MPI_Offset size)
{
	return resize("MPI_File_preallocate", fh, size, true);
}
SHL_WEAK_ALIAS(File_preallocate);

int PMPI_File_get_size(MPI_File fh, MPI_Offset *size)
{
	const char *fn = "MPI_File_get_size";
	struct shl_file *f;
	struct stat st;
	int err;

	shl_rank_or_die(fn);
	if ((err = shl_file_check(fn, fh, &f)) != MPI_SUCCESS)
		return err;
	if (size == NULL)
		return shl_file_err(f, MPI_ERR_ARG, fn, "size is NULL");
	if (fstat(f->fd, &st) < 0)
		return shl_file_errno(f, errno, fn, "cannot stat %s", f->path);
	*size = (MPI_Offset)st.st_size;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(File_get_size);

/* ---- group and access mode (MPI 4.1, 14.2.7) ---- */

int PMPI_File_get_group(MPI_File fh, MPI_Group *group)
{
	const char *fn = "MPI_File_get_group";
	struct shl_file *f;
	int err;

	shl_rank_or_die(fn);
	if ((err = shl_file_check(fn, fh, &f)) != MPI_SUCCESS)
		return err;
	if (group == NULL)
		return shl_file_err(f, MPI_ERR_ARG, fn, "group is NULL");
	if ((err = PMPI_Comm_group(f->comm, group)) != MPI_SUCCESS)
		return shl_file_err(f, err, fn, "could not make the group");
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(File_get_group);

int PMPI_File_get_amode(MPI_File fh, int *amode)
{
	const char *fn = "MPI_File_get_amode";
	struct shl_file *f;
	int err;

	shl_rank_or_die(fn);
	if ((err = shl_file_check(fn, fh, &f)) != MPI_SUCCESS)
		return err;
	if (amode == NULL)
		return shl_file_err(f, MPI_ERR_ARG, fn, "amode is NULL");
	*amode = f->amode;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(File_get_amode);

/* ---- hints (MPI 4.1, 14.2.8) ---- */

int PMPI_File_set_info(MPI_File fh, MPI_Info info)
{
	const char *fn = "MPI_File_set_info";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_file *f;
	struct shl_info *in;
	int err;

	if ((err = shl_file_check(fn, fh, &f)) != MPI_SUCCESS)
		return err;
	if (info == MPI_INFO_NULL)
		return MPI_SUCCESS;
	if ((in = shl_info_get(r, info)) == NULL)
		return shl_file_err(f, MPI_ERR_INFO, fn, "info is not a valid info object");
	/* Hints the info does not name keep their values; file_perm acted at creation. */
	struct shl_file_hints h = f->hints;
	struct shl_info *kept = shl_info_dup(f->info);
	if (kept == NULL || hints_take(&h, kept, in, false, f->size) < 0) {
		shl_info_free(kept);
		return shl_file_err(f, MPI_ERR_NO_MEM, fn, "out of memory");
	}
	f->hints = h;
	shl_info_free(f->info);
	f->info = kept;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(File_set_info);

int PMPI_File_get_info(MPI_File fh, MPI_Info *info_used)
{
	const char *fn = "MPI_File_get_info";
	struct shl_file *f;
	struct shl_info *out;
	int err;

	shl_rank_or_die(fn);
	if ((err = shl_file_check(fn, fh, &f)) != MPI_SUCCESS)
		return err;
	if (info_used == NULL)
		return shl_file_err(f, MPI_ERR_ARG, fn, "info_used is NULL");
	out = shl_info_dup(NULL);
	if (out == NULL || hints_put(f, out) < 0) {
		shl_info_free(out);
		return shl_file_err(f, MPI_ERR_NO_MEM, fn, "out of memory");
	}
	*info_used = out;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(File_get_info);

/* ---- consistency (MPI 4.1, 14.6.1 - 14.6.3) ---- */

int PMPI_File_sync(MPI_File fh)
{
	const char *fn = "MPI_File_sync";
	struct shl_file *f;
	int err, cls = MPI_SUCCESS, sys = 0;
	char why[PATH_MAX + 64] = "";

	shl_rank_or_die(fn);
	if ((err = shl_file_check(fn, fh, &f)) != MPI_SUCCESS)
		return err;
	/* Every member's writes are in the host's page cache once all are here; one fsync per
	 * node then takes them to the device. */
	if ((err = PMPI_Barrier(f->comm)) != MPI_SUCCESS)
		return shl_file_err(f, err, fn, "the barrier before the sync failed");
	if (f->node_rank == 0 && fsync(f->fd) < 0) {
		sys = errno;
		cls = shl_file_errno_class(sys);
		snprintf(why, sizeof(why), "cannot sync %s: %s", f->path, strerror(sys));
	}
	unsigned long long v = verdict_pack(cls, f->rank, sys);
	if ((err = PMPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, f->comm)) !=
	    MPI_SUCCESS)
		return shl_file_err(f, err, fn, "the members could not agree on the outcome");
	struct verdict agreed = verdict_unpack(v);
	return agreed.cls == MPI_SUCCESS ? MPI_SUCCESS
					 : verdict_raise(f, fn, agreed, f->rank, why, NULL);
}
SHL_WEAK_ALIAS(File_sync);

int PMPI_File_set_atomicity(MPI_File fh, int flag)
{
	const char *fn = "MPI_File_set_atomicity";
	struct shl_file *f;
	int err;

	shl_rank_or_die(fn);
	if ((err = shl_file_check(fn, fh, &f)) != MPI_SUCCESS)
		return err;
	unsigned long long v[2] = { flag != 0, flag == 0 };
	if ((err = PMPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_UNSIGNED_LONG_LONG, MPI_MAX, f->comm)) !=
	    MPI_SUCCESS)
		return shl_file_err(f, err, fn, "the members could not agree on flag");
	if (v[0] && v[1])
		return shl_file_err(f, MPI_ERR_NOT_SAME, fn, "flag %d is not what every member "
				    "gives (MPI 4.1, 14.6.1: it must be the same)", flag);
	f->atomic = flag != 0;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(File_set_atomicity);

int PMPI_File_get_atomicity(MPI_File fh, int *flag)
{
	const char *fn = "MPI_File_get_atomicity";
	struct shl_file *f;
	int err;

	shl_rank_or_die(fn);
	if ((err = shl_file_check(fn, fh, &f)) != MPI_SUCCESS)
		return err;
	if (flag == NULL)
		return shl_file_err(f, MPI_ERR_ARG, fn, "flag is NULL");
	*flag = f->atomic;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(File_get_atomicity);
