/* The collective engine's contract between collective.c (the MPI calls, split and nonblocking
 * collectives, the collective I/O thread) and collective_rw.c (two-phase I/O). For the files
 * of runtime/file/collective*.c only. */
#ifndef SHL_RUNTIME_FILE_COLLECTIVE_H
#define SHL_RUNTIME_FILE_COLLECTIVE_H

#include <pthread.h>

#include "runtime/file/file.h"

struct shl_file_coll_job;

/* One aggregator's piece of a window: `len` file bytes at `off` that hold stream bytes
 * [p, p + len) of member `m`; `ptr` the member's memory holding them (moved straight by
 * the vectored system call), or NULL when they go through the collective buffer. */
struct shl_file_coll_ent {
	MPI_Offset off;
	MPI_Offset p;
	size_t len;
	char *ptr;
	int m;
};

/* A file's collective state (f->coll), made at the first collective call. Touched by the
 * owning rank's thread, and by its collective I/O thread once that runs: the engine's
 * scratch is used by one of them at a time (once the thread runs, every collective of the
 * file goes through it). */
struct shl_file_coll {
	char *cbuf;                      /* the collective buffer (cb_buffer_size), made on use */
	size_t cbuf_size;
	struct shl_file_coll_ent *ents;  /* one window's pieces */
	size_t ents_cap;
	struct iovec *iov;
	size_t iov_cap;
	/* The collective I/O thread's own communicators: nonblocking duplicates of f->comm and
	 * f->node started by the first nonblocking collective (in call order among the
	 * file's collectives), so its collectives never interleave with the rank thread's on
	 * f's communicators. */
	MPI_Comm comm, node;
	MPI_Request dup[2];
	/* The collective I/O thread and its queue, under `mu`. */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool running;                    /* the thread was started */
	bool stop;                       /* shl_file_coll_close asks it to end */
	pthread_t th;
	struct shl_file_coll_job *head, *tail;
};

/* Rank thread or collective I/O thread, collective over `comm`, f->comm or the thread's
 * duplicate, and `node`, f->node or its duplicate (every member calls it with
 * its own arguments, in the same order): move `count` elements of `type` between `buf` and
 * f's view from stream position `pos`. Two-phase I/O, or independent access where the hints
 * or the access say so. Every member returns the same result: 0, a negative errno when
 * some member's access failed, or a positive MPI error class (a conversion to or from the
 * representation failed, or a collective of the file's communicators did). *moved: bytes of
 * the memory signature this member moved. Does not raise. */
int shl_file_coll_rw(struct shl_file *f, MPI_Comm comm, MPI_Comm node, enum shl_file_dir dir,
		     MPI_Offset pos, void *buf, MPI_Count count, struct shl_datatype *type,
		     MPI_Offset *moved);

/* The collective state of `f`, made on first use; NULL when out of memory. Owner thread. */
struct shl_file_coll *shl_file_coll_state(struct shl_file *f);

#endif
