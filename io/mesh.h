/* The TCP transport: the completion thread and the mesh between the node processes of a
 * job, one connection per pair of nodes, every socket owned by the completion thread
 * (epoll); frames from the protocol (io/proto.c) through a wait-free queue, frames read
 * handed back to it (io/transport.h). Entered by the node's main thread (start), rank
 * threads (post, poll) and the completion thread. Knows no MPI semantics and no protocol
 * state: what a frame means is io/proto.c's; never trusts a received byte for memory
 * access before io/frame.c has checked it.
 * Files: io/mesh.c (the thread's loop, the submission queue, polling ranks, the node's end
 * when the mesh cannot go on or a node stops answering for SHOAL_PEER_TIMEOUT), io/conn.c
 * (connections: dial, call, accept, the greeting, its deadline, close), io/stream.c
 * (frames written to and read from a connection), io/mesh_internal.h (what they share). */
#ifndef SHL_IO_MESH_H
#define SHL_IO_MESH_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>

#include "io/auth.h"
#include "io/ctl.h"
#include "io/transport.h"

/* The mesh greeting (docs/offnode.md): the connecting (lower) node sends magic "SHLM",
 * version 2, its node index and a fresh nonce; the accepting node answers with "SHLM", its
 * own nonce and its HMAC answer to the first (io/auth.h); the connecting node checks it and
 * sends its answer to the second. The secret itself never crosses the network. */
#define SHL_IO_HELLO_MAGIC 0x4d4c4853u
#define SHL_IO_HELLO_VERSION 2
#define SHL_IO_HELLO_BYTES (12 + SHL_IO_AUTH_NONCE)
#define SHL_IO_CHALLENGE_BYTES (4 + SHL_IO_AUTH_NONCE + SHL_IO_AUTH_PROOF)

/* The TCP transport's operations, for shl_io_start. */
extern const struct shl_tp_ops shl_io_tcp;

#endif
