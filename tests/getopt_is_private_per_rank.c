/* getopt_is_private_per_rank: all ranks parse the same arguments with getopt concurrently
 * and each gets the full, correct result (optind, optarg, optopt are per rank). */
/* ranks: 1 2 4 64 */
#include <getopt.h>
#include <sched.h>
#include <unistd.h>
#include "check.h"

static void parse_once(void)
{
	char a0[] = "prog", a1[] = "-a", a2[] = "-b", a3[] = "value", a4[] = "-c", a5[] = "-x",
	     a6[] = "rest1", a7[] = "rest2";
	char *args[] = { a0, a1, a2, a3, a4, a5, a6, a7, NULL };
	int argc = 8, seen_a = 0, seen_c = 0, unknown = 0, opt;
	const char *b = NULL;

	optind = 0; /* glibc: 0 forces a full re-initialisation of this rank's scanner */
	opterr = 0;
	while ((opt = getopt(argc, args, "ab:c")) != -1) {
		switch (opt) {
		case 'a': seen_a++; break;
		case 'b': b = optarg; break;
		case 'c': seen_c++; break;
		case '?': unknown++; CHECK_INT(optopt, 'x'); break;
		default: CHECK(!"unexpected option");
		}
		sched_yield(); /* let other ranks run in the middle of the scan */
	}
	CHECK_INT(seen_a, 1);
	CHECK_INT(seen_c, 1);
	CHECK_INT(unknown, 1);
	CHECK(b != NULL);
	CHECK_STR(b, "value");
	CHECK_INT(optind, 6);
	CHECK_STR(args[optind], "rest1");
}

/* getopt_long: long options with "=" and separate arguments, a flag pointer, "--". */
static void parse_long_once(void)
{
	char a0[] = "prog", a1[] = "--verbose", a2[] = "--level=7", a3[] = "--name", a4[] = "x",
	     a5[] = "-q", a6[] = "--", a7[] = "-notanoption";
	char *args[] = { a0, a1, a2, a3, a4, a5, a6, a7, NULL };
	int verbose = 0, level = -1, quiet = 0, idx, opt;
	const char *name = NULL;
	const struct option longs[] = {
		{ "verbose", no_argument, &verbose, 1 },
		{ "level", required_argument, NULL, 'l' },
		{ "name", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};

	optind = 0;
	while ((opt = getopt_long(8, args, "ql:n:", longs, &idx)) != -1) {
		switch (opt) {
		case 0: break;
		case 'l': level = atoi(optarg); break;
		case 'n': name = optarg; break;
		case 'q': quiet = 1; break;
		default: CHECK(!"unexpected long option");
		}
		sched_yield();
	}
	CHECK_INT(verbose, 1);
	CHECK_INT(level, 7);
	CHECK_INT(quiet, 1);
	CHECK(name != NULL);
	CHECK_STR(name, "x");
	CHECK_INT(optind, 7);
	CHECK_STR(args[optind], "-notanoption");
}

int main(int argc, char **argv)
{
	CHECK_MPI(MPI_Init(&argc, &argv));
	check_barrier(MPI_COMM_WORLD, 1);
	for (int i = 0; i < 200; i++) {
		parse_once();
		parse_long_once();
	}
	check_barrier(MPI_COMM_WORLD, 2);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
