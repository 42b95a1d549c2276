#!/bin/bash
# process_ranks_exit_status_follows_rank_rules: ranks that are processes (a #! script) end the job as thread ranks do: all 0 gives 0; a rank exiting 3 while the others exit 0 gives 3 and "shoal: rank R exited with code 3"; the first rank to fail sets the status; a rank killed by a signal is reported by rank and signal, the job's status is 128+signal and the other ranks (and what they started) are ended; a job piped into head ends with 141 and no rank left; a program whose interpreter is missing gives a shell's 127 and a message naming the rank; on one node and on nodes started by --launcher local.
# timeout: 120
. "$SHOAL_TESTS/lib/common.bash"
cd "$TEST_TMP"
marker=exitrule_$$_$RANDOM

cat >rank.sh <<'SH'
#!/bin/bash
# rank.sh MODE: MODE says what each rank does.
case "$1" in
zero) exit 0 ;;
three) [ "$SHOAL_RANK" = 1 ] && exit 3; exit 0 ;;
segv)  # rank 1 is killed once every rank runs; the others wait in a child process
	touch "up$SHOAL_RANK"
	if [ "$SHOAL_RANK" = 1 ]; then
		while [ "$(ls up* | wc -l)" -lt "$SHOAL_SIZE" ]; do sleep 0.1; done
		kill -SEGV $$
	fi
	(exec -a "$2" sleep 600)  # a child process, which must end too
	exit 0 ;;
esac
SH
chmod +x rank.sh

for where in "-n 3" "--launcher local -H a:2,b:1"; do
	run "$MPIEXEC" $where ./rank.sh zero
	expect_rc 0

	run "$MPIEXEC" $where ./rank.sh three
	expect_rc 3
	expect_err '^shoal: rank 1 exited with code 3$'

	rm -f up*
	run -t 60 "$MPIEXEC" $where ./rank.sh segv "$marker"
	expect_rc 139
	expect_err '^shoal: rank 1( on host [a-z]+)?: killed by signal SIGSEGV \(Segmentation fault\)$'
	grep -q 'exited with code' "$ERR" && { show; fail "$where: ranks ended by the node counted as failures"; }
	for _ in $(seq 600); do
		pgrep -f "$marker" >/dev/null || break
		sleep 0.1
	done
	pgrep -af "$marker" && fail "$where: processes of the other ranks left behind"
done

# The first rank to fail, not the lowest: rank 2 exits 5 before rank 0 exits 7.
cat >order.sh <<'SH'
#!/bin/bash
[ "$SHOAL_RANK" = 2 ] && exit 5
if [ "$SHOAL_RANK" = 1 ]; then  # rank 2 gone: let rank 0 end
	while kill -0 "$(cat pid2)" 2>/dev/null; do sleep 0.1; done
	touch done2
fi
[ "$SHOAL_RANK" = 0 ] && { while [ ! -e done2 ]; do sleep 0.1; done; exit 7; }
exit 0
SH
chmod +x order.sh
cat >order_wrap.sh <<'SH'
#!/bin/bash
[ "$SHOAL_RANK" = 2 ] && echo $$ >pid2.tmp && mv pid2.tmp pid2
while [ ! -e pid2 ]; do sleep 0.1; done
exec ./order.sh
SH
chmod +x order_wrap.sh
rm -f pid2 done2
run -t 60 "$MPIEXEC" -n 3 ./order_wrap.sh
expect_rc 5
expect_err '^shoal: rank 2 exited with code 5$'

# mpiexec's stdout closed (a pipe into head): the ranks get SIGPIPE, as processes writing
# there would, and the job ends with 141.
timeout -k 5 60 bash -c '"$@" | head -n 2 >/dev/null; exit ${PIPESTATUS[0]}' pipe \
	"$MPIEXEC" -n 2 sh -c 'while :; do echo y; done' "$marker" >"$OUT" 2>"$ERR" </dev/null
RC=$?
expect_rc 141
for _ in $(seq 600); do
	pgrep -f "$marker" >/dev/null || break
	sleep 0.1
done
pgrep -af "$marker" && fail "ranks left writing into a closed pipe"

printf '#!/nonexistent/interpreter\n' >badinterp
chmod +x badinterp
run "$MPIEXEC" -n 2 ./badinterp
expect_rc 127
expect_err '^shoal: rank [01]: cannot run ./badinterp: No such file or directory$'
exit 0
