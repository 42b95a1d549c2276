/* Job directories (jobdir.h). Any thread; no state. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loader/jobdir.h"

/* mkdtemp(3) takes a name that ends in exactly these six characters and replaces them
 * with random ones: they are its required template, not a placeholder of ours. */
#define MKDTEMP_TEMPLATE "XXXXXX"

void shl_jobdir_remove(const char *dir)
{
	DIR *d;
	struct dirent *e;

	if (!dir[0])
		return;
	d = opendir(dir);
	if (d) {
		while ((e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				unlinkat(dirfd(d), e->d_name, 0);
		closedir(d);
	}
	rmdir(dir);
}

/* Remove the directories `<prefix>-<pid>-...` of `base` whose owner `pid` is gone. */
static void sweep(const char *base, const char *prefix)
{
	size_t plen = strlen(prefix);
	DIR *d = opendir(base);
	struct dirent *e;
	char path[PATH_MAX];

	while (d && (e = readdir(d))) {
		char *end;
		long pid;

		if (strncmp(e->d_name, prefix, plen) != 0 || e->d_name[plen] != '-')
			continue;
		pid = strtol(e->d_name + plen + 1, &end, 10);
		if (end == e->d_name + plen + 1 || (*end != '-' && *end != '\0') || pid <= 0 ||
		    pid > INT_MAX || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", base, e->d_name) < sizeof(path))
			shl_jobdir_remove(path);
	}
	if (d)
		closedir(d);
}

int shl_jobdir_make(const char *prefix, char *dir, size_t len)
{
	const char *bases[] = { "/dev/shm", getenv("TMPDIR"), "/tmp" };
	int err = ENOENT;
	struct stat st;

	for (size_t i = 0; i < sizeof(bases) / sizeof(bases[0]); i++) {
		if (!bases[i] || stat(bases[i], &st) < 0 || !S_ISDIR(st.st_mode) ||
		    access(bases[i], W_OK | X_OK) < 0)
			continue;
		sweep(bases[i], prefix);
		if ((size_t)snprintf(dir, len, "%s/%s-%d-" MKDTEMP_TEMPLATE, bases[i], prefix,
				     (int)getpid()) >= len)
			return -ENAMETOOLONG;
		if (mkdtemp(dir))
			return 0;
		err = errno;
	}
	dir[0] = '\0';
	return -err;
}
