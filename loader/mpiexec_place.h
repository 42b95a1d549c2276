/* mpiexec's placement of world ranks on hosts (docs/offnode.md, "Placement"): the host list
 * from --host/-H and --hostfile, slots, -ppn, --map-by node|slot.
 * Entered by mpiexec's only thread. Not part of libmpi.so; must not start or contact
 * anything: it only computes which node process hosts which rank. */
#ifndef SHL_LOADER_MPIEXEC_PLACE_H
#define SHL_LOADER_MPIEXEC_PLACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Longest host name accepted (RFC 1035's 253, plus room). */
#define SHL_PLACE_HOST_MAX 256

struct shl_place_host {
	char *name;
	long slots;     /* from the lists; 0 never happens for a listed host */
	long nranks;    /* ranks placed on it by shl_place_map */
	int node;       /* node index once mapped, -1 if it got no rank */
};

struct shl_place {
	struct shl_place_host *hosts;  /* in order of first appearance */
	int nhosts;
	int cap;
	long nranks;                   /* after shl_place_map */
	uint32_t *node_of;             /* world rank -> node index, after shl_place_map */
	int nnodes;                    /* hosts that got at least one rank */
	int *host_of_node;             /* node index -> index in hosts */
};

/* Add the hosts of a --host/-H value: "a,b,a" (a name once per slot) or "a:4,b:2". A name
 * seen before gets more slots. Returns 0, or -EINVAL with a message in `why`. */
int shl_place_add_list(struct shl_place *p, const char *list, char *why, size_t len);

/* Add the hosts of a hostfile: one a line, "host", "host slots=N" or "host:N"; blank lines
 * and "#" comments skipped; other key=value words (max_slots=) ignored. Returns 0, -errno
 * if the file cannot be read, or -EINVAL with the file, line and fault in `why`. */
int shl_place_add_file(struct shl_place *p, const char *path, char *why, size_t len);

/* Total slots of the hosts added, with every host given `ppn` slots if ppn > 0. */
long shl_place_slots(const struct shl_place *p, long ppn);

/* Place `nranks` world ranks (see docs/offnode.md): by slot (consecutive ranks fill a
 * host's slots) or by node (round-robin over hosts with a free slot); ranks beyond the total
 * slots start another round. `ppn` > 0 overrides every host's slots. Fills node_of,
 * nnodes, host_of_node and each host's nranks. Returns 0 or -ENOMEM. */
int shl_place_map(struct shl_place *p, long nranks, long ppn, bool by_node);

/* Print "HOST: RANKS" for every node, ranks as ranges ("0-3,8"), one node a line. */
void shl_place_print(const struct shl_place *p, FILE *out);

/* Write the world ranks of `node` as ranges ("0-3,8-11") into buf; truncated to fit. */
void shl_place_ranks(const struct shl_place *p, int node, char *buf, size_t len);

#endif
