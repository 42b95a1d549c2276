/* The node's private objects: the program and every library loaded once per rank, found by
 * walking DT_NEEDED from the program (and from each plug-in a rank dlopens). A library is
 * private when it needs Shoal's libmpi.so, when SHOAL_PRIVATE_LIBS names it, when it is one
 * of the run-time libraries below (per_rank_runtimes), or when it needs a private library
 * (its DT_NEEDED would otherwise bind every rank to one copy). For
 * each, this file records what a rank's copy must change so that each rank's objects bind
 * to each other: the library's soname and, in the objects that need it, its DT_NEEDED name
 * become a name of the same length that only that rank's copies carry. Files are read with
 * libelf; each object is copied once into the job directory, the copy every rank's pages
 * come from (loader/rank_load.c).
 * Entered by the node's main thread (shl_objects_setup, before ranks start) and by rank
 * threads holding shl_objects.lock (shl_objects_add, for a plug-in). An object never
 * changes once published in the table. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <link.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loader/lib_search.h"
#include "loader/loader_internal.h"
#include "loader/rank_objects.h"

struct shl_objects shl_objects = { .lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP };

/* One DT_NEEDED entry of a file in a walk. */
struct need {
	char *name;
	off_t at;        /* file offset of its string */
	off_t str;       /* the string's offset in the dynamic string table */
	off_t vn_at;     /* of the version-requirement entry's file name, if another, else -1 */
	int node;        /* the walk's node it names, or -1 (Shoal's libmpi.so, another MPI) */
};

/* One file of a walk: what deciding and copying need of it. */
struct node {
	char *path;
	struct stat st;
	char *soname;
	off_t soname_at, soname_str;  /* file and string-table offsets of the soname */
	struct need *needs;
	int nneeds;
	off_t *strings;  /* every dynamic-string offset the file refers to, to find shared tails */
	int nstrings;
	struct shl_binding *unique;
	int nunique;
	bool needs_libmpi, glibc, static_tls, textrel;
	const char *other_mpi;   /* the MPI of a library of another MPI it needs */
	const char *other_name;
	struct shl_segment *segs;
	int nsegs;
	uint64_t relro_vaddr, relro_size;
	off_t load_end;
	size_t data_bytes;
	char *origin, *rpath, *runpath;
	struct shl_search_from from;
	int loader;      /* the node that first needed it, or -1: whose DT_RPATH it inherits */
	int object;      /* index in the node's table if published there, else -1 */
	bool private_;
};

struct walk {
	struct node *nodes;
	int n, cap;
	char *why;
	size_t whylen;
	int status;      /* exit status of a refusal */
};

/* SHOAL_PRIVATE_LIBS, split at ':'; read once by the main thread before ranks start. */
static char **named;
static int nnamed;
/* Run-time libraries of a language that keep per-process state which its programs expect
 * to own, private without being named (by stem, as SHOAL_PRIVATE_LIBS names): libgfortran
 * holds the table of open units (OPEN(unit=10) in every rank at once, each to its own
 * file), the command-line arguments GET_COMMAND_ARGUMENT returns (set by each program's
 * main), the preconnected units' buffers and the options of the program's own main
 * (_gfortran_set_options); one copy for a node's ranks would share all of it. */
static const char *const per_rank_runtimes[] = { "libgfortran" };
/* Shoal's libmpi.so, by file identity: a library may name it under another path. */
static dev_t libmpi_dev;
static ino_t libmpi_ino;

static const char *base_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static void free_node(struct node *n)
{
	for (int k = 0; k < n->nneeds; k++)
		free(n->needs[k].name);
	free(n->needs);
	free(n->strings);
	free(n->unique);
	free(n->path);
	free(n->soname);
	free(n->segs);
	free(n->origin);
	free(n->rpath);
	free(n->runpath);
}

static void free_walk(struct walk *w)
{
	for (int k = 0; k < w->n; k++)
		free_node(&w->nodes[k]);
	free(w->nodes);
}

static bool add_string(struct node *n, off_t at)
{
	off_t *more = realloc(n->strings, (size_t)(n->nstrings + 1) * sizeof(*more));

	if (!more)
		return false;
	n->strings = more;
	n->strings[n->nstrings++] = at;
	return true;
}

static int prot_of(GElf_Word flags)
{
	return (flags & PF_R ? PROT_READ : 0) | (flags & PF_W ? PROT_WRITE : 0) |
	       (flags & PF_X ? PROT_EXEC : 0);
}

/* The program headers: PT_LOAD segments, PT_GNU_RELRO. */
static int read_segments(Elf *e, struct node *n)
{
	size_t count;

	if (elf_getphdrnum(e, &count) != 0)
		return -1;
	n->segs = calloc(count ? count : 1, sizeof(*n->segs));
	if (!n->segs)
		return -1;
	for (size_t i = 0; i < count; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(e, (int)i, &ph))
			return -1;
		if (ph.p_type == PT_GNU_RELRO) {
			n->relro_vaddr = ph.p_vaddr;
			n->relro_size = ph.p_memsz;
		}
		if (ph.p_type != PT_LOAD)
			continue;
		n->segs[n->nsegs++] = (struct shl_segment){ .vaddr = ph.p_vaddr,
			.offset = ph.p_offset, .filesz = ph.p_filesz, .memsz = ph.p_memsz,
			.prot = prot_of(ph.p_flags) };
		if ((off_t)(ph.p_offset + ph.p_filesz) > n->load_end)
			n->load_end = (off_t)(ph.p_offset + ph.p_filesz);
		if (ph.p_flags & PF_W)
			n->data_bytes += ph.p_memsz;
	}
	return 0;
}

/* The dynamic section: DT_NEEDED, DT_SONAME, DT_RPATH, DT_RUNPATH, static TLS and text
 * relocation flags, with each string's file offset (dynstr's section offset + d_val). */
static int read_dynamic(Elf *e, Elf_Scn *scn, GElf_Shdr *sh, struct node *n)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	Elf_Scn *strscn = elf_getscn(e, sh->sh_link);
	GElf_Shdr strsh;

	if (!d || !strscn || !gelf_getshdr(strscn, &strsh))
		return -1;
	for (size_t i = 0; i < sh->sh_size / sizeof(Elf64_Dyn); i++) {
		GElf_Dyn dyn;
		const char *s;

		if (!gelf_getdyn(d, (int)i, &dyn) || dyn.d_tag == DT_NULL)
			break;
		if (dyn.d_tag == DT_FLAGS && (dyn.d_un.d_val & DF_STATIC_TLS))
			n->static_tls = true;
		if (dyn.d_tag == DT_TEXTREL ||
		    (dyn.d_tag == DT_FLAGS && (dyn.d_un.d_val & DF_TEXTREL)))
			n->textrel = true;
		if (dyn.d_tag != DT_NEEDED && dyn.d_tag != DT_SONAME && dyn.d_tag != DT_RPATH &&
		    dyn.d_tag != DT_RUNPATH)
			continue;
		s = elf_strptr(e, sh->sh_link, dyn.d_un.d_val);
		if (!s || !add_string(n, (off_t)dyn.d_un.d_val))
			return -1;
		if (dyn.d_tag == DT_NEEDED) {
			struct need *more = realloc(n->needs, (size_t)(n->nneeds + 1) *
						    sizeof(*more));

			if (!more)
				return -1;
			n->needs = more;
			n->needs[n->nneeds++] = (struct need){
				.name = strdup(s), .node = -1, .vn_at = -1,
				.str = (off_t)dyn.d_un.d_val, .at = (off_t)(strsh.sh_offset + dyn.d_un.d_val) };
			if (!n->needs[n->nneeds - 1].name)
				return -1;
		} else {
			char **to = dyn.d_tag == DT_SONAME ? &n->soname :
				    dyn.d_tag == DT_RPATH ? &n->rpath : &n->runpath;

			free(*to);
			if (!(*to = strdup(s)))
				return -1;
			if (dyn.d_tag == DT_SONAME) {
				n->soname_at = (off_t)(strsh.sh_offset + dyn.d_un.d_val);
				n->soname_str = (off_t)dyn.d_un.d_val;
			}
		}
	}
	return 0;
}

/* Version requirements (their file names must follow a renamed DT_NEEDED) and definitions
 * (glibc's libraries define GLIBC_2.x), and the dynamic symbols' names. */
static int read_versions_and_names(Elf *e, Elf_Scn *scn, GElf_Shdr *sh, struct node *n)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	Elf_Scn *strscn = elf_getscn(e, sh->sh_link);
	GElf_Shdr strsh;
	size_t off = 0;

	if (!d || !strscn || !gelf_getshdr(strscn, &strsh))
		return -1;
	if (sh->sh_type == SHT_DYNSYM) {
		for (size_t i = 0; i < sh->sh_size / sizeof(Elf64_Sym); i++) {
			GElf_Sym sym;

			if (!gelf_getsym(d, (int)i, &sym))
				continue;
			if (sym.st_name && !add_string(n, (off_t)sym.st_name))
				return -1;
			if (GELF_ST_BIND(sym.st_info) == STB_GNU_UNIQUE && sym.st_shndx != SHN_UNDEF) {
				struct shl_binding *more = realloc(n->unique, (size_t)(n->nunique + 1) *
								   sizeof(*more));

				if (!more)
					return -1;
				n->unique = more;
				n->unique[n->nunique++] = (struct shl_binding){
					.at = (off_t)(sh->sh_offset + i * sizeof(Elf64_Sym) +
						      offsetof(Elf64_Sym, st_info)),
					.info = (unsigned char)GELF_ST_INFO(STB_GLOBAL,
									    GELF_ST_TYPE(sym.st_info)) };
			}
		}
		return 0;
	}
	for (size_t k = 0; k < sh->sh_info; k++) {
		if (sh->sh_type == SHT_GNU_verneed) {
			GElf_Verneed vn;
			size_t aux;
			const char *file;

			if (!gelf_getverneed(d, (int)off, &vn))
				return -1;
			file = elf_strptr(e, sh->sh_link, vn.vn_file);
			if (!add_string(n, (off_t)vn.vn_file))
				return -1;
			for (int j = 0; file && j < n->nneeds; j++)
				if (!strcmp(n->needs[j].name, file) &&
				    (off_t)(strsh.sh_offset + vn.vn_file) != n->needs[j].at)
					n->needs[j].vn_at = (off_t)(strsh.sh_offset + vn.vn_file);
			aux = off + vn.vn_aux;
			for (size_t j = 0; j < vn.vn_cnt; j++) {
				GElf_Vernaux va;

				if (!gelf_getvernaux(d, (int)aux, &va) ||
				    !add_string(n, (off_t)va.vna_name))
					return -1;
				aux += va.vna_next;
			}
			if (!vn.vn_next)
				break;
			off += vn.vn_next;
		} else {
			GElf_Verdef vd;
			size_t aux;

			if (!gelf_getverdef(d, (int)off, &vd))
				return -1;
			aux = off + vd.vd_aux;
			for (size_t j = 0; j < vd.vd_cnt; j++) {
				GElf_Verdaux va;
				const char *name;

				if (!gelf_getverdaux(d, (int)aux, &va) ||
				    !add_string(n, (off_t)va.vda_name))
					return -1;
				name = elf_strptr(e, sh->sh_link, va.vda_name);
				if (name && (!strncmp(name, "GLIBC_2", 7) ||
					     !strcmp(name, "GLIBC_PRIVATE")))
					n->glibc = true;
				aux += va.vda_next;
			}
			if (!vd.vd_next)
				break;
			off += vd.vd_next;
		}
	}
	return 0;
}

/* Read file `n->path` into `n`. -1 with `why` set if it is not a 64-bit x86 ELF object. */
static int read_node(struct node *n, char *why, size_t whylen)
{
	int fd = open(n->path, O_RDONLY | O_CLOEXEC), err = -1;
	Elf *e = NULL;
	GElf_Ehdr eh;
	Elf_Scn *scn = NULL;
	char dir[PATH_MAX];

	if (fd < 0 || fstat(fd, &n->st) < 0) {
		snprintf(why, whylen, "%s: %s", n->path, strerror(errno));
		goto out;
	}
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != EM_X86_64) {
		snprintf(why, whylen, "%s is not a 64-bit x86 ELF object", n->path);
		goto out;
	}
	if (read_segments(e, n) < 0)
		goto bad;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh))
			goto bad;
		if (sh.sh_type == SHT_DYNAMIC && read_dynamic(e, scn, &sh, n) < 0)
			goto bad;
	}
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && (sh.sh_type == SHT_GNU_verneed ||
		    sh.sh_type == SHT_GNU_verdef || sh.sh_type == SHT_DYNSYM) &&
		    read_versions_and_names(e, scn, &sh, n) < 0)
			goto bad;
	}
	if (!realpath(n->path, dir))
		snprintf(dir, sizeof(dir), "%s", n->path);
	*strrchr(dir, '/') = '\0';
	if (!(n->origin = strdup(dir[0] ? dir : "/")))
		goto bad;
	n->from = (struct shl_search_from){ .origin = n->origin, .rpath = n->rpath,
					    .runpath = n->runpath };
	err = 0;
	goto out;
bad:
	snprintf(why, whylen, "%s: cannot read its ELF headers: %s", n->path,
		 elf_errmsg(-1) ? elf_errmsg(-1) : "out of memory");
out:
	if (e)
		elf_end(e);
	if (fd >= 0)
		close(fd);
	return err;
}

/* The node of the walk for `path`, added if new (by file identity). -1 on failure. */
static int node_for(struct walk *w, const char *path, int loader)
{
	struct stat st;
	struct node *n;

	if (stat(path, &st) == 0)
		for (int k = 0; k < w->n; k++)
			if (w->nodes[k].st.st_dev == st.st_dev && w->nodes[k].st.st_ino == st.st_ino)
				return k;
	if (w->n == w->cap) {
		int cap = w->cap ? 2 * w->cap : 16;
		struct node *more = realloc(w->nodes, (size_t)cap * sizeof(*more));

		if (!more)
			return -1;
		w->nodes = more;
		w->cap = cap;
	}
	n = &w->nodes[w->n];
	*n = (struct node){ .path = strdup(path), .object = -1, .soname_at = -1 };
	if (!n->path || read_node(n, w->why, w->whylen) < 0) {
		if (!n->path)
			snprintf(w->why, w->whylen, "out of memory");
		free_node(n);
		return -1;
	}
	w->n++;
	n->loader = loader;
	for (int k = 0; k < atomic_load(&shl_objects.n); k++) {
		struct shl_object *o = shl_objects.objects[k];

		if (o->dev == n->st.st_dev && o->ino == n->st.st_ino)
			n->object = k;
	}
	return w->n - 1;
}

/* The file of the object the node process has loaded under `name` (malloc'd), or NULL. */
static char *loaded(const char *name)
{
	void *h = strchr(name, '/') ? NULL : shl_loader_dlopen(name, RTLD_LAZY | RTLD_NOLOAD);
	struct link_map *map = NULL;
	char *path = NULL;

	if (h && dlinfo(h, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name[0])
		path = strdup(map->l_name);
	if (h)
		dlclose(h);
	return path;
}

/* The node the walk has loaded under `name` (a DT_NEEDED name it was found by, or its
 * soname), or -1. */
static int known(const struct walk *w, const char *name)
{
	for (int m = 0; m < w->n; m++) {
		if (w->nodes[m].soname && !strcmp(w->nodes[m].soname, name))
			return m;
		for (int k = 0; k < w->nodes[m].nneeds; k++)
			if (w->nodes[m].needs[k].node >= 0 && !strcmp(w->nodes[m].needs[k].name, name))
				return w->nodes[m].needs[k].node;
	}
	return -1;
}

/* Where the dynamic linker would find each DT_NEEDED of every node, adding nodes as they
 * are found (breadth first, as it loads). Shoal's libmpi.so is loaded by the node already;
 * libraries of other MPIs are only noted. Returns 0, or the status to end with (`why`
 * set). */
static int walk(struct walk *w, const char *root)
{
	if (node_for(w, root, -1) < 0)
		return w->status = 1;
	for (int i = 0; i < w->n; i++) {
		for (int k = 0; k < w->nodes[i].nneeds; k++) {
			struct need *nd = &w->nodes[i].needs[k];
			const char *mpi = shl_loader_other_mpi(nd->name);
			char *path;
			int j;

			if (!strcmp(nd->name, "libmpi.so")) {
				w->nodes[i].needs_libmpi = true;
				continue;
			}
			if (mpi) {
				w->nodes[i].other_mpi = mpi;
				w->nodes[i].other_name = nd->name;
				continue;
			}
			/* A name the dynamic linker has loaded already (needed under it, or a
			 * soname) is that object, wherever the requester would look. */
			j = known(w, nd->name);
			if (j >= 0) {
				nd->node = j;
				continue;
			}
			/* Nodes move as the array grows: the chain is linked again each time. */
			for (int m = 0; m < w->n; m++)
				w->nodes[m].from.loader = w->nodes[m].loader >= 0 ?
					&w->nodes[w->nodes[m].loader].from : NULL;
			path = loaded(nd->name);
			if (!path)
				path = shl_lib_search(nd->name, &w->nodes[i].from, NULL);
			if (!path) {
				snprintf(w->why, w->whylen, "error while loading shared libraries: "
					 "%s: cannot open shared object file: No such file or "
					 "directory", nd->name);
				return w->status = 127;
			}
			j = node_for(w, path, i);
			free(path);
			if (j < 0)
				return w->status = 1;
			w->nodes[i].needs[k].node = j;
		}
	}
	return 0;
}

/* Whether one of `list` names node `n`, as first needed under `asked`: by soname, by the
 * name it was needed by, by file name or path, or by a stem ("libfoo" for libfoo.so*). */
static bool named_in(const struct node *n, const char *asked, const char *const *list,
		     int count)
{
	const char *names[] = { n->soname, asked, base_of(n->path), n->path };

	for (int k = 0; k < count; k++)
		for (size_t j = 0; j < sizeof(names) / sizeof(names[0]); j++) {
			size_t len = strlen(list[k]);

			if (!names[j])
				continue;
			if (!strcmp(names[j], list[k]) ||
			    (!strncmp(names[j], list[k], len) && !strncmp(names[j] + len, ".so", 3)))
				return true;
		}
	return false;
}

/* Whether SHOAL_PRIVATE_LIBS names node `n` or it is a per-rank run-time library. */
static bool is_named(const struct node *n, const char *asked)
{
	return named_in(n, asked, (const char *const *)named, nnamed) ||
	       named_in(n, asked, per_rank_runtimes,
			(int)(sizeof(per_rank_runtimes) / sizeof(per_rank_runtimes[0])));
}

/* The name node `i` was first needed under (or its file name, for the walk's root). */
static const char *asked_name(const struct walk *w, int i)
{
	for (int m = 0; m < w->n; m++)
		for (int k = 0; k < w->nodes[m].nneeds; k++)
			if (w->nodes[m].needs[k].node == i)
				return w->nodes[m].needs[k].name;
	return base_of(w->nodes[i].path);
}

/* Mark the private nodes: the program, what needs libmpi.so or is named, what is private in
 * the table already, and what needs any of those. */
static void decide(struct walk *w, bool root_is_program)
{
	bool changed = true;

	for (int i = 0; i < w->n; i++) {
		struct node *n = &w->nodes[i];

		n->private_ = (i == 0 && root_is_program) || n->needs_libmpi || n->object >= 0 ||
			      is_named(n, asked_name(w, i));
	}
	while (changed) {
		changed = false;
		for (int i = 0; i < w->n; i++)
			for (int k = 0; k < w->nodes[i].nneeds && !w->nodes[i].private_; k++) {
				int j = w->nodes[i].needs[k].node;

				if (j >= 0 && w->nodes[j].private_)
					changed = w->nodes[i].private_ = true;
			}
	}
}

/* Whether another dynamic string of `n` starts inside the string at table offset `off`
 * (the linker shares a string's tail with a shorter one): renaming would change it too. */
static bool tail_shared(const struct node *n, off_t off, size_t len)
{
	for (int k = 0; k < n->nstrings; k++)
		if (n->strings[k] > off && n->strings[k] < off + (off_t)len)
			return true;
	return false;
}

/* Why private node `i` cannot be loaded once per rank, or NULL. `len` is the length its
 * per-rank soname gets; `needed`: private objects need it by name (else it is a plug-in,
 * told apart by its path alone). */
static const char *refusal(const struct walk *w, int i, size_t len, bool needed, char *buf,
			   size_t buflen)
{
	const struct node *n = &w->nodes[i];

	if (n->glibc || !strncmp(base_of(n->path), "ld-linux", 8))
		return "it is part of the C library";
	if (n->st.st_dev == libmpi_dev && n->st.st_ino == libmpi_ino)
		return "it is Shoal's own libmpi.so";
	if (n->static_tls)
		return "it has thread-local variables of the initial-exec model (static TLS)";
	if (n->textrel)
		return "it has text relocations";
	if (!n->soname && needed) {
		snprintf(buf, buflen, "it has no soname: link it with -Wl,-soname,%s (Shoal's "
			 "mpicc -shared adds one)", base_of(n->path));
		return buf;
	}
	if (len < SHL_OBJECTS_NAME_MIN && needed) {
		snprintf(buf, buflen, "its soname or the name it is needed by is shorter than %d "
			 "characters, too short to tell the ranks' copies apart",
			 SHL_OBJECTS_NAME_MIN);
		return buf;
	}
	return NULL;
}

/* Length of node `i`'s per-rank soname: the shortest of its soname and the names the
 * private nodes needing it use, since each is renamed in place. */
static size_t name_len(const struct walk *w, int i)
{
	size_t len = w->nodes[i].soname ? strlen(w->nodes[i].soname) : 0;

	for (int m = 0; m < w->n; m++)
		for (int k = 0; k < w->nodes[m].nneeds; k++)
			if (w->nodes[m].private_ && w->nodes[m].needs[k].node == i &&
			    strlen(w->nodes[m].needs[k].name) < len)
				len = strlen(w->nodes[m].needs[k].name);
	return len;
}

static int add_patch(struct shl_object *o, off_t at, size_t len, int object)
{
	struct shl_patch *more;

	for (int k = 0; k < o->npatches; k++)
		if (o->patches[k].at == at)
			return 0;
	more = realloc(o->patches, (size_t)(o->npatches + 1) * sizeof(*more));
	if (!more)
		return -1;
	o->patches = more;
	o->patches[o->npatches++] = (struct shl_patch){ .at = at, .len = len, .object = object };
	return 0;
}

int shl_objects_copy_bytes(int in, int out, off_t len)
{
	off_t done = 0;

	while (done < len) {
		ssize_t n = copy_file_range(in, &done, out, NULL, (size_t)(len - done), 0);

		if (n < 0 && (errno == EXDEV || errno == ENOSYS || errno == EINVAL)) {
			char buf[1 << 16];

			n = pread(in, buf, sizeof(buf) < (size_t)(len - done) ? sizeof(buf) :
				  (size_t)(len - done), done);
			if (n > 0 && pwrite(out, buf, (size_t)n, done) != n)
				n = -1;
			else if (n > 0)
				done += n;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;  /* 0: the file shrank under us */
	}
	return 0;
}

/* Copy `from` whole into the new file `to` (mode 0500: nobody writes it again). */
static int copy_whole(const char *from, const char *to, int *fd_out)
{
	int in = open(from, O_RDONLY | O_CLOEXEC), out, err = 0;
	struct stat st;

	if (in < 0)
		return -errno;
	out = open(to, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0500);
	if (out < 0 || fstat(in, &st) < 0)
		err = -errno;
	else
		err = shl_objects_copy_bytes(in, out, st.st_size);
	close(in);
	if (err && out >= 0) {
		close(out);
		unlink(to);
	} else if (!err) {
		*fd_out = out;
	}
	return err;
}

/* The job-directory file for object `o`: its file name, or with the object's index added
 * when another object has that name already. */
static char *shared_name(const char *jobdir, const char *base, int index)
{
	char *path = NULL;
	struct stat st;

	if (asprintf(&path, "%s/%s", jobdir, base) < 0)
		return NULL;
	if (lstat(path, &st) == 0) {
		free(path);
		if (asprintf(&path, "%s/%s.%d", jobdir, base, index) < 0)
			return NULL;
	}
	return path;
}

/* Publish the private nodes of the walk not yet in the table, in walk order (the root
 * first), each with its patches, dependencies and shared copy. Returns 0, or the status to
 * end with (`why` set). */
static int publish(struct walk *w, const char *root_base)
{
	int next = atomic_load(&shl_objects.n);

	for (int i = 0; i < w->n; i++)
		if (w->nodes[i].private_ && w->nodes[i].object < 0) {
			if (next == SHL_OBJECTS_MAX) {
				snprintf(w->why, w->whylen, "more than %d private objects (the "
					 "program and libraries loaded once per rank)",
					 SHL_OBJECTS_MAX);
				return 1;
			}
			w->nodes[i].object = next++;
		}
	for (int i = 0; i < w->n; i++) {
		struct node *n = &w->nodes[i];
		struct shl_object *o;
		int index = n->object, err;

		if (!n->private_ || index < atomic_load(&shl_objects.n))
			continue;
		o = calloc(1, sizeof(*o));
		if (!o)
			goto oom;
		*o = (struct shl_object){ .path = n->path, .program = index == 0,
			.dev = n->st.st_dev, .ino = n->st.st_ino, .segs = n->segs,
			.nsegs = n->nsegs, .relro_vaddr = n->relro_vaddr,
			.relro_size = n->relro_size, .load_end = n->load_end,
			.size = n->st.st_size, .data_bytes = n->data_bytes, .origin = n->origin,
			.rpath = n->rpath, .runpath = n->runpath, .shared_fd = -1,
			.soname = n->soname, .unique = n->unique, .nunique = n->nunique };
		n->unique = NULL;
		if (index > 0)
			o->name_len = name_len(w, i);
		if (o->name_len >= SHL_OBJECTS_NAME_MIN &&
		    add_patch(o, n->soname_at, strlen(n->soname), index) < 0)
			goto oom;
		n->path = n->soname = NULL;
		n->segs = NULL;
		n->origin = n->rpath = n->runpath = NULL;
		for (int k = 0; k < n->nneeds; k++) {
			const struct need *nd = &n->needs[k];
			const struct node *to = nd->node >= 0 ? &w->nodes[nd->node] : NULL;

			if (to && to->private_) {
				int *more = realloc(o->deps, (size_t)(o->ndeps + 1) * sizeof(*more));

				if (!more || add_patch(o, nd->at, strlen(nd->name), to->object) < 0 ||
				    (nd->vn_at >= 0 &&
				     add_patch(o, nd->vn_at, strlen(nd->name), to->object) < 0))
					goto oom;
				o->deps = more;
				o->deps[o->ndeps++] = to->object;
			} else if (to) {
				char **more = realloc(o->preload, (size_t)(o->npreload + 1) *
						      sizeof(*more));

				if (!more || !(more[o->npreload] = strdup(to->path)))
					goto oom;
				o->preload = more;
				o->npreload++;
			}
		}
		o->shared = shared_name(shl_objects.jobdir, index == 0 ? root_base :
					base_of(o->path), index);
		if (!o->shared)
			goto oom;
		err = copy_whole(o->path, o->shared, &o->shared_fd);
		if (err) {
			snprintf(w->why, w->whylen, "cannot copy %s to %s: %s", o->path, o->shared,
				 strerror(-err));
			return 1;
		}
		shl_objects.objects[index] = o;
		atomic_store_explicit(&shl_objects.n, index + 1, memory_order_release);
	}
	return 0;
oom:
	snprintf(w->why, w->whylen, "out of memory");
	return 1;
}

/* Refusals over the walk: a library of another MPI needed anywhere, a private library that
 * cannot be one (or whose names cannot be renamed in place). Returns 0 or 1 (`why` set). */
static int judge(struct walk *w, bool root_is_program)
{
	char buf[256];

	for (int i = 0; i < w->n; i++) {
		struct node *n = &w->nodes[i];

		/* Beside Shoal's libmpi.so (which comes first in its lookups) another MPI's
		 * library is loaded but unused; without it, the object is that MPI's. */
		if (n->other_mpi && !n->needs_libmpi && !(i == 0 && root_is_program)) {
			snprintf(w->why, w->whylen, "%s (%s, needed by %s) is built with %s (it needs "
				 "%s): rebuild it with Shoal's mpicc -shared", asked_name(w, i),
				 n->path, i == 0 ? "the program" : base_of(w->nodes[n->loader >= 0 ?
				 n->loader : 0].path), n->other_mpi, n->other_name);
			return 1;
		}
	}
	for (int i = 0; i < w->n; i++) {
		struct node *n = &w->nodes[i];
		const char *why;
		size_t len = name_len(w, i);

		if (!n->private_ || n->object >= 0 || (i == 0 && root_is_program))
			continue;
		bool needed = false;

		for (int m = 0; m < w->n; m++)
			for (int k = 0; k < w->nodes[m].nneeds; k++)
				needed |= w->nodes[m].private_ && w->nodes[m].needs[k].node == i;
		why = refusal(w, i, len, needed, buf, sizeof(buf));
		for (int m = 0; !why && m < w->n; m++)
			for (int k = 0; !why && m != i && w->nodes[m].private_ &&
			     k < w->nodes[m].nneeds; k++)
				if (w->nodes[m].needs[k].node == i &&
				    tail_shared(&w->nodes[m], w->nodes[m].needs[k].str,
						strlen(w->nodes[m].needs[k].name)))
					why = "the name it is needed by shares its bytes with "
					      "another name of the object needing it";
		if (!why && len >= SHL_OBJECTS_NAME_MIN &&
		    tail_shared(n, n->soname_str, strlen(n->soname)))
			why = "its soname shares its bytes with another of its names";
		if (why) {
			snprintf(w->why, w->whylen, "cannot load %s (%s) once per rank: %s",
				 asked_name(w, i), n->path, why);
			return 1;
		}
	}
	return 0;
}

static void read_named(void)
{
	const char *env = getenv("SHOAL_PRIVATE_LIBS");
	char *list = env ? strdup(env) : NULL, *save = NULL;

	for (char *s = list ? strtok_r(list, ":", &save) : NULL; s; s = strtok_r(NULL, ":", &save)) {
		char **more = realloc(named, (size_t)(nnamed + 1) * sizeof(*more));

		if (!more)
			break;
		named = more;
		named[nnamed++] = s;  /* points into `list`, kept for the node's life */
	}
}

int shl_objects_setup(const char *jobdir, const char *program)
{
	struct walk w = { 0 };
	char why[PATH_MAX + 512];
	Dl_info info;
	struct stat st;
	int status;

	w.why = why;
	w.whylen = sizeof(why);
	elf_version(EV_CURRENT);
	read_named();
	if (dladdr((void *)shl_objects_setup, &info) && info.dli_fname &&
	    stat(info.dli_fname, &st) == 0) {
		libmpi_dev = st.st_dev;
		libmpi_ino = st.st_ino;
	}
	shl_objects.jobdir = jobdir;
	status = walk(&w, program);
	if (!status) {
		decide(&w, true);
		status = judge(&w, true);
	}
	if (!status)
		status = publish(&w, base_of(program));
	if (status == 127)
		fprintf(stderr, "%s: %s\n", program, why);
	else if (status)
		fprintf(stderr, "shoal: %s\n", why);
	free_walk(&w);
	return status;
}

int shl_objects_add(const char *path, char *why, size_t whylen)
{
	struct walk w = { .why = why, .whylen = whylen };
	int index = -1;

	if (walk(&w, path)) {
		index = -2;
	} else if (decide(&w, false), !w.nodes[0].private_) {
		index = -1;
	} else if (w.nodes[0].object >= 0) {
		index = w.nodes[0].object;
	} else if (judge(&w, false) || publish(&w, base_of(path))) {
		index = -2;
	} else {
		index = w.nodes[0].object;
	}
	free_walk(&w);
	return index;
}

static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

void shl_objects_rank_name(int object, int local, char *out)
{
	const struct shl_object *o = shl_objects.objects[object];
	size_t keep = o->name_len - SHL_OBJECTS_NAME_MIN;

	/* The soname's first characters stay, so the name still says what the library is. */
	memcpy(out, o->soname, keep);
	out[keep] = '~';
	out[keep + 1] = digits[object % 62];
	out[keep + 2] = digits[(local / (62 * 62)) % 62];
	out[keep + 3] = digits[(local / 62) % 62];
	out[keep + 4] = digits[local % 62];
	out[o->name_len] = '\0';
}
