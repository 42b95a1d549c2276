/* Handles: every MPI handle is a pointer to one of our objects, which starts with a magic
 * number that validation compares. Before that load, a handle must look like a pointer
 * to an object at all: a small integer ((MPI_Comm)1, a Fortran handle passed to C) would
 * otherwise fault instead of failing validation (MPICH returns the error class there). A
 * value past the first page that points at unmapped memory still faults, and the crash
 * report names the call. */
#ifndef SHL_RUNTIME_HANDLE_H
#define SHL_RUNTIME_HANDLE_H

#include <stdbool.h>
#include <stdint.h>

/* Whether `h` may point at an object: not in the first page, which is never mapped (NULL
 * included). One compare, no alignment test: it is on every call's path (figures:
 * docs/performance.md, "Blocking calls take their common case first"). */
static inline bool shl_handle_plausible(const void *h)
{
	return (uintptr_t)h >= 4096;
}

#endif
