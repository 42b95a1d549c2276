/* Loader internals shared by the files of loader/ that live in libmpi.so: one rank's copy of
 * the program and its private libc state, and the node's process-wide state.
 * Entered by the node's main thread, rank threads, and any thread calling an interposed libc name.
 * Must not be included outside loader/; nothing here is exported. */
#ifndef SHL_LOADER_LOADER_INTERNAL_H
#define SHL_LOADER_LOADER_INTERNAL_H

#include <getopt.h>
#include <pthread.h>
#include <stdint.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/types.h>

#include "loader/rank_objects.h"

/* GNU getopt's scanning state for one rank (or the singleton). */
struct shl_getopt {
	char *const *argv; /* argv of the last call; a different one restarts the scan */
	int last_optind;   /* optind as we last left it; the user changing it restarts */
	const char *next;  /* rest of the current -abc cluster, or NULL */
	int first_nonopt;  /* permuted non-options wait in argv[first_nonopt, last_nonopt) */
	int last_nonopt;
	bool started;
	bool posixly;      /* POSIXLY_CORRECT was set at the start of this scan */
};

/* libc's exit-family functions behind our interposers. */
typedef void (*shl_exit_fn)(int) __attribute__((noreturn));

/* glibc entry points that no header declares (the C++ ABI's and <getopt.h>'s POSIX alias). */
int __cxa_finalize(void *dso);
int __cxa_at_quick_exit(void (*fn)(void), void *dso);
int __posix_getopt(int argc, char *const argv[], const char *optstring);

/* One quick_exit handler registered by a copy through at_quick_exit. */
struct shl_quick_handler {
	void (*fn)(void);
};

/* The libc state glibc keeps once per process but a rank must have to itself. Used only by
 * the thread that owns it (a rank thread), except the singleton's, guarded by its lock. */
struct shl_libc {
	int *optind;  /* the copy's own getopt variables, from rankcrt.o's constructor */
	int *opterr;
	int *optopt;
	char **optarg;
	void *dso;    /* the copy's __dso_handle, for __cxa_finalize */
	struct shl_getopt go;
	bool rnd_ready;
	struct random_data rnd;
	char rnd_state[128];   /* 128 bytes is glibc's own default: TYPE_3, degree 31 */
	char *strtok_save;
	struct shl_quick_handler *quick;
	int nquick;
	int capquick;
};

/* Where a rank is in its life; decides what an interposed exit may do. */
enum shl_stage {
	SHL_STAGE_LOADING = 0, /* dlopen and constructors: cannot jump out (loader lock held) */
	SHL_STAGE_RUNNING,     /* main: exit() jumps back to the rank's start */
	SHL_STAGE_FINISHING,   /* atexit handlers and destructors via __cxa_finalize */
	SHL_STAGE_UNLOADING,   /* dlclose: cannot jump out */
	SHL_STAGE_DONE,
};

/* shl_copy.stage is written by the rank's thread (the node's main thread for a rank run as
 * a process of its own) and read by the watchdog while the rank runs: both sides use
 * relaxed atomics (__atomic_load_n there), as the watchdog only samples it and a stale
 * stage costs it one more round. */
#define shl_copy_stage_set(c, s) __atomic_store_n(&(c)->stage, (s), __ATOMIC_RELAXED)

/* How the rank's main ended; decides which handlers run. */
enum shl_ending {
	SHL_END_RETURN = 0, /* main returned or exit(): atexit handlers and destructors run */
	SHL_END_QUICK,      /* quick_exit(): at_quick_exit handlers only */
	SHL_END_IMMEDIATE,  /* _exit()/_Exit(): nothing runs, the copy stays mapped */
};

/* One rank: its copy of the program, its thread and its libc state. Written only by the rank
 * thread once it runs, read by the node's main thread after pthread_join. */
struct shl_copy {
	int rank;
	pthread_t thread;
	char *path;        /* the rank's copy of the program in the job dir */
	/* The rank's copies of the node's private objects (loader/rank_load.c), by index in
	 * shl_objects (objects[0]: the program): dlopen handles, and the order the loader
	 * loaded those it holds (the program and what copies need; a plug-in's handle is the
	 * program's). Written by the rank's threads under shl_objects.lock. */
	void *objects[SHL_OBJECTS_MAX];
	unsigned char order[SHL_OBJECTS_MAX];
	int norder;
	int argc;
	char **argv;       /* the rank's own argv: pointers and strings in one allocation */
	jmp_buf start;     /* exit() during main comes back here */
	jmp_buf finish;    /* exit() from an atexit handler comes back here */
	enum shl_stage stage;  /* written with shl_copy_stage_set only */
	enum shl_ending ending;
	int code;          /* exit code of the rank */
	bool reported;     /* the rank's end was recorded (return, exit or pthread_exit) */
	void *altstack;    /* signal stack for crash reports in this thread */
	/* The rank's stack, [stack_lo, stack_hi), its guard pages below: a fault there is a
	 * stack overflow (0 until the rank thread runs). */
	uintptr_t stack_lo, stack_hi;
	size_t stack_guard;
	struct shl_libc libc;
};

/* What loading a thread-rank program's copies needs to know of its file, besides what
 * loader/rank_objects.c reads of every private object. A program linked
 * by a build system (`mpicc -showme:link`, mpi.pc) is a position-independent executable:
 * each copy gets DF_1_PIE cleared (glibc's dlopen refuses executables) and the symbols of
 * its copy relocations (stderr, std::cout) undefined, so that they copy the libraries'
 * objects (loader/program_elf.c, read_copies). */
struct shl_program_elf {
	off_t pie_flag_at; /* file offset of DT_FLAGS_1's value if DF_1_PIE is set, else -1 */
	uint64_t flags_1;  /* that value */
	bool cxx;          /* needs libstdc++.so.6 */
	bool textrel;      /* has text relocations */
	off_t *copy_syms;  /* file offsets of the symbols of its copy relocations */
	int ncopy_syms;
};

/* The node process's state, one per process. */
struct shl_node_state {
	int nranks;               /* ranks of this node; set by the main thread before rank
				   * threads start, like world_size */
	int world_size;           /* ranks of the whole job (nranks unless on several nodes) */
	struct shl_copy *copies;  /* array of nranks, same discipline */
	const char *program;      /* program path as the user gave it */
	struct shl_program_elf elf; /* of program; set with it */
	_Atomic int first_failed; /* index in copies of the rank whose nonzero code came first,
				   * or -1; CAS by rank threads */
	_Atomic int crashing;     /* 0, then 1 for ever once one thread reports a crash */
	size_t stack;             /* bytes of each rank's stack (SHOAL_STACK_SIZE); set by the
				   * main thread before rank threads start */
	/* SHOAL_DEBUG_STOP (mpiexec --gdb): every rank waits at `loaded` after loading its copy
	 * and before main, and one of them calls shl_node_ranks_loaded for a debugger to break
	 * on. Both set by the main thread before rank threads start. */
	bool debug_stop;
	bool debug_gate;          /* SHOAL_DEBUG_STOP=gate: also wait for MPIR_debug_gate */
	pthread_barrier_t loaded;
	unsigned deadlock_ms;     /* SHOAL_DEADLOCK_S in ms, 0: no watchdog; set before ranks start */
	/* A node process started by a proxy (several hosts, or a launcher): its end of the
	 * watch socket (SHL_WATCH_*), set before ranks start, else -1. The watchdog and, at
	 * the end, the main thread send on it holding proxy_lock; after the main thread's
	 * final STATE (proxy_final) nothing else is sent. */
	int proxy;
	pthread_mutex_t proxy_lock;
	bool proxy_final;
	sigset_t stop_signals;    /* SIGINT/TERM/HUP: written once by the main thread before the
				   signal thread starts, then only read by it */
	/* Real libc functions, resolved once by the library constructor before main. */
	shl_exit_fn real_exit;
	shl_exit_fn real__exit;
	shl_exit_fn real_quick_exit;
	int (*real_cxa_at_quick_exit)(void (*)(void), void *);
	void *libmpi_base;        /* load address of libmpi.so: exit() called from here is libc's */
	/* State of threads that are not ranks: a program run directly, or shoal-node itself.
	 * glibc makes rand/random thread-safe with a lock; single_lock does the same here. */
	pthread_mutex_t single_lock;
	struct shl_libc single;
};

extern struct shl_node_state shl_loader;

/* Messages on the watch socket between a node process and its proxy (AF_UNIX SEQPACKET, one
 * message each, the type in the first byte). mpiexec judges deadlocks across hosts from the
 * STATE records the proxy forwards (docs/debugging.md, "Deadlocks"). */
enum shl_watch_msg {
	SHL_WATCH_STATE = 'S',     /* node: then the body of a STATE control record (io/ctl.h) */
	SHL_WATCH_DESCRIBE = 'D',  /* proxy: describe every rank not ended (the job is judged
				    * deadlocked); node: then a piece of that text */
	SHL_WATCH_DESCRIBED = 'E', /* node: the description is whole */
};
/* Bytes of text per DESCRIBE piece: far below an AF_UNIX socket's buffer, so a piece is
 * never refused for its size. */
#define SHL_WATCH_PIECE 4096
/* Bytes of a STATE body: u32 blocked, u64 frames sent, u64 frames retired. */
#define SHL_WATCH_STATE_BYTES 20

/* The calling thread's rank copy, or NULL in threads that are not ranks. Initial-exec is
 * safe: libmpi.so is always loaded at start-up (DT_NEEDED of shoal-node or of the program). */
extern __thread struct shl_copy *shl_loader_self __attribute__((tls_model("initial-exec")));

/* Any thread: the libc state of the calling thread's rank, or the singleton's. */
struct shl_libc *shl_loader_libc(void);

/* Rank thread: record how the rank ended and enforce the MPI_Finalize rule. May end the
 * job (shl_job_abort) when the rank ended inside MPI while other ranks exist. */
void shl_loader_rank_ended(struct shl_copy *c);

/* Main thread of the node, once, after every copy's rank is set and before any rank runs:
 * make stdout and stderr write each rank's whole lines, labelled with its rank if
 * SHOAL_OUTPUT_LABEL says so ("tag": Open MPI's [1,R]<stdout>:, "rank": MPICH's [R] );
 * with several ranks, make stdin rank 0's alone (the others read end-of-file). Returns 0
 * or -errno. */
int shl_loader_stdio_setup(void);

/* Main thread of the node, once, before the ranks start (loader/node_bind.c): read
 * SHOAL_BIND (core, hwthread, none; unset: each rank's own thread on a core of its own when
 * `threads` and the ranks do not outnumber the cores) and SHOAL_REPORT_BINDINGS. Returns
 * 0, or -errno after saying on stderr why the ranks cannot be bound (-EINVAL: an unknown
 * kind). */
int shl_loader_bind_setup(bool threads);

/* Main thread of the node, for each rank before its thread is made: give `attr` the CPUs
 * of local rank `k` (world rank `rank`) when ranks are bound, and report them on stderr if
 * asked. Returns 0 or an errno. */
int shl_loader_bind_rank(pthread_attr_t *attr, int k, int rank);

/* The same for a rank that is a process: whether it is bound, and then its CPUs in *cpus
 * (for sched_setaffinity in the child). Reports as shl_loader_bind_rank does. */
bool shl_loader_bind_cpus(int k, int rank, cpu_set_t *cpus);

/* Rank thread, at its end: flush stdio, write its unfinished lines (a newline added if
 * labelled) and close the files its freopen of a standard stream opened. */
void shl_loader_stdio_rank_done(struct shl_copy *c);

/* io/exit.c's flush hook, which shl_loader_stdio_setup registers: any thread ending the
 * process (a crash handler too, then `wait` false: locks are only tried) writes every
 * rank's unfinished lines. */
void shl_loader_stdio_flush_all(bool wait);

/* Main thread of the node, once, after the private objects are copied into `jobdir` and
 * before any rank's copy is made (loader/node_room.c): whether this host can hold `nlocal`
 * ranks of `program` with stacks of `stack` bytes: memory maps, threads, memory, room for a
 * rank's copy, address space. Returns
 * 0, or -E2BIG after a line on stderr for each limit the job is past. */
int shl_node_room(const char *jobdir, const char *program, int nlocal, size_t stack);

/* Main thread of the node, once: handlers for crash signals, and a signal stack for the
 * calling thread. Returns 0 or -errno. */
int shl_loader_install_crash_handlers(void);

/* How the ranks of a program run (shl_loader_check_program). */
enum shl_program_kind {
	SHL_PROGRAM_THREADS = 0,   /* built by mpicc: a thread and a copy of the program each */
	SHL_PROGRAM_PROCESSES = 1, /* anything else: a process each (loader/node_exec.c) */
};

/* Any thread: how the ranks of `path` run: SHL_PROGRAM_THREADS for an x86-64 ELF shared
 * object or executable carrying Shoal's note (then `elf`, if not NULL, describes it),
 * SHL_PROGRAM_PROCESSES for any other file (execve judges it). Else -errno with a reason in
 * `why`: a file that cannot be read (and cannot be run), -EPROTO for a program linked with
 * another MPI's library (the reason names that MPI), -ENOEXEC for a Shoal executable whose
 * copies cannot be loaded (thread-local variables of its own, text relocations). */
int shl_loader_check_program(const char *path, struct shl_program_elf *elf, char *why,
			     size_t whylen);

/* Any thread: glibc's dlopen (libmpi.so's own dlopen loads a rank's copies of private
 * objects: loader/rank_load.c). */
void *shl_loader_dlopen(const char *file, int mode);

/* Rank thread, before main: load the rank's copies of the program and of the private
 * libraries it needs (constructors run here), into c->objects. Aborts the job if it cannot. */
void shl_rank_load_program(struct shl_copy *c);

/* Rank thread, at its end: end the copies the loader loaded for it, the program first, with
 * dlclose, or, when `mapped` (threads of the rank still run), by running their destructors
 * and leaving them mapped. */
void shl_rank_unload(struct shl_copy *c, bool mapped);

/* Any thread: the MPI ("Open MPI", "MPICH") whose library has soname `soname`, or NULL. */
const char *shl_loader_other_mpi(const char *soname);

/* shoal-node's main thread, once, instead of thread ranks (the program is not mpicc's): run
 * the `nlocal` ranks whose world ranks are in `world` (NULL: 0..nlocal-1) of a job of
 * `world_size` as one process each, argv the program's (argv[0] its path), with their
 * rank and size in the environment (SHOAL_RANK, OMPI_COMM_WORLD_RANK, PMI_RANK, ...);
 * forward their output, stdin to rank 0 and stop signals; end the process with the job's
 * status as for thread ranks. Returns only the status of an error before any rank started. */
int shl_node_exec_run(int world_size, int nlocal, const int *world, int argc, char **argv);

/* shoal-node's main thread, before thread ranks start: remove the rank variables that
 * shl_node_exec_run sets from the environment the ranks share (an mpiexec started by a
 * process rank would pass them on, and they would describe that other job's rank). */
void shl_node_exec_unset_env(void);

/* The node's main thread, ranks being processes: `n` bytes that local rank `k` (index of
 * shl_loader.copies) wrote on its stdout (`err` false) or stderr, in the order its pipe gave
 * them. Whole lines go out as a thread rank's do (labelled if asked); the rest waits for its
 * line's end or shl_loader_stdio_rank_done. */
void shl_loader_stdio_put(int k, bool err, const char *p, size_t n);

/* Signal handler context allowed: find the function containing file offset `vaddr` of ELF
 * file `path` from its .symtab. Returns the name (pointing into a mapping that stays mapped)
 * and its start address, or NULL. */
const char *shl_loader_symbolize(const char *path, unsigned long vaddr, unsigned long *start);

/* shoal-node's main thread, once (the node process proper): run the `nlocal` ranks whose
 * world ranks are in `world` (NULL: 0..nlocal-1) of a job of `world_size`, each in its own
 * thread with a copy of argv[0] made in `jobdir`, argv as the program's argv; with `mesh`
 * (a job on several nodes) join the other nodes first (shl_job_connect). Ends the
 * process itself as shl_node_main says; returns only the status of an error found before
 * any rank started. */
struct shl_io_config;
int shl_node_run(const char *jobdir, int world_size, int nlocal, const int *world,
		 const struct shl_io_config *mesh, int argc, char **argv);

/* shoal-node's main thread, once, for `shoal-node --connect IP:PORT --node I --host NAME
 * [--wdir DIR] program [args]` (a node of a job on several hosts, docs/offnode.md): read
 * the job secret from stdin, join mpiexec's control channel, then fork the node process
 * proper (shl_node_run in the child) and forward its output, exit and mpiexec's END until
 * it ends. Returns the proxy's exit status. */
int shl_node_proxy_main(int argc, char **argv);

#endif
