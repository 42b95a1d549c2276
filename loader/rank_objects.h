/* The node's private objects: the program and the libraries loaded once per rank, and what
 * each rank's copy of one must change (loader/rank_objects.c). Loading them is
 * loader/rank_load.c's. */
#ifndef SHL_LOADER_RANK_OBJECTS_H
#define SHL_LOADER_RANK_OBJECTS_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* One base-62 character names an object in a per-rank soname, three a node's rank. */
#define SHL_OBJECTS_MAX 62
#define SHL_OBJECTS_RANKS_MAX (62 * 62 * 62)
/* A per-rank soname: what is left of the soname, '~', the object, the rank. */
#define SHL_OBJECTS_NAME_MIN 5

/* A string of an object's dynamic string table that each rank's copy renames: the soname of
 * a private library, and in the objects that need one, its DT_NEEDED name (and the
 * version-requirement entry naming it). */
struct shl_patch {
	off_t at;     /* file offset of the string */
	size_t len;   /* its length without the NUL */
	int object;   /* the private object whose per-rank name goes there */
};

/* A dynamic symbol that the C++ compiler made STB_GNU_UNIQUE (a static in an inline
 * function, a template's static member): the dynamic linker binds every object to the first
 * such definition it loaded, which would be one rank's for every rank, and keeps that copy
 * loaded for ever. In a rank's copy it becomes STB_GLOBAL: the rank's own. */
struct shl_binding {
	off_t at;             /* file offset of the symbol's st_info */
	unsigned char info;   /* st_info to write there */
};

/* A PT_LOAD segment, as the file describes it. */
struct shl_segment {
	uint64_t vaddr, offset, filesz, memsz;
	int prot;     /* PROT_* of its p_flags */
};

/* Set once, when the object enters the node's table, and never changed after. */
struct shl_object {
	char *path;          /* the file the dynamic linker would load */
	char *soname;        /* DT_SONAME (the program may have none) */
	char *shared;        /* its copy in the job directory (every rank maps its pages) */
	int shared_fd;       /* open on `shared` */
	bool program;        /* objects[0]: the program mpiexec runs */
	dev_t dev;           /* of `path`: a library is the same object when dev and ino are */
	ino_t ino;
	size_t name_len;     /* length of a rank's soname for it (libraries) */
	struct shl_patch *patches;  /* its own soname and the names of private ones it needs */
	int npatches;
	struct shl_binding *unique;  /* its STB_GNU_UNIQUE definitions */
	int nunique;
	int *deps;           /* indices of the private objects it needs, in DT_NEEDED order */
	int ndeps;
	/* The shared libraries it needs, as the walk found them: loaded by path before a rank's
	 * copy, whose own lookups would search from the job directory (its $ORIGIN) and miss
	 * what a process finds loaded already (a library the program needed first). */
	char **preload;
	int npreload;
	struct shl_segment *segs;
	int nsegs;
	uint64_t relro_vaddr, relro_size;  /* PT_GNU_RELRO, or 0 */
	off_t load_end;      /* bytes of the file that loading reads: to the last PT_LOAD's end */
	off_t size;          /* bytes of the whole file */
	size_t data_bytes;   /* bytes of its writable segments (one rank's data, at most) */
	/* Where the dynamic linker looks for what it needs (loader/lib_search.h). */
	char *origin, *rpath, *runpath;
};

/* The node's table. Rank threads read objects[0..n) without the lock (an object and its
 * slot never change once n covers it: n is stored with release); adding one takes `lock`,
 * which also serialises loading (loader/rank_load.c). */
struct shl_objects {
	pthread_mutex_t lock;
	struct shl_object *objects[SHL_OBJECTS_MAX];
	_Atomic int n;
	const char *jobdir;
};

extern struct shl_objects shl_objects;

/* Node main thread, before ranks start: read the program's library closure, decide which
 * objects are private, copy each of them once into `jobdir`. On a refusal (a library built
 * with another MPI, one that cannot be private, a missing one) prints the reason on stderr
 * and returns the exit status to end with (1, or 127 for a missing library, as a process
 * would); 0 on success. */
int shl_objects_setup(const char *jobdir, const char *program);

/* Rank thread, holding shl_objects.lock: the index of the private object for the file at
 * `path` (a plug-in the rank dlopens), adding it and the private libraries it needs to the
 * table (copied once into the job directory); -1 if it is not private (glibc's dlopen
 * takes it), or -2 with `why` set if it cannot be loaded per rank. */
int shl_objects_add(const char *path, char *why, size_t whylen);

/* Any thread: copy bytes [0, len) of file `in` to the same offsets of `out`, neither file
 * offset moved. 0 or -errno (-EIO if `in` is shorter). */
int shl_objects_copy_bytes(int in, int out, off_t len);

/* The per-rank soname of private library `object` for the node's rank `local` (0-based, on
 * this node): `name_len` bytes and a NUL into `out`. */
void shl_objects_rank_name(int object, int local, char *out);

#endif
