#!/bin/bash
# jobs_end_where_pidfd_open_is_missing: where pidfd_open fails (kernels before 5.3, or valgrind, which does not know the call), a job on two hosts still runs its ranks, forwards their output and reports how they ended: a job exits 0, a rank's exit code comes back, and both end.
. "$SHOAL_TESTS/lib/common.bash"

build job <<'SRC'
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, code = argc > 1 ? atoi(argv[1]) : 0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	printf("rank %d here\n", rank);
	fflush(stdout);
	MPI_Finalize();
	return rank == 2 ? code : 0;
}
SRC

# nopidfd CMD...: run CMD with pidfd_open failing with ENOSYS (a seccomp filter, which
# CMD's children inherit; checked before CMD starts).
cat >"$TEST_TMP/nopidfd.c" <<'SRC'
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
int main(int argc, char **argv)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_pidfd_open, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(code) / sizeof(code[0]), code };

	if (argc < 2)
		return 2;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
		perror("nopidfd: cannot install the filter");
		return 125;
	}
	if (syscall(SYS_pidfd_open, getpid(), 0) != -1 || errno != ENOSYS) {
		fprintf(stderr, "nopidfd: pidfd_open still works under the filter\n");
		return 126;
	}
	execvp(argv[1], argv + 1);
	perror(argv[1]);
	return 127;
}
SRC
cc -o "$TEST_TMP/nopidfd" "$TEST_TMP/nopidfd.c" || fail "cannot build nopidfd"
"$TEST_TMP/nopidfd" true
case $? in
0) ;;
125) skip "this machine refuses seccomp filters" ;;
*) fail "nopidfd cannot run a command with pidfd_open failing" ;;
esac

# mpiexec and everything it starts (the local launcher's proxies and node processes) run
# under the filter.
run -t 60 "$TEST_TMP/nopidfd" "$MPIEXEC" --launcher local -H a:2,b:2 "$TEST_TMP/job"
expect_rc 0
for r in 0 1 2 3; do
	expect_out_count "^rank $r here\$" 1
done

run -t 60 "$TEST_TMP/nopidfd" "$MPIEXEC" --launcher local -H a:2,b:2 "$TEST_TMP/job" 7
expect_rc 7
expect_out_count '^rank [0-3] here$' 4
expect_err 'rank 2 exited with code 7'
exit 0
