/* The gdb hang report (docs/debugging.md, "Crash and hang reports"): one gdb command line,
 * run by each node proxy against its own node process, on one host as on several; and the
 * deadlock settings mpiexec and the node share. Entered by a proxy's thread; no state.
 * Must not wait for gdb: callers reap it (the proxy keeps serving its node meanwhile). */
#ifndef SHL_LOADER_REPORT_H
#define SHL_LOADER_REPORT_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

/* Seconds every rank must stay blocked before the job is called deadlocked
 * (SHOAL_DEADLOCK_S; 0: never). Nothing on a single node can unblock such a job, and across
 * hosts mpiexec also sees that no frame is in flight, so the delay only has to outlast the
 * moments when all ranks briefly sleep while a message is being pushed; 10 s is far beyond
 * those. */
#define SHL_REPORT_DEADLOCK_S 10
/* Exit status of a job ended as a likely deadlock (124 is --timeout's, as timeout(1)'s). */
#define SHL_REPORT_DEADLOCK_EXIT 125

/* Any thread: whole seconds from environment variable `name`, between `min` and a day, or
 * `dflt` when it is unset or empty; a malformed value is ignored with a message on stderr.
 * (SHOAL_DEADLOCK_S, SHOAL_LAUNCH_TIMEOUT.) */
long shl_report_env_seconds(const char *name, long dflt, long min);

/* A proxy's thread: fork gdb (SHOAL_GDB, else gdb) attached to process `node`
 * with Shoal's extension `ext`, printing `info ranks` and `mpi queues all` on `out` (its
 * stdout and stderr), then detaching; the ranks are stopped meanwhile. Returns gdb's pid,
 * or -errno if fork failed; gdb missing says so on `out` and exits 127. */
pid_t shl_report_start(pid_t node, const char *ext, int out);

/* Any thread: the path of Shoal's gdb extension next to the running program (shoal-node
 * lives beside it in lib/shoal; mpiexec in bin, beside lib). Returns 0, or -ENOENT
 * with the last path tried in `buf`. */
int shl_report_ext(char *buf, size_t len);

#endif
