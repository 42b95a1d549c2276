/* Which of mpiexec's addresses the node processes dial back to (the control address), when
 * neither --control-addr nor SHOAL_CONTROL_ADDR names one: for each host of the job, the
 * source address of the kernel's route to it, as `ip route get HOST` prints it. One address
 * for all hosts: mpiexec listens on it alone. Hosts reached from different addresses, or
 * names that are not network names (a --launcher-agent's own names, such as network
 * namespaces): mpiexec listens on every address and gives the nodes the list, best first;
 * each node process dials the first one it has a route to (loader/node_proxy.c, dial).
 * Entered by mpiexec's only thread, once, before the control listener opens. */
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "loader/mpiexec.h"

/* How many addresses the list handed to the nodes holds at most. */
#define SHL_ROUTE_ADDRS_MAX 16

struct addrs {
	struct in_addr a[SHL_ROUTE_ADDRS_MAX];
	int n;
};

static void add(struct addrs *s, struct in_addr a)
{
	for (int i = 0; i < s->n; i++)
		if (s->a[i].s_addr == a.s_addr)
			return;
	if (s->n < SHL_ROUTE_ADDRS_MAX)
		s->a[s->n++] = a;
}

/* `host`'s first IPv4 address (a name or a dotted address), or -1. */
static int resolve(const char *host, struct in_addr *dst)
{
	struct addrinfo hints = { .ai_family = AF_INET, .ai_socktype = SOCK_DGRAM }, *res;

	if (getaddrinfo(host, NULL, &hints, &res) != 0)
		return -1;
	*dst = ((struct sockaddr_in *)res->ai_addr)->sin_addr;
	freeaddrinfo(res);
	return 0;
}

/* The source address of the route to `dst`: connecting a UDP socket asks the kernel for the
 * route and sends nothing. -1 where there is no route. */
static int route_source(struct in_addr dst, struct in_addr *src)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr = dst, .sin_port = htons(9) };
	socklen_t len = sizeof(sa);
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), rc = -1;

	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0 &&
	    getsockname(fd, (struct sockaddr *)&sa, &len) == 0) {
		*src = sa.sin_addr;
		rc = 0;
	}
	close(fd);
	return rc;
}

void shl_route_control_addrs(const char *const *hosts, int nhosts, struct in_addr *bind_to,
			     char *list, size_t len)
{
	struct addrs s = { .n = 0 };
	struct ifaddrs *ifs;
	bool every_host_routed = true;
	size_t used = 0;

	for (int k = 0; k < nhosts; k++) {
		struct in_addr dst, src;

		if (resolve(hosts[k], &dst) == 0 && route_source(dst, &src) == 0)
			add(&s, src);
		else
			every_host_routed = false;
	}
	if (every_host_routed && s.n == 1) {
		*bind_to = s.a[0];
	} else {
		bind_to->s_addr = htonl(INADDR_ANY);
		if (getifaddrs(&ifs) == 0) {
			for (struct ifaddrs *i = ifs; i; i = i->ifa_next)
				if (i->ifa_addr && i->ifa_addr->sa_family == AF_INET &&
				    (i->ifa_flags & IFF_UP) && !(i->ifa_flags & IFF_LOOPBACK))
					add(&s, ((struct sockaddr_in *)i->ifa_addr)->sin_addr);
			freeifaddrs(ifs);
		}
		add(&s, (struct in_addr){ htonl(INADDR_LOOPBACK) });
	}
	list[0] = '\0';
	for (int i = 0; i < s.n; i++) {
		char ip[INET_ADDRSTRLEN];
		int w;

		inet_ntop(AF_INET, &s.a[i], ip, sizeof(ip));
		w = snprintf(list + used, len - used, "%s%s", i ? "," : "", ip);
		if (w < 0 || (size_t)w >= len - used) {
			list[used] = '\0';
			break;
		}
		used += (size_t)w;
	}
}
