/* Loading the libraries a program finds through $ORIGIN before a rank's copy of it
 * (loader/program_origin.c). Entered by rank threads of the node process. */
#ifndef SHL_LOADER_PROGRAM_ORIGIN_H
#define SHL_LOADER_PROGRAM_ORIGIN_H

/* Before dlopen of a copy: load (RTLD_LOCAL) the libraries of the program's DT_NEEDED that
 * the program run directly would take from an $ORIGIN directory of its RUNPATH or RPATH.
 * Returns handles for shl_loader_origin_release, or NULL when there are none. */
void **shl_loader_origin_preload(void);
/* After dlopen of the copy, which holds its own references: drop the preload's. */
void shl_loader_origin_release(void **handles);

#endif
