/* lib_search_walk: the libraries a program loads, found with shl_lib_search
 * (loader/lib_search.c) and printed as the dynamic linker's trace (ldd) prints them, for
 * tests/lib_search_matches_the_dynamic_linker.sh. It walks the DT_NEEDED entries breadth
 * first as ld.so does: a name that matches an object already loaded (the name it was asked
 * by, its path, its soname, or the same file) loads nothing; each new object prints
 * "NAME => PATH" ("NAME" alone when the two are equal, "NAME => not found" when missing).
 *   lib_search_walk [-r] [-o] OBJECT
 * -r: OBJECT is run as ld.so's argument (ldd): its $ORIGIN is the directory of the path as
 *     given, not of the file it links to. -o: mark paths found through $ORIGIN with " $ORIGIN".
 * Exits 0, or 2 with "NAME => error: REASON" where ld.so would fail the load. One thread. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loader/lib_search.h"

struct object {
	char *path;     /* ld.so's l_name: the path it was opened by */
	char **names;   /* the names it was asked by */
	int nnames;
	char *soname;
	dev_t dev;
	ino_t ino;
	char **needed;
	int nneeded;
	struct shl_search_from from;
};

static struct object **objects;
static int nobjects;

static void *need(void *p)
{
	if (!p) {
		perror("lib_search_walk");
		exit(3);
	}
	return p;
}

static void add_name(struct object *o, const char *name)
{
	o->names = need(realloc(o->names, (size_t)(o->nnames + 1) * sizeof(*o->names)));
	o->names[o->nnames++] = need(strdup(name));
}

/* The directory ld.so takes as the object's $ORIGIN: its path made absolute, last
 * component removed ("/" stays). */
static char *origin_of(const char *path)
{
	char cwd[PATH_MAX], *abs;

	if (path[0] == '/') {
		abs = need(strdup(path));
	} else {
		need(getcwd(cwd, sizeof(cwd)));
		abs = need(malloc(strlen(cwd) + strlen(path) + 2));
		sprintf(abs, "%s/%s", cwd, path);
	}
	char *slash = strrchr(abs, '/');
	if (slash == abs)
		slash[1] = '\0';
	else
		*slash = '\0';
	return abs;
}

/* Read the dynamic section of the object at `path` into `o`. */
static void read_dynamic(const char *path, struct object *o)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *e;
	Elf_Scn *scn = NULL;

	if (fd < 0 || !(e = elf_begin(fd, ELF_C_READ, NULL))) {
		fprintf(stderr, "lib_search_walk: cannot read %s\n", path);
		exit(3);
	}
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC || !sh.sh_entsize ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Dyn d;
			const char *s;

			if (!gelf_getdyn(data, (int)i, &d) || d.d_tag == DT_NULL)
				break;
			if (d.d_tag != DT_NEEDED && d.d_tag != DT_RPATH && d.d_tag != DT_RUNPATH &&
			    d.d_tag != DT_SONAME)
				continue;
			s = need(elf_strptr(e, sh.sh_link, d.d_un.d_val));
			if (d.d_tag == DT_NEEDED) {
				size_t n = (size_t)(o->nneeded + 1);

				o->needed = need(realloc(o->needed, n * sizeof(char *)));
				o->needed[o->nneeded++] = need(strdup(s));
			} else if (d.d_tag == DT_RPATH) {
				o->from.rpath = need(strdup(s));
			} else if (d.d_tag == DT_RUNPATH) {
				o->from.runpath = need(strdup(s));
			} else {
				o->soname = need(strdup(s));
			}
		}
	}
	elf_end(e);
	close(fd);
}

static struct object *add_object(const char *path, const char *name, const char *origin,
				 const struct shl_search_from *loader)
{
	struct object *o = need(calloc(1, sizeof(*o)));
	struct stat st;

	o->path = need(strdup(path));
	if (name)
		add_name(o, name);
	if (*path && !stat(path, &st)) {
		o->dev = st.st_dev;
		o->ino = st.st_ino;
	}
	o->from.origin = origin;
	o->from.loader = loader;
	objects = need(realloc(objects, (size_t)(nobjects + 1) * sizeof(*objects)));
	objects[nobjects++] = o;
	return o;
}

static struct object *loaded_as(const char *name)
{
	for (int i = 0; i < nobjects; i++) {
		struct object *o = objects[i];

		if (!strcmp(name, o->path) || (o->soname && !strcmp(name, o->soname)))
			return o;
		for (int j = 0; j < o->nnames; j++)
			if (!strcmp(name, o->names[j]))
				return o;
	}
	return NULL;
}

static struct object *same_file(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return NULL;
	for (int i = 1; i < nobjects; i++)
		if (objects[i]->dev == st.st_dev && objects[i]->ino == st.st_ino)
			return objects[i];
	return NULL;
}

int main(int argc, char **argv)
{
	bool rtld = false, marks = false;
	int opt;

	while ((opt = getopt(argc, argv, "ro")) != -1) {
		if (opt == 'r')
			rtld = true;
		else if (opt == 'o')
			marks = true;
		else
			return 3;
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "usage: lib_search_walk [-r] [-o] OBJECT\n");
		return 3;
	}
	const char *prog = argv[optind];
	char real[PATH_MAX];
	elf_version(EV_CURRENT);

	/* The program (ld.so names it "" when it runs it, by its path when it is ld.so's
	 * argument), then the dynamic linker and the vDSO, which ld.so holds before it reads
	 * any DT_NEEDED. */
	need(realpath(prog, real));
	struct object *top = add_object(rtld ? prog : "", rtld ? prog : NULL,
					rtld ? origin_of(prog) : origin_of(real), NULL);
	read_dynamic(prog, top);
	struct object *rtld_map = add_object("/lib64/ld-linux-x86-64.so.2", NULL, NULL, NULL);
	rtld_map->soname = "ld-linux-x86-64.so.2";
	struct object *vdso = add_object("linux-vdso.so.1", NULL, NULL, NULL);
	vdso->soname = "linux-vdso.so.1";

	for (int i = 0; i < nobjects; i++) {
		struct object *o = objects[i];

		for (int j = 0; j < o->nneeded; j++) {
			const char *name = o->needed[j];
			struct object *have = loaded_as(name);
			bool via = false;
			char *path;

			if (have) {
				add_name(have, name);
				continue;
			}
			errno = 0;
			path = shl_lib_search(name, &o->from, &via);
			if (!path && errno != ENOENT) {
				printf("%s => error: %s\n", name, strerror(errno));
				return 2;
			}
			if (!path) {
				printf("%s => not found\n", name);
				continue;
			}
			if ((have = same_file(path))) {
				add_name(have, name);
				free(path);
				continue;
			}
			struct object *lib = add_object(path, name, origin_of(path), &o->from);
			read_dynamic(path, lib);
			if (strcmp(name, path))
				printf("%s => %s%s\n", name, path, marks && via ? " $ORIGIN" : "");
			else
				printf("%s%s\n", name, marks && via ? " $ORIGIN" : "");
			free(path);
		}
	}
	return 0;
}
