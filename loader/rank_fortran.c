/* gfortran's ERROR STOP, interposed ahead of libgfortran: it ends the whole job, naming the
 * rank, as MPI_Abort does. gfortran compiles `ERROR STOP n` to a call of
 * _gfortran_error_stop_numeric(n, quiet) and `ERROR STOP 'text'` to
 * _gfortran_error_stop_string(text, len, quiet); libgfortran's own versions print
 * "ERROR STOP ..." and call exit, which in a rank would end only that rank (loader/
 * rank_exit.c), where a process per rank would end with an error status that its launcher
 * takes as the job's failure. These definitions are unversioned, so they satisfy the
 * program's versioned references (GFORTRAN_8) from the global scope, ahead of each rank's
 * copy of libgfortran. STOP (_gfortran_stop_*) is libgfortran's: its exit ends the rank.
 * Also _gfortran_set_options, which each program's main calls: in a rank it keeps
 * libgfortran from installing its own handlers of crash signals (-fbacktrace, gfortran's
 * default), which are process-wide: they would replace the node's crash reports with code
 * of one rank's copy of libgfortran, unmapped once that rank ends.
 * Entered by a rank's threads (its program's main, ERROR STOP), or a program run directly. */
#include <dlfcn.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "loader/loader.h"
#include "loader/loader_internal.h"
#include "runtime/job.h"

/* A rank ending with a shorter text than this names it whole on Shoal's line. */
#define SHL_FORTRAN_STOP_TEXT 200

/* gfortran 8 and later: the version of libgfortran.so.5's entry points. */
#define SHL_GFORTRAN_VERSION "GFORTRAN_8"
/* _gfortran_set_options's options[] index of -fbacktrace, and how many it takes. */
#define SHL_GFORTRAN_OPT_BACKTRACE 3
#define SHL_GFORTRAN_OPTS_MAX 64

SHL_LOADER_EXPORT void _gfortran_set_options(int num, int options[]);
SHL_LOADER_EXPORT _Noreturn void _gfortran_error_stop_numeric(int code, bool quiet);
SHL_LOADER_EXPORT _Noreturn void _gfortran_error_stop_string(const char *s, size_t len,
							     bool quiet);

/* The calling rank's copy of the program, to find its own libgfortran; NULL in a program
 * run directly (then the process's is the only one). */
static void *program_copy(int rank)
{
	struct shl_copy *c = shl_loader_self;

	for (int k = 0; c == NULL && rank >= 0 && k < shl_loader.nranks; k++)
		if (shl_loader.copies[k].rank == rank)
			c = &shl_loader.copies[k];
	return c != NULL ? c->objects[0] : NULL;
}

/* Write out what the rank's Fortran units hold (a file it wrote, a buffered unit 6), as
 * its exit would when libgfortran closes them: FLUSH of every unit. */
static void flush_units(int rank)
{
	void *copy = program_copy(rank);
	void (*flush)(int *) = (void (*)(int *))dlsym(copy ? copy : RTLD_DEFAULT,
						      "_gfortran_flush_i4");

	if (flush != NULL)
		flush(NULL);
}

/* The program's compiled-in options (-fbacktrace, -fcheck, -fsign-zero, ...) go to the
 * rank's own libgfortran as given, except -fbacktrace in a rank: with it, libgfortran
 * would set handlers of SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGQUIT ... for the
 * whole node, and a run-time error's backtrace (libbacktrace reading every loaded object,
 * other ranks' copies as they unload) can crash or hang the node at 64 ranks.
 * A crash is reported by the node (loader/node_signals.c), with its backtrace; a run-time
 * error still names its file and line. dlvsym skips the unversioned definition here. */
SHL_LOADER_EXPORT void _gfortran_set_options(int num, int options[])
{
	int rank = shl_job_my_rank();
	void *copy = rank >= 0 ? program_copy(rank) : NULL;
	void (*set)(int, int *) = (void (*)(int, int *))dlvsym(copy ? copy : RTLD_NEXT,
							       "_gfortran_set_options",
							       SHL_GFORTRAN_VERSION);
	int mine[SHL_GFORTRAN_OPTS_MAX];

	if (set == NULL)
		return;
	if (copy == NULL || num <= SHL_GFORTRAN_OPT_BACKTRACE || num > SHL_GFORTRAN_OPTS_MAX) {
		set(num, options);
		return;
	}
	memcpy(mine, options, (size_t)num * sizeof(mine[0]));
	mine[SHL_GFORTRAN_OPT_BACKTRACE] = 0;
	set(num, mine);
}

static int calling_rank(void)
{
	int rank = shl_job_my_rank();

	return rank < 0 ? 0 : rank;  /* a singleton before MPI_Init */
}

SHL_LOADER_EXPORT _Noreturn void _gfortran_error_stop_numeric(int code, bool quiet)
{
	int rank = calling_rank();

	flush_units(rank);
	if (!quiet)
		fprintf(stderr, "ERROR STOP %d\n", code);
	/* Code 0 still ends the job in error: shl_job_abort makes it 1, as any code outside
	 * 1..255. */
	shl_job_abort(code, "rank %d: ERROR STOP %d", rank, code);
}

SHL_LOADER_EXPORT _Noreturn void _gfortran_error_stop_string(const char *s, size_t len,
							     bool quiet)
{
	int rank = calling_rank();
	int shown = len > SHL_FORTRAN_STOP_TEXT ? SHL_FORTRAN_STOP_TEXT : (int)len;

	flush_units(rank);
	if (!quiet) {
		fputs("ERROR STOP ", stderr);
		fwrite(s, 1, len, stderr);
		fputc('\n', stderr);
	}
	shl_job_abort(1, "rank %d: ERROR STOP %.*s%s", rank, shown, s,
		      (size_t)shown < len ? "..." : "");
}
