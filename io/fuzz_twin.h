/* The two protocols of io/fuzz_pair.c: io/proto.c compiled twice (io/fuzz_pair_a.c,
 * io/fuzz_pair_b.c), its external names prefixed by TWIN, its allocations in the fuzzer's
 * arena, each copy's calls gathered in a struct twin.
 * Entered by libFuzzer's driver thread only; never part of libmpi.so. */
#ifndef SHL_IO_FUZZ_TWIN_H
#define SHL_IO_FUZZ_TWIN_H

#include <stddef.h>

#include "io/transport.h"

#include "io/fuzz_arena.h"

/* One copy of the protocol. */
struct twin {
	int (*start)(const struct shl_tp_ops *, const struct shl_io_config *,
		     const struct shl_io_hooks *);
	struct shl_io_send *(*send_get)(int32_t, uint64_t);
	void (*post_eager)(struct shl_io_send *, const struct shl_io_msg *, const void *,
			   uint64_t, void *);
	void (*post_rts)(struct shl_io_send *, const struct shl_io_msg *, const void *,
			 uint64_t, void *, void *);
	struct shl_io_recv *(*recv_get)(int32_t);
	void (*post_cts)(struct shl_io_recv *, const struct shl_envelope *);
	bool (*post_cancel)(int32_t, int32_t, uint32_t, void *);
	void (*take)(struct shl_io_send *);
	void (*written)(struct shl_io_send *);
	int (*header)(uint32_t, const struct shl_io_frame *, struct shl_io_sink *);
	int (*frame)(uint32_t, const struct shl_io_frame *, struct shl_io_sink *);
	void (*reset)(void);
};

extern const struct twin twin_a, twin_b;

#ifdef TWIN
/* Inside a copy: its names, and the arena. */
#define TWIN_CAT(a, b) a##b
#define TWIN_NAME(a, b) TWIN_CAT(a, b)
#define shl_io_count_frames TWIN_NAME(TWIN, shl_io_count_frames)
#define shl_io_finish TWIN_NAME(TWIN, shl_io_finish)
#define shl_io_send_get TWIN_NAME(TWIN, shl_io_send_get)
#define shl_io_send_put TWIN_NAME(TWIN, shl_io_send_put)
#define shl_io_post_eager TWIN_NAME(TWIN, shl_io_post_eager)
#define shl_io_post_rts TWIN_NAME(TWIN, shl_io_post_rts)
#define shl_io_recv_get TWIN_NAME(TWIN, shl_io_recv_get)
#define shl_io_post_cts TWIN_NAME(TWIN, shl_io_post_cts)
#define shl_io_post_cancel TWIN_NAME(TWIN, shl_io_post_cancel)
#define shl_io_answer_get TWIN_NAME(TWIN, shl_io_answer_get)
#define shl_io_post_answer TWIN_NAME(TWIN, shl_io_post_answer)
#define shl_io_post_copy TWIN_NAME(TWIN, shl_io_post_copy)
#define shl_proto_take TWIN_NAME(TWIN, shl_proto_take)
#define shl_proto_written TWIN_NAME(TWIN, shl_proto_written)
#define shl_proto_header TWIN_NAME(TWIN, shl_proto_header)
#define shl_proto_frame TWIN_NAME(TWIN, shl_proto_frame)
#define shl_proto_abort TWIN_NAME(TWIN, shl_proto_abort)
#define shl_io_start TWIN_NAME(TWIN, shl_io_start)
#define shl_io_limits(v) TWIN_NAME(TWIN, shl_io_limits)(v)  /* not the struct */
#define shl_io_poll TWIN_NAME(TWIN, shl_io_poll)
#define shl_io_poll_end TWIN_NAME(TWIN, shl_io_poll_end)
#include <stdlib.h>
#define malloc(n) fuzz_malloc(n)
#define calloc(n, size) fuzz_calloc(n, size)
#define aligned_alloc(align, n) fuzz_malloc(n)
#define free(p) fuzz_free(p)
#endif

#endif
