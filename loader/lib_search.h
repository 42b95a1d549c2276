/* Which file the dynamic linker (glibc 2.36, x86-64, Debian's multiarch paths) would load
 * for a library name, found without loading it (loader/lib_search.c). Entered by the node's
 * main thread (a program's library closure) and by rank threads (names given to dlopen). */
#ifndef SHL_LOADER_LIB_SEARCH_H
#define SHL_LOADER_LIB_SEARCH_H

#include <stdbool.h>

/* The requesting object, as the dynamic linker sees it when it looks for its DT_NEEDED. */
struct shl_search_from {
	const char *origin;   /* directory of the object's real file: what $ORIGIN expands to */
	const char *rpath;    /* its DT_RPATH string, or NULL */
	const char *runpath;  /* its DT_RUNPATH string, or NULL */
	/* the object that needed it, up to the program; NULL at the top */
	const struct shl_search_from *loader;
};

/* The path (malloc'd) of the file ld.so would load for `name` needed by `from`; NULL with
 * errno ENOENT if none. *via_origin (may be NULL) says whether the directory came from an
 * $ORIGIN search-path entry. Thread-safe (rank threads call it for dlopen).
 *
 * As ld.so does for a DT_NEEDED entry: $ORIGIN, ${ORIGIN}, $LIB and $PLATFORM in `name` are
 * expanded first; a name with a '/' is then that file; any other is searched in the RPATH
 * of `from` and of each loader above it (none when `from` has a RUNPATH; an object's RPATH
 * counts only if it has no RUNPATH), LD_LIBRARY_PATH as it was at process start ($ORIGIN
 * there is the program's: the top of the chain), the RUNPATH of `from`, /etc/ld.so.cache
 * and the default directories; each directory with its glibc-hwcaps and legacy hwcaps
 * subdirectories first. A file of another ELF class or machine is passed over. The path is
 * spelled as ld.so spells it (search-path entry, subdirectory, name), not made canonical.
 * `from` may be NULL: no requester (no $ORIGIN, RPATH or RUNPATH).
 * Other errno values: ELIBBAD when only files of another ELF class were found (ld.so:
 * "wrong ELF class: ELFCLASS32"); ENOEXEC (or the read's errno) when the file ld.so would
 * stop at is not a loadable ELF file (ld.so fails there: "invalid ELF header", "file too
 * short", ...); ENOENT also when $ORIGIN is needed but `origin` is NULL; ENOMEM.
 * The object's DF_1_NODEFLIB (link option -z nodefaultlib) is not known here and not
 * honoured, nor LD_HWCAP_MASK or GLIBC_TUNABLES' hwcaps settings. */
char *shl_lib_search(const char *name, const struct shl_search_from *from, bool *via_origin);

#endif
