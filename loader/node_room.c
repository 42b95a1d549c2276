/* Whether a node can hold its ranks, judged before any rank's copy is made: memory maps
 * (vm.max_map_count), threads (kernel.threads-max, kernel.pid_max, RLIMIT_NPROC, the
 * cgroup's pids.max), memory (MemAvailable, the cgroup's memory limit), address space for
 * the stacks (RLIMIT_AS, the commit limit under strict overcommit) and room for the copies
 * in the job directory. A job past one of them is refused with a line naming the limit and
 * the figure, instead of failing rank by rank, or swapping and thrashing, long after it
 * started. The figures per rank are estimates (docs/process-model.md, "Limits"): a job
 * near a limit may still fail later, one refused here could not have run.
 * Entered by the node's main thread, once, before the ranks start (shl_node_room); no
 * state. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "loader/loader_internal.h"

/* Memory maps of one rank: its copy's segments (a program mpicc links has 4, the writable
 * one split in two once its relocations are read-only), its stack and guard page, its
 * signal stack and guard page. */
#define SHL_ROOM_MAPS_PER_RANK 8
/* And of each private library it loads: its segments, the writable one split in two. */
#define SHL_ROOM_MAPS_PER_LIBRARY 5
/* Threads of a node besides its ranks, beyond one carrier per CPU: main, completion
 * thread, watchdog, signals, ticker, with room for a few more. */
#define SHL_ROOM_THREADS_EXTRA 8
/* Memory of a rank besides its copies' data: its runtime state, the part of its
 * stack a rank touches at least (MPI_Init, the copy's constructors) and its TLS. */
#define SHL_ROOM_RANK_BYTES (64ull << 10)
/* Address space a process can use for stacks: half of x86-64's 128 TiB user half. */
#define SHL_ROOM_ADDRESS_SPACE (64ull << 40)

/* A number from the first line of `path`; false if absent or not a number ("max"). */
static bool read_num(const char *path, unsigned long long *v)
{
	FILE *f = fopen(path, "re");
	bool ok;

	if (f == NULL)
		return false;
	ok = fscanf(f, "%llu", v) == 1;
	fclose(f);
	return ok;
}

/* The value of `key` (kB) in /proc/meminfo, in bytes. */
static bool meminfo(const char *key, unsigned long long *v)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[256];
	size_t n = strlen(key);
	bool ok = false;

	if (f == NULL)
		return false;
	while (!ok && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ':' &&
		    sscanf(line + n + 1, "%llu", v) == 1) {
			*v <<= 10;
			ok = true;
		}
	fclose(f);
	return ok;
}

static unsigned long long lines_of(const char *path)
{
	FILE *f = fopen(path, "re");
	unsigned long long n = 0;
	int ch;

	if (f == NULL)
		return 0;
	while ((ch = getc_unlocked(f)) != EOF)
		n += ch == '\n';
	fclose(f);
	return n;
}

/* Threads on the machine now: the total of /proc/loadavg's "running/total". */
static unsigned long long threads_now(void)
{
	unsigned long long total = 0;
	FILE *f = fopen("/proc/loadavg", "re");

	if (f != NULL) {
		if (fscanf(f, "%*s %*s %*s %*u/%llu", &total) != 1)
			total = 0;
		fclose(f);
	}
	return total;
}

/* The least room left under `limit_file` minus `used_file` of cgroup controller `ctl`
 * (v1: its own hierarchy; v2: `v2_limit`/`v2_used` in the unified one) in this process's
 * cgroup and its ancestors. False if no limit is set. */
static bool cgroup_room(const char *ctl, const char *limit_file, const char *used_file,
			const char *v2_limit, const char *v2_used, unsigned long long *room,
			unsigned long long *limit_out)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	char line[4096], path[4096 + 64], dir[4096], v1root[64];
	bool found = false;

	if (f == NULL)
		return false;
	while (fgets(line, sizeof(line), f)) {
		char *ctls = strchr(line, ':'), *cg, *end;
		const char *roots[2], *lim, *use;
		bool v2;

		if (ctls == NULL || (cg = strchr(++ctls, ':')) == NULL)
			continue;
		*cg++ = '\0';
		if ((end = strchr(cg, '\n')) != NULL)
			*end = '\0';
		v2 = *ctls == '\0';
		if (!v2) {
			bool has = false;
			for (char *t = strtok(ctls, ","); t && !has; t = strtok(NULL, ","))
				has = !strcmp(t, ctl);
			if (!has)
				continue;
		}
		snprintf(v1root, sizeof(v1root), "/sys/fs/cgroup/%s", ctl);
		roots[0] = v2 ? "/sys/fs/cgroup" : v1root;
		roots[1] = v2 ? "/sys/fs/cgroup/unified" : NULL;
		lim = v2 ? v2_limit : limit_file;
		use = v2 ? v2_used : used_file;
		for (int r = 0; r < 2 && roots[r]; r++) {
			snprintf(dir, sizeof(dir), "%s", cg);
			for (;;) {
				unsigned long long l, u = 0;
				char *slash;

				snprintf(path, sizeof(path), "%s%s/%s", roots[r], dir, lim);
				/* v1 memory says "no limit" with a huge number. */
				if (read_num(path, &l) && l < (1ull << 60)) {
					snprintf(path, sizeof(path), "%s%s/%s", roots[r], dir, use);
					read_num(path, &u);
					if (!found || (u < l ? l - u : 0) < *room) {
						*room = u < l ? l - u : 0;
						*limit_out = l;
					}
					found = true;
				}
				if ((slash = strrchr(dir, '/')) == NULL || dir[0] == '\0')
					break;
				*slash = '\0';
			}
		}
	}
	fclose(f);
	return found;
}

/* `bytes` as "N KiB/MiB/GiB/TiB". */
static const char *size_str(char *buf, size_t len, unsigned long long bytes)
{
	static const char *const unit[] = { "bytes", "KiB", "MiB", "GiB", "TiB" };
	int u = 0;

	while (u < 4 && bytes >= (10ull << 10)) {
		bytes >>= 10;
		u++;
	}
	snprintf(buf, len, "%llu %s", bytes, unit[u]);
	return buf;
}

static void host_of(char *buf, size_t len)
{
	const char *h = getenv("SHOAL_HOST");

	if (h && *h)
		snprintf(buf, len, "%s", h);
	else if (gethostname(buf, len - 1) < 0)
		snprintf(buf, len, "?");
}

int shl_node_room(const char *jobdir, const char *program, int nlocal, size_t stack)
{
	char host[256] = "", a[32], b[32], c[32], d[32];
	unsigned long long n = (unsigned long long)nlocal, v, used, room, lim;
	unsigned long long cpus = (unsigned long long)sysconf(_SC_NPROCESSORS_ONLN);
	unsigned long long threads = n + cpus + SHL_ROOM_THREADS_EXTRA;
	unsigned long long file = 0, data = 0, largest = 0, mem, space;
	unsigned long long maps = atomic_load(&shl_objects.n) ? 0 : SHL_ROOM_MAPS_PER_RANK;
	struct rlimit rl;
	struct statvfs vfs;
	struct stat st;
	int refused = 0;

	host_of(host, sizeof(host));
	/* The private objects (loader/rank_objects.c): copied once, each rank keeps what it
	 * writes of their data and, while it loads, one whole copy of one of them. */
	for (int k = 0; k < atomic_load(&shl_objects.n); k++) {
		const struct shl_object *o = shl_objects.objects[k];

		file += (unsigned long long)o->size;
		data += o->data_bytes;
		if ((unsigned long long)o->size > largest)
			largest = (unsigned long long)o->size;
		maps += k ? SHL_ROOM_MAPS_PER_LIBRARY : SHL_ROOM_MAPS_PER_RANK;
	}
	if (!atomic_load(&shl_objects.n) && stat(program, &st) == 0)
		largest = file = (unsigned long long)st.st_size;

	/* Memory maps. */
	if (read_num("/proc/sys/vm/max_map_count", &v)) {
		unsigned long long need = lines_of("/proc/self/maps") + n * maps;
		if (need > v) {
			fprintf(stderr, "shoal: %d ranks on host %s need about %llu memory maps "
				"(vm.max_map_count is %llu): run at most about %llu ranks on this "
				"host, or raise vm.max_map_count\n", nlocal, host, need, v, v / maps);
			refused++;
		}
	}

	/* Threads: each takes a thread id, counted by the kernel, the user and the cgroup. */
	used = threads_now();
	if (read_num("/proc/sys/kernel/threads-max", &v) && used + threads > v) {
		fprintf(stderr, "shoal: %d ranks on host %s need about %llu threads "
			"(kernel.threads-max is %llu, %llu in use)\n", nlocal, host, threads, v, used);
		refused++;
	} else if (read_num("/proc/sys/kernel/pid_max", &v) && used + threads > v) {
		fprintf(stderr, "shoal: %d ranks on host %s need about %llu threads, each with a "
			"thread id (kernel.pid_max is %llu, %llu in use)\n", nlocal, host, threads, v,
			used);
		refused++;
	}
	if (geteuid() != 0 && getrlimit(RLIMIT_NPROC, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    threads > rl.rlim_cur) {
		fprintf(stderr, "shoal: %d ranks on host %s need about %llu threads "
			"(RLIMIT_NPROC, ulimit -u, is %llu)\n", nlocal, host, threads,
			(unsigned long long)rl.rlim_cur);
		refused++;
	}
	if (cgroup_room("pids", "pids.max", "pids.current", "pids.max", "pids.current", &room,
			&lim) && threads > room) {
		fprintf(stderr, "shoal: %d ranks on host %s need about %llu threads (the cgroup's "
			"pids.max is %llu, %llu in use)\n", nlocal, host, threads, lim, lim - room);
		refused++;
	}

	/* Memory: each rank's state and data, the shared copies once (in memory on a tmpfs). */
	mem = file + n * (SHL_ROOM_RANK_BYTES + data);
	if (meminfo("MemAvailable", &v) && mem > v) {
		fprintf(stderr, "shoal: %d ranks on host %s need about %s of memory (%s of their "
			"own each with the program's data, and %s of code once; MemAvailable is "
			"%s)\n", nlocal, host, size_str(a, sizeof(a), mem),
			size_str(b, sizeof(b), SHL_ROOM_RANK_BYTES + data),
			size_str(c, sizeof(c), file), size_str(d, sizeof(d), v));
		refused++;
	}
	if (cgroup_room("memory", "memory.limit_in_bytes", "memory.usage_in_bytes", "memory.max",
			"memory.current", &room, &lim) && mem > room) {
		fprintf(stderr, "shoal: %d ranks on host %s need about %s of memory (the cgroup's "
			"memory limit is %s, %s of it free)\n", nlocal, host,
			size_str(a, sizeof(a), mem), size_str(b, sizeof(b), lim),
			size_str(c, sizeof(c), room));
		refused++;
	}

	/* A rank's whole copy of the largest object, while it loads (the shared copies are
	 * made already). */
	if (statvfs(jobdir, &vfs) == 0 &&
	    largest > (unsigned long long)vfs.f_bavail * vfs.f_frsize) {
		fprintf(stderr, "shoal: host %s needs about %s for a rank's copy of %s while it "
			"loads, in %s (%s free there)\n", host, size_str(a, sizeof(a), largest),
			program, jobdir,
			size_str(b, sizeof(b), (unsigned long long)vfs.f_bavail * vfs.f_frsize));
		refused++;
	}

	/* Address space for the stacks (mapped whole, touched as used). */
	space = n * ((unsigned long long)stack + 4096);
	if (space > SHL_ROOM_ADDRESS_SPACE ||
	    (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && space > rl.rlim_cur)) {
		fprintf(stderr, "shoal: %d ranks on host %s need about %s of address space for "
			"their stacks (SHOAL_STACK_SIZE=%zu each; the limit is %s)\n", nlocal, host,
			size_str(a, sizeof(a), space), stack,
			size_str(b, sizeof(b), space > SHL_ROOM_ADDRESS_SPACE ?
				 SHL_ROOM_ADDRESS_SPACE : (unsigned long long)rl.rlim_cur));
		refused++;
	} else if (read_num("/proc/sys/vm/overcommit_memory", &v) && v == 2 &&
		   meminfo("CommitLimit", &lim) && meminfo("Committed_AS", &used) &&
		   space > (used < lim ? lim - used : 0)) {
		fprintf(stderr, "shoal: %d ranks on host %s need about %s of committed memory for "
			"their stacks (SHOAL_STACK_SIZE=%zu each; vm.overcommit_memory is 2 and "
			"%s of CommitLimit is left)\n", nlocal, host, size_str(a, sizeof(a), space),
			stack, size_str(b, sizeof(b), used < lim ? lim - used : 0));
		refused++;
	}
	return refused ? -E2BIG : 0;
}
