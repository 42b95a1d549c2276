/* frame_parser_shares_nothing_between_threads: four threads, as the completion threads of
 * four connections, encode and decode frame headers (io/frame.h) at once: their own frames
 * against one set of rules they share read-only, and one encoded header they all decode;
 * every verdict matches the single-threaded one. Built with ThreadSanitizer by make
 * test-san, which must report no race: the parser keeps no state of its own. Standalone: the
 * parser's code without the node. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/frame.c"

#define THREADS 4
#define FRAMES 200000

/* Ranks 0-7: even ones on node 0, odd ones on node 1. Frames come from node 1. */
static const uint32_t node_of[8] = { 0, 1, 0, 1, 0, 1, 0, 1 };
static const struct shl_io_frame_rules rules = {
	.world_size = 8, .node_of = node_of, .from_node = 1, .to_node = 0, .eager_max = 4096,
};
static unsigned char shared_header[SHL_IO_FRAME_HEADER];

/* Frame number `i`: valid, or wrong in one way that depends on `i`. */
static struct shl_io_frame frame(long i)
{
	struct shl_io_frame f = { .type = SHL_IO_EAGER, .src = 1 + 2 * (int32_t)(i % 4),
				  .dst = 2 * (int32_t)(i % 4), .context = (uint32_t)i,
				  .tag = (int32_t)i, .length = (uint64_t)(i % 4097),
				  .cookie = (uint64_t)i };
	switch (i % 5) {
	case 1: f.src = 0; break;            /* a rank of this node: -ENXIO */
	case 2: f.length = 5000; break;      /* over the eager limit: -EMSGSIZE */
	case 3: f.type = SHL_IO_RTS; f.length = 8; break;
	default: break;
	}
	return f;
}

static int expected(long i)
{
	switch (i % 5) {
	case 1: return -ENXIO;
	case 2: return -EMSGSIZE;
	default: return 0;
	}
}

static void *parse(void *arg)
{
	long id = (long)(intptr_t)arg;
	unsigned char buf[SHL_IO_FRAME_HEADER];
	struct shl_io_frame in, out;

	for (long i = id; i < FRAMES; i += THREADS) {
		in = frame(i);
		shl_io_frame_encode(&in, buf);
		int rc = shl_io_frame_decode(buf, sizeof(buf), &rules, &out);
		if (rc != expected(i) || out.tag != in.tag || out.cookie != in.cookie ||
		    out.length != in.length) {
			fprintf(stderr, "frame %ld: decode gave %d (%s), want %d\n", i, rc,
				shl_io_frame_error(rc), expected(i));
			exit(1);
		}
		if (shl_io_frame_decode(shared_header, sizeof(shared_header), &rules, &out) != 0 ||
		    out.tag != 7) {
			fprintf(stderr, "the shared header no longer decodes\n");
			exit(1);
		}
	}
	return NULL;
}

int main(void)
{
	pthread_t t[THREADS];
	struct shl_io_frame f = frame(0);

	f.tag = 7;
	shl_io_frame_encode(&f, shared_header);
	for (long i = 0; i < THREADS; i++)
		if (pthread_create(&t[i], NULL, parse, (void *)(intptr_t)i)) {
			perror("pthread_create");
			return 1;
		}
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	printf("frame parser: %d frames on %d threads\n", FRAMES, THREADS);
	return 0;
}
