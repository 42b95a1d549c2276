/* Control-channel records (io/ctl.h): finding record boundaries in received bytes and
 * sending one record on a socket.
 * Entered by mpiexec's thread and by a node proxy's thread; no state of its own.
 * Must not read beyond the buffer it is given, nor raise SIGPIPE. */
#include <errno.h>
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
