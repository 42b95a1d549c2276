#!/bin/bash
# mpiexec_accepts_every_option_its_help_lists: every spelling `mpiexec --help` lists under "Options" is taken, with a plausible value, by a job of 2 ranks that then runs and prints; every one listed as ignored runs the job with a warning naming it; every refused one ends mpiexec with status 2 and a reason, never "unknown option"; an option of one value takes it after '=' too.
# timeout: 300
. "$SHOAL_TESTS/lib/common.bash"

build hello <<'SRC'
#include <stdio.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	printf("ran %d\n", rank);
	MPI_Finalize();
	return 0;
}
SRC
printf 'localhost slots=2\n' >"$TEST_TMP/hosts"
printf 'continue\n' >"$TEST_TMP/gdbcmds"
# An agent that runs the node command on this host: drops the host name it is given.
printf '#!/bin/sh\nshift\nexec "$@"\n' >"$TEST_TMP/agent"
chmod +x "$TEST_TMP/agent"

# value ARG: a plausible value for what --help says an option takes.
value() {
	case $1 in
	N) echo 2 ;;
	'NAME[=VALUE]') echo SHOAL_OPTION_TEST=1 ;;
	'NAME VALUE') echo SHOAL_OPTION_TEST 1 ;;
	NAME) echo libshoal-option-test.so ;;  # --private-lib: a library the program lacks
	'KEY VALUE') echo btl self ;;
	A,B) echo HOME,PATH ;;
	DIR) echo "$TEST_TMP" ;;
	S) echo 120 ;;
	FILE) echo "$TEST_TMP/hosts" ;;
	HOSTS) echo localhost:2 ;;
	slot\|node\|ppr:N:node) echo ppr:2:node ;;
	none\|core\|hwthread) echo core ;;
	local\|ssh\|slurm) echo local ;;
	CMD) echo "$TEST_TMP/agent" ;;
	IP) echo 127.0.0.1 ;;
	X) echo core ;;
	*) fail "--help names a value '$1' this test does not know" ;;
	esac
}

run "$MPIEXEC" --help
expect_rc 0
# Sections: "Options:", "Accepted and ignored ...:", "Refused ...:"; an option's line is
# "  -a, --bb ARG   help", its help perhaps on the next line.
awk '/^[A-Z]/ { s = /^Options/ ? "taken" : /^Accepted/ ? "ignored" : /^Refused/ ? "refused" : "" }
     s && /^  -/ { sub(/^  /, ""); sub(/   +.*/, ""); print s "\t" $0 }' "$OUT" >"$TEST_TMP/listed"
for kind in taken ignored refused; do
	grep -q "^$kind" "$TEST_TMP/listed" || fail "--help lists no $kind options"
done

checked=0
while IFS=$'\t' read -r kind col; do
	# The spellings are separated by ", "; what the option takes follows the last one.
	last=${col##*, }
	arg=
	[ "$last" != "${last#* }" ] && arg=${last#* }
	names=${col% "$arg"}
	[ -n "$arg" ] && names=${names% }
	IFS=',' read -ra spellings <<<"${names//, /,}"
	read -ra vals <<<"$( [ -n "$arg" ] && value "$arg")"
	for opt in "${spellings[@]}"; do
		checked=$((checked + 1))
		case $kind/$opt in
		taken/-h | taken/--help | taken/-help)
			run "$MPIEXEC" "$opt"
			expect_rc 0
			expect_out '^usage: mpiexec' ;;
		taken/-V | taken/--version | taken/-version)
			run "$MPIEXEC" "$opt"
			expect_rc 0
			expect_out 'mpiexec \(Shoal\)' ;;
		taken/--show-placement)
			run "$MPIEXEC" "$opt" -n 2 "$TEST_TMP/hello"
			expect_rc 0
			grep -q '^ran' "$OUT" && { show; fail "$opt ran the job"; } ;;
		taken/--gdb | taken/-gdb | taken/--gdb-x)
			command -v gdb >/dev/null || continue
			# Batch mode: gdb runs the job to its end (--gdb itself waits for a user).
			if [ "$opt" = --gdb-x ]; then
				run -t 120 "$MPIEXEC" "$opt" "$TEST_TMP/gdbcmds" -n 2 "$TEST_TMP/hello"
			else
				run -t 120 "$MPIEXEC" "$opt" --gdb-x "$TEST_TMP/gdbcmds" -n 2 "$TEST_TMP/hello"
			fi
			expect_rc 0
			expect_out_count 'ran [01]$' 2 ;;
		taken/*)
			# -n/-ppn 2 on a host of 2 slots; the job runs as it would without them.
			run -t 120 "$MPIEXEC" "$opt" "${vals[@]}" -n 2 "$TEST_TMP/hello"
			expect_rc 0
			expect_out_count 'ran [01]$' 2 ;;
		ignored/*)
			run -t 120 "$MPIEXEC" "$opt" "${vals[@]}" -n 2 "$TEST_TMP/hello"
			expect_rc 0
			expect_out_count 'ran [01]$' 2
			expect_err "warning: ignoring $opt" ;;
		refused/*)
			run "$MPIEXEC" "$opt" "${vals[@]}" -n 2 "$TEST_TMP/hello"
			expect_rc 2
			expect_err "^mpiexec: $opt: ."
			grep -q '^ran' "$OUT" && { show; fail "$opt ran the job"; } ;;
		esac
		grep -q 'unknown option' "$ERR" && { show; fail "$opt is listed but unknown"; }
	done
done <"$TEST_TMP/listed"
[ "$checked" -ge 40 ] || fail "--help listed only $checked spellings"

# One value after '=': the same as after a space.
run "$MPIEXEC" --np=2 --timeout=120 "$TEST_TMP/hello"
expect_rc 0
expect_out_count 'ran [01]$' 2
exit 0
