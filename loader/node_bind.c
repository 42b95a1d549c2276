/* Rank threads bound to CPUs and the report of where each rank runs (mpiexec --report-bindings,
 * SHOAL_REPORT_BINDINGS). SHOAL_BIND (mpiexec --bind-to) says how:
 *   core, hwthread  each rank, and every thread it creates, on one core's CPUs or one CPU;
 *   unset (auto)    when the node's ranks (threads) do not outnumber its cores, each rank's
 *                   own thread on a core of its own, so that two ranks never share a core
 *                   while the other idles, and threads the rank creates (an OpenMP team) on
 *                   every CPU the node may use (shl_job_free_threads); else
 *                   nothing is bound;
 *   none            nothing is bound.
 * The units are the CPUs the node process may use (its affinity mask): `hwthread` one CPU
 * each, `core` the CPUs that share a core (sysfs topology), in the order of their first
 * CPU. Local rank k takes unit k modulo the units, so ranks that outnumber them share.
 * A rank that is a process (loader/node_exec.c) takes the same unit before it execs, when
 * binding is asked for explicitly.
 * Entered by the node's main thread only, before and while it starts the ranks. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loader/loader_internal.h"
#include "runtime/job.h"

struct unit {
	cpu_set_t cpus;
	int first;  /* its lowest CPU */
};

static struct {
	struct unit *units;  /* NULL: ranks are not bound */
	int nunits;
	const char *kind;    /* "core" or "hwthread" */
	bool report;         /* SHOAL_REPORT_BINDINGS */
} bind;

/* A number from sysfs for `cpu`, or -1. */
static int topology(int cpu, const char *what)
{
	char path[96];
	FILE *f;
	int v = -1;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, what);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

int shl_loader_bind_setup(bool threads)
{
	const char *kind = getenv("SHOAL_BIND"), *report = getenv("SHOAL_REPORT_BINDINGS");
	bool automatic = !kind || !*kind || !strcmp(kind, "auto");
	cpu_set_t mine;
	int pkg[CPU_SETSIZE], core[CPU_SETSIZE], err = 0;

	bind.report = report && *report && strcmp(report, "0");
	if ((automatic && !threads) || (kind && !strcmp(kind, "none")))
		return 0;
	if (automatic)
		kind = "core";
	if (strcmp(kind, "core") && strcmp(kind, "hwthread"))
		err = EINVAL;
	else if (sched_getaffinity(0, sizeof(mine), &mine) < 0)
		err = errno;
	else if (!(bind.units = calloc(CPU_SETSIZE, sizeof(*bind.units))))
		err = ENOMEM;
	if (err) {
		fprintf(stderr, "shoal: cannot bind ranks as SHOAL_BIND=%s asks: %s\n", kind,
			strerror(err));
		return -err;
	}
	bind.kind = kind;
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		int u = bind.nunits;

		if (!CPU_ISSET(cpu, &mine))
			continue;
		pkg[cpu] = topology(cpu, "physical_package_id");
		core[cpu] = topology(cpu, "core_id");
		if (!strcmp(kind, "core") && core[cpu] >= 0)
			for (u = 0; u < bind.nunits; u++) {
				int f = bind.units[u].first;

				if (pkg[f] == pkg[cpu] && core[f] == core[cpu])
					break;
			}
		if (u == bind.nunits) {
			CPU_ZERO(&bind.units[u].cpus);
			bind.units[u].first = cpu;
			bind.nunits++;
		}
		CPU_SET(cpu, &bind.units[u].cpus);
	}
	if (automatic && (shl_loader.nranks > bind.nunits || bind.nunits < 2)) {
		free(bind.units);  /* ranks share the cores anyway: let the kernel place them */
		bind.units = NULL;
		bind.nunits = 0;
	} else if (automatic) {
		shl_job_free_threads(&mine);
	}
	return 0;
}

/* "0,2-3" for `set`. */
static void cpu_list(const cpu_set_t *set, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int c = 0; c < CPU_SETSIZE && used < len; c++) {
		int last = c;

		if (!CPU_ISSET(c, set))
			continue;
		while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, set))
			last++;
		used += (size_t)snprintf(buf + used, len - used, last > c ? "%s%d-%d" : "%s%d",
					 used ? "," : "", c, last);
		c = last;
	}
}

/* The host as mpiexec names it (SHOAL_HOST, set by a node's proxy), else this one's name. */
static void host_name(char *buf, size_t len)
{
	const char *h = getenv("SHOAL_HOST");

	if (h && *h)
		snprintf(buf, len, "%s", h);
	else if (gethostname(buf, len - 1) < 0)
		snprintf(buf, len, "?");
}

bool shl_loader_bind_cpus(int k, int rank, cpu_set_t *cpus)
{
	char host[256] = "", list[256];
	cpu_set_t all;

	if (bind.units) {
		*cpus = bind.units[k % bind.nunits].cpus;
		if (bind.report) {
			host_name(host, sizeof(host));
			cpu_list(cpus, list, sizeof(list));
			fprintf(stderr, "shoal: host %s: rank %d bound to %s %d (cpus %s)\n", host,
				rank, bind.kind, k % bind.nunits, list);
		}
		return true;
	}
	if (bind.report) {
		host_name(host, sizeof(host));
		if (sched_getaffinity(0, sizeof(all), &all) == 0)
			cpu_list(&all, list, sizeof(list));
		else
			strcpy(list, "?");
		fprintf(stderr, "shoal: host %s: rank %d not bound (cpus %s)\n", host, rank, list);
	}
	return false;
}

int shl_loader_bind_rank(pthread_attr_t *attr, int k, int rank)
{
	cpu_set_t cpus;

	return shl_loader_bind_cpus(k, rank, &cpus) ?
		pthread_attr_setaffinity_np(attr, sizeof(cpus), &cpus) : 0;
}
