#!/bin/bash
# mpiexec_private_lib_option_reaches_every_node: `mpiexec --private-lib NAME` (and --private-lib=NAME), repeated, gives every rank SHOAL_PRIVATE_LIBS with the names joined by ':', after the value the variable has in mpiexec's environment; that variable, with or without the option, reaches the ranks of every host even through a launcher agent that drops the environment (env -i, as ssh) and across network namespaces; --private-lib without a value (or with an empty one) is a usage error, status 2, and runs nothing.
# timeout: 150
. "$SHOAL_TESTS/lib/common.bash"

build libs <<'SRC'
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	const char *v = getenv("SHOAL_PRIVATE_LIBS");
	int rank;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	printf("rank %d libs=%s\n", rank, v ? v : "(unset)");
	MPI_Finalize();
	return 0;
}
SRC

# check NRANKS WHAT VALUE: the job ended well and each of its ranks printed VALUE, once.
check() {
	expect_rc 0
	for r in $(seq 0 $(($1 - 1))); do
		[ "$(grep -Fxc "rank $r libs=$3" "$OUT")" = 1 ] ||
			{ show; fail "$2: no line 'rank $r libs=$3'"; }
	done
	[ "$(grep -c '^rank ' "$OUT")" = "$1" ] || { show; fail "$2: not $1 ranks"; }
}

# Names that no library of the program has: the test sees what reaches the ranks, not what
# the loader does with them.
A=libshoal-test-a.so.1
B=/nowhere/libshoal-test-b.so
P=libshoal-test-preset

unset SHOAL_PRIVATE_LIBS
# One node: without the option the variable is unset.
run "$MPIEXEC" -n 3 "$TEST_TMP/libs"
check 3 "no option" "(unset)"
run "$MPIEXEC" -n 3 --private-lib "$A" "$TEST_TMP/libs"
check 3 "one option" "$A"
run "$MPIEXEC" --private-lib "$A" -n 3 --private-lib="$B" "$TEST_TMP/libs"
check 3 "two options" "$A:$B"
run "$MPIEXEC" -n 3 --private-lib "$A:libshoal-test-c" "$TEST_TMP/libs"
check 3 "one option of two names" "$A:libshoal-test-c"
run env SHOAL_PRIVATE_LIBS="$P" "$MPIEXEC" -n 3 --private-lib "$A" --private-lib "$B" "$TEST_TMP/libs"
check 3 "preset and two options" "$P:$A:$B"
run env SHOAL_PRIVATE_LIBS="$P" "$MPIEXEC" -n 3 "$TEST_TMP/libs"
check 3 "preset only" "$P"
# -x sets it first; the option adds to it.
run "$MPIEXEC" -n 2 -x SHOAL_PRIVATE_LIBS="$P" --private-lib "$A" "$TEST_TMP/libs"
check 2 "-x then the option" "$P:$A"

# Bad use: no value, an empty value.
run "$MPIEXEC" --private-lib
expect_rc 2
expect_err '^mpiexec: --private-lib needs a value$'
run "$MPIEXEC" -n 2 --private-lib= "$TEST_TMP/libs"
expect_rc 2
expect_err '^mpiexec: --private-lib= needs a value$'
grep -q '^rank' "$OUT" && { show; fail "--private-lib= ran the job"; }

# Two hosts whose node processes start with an empty environment, as ssh gives them.
cat >"$TEST_TMP/agent" <<'AGENT'
#!/bin/sh
shift  # the host
exec env -i "$@"
AGENT
chmod +x "$TEST_TMP/agent"
run "$MPIEXEC" --launcher-agent "$TEST_TMP/agent" -H a:2,b:2 --private-lib "$A" "$TEST_TMP/libs"
check 4 "env -i agent, one option" "$A"
run env SHOAL_PRIVATE_LIBS="$P" "$MPIEXEC" --launcher-agent "$TEST_TMP/agent" -H a:2,b:2 \
	--private-lib "$A" --private-lib="$B" "$TEST_TMP/libs"
check 4 "env -i agent, preset and two options" "$P:$A:$B"
run env SHOAL_PRIVATE_LIBS="$P" "$MPIEXEC" --launcher-agent "$TEST_TMP/agent" -H a:2,b:2 \
	"$TEST_TMP/libs"
check 4 "env -i agent, preset only" "$P"

if [ "$(id -u)" = 0 ] && command -v ip >/dev/null; then
	. "$SHOAL_TESTS/lib/netns.bash"
	netns_up 2
	cat >"$TEST_TMP/nsagent" <<AGENT
#!/bin/sh
exec env -i $(command -v ip) netns exec "\$@"
AGENT
	chmod +x "$TEST_TMP/nsagent"
	run -t 60 ip netns exec "$NS_HEAD" env SHOAL_PRIVATE_LIBS="$P" "$MPIEXEC" \
		--launcher-agent "$TEST_TMP/nsagent" --control-addr "$NS_NET.1" -H "$(netns_hosts)" \
		-ppn 2 --private-lib "$A" --private-lib "$B" "$TEST_TMP/libs"
	check 4 "namespaces, env -i agent" "$P:$A:$B"
	run -t 60 "${NETNS_MPIEXEC[@]}" -H "$(netns_hosts)" -ppn 2 --private-lib "$A" "$TEST_TMP/libs"
	check 4 "namespaces" "$A"
fi
exit 0
