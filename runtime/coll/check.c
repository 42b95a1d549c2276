/* Argument checks at the MPI boundary that every collective shares: the communicator (and
 * that it still takes collectives), the request pointer, the root, the v and w arrays of
 * counts and types, and the info of a persistent collective's …_init call. Each reports
 * through the communicator's error handler (shl_err) and returns the class. Entered by
 * rank threads, at the entry of a collective call, before it joins anything. Must not
 * change any state: a call that fails here has not started. Buffers are checked by
 * shl_coll_check_buf (coll/internal.h), receive layouts by coll/layout.c. */
#include <stdio.h>

#include "runtime/coll/internal.h"

int shl_coll_comm(const char *fn, struct shl_rank *r, MPI_Comm comm, bool nb,
		  MPI_Request *request, struct shl_comm **c)
{
	*c = shl_comm_get(r, comm);
	if (*c == NULL)
		return shl_err(NULL, MPI_ERR_COMM, fn, "invalid communicator argument comm%s",
			       comm == MPI_COMM_NULL ? " (MPI_COMM_NULL)" : "");
	/* One load of a word on the shared object's read-mostly line. */
	if (unlikely(atomic_load_explicit(&(*c)->sh->broken, memory_order_relaxed)))
		return shl_coll_usable(*c, fn);
	if (nb && request == NULL)
		return shl_err(*c, MPI_ERR_REQUEST, fn, "request is NULL");
	return MPI_SUCCESS;
}

int shl_coll_rootarg(struct shl_comm *c, const char *fn, int root)
{
	if (c->inter ? root == MPI_ROOT || root == MPI_PROC_NULL ||
		       (root >= 0 && root < c->remote_size)
		     : root >= 0 && root < c->size)
		return MPI_SUCCESS;
	return shl_err(c, MPI_ERR_ROOT, fn, "root %d is not a rank of the %sgroup (size %d)",
		       root, c->inter ? "remote " : "", c->inter ? c->remote_size : c->size);
}

int shl_coll_check_vec(struct shl_comm *c, const char *fn, const char *what, int n,
		       const struct shl_cargs *x, const void *counts, const void *displs,
		       const MPI_Datatype *types, MPI_Datatype type)
{
	char name[32];

	if (n > 0 && (counts == NULL || displs == NULL || (type == NULL && types == NULL)))
		return shl_err(c, MPI_ERR_ARG, fn, "%scounts or %sdispls is NULL", what, what);
	for (int i = 0; i < n; i++) {
		/* An entry of a w-collective's array, by its name and index. */
		if (types != NULL && !shl_type_ok(types[i]))
			return shl_err(c, MPI_ERR_TYPE, fn, "%stypes[%d] (%p) is not a datatype%s",
				       what, i, (void *)types[i],
				       types[i] == MPI_DATATYPE_NULL ? " (MPI_DATATYPE_NULL)" : "");
		snprintf(name, sizeof(name), "%s (entry %d) ", what, i);
		int err = shl_check_count(c, fn, name, shl_coll_count(x, counts, i),
					  types ? types[i] : type);
		if (err != MPI_SUCCESS)
			return err;
	}
	return MPI_SUCCESS;
}

int shl_coll_info(struct shl_rank *r, MPI_Comm comm, const char *fn, MPI_Info info)
{
	if (info == MPI_INFO_NULL || shl_info_get(r, info) != NULL)
		return MPI_SUCCESS;
	return shl_err(shl_comm_get(r, comm), MPI_ERR_INFO, fn, "invalid info argument");
}
