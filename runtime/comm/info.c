/* Info objects: ordered (key, value) string pairs, MPI_INFO_ENV, and the MPI_Info_*
 * family. Entered by rank threads; an info object belongs to the rank that created it
 * (MPI_INFO_ENV's sentinel resolves to a per-rank object built on first use, under the rank
 * lock). Must not interpret hints: communicators keep them and report them back. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/core/rt.h"

SHL_API SHL_HANDLE_PREDEF struct shl_info shl_mpi_info_env = { .magic = SHL_INFO_MAGIC, .predefined = true };

static struct shl_info *info_new(void)
{
	struct shl_info *info = shl_handle_alloc(sizeof(*info));

	if (info != NULL)
		info->magic = SHL_INFO_MAGIC;
	return info;
}

void shl_info_free(struct shl_info *info)
{
	if (info == NULL)
		return;
	for (int i = 0; i < info->n; i++) {
		free(info->e[i].key);
		free(info->e[i].value);
	}
	free(info->e);
	shl_handle_free(info);
}

static int find(const struct shl_info *info, const char *key)
{
	for (int i = 0; i < info->n; i++)
		if (strcmp(info->e[i].key, key) == 0)
			return i;
	return -1;
}

/* Set key to value (both copied). Returns 0 or -ENOMEM. */
static int put(struct shl_info *info, const char *key, const char *value)
{
	int i = find(info, key);
	char *v = strdup(value), *k = i < 0 ? strdup(key) : NULL;

	if (v == NULL || (i < 0 && k == NULL))
		goto nomem;
	if (i >= 0) {
		free(info->e[i].value);
		info->e[i].value = v;
		return 0;
	}
	if (info->n == info->cap) {
		int cap = info->cap ? 2 * info->cap : 8;
		struct shl_info_entry *e = realloc(info->e, (size_t)cap * sizeof(*e));
		if (e == NULL)
			goto nomem;
		info->e = e;
		info->cap = cap;
	}
	info->e[info->n++] = (struct shl_info_entry){ k, v };
	return 0;
nomem:
	free(v);
	free(k);
	return -ENOMEM;
}

int shl_info_set(struct shl_info *info, const char *key, const char *value)
{
	return put(info, key, value);
}

struct shl_info *shl_info_dup(const struct shl_info *src)
{
	struct shl_info *info = info_new();

	if (info == NULL || src == NULL)
		return info;
	for (int i = 0; i < src->n; i++) {
		if (put(info, src->e[i].key, src->e[i].value) < 0) {
			shl_info_free(info);
			return NULL;
		}
	}
	return info;
}

/* Keys the MPI standard reserves for the environment (MPI 4.1, 11.4), those we know. */
static int fill_env(struct shl_rank *r, struct shl_info *info)
{
	char buf[4096];
	static const char *const levels[] = { "MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED",
					      "MPI_THREAD_SERIALIZED", "MPI_THREAD_MULTIPLE" };
	int rc;

	snprintf(buf, sizeof(buf), "%d", shl_job.size);
	rc = put(info, "maxprocs", buf);
	if (rc == 0 && gethostname(buf, sizeof(buf)) == 0) {
		buf[sizeof(buf) - 1] = '\0';
		rc = put(info, "host", buf);
	}
	if (rc == 0)
		rc = put(info, "arch", "x86_64");
	if (rc == 0 && getcwd(buf, sizeof(buf)) != NULL)
		rc = put(info, "wdir", buf);
	if (rc == 0 && r->thread_level >= 0 && r->thread_level <= MPI_THREAD_MULTIPLE)
		rc = put(info, "thread_level", levels[r->thread_level]);
	return rc;
}

struct shl_info *shl_info_get(struct shl_rank *r, MPI_Info h)
{
	struct shl_info *env;

	if (!shl_handle_mapped(h, sizeof(*h)) || h->magic != SHL_INFO_MAGIC)
		return NULL;
	if (h != &shl_mpi_info_env)
		return h;
	shl_rank_lock(r);
	env = r->objs->env;
	if (env == NULL && (env = info_new()) != NULL) {
		if (fill_env(r, env) < 0) {
			shl_info_free(env);
			env = NULL;
		}
		r->objs->env = env;
	}
	shl_rank_unlock(r);
	return env;
}

/* The info argument of an MPI_Info_* call; `writable` refuses MPI_INFO_ENV. */
static int get(const char *fn, struct shl_rank *r, MPI_Info h, bool writable,
	       struct shl_info **info)
{
	*info = NULL;
	if (writable && h == &shl_mpi_info_env)
		return shl_err(NULL, MPI_ERR_INFO, fn, "MPI_INFO_ENV cannot be changed");
	*info = shl_info_get(r, h);
	if (*info == NULL)
		return shl_err(NULL, shl_handle_mapped(h, sizeof(*h)) && h->magic == SHL_INFO_MAGIC
					     ? MPI_ERR_NO_MEM : MPI_ERR_INFO,
			       fn, "invalid info argument%s", h == NULL ? " (MPI_INFO_NULL)" : "");
	return MPI_SUCCESS;
}

static int check_key(const char *fn, const char *key)
{
	if (key == NULL)
		return shl_err(NULL, MPI_ERR_INFO_KEY, fn, "key is NULL");
	if (key[0] == '\0' || strlen(key) > MPI_MAX_INFO_KEY - 1)
		return shl_err(NULL, MPI_ERR_INFO_KEY, fn, "key of %zu characters (must be "
			       "1..%d)", strlen(key), MPI_MAX_INFO_KEY - 1);
	return MPI_SUCCESS;
}

int PMPI_Info_create(MPI_Info *info)
{
	shl_rank_any_phase("MPI_Info_create");
	if (info == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Info_create", "info is NULL");
	*info = info_new();
	if (*info == NULL)
		return shl_err(NULL, MPI_ERR_NO_MEM, "MPI_Info_create", "out of memory");
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Info_create);

int PMPI_Info_create_env(int argc, char *argv[], MPI_Info *info)
{
	const char *fn = "MPI_Info_create_env";
	struct shl_rank *r = shl_self;
	struct shl_info *in;
	char *args = NULL;
	size_t len = 0;
	int rc = 0;

	if (info == NULL)
		return shl_err(NULL, MPI_ERR_ARG, fn, "info is NULL");
	in = info_new();
	if (in == NULL)
		return shl_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
	if (argc > 0 && argv != NULL && argv[0] != NULL)
		rc = put(in, "command", argv[0]);
	for (int i = 1; rc == 0 && argv != NULL && i < argc; i++) {
		size_t n = strlen(argv[i]);
		char *grown = realloc(args, len + n + 2);
		if (grown == NULL) {
			rc = -ENOMEM;
			break;
		}
		args = grown;
		if (len > 0)
			args[len++] = ' ';
		memcpy(args + len, argv[i], n + 1);
		len += n;
	}
	if (rc == 0 && args != NULL)
		rc = put(in, "argv", args);
	free(args);
	/* Callable before MPI_Init (MPI 4.1, 11.4): the environment needs a rank then. */
	if (rc == 0 && r != NULL && r->objs != NULL)
		rc = fill_env(r, in);
	if (rc < 0) {
		shl_info_free(in);
		return shl_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
	}
	*info = in;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Info_create_env);

int PMPI_Info_set(MPI_Info info, const char *key, const char *value)
{
	const char *fn = "MPI_Info_set";
	struct shl_rank *r = shl_rank_any_phase(fn);
	struct shl_info *in;
	int err = get(fn, r, info, true, &in);

	if (err == MPI_SUCCESS)
		err = check_key(fn, key);
	if (err != MPI_SUCCESS)
		return err;
	if (value == NULL || value[0] == '\0' || strlen(value) > MPI_MAX_INFO_VAL - 1)
		return shl_err(NULL, MPI_ERR_INFO_VALUE, fn, "value is NULL, empty or longer than "
			       "%d characters", MPI_MAX_INFO_VAL - 1);
	if (put(in, key, value) < 0)
		return shl_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Info_set);

/* Look `key` up in `info`: its value or NULL. */
static int lookup(const char *fn, MPI_Info info, const char *key, const char **value)
{
	struct shl_rank *r = shl_rank_any_phase(fn);
	struct shl_info *in;
	int err = get(fn, r, info, false, &in), i;

	if (err == MPI_SUCCESS)
		err = check_key(fn, key);
	if (err != MPI_SUCCESS)
		return err;
	i = find(in, key);
	*value = i < 0 ? NULL : in->e[i].value;
	return MPI_SUCCESS;
}

int PMPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag)
{
	const char *v;
	int err = lookup("MPI_Info_get", info, key, &v);

	if (err != MPI_SUCCESS)
		return err;
	if (value == NULL || flag == NULL || valuelen < 0)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Info_get",
			       "value or flag is NULL, or valuelen is negative");
	*flag = v != NULL;
	/* At most valuelen characters, and the terminator (MPI 4.1, 10.4). */
	if (v != NULL)
		snprintf(value, (size_t)valuelen + 1, "%s", v);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Info_get);

int PMPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag)
{
	const char *v;
	int err = lookup("MPI_Info_get_string", info, key, &v);

	if (err != MPI_SUCCESS)
		return err;
	if (buflen == NULL || flag == NULL || *buflen < 0 || (*buflen > 0 && value == NULL))
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Info_get_string",
			       "buflen or flag is NULL, or value is NULL with buflen > 0");
	*flag = v != NULL;
	if (v == NULL)
		return MPI_SUCCESS;
	/* Copy what fits, terminated; report the size the whole value needs. */
	if (*buflen > 0)
		snprintf(value, (size_t)*buflen, "%s", v);
	*buflen = (int)strlen(v) + 1;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Info_get_string);

int PMPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag)
{
	const char *v;
	int err = lookup("MPI_Info_get_valuelen", info, key, &v);

	if (err != MPI_SUCCESS)
		return err;
	if (valuelen == NULL || flag == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Info_get_valuelen",
			       "valuelen or flag is NULL");
	*flag = v != NULL;
	if (v != NULL)
		*valuelen = (int)strlen(v);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Info_get_valuelen);

int PMPI_Info_delete(MPI_Info info, const char *key)
{
	const char *fn = "MPI_Info_delete";
	struct shl_rank *r = shl_rank_any_phase(fn);
	struct shl_info *in;
	int err = get(fn, r, info, true, &in), i;

	if (err == MPI_SUCCESS)
		err = check_key(fn, key);
	if (err != MPI_SUCCESS)
		return err;
	i = find(in, key);
	if (i < 0)
		return shl_err(NULL, MPI_ERR_INFO_NOKEY, fn, "key \"%s\" is not set", key);
	free(in->e[i].key);
	free(in->e[i].value);
	memmove(&in->e[i], &in->e[i + 1], (size_t)(in->n - i - 1) * sizeof(in->e[0]));
	in->n--;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Info_delete);

int PMPI_Info_get_nkeys(MPI_Info info, int *nkeys)
{
	struct shl_rank *r = shl_rank_any_phase("MPI_Info_get_nkeys");
	struct shl_info *in;
	int err = get("MPI_Info_get_nkeys", r, info, false, &in);

	if (err != MPI_SUCCESS)
		return err;
	if (nkeys == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Info_get_nkeys", "nkeys is NULL");
	*nkeys = in->n;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Info_get_nkeys);

int PMPI_Info_get_nthkey(MPI_Info info, int n, char *key)
{
	struct shl_rank *r = shl_rank_any_phase("MPI_Info_get_nthkey");
	struct shl_info *in;
	int err = get("MPI_Info_get_nthkey", r, info, false, &in);

	if (err != MPI_SUCCESS)
		return err;
	if (key == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Info_get_nthkey", "key is NULL");
	if (n < 0 || n >= in->n)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Info_get_nthkey",
			       "n %d is outside 0..%d (the number of keys less one)", n, in->n - 1);
	snprintf(key, MPI_MAX_INFO_KEY, "%s", in->e[n].key);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Info_get_nthkey);

int PMPI_Info_dup(MPI_Info info, MPI_Info *newinfo)
{
	struct shl_rank *r = shl_rank_any_phase("MPI_Info_dup");
	struct shl_info *in;
	int err = get("MPI_Info_dup", r, info, false, &in);

	if (err != MPI_SUCCESS)
		return err;
	if (newinfo == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Info_dup", "newinfo is NULL");
	*newinfo = shl_info_dup(in);
	if (*newinfo == NULL)
		return shl_err(NULL, MPI_ERR_NO_MEM, "MPI_Info_dup", "out of memory");
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Info_dup);

int PMPI_Info_free(MPI_Info *info)
{
	struct shl_rank *r = shl_rank_any_phase("MPI_Info_free");
	struct shl_info *in;
	int err;

	if (info == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Info_free", "info is NULL");
	err = get("MPI_Info_free", r, *info, true, &in);
	if (err != MPI_SUCCESS)
		return err;
	shl_info_free(in);
	*info = MPI_INFO_NULL;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Info_free);
