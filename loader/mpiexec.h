/* What mpiexec's files share: a job as the launch code sees it, the one entry point that
 * runs every job but one under --gdb (loader/mpiexec_launch.c), and the MPIR process table
 * it fills (loader/mpiexec.c).
 * Entered by mpiexec's only thread. Not part of libmpi.so. */
#ifndef SHL_LOADER_MPIEXEC_H
#define SHL_LOADER_MPIEXEC_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

#include "loader/mpiexec_place.h"

/* Grace between the signal that ends a job (END, or SIGTERM to gdb under --gdb) and
 * SIGKILL: long enough to flush stdio of a thousand ranks, short enough that Ctrl-C feels
 * immediate. */
#define SHL_LAUNCH_KILL_GRACE_S 3
/* Exit status of a job ended by --timeout: coreutils timeout(1)'s, so scripts that treat
 * 124 as "timed out" keep working. */
#define SHL_LAUNCH_TIMEOUT_EXIT 124

/* A job of one node process per host (docs/offnode.md), or of one node on this host. */
struct shl_launch {
	struct shl_place *place;   /* mapped: node_of, nnodes */
	const char *node_path;     /* lib/shoal/shoal-node of this installation */
	const char *program;       /* resolved path of the user's program */
	char **args;               /* the program's argv; args[0] is replaced by `program` */
	const char *launcher;      /* "local", "ssh" or "slurm"; NULL: "ssh" */
	const char *agent;         /* --launcher-agent words, or NULL */
	const char *control_addr;  /* IPv4 address mpiexec listens on, or NULL: pick one */
	long timeout;              /* --timeout seconds, 0: none */
	const char **env;          /* names of variables to set on every host (-x, -genv...),
				    * with mpiexec's values; unset ones are skipped */
	int nenv;
	bool env_all;              /* -genvall: every variable of mpiexec's environment */
	sigset_t old_mask;         /* signal mask to give children */
	const sigset_t *waited;    /* signals mpiexec blocks and takes with signalfd */
	/* The job's one node runs on this host: mpiexec forks its proxy itself, on a
	 * socketpair (no listener, launcher or agent), and the node's ranks copy the
	 * program into `jobdir`, which mpiexec made and removes. */
	bool here;
	const char *jobdir;
};

/* mpiexec's thread, once, when the node process of every node of `p` (mapped) runs: fill
 * the MPIR process table (loader/mpiexec.c) with one entry per world rank naming the host
 * of its node as given (-H, hostfile, Slurm), `program`, and node_pid[its node] (the pid on
 * that host), set MPIR_proctable_size and MPIR_debug_state = MPIR_DEBUG_SPAWNED, then call
 * MPIR_Breakpoint, where a parallel debugger reads them. Out of memory: no table and no
 * call. `program` and the host names must outlive the job. */
void shl_mpir_publish(const struct shl_place *p, const char *program, const pid_t *node_pid);

/* Whether mpiexec runs inside a Slurm allocation (SLURM_JOB_ID and SLURM_JOB_NODELIST or
 * SLURM_NODELIST set). */
bool shl_slurm_inside(void);

/* mpiexec's thread: add the allocation's hosts to `p` in Slurm's order, each with its
 * SLURM_TASKS_PER_NODE slots (1 when unknown); the nodelist is expanded by running
 * `scontrol show hostnames`. Returns 0 or -EINVAL with the reason in `why`. */
int shl_slurm_hosts(struct shl_place *p, char *why, size_t len);

/* mpiexec's thread, once, with the signals of `waited` blocked: start one node process per
 * node of the placement (through its proxy), run the job to its end and return mpiexec's
 * exit status (the first failing node's code, 128 + signal, 124 for --timeout, 125 for a
 * likely deadlock). Prints its own errors. */
int shl_launch_run(struct shl_launch *l);

/* mpiexec's thread, once (loader/mpiexec_route.c): the address to listen on for node
 * processes and the comma-separated list of addresses, best first, they dial back to:
 * the route's source address when every host of `hosts` is reached from the same one,
 * else any address to listen on and every address of this host, loopback last. */
struct in_addr;
void shl_route_control_addrs(const char *const *hosts, int nhosts, struct in_addr *bind_to,
			    char *list, size_t len);

#endif
