/* Frames on the connections of the TCP mesh: each node's output queue written with
 * sendmsg (many frames per call, back-pressure through EPOLLOUT), and each connection's
 * bytes read through its input buffer: the greeting's parts (checked by io/conn.c), frame
 * headers (checked by io/frame.c), payloads into where io/proto.c says.
 * Entered by whoever holds io.lock: the completion thread, or a rank that got the lock
 * (posting, or reading the connections while it waits).
 * Must not give a frame a meaning (io/proto.c does), nor trust a header before
 * shl_io_frame_decode has checked it. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "io/mesh_internal.h"

/* Frames gathered into one sendmsg: 64 small frames make one system call when a rank
 * sends in bursts (the OSU message-rate window is 64). */
#define SHL_IO_IOV 128
/* Bytes handed to one sendmsg. A rendezvous payload of megabytes written in one call
 * keeps the socket locked while the kernel copies all of it, so the receiver's
 * acknowledgements wait in the socket's backlog and the stream goes in bursts; calls of
 * this size let them in between (docs/performance.md, "Off-node"). */
#define SHL_IO_WRITE_MAX (256u * 1024)
/* A part at least this long, with the input buffer empty, is read straight to where it
 * goes (a DATA payload into the receive buffer, an eager payload into its envelope): no
 * copy through the buffer. A quarter of the buffer: below it the copy costs less than
 * the extra read. */
#define SHL_IO_DIRECT_MIN (SHL_IO_IBUF / 4)

static void next_header(struct conn *c)
{
	c->in = IN_HEADER;
	c->got = 0;
}

static void queue(uint32_t n, struct shl_io_send *d)
{
	struct peer *p = &io.peers[n];

	shl_io_frame_encode(&d->frame, d->wire);
	d->next = NULL;
	*p->tail = d;
	p->tail = &d->next;
}

/* Authed connection `c` sent a frame the protocol refuses: a node that proved the job
 * secret and breaks the protocol is corrupt (its stream cannot be resynchronized, its
 * messages cannot be trusted): the job ends, naming it (docs/offnode.md, "Data frames"). */
static _Noreturn void corrupt(const struct conn *c, const char *why)
{
	shl_mesh_die("node %u (%s) sent a corrupt frame: %s; ending the job", c->node, c->name,
		     why);
}

/* Every payload byte of c->f is in: hand the frame to the protocol. */
static int got_frame(struct conn *c)
{
	int err = shl_proto_frame(c->node, &c->f, &c->sink);

	if (err < 0)
		corrupt(c, c->sink.why);
	next_header(c);
	return 0;
}

/* A frame header is complete: check it and say where its payload goes. */
static int start_frame(struct conn *c)
{
	int err = shl_io_frame_decode(c->hdr, SHL_IO_FRAME_HEADER, &c->rules, &c->f);

	if (err < 0) {
		char why[192];
		snprintf(why, sizeof(why), "bad frame header: %s (type %u, src %d, dst %d, "
			 "context %u, tag %d, length %llu)", shl_io_frame_error(err), c->f.type,
			 c->f.src, c->f.dst, c->f.context, c->f.tag,
			 (unsigned long long)c->f.length);
		corrupt(c, why);
	}
	err = shl_proto_header(c->node, &c->f, &c->sink);
	if (err < 0)
		corrupt(c, c->sink.why);
	c->in = IN_PAYLOAD;
	c->got = 0;
	return c->f.length == 0 ? got_frame(c) : 0;
}

/* Read what `c` has: the hello, headers and payloads, until the socket is empty (a read
 * that did not fill its space says so: epoll is level-triggered and reports whatever comes
 * after). Closes `c` at EOF or on anything it rejects. */
void shl_mesh_drain(struct conn *c)
{
	c->more = true;
	for (;;) {
		unsigned char *to;
		size_t want;
		ssize_t n;
		int err = 0;

		switch (c->in) {
		case IN_HELLO:
			to = c->hdr + c->got;
			want = SHL_IO_HELLO_BYTES - c->got;
			break;
		case IN_PROOF:
			to = c->hdr + c->got;
			want = SHL_IO_AUTH_PROOF - c->got;
			break;
		case IN_CHALLENGE:
			to = c->hdr + c->got;
			want = SHL_IO_CHALLENGE_BYTES - c->got;
			break;
		case IN_HEADER:
			to = c->hdr + c->got;
			want = SHL_IO_FRAME_HEADER - c->got;
			break;
		default: {  /* IN_PAYLOAD: into the sink while it has room, then discarded */
			uint64_t left = c->f.length - c->got;
			if (c->got < c->sink.keep) {
				to = c->sink.buf + c->got;
				want = c->sink.keep - c->got;
			} else {
				to = io.scratch;
				want = left < sizeof(io.scratch) ? left : sizeof(io.scratch);
			}
		}
		}
		if (c->ipos < c->ihave) {  /* from the input buffer */
			n = (ssize_t)(c->ihave - c->ipos < want ? c->ihave - c->ipos : want);
			memcpy(to, c->ibuf + c->ipos, (size_t)n);
			c->ipos += (size_t)n;
		} else {
			bool direct = want >= SHL_IO_DIRECT_MIN;
			size_t space = direct ? want : SHL_IO_IBUF;
			if (!c->more)
				return;
			n = read(c->fd, direct ? to : c->ibuf, space);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
				return;
			if (n < 0 && c->authed && shl_mesh_silent_errno(errno))
				shl_mesh_die_silent(c);
			if (n <= 0) {
				if (c->got != 0 || c->in != IN_HEADER)
					shl_mesh_report(c, "closed in the middle of a %s",
							c->authed ? "frame" : "greeting");
				shl_mesh_close(c);
				return;
			}
			c->more = (size_t)n == space;
			io.reads++;
			if (!direct) {
				c->ipos = 0;
				c->ihave = (size_t)n;
				continue;
			}
		}
		c->got += (size_t)n;
		if (c->in == IN_PAYLOAD)
			err = c->got < c->f.length ? 0 : got_frame(c);
		else if ((size_t)n < want)
			continue;
		else if (c->in == IN_HEADER)
			err = start_frame(c);
		else
			err = shl_mesh_greet(c);
		if (err < 0) {
			shl_mesh_close(c);
			return;
		}
	}
}

/* Write what node `n` has queued, as far as its socket takes it. */
void shl_mesh_flush(uint32_t n)
{
	struct peer *p = &io.peers[n];

	while (p->out != NULL && p->head != NULL) {
		struct iovec iov[SHL_IO_IOV];
		struct msghdr mh = { .msg_iov = iov };
		size_t off = p->off;
		size_t total = 0;
		int k = 0;
		ssize_t w;

		for (struct shl_io_send *d = p->head;
		     d != NULL && k + 2 <= SHL_IO_IOV && total < SHL_IO_WRITE_MAX; d = d->next) {
			size_t len = (size_t)d->frame.length;
			if (off < SHL_IO_FRAME_HEADER) {
				iov[k++] = (struct iovec){ d->wire + off, SHL_IO_FRAME_HEADER - off };
				total += SHL_IO_FRAME_HEADER - off;
			}
			off = off > SHL_IO_FRAME_HEADER ? off - SHL_IO_FRAME_HEADER : 0;
			size_t part = len > off ? len - off : 0;
			size_t room = total < SHL_IO_WRITE_MAX ? SHL_IO_WRITE_MAX - total : 0;
			if (part > room)
				part = room;
			if (part > 0) {
				iov[k++] = (struct iovec){ (char *)d->payload + off, part };
				total += part;
			}
			off = 0;
		}
		mh.msg_iovlen = (size_t)k;
		w = sendmsg(p->out->fd, &mh, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			if (!p->pollout) {
				p->pollout = true;
				shl_mesh_arm(p->out);
			}
			return;
		}
		if (w < 0 && shl_mesh_silent_errno(errno))
			shl_mesh_die_silent(p->out);
		if (w < 0 && (errno == EPIPE || errno == ECONNRESET))
			shl_mesh_die_peer_gone("cannot send to node %u (%s): %s", n,
					       p->out->name, strerror(errno));
		if (w < 0)
			shl_mesh_die("cannot send to node %u (%s): %s", n, p->out->name,
				     strerror(errno));
		/* Take the frames written whole off the queue; remember how far into the next
		 * one. Then hand them to the protocol, which may queue more (a CANCEL behind
		 * an RTS cancelled half written): the queue is in order before it is called. */
		size_t done = p->off + (size_t)w;
		struct shl_io_send *out = NULL, **out_tail = &out;
		while (p->head != NULL) {
			struct shl_io_send *d = p->head;
			size_t whole = SHL_IO_FRAME_HEADER + (size_t)d->frame.length;
			if (done < whole)
				break;
			done -= whole;
			p->head = d->next;
			*out_tail = d;
			out_tail = &d->next;
		}
		*out_tail = NULL;
		if (p->head == NULL)
			p->tail = &p->head;
		p->off = done;
		while (out != NULL) {
			struct shl_io_send *d = out;
			out = d->next;
			shl_proto_written(d);
		}
	}
	if (p->pollout && p->out != NULL) {
		p->pollout = false;
		shl_mesh_arm(p->out);
	}
}

/* tp->write: holding io.lock, queue `d` for its destination's node and write what the
 * socket takes; lazily, call that node on its first frame. */
void shl_mesh_write(struct shl_io_send *d)
{
	uint32_t n = io.node_of[d->frame.dst];
	struct peer *p = &io.peers[n];

	if (p->lost)
		shl_mesh_die_peer_gone("rank %d sends to rank %d, but the connection to its node "
				       "%u is closed (has that node ended?)", d->frame.src,
				       d->frame.dst, n);
	queue(n, d);
	if (io.lazy && p->out == NULL && !p->dialed)
		shl_mesh_call(n);
	if (p->head == d)
		shl_mesh_flush(n);
}

/* tp->unwrite: holding io.lock, take `d` off its node's queue unless part of it is written
 * (or all: then it is being handed back to the protocol). */
bool shl_mesh_unwrite(struct shl_io_send *d)
{
	struct peer *p = &io.peers[io.node_of[d->frame.dst]];
	struct shl_io_send **link = &p->head;

	while (*link != NULL && *link != d)
		link = &(*link)->next;
	if (*link == NULL || (d == p->head && p->off > 0))
		return false;
	*link = d->next;
	if (p->tail == &d->next)
		p->tail = link;
	return true;
}
