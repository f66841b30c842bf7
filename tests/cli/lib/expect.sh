# expect.sh - helpers shared by the CLI test scripts (sourced, not run:
# CTest runs only tests/cli/*.sh). Needs CP (the program) set; makes its
# own scratch directory CP_TEST_TMP, removed on exit.
CP_TEST_TMP=$(mktemp -d /var/tmp/cp-clitest.XXXXXX) || exit 1
trap 'rm -rf "$CP_TEST_TMP"' EXIT
# a signal (ctest stopped) runs the EXIT trap too
trap 'exit 143' TERM
trap 'exit 130' INT HUP

fail() {
	echo "FAIL: $*" >&2
	[ -f "$CP_TEST_TMP/err" ] && cat "$CP_TEST_TMP/err" >&2
	exit 1
}

# expect STATUS PATTERN COMMAND...: COMMAND exits STATUS and its stdout or
# stderr holds PATTERN
expect() {
	st=$1
	pat=$2
	shift 2
	rc=0
	"$@" >"$CP_TEST_TMP/out" 2>"$CP_TEST_TMP/err" || rc=$?
	[ "$rc" = "$st" ] || fail "'$*' exited $rc, expected $st"
	grep -q -- "$pat" "$CP_TEST_TMP/err" "$CP_TEST_TMP/out" || fail "'$*' did not say '$pat'"
}

# expect_error RC WORDS... -- ARGS...: "$CP" ARGS exits RC, prints nothing
# on stdout, and its stderr holds every word
expect_error() {
	want=$1
	shift
	words=""
	while [ "$1" != "--" ]; do words="$words
$1"; shift; done
	shift
	rc=0
	"$CP" "$@" >"$CP_TEST_TMP/out" 2>"$CP_TEST_TMP/err" || rc=$?
	[ "$rc" -eq "$want" ] || fail "$*: exit $rc, want $want"
	[ ! -s "$CP_TEST_TMP/out" ] || fail "$*: printed to stdout: $(cat "$CP_TEST_TMP/out")"
	echo "$words" | while IFS= read -r w; do
		[ -z "$w" ] && continue
		grep -qF -- "$w" "$CP_TEST_TMP/err" || fail "$*: stderr lacks '$w'"
	done || exit 1
}

# seed_model_run FILE: the model's seed scenario at memcg 256M, patched,
# linux-6.x, readers at a random phase as validate runs them, into FILE
# (JSON) - the run validate --real tests relabel as "real"
seed_model_run() {
	"$CP" run seed --mem 256M --confine memcg --policy patched --kernel linux-6.x \
		--set 'reader.*.random_phase=yes' --json "$1" --quiet ||
		fail "the model run failed"
}

# real_runs OUT LAYOUTS: $CP_TEST_TMP/model.json (seed_model_run) as
# "real" runs, one per letter of LAYOUTS (a, b: two start layouts; -:
# none set), into OUT (tests/cli/lib/real_runs.py)
real_runs() {
	python3 "$SRC/tests/cli/lib/real_runs.py" "$CP_TEST_TMP/model.json" "$1" "$2" ||
		fail "could not make the real runs $2"
}

# calibration FILE NAME COPY: profiles/seed-box.ini as calibrate writes a
# profile (its header; copy_bandwidth measured), named NAME, copy rate
# COPY, into FILE
calibration() {
	{
		printf '; Machine profile of testhost, written by `cachepressure calibrate -o %s` on\n' "$1"
		printf '; 2026-12-02T20:00:00Z, kernel 6.18.44-test.\n\n'
		# the comment lines above a key are its comment: copy_bandwidth's
		# become "measured: ..."
		awk -v name="$2" -v copy="$3" '
			/^;/ { held = held $0 "\n"; next }
			/^name = / { printf "%s", held; held = ""; print "name = " name; next }
			/^copy_bandwidth = / { held = ""; print "; measured: test value"
				print "copy_bandwidth = " copy; next }
			{ printf "%s", held; held = ""; print }' "$SRC/profiles/seed-box.ini"
	} >"$1"
}
