/* Loading a rank's copies of the private objects (loader/rank_objects.c) and ending them.
 * A rank's copy of an object is a file in the job directory, `<shared copy>.rank<R>`, with
 * the rank's names patched in; the dynamic linker loads it (libraries first, leaves first),
 * then every page of it the rank has not written is mapped again from the node's shared
 * copy, so the code and read-only data of every private object are in memory once per node
 * whatever the rank count. The rank's file is then punched empty (its inode kept, under
 * `held.<n>`, so no later file can take its number and be taken for it by the dynamic
 * linker) and its name becomes a symbolic link to the shared copy, where debuggers and
 * crash reports read the symbols. A plug-in a rank dlopens is loaded the same way when it
 * is private (dlopen is interposed here); every other dlopen is glibc's.
 * Entered by rank threads (and threads they created, through dlopen), one at a time under
 * shl_objects.lock (recursive: a constructor may dlopen). */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loader/lib_search.h"
#include "loader/loader.h"
#include "loader/loader_internal.h"
#include "loader/rank_objects.h"
#include "runtime/job.h"

/* The file ranges a rank's copy wrote differently from the shared copy. */
struct range {
	off_t at;
	size_t len;
};

struct written {
	struct range *r;
	int n, cap;
	bool all;     /* out of memory for r: every page counts as written */
};

static void *(*glibc_dlopen)(const char *, int);
/* /proc/self/pagemap, opened by the first load: which pages a rank has written. */
static int pagemap = -2;
static unsigned held_files;

void *shl_loader_dlopen(const char *file, int mode)
{
	void *(*fn)(const char *, int) = __atomic_load_n(&glibc_dlopen, __ATOMIC_ACQUIRE);

	if (!fn) {
		fn = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
		__atomic_store_n(&glibc_dlopen, fn, __ATOMIC_RELEASE);
	}
	return fn(file, mode);
}

static void note(struct written *w, off_t at, size_t len)
{
	if (w->n == w->cap) {
		int cap = w->cap ? 2 * w->cap : 16;
		struct range *more = realloc(w->r, (size_t)cap * sizeof(*more));

		if (!more) {
			w->all = true;
			return;
		}
		w->r = more;
		w->cap = cap;
	}
	w->r[w->n++] = (struct range){ at, len };
}

/* Whether a debugger may read the ranks' files as they load (mpiexec --gdb, or one traced
 * the node when its first rank loaded): then each copy stays a whole file, as the debugger
 * read it. Judged once: a debugger attaching later reads the links to the shared copies. */
static bool debugged(void)
{
	static int known = -1;
	char buf[4096];
	int fd;
	ssize_t got;
	const char *t;

	if (known >= 0)
		return known;
	fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
	got = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	buf[got > 0 ? got : 0] = '\0';
	t = strstr(buf, "TracerPid:");
	known = shl_loader.debug_stop || (t && strtol(t + 10, NULL, 10) != 0);
	return known;
}

/* Rank `c`'s copy of object `index`: `path`, from the shared copy (to the end of what
 * loading reads, or `whole`), with the rank's names and, for an executable, DF_1_PIE
 * cleared and its copy relocations' symbols undefined (loader/program_elf.c). */
static int make_copy(int index, const struct shl_copy *c, const char *path, bool whole,
		     struct written *w, int *fd_out)
{
	const struct shl_object *o = shl_objects.objects[index];
	off_t len = whole ? o->size : o->load_end;
	int out, err = 0;

	unlink(path);
	out = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0700);
	if (out < 0)
		return -errno;
	err = shl_objects_copy_bytes(o->shared_fd, out, len);
	if (err)
		goto out;
	for (int k = 0; k < o->npatches; k++) {
		char name[PATH_MAX];

		shl_objects_rank_name(o->patches[k].object, (int)(c - shl_loader.copies), name);
		if (pwrite(out, name, strlen(name) + 1, o->patches[k].at) < 0) {
			err = -errno;
			goto out;
		}
		note(w, o->patches[k].at, strlen(name) + 1);
	}
	for (int k = 0; k < o->nunique; k++) {
		if (pwrite(out, &o->unique[k].info, 1, o->unique[k].at) < 0) {
			err = -errno;
			goto out;
		}
		note(w, o->unique[k].at, 1);
	}
	if (index == 0 && shl_loader.elf.pie_flag_at >= 0) {
		const struct shl_program_elf *elf = &shl_loader.elf;
		uint64_t flags_1 = elf->flags_1 & ~(uint64_t)DF_1_PIE;
		struct { uint16_t shndx; uint64_t value; } __attribute__((packed)) undef = { 0 };
		size_t at = offsetof(Elf64_Sym, st_shndx);

		if (pwrite(out, &flags_1, sizeof(flags_1), elf->pie_flag_at) < 0)
			err = -errno;
		note(w, elf->pie_flag_at, sizeof(flags_1));
		for (int k = 0; !err && k < elf->ncopy_syms; k++) {
			if (pwrite(out, &undef, sizeof(undef), elf->copy_syms[k] + (off_t)at) < 0)
				err = -errno;
			note(w, elf->copy_syms[k] + (off_t)at, sizeof(undef));
		}
	}
out:
	if (err)
		close(out);
	else
		*fd_out = out;
	return err;
}

static bool is_written(const struct written *w, off_t page, size_t size)
{
	if (w->all)
		return true;
	for (int k = 0; k < w->n; k++)
		if (w->r[k].at < page + (off_t)size && w->r[k].at + (off_t)w->r[k].len > page)
			return true;
	return false;
}

/* What becomes of a page of a loaded copy: mapped from the shared copy, left as it is (a
 * page the rank wrote: its own, which punching holes in the rank's file keeps), or mapped
 * from the shared copy with its contents put back (a page of the rank's file that differs
 * from the shared copy, or the rank's own page in a run that is mapped again). */
enum { KEEP_NOT, KEEP_ANON, KEEP_CONTENTS };

/* Map [addr, addr + len) again from the shared copy at `off`, the contents of the pages
 * marked in `keep` put back; a run of the rank's own pages only stays as it is (each
 * mapping costs the node's other CPUs a TLB flush). Returns false if it could not. */
static bool remap(uintptr_t addr, size_t len, int prot, int fd, off_t off,
		  const unsigned char *keep, size_t page)
{
	size_t n = len / page, nkeep = 0, nanon = 0;
	unsigned char *saved = NULL;
	bool ok = true;

	for (size_t i = 0; i < n; i++) {
		nkeep += keep[i] != KEEP_NOT;
		nanon += keep[i] == KEEP_ANON;
	}
	if (nanon == n)
		return true;
	if (nkeep && (!(prot & PROT_READ) || !(saved = malloc(nkeep * page))))
		return false;
	for (size_t i = 0, s = 0; i < n; i++)
		if (keep[i])
			memcpy(saved + page * s++, (void *)(addr + i * page), page);
	if (mmap((void *)addr, len, nkeep ? prot | PROT_WRITE : prot, MAP_PRIVATE | MAP_FIXED, fd,
		 off) == MAP_FAILED) {
		free(saved);
		return false;
	}
	for (size_t i = 0, s = 0; i < n; i++)
		if (keep[i])
			memcpy((void *)(addr + i * page), saved + page * s++, page);
	if (nkeep && !(prot & PROT_WRITE) && mprotect((void *)addr, len, prot) < 0)
		ok = false;
	free(saved);
	return ok;
}

/* Map the pages of a loaded copy that its rank has not written from the shared copy. Pages
 * come in runs of one protection (the segment's, read-only inside PT_GNU_RELRO once the
 * dynamic linker protected it). Writable runs are left alone while other threads of the
 * rank run (one could write a page between the look and the mapping). Returns whether no
 * page of the copy's own file is mapped any more. */
static bool share_pages(const struct shl_object *o, void *handle, const struct written *w,
			bool writable)
{
	struct link_map *map = NULL;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uintptr_t relro_lo, relro_hi;
	bool complete = true;

	if (pagemap == -2)
		pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (pagemap < 0 || dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || !map)
		return false;
	relro_lo = (map->l_addr + o->relro_vaddr) & ~(page - 1);
	relro_hi = (map->l_addr + o->relro_vaddr + o->relro_size) & ~(page - 1);
	for (int s = 0; s < o->nsegs; s++) {
		const struct shl_segment *seg = &o->segs[s];
		uintptr_t lo = (map->l_addr + seg->vaddr) & ~(page - 1);
		uintptr_t hi = (map->l_addr + seg->vaddr + seg->filesz + page - 1) & ~(page - 1);
		off_t off = (off_t)(seg->offset & ~(page - 1));
		size_t n = (hi - lo) / page;
		uint64_t *pm;
		unsigned char *keep;

		if (!seg->filesz)
			continue;
		pm = malloc(n * sizeof(*pm));
		keep = malloc(n * sizeof(*keep));
		if (!pm || !keep || pread(pagemap, pm, n * sizeof(*pm),
					  (off_t)(lo / page * sizeof(*pm))) != (ssize_t)(n * sizeof(*pm))) {
			free(pm);
			free(keep);
			return false;
		}
		for (size_t i = 0; i < n; i++) {
			/* Bit 63: present, 62: swapped, 61: a page of the file (not a private copy). */
			bool anon = (pm[i] >> 62 & 1) || ((pm[i] >> 63 & 1) && !(pm[i] >> 61 & 1));

			keep[i] = anon ? KEEP_ANON : is_written(w, off + (off_t)(i * page), page) ?
				  KEEP_CONTENTS : KEEP_NOT;
		}
		for (size_t i = 0; i < n;) {
			uintptr_t at = lo + i * page;
			bool ro = o->relro_size && at >= relro_lo && at + page <= relro_hi;
			size_t j = i + 1;

			while (j < n && (o->relro_size && lo + j * page >= relro_lo &&
					 lo + (j + 1) * page <= relro_hi) == ro)
				j++;
			if ((seg->prot & PROT_WRITE) && !ro && !writable)
				complete = false;
			else if (!remap(at, (j - i) * page, ro ? PROT_READ : seg->prot, o->shared_fd,
					off + (off_t)(i * page), keep + i, page))
				complete = false;
			i = j;
		}
		free(pm);
		free(keep);
	}
	return complete;
}

/* No page of the rank's file (open on `fd`) is read any more: punch it empty (the rank's
 * own pages in mappings of it stay, as a hole punched keeps private copies, where
 * truncating would drop them), keep its inode under another name, and put a link to the
 * shared copy in its place. A file system that cannot punch holes keeps the rank's file. */
static void finish_file(const struct shl_object *o, const char *path, int fd)
{
	char held[PATH_MAX];
	const char *base = strrchr(o->shared, '/');

	if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, o->size) < 0)
		return;
	snprintf(held, sizeof(held), "%s/held.%u", shl_objects.jobdir, held_files++);
	if (rename(path, held) == 0 && symlink(base + 1, path) < 0)
		fprintf(stderr, "shoal: cannot link %s to %s: %s\n", path, o->shared,
			strerror(errno));
}

static char *copy_path(int index, const struct shl_copy *c)
{
	char *path = NULL;

	if (index == 0)
		return strdup(c->path);
	if (asprintf(&path, "%s.rank%d", shl_objects.objects[index]->shared, c->rank) < 0)
		return NULL;
	return path;
}

/* Whether the loader holds rank `c`'s copy of object `index` (the program and what copies
 * need; a plug-in's handle is the program's). */
static bool holds(const struct shl_copy *c, int index)
{
	for (int k = 0; k < c->norder; k++)
		if (c->order[k] == index)
			return true;
	return false;
}

/* Whether rank `c` has object `index` loaded: one the loader holds, or a plug-in the
 * program has not closed. */
static bool live(struct shl_copy *c, int index)
{
	char *path;
	void *h;

	if (!c->objects[index])
		return false;
	if (holds(c, index))
		return true;
	path = copy_path(index, c);
	h = path ? shl_loader_dlopen(path, RTLD_LAZY | RTLD_NOLOAD) : NULL;
	free(path);
	if (h)
		dlclose(h);
	else
		c->objects[index] = NULL;
	return h != NULL;
}

/* The objects rank `c` has yet to load for object `index`, dependencies first (the order the
 * dynamic linker runs their constructors in), appended to loads[0..*nloads). */
static void order_loads(struct shl_copy *c, int index, bool *seen, int *loads, int *nloads)
{
	const struct shl_object *o = shl_objects.objects[index];

	if (seen[index])
		return;
	seen[index] = true;
	for (int k = 0; k < o->ndeps; k++)
		order_loads(c, o->deps[k], seen, loads, nloads);
	if (!live(c, index))
		loads[(*nloads)++] = index;
}

/* Load object `target` and what it needs for rank `c`, with shl_objects.lock held. Returns
 * the rank's copy (a new reference of the caller's own if `reference`), or NULL with `err`
 * set. */
static void *load(struct shl_copy *c, int target, int mode, bool reference, char *err,
		  size_t errlen)
{
	int loads[SHL_OBJECTS_MAX], nloads = 0, npre = 0;
	bool seen[SHL_OBJECTS_MAX] = { false }, whole = debugged(), ok = true;
	void **pre = NULL, *h = NULL;
	bool writable;
	struct written *w = calloc((size_t)SHL_OBJECTS_MAX, sizeof(*w));
	char *paths[SHL_OBJECTS_MAX] = { NULL };
	int fds[SHL_OBJECTS_MAX];

	if (!w) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	order_loads(c, target, seen, loads, &nloads);
	for (int t = 0; t < nloads; t++)
		fds[t] = -1;
	/* The shared libraries the copies need, loaded as the walk found them. */
	for (int t = 0; t < nloads; t++) {
		const struct shl_object *o = shl_objects.objects[loads[t]];
		void **more = o->npreload ? realloc(pre, (size_t)(npre + o->npreload) *
						    sizeof(*more)) : pre;

		if (!more)
			break;
		pre = more;
		for (int k = 0; k < o->npreload; k++)
			pre[npre++] = shl_loader_dlopen(o->preload[k], RTLD_NOW | RTLD_LOCAL);
	}
	for (int t = 0; t < nloads && ok; t++) {
		int i = loads[t], e;
		bool user = i == target && i != 0;

		paths[t] = copy_path(i, c);
		if (!paths[t]) {
			snprintf(err, errlen, "out of memory");
			ok = false;
			break;
		}
		e = make_copy(i, c, paths[t], whole, &w[t], &fds[t]);
		if (e) {
			snprintf(err, errlen, "cannot copy %s to %s: %s",
				 shl_objects.objects[i]->shared, paths[t], strerror(-e));
			ok = false;
			break;
		}
		/* Constructors run here, in the rank's thread; RTLD_GLOBAL would bind every
		 * rank's lookups to this rank's copy. */
		c->objects[i] = shl_loader_dlopen(paths[t], user ? ((mode & ~(RTLD_GLOBAL |
						  RTLD_NOLOAD)) | RTLD_LOCAL) : RTLD_NOW | RTLD_LOCAL);
		if (!c->objects[i]) {
			snprintf(err, errlen, "%s", dlerror());
			ok = false;
			break;
		}
		if (!user)
			c->order[c->norder++] = (unsigned char)i;
	}
	/* After the constructors: one of them may have started threads of the rank. */
	writable = shl_job_rank_threads(c->rank) == 0;
	for (int t = 0; t < nloads; t++) {
		const struct shl_object *o = shl_objects.objects[loads[t]];

		if (ok && share_pages(o, c->objects[loads[t]], &w[t], writable) && !whole)
			finish_file(o, paths[t], fds[t]);
		if (fds[t] >= 0)
			close(fds[t]);
		free(paths[t]);
		free(w[t].r);
	}
	for (int k = 0; k < npre; k++)
		if (pre[k])
			dlclose(pre[k]);
	free(pre);
	free(w);
	if (!ok)
		return NULL;
	h = c->objects[target];
	if (reference && (nloads == 0 || loads[nloads - 1] != target ||
			  holds(c, target))) {
		char *path = copy_path(target, c);

		/* Loaded already, or held by the loader: the caller gets a reference of its own. */
		h = path ? shl_loader_dlopen(path, (mode & ~RTLD_GLOBAL) | RTLD_NOLOAD) : NULL;
		free(path);
	}
	return h;
}

void shl_rank_load_program(struct shl_copy *c)
{
	char err[PATH_MAX + 256];
	void *h;

	pthread_mutex_lock(&shl_objects.lock);
	h = load(c, 0, RTLD_NOW | RTLD_LOCAL, false, err, sizeof(err));
	pthread_mutex_unlock(&shl_objects.lock);
	if (!h)
		shl_job_abort(1, "rank %d: cannot load %s: %s", c->rank, shl_loader.program, err);
}

/* A copy's ELF destructors (.fini_array in reverse, then DT_FINI), as dlclose runs them,
 * without unmapping it. Their addresses in the dynamic section are relative to the copy's
 * base (glibc relocates only the tags its lookups use). */
static void run_fini(void *handle)
{
	struct link_map *map = NULL;
	ElfW(Addr) array = 0, fini = 0;
	size_t count = 0;

	if (dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || !map)
		return;
	for (ElfW(Dyn) *d = map->l_ld; d->d_tag != DT_NULL; d++)
		if (d->d_tag == DT_FINI_ARRAY)
			array = d->d_un.d_ptr;
		else if (d->d_tag == DT_FINI_ARRAYSZ)
			count = d->d_un.d_val / sizeof(ElfW(Addr));
		else if (d->d_tag == DT_FINI)
			fini = d->d_un.d_ptr;
	if (array)
		for (ElfW(Addr) *f = (ElfW(Addr) *)(map->l_addr + array) + count;
		     f-- > (ElfW(Addr) *)(map->l_addr + array);)
			((void (*)(void))*f)();
	if (fini)
		((void (*)(void))(map->l_addr + fini))();
}

void shl_rank_unload(struct shl_copy *c, bool mapped)
{
	/* The reverse of the order they were loaded in: the program before its libraries. */
	for (int k = c->norder; k-- > 0;) {
		void *h = c->objects[c->order[k]];

		if (mapped)
			run_fini(h);
		else if (dlclose(h) != 0)
			fprintf(stderr, "shoal: rank %d: dlclose: %s\n", c->rank, dlerror());
	}
}

/* The rank whose copies a thread's dlopen loads: the rank's own thread, or one it created. */
static struct shl_copy *rank_of_thread(void)
{
	int rank;

	if (shl_loader_self)
		return shl_loader_self;
	rank = shl_job_my_rank();
	for (int k = 0; rank >= 0 && k < shl_loader.nranks; k++)
		if (shl_loader.copies[k].rank == rank)
			return &shl_loader.copies[k];
	return NULL;
}

/* dlopen, for every caller in the node: a file that is a private object (it needs Shoal's
 * libmpi.so, SHOAL_PRIVATE_LIBS names it, or it needs a private library) opened by a rank is
 * loaded as that rank's own copy; anything else, and any call outside a rank, is glibc's.
 * A name without a slash is looked for as the program's own lookups would. */
SHL_LOADER_EXPORT void *dlopen(const char *file, int mode)
{
	struct shl_copy *c = file ? rank_of_thread() : NULL;
	const struct shl_object *prog;
	char why[PATH_MAX + 256], *path;
	struct stat st;
	int index = -1;
	void *h;

	if (!c || !c->objects[0] || atomic_load(&shl_objects.n) == 0)
		return shl_loader_dlopen(file, mode);
	prog = shl_objects.objects[0];
	path = strchr(file, '/') ? strdup(file) :
		shl_lib_search(file, &(struct shl_search_from){ .origin = prog->origin,
			       .rpath = prog->rpath, .runpath = prog->runpath }, NULL);
	if (!path || stat(path, &st) < 0) {
		free(path);
		return shl_loader_dlopen(file, mode);
	}
	pthread_mutex_lock(&shl_objects.lock);
	for (int k = 0; k < atomic_load(&shl_objects.n) && index < 0; k++)
		if (shl_objects.objects[k]->dev == st.st_dev && shl_objects.objects[k]->ino == st.st_ino)
			index = k;
	if (index < 0)
		index = shl_objects_add(path, why, sizeof(why));
	if (index == -1) {
		pthread_mutex_unlock(&shl_objects.lock);
		h = shl_loader_dlopen(strchr(file, '/') ? file : path, mode);
		free(path);
		return h;
	}
	if (index >= 0 && (mode & RTLD_NOLOAD)) {
		/* Only a copy the rank has loaded: a new reference to it, else NULL. */
		char *copy = live(c, index) ? copy_path(index, c) : NULL;

		h = copy ? shl_loader_dlopen(copy, mode & ~RTLD_GLOBAL) : NULL;
		pthread_mutex_unlock(&shl_objects.lock);
		free(copy);
		free(path);
		return h;
	}
	h = index >= 0 ? load(c, index, mode, true, why, sizeof(why)) : NULL;
	pthread_mutex_unlock(&shl_objects.lock);
	if (!h)
		fprintf(stderr, "shoal: rank %d: dlopen %s: %s\n", c->rank, file, why);
	free(path);
	return h;
}
