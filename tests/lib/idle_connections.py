#!/usr/bin/env python3
# idle_connections.py ADDR PORT N: open N TCP connections to ADDR:PORT at once, send nothing
# on them and hold them open until stdin closes (or the process is killed). Prints
# "connecting N" once every connect() is issued, then "held K of N" once every connect has
# finished or 60 s have passed (K: connects that were accepted by the kernel; the server
# may have closed some since). Used by the tests that
# flood a node's mesh port or mpiexec's control port.
import errno, select, socket, sys, time

addr, port, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
socks, pending = [], {}
for _ in range(n):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setblocking(False)
    err = s.connect_ex((addr, port))
    socks.append(s)
    if err in (0, errno.EISCONN):
        continue
    pending[s.fileno()] = s
print("connecting %d" % n, flush=True)
p = select.poll()
for fd in pending:
    p.register(fd, select.POLLOUT)
held = n - len(pending)
end = time.monotonic() + 60
while pending and time.monotonic() < end:
    for fd, _ in p.poll(1000):
        s = pending.pop(fd)
        p.unregister(fd)
        if s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0:
            held += 1
print("held %d of %d" % (held, n), flush=True)
sys.stdin.read()
