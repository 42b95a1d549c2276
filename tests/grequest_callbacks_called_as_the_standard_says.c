/* Generalized requests: query_fn runs whenever a status is needed after MPI_Grequest_complete (Wait, Test, Request_get_status, the array forms), free_fn once when the request is freed after completion (or at MPI_Grequest_complete when MPI_Request_free came first), cancel_fn from MPI_Cancel with whether it completed; the callbacks' errors come back (MPI_ERR_IN_STATUS in the array forms, free_fn's last); MPI_Grequest_complete from other threads wakes a rank sleeping in MPI_Wait or MPI_Waitall. */
/* ranks: 1 2 4 16 64 */
#include <pthread.h>
#include <unistd.h>
#include "check.h"

struct state {
	int query, free, cancel, complete_seen;
	char log[16];
	int n;
	int query_rc, free_rc;
	int tag;
	MPI_Request req;              /* for the completing thread */
};

static int query_fn(void *extra, MPI_Status *st)
{
	struct state *s = extra;
	s->query++;
	s->log[s->n++] = 'q';
	st->MPI_SOURCE = 3;
	st->MPI_TAG = s->tag;
	MPI_Status_set_elements(st, MPI_INT, 5);
	return s->query_rc;
}

static int free_fn(void *extra)
{
	struct state *s = extra;
	s->free++;
	s->log[s->n++] = 'f';
	return s->free_rc;
}

static int cancel_fn(void *extra, int complete)
{
	struct state *s = extra;
	s->cancel++;
	s->complete_seen = complete;
	s->log[s->n++] = 'c';
	return MPI_SUCCESS;
}

static MPI_Request start(struct state *s, int tag)
{
	MPI_Request r;
	*s = (struct state){ .tag = tag };
	CHECK_MPI(MPI_Grequest_start(query_fn, free_fn, cancel_fn, s, &r));
	CHECK(r != MPI_REQUEST_NULL);
	return r;
}

static void *completer(void *arg)
{
	struct state *s = arg;
	usleep(20000);  /* let the rank go to sleep in its wait; not a bound of anything */
	CHECK_MPI(MPI_Grequest_complete(s->req));
	return NULL;
}

static int class_of(int rc)
{
	int cls;
	MPI_Error_class(rc, &cls);
	return cls;
}

int main(int argc, char **argv)
{
	struct state s, t;
	MPI_Request r, rs[2];
	MPI_Status st, sts[2];
	int provided, flag, count, index, rc;

	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	CHECK_INT(provided, MPI_THREAD_MULTIPLE);
	MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

	/* Wait: query then free, once each; the status is query_fn's. */
	r = start(&s, 11);
	CHECK_MPI(MPI_Grequest_complete(r));
	CHECK_INT(s.query + s.free, 0);
	CHECK_MPI(MPI_Wait(&r, &st));
	CHECK(r == MPI_REQUEST_NULL);
	CHECK_STR(s.log, "qf");
	CHECK_INT(st.MPI_SOURCE, 3);
	CHECK_INT(st.MPI_TAG, 11);
	CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
	CHECK_INT(count, 5);

	/* Test: nothing is called before completion. */
	r = start(&s, 12);
	CHECK_MPI(MPI_Test(&r, &flag, &st));
	CHECK_INT(flag, 0);
	CHECK_MPI(MPI_Request_get_status(r, &flag, &st));
	CHECK_INT(flag, 0);
	CHECK_INT(s.n, 0);
	CHECK_MPI(MPI_Grequest_complete(r));
	/* Request_get_status queries each time, frees nothing. */
	CHECK_MPI(MPI_Request_get_status(r, &flag, &st));
	CHECK_INT(flag, 1);
	CHECK_INT(st.MPI_TAG, 12);
	CHECK_MPI(MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE));
	CHECK_STR(s.log, "qq");
	/* ... and so do its _all, _any and _some forms (MPI 4.1). */
	st.MPI_TAG = -1;
	CHECK_MPI(MPI_Request_get_status_all(1, &r, &flag, &st));
	CHECK_INT(flag, 1);
	CHECK_INT(st.MPI_TAG, 12);
	st.MPI_TAG = -1;
	CHECK_MPI(MPI_Request_get_status_any(1, &r, &index, &flag, &st));
	CHECK_INT(flag, 1);
	CHECK_INT(index, 0);
	CHECK_INT(st.MPI_TAG, 12);
	st.MPI_TAG = -1;
	CHECK_MPI(MPI_Request_get_status_some(1, &r, &count, &index, &st));
	CHECK_INT(count, 1);
	CHECK_INT(st.MPI_TAG, 12);
	CHECK_STR(s.log, "qqqqq");
	CHECK_MPI(MPI_Test(&r, &flag, &st));
	CHECK_INT(flag, 1);
	CHECK(r == MPI_REQUEST_NULL);
	CHECK_STR(s.log, "qqqqqqf");

	/* Request_free before completion: free_fn at MPI_Grequest_complete, no query. */
	r = start(&s, 13);
	MPI_Request keep = r;
	CHECK_MPI(MPI_Request_free(&r));
	CHECK(r == MPI_REQUEST_NULL);
	CHECK_INT(s.n, 0);
	CHECK_MPI(MPI_Grequest_complete(keep));
	CHECK_STR(s.log, "f");
	/* ... and after it: free_fn at MPI_Request_free. */
	r = start(&s, 14);
	CHECK_MPI(MPI_Grequest_complete(r));
	CHECK_MPI(MPI_Request_free(&r));
	CHECK_STR(s.log, "f");

	/* Cancel: cancel_fn says whether it completed. */
	r = start(&s, 15);
	CHECK_MPI(MPI_Cancel(&r));
	CHECK_INT(s.cancel, 1);
	CHECK_INT(s.complete_seen, 0);
	CHECK_MPI(MPI_Grequest_complete(r));
	CHECK_MPI(MPI_Cancel(&r));
	CHECK_INT(s.complete_seen, 1);
	CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
	CHECK_STR(s.log, "ccqf");

	/* A failing query_fn: MPI_Wait returns its error (and still frees). */
	r = start(&s, 16);
	s.query_rc = MPI_ERR_ARG;
	CHECK_MPI(MPI_Grequest_complete(r));
	rc = MPI_Wait(&r, &st);
	CHECK_INT(class_of(rc), MPI_ERR_ARG);
	CHECK_STR(s.log, "qf");
	/* Waitall: MPI_ERR_IN_STATUS, each status with its request's error. */
	rs[0] = start(&s, 17);
	rs[1] = start(&t, 18);
	t.query_rc = MPI_ERR_ARG;
	CHECK_MPI(MPI_Grequest_complete(rs[1]));
	CHECK_MPI(MPI_Grequest_complete(rs[0]));
	rc = MPI_Waitall(2, rs, sts);
	CHECK_INT(class_of(rc), MPI_ERR_IN_STATUS);
	CHECK_INT(sts[0].MPI_ERROR, MPI_SUCCESS);
	CHECK_INT(class_of(sts[1].MPI_ERROR), MPI_ERR_ARG);
	CHECK_INT(sts[0].MPI_TAG, 17);
	CHECK_INT(sts[1].MPI_TAG, 18);
	CHECK_STR(s.log, "qf");
	CHECK_STR(t.log, "qf");
	CHECK(rs[0] == MPI_REQUEST_NULL && rs[1] == MPI_REQUEST_NULL);
	/* Waitany: the last callback's error, free_fn's. */
	rs[0] = MPI_REQUEST_NULL;
	rs[1] = start(&s, 19);
	s.query_rc = MPI_ERR_ARG;
	s.free_rc = MPI_ERR_TAG;
	CHECK_MPI(MPI_Grequest_complete(rs[1]));
	rc = MPI_Waitany(2, rs, &index, &st);
	CHECK_INT(index, 1);
	CHECK_INT(class_of(rc), MPI_ERR_TAG);

	/* Completed twice, or not a generalized request: MPI_ERR_REQUEST. */
	r = start(&s, 20);
	CHECK_MPI(MPI_Grequest_complete(r));
	CHECK_INT(class_of(MPI_Grequest_complete(r)), MPI_ERR_REQUEST);
	CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
	{
		int v = 0;
		MPI_Request q;
		CHECK_MPI(MPI_Irecv(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &q));
		CHECK_INT(class_of(MPI_Grequest_complete(q)), MPI_ERR_REQUEST);
		CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
	}

	/* Completed from another thread while the rank sleeps in MPI_Wait, then in
	 * MPI_Waitall on two completed by two threads. */
	{
		pthread_t th[2];
		r = start(&s, 21);
		s.req = r;
		CHECK_INT(pthread_create(&th[0], NULL, completer, &s), 0);
		CHECK_MPI(MPI_Wait(&r, &st));
		CHECK_INT(st.MPI_TAG, 21);
		CHECK_INT(pthread_join(th[0], NULL), 0);
		CHECK_STR(s.log, "qf");
		rs[0] = start(&s, 22);
		rs[1] = start(&t, 23);
		s.req = rs[0];
		t.req = rs[1];
		CHECK_INT(pthread_create(&th[0], NULL, completer, &s), 0);
		CHECK_INT(pthread_create(&th[1], NULL, completer, &t), 0);
		CHECK_MPI(MPI_Waitall(2, rs, sts));
		CHECK_INT(sts[0].MPI_TAG, 22);
		CHECK_INT(sts[1].MPI_TAG, 23);
		CHECK_INT(pthread_join(th[0], NULL), 0);
		CHECK_INT(pthread_join(th[1], NULL), 0);
		CHECK_STR(s.log, "qf");
		CHECK_STR(t.log, "qf");
	}

	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
