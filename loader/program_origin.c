/* $ORIGIN in the program's RUNPATH or RPATH: a rank's copy lives in the job directory, so
 * ld.so would expand $ORIGIN there when loading the copy's libraries. Before each copy is
 * loaded, the libraries that the program, run directly, would find through an $ORIGIN entry
 * are loaded from the program's own directory; ld.so then matches the copy's DT_NEEDED names
 * to them (by soname) instead of searching. Meson build trees and CMake install trees use
 * such RUNPATHs ("$ORIGIN/", "$ORIGIN/../lib").
 * Entered by rank threads (shl_loader_origin_preload, _release); the libraries to load are
 * chosen once, by whichever rank comes first, from what the node read of the program
 * (loader/program_elf.c). */
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loader/loader_internal.h"
#include "loader/program_origin.h"

/* Paths of the libraries to load first, found once per node. */
static struct {
	pthread_once_t once;
	char **paths;
	int npaths;
} origin = { .once = PTHREAD_ONCE_INIT };

/* One search-path entry with $ORIGIN or ${ORIGIN} replaced by dir; *had says whether it
 * had one. NULL if it does not fit PATH_MAX. */
static char *expand(const char *entry, size_t len, const char *dir, bool *had)
{
	char out[PATH_MAX];
	size_t o = 0;

	*had = false;
	for (size_t i = 0; i < len;) {
		size_t skip = 0;

		if (!strncmp(entry + i, "$ORIGIN", 7) && (i + 7 >= len || entry[i + 7] == '/'))
			skip = 7;
		else if (!strncmp(entry + i, "${ORIGIN}", 9))
			skip = 9;
		if (skip) {
			size_t d = strlen(dir);

			if (o + d >= sizeof(out))
				return NULL;
			memcpy(out + o, dir, d);
			o += d;
			i += skip;
			*had = true;
			continue;
		}
		if (o + 1 >= sizeof(out))
			return NULL;
		out[o++] = entry[i++];
	}
	out[o] = '\0';
	return strdup(out);
}

/* Where ld.so, loading the program itself, finds library `name` first: in `list` (a
 * colon-separated path, from the program or LD_LIBRARY_PATH). Returns a path to load now
 * (malloc'd) when that directory came from $ORIGIN, else NULL with *found set if found. */
static char *search(const char *list, const char *name, const char *dir, bool *found)
{
	const char *p = list;

	*found = false;
	while (list && *p) {
		const char *end = strchr(p, ':');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		bool had;
		char *d = len ? expand(p, len, dir, &had) : NULL;
		char *path = NULL;

		if (d && asprintf(&path, "%s/%s", d, name) >= 0 && access(path, R_OK) == 0) {
			free(d);
			*found = true;
			if (had)
				return path;
			free(path);
			return NULL;
		}
		free(path);
		free(d);
		p = end ? end + 1 : p + len;
	}
	return NULL;
}

static void add(char *path)
{
	char **more = realloc(origin.paths, (size_t)(origin.npaths + 1) * sizeof(*more));

	if (!more) {
		free(path);
		return;
	}
	origin.paths = more;
	origin.paths[origin.npaths++] = path;
}

/* Decide what to load first from the program's DT_NEEDED, DT_RUNPATH and DT_RPATH, as the
 * node read them (shl_loader.elf). */
static void find_libraries(void)
{
	const struct shl_program_elf *elf = &shl_loader.elf;
	const char *ldpath = getenv("LD_LIBRARY_PATH");
	/* ld.so's order: DT_RPATH (ignored when DT_RUNPATH exists), LD_LIBRARY_PATH,
	 * DT_RUNPATH, then the system's directories, which have no $ORIGIN. */
	const char *runpath = elf->runpath, *rpath = runpath ? NULL : elf->rpath;
	char real[PATH_MAX], *slash;

	if ((!runpath || !strstr(runpath, "ORIGIN")) && (!rpath || !strstr(rpath, "ORIGIN")))
		return;
	if (!realpath(shl_loader.program, real))
		return;
	slash = strrchr(real, '/');
	*(slash == real ? slash + 1 : slash) = '\0'; /* the program's directory: $ORIGIN */
	for (int k = 0; k < elf->nneeded; k++) {
		const char *name = elf->needed[k];
		char *path = NULL;
		bool found = false;

		if (strchr(name, '/'))
			continue;
		if (rpath)
			path = search(rpath, name, real, &found);
		if (!found)
			path = search(ldpath, name, real, &found);
		if (!found && runpath)
			path = search(runpath, name, real, &found);
		if (path)
			add(path);
	}
}

void **shl_loader_origin_preload(void)
{
	void **handles;

	pthread_once(&origin.once, find_libraries);
	if (!origin.npaths)
		return NULL;
	handles = calloc((size_t)origin.npaths, sizeof(*handles));
	if (!handles)
		return NULL;
	/* A library that does not load here is left to the copy's own dlopen, which names it. */
	for (int k = 0; k < origin.npaths; k++)
		handles[k] = dlopen(origin.paths[k], RTLD_NOW | RTLD_LOCAL);
	return handles;
}

void shl_loader_origin_release(void **handles)
{
	if (!handles)
		return;
	for (int k = 0; k < origin.npaths; k++)
		if (handles[k])
			dlclose(handles[k]);
	free(handles);
}
