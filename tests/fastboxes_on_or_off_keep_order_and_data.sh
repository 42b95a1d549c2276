#!/bin/bash
# fastboxes_on_or_off_keep_order_and_data: the ordering and several-cell tests pass on the
# path each default leaves out: fastboxes with ranks outnumbering cores (SHOAL_FBOX_PEERS=8,
# where senders publish cells with a full barrier and ranks may be switched in user
# space), and the inbox alone with ranks that do not (SHOAL_FBOX_PEERS=0 at 2 ranks).
# timeout: 180
. "$SHOAL_TESTS/lib/common.bash"

for t in blocking_receives_from_one_sender_keep_order_and_data \
	messages_of_several_cells_keep_data_and_order; do
	build "$t" <"$SHOAL_TESTS/$t.c"
	for n in 8 64; do
		run -t 60 env SHOAL_FBOX_PEERS=8 "$MPIEXEC" -n "$n" "$TEST_TMP/$t"
		expect_rc 0
	done
	run -t 60 env SHOAL_FBOX_PEERS=0 "$MPIEXEC" -n 2 "$TEST_TMP/$t"
	expect_rc 0
done
echo "ok"
