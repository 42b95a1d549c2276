/* Control-channel records (io/ctl.h): finding record boundaries in received bytes, sending
 * one record on a socket, and the bound on a silent peer (SHOAL_PEER_TIMEOUT) with the TCP
 * options that enforce it on any connection (control channel and mesh).
 * Entered by mpiexec's thread and by a node proxy's thread; no state of its own.
 * Must not read beyond the buffer it is given, nor raise SIGPIPE. */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "io/ctl.h"

long shl_io_ctl_take(const unsigned char *buf, size_t len, uint8_t *type,
		     const unsigned char **body, size_t *body_len)
{
	uint32_t n;

	if (len < 4)
		return 0;
	n = shl_io_ctl_get32(buf);
	if (n == 0 || n - 1 > SHL_IO_CTL_MAX)
		return -EMSGSIZE;
	if (len - 4 < n)
		return 0;
	*type = buf[4];
	*body = buf + SHL_IO_CTL_HEADER;
	*body_len = n - 1;
	return (long)n + 4;
}

int shl_io_ctl_send(int fd, uint8_t type, const void *body, size_t len)
{
	unsigned char head[SHL_IO_CTL_HEADER];
	struct iovec iov[2] = { { head, sizeof(head) }, { (void *)body, len } };
	struct msghdr msg = { .msg_iov = iov, .msg_iovlen = 2 };

	if (len > SHL_IO_CTL_MAX)
		return -EMSGSIZE;
	shl_io_ctl_put32(head, (uint32_t)len + 1);
	head[4] = type;
	while (msg.msg_iovlen > 0) {
		ssize_t n = sendmsg(fd, &msg, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		while (msg.msg_iovlen > 0 && (size_t)n >= msg.msg_iov->iov_len) {
			n -= (ssize_t)msg.msg_iov->iov_len;
			msg.msg_iov++;
			msg.msg_iovlen--;
		}
		if (msg.msg_iovlen > 0) {
			msg.msg_iov->iov_base = (char *)msg.msg_iov->iov_base + n;
			msg.msg_iov->iov_len -= (size_t)n;
		}
	}
	return 0;
}

long shl_io_peer_timeout_s(void)
{
	const char *s = getenv("SHOAL_PEER_TIMEOUT");
	char *end;
	long v;

	if (!s || !*s)
		return SHL_IO_PEER_TIMEOUT_S;
	v = strtol(s, &end, 10);
	return *end || v < 0 || v > 86400 ? SHL_IO_PEER_TIMEOUT_S : v;
}

void shl_io_ctl_keepalive(int fd, long timeout_s)
{
	/* Five probes, a fifth of the bound apart: one lost to a brief outage is not the
	 * end; five unanswered are. */
	int one = 1, idle = (int)timeout_s, intvl = (int)(timeout_s / 5), cnt = 5;

	if (timeout_s <= 0)
		return;
	intvl = intvl < 1 ? 1 : intvl;
	setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof(intvl));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof(cnt));
}
