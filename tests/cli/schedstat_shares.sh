#!/bin/sh
# schedstat_shares.sh - scripts/schedstat-shares.py on samples written by
# hand: fs_mark's worker (PID 20) seen from 10.0 to 12.0 s; over that span
# a reader went 1.0 s on a CPU and 1.0 s waiting in 400 runs (share 0.50,
# stints 2.50 ms), kswapd 0.2 s and 0.1 s in 100 runs (share 0.67, 2.00 ms
# and 1.00 ms); the reader's sample at 9.0 s lies before the span and is
# not counted. Bad input: a missing file and a file without fs_mark each
# exit non-zero naming the problem. No root.
set -u
CP=$1
SRC=$2
. "$SRC/tests/cli/lib/expect.sh"
T=$CP_TEST_TMP
S="$SRC/scripts/schedstat-shares.py"
cat >"$T/s" <<'EOT'
9.0 10 cp-read-file 0 0 0
10.0 10 cp-read-file 5000000000 1000000000 100
10.0 20 fs_mark 0 0 0
10.0 30 kswapd0 1000000000 500000000 50
12.0 10 cp-read-file 6000000000 2000000000 500
12.0 20 fs_mark 300000000 100000000 30
12.0 30 kswapd0 1200000000 600000000 150
EOT
python3 "$S" "$T/s" >"$T/out" 2>"$T/err" || fail "exited $?: $(cat "$T/err")"
grep -q "fs_mark seen over 2.00 s" "$T/out" || fail "span: $(cat "$T/out")"
grep -Eq "^cp-read-file +1.000 +1.000 +0.50 +400 +2.50 +2.50$" "$T/out" ||
	fail "reader row: $(cat "$T/out")"
grep -Eq "^kswapd0 +0.200 +0.100 +0.67 +100 +2.00 +1.00$" "$T/out" ||
	fail "kswapd row: $(cat "$T/out")"
python3 "$S" "$T/none" >/dev/null 2>"$T/err" && fail "a missing file passed"
grep -q "$T/none" "$T/err" || fail "the missing file not named: $(cat "$T/err")"
grep -v fs_mark "$T/s" >"$T/nofsmark"
python3 "$S" "$T/nofsmark" >/dev/null 2>"$T/err" && fail "a file without fs_mark passed"
grep -q "no fs_mark samples" "$T/err" || fail "no fs_mark: $(cat "$T/err")"
echo PASS
