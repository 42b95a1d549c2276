/* libtally, for the tests of libraries loaded once per rank: a plain library (no MPI), one
 * per node, that counts what every rank adds (constructor runs). */
static int runs;
int tally_add(void);
int tally_total(void);
int tally_add(void) { return __atomic_add_fetch(&runs, 1, __ATOMIC_SEQ_CST); }
int tally_total(void) { return __atomic_load_n(&runs, __ATOMIC_SEQ_CST); }
