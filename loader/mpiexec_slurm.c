/* mpiexec inside a Slurm allocation (docs/offnode.md, "Slurm"): the hosts and slots of the
 * allocation, from SLURM_JOB_NODELIST expanded by `scontrol show hostnames` and
 * SLURM_TASKS_PER_NODE. The node processes are started by one srun (mpiexec_launch.c).
 * Entered by mpiexec's only thread, before placement. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "loader/mpiexec.h"

bool shl_slurm_inside(void)
{
	const char *id = getenv("SLURM_JOB_ID"), *list = getenv("SLURM_JOB_NODELIST");

	if (!list || !*list)
		list = getenv("SLURM_NODELIST");
	return id && *id && list && *list;
}

/* The output of `scontrol show hostnames LIST` (no shell between), malloc'd, or NULL. */
static char *expand(const char *list, char *why, size_t len)
{
	int fds[2], status;
	size_t n = 0, cap = 4096;
	char *out = malloc(cap);
	pid_t pid;

	if (!out || pipe(fds) < 0) {
		free(out);
		snprintf(why, len, "out of memory");
		return NULL;
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		close(fds[0]);
		close(fds[1]);
		execlp("scontrol", "scontrol", "show", "hostnames", list, (char *)NULL);
		fprintf(stderr, "mpiexec: cannot run scontrol: %s\n", strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	for (ssize_t r; pid > 0 && (r = read(fds[0], out + n, cap - n - 1)) != 0;) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		n += (size_t)r;
		if (n + 1 == cap) {
			char *b = realloc(out, cap *= 2);

			if (!b)
				break;
			out = b;
		}
	}
	close(fds[0]);
	out[n] = '\0';
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0 || n == 0) {
		snprintf(why, len, "scontrol show hostnames %s failed", list);
		free(out);
		return NULL;
	}
	return out;
}

/* Slots of the i-th node from SLURM_TASKS_PER_NODE ("2(x3),1": 2, 2, 2, then 1), or 1. */
static long tasks_of(const char *spec, int i)
{
	while (spec && *spec) {
		char *end;
		long n = strtol(spec, &end, 10), times = 1;

		if (end == spec || n < 1)
			return 1;
		if (!strncmp(end, "(x", 2)) {
			times = strtol(end + 2, &end, 10);
			if (*end != ')' || times < 1)
				return 1;
			end++;
		}
		if (i < times)
			return n;
		i -= (int)times;
		spec = *end == ',' ? end + 1 : NULL;
	}
	return 1;
}

int shl_slurm_hosts(struct shl_place *p, char *why, size_t len)
{
	const char *list = getenv("SLURM_JOB_NODELIST");
	const char *tasks = getenv("SLURM_TASKS_PER_NODE");
	char *names, *save, entry[SHL_PLACE_HOST_MAX + 24];
	int i = 0, err = 0;

	if (!list || !*list)
		list = getenv("SLURM_NODELIST");
	names = expand(list, why, len);
	if (!names)
		return -EINVAL;
	for (char *h = strtok_r(names, " \t\n", &save); h && !err;
	     h = strtok_r(NULL, " \t\n", &save), i++) {
		snprintf(entry, sizeof(entry), "%.*s:%ld", SHL_PLACE_HOST_MAX, h, tasks_of(tasks, i));
		err = shl_place_add_list(p, entry, why, len);
	}
	free(names);
	if (!err && i == 0) {
		snprintf(why, len, "the Slurm allocation %s names no host", list);
		err = -EINVAL;
	}
	return err;
}
