/* The gdb hang report: the one gdb command line that looks at a running node process.
 * Entered by a node proxy's thread (shl_report_start, shl_report_ext) and by any thread
 * reading a setting (shl_report_env_seconds); no state of its own. Must not wait for gdb
 * nor print anything but gdb's own failure and a malformed setting. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loader/report.h"

long shl_report_env_seconds(const char *name, long dflt, long min)
{
	const char *s = getenv(name);
	char *end;
	long v;

	if (!s || !*s)
		return dflt;
	v = strtol(s, &end, 10);
	if (*end || v < min || v > 86400) {
		fprintf(stderr, "shoal: ignoring %s=%s (want whole seconds, %ld to 86400)\n", name,
			s, min);
		return dflt;
	}
	return v;
}

pid_t shl_report_start(pid_t node, const char *ext, int out)
{
	const char *gdb = getenv("SHOAL_GDB");
	char attach[48];
	pid_t g;

	/* Attached by the extension, which keeps gdb's own attach messages out of the report. */
	snprintf(attach, sizeof(attach), "shoal-report-attach %d", (int)node);
	fflush(NULL);
	g = fork();
	if (g < 0)
		return -errno;
	if (g > 0)
		return g;
	dup2(out, STDOUT_FILENO);
	dup2(out, STDERR_FILENO);
	execlp(gdb && *gdb ? gdb : "gdb", "gdb", "-batch", "-nx", "-q",
	       "-iex", "set print thread-events off", "-iex", "set auto-solib-add off",
	       "-iex", "set print inferior-events off", "-iex", "set suppress-cli-notifications on",
	       "-x", ext, "-ex", attach,
	       "-ex", "info ranks", "-ex", "mpi queues all", (char *)NULL);
	fprintf(stderr, "shoal: the hang report needs gdb (set SHOAL_GDB): %s\n", strerror(errno));
	_exit(127);
}

int shl_report_ext(char *buf, size_t len)
{
	static const char *const where[] = { "shoal_gdb.py", "../lib/shoal/shoal_gdb.py" };
	char self[PATH_MAX];
	char *slash;

	if (!realpath("/proc/self/exe", self) || !(slash = strrchr(self, '/')))
		return -ENOENT;
	*slash = '\0';
	for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++)
		if ((size_t)snprintf(buf, len, "%s/%s", self, where[i]) < len &&
		    access(buf, R_OK) == 0)
			return 0;
	return -ENOENT;
}
