/* The loader's contract: the few entry points libmpi.so exports for the node process and for
 * rankcrt.o. The node process ends through io/exit.h (the loader, the runtime's shl_job_abort
 * and the mesh alike), which writes the ranks' unfinished lines through the hook
 * loader/node_stdio.c registers.
 * Entered by shoal-node's main thread and by rank threads (copy constructors).
 * Must not include runtime headers' MPI types; the loader knows nothing of MPI semantics. */
#ifndef SHL_LOADER_LOADER_H
#define SHL_LOADER_LOADER_H

/* The ELF note rankcrt.o puts in every program mpicc links (section .note.shoal, so it lands
 * in a PT_NOTE segment); the node process refuses a program without it. Bump the ABI when
 * rankcrt.o and libmpi.so stop agreeing on shl_rank_register_copy. */
#define SHL_LOADER_NOTE_NAME "Shoal"
#define SHL_LOADER_NOTE_TYPE 0x53484c01u /* "SHL" + 1, only has to differ from GNU types */
#define SHL_LOADER_ABI 1

#define SHL_LOADER_EXPORT __attribute__((visibility("default")))

/* shoal-node's main thread, once: run a job of ranks on this node. argv is
 *   shoal-node <job dir> <nranks> <program> [program args...]
 * as mpiexec builds it. Checks the program was built by mpicc, copies it once per rank into
 * the job dir, runs every rank in its own thread, then ends the process (shl_exit_now) with
 * status 0 if every rank ended with 0, else with the code of the first rank (in time) that
 * failed. Returns only on a usage or program error found before any rank starts (the status
 * to exit with). An aborted job ends inside shl_job_abort. */
SHL_LOADER_EXPORT int shl_node_main(int argc, char **argv);

/* A program copy's constructor (rankcrt.o), in the thread that loads the copy: tell libmpi
 * where this copy's own getopt variables and __dso_handle live, so getopt writes the calling
 * rank's optind and the rank's atexit handlers can be run when it ends. Without a bound rank
 * (a program run directly) the addresses become the singleton's. `abi` must be
 * SHL_LOADER_ABI; a mismatch is reported and the addresses are ignored. */
SHL_LOADER_EXPORT void shl_rank_register_copy(int abi, void *dso_handle, int *optind_p,
					      int *opterr_p, int *optopt_p, char **optarg_p);

/* One rank thread, once, and only with SHOAL_DEBUG_STOP set (mpiexec --gdb): every rank has
 * loaded its copy of the program (constructors ran) and none has entered main. Does nothing;
 * it exists for a debugger to break on (debugger/shoal_gdb.py does), so it is exported and
 * never inlined. */
SHL_LOADER_EXPORT void shl_node_ranks_loaded(int nranks);

#endif
