/* MPI-IO (MPI 4.1, chapter 14): the file object, its view, and the contracts between the files
 * of runtime/file/:
 *   file.c        MPI_File_open/close/delete, size, preallocate, group, amode, info and
 *                 hints, sync, atomicity; the node's list of files open for writing
 *   errors.c      file error handlers (MPI_FILE_NULL's default among them), errno to I/O
 *                 error classes (shl_file_err, shl_file_errno), MPI_File_c2f/f2c
 *   view.c        MPI_File_set_view/get_view, the flattened filetype, the map from the
 *                 view's data stream to file bytes
 *   datarep.c     native, internal, external32 and MPI_Register_datarep: conversion between
 *                 memory and file representation
 *   access.c      independent access through explicit offsets and the individual file
 *                 pointer, seek, position, byte offset, type extent; the engine every
 *                 access goes through (shl_file_rw: data sieving, atomic-mode locks)
 *   async.c       nonblocking independent access, done by the node's I/O workers
 *   shared.c      the shared file pointer, its calls, the ordered collectives
 *   collective.c  collective access (_all, split collectives, nonblocking collectives):
 *                 two-phase I/O in which aggregators read and write the other ranks'
 *                 buffers directly on a node and exchange data between nodes
 * Entered by rank threads (every MPI_File_* call), by the node's I/O workers (async.c) and
 * by a rank's collective I/O thread (collective.c, nonblocking collectives).
 *
 * file/ sits above rma (core < datatype < comm < p2p < coll < rma < file < session): a file
 * runs its collectives on communicators of its own, made at open, through the PMPI calls
 * of the layers below, with errors returned (MPI_ERRORS_RETURN on them), so every failure
 * reaches the user through the file's error handler. */
#ifndef SHL_RUNTIME_FILE_H
#define SHL_RUNTIME_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/core/rt.h"

#define SHL_FILE_MAGIC 0x66696c65u

struct shl_datarep;
struct shl_file_shared;
struct shl_file_coll;

/* ---- view (view.c) ----
 * The view's data stream is the bytes the view exposes, in order: the data of the filetype
 * tiled from `disp`, in file representation. A position in it is a byte count (etype
 * offsets times `esize`). */
struct shl_file_view {
	MPI_Offset disp;               /* bytes from the start of the file */
	struct shl_datatype *etype;    /* held (shl_dt_hold) */
	struct shl_datatype *filetype; /* held */
	const struct shl_datarep *rep; /* datarep.c's entry (internal, external32, registered);
					* NULL: native */
	size_t esize;                  /* bytes of one etype in the file */
	size_t tile_bytes;             /* bytes of data of one filetype in the file */
	MPI_Offset tile_extent;        /* extent of one filetype in the file */
	size_t nruns;                  /* runs of one filetype in the file, in typemap order */
	struct shl_block *runs;        /* owned; offsets from the tile's start (the filetype's
					* lower bound included), non-decreasing */
	size_t *before;                /* owned; before[i]: data bytes in runs[0..i), nruns + 1
					* entries */
	bool dense;                    /* one run filling the whole extent: stream position p
					* is file byte disp + p */
	bool holes_somewhere;          /* some member's view has holes (MPI_File_set_view
					* agrees on it): its writes may be sieved, so the
					* engine's plain writes take a shared lock */
};

/* Visit the file bytes that hold bytes [pos, pos + len) of `v`'s data stream, in stream
 * order, as pieces fn(ctx, file offset, length); adjacent pieces are merged. Stops and
 * returns false when fn does. Any thread; no allocation. */
typedef bool (*shl_file_piece_fn)(void *ctx, MPI_Offset off, size_t len);
bool shl_file_view_pieces(const struct shl_file_view *v, MPI_Offset pos, MPI_Offset len,
			  shl_file_piece_fn fn, void *ctx);

/* The file byte that holds stream position `pos` (MPI_File_get_byte_offset: pos = etype
 * offset times esize): a position where one run's data ends maps to the next run's first
 * byte. */
MPI_Offset shl_file_view_byte(const struct shl_file_view *v, MPI_Offset pos);

/* The inverse: bytes of `v`'s data stream that lie before file byte `byte` (a view whose
 * tiles ascend in the file, as MPI 4.1, 14.3 asks). O(log) calls of shl_file_view_byte. */
MPI_Offset shl_file_view_stream(const struct shl_file_view *v, MPI_Offset byte);

/* The default view (MPI 4.1, 14.3): disp 0, MPI_BYTE, MPI_BYTE, "native". */
void shl_file_view_default(struct shl_file_view *v);
/* Drop what `v` holds (types, runs). */
void shl_file_view_clear(struct shl_file_view *v);

/* ---- data representations (datarep.c) ---- */

/* Whether data in `rep` is laid out as in memory (native, internal): no conversion. */
bool shl_file_rep_native(const struct shl_datarep *rep);

/* Owner thread (set_view): the representation called `name` for the calling rank (*rep
 * NULL for "native"; "internal", "external32" or one the rank registered). Returns
 * MPI_SUCCESS or MPI_ERR_UNSUPPORTED_DATAREP (not raised). */
int shl_file_rep_find(const char *name, const struct shl_datarep **rep);
/* Its name, as MPI_File_get_view returns it ("native" for NULL). Any thread. */
const char *shl_file_rep_name(const struct shl_datarep *rep);

/* Owner thread: the extent in the file of one element of `type` in `rep`
 * (MPI_File_get_type_extent): a predefined type's size in the representation (external32's
 * table, the registered extent function), a derived type's the extent of its file layout.
 * Returns MPI_SUCCESS or an error class, not raised (MPI_ERR_CONVERSION: the registered
 * extent function failed). */
int shl_file_rep_extent(const struct shl_datarep *rep, struct shl_datatype *type,
			MPI_Aint *extent);

/* Owner thread: `type` as laid out in the file in `rep` (design item 5) into *layout, held
 * (shl_dt_release drops it): `type` itself when rep is native, else the type rebuilt from
 * its contents with every predefined type replaced by its bytes in the representation
 * (counts and strides in elements scale with it, byte displacements stay as given).
 * Committed. Returns MPI_SUCCESS or an error class, not raised. */
int shl_file_rep_layout(const struct shl_datarep *rep, struct shl_datatype *type,
			struct shl_datatype **layout);

/* Any thread (a registered representation's extent function runs on it, as its
 * conversion functions do in shl_file_rep_convert): the bytes `count` elements of memory
 * type `type` take in the file's data stream in `rep` (native: count times type->size). Returns MPI_SUCCESS or an error class,
 * not raised. */
int shl_file_rep_size(const struct shl_datarep *rep, struct shl_datatype *type, MPI_Count count,
		      MPI_Offset *bytes);

/* Any thread: convert `count` elements of memory type `type`, from element `position` of
 * the buffer at `buf` on, to (`to_file`) or from the contiguous stream of file data at
 * `stream` (shl_file_rep_size bytes), in `rep` (a registered representation's functions
 * get `buf` and `position` as they are). Returns MPI_SUCCESS or MPI_ERR_CONVERSION (a value
 * that does not fit external32, a registered function that failed), not raised. */
int shl_file_rep_convert(const struct shl_datarep *rep, bool to_file, void *buf, MPI_Count count,
			 struct shl_datatype *type, void *stream, MPI_Offset position);

/* ---- the shared file pointer (shared.c) ---- */

/* Owner thread, collective over f->comm, at the end of MPI_File_open (f's communicators,
 * peers, amode, view made): set up the shared file pointer (at the end of the file with
 * MPI_MODE_APPEND, else 0). Returns MPI_SUCCESS or an error class (not raised). */
int shl_file_shared_open(struct shl_file *f);
/* Owner thread, collective, in MPI_File_close before the communicators go: drop it (after
 * waiting for the file's nonblocking operations, shl_file_async_close). */
void shl_file_shared_close(struct shl_file *f);
/* Owner thread, collective over f->comm, in MPI_File_set_view once the new view is in
 * place: the shared file pointer to 0. Returns MPI_SUCCESS or an error class (not raised). */
int shl_file_shared_reset(struct shl_file *f);
/* Owner thread: the shared file pointer, in etypes of f's view (MPI_File_set_view's
 * MPI_DISPLACEMENT_CURRENT). */
MPI_Offset shl_file_shared_position(struct shl_file *f);

/* ---- collective access (collective.c) ---- */

/* Owner thread, collective, in MPI_File_close after every pending operation completed:
 * end the rank's collective I/O thread of `f`, if any, and free f->coll. */
void shl_file_coll_close(struct shl_file *f);

/* ---- hints (file.c) ---- */
enum shl_file_cb { SHL_FILE_CB_AUTOMATIC, SHL_FILE_CB_ENABLE, SHL_FILE_CB_DISABLE };

struct shl_file_hints {
	size_t cb_buffer_size;        /* bytes an aggregator moves per file access, collective */
	int cb_nodes;                 /* aggregators of a collective access */
	enum shl_file_cb cb_read, cb_write;  /* romio_cb_read / romio_cb_write */
	enum shl_file_cb ds_read, ds_write;  /* romio_ds_read / romio_ds_write: data sieving */
	size_t ind_rd_buffer_size;    /* data sieving buffer of independent reads */
	size_t ind_wr_buffer_size;    /* ... of independent writes */
	size_t striping_unit;
	int striping_factor;
	int file_perm;                /* mode of a file MPI_File_open creates (less the umask) */
};

/* ---- the file object ----
 * One per rank per open file: a slot of the handle arena (the handle). Touched by the
 * owning rank's threads, and by its I/O requests (read-only: fd, view snapshot taken at
 * the call). What all members agree on (path, amode, atomicity, view parameters but the
 * types) is set by collective calls. */
struct shl_file {
	uint32_t magic;
	int fd;                       /* this rank's descriptor of the file (O_CLOEXEC) */
	int amode;                    /* MPI_MODE_* as given */
	int rank, size;               /* in the file's group */
	MPI_Comm comm;                /* the file's own communicator (dup of the opener's),
				       * MPI_ERRORS_RETURN */
	struct shl_comm *c;           /* its object */
	MPI_Comm node;                /* the members on this node (split by shared memory) */
	int node_rank, node_size;
	struct shl_file **peers;      /* the node members' file objects, by node rank: the
				       * aggregators of collective.c read through them */
	bool offnode;                 /* some member is on another node */
	char *path;                   /* the name as opened (owned) */
	struct shl_errhandler *errh;  /* held */
	struct shl_info *info;        /* hints as given and as used (MPI_File_get_info) */
	struct shl_file_hints hints;
	bool atomic;                  /* MPI_File_set_atomicity */
	struct shl_file_view view;
	MPI_Offset fp;                /* individual file pointer, in etypes of the view */
	struct shl_file_shared *shared;  /* shared.c */
	struct shl_file_coll *coll;      /* collective.c */
	bool split;                   /* a split collective begun and not ended */
	MPI_Status split_status;      /* its status, for the _end call */
	int split_kind;               /* collective.c / shared.c: which _begin it was */
	void *split_buf;              /* the _begin's buffer (the _end names it again) */
	_Atomic int pending;          /* nonblocking operations not yet complete (async.c,
				       * collective.c); MPI_File_close waits for none */
};

_Static_assert(sizeof(struct shl_file) <= SHL_HANDLE_READ_MAX,
	       "struct shl_file outgrew SHL_HANDLE_READ_MAX (core/handle.h)");

/* Files are never predefined: a slot of the handle arena, or no file. */
static inline bool shl_file_ok(MPI_File f)
{
	return shl_handle_in_arena(f, sizeof(*f)) && f->magic == SHL_FILE_MAGIC;
}

/* ---- errors (errors.c) ---- */

/* Owner thread: raise `errclass` for call `fn` on `f` through its error handler (f NULL:
 * MPI_FILE_NULL's, the default for MPI_File_open and MPI_File_delete). The message names
 * fn, the rank, the file's path and what `fmt` says. Returns what the handler returned. */
int shl_file_err(struct shl_file *f, int errclass, const char *fn, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* The I/O error class of errno value `err` (ENOENT: MPI_ERR_NO_SUCH_FILE, ENOSPC:
 * MPI_ERR_NO_SPACE, ...; MPI_ERR_IO for the rest). */
int shl_file_errno_class(int err);

/* shl_file_err with the class of errno value `err` and the system's reason (strerror)
 * appended to what `fmt` says. */
int shl_file_errno(struct shl_file *f, int err, const char *fn, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Owner thread, at the MPI boundary: file argument `fh` of call `fn`: *f, or MPI_ERR_FILE
 * through MPI_FILE_NULL's handler. */
int shl_file_check(const char *fn, MPI_File fh, struct shl_file **f);

/* ---- the engine (access.c) ---- */
enum shl_file_dir { SHL_FILE_READ, SHL_FILE_WRITE };

/* Any thread (rank or I/O worker): move `count` elements of `type` between `buf` and the
 * view `v` of file `f`, starting at stream position `pos` (bytes), through f's
 * descriptor, converting to or from v->rep. Data sieving and atomic-mode locks as f's hints
 * and atomicity say. A read past the end of file stops there. Returns the bytes of the
 * memory signature moved (>= 0), or -errno. Does not raise: the caller does, with
 * shl_file_errno. */
MPI_Offset shl_file_rw(struct shl_file *f, const struct shl_file_view *v, enum shl_file_dir dir,
		       MPI_Offset pos, void *buf, MPI_Count count, struct shl_datatype *type);

/* Owner thread, at the MPI boundary of access call `fn` on `f`: the access mode allows
 * `dir` (MPI_ERR_READ_ONLY, MPI_ERR_ACCESS), count, datatype and buffer are valid
 * (MPI_ERR_COUNT, MPI_ERR_TYPE, MPI_ERR_BUFFER) and make whole etypes of the view
 * (MPI_ERR_TYPE). Raised on f; returns MPI_SUCCESS or what the handler returned. */
int shl_file_check_buf(struct shl_file *f, const char *fn, enum shl_file_dir dir,
		       const void *buf, MPI_Count count, MPI_Datatype type);

/* The end of f's file in etypes of its view (MPI_SEEK_END): the etypes whose data starts
 * before it, one cut by it included. Returns 0 or -errno. */
int shl_file_eof(struct shl_file *f, MPI_Offset *etypes);

/* Fill `st` (may be MPI_STATUS_IGNORE) for an access that moved `bytes` of the memory
 * signature (MPI_Get_count, MPI_Get_elements read it). */
void shl_file_status(MPI_Status *st, MPI_Offset bytes);

/* ---- nonblocking operations (async.c) ----
 * A file request is a request of kind SHL_REQ_FILE (core/rt.h) of the rank that started
 * the operation: any thread completes it, the rank's Wait/Test family, Request_get_status,
 * Request_free and Cancel take it as any other request, and an error it completes with is
 * raised on the file's error handler by the call that completes it (MPI_ERR_IN_STATUS from
 * the array forms), its class in the status's MPI_ERROR. */

/* Owner thread, rank unlocked: a new file request of the calling rank for an operation on
 * `f` (counted in f->pending until shl_file_req_done), or NULL (no memory). */
struct shl_req *shl_file_req_new(struct shl_file *f);
/* Any thread, once per request: the operation of file request `q` is over: it moved
 * `result` bytes of the memory signature (the status's count), or failed with `errclass`
 * (not MPI_SUCCESS) for the reason `msg` (copied; the call completing the request raises
 * it, naming the call, the rank and the file). Wakes the owner. Touches neither `q` nor
 * its file afterwards. */
void shl_file_req_done(struct shl_req *q, MPI_Offset result, int errclass, const char *msg);
/* Owner thread, rank unlocked: release file request `q` never handed to the user (its
 * operation could not start). */
void shl_file_req_abandon(struct shl_req *q);

enum shl_file_via { SHL_FILE_AT, SHL_FILE_INDIVIDUAL, SHL_FILE_SHARED };
/* Owner thread, at the MPI boundary of a data access call `fn` on `f` through `via`: the
 * checks every access makes (access mode, MPI_MODE_SEQUENTIAL, count, datatype, buffer),
 * raised on f's handler. Returns MPI_SUCCESS or what the handler returned. */
int shl_file_check_io(const char *fn, struct shl_file *f, enum shl_file_dir dir,
		      enum shl_file_via via, const void *buf, MPI_Count count, MPI_Datatype type);
/* Owner thread, at the MPI boundary of a data access call `fn` through an explicit offset
 * or the individual pointer (`at`): file handle `fh` (*f), then shl_file_check_io, then
 * `offset` >= 0 where `at` (MPI_ERR_ARG), raised on the file's handler (MPI_FILE_NULL's
 * for a bad handle). Returns MPI_SUCCESS or what the handler returned. */
int shl_file_check_access(const char *fn, MPI_File fh, struct shl_file **f,
			  enum shl_file_dir dir, bool at, MPI_Offset offset, const void *buf,
			  MPI_Count count, MPI_Datatype type);
/* Etypes of f's view that `count` elements of `type` hold (the pointers' move). */
MPI_Offset shl_file_etypes(const struct shl_file *f, MPI_Count count,
			   const struct shl_datatype *type);
/* Owner thread: give the access of `count` elements of `type` at stream position `pos` of
 * f's view (as it is now) to the node's I/O workers; *request is its file request. Returns
 * MPI_SUCCESS or the error raised on f (no memory). */
int shl_file_istart(const char *fn, struct shl_file *f, enum shl_file_dir dir, MPI_Offset pos,
		    void *buf, MPI_Count count, struct shl_datatype *type, MPI_Request *request);
/* Owner thread, rank unlocked, in MPI_File_close (from shl_file_shared_close): wait until
 * no operation of `f` is pending, release its finished requests the user freed, drop what
 * async.c keeps for `f`. */
void shl_file_async_close(struct shl_file *f);

#endif
