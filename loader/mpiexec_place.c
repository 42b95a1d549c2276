/* Placement of world ranks on hosts for mpiexec (loader/mpiexec_place.h): parsing host lists
 * and hostfiles, and mapping ranks by slot or by node.
 * Entered by mpiexec's only thread.
 * Must not print (callers report `why`) or exit; owns only the struct shl_place it is given. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "loader/mpiexec_place.h"

/* Most slots a host may have: beyond a million ranks mpiexec refuses the job anyway. */
#define SHL_PLACE_SLOTS_MAX 1000000L

static int add_host(struct shl_place *p, const char *name, size_t n, long slots, char *why,
		    size_t len)
{
	if (n == 0 || n >= SHL_PLACE_HOST_MAX) {
		snprintf(why, len, "bad host name '%.*s'", (int)n, name);
		return -EINVAL;
	}
	for (int i = 0; i < p->nhosts; i++)
		if (strlen(p->hosts[i].name) == n && !memcmp(p->hosts[i].name, name, n)) {
			if (p->hosts[i].slots + slots > SHL_PLACE_SLOTS_MAX)
				goto too_many;
			p->hosts[i].slots += slots;
			return 0;
		}
	if (p->nhosts == p->cap) {
		int cap = p->cap ? 2 * p->cap : 8;
		struct shl_place_host *h = realloc(p->hosts, (size_t)cap * sizeof(*h));

		if (!h)
			return -ENOMEM;
		p->hosts = h;
		p->cap = cap;
	}
	p->hosts[p->nhosts] = (struct shl_place_host){ .name = strndup(name, n), .slots = slots,
						       .node = -1 };
	if (!p->hosts[p->nhosts].name)
		return -ENOMEM;
	p->nhosts++;
	return 0;
too_many:
	snprintf(why, len, "more than %ld slots on host '%.*s'", SHL_PLACE_SLOTS_MAX, (int)n,
		 name);
	return -EINVAL;
}

/* A slot count: whole decimal number in 1..SHL_PLACE_SLOTS_MAX, the whole string. */
static long slot_count(const char *s, size_t n)
{
	long v = 0;

	if (n == 0 || n > 7)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v >= 1 && v <= SHL_PLACE_SLOTS_MAX ? v : -1;
}

int shl_place_add_list(struct shl_place *p, const char *list, char *why, size_t len)
{
	const char *s = list;

	for (;;) {
		const char *end = strchrnul(s, ',');
		const char *colon = memchr(s, ':', (size_t)(end - s));
		long slots = 1;
		int err;

		if (colon) {
			slots = slot_count(colon + 1, (size_t)(end - colon - 1));
			if (slots < 0) {
				snprintf(why, len, "bad slot count in '%.*s' (want host:N, N >= 1)",
					 (int)(end - s), s);
				return -EINVAL;
			}
		}
		err = add_host(p, s, (size_t)((colon ? colon : end) - s), slots, why, len);
		if (err)
			return err;
		if (!*end)
			return 0;
		s = end + 1;
	}
}

/* One hostfile line, comment already cut: words separated by blanks. */
static int file_line(struct shl_place *p, char *line, const char *path, int lineno,
		     char *why, size_t len)
{
	char *save, *word = strtok_r(line, " \t\r\n", &save);
	char *colon;
	long slots = 1;
	size_t n;
	int err;

	if (!word)
		return 0;
	colon = strchr(word, ':');
	n = colon ? (size_t)(colon - word) : strlen(word);
	if (colon && (slots = slot_count(colon + 1, strlen(colon + 1))) < 0)
		goto bad;
	for (char *w; (w = strtok_r(NULL, " \t\r\n", &save));) {
		if (!strncmp(w, "slots=", 6)) {
			if ((slots = slot_count(w + 6, strlen(w + 6))) < 0)
				goto bad;
		} else if (!strchr(w, '=')) {
			snprintf(why, len, "%s:%d: unexpected '%s' (want 'host slots=N' or "
				 "'host:N')", path, lineno, w);
			return -EINVAL;
		}
	}
	err = add_host(p, word, n, slots, why, len);
	if (err == -EINVAL) {
		char inner[2 * SHL_PLACE_HOST_MAX];

		snprintf(inner, sizeof(inner), "%s", why);
		snprintf(why, len, "%s:%d: %s", path, lineno, inner);
	}
	return err;
bad:
	snprintf(why, len, "%s:%d: bad slot count (want a whole number >= 1)", path, lineno);
	return -EINVAL;
}

int shl_place_add_file(struct shl_place *p, const char *path, char *why, size_t len)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0, err = 0;

	if (!f) {
		err = -errno;
		snprintf(why, len, "cannot read hostfile %s: %s", path, strerror(errno));
		return err;
	}
	while (getline(&line, &cap, f) >= 0) {
		char *hash = strchr(line, '#');

		lineno++;
		if (hash)
			*hash = '\0';
		err = file_line(p, line, path, lineno, why, len);
		if (err)
			break;
	}
	free(line);
	fclose(f);
	if (!err && p->nhosts == 0) {
		snprintf(why, len, "hostfile %s names no host", path);
		err = -EINVAL;
	}
	return err;
}

long shl_place_slots(const struct shl_place *p, long ppn)
{
	long total = 0;

	for (int i = 0; i < p->nhosts; i++)
		total += ppn > 0 ? ppn : p->hosts[i].slots;
	return total;
}

int shl_place_map(struct shl_place *p, long nranks, long ppn, bool by_node)
{
	long *used = calloc((size_t)p->nhosts, sizeof(long));
	long total = shl_place_slots(p, ppn);
	int h = 0;

	p->node_of = malloc((size_t)nranks * sizeof(*p->node_of));
	p->host_of_node = malloc((size_t)p->nhosts * sizeof(int));
	if (!used || !p->node_of || !p->host_of_node) {
		free(used);
		return -ENOMEM;
	}
	/* First pass: host index per rank, kept in node_of until nodes are numbered. */
	for (long r = 0; r < nranks; r++) {
		if (r % total == 0) {  /* a new round: every slot free again */
			memset(used, 0, (size_t)p->nhosts * sizeof(long));
			h = 0;
		}
		if (by_node) {
			while (used[h] == (ppn > 0 ? ppn : p->hosts[h].slots))
				h = (h + 1) % p->nhosts;
			p->node_of[r] = (uint32_t)h;
			used[h]++;
			h = (h + 1) % p->nhosts;
		} else {
			while (used[h] == (ppn > 0 ? ppn : p->hosts[h].slots))
				h++;
			p->node_of[r] = (uint32_t)h;
			used[h]++;
		}
		p->hosts[p->node_of[r]].nranks++;
	}
	free(used);
	/* Nodes are the hosts that got ranks, in host order. */
	p->nnodes = 0;
	for (int i = 0; i < p->nhosts; i++)
		if (p->hosts[i].nranks > 0) {
			p->hosts[i].node = p->nnodes;
			p->host_of_node[p->nnodes++] = i;
		}
	for (long r = 0; r < nranks; r++)
		p->node_of[r] = (uint32_t)p->hosts[p->node_of[r]].node;
	p->nranks = nranks;
	return 0;
}

void shl_place_ranks(const struct shl_place *p, int node, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (long r = 0; r < p->nranks; r++) {
		long last = r;
		int n;

		if (p->node_of[r] != (uint32_t)node)
			continue;
		while (last + 1 < p->nranks && p->node_of[last + 1] == (uint32_t)node)
			last++;
		n = last > r ? snprintf(buf + at, len - at, "%s%ld-%ld", at ? "," : "", r, last)
			     : snprintf(buf + at, len - at, "%s%ld", at ? "," : "", r);
		if (n < 0 || (size_t)n >= len - at) {
			if (len > 4)
				strcpy(buf + len - 4, "...");
			return;
		}
		at += (size_t)n;
		r = last;
	}
}

void shl_place_print(const struct shl_place *p, FILE *out)
{
	char ranks[4096];

	for (int k = 0; k < p->nnodes; k++) {
		shl_place_ranks(p, k, ranks, sizeof(ranks));
		fprintf(out, "%s: %s\n", p->hosts[p->host_of_node[k]].name, ranks);
	}
}
