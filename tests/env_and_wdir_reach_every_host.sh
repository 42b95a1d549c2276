#!/bin/bash
# env_and_wdir_reach_every_host: -x NAME, -x NAME=VALUE, -genv NAME VALUE and -genvlist A,B (and -genvall, all of them) set those variables for the ranks of every host even when the launcher agent starts node processes with an empty environment (env -i), and -wdir sets their working directory; on nodes started by a local agent and across network namespaces.
# timeout: 120
. "$SHOAL_TESTS/lib/common.bash"

build env <<'SRC'
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <mpi.h>
static const char *v(const char *name)
{
	const char *s = getenv(name);
	return s ? s : "(unset)";
}
int main(int argc, char **argv)
{
	int rank;
	char cwd[4096];
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (!getcwd(cwd, sizeof(cwd)))
		cwd[0] = '\0';
	printf("rank %d X1=%s X2=%s G=%s L1=%s L2=%s NOT=%s cwd=%s\n", rank, v("SHL_X1"),
	       v("SHL_X2"), v("SHL_G"), v("SHL_L1"), v("SHL_L2"), v("SHL_NOT"), cwd);
	MPI_Finalize();
	return 0;
}
SRC

# An agent that drops the whole environment, as ssh to another host would.
cat >"$TEST_TMP/agent" <<'AGENT'
#!/bin/sh
shift  # the host
exec env -i "$@"
AGENT
chmod +x "$TEST_TMP/agent"
mkdir -p "$TEST_TMP/work dir"

# check NRANKS WHAT [NOT's value]
check() {
	expect_rc 0
	for r in $(seq 0 $(($1 - 1))); do
		want="rank $r X1=one X2=two words G=g value L1=l1 L2=l2 NOT=${3:-(unset)} cwd=$TEST_TMP/work dir"
		[ "$(grep -Fxc "$want" "$OUT")" = 1 ] || { show; fail "$2: no line '$want'"; }
	done
}

export SHL_X1=one SHL_L1=l1 SHL_L2=l2 SHL_NOT=not-forwarded
run "$MPIEXEC" --launcher-agent "$TEST_TMP/agent" -H a:2,b:1 -x SHL_X1 -x "SHL_X2=two words" \
	-genv SHL_G "g value" -genvlist SHL_L1,SHL_L2 -wdir "$TEST_TMP/work dir" "$TEST_TMP/env"
check 3 "env -i agent"
# The agent really drops the environment: without the options the variables are unset.
run "$MPIEXEC" --launcher-agent "$TEST_TMP/agent" -H a,b "$TEST_TMP/env"
expect_rc 0
expect_out_count '^rank 1 X1=\(unset\) X2=\(unset\) G=\(unset\) L1=\(unset\)' 1
# -genvall (MPICH's): all of mpiexec's environment, through the same agent.
run "$MPIEXEC" --launcher-agent "$TEST_TMP/agent" -H a:2,b:1 -genvall -x "SHL_X2=two words" \
	-genv SHL_G "g value" -wdir "$TEST_TMP/work dir" "$TEST_TMP/env"
check 3 "env -i agent, -genvall" not-forwarded
# One node: the same options (the node inherits all of mpiexec's environment).
run "$MPIEXEC" -n 2 -x SHL_X1 -x "SHL_X2=two words" -genv SHL_G "g value" \
	-genvlist SHL_L1,SHL_L2 -wdir "$TEST_TMP/work dir" "$TEST_TMP/env"
check 2 "one node" not-forwarded

if [ "$(id -u)" = 0 ] && command -v ip >/dev/null; then
	. "$SHOAL_TESTS/lib/netns.bash"
	netns_up 2
	cat >"$TEST_TMP/nsagent" <<AGENT
#!/bin/sh
exec env -i $(command -v ip) netns exec "\$@"
AGENT
	chmod +x "$TEST_TMP/nsagent"
	run -t 60 ip netns exec "$NS_HEAD" "$MPIEXEC" --launcher-agent "$TEST_TMP/nsagent" \
		--control-addr "$NS_NET.1" -H "$(netns_hosts)" -ppn 2 -x SHL_X1 -x "SHL_X2=two words" \
		-genv SHL_G "g value" -genvlist SHL_L1,SHL_L2 -wdir "$TEST_TMP/work dir" "$TEST_TMP/env"
	check 4 "namespaces, env -i agent"
fi
exit 0
