#!/bin/sh
# real seed --mem 1G (global: balloon + kswapd): the seed's lines and JSON,
# the balloon's size recorded, and nothing left behind.
set -u
. "$2/tests/real/common.inc"
need_real
# the run refuses below SIZE + 1.5 GiB; leave the machine some more
[ "$(mem_available_mib)" -ge 3072 ] || skip "less than 3 GiB available for a 1G global run"
make_tmp

start_cp real seed --mem 1G --workdir "$WORK" --json "$JSON"
wait_cp
[ "$RC" = 0 ] || fail "exit status $RC"
# 1G = 16G/16: fs_mark -n 100000/16 = 6250 per loop
check_seed_run 6250 global mem_free_bytes
[ "$(json_counter cp_balloon_bytes)" -gt 0 ] || fail "no balloon size recorded"
grep -q 'balloon locking' "$ERR" || fail "no balloon message"
check_nothing_left
echo "PASS: global seed at 1G: $(text_totals | tr '\n' ' ')"
