#!/usr/bin/env bash
# tools/bench works: a tiny run (1 round of 1 s runs, a small shop, 2
# processes per responder) must end with status 0 (every request answered
# as it should be), print every row of its table and every goal line, and
# write JSON whose every figure is a number; it must leave no process and
# no temporary folder behind, and refuse a bad option. Nothing here is
# timed: the figures are not judged, only that they are there.
# TAP; run by `make check`, or by hand with top_srcdir and top_builddir
# exported (absolute paths).
set -u
export LC_ALL=C
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"

for tool in wrk jq curl lighttpd; do
	command -v "$tool" >/dev/null ||
	    bail "$tool is not installed (tools/check installs it)"
done
for f in tools/bench_noop tools/bench_sqlite tools/loyalty-admin; do
	[ -x "$top_builddir/$f" ] || bail "$top_builddir/$f is not built"
done

dir=$(mktemp -d "${TMPDIR:-/tmp}/bench-smoke.XXXXXX") || bail "mktemp"
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/tmp"

TMPDIR=$dir/tmp BUILD_DIR=$top_builddir "$top_srcdir/tools/bench" --no-build \
    --duration 1 --rounds 1 --cards 20 --cooldown 0 --procs 2 \
    --json "$dir/out.json" >"$dir/out.txt" 2>"$dir/err.txt"
rc=$?
is "$rc" 0 "tools/bench --duration 1 --rounds 1 ends with status 0" ||
    diag "$(tail -n 20 "$dir/err.txt")"
out=$(cat "$dir/out.txt")

# The table: each run's row with numbers, the memory rows, the goals.
num='[0-9]+(\.[0-9]+)?'
row() { grep -E "^$1" "$dir/out.txt"; }
for r in 'do-nothing responder' 'lookup \(16 conn\)' \
    'record \(cashback, 16 conn\)' 'record \(punch, 16 conn\)' \
    'history \(16 conn\)' 'sync 100 items \(1 conn\)' \
    'sqlite ceiling \(1 conn\)' 'till \(1 conn\) \+ 3 flushing' \
    '8 clients alone' '8 clients \+ 3 flushing' 'login \(8 conn\)'; do
	like "$(row "$r")" "^$r +$num +$num +$num +0$" \
	    "table row: ${r//\\/}, req/s p50 p99 and no bad answer"
done
is "$(grep -cE "^  3 flushing tills \(batch/s\) +$num +$num +$num +0$" "$dir/out.txt")" 2 \
    "table rows: the flushing tills of both mixed runs"
for r in lookup record sync; do
	like "$(row "$r +[0-9.]+ +[0-9]")" "^$r +$num +$num +$num +$num +[0-9]{3}$" \
	    "memory row: $r, after load and after 100k keys, with the answer's status"
done
like "$(row 'login +[0-9]')" "^login +$num +$num " "memory row: 8 concurrent logins"
n=$(grep -cE "^goal .* ($num) \((>=|<=) $num\) (NOT )?met$" <<<"$out")
is "$n" 7 "seven goal lines, each with a figure and met or NOT met"

# The JSON: every figure a number.
jq -e . "$dir/out.json" >/dev/null 2>&1
is "$?" 0 "--json wrote JSON"
is "$(jq -r '[.runs[] | .rps, .p50_ms, .p99_ms] | map(select(type != "number" or . < 0)) | length' "$dir/out.json")" 0 \
    "every run's req/s, p50 and p99 is a number"
is "$(jq -r '.runs | length' "$dir/out.json")" 13 "13 runs in the JSON"
is "$(jq -r '[.runs[] | .rps] | map(select(. > 0)) | length' "$dir/out.json")" 13 \
    "every run answered requests"
is "$(jq -r '[.memory_kib[] | .rss, .pss, .rss_100k, .pss_100k, .pss_all | numbers | select(. > 0)] | length' "$dir/out.json")" 18 \
    "every memory figure is a number (5 responders after load, 3 after 100k keys, logins)"
is "$(jq -r '[.memory_kib[] | .status_100k | numbers | select(. >= 200 and . < 500)] | length' "$dir/out.json")" 3 \
    "the 100k-key requests were answered, and not with a server error"
is "$(jq -r '[.goals[] | numbers] | length' "$dir/out.json")" 7 "seven goal figures"
is "$(jq -r '[.goals_met[] | booleans] | length' "$dir/out.json")" 7 "seven goals met or not"
is "$(jq -r '.bad_answers' "$dir/out.json")" 0 "no bad answer"
is "$(jq -r '.log_problems' "$dir/out.json")" 0 \
    "no sanitizer report or failed responder in the server's log"

# Cleaned up: its folder is gone and nothing runs from it.
is "$(find "$dir/tmp" -mindepth 1 | wc -l)" 0 "the temporary folder is removed"
is "$(pgrep -f "$dir/tmp" | wc -l)" 0 "no process of the run is left"

TMPDIR=$dir/tmp "$top_srcdir/tools/bench" --no-build --duration 0 \
    >/dev/null 2>"$dir/bad.txt"
rc=$?
is "$rc:$(grep -c 'duration' "$dir/bad.txt")" 1:1 "--duration 0 is refused, naming the option"

done_testing
