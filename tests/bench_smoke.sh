#!/usr/bin/env bash
# tools/bench works: a tiny run (1 round of 1 s runs, a small shop, 2
# processes per responder) must end with status 0 (every request answered
# as it should be), print every row of its table and every goal line, and
# write JSON whose every figure is a number; it must leave no process and
# no temporary folder behind, and refuse a bad option. Then the same on
# PostgreSQL (--postgresql --quick, a small shop): the header names the
# backend and its cluster's settings (fsync and synchronous_commit on), the
# ceiling is PostgreSQL's, the JSON says so, and the cluster is gone after;
# skipped when the build has no PostgreSQL backend or PostgreSQL's server
# programs are not installed, a failure then with LC_REQUIRE_PG set (but
# to 0). --db of a server that does not answer, or of a database that has
# tables, is refused. Nothing here is timed: the figures are not judged,
# only that they are there.
# TAP; run by `make check`, or by hand with top_srcdir and top_builddir
# exported (absolute paths).
set -u
export LC_ALL=C
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"

for tool in wrk jq curl lighttpd; do
	command -v "$tool" >/dev/null ||
	    bail "$tool is not installed (tools/check installs it)"
done
for f in tools/bench_noop tools/bench_floor tools/bench_sqlite tools/loyalty-admin; do
	[ -x "$top_builddir/$f" ] || bail "$top_builddir/$f is not built"
done

dir=$(mktemp -d "${TMPDIR:-/tmp}/bench-smoke.XXXXXX") || bail "mktemp"
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/tmp"
# As root the cluster runs as the postgres user, which must reach it.
chmod 711 "$dir" "$dir/tmp" || bail "chmod"

num='[0-9]+(\.[0-9]+)?'
row() { grep -E "^$1" "$dir/out.txt"; }

# checks BACKEND CEILING ARGS...: the points of tools/bench ARGS on BACKEND
# (sqlite or postgresql), whose database ceiling's run is CEILING.
checks() {
	local backend=$1 ceil=$2 out r rc n
	shift 2
	TMPDIR=$dir/tmp BUILD_DIR=$top_builddir "$top_srcdir/tools/bench" \
	    --no-build "$@" --json "$dir/out.json" >"$dir/out.txt" 2>"$dir/err.txt"
	rc=$?
	is "$rc" 0 "$backend: tools/bench $* ends with status 0" ||
	    diag "$(tail -n 20 "$dir/err.txt")"
	out=$(cat "$dir/out.txt")

	# The table: each run's row with numbers, the memory rows, the goals.
	for r in 'do-nothing responder' "lookup's reads alone" 'lookup \(16 conn\)' \
	    'record \(cashback, 16 conn\)' 'record \(punch, 16 conn\)' \
	    'history \(16 conn\)' 'sync 100 items \(1 conn\)' \
	    "$ceil ceiling \\(1 conn\\)" 'till \(1 conn\) \+ 3 flushing' \
	    '8 clients alone' '8 clients \+ 3 flushing' 'login \(8 conn\)' \
	    'password hash \(1 process\)'; do
		like "$(row "$r")" "^$r +$num +$num +$num +0$" \
		    "$backend: table row: ${r//\\/}, req/s p50 p99 and no bad answer"
	done
	is "$(grep -cE "^  3 flushing tills \(batch/s\) +$num +$num +$num +0$" "$dir/out.txt")" 2 \
	    "$backend: table rows: the flushing tills of both mixed runs"
	like "$(row 'floor +[0-9]')" "^floor +$num +$num +- +- +-$" \
	    "$backend: memory row: lookup's reads alone, after load"
	for r in lookup record sync; do
		like "$(row "$r +[0-9.]+ +[0-9]")" "^$r +$num +$num +$num +$num +[0-9]{3}$" \
		    "$backend: memory row: $r, after load and after 100k keys, with the answer's status"
	done
	like "$(row 'login +[0-9]')" "^login +$num +$num " \
	    "$backend: memory row: 8 concurrent logins"
	like "$(row 'hash +[0-9]')" "^hash +$num +- .* $num MiB of it the hashing's" \
	    "$backend: memory row: a password hash alone, and the hashing's part"
	n=$(grep -cE "^goal .* ($num) \((>=|<=) $num\) (NOT )?met$" <<<"$out")
	is "$n" 7 "$backend: seven goal lines, each with a figure and met or NOT met"
	n=$(grep -cE "^bound .* $num( \(.*\))?$" <<<"$out")
	is "$n" 5 "$backend: five bound lines, each with a figure"

	# The JSON: every figure a number.
	jq -e . "$dir/out.json" >/dev/null 2>&1
	is "$?" 0 "$backend: --json wrote JSON"
	is "$(jq -r .backend "$dir/out.json")" "$backend" "$backend: the JSON names the backend"
	is "$(jq -r '[.runs[] | .rps, .p50_ms, .p99_ms] | map(select(type != "number" or . < 0)) | length' "$dir/out.json")" 0 \
	    "$backend: every run's req/s, p50 and p99 is a number"
	is "$(jq -r '.runs | length' "$dir/out.json")" 15 "$backend: 15 runs in the JSON"
	is "$(jq -r --arg c "$ceil" '.runs[$c].rps | type' "$dir/out.json")" number \
	    "$backend: the ceiling's run is $ceil"
	is "$(jq -r '[.runs[] | .rps] | map(select(. > 0)) | length' "$dir/out.json")" 15 \
	    "$backend: every run answered requests"
	is "$(jq -r '[.memory_kib[] | .rss, .pss, .rss_100k, .pss_100k, .pss_all | numbers | select(. > 0)] | length' "$dir/out.json")" 21 \
	    "$backend: every memory figure is a number (6 responders after load, 3 after 100k keys, logins, a hash)"
	is "$(jq -r '[.memory_kib[] | .status_100k | numbers | select(. >= 200 and . < 500)] | length' "$dir/out.json")" 3 \
	    "$backend: the 100k-key requests were answered, and not with a server error"
	is "$(jq -r '[.goals[] | numbers] | length' "$dir/out.json")" 7 "$backend: seven goal figures"
	is "$(jq -r --arg k "record_vs_$ceil" '.goals[$k] | type' "$dir/out.json")" number \
	    "$backend: the purchase goal is against $ceil's ceiling"
	is "$(jq -r '[.goals_met[] | booleans] | length' "$dir/out.json")" 7 "$backend: seven goals met or not"
	is "$(jq -r '[.bounds[] | numbers | select(. > 0)] | length' "$dir/out.json")" 5 \
	    "$backend: five bounds, each a number"
	is "$(jq -r '.bad_answers' "$dir/out.json")" 0 "$backend: no bad answer"
	is "$(jq -r '.log_problems' "$dir/out.json")" 0 \
	    "$backend: no sanitizer report or failed responder in the server's log"

	# Cleaned up: its folder is gone and nothing runs from it (the
	# cluster's server would: its data folder is on its command line).
	is "$(find "$dir/tmp" -mindepth 1 | wc -l)" 0 "$backend: the temporary folder is removed"
	is "$(pgrep -f "$dir/tmp" | wc -l)" 0 "$backend: no process of the run is left"
}
CHECKS=37	# the points of checks

checks sqlite sqlite --duration 1 --rounds 1 --cards 20 --cooldown 0 --procs 2
like "$(grep -m 1 '^Loyalty POS benchmark' "$dir/out.txt")" \
    '^Loyalty POS benchmark, ' "sqlite: the header, as before"

TMPDIR=$dir/tmp "$top_srcdir/tools/bench" --no-build --duration 0 \
    >/dev/null 2>"$dir/bad.txt"
rc=$?
is "$rc:$(grep -c 'duration' "$dir/bad.txt")" 1:1 "--duration 0 is refused, naming the option"
for bad in '--db shop.db' '--postgresql --db postgresql://x@127.0.0.1/y' \
    '--postgresql --runs sqlite'; do
	# shellcheck disable=SC2086
	TMPDIR=$dir/tmp "$top_srcdir/tools/bench" --no-build $bad \
	    >/dev/null 2>"$dir/bad.txt"
	rc=$?
	is "$rc:$(grep -cE -- '--db|--runs' "$dir/bad.txt")" 1:1 "$bad is refused, naming the option"
done

# PostgreSQL: why it cannot run here, nothing when it can.
. "$top_srcdir/tests/pg_lib.sh"
PG_POINTS=$((CHECKS + 7))
why=$(lt_pg_why)
if [ -n "$why" ]; then
	if [ -n "${LC_REQUIRE_PG:-}" ] && [ "$LC_REQUIRE_PG" != 0 ]; then
		tap_result 1 "tools/bench --postgresql: $why (LC_REQUIRE_PG is set)"
	else
		skip "$PG_POINTS" "$why"
	fi
else
	checks postgresql postgresql --postgresql --quick --cards 20 \
	    --cooldown 0 --procs 2
	like "$(grep -m 1 '^Loyalty POS benchmark' "$dir/out.txt")" \
	    '^Loyalty POS benchmark on PostgreSQL, ' \
	    "postgresql: the header names the backend"
	like "$(grep '^PostgreSQL ' "$dir/out.txt")" \
	    '^PostgreSQL [0-9][^,]*, a throwaway cluster on 127\.0\.0\.1: fsync on, synchronous_commit on, wal_sync_method [a-z_]+, shared_buffers [0-9]+[kMG]B,$' \
	    "postgresql: then its cluster's settings, fsync and synchronous_commit on"
	is "$(jq -r '[.postgresql.server, .postgresql.fsync, .postgresql.synchronous_commit] | join(" ")' "$dir/out.json")" \
	    "throwaway on on" "postgresql: the JSON has the cluster's settings"
	# A server that does not answer: a clear error, nothing left.
	TMPDIR=$dir/tmp BUILD_DIR=$top_builddir "$top_srcdir/tools/bench" \
	    --no-build --quick --db 'postgresql://loyalty@127.0.0.1:1/none?connect_timeout=2' \
	    >/dev/null 2>"$dir/bad.txt"
	rc=$?
	is "$rc:$(grep -c 'cannot read the server' "$dir/bad.txt")" 1:1 \
	    "postgresql: --db of a server that does not answer fails, saying so"
	is "$(find "$dir/tmp" -mindepth 1 | wc -l)" 0 \
	    "postgresql: and removes its temporary folder"
	# --db of a database that has a table: refused before seeding.
	TMPDIR=$dir lt_pg_start
	uri=$(lt_pg_db given) && lt_pg_sql "$uri" 'CREATE TABLE t (x int)' ||
	    bail "cannot make the database"
	TMPDIR=$dir/tmp BUILD_DIR=$top_builddir "$top_srcdir/tools/bench" \
	    --no-build --quick --db "$uri" >/dev/null 2>"$dir/bad.txt"
	rc=$?
	is "$rc:$(grep -c 'database is not empty (1 tables)' "$dir/bad.txt")" 1:1 \
	    "postgresql: --db of a database that is not empty is refused, saying so"
	is "$(lt_pg_sql "$uri" "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")" 1 \
	    "postgresql: and left as it was"
	lt_pg_stop
fi

done_testing
