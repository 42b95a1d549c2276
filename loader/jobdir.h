/* Job directories: where mpiexec (one node) or a node proxy (each host of a multi-host job)
 * puts the per-rank copies of the program that its node process loads. Shared by mpiexec and
 * libmpi.so (node_proxy.c); no state. */
#ifndef SHL_LOADER_JOBDIR_H
#define SHL_LOADER_JOBDIR_H

#include <stddef.h>

/* Make `<base>/<prefix>-<our pid>-<six random characters>` (mkdtemp) in the first usable
 * base of /dev/shm (copies on tmpfs load fastest), $TMPDIR and /tmp, writing its path to
 * `dir` (`len` bytes). An owner killed with SIGKILL cannot remove its directory (its node
 * process dies with it), so this first removes every `<prefix>-<pid>-*` of that base whose
 * owner `pid` no longer exists.
 * Returns 0 or a negative errno. */
int shl_jobdir_make(const char *prefix, char *dir, size_t len);

/* Remove the files of directory `dir` and the directory; nothing if `dir` is empty. */
void shl_jobdir_remove(const char *dir);

#endif
