/* thread_pools_of_ranks_live_through_finalize_and_exit: a rank's C++ std::thread pool works
 * through MPI_Finalize and is joined by a static destructor as the rank ends (its workers'
 * thread_local destructors run); a detached thread that a rank left blocked in a call gets
 * back into the program's code after the rank's thread ended, and the rank's destructor
 * functions ran. Even ranks watch their odd partner from outside through pipes. */
/* ranks: 2 4 64 */
#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <unistd.h>
#include "check.h"

/* Generous limits that only end a hang. */
static const int wait_ms = 120000;

static std::atomic<int> worker_ends{0};

struct WorkerEnd {
	~WorkerEnd() { worker_ends++; }
};
static thread_local WorkerEnd worker_end;

/* Workers wait for tasks; the destructor, run as the rank ends (after MPI_Finalize and
 * main's return), stops and joins them. */
struct Pool {
	std::vector<std::thread> workers;
	std::mutex m;
	std::condition_variable cv, idle;
	std::deque<std::function<void()>> tasks;
	int running = 0;
	bool stop = false;

	void start(int n)
	{
		for (int i = 0; i < n; i++)
			workers.emplace_back([this] { work(); });
	}
	void work()
	{
		(void)&worker_end;  /* this thread's instance: destroyed as the worker ends */
		std::unique_lock<std::mutex> l(m);
		for (;;) {
			cv.wait(l, [this] { return stop || !tasks.empty(); });
			if (tasks.empty())
				return;
			auto t = std::move(tasks.front());
			tasks.pop_front();
			running++;
			l.unlock();
			t();
			l.lock();
			running--;
			idle.notify_all();
		}
	}
	void submit(std::function<void()> t)
	{
		std::lock_guard<std::mutex> l(m);
		tasks.push_back(std::move(t));
		cv.notify_one();
	}
	void drain()
	{
		std::unique_lock<std::mutex> l(m);
		idle.wait(l, [this] { return tasks.empty() && running == 0; });
	}
	~Pool()
	{
		{
			std::lock_guard<std::mutex> l(m);
			stop = true;
		}
		cv.notify_all();
		for (auto &w : workers)
			w.join();
		CHECK_INT(worker_ends.load(), (int)workers.size());
	}
};
static Pool pool;

/* In an odd rank, written by its even partner: where to tell it that the rank's destructor
 * function ran (and the rank thread's id), the pipe its detached thread reads, and where
 * that thread says it woke. */
static int fd_ended = -1, fd_wake = -1, fd_woke = -1;

static void *sleeper(void *arg)
{
	char b;
	ssize_t r;

	(void)arg;
	do
		r = read(fd_wake, &b, 1);
	while (r < 0 && errno == EINTR);
	/* The rank ended long ago: this is its program's code, still there. */
	b = r == 1 && b == 'g' ? 'w' : 'x';
	CHECK_INT(write(fd_woke, &b, 1), 1);
	return NULL;
}

__attribute__((destructor)) static void rank_fini(void)
{
	pid_t tid = gettid();

	if (fd_ended >= 0)
		CHECK_INT(write(fd_ended, &tid, sizeof(tid)), (int)sizeof(tid));
}

static void await_readable(int fd, const char *what)
{
	struct pollfd p = { fd, POLLIN, 0 };
	int r;

	do
		r = poll(&p, 1, wait_ms);
	while (r < 0 && errno == EINTR);
	if (r != 1)
		check_fail(__FILE__, __LINE__, what);
}

int main(int argc, char **argv)
{
	int rank, size, fds[3], ended[2], wake[2], woke[2];
	std::atomic<long> sum{0};

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	pool.start(3);
	for (int i = 0; i < 100; i++)
		pool.submit([&sum, i, rank] { sum += (long)i * i + rank; });
	pool.drain();
	CHECK_INT(sum.load(), 328350 + 100L * rank);

	if (rank % 2 == 0) {
		CHECK(pipe(ended) == 0 && pipe(wake) == 0 && pipe(woke) == 0);
		fds[0] = ended[1];
		fds[1] = wake[0];
		fds[2] = woke[1];
		CHECK_MPI(MPI_Send(fds, 3, MPI_INT, rank + 1, 0, MPI_COMM_WORLD));
	} else {
		pthread_t t;

		CHECK_MPI(MPI_Recv(fds, 3, MPI_INT, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		fd_ended = fds[0];
		fd_wake = fds[1];
		fd_woke = fds[2];
		CHECK_INT(pthread_create(&t, NULL, sleeper, NULL), 0);
		CHECK_INT(pthread_detach(t), 0);
	}
	/* The pool keeps working after MPI_Finalize, until the rank ends. */
	MPI_Finalize();
	sum = 0;
	for (int i = 0; i < 10; i++)
		pool.submit([&sum, i] { sum += i; });
	pool.drain();
	CHECK_INT(sum.load(), 45);
	if (rank % 2 == 1)
		return 0;

	/* Watch the partner: its destructor function runs as it ends, in its thread; once that
	 * thread is gone, wake its detached thread, which must answer. */
	pid_t tid = 0;
	char b = 'g', path[64];

	await_readable(ended[0], "the partner's destructor function did not run");
	CHECK_INT(read(ended[0], &tid, sizeof(tid)), (int)sizeof(tid));
	snprintf(path, sizeof(path), "/proc/self/task/%d", (int)tid);
	for (int i = 0; i < wait_ms / 10 && access(path, F_OK) == 0; i++)
		usleep(10 * 1000);
	CHECK(access(path, F_OK) != 0);
	CHECK_INT(write(wake[1], &b, 1), 1);
	await_readable(woke[0], "the partner's detached thread did not answer");
	CHECK_INT(read(woke[0], &b, 1), 1);
	CHECK_INT(b, 'w');
	return 0;
}
