#!/usr/bin/env bash
# tools/serve --empty, as README's local try-out runs it: a fresh shop
# with no demo, whose back office opens on the first-run setup. TAP.
#
# tools/serve itself runs (--no-build: the binaries of top_builddir), on a
# port of LC_TEST_PORTS, with LOYALTY_DB in a folder of the test's own (the
# default, var/empty/ of the source tree, is not written by the tests).
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"

dir=$(mktemp -d -p "${TMPDIR:-/tmp}")
pid=
stop() {
	if [ -n "$pid" ]; then
		# tools/serve's own TERM handler stops lighttpd and the
		# responders it started.
		kill -TERM "$pid" 2>/dev/null
		for _ in $(seq 1 100); do
			lc_alive "$pid" || break
			sleep 0.1
		done
		wait "$pid" 2>/dev/null
		pid=
	fi
}
trap 'stop; if [ "$tap_failed" -gt 0 ]; then diag "kept $dir"; else rm -rf "$dir"; fi' EXIT

port=$(lt_free_port) || bail "no free port in $LC_TEST_PORTS"
db=$dir/shop/loyalty.db
url=http://127.0.0.1:$port

# serve LOG ARGS...: tools/serve in the background on $port; sets pid.
serve() {
	local log=$1
	shift
	PORT=$port LOYALTY_DB=$db BUILD_DIR=$top_builddir TMPDIR=$dir \
	    setsid bash "$top_srcdir/tools/serve" --no-build "$@" \
	    </dev/null >"$log" 2>&1 &
	pid=$!
}

# A port found free may be taken by another test before lighttpd binds
# it: then another port, a few times (as lt_start does).
up=1
for _ in 1 2 3 4 5; do
	serve "$dir/serve.log" --empty
	for _ in $(seq 1 300); do
		grep -q '^listening on ' "$dir/serve.log" && { up=0; break; }
		lc_alive "$pid" || break
		sleep 0.1
	done
	[ "$up" -eq 0 ] && break
	grep -q 'Address already in use' "$dir/serve.log" || break
	stop
	rm -rf "$dir/shop"
	port=$(lt_free_port) || bail "no free port in $LC_TEST_PORTS"
	url=http://127.0.0.1:$port
done
ok "tools/serve --empty starts and says where it listens" test "$up" -eq 0 ||
    sed 's/^/#   /' "$dir/serve.log"

ok "no demo: the database holds no shop" \
    test "$(sqlite3 "$db" 'SELECT count(*) FROM merchants' 2>/dev/null)" = 0

got=$(curl -s --max-time 10 "$url/api/v1/setup")
is "$(jq -r .data.setup_needed <<<"$got" 2>/dev/null)" true \
    "GET /api/v1/setup says the setup is needed"

code=$(tr -d '\n' <"$db.setup-code" 2>/dev/null)
like "$(cat "$dir/serve.log")" "setup code ${code:-NONE} \\(in $db\\.setup-code\\)" \
    "it prints the one-time setup code and the file it is in"

st=$(curl -s -o "$dir/owner.html" -w '%{http_code}' --max-time 10 "$url/owner.html")
is "$st" 200 "the back office (owner.html) loads"
ok "the back office is its page" grep -qi '<html' "$dir/owner.html"

stop
ok "stopped, it leaves no run folder behind" \
    test -z "$(find "$dir" -mindepth 1 -maxdepth 1 -type d ! -name shop)"

# The shop is kept; --empty on a database that exists refuses to touch it.
serve "$dir/again.log" --empty
wait "$pid"
rc=$?
pid=
ok "--empty on an existing LOYALTY_DB fails" test "$rc" -ne 0
like "$(cat "$dir/again.log")" "wants a new database" "and says why"
ok "and leaves the shop as it was" test -e "$db"

done_testing
