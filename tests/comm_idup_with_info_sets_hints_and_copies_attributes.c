/* comm_idup_with_info_sets_hints_and_copies_attributes: MPI_Comm_idup_with_info gives the new communicator exactly the info passed (not the parent's hints), MPI_Comm_idup the parent's; both carry the parent's attributes through the copy callback once complete, and MPI_Comm_get_info returns a copy the user frees */
/* ranks: 1 2 4 */
#include <string.h>

#include "check.h"

static int copies;

static int copy_fn(MPI_Comm old, int kv, void *extra, void *in, void *out, int *flag)
{
	copies++;
	*(void **)out = (char *)in + 1;
	*flag = 1;
	return MPI_SUCCESS;
}

static void hint(MPI_Comm c, const char *key, const char *want)
{
	MPI_Info got;
	char v[64] = "";
	int len = sizeof(v), flag = -1;

	CHECK_MPI(MPI_Comm_get_info(c, &got));
	CHECK_MPI(MPI_Info_get_string(got, key, &len, v, &flag));
	CHECK_INT(flag, want != NULL);
	if (want != NULL)
		CHECK_STR(v, want);
	CHECK_MPI(MPI_Info_free(&got));
}

int main(int argc, char **argv)
{
	static char base[4];
	int kv, flag, size, n;
	void *val;
	MPI_Comm parent, a, b;
	MPI_Info pi, ni;
	MPI_Request q[2];

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_MPI(MPI_Info_create(&pi));
	CHECK_MPI(MPI_Info_set(pi, "shoal_parent_hint", "p"));
	CHECK_MPI(MPI_Comm_dup_with_info(MPI_COMM_WORLD, pi, &parent));
	CHECK_MPI(MPI_Comm_create_keyval(copy_fn, MPI_COMM_NULL_DELETE_FN, &kv, NULL));
	CHECK_MPI(MPI_Comm_set_attr(parent, kv, base));
	CHECK_MPI(MPI_Info_create(&ni));
	CHECK_MPI(MPI_Info_set(ni, "shoal_new_hint", "n"));

	CHECK_MPI(MPI_Comm_idup_with_info(parent, ni, &a, &q[0]));
	CHECK_MPI(MPI_Comm_idup(parent, &b, &q[1]));
	/* The info may be freed at once: the new communicator has its own copy. */
	CHECK_MPI(MPI_Info_free(&ni));
	CHECK_MPI(MPI_Waitall(2, q, MPI_STATUSES_IGNORE));
	CHECK_INT(copies, 2);

	hint(a, "shoal_new_hint", "n");
	hint(a, "shoal_parent_hint", NULL);
	hint(b, "shoal_parent_hint", "p");
	hint(b, "shoal_new_hint", NULL);
	for (int i = 0; i < 2; i++) {
		MPI_Comm c = i ? b : a;
		CHECK_MPI(MPI_Comm_get_attr(c, kv, &val, &flag));
		CHECK_INT(flag, 1);
		CHECK(val == base + 1);
		CHECK_MPI(MPI_Allreduce(&i, &n, 1, MPI_INT, MPI_SUM, c));
		CHECK_INT(n, i * size);
	}

	CHECK_MPI(MPI_Comm_free(&a));
	CHECK_MPI(MPI_Comm_free(&b));
	CHECK_MPI(MPI_Comm_free(&parent));
	CHECK_MPI(MPI_Comm_free_keyval(&kv));
	CHECK_MPI(MPI_Info_free(&pi));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
