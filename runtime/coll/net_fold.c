/* Allreduce across nodes folded per node: when the op's result does not depend on the
 * order (a predefined op on integers or bytes), each node's leader sends the fold of its
 * members' inputs instead of the inputs, and every node folds the other nodes' parts
 * into its own. Entered by the node leader's progress engine, inside its exchange
 * (coll/net.c). Must not apply to an op whose result depends on the order of the folds:
 * those go through every member's input in rank order (coll/net_pack.c). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/coll/net_internal.h"

bool shl_coll_net_exact(struct shl_netop *op)
{
	const struct shl_cargs *l = op->arg[op->nc->leader];
	const struct shl_datatype *t = l->stype;

	/* An intercommunicator's groups are folded apart: no node folds both. */
	if (op->sh->inter || l->op == NULL || l->op->kind > SHL_OP_BXOR || !t->predefined ||
	    (t->kind != SHL_DT_SIGNED && t->kind != SHL_DT_UNSIGNED && t->kind != SHL_DT_BYTES))
		return false;
	for (int j = 0; j < op->sh->nmembers; j++) {
		const struct shl_cargs *x = op->arg[j];
		if (x != NULL && (x->op == NULL || x->op->kind != l->op->kind || x->stype != t ||
				  x->scount != l->scount))
			return false;
	}
	return true;
}

static const void *input_of(const struct shl_cargs *x)
{
	return x->sbuf == MPI_IN_PLACE ? x->rbuf : x->sbuf;
}

/* Fold this node's members' inputs of `op`, in rank order, into *acc (*tmp: the step's
 * scratch, swapped with *acc as shl_fold_step does). */
static void fold_local(const struct shl_netop *op, struct shl_fold *f, void **acc, void **tmp)
{
	bool first = true;

	for (int j = 0; j < op->sh->nmembers; j++) {
		const struct shl_cargs *x = op->arg[j];
		if (x == NULL)
			continue;
		if (first)
			shl_fold_load(f, *acc, input_of(x), x->stype);
		else
			shl_fold_step(f, acc, tmp, input_of(x), x->stype);
		first = false;
	}
}

char *shl_coll_net_partial(struct shl_netop *op, uint64_t *len)
{
	const struct shl_cargs *l = op->arg[op->nc->leader];
	struct shl_net_head h = { .fn = shl_coll_net_fn_id(op->run), .key = op->key, .partial = 1 };
	struct shl_fold f;
	char why[SHL_OP_WHY], *b;
	void *acc, *tmp;

	if (shl_fold_init(&f, l->op, l->stype, l->scount, false, why) != 0 || f.k == NULL)
		return NULL;
	acc = shl_fold_buf(&f);
	tmp = shl_fold_buf(&f);
	*len = sizeof(h) + f.bytes;
	b = malloc(*len);
	if (acc == NULL || tmp == NULL || b == NULL)
		shl_panic("collective across nodes", ENOMEM, "no memory for the network phase");
	fold_local(op, &f, &acc, &tmp);
	memcpy(b, &h, sizeof(h));
	memcpy(b + sizeof(h), acc, f.bytes);
	shl_fold_free(&f, acc);
	shl_fold_free(&f, tmp);
	return b;
}

int shl_coll_net_combine(struct shl_netop *op)
{
	const struct shl_cargs *l = op->arg[op->nc->leader];
	struct shl_fold f;
	char why[SHL_OP_WHY];
	void *acc, *tmp;
	int err = 0;

	if ((err = shl_fold_init(&f, l->op, l->stype, l->scount, false, why)) != 0)
		return err;
	if (f.k == NULL)
		return MPI_ERR_OP;  /* a user op here, a predefined one on another node */
	acc = shl_fold_buf(&f);
	tmp = shl_fold_buf(&f);
	if (acc == NULL || tmp == NULL) {
		err = MPI_ERR_NO_MEM;
		goto out;
	}
	fold_local(op, &f, &acc, &tmp);
	for (int p = 0; p < op->nc->npeers && err == 0; p++) {
		const struct shl_net_peer *x = &op->peer[p];
		struct shl_net_head h;
		memcpy(&h, x->rbuf, sizeof(h));
		if (h.partial) {
			if (x->rlen != sizeof(h) + f.bytes)
				err = MPI_ERR_COUNT;
			else
				f.k(x->rbuf + sizeof(h), acc, f.nbasic);
			continue;
		}
		/* Entries: each a reduction's one input block, packed. */
		uint64_t at = sizeof(h);
		for (uint32_t i = 0; i < h.nent && err == 0; i++) {
			struct shl_net_ent e;
			uint64_t v;
			if (x->rlen - at < sizeof(e) + 8) {
				err = MPI_ERR_INTERN;
				break;
			}
			memcpy(&e, x->rbuf + at, sizeof(e));
			memcpy(&v, x->rbuf + at + sizeof(e), 8);
			at += sizeof(e) + 8ull * (e.ns + e.nr);
			if (e.ns != 1 || e.nr != 0 || v != f.bytes || x->rlen - at < v) {
				err = MPI_ERR_COUNT;
				break;
			}
			f.k(x->rbuf + at, acc, f.nbasic);
			at += v;
		}
	}
	for (int j = 0; j < op->sh->nmembers && err == 0; j++)
		if (op->arg[j] != NULL)
			shl_fold_store(&f, op->arg[j]->rbuf, op->arg[j]->rtype, acc);
out:
	shl_fold_free(&f, acc);
	shl_fold_free(&f, tmp);
	return err;
}
