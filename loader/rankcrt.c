/* rankcrt.o: linked by mpicc into every program; gives each loaded copy its own getopt
 * variables, the .interp that makes the shared object runnable, and the note the loader checks.
 * Build systems link it through `mpicc -showme:link` and mpi.pc into shared libraries too
 * (the same flags reach executables and libraries); there it stays inert (see register_copy).
 * Entered only by the thread that loads the copy (its constructor); must not use libc state. */
#include <elf.h>
#include <stdint.h>

#include "loader/loader.h"

/* -shared ignores -Wl,--dynamic-linker, so the interpreter path must come from an object. */
const char shl_rankcrt_interp[] __attribute__((section(".interp"), used)) =
	"/lib64/ld-linux-x86-64.so.2";

/* gas gives sections named .note.* the type SHT_NOTE, so ld puts this in a PT_NOTE segment
 * where the loader finds it without section headers. */
struct shl_rankcrt_note {
	Elf64_Nhdr head;
	char name[8]; /* "Shoal" + NUL, padded to 4-byte alignment */
	uint32_t abi;
};
static const struct shl_rankcrt_note note
	__attribute__((section(".note.shoal"), aligned(4), used)) = {
	.head = { .n_namesz = sizeof(SHL_LOADER_NOTE_NAME), .n_descsz = sizeof(uint32_t),
		  .n_type = SHL_LOADER_NOTE_TYPE },
	.name = SHL_LOADER_NOTE_NAME,
	.abi = SHL_LOADER_ABI,
};

/* This copy's own getopt variables: being defined in the object being linked, the program's
 * references bind here instead of to libc's, and libmpi's getopt writes them through the
 * registered pointers. Hidden: no other object can bind to a copy's variables, with or without
 * rank.map, and code compiled -fPIE (which addresses data directly) links against them.
 * Initial values are POSIX's. These are per-copy by construction, not shared mutable state. */
#define SHL_RANKCRT_OWN __attribute__((visibility("hidden")))
SHL_RANKCRT_OWN int optind = 1;
SHL_RANKCRT_OWN int opterr = 1;
SHL_RANKCRT_OWN int optopt = '?';
SHL_RANKCRT_OWN char *optarg;

/* crtbeginS.o defines it (hidden) for this object; __cxa_atexit tags this copy's atexit
 * handlers with it, so passing it to __cxa_finalize runs exactly this rank's handlers. */
extern void *__dso_handle;

/* Scrt1.o's entry point, present only when the object being linked is a program: a shared
 * library linked with the build-system flags leaves it undefined (weak and hidden, so it
 * resolves to 0 at link time and never binds to a program's _start at run time). */
extern char _start[] __attribute__((weak, visibility("hidden")));

/* Priority 101 runs before the user's own constructors, which may call getopt. A library
 * registers nothing: the copy that loads it registers its own variables. */
__attribute__((constructor(101))) static void register_copy(void)
{
	if (!_start)
		return;
	shl_rank_register_copy(SHL_LOADER_ABI, &__dso_handle, &optind, &opterr, &optopt, &optarg);
}
