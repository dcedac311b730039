# tests/pg_lib.sh: a throwaway PostgreSQL cluster for the tests (bash),
# sourced after tests/lib.sh (its ports, TAP helpers and bail):
#   . "$top_srcdir/tests/lib.sh"
#   . "$top_srcdir/tests/pg_lib.sh"
#
# lt_pg_available       0 when PostgreSQL's server programs are installed
#                       (Debian's postgresql package); sets LT_PG_BIN
# lt_pg_start           initdb and start a cluster of its own in a temp
#                       folder, on a free 127.0.0.1 port of LC_TEST_PORTS
#                       and a unix socket in that folder; exports LT_PG_HOST
#                       (the socket's folder), LT_PG_PORT, LT_PG_USER (the
#                       superuser, "loyalty", trusted) and LT_PG_BIN. Bails
#                       out on failure. Stopped on exit: it adds lt_pg_stop
#                       to the EXIT trap already set; a script that sets its
#                       own EXIT trap later (lt_start does) calls lt_pg_stop
#                       in it, and a watcher stops the cluster anyway once
#                       the script has gone (even killed).
# lt_pg_db NAME [TEMPLATE]
#                       creates database NAME (a copy of TEMPLATE, which
#                       must have no other session open) and prints its URI,
#                       postgresql://loyalty@127.0.0.1:PORT/NAME: over TCP,
#                       so any user reaches it (Apache's workers run as
#                       www-data; the socket's folder is the server's own)
# lt_pg_sql URI SQL     runs SQL (statements separated by ;) and prints the
#                       rows as sqlite3 -batch does: values |-separated,
#                       NULL as nothing (but true/false print as t/f);
#                       non-zero on any error, which goes to stderr
# lt_pg_stop            stops the cluster; removes its folder unless LT_KEEP
#                       is set or a test failed (then its path is printed).
#                       Safe to call twice.
#
# Settings of a throwaway cluster: UTF8, locale C (text sorts by bytes, as
# SQLite's BINARY does), max_connections 400 (tests run many FastCGI
# processes). fsync stays on, so commits reach the disk as in production;
# LC_TEST_PG_FSYNC=off turns it off for speed. As root (CI), the server
# runs as the postgres system user (initdb refuses root).

LT_PG_BIN=${LT_PG_BIN:-}
LT_PG_HOST=
LT_PG_PORT=
LT_PG_USER=loyalty
LT_PG_DIR=
LT_PG_AS=		# the system user running the server; empty: this one
LT_PG_WATCH=		# the watcher's pid

# The highest PostgreSQL's server programs: pg_config's, else Debian's
# /usr/lib/postgresql/VERSION/bin. LT_PG_BIN set beforehand is kept if it
# has them.
lt_pg_available() {
	local d best=
	[ -n "$LT_PG_BIN" ] && [ -x "$LT_PG_BIN/initdb" ] &&
	    [ -x "$LT_PG_BIN/pg_ctl" ] && return 0
	if command -v pg_config >/dev/null 2>&1; then
		d=$(pg_config --bindir 2>/dev/null)
		if [ -n "$d" ] && [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then
			LT_PG_BIN=$d
			return 0
		fi
	fi
	for d in $(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V); do
		[ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && best=$d
	done
	[ -n "$best" ] || return 1
	LT_PG_BIN=$best
}

# Runs a server program as the server's user, in the cluster's folder
# (the postgres user may not enter the caller's).
lt_pg_run() {
	if [ -n "$LT_PG_AS" ]; then
		(cd "$LT_PG_DIR" && runuser -u "$LT_PG_AS" -- "$@")
	else
		(cd "$LT_PG_DIR" && "$@")
	fi
}

lt_pg_start() {
	local fsync=${LC_TEST_PG_FSYNC:-on} sync=() rc=1 prev
	[ -z "$LT_PG_DIR" ] || bail "lt_pg_start: a cluster is running already ($LT_PG_DIR)"
	lt_pg_available ||
	    bail "PostgreSQL's server programs (initdb, pg_ctl) are not installed: Debian's postgresql package"
	case $fsync in
	on) ;;
	off) sync=(--no-sync) ;;
	*) bail "LC_TEST_PG_FSYNC=$fsync: want on or off" ;;
	esac
	LT_PG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/loyalty-pg.XXXXXX") || bail "mktemp"
	prev=$(trap -p EXIT)
	eval "set -- $prev"
	# shellcheck disable=SC2064
	trap "lt_pg_stop; ${3:-}" EXIT
	[ -n "$(trap -p TERM)" ] || trap 'exit 143' TERM
	[ -n "$(trap -p INT)" ] || trap 'exit 130' INT
	case $LT_PG_DIR in
	*[!A-Za-z0-9/._-]*) bail "lt_pg_start: $LT_PG_DIR: want a TMPDIR of letters, digits and / . _ - (it goes into postgresql.conf)" ;;
	esac
	if [ "$(id -u)" -eq 0 ]; then
		id postgres >/dev/null 2>&1 ||
		    bail "lt_pg_start: running as root needs the postgres system user (Debian's postgresql package)"
		LT_PG_AS=postgres
		chown postgres: "$LT_PG_DIR" || bail "chown postgres $LT_PG_DIR"
		lt_pg_run test -w "$LT_PG_DIR" ||
		    bail "lt_pg_start: the postgres user cannot write $LT_PG_DIR (set TMPDIR to a folder it can reach)"
	fi
	# The watcher (as the server's user, so after LT_PG_AS): polls for the
	# script, then stops the cluster it left, waiting out a start in
	# progress (pg_ctl start -t 60) for a script killed while starting it.
	# lt_pg_stop ends it with TERM, which ends its sleep too (a sleep
	# left behind would outlive the script by up to a second).
	(
		s=
		trap 'kill "$s" 2>/dev/null; exit 0' TERM
		while kill -0 $$ 2>/dev/null; do
			sleep 1 &
			s=$!
			wait "$s"
		done
		trap - TERM
		for _ in $(seq 1 65); do
			[ -f "$LT_PG_DIR/data/postmaster.pid" ] && break
			sleep 1
		done
		lt_pg_run "$LT_PG_BIN/pg_ctl" -D "$LT_PG_DIR/data" -m immediate -w -t 30 stop
		[ -n "$LT_KEEP" ] || rm -rf "$LT_PG_DIR"
	) </dev/null >/dev/null 2>&1 &
	LT_PG_WATCH=$!
	lt_pg_run "$LT_PG_BIN/initdb" -D "$LT_PG_DIR/data" -U "$LT_PG_USER" \
	    --auth=trust -E UTF8 --no-locale --no-instructions "${sync[@]}" \
	    >"$LT_PG_DIR/initdb.log" 2>&1 ||
	    bail "initdb failed: $(tail -5 "$LT_PG_DIR/initdb.log")"
	cat >>"$LT_PG_DIR/data/postgresql.conf" <<CONF

# tests/pg_lib.sh
listen_addresses = '127.0.0.1'
unix_socket_directories = '$LT_PG_DIR'
max_connections = 400
fsync = $fsync
logging_collector = off
CONF
	LT_PG_HOST=$LT_PG_DIR
	# The port is free when chosen, but another suite may take it first:
	# then the server cannot bind and another is tried.
	for _ in 1 2 3 4 5; do
		LT_PG_PORT=$(lt_free_port) || bail "no free port"
		rc=0
		lt_pg_run "$LT_PG_BIN/pg_ctl" -D "$LT_PG_DIR/data" \
		    -l "$LT_PG_DIR/server.log" -o "-p $LT_PG_PORT" -w -t 60 \
		    start >>"$LT_PG_DIR/start.log" 2>&1 || rc=$?
		[ $rc -eq 0 ] && break
		grep -q 'could not bind\|could not create any TCP/IP sockets' \
		    "$LT_PG_DIR/server.log" 2>/dev/null || break
		: >"$LT_PG_DIR/server.log"
	done
	[ $rc -eq 0 ] || bail "PostgreSQL did not start: $(tail -5 "$LT_PG_DIR/server.log" "$LT_PG_DIR/start.log" 2>/dev/null)"
	export LT_PG_HOST LT_PG_PORT LT_PG_USER LT_PG_BIN
}

lt_pg_stop() {
	[ -n "$LT_PG_DIR" ] || return 0
	if [ -n "$LT_PG_WATCH" ]; then
		kill -TERM "$LT_PG_WATCH" 2>/dev/null
		wait "$LT_PG_WATCH" 2>/dev/null
		LT_PG_WATCH=
	fi
	if [ -f "$LT_PG_DIR/data/postmaster.pid" ] &&
	    ! lt_pg_run "$LT_PG_BIN/pg_ctl" -D "$LT_PG_DIR/data" -m fast -w \
	    -t 30 stop >>"$LT_PG_DIR/start.log" 2>&1; then
		lt_pg_run "$LT_PG_BIN/pg_ctl" -D "$LT_PG_DIR/data" -m immediate \
		    -w -t 30 stop >>"$LT_PG_DIR/start.log" 2>&1
	fi
	if [ -n "$LT_KEEP" ] || [ "${tap_failed:-0}" -gt 0 ]; then
		diag "kept $LT_PG_DIR"
	else
		rm -rf "$LT_PG_DIR"
	fi
	LT_PG_DIR=
	LT_PG_HOST=
	LT_PG_PORT=
}

# A database's URI (see lt_pg_db).
lt_pg_uri() {
	printf 'postgresql://%s@127.0.0.1:%s/%s\n' "$LT_PG_USER" "$LT_PG_PORT" "$1"
}

lt_pg_sql() {
	local psql=psql
	[ -x "$LT_PG_BIN/psql" ] && psql=$LT_PG_BIN/psql
	[ $# -eq 2 ] || { echo "usage: lt_pg_sql URI SQL" >&2; return 2; }
	PGCONNECT_TIMEOUT=10 "$psql" -X -A -t -q -v ON_ERROR_STOP=1 -d "$1" \
	    -f - <<<"$2"
}

# CREATE DATABASE with PostgreSQL 15's default strategy, WAL_LOG: copying
# the schema's database (8 MB) took 50-330 ms (median 80) here, against
# 220-980 ms (median 470) for STRATEGY FILE_COPY, whose two checkpoints
# wait on fsync; about even with fsync off. Not named, so older servers
# take it too.
lt_pg_db() {
	local name=${1:-} tmpl=${2:-} sql
	[ -n "$LT_PG_PORT" ] || { echo "lt_pg_db: no cluster (lt_pg_start)" >&2; return 1; }
	[[ $name =~ ^[a-z_][a-z0-9_]{0,62}$ ]] ||
	    { echo "lt_pg_db: '$name': want a name of a-z, 0-9 and _" >&2; return 1; }
	[ -z "$tmpl" ] || [[ $tmpl =~ ^[a-z_][a-z0-9_]{0,62}$ ]] ||
	    { echo "lt_pg_db: template '$tmpl': want a name of a-z, 0-9 and _" >&2; return 1; }
	sql="CREATE DATABASE $name${tmpl:+ TEMPLATE $tmpl}"
	lt_pg_sql "$(lt_pg_uri postgres)" "$sql" || return 1
	lt_pg_uri "$name"
}

# lt_pg_why: why the PostgreSQL tests cannot run here (this build has no
# backend, its programs are not built, no PostgreSQL server programs);
# nothing when they can.
lt_pg_why() {
	local out
	[ -x "$top_builddir/tools/loyalty-admin" ] &&
	    [ -x "$top_builddir/cgi-bin/notfound.fcgi" ] ||
	    { echo "the server programs are not built in $top_builddir"; return; }
	# A port nothing listens on: a build with the backend fails to
	# connect, one without says so before trying.
	out=$("$top_builddir/tools/loyalty-admin" --db \
	    'postgresql://127.0.0.1:1/none?connect_timeout=2' init 2>&1)
	case $out in
	*"no PostgreSQL support"*)
		echo "no PostgreSQL backend in this build (./configure --with-postgresql)"
		return ;;
	*PostgreSQL*) ;;
	*)	echo "loyalty-admin init of a PostgreSQL URI said: $out"
		return ;;
	esac
	lt_pg_available ||
	    echo "PostgreSQL's server programs are not installed (Debian's postgresql package)"
}

# lt_pg_gate WHAT: returns when the PostgreSQL tests can run; else ends
# the script, skipped (TAP's 1..0), or with LC_REQUIRE_PG set (but to 0)
# failed, naming WHAT and why.
lt_pg_gate() {
	local why
	why=$(lt_pg_why)
	[ -z "$why" ] && return 0
	if [ -n "${LC_REQUIRE_PG:-}" ] && [ "$LC_REQUIRE_PG" != 0 ]; then
		echo "1..1"
		echo "not ok 1 - $1 on PostgreSQL: $why (LC_REQUIRE_PG is set)"
		exit 1
	fi
	echo "1..0 # SKIP $why"
	exit 0
}
