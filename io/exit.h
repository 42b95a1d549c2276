/* The one way a process of Shoal's library ends: the node process at the end of its job, on
 * an abort, a mesh failure, a deadlock, a stop signal or a crash, and a program run directly
 * (a singleton) on MPI_Abort. Everything written before the end is written out first: glibc's
 * FILE buffers and, through a hook the loader registers, the ranks' unfinished output lines.
 * Then the whole process ends with exit_group(2): no atexit handler runs (ranks' handlers
 * belong to their copies and are theirs to run), and the exit family libmpi interposes,
 * which ends only the calling rank, is not involved.
 * Entered by any thread: the node's main thread, rank threads, the completion thread, the
 * watchdog, the signal thread, and (shl_exit_in_handler only) a crash handler.
 * Must not call up into runtime/ or loader/ except through the registered hook. */
#ifndef SHL_IO_EXIT_H
#define SHL_IO_EXIT_H

#include <stdarg.h>
#include <stdbool.h>

/* Writes out what the process holds beyond glibc's FILE buffers (the ranks' unfinished
 * lines). `wait`: it may wait for locks; false in a signal handler, which only tries them. */
typedef void (*shl_exit_flush_fn)(bool wait);

/* The node's main thread, before ranks start: call `fn` whenever the process ends. One hook
 * per process; a second call replaces the first. */
void shl_exit_set_flush(shl_exit_flush_fn fn);

/* Any thread: call `fn` whenever the process ends, after the flush hook and with its `wait`,
 * for the process's last words on what the end leaves behind (runtime/file/file.c: files
 * open for writing). One such hook per process; a second call replaces the first. */
void shl_exit_set_report(shl_exit_flush_fn fn);

/* Any thread, not a signal handler: flush stdio and the hook, then end the process with
 * status `code` (its low 8 bits). While another thread is printing a fatal message
 * (shl_exit_fatal) the caller blocks instead: that thread ends the process, with its code. */
_Noreturn void shl_exit_now(int code);

/* Any thread, not a signal handler: print "shoal: <message>" on stderr after what the
 * program printed, then shl_exit_now(code), `code` taken as 1 unless in 1..255 (a fatal end
 * is never a success). One message per process: the first caller prints and ends the
 * process, any other blocks until it has. */
_Noreturn void shl_exit_fatal(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
_Noreturn void shl_exit_vfatal(int code, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/* Any thread, a signal handler too: end the process with status `code` (its low 8 bits) at
 * once, writing nothing: the system call exit_group. */
_Noreturn void shl_exit_group(int code);

/* A signal handler (a crash): the hook without waiting for locks, then end the process with
 * `code`. Takes no stdio lock, so glibc's FILE buffers are not written, as for a process a
 * signal kills. */
_Noreturn void shl_exit_in_handler(int code);

#endif
