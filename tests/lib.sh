# tests/lib.sh: helpers for the test scripts (bash), sourced as
#   . "$top_srcdir/tests/lib.sh"
# `make check` exports top_srcdir and top_builddir (absolute); run by hand,
# they default to the repository and its build/ folder.
#
# TAP:     ok DESC CMD...   is GOT WANT DESC   like GOT REGEX DESC
#          skip COUNT REASON   diag TEXT   bail TEXT   done_testing
# Server:  lt_start [SEED_CMD...]   lighttpd exactly as tools/serve runs it
#          (same rendering code, tools/lib.sh), on a free 127.0.0.1 port,
#          with a fresh database: `loyalty-admin demo` by default, else
#          SEED_CMD run with LOYALTY_DB exported. Stopped with every
#          responder on exit. Sets LT_URL, LT_DB, LT_DIR, LT_ADMIN and,
#          for the demo, the DEMO_* variables (see lt_parse_demo). It sets
#          an EXIT trap calling lt_stop and lt_backend_stop: a script with
#          a trap of its own calls them in it.
# Backend: LT_BACKEND=sqlite (default) or postgresql: the databases of
#          lt_start and ap_start (see lt_db_new). lt_sql QUERY and
#          lt_integrity read LT_DB with either.
# HTTP:    lt_req METHOD PATH [BODY [CURL_ARGS...]]  sets LT_STATUS,
#          LT_BODY, LT_HEADERS; sends LT_TOKEN as a bearer token when set.
#          lt_header NAME   lt_jq FILTER   lt_login EMAIL PASSWORD
# Apache:  ap_available   ap_start   ap_stop   ap_cleanup: Apache 2.4 +
#          mod_fcgid with htdocs/.htaccess (/shop/) and
#          conf/apache-fcgid.conf (/pos/), see ap_start below; point
#          lt_req at it with LT_DIR=$AP_DIR LT_URL=$AP_URL.

top_srcdir=${top_srcdir:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir/build}
. "$top_srcdir/tools/lib.sh"
LC_BUILDDIR=$top_builddir
LT_ADMIN=$top_builddir/tools/loyalty-admin

# --- TAP ------------------------------------------------------------------

tap_n=0
tap_failed=0

tap_result() {	# STATUS DESC
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		printf 'ok %d - %s\n' "$tap_n" "$2"
	else
		printf 'not ok %d - %s\n' "$tap_n" "$2"
		tap_failed=$((tap_failed + 1))
	fi
	return "$1"
}

# ok DESC CMD...: passes when CMD succeeds.
ok() {
	local d=$1
	shift
	"$@"
	tap_result $? "$d"
}

# is GOT WANT DESC
is() {
	if [ "$1" = "$2" ]; then
		tap_result 0 "$3"
	else
		tap_result 1 "$3"
		diag "  got: '$1'"
		diag " want: '$2'"
		return 1
	fi
}

# like GOT REGEX DESC (an extended regular expression, bash's =~)
like() {
	if [[ $1 =~ $2 ]]; then
		tap_result 0 "$3"
	else
		tap_result 1 "$3"
		diag "  got: '$1'"
		diag " want: /$2/"
		return 1
	fi
}

# skip COUNT REASON: COUNT skipped points.
skip() {
	local i
	for i in $(seq 1 "$1"); do
		tap_n=$((tap_n + 1))
		printf 'ok %d # SKIP %s\n' "$tap_n" "$2"
	done
}

diag() { printf '# %s\n' "$*"; }
bail() { printf 'Bail out! %s\n' "$*"; exit 1; }
done_testing() {
	printf '1..%d\n' "$tap_n"
	[ "$tap_failed" -eq 0 ]
}

# --- the server -------------------------------------------------------------

LT_DIR=
LT_URL=
LT_DB=
LT_TOKEN=
LT_KEEP=${LT_KEEP:-}	# set: keep the temp folder for a look afterwards
LT_DOCROOT=${LT_DOCROOT:-}	# the web folder lt_start serves and ap_start
				# copies; htdocs/ when empty

# The storage backend of the databases lt_start and ap_start make:
# sqlite (a file in the test's folder) or postgresql (a database of its
# own in one throwaway cluster per script, tests/pg_lib.sh, started at the
# first; LT_DB is then its postgresql:// URI).
LT_BACKEND=${LT_BACKEND:-sqlite}
LT_DB_SEQ=0
case $LT_BACKEND in
sqlite) ;;
postgresql) . "$top_srcdir/tests/pg_lib.sh" ;;
*) bail "LT_BACKEND=$LT_BACKEND: want sqlite or postgresql" ;;
esac

# lt_backend_start: starts the cluster on postgresql, once. In the
# script's shell, not in $(...): the cluster must outlive the call.
lt_backend_start() {
	[ "$LT_BACKEND" = postgresql ] && [ -z "$LT_PG_PORT" ] && lt_pg_start
	return 0
}

# lt_backend_stop: stops the cluster, if one runs. A script with an EXIT
# trap of its own calls it there, after lt_stop or ap_cleanup.
lt_backend_stop() {
	[ "$LT_BACKEND" = postgresql ] && lt_pg_stop
	return 0
}

# lt_db_new PATH: sets LT_NEW_DB to the name of a new, empty database:
# PATH on sqlite (made by its first writer), else the URI of a new
# database of the cluster (lt_backend_start first).
LT_NEW_DB=
lt_db_new() {
	LT_NEW_DB=$1
	[ "$LT_BACKEND" = postgresql ] || return 0
	LT_DB_SEQ=$((LT_DB_SEQ + 1))
	LT_NEW_DB=$(lt_pg_db "lt_db$LT_DB_SEQ")
}

# lt_sql QUERY: QUERY on LT_DB with either backend, printed as sqlite3
# -batch prints it (values |-separated, NULL as nothing; psql prints
# booleans as t/f); non-zero on an error. Portable SQL only.
lt_sql() {
	if [ "$LT_BACKEND" = postgresql ]; then
		lt_pg_sql "$LT_DB" "$1"
	else
		sqlite3 -batch -cmd '.timeout 5000' "$LT_DB" "$1"
	fi
}

# lt_integrity: "ok" when LT_DB is sound, else what is wrong: SQLite's
# integrity_check, or on PostgreSQL amcheck's checks of every table
# (verify_heapam) and B-tree index (bt_index_check, with every heap
# tuple looked up in it) of the public schema.
lt_integrity() {
	[ "$LT_BACKEND" = postgresql ] || { lt_sql 'PRAGMA integrity_check'; return; }
	lt_pg_sql "$LT_DB" "CREATE EXTENSION IF NOT EXISTS amcheck;
	    SELECT c.relname || ': ' || v.msg FROM pg_class c
	        JOIN pg_namespace n ON n.oid = c.relnamespace,
	        verify_heapam(c.oid) v
	    WHERE n.nspname = 'public' AND c.relkind = 'r';
	    SELECT 'ok' FROM (SELECT count(bt_index_check(c.oid, true)) FROM pg_class c
	        JOIN pg_namespace n ON n.oid = c.relnamespace
	        JOIN pg_am a ON a.oid = c.relam
	    WHERE n.nspname = 'public' AND c.relkind = 'i' AND a.amname = 'btree') s"
}

# A port of 127.0.0.1 that nothing listens on (lighttpd may still lose a
# race for it: lt_start retries), taken at random from LC_TEST_PORTS,
# LOW-HIGH (default 20000 up to the kernel's range of ports for outgoing
# connections, 32767 on Linux, 59999 where it cannot be read): two suites
# side by side on one machine each get a range of their own. Below that
# range, no client's connection holds a port a server is about to bind.
LT_PORT_LO=20000
LT_PORT_HI=59999
case ${LC_TEST_PORTS:-} in
'')
	read -r eph _ 2>/dev/null </proc/sys/net/ipv4/ip_local_port_range &&
	    [[ $eph =~ ^[0-9]+$ ]] && [ "$eph" -gt 22000 ] &&
	    LT_PORT_HI=$((eph - 1))
	;;
*[!0-9-]* | -* | *- | *-*-*)
	bail "LC_TEST_PORTS=$LC_TEST_PORTS: want LOW-HIGH, such as 20000-29999" ;;
*-*)
	LT_PORT_LO=$((10#${LC_TEST_PORTS%-*})) LT_PORT_HI=$((10#${LC_TEST_PORTS#*-}))
	[ "$LT_PORT_LO" -ge 1024 ] && [ "$LT_PORT_HI" -le 65535 ] &&
	    [ "$LT_PORT_LO" -le "$LT_PORT_HI" ] ||
	    bail "LC_TEST_PORTS=$LC_TEST_PORTS: want LOW-HIGH within 1024-65535"
	;;
*)	bail "LC_TEST_PORTS=$LC_TEST_PORTS: want LOW-HIGH, such as 20000-29999" ;;
esac
# lt_sanitized: 0 when top_builddir is a sanitizer build (configure
# --enable-sanitizers). The static bundles are built by tools/bundle
# without sanitizers, whatever the build: their tests run in the normal
# suite only, as a second run would test the same programs again.
lt_sanitized() {
	grep -q '^SAN_CFLAGS = .*-fsanitize' "$top_builddir/Makefile" 2>/dev/null
}

lt_free_port() {
	local p i lo=$LT_PORT_LO hi=$LT_PORT_HI
	for i in $(seq 1 50); do
		p=$((lo + (RANDOM * 32768 + RANDOM) % (hi - lo + 1)))
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			echo "$p"
			return 0
		fi
	done
	return 1
}

# The values the demo printed, for tests that use the demo database:
# DEMO_MERCHANT_ID, DEMO_LOCATION_ID (Main Street, the staff's),
# DEMO_LOCATION2_ID (Harbour Kiosk), DEMO_{OWNER,STAFF}_{EMAIL,PASSWORD},
# DEMO_{PUNCH,CASHBACK,DISCOUNT}_{CARD,BARCODE,QR}.
lt_parse_demo() {
	local f=$1 t
	DEMO_MERCHANT_ID=$(awk '$1 == "merchant" { print $2; exit }' "$f")
	DEMO_LOCATION_ID=$(awk '$1 == "location" { print $2; exit }' "$f")
	DEMO_LOCATION2_ID=$(awk '$1 == "location" { n++; if (n == 2) { print $2; exit } }' "$f")
	DEMO_OWNER_EMAIL=$(awk '$1 == "owner" { print $2; exit }' "$f")
	DEMO_OWNER_PASSWORD=$(awk '$1 == "owner" { print $4; exit }' "$f")
	DEMO_STAFF_EMAIL=$(awk '$1 == "staff" { print $2; exit }' "$f")
	DEMO_STAFF_PASSWORD=$(awk '$1 == "staff" { print $4; exit }' "$f")
	for t in punch cashback discount; do
		eval "DEMO_${t^^}_CARD=\$(awk -v t=$t '\$1 == t { print \$3; exit }' \"\$f\")"
		eval "DEMO_${t^^}_BARCODE=\$(awk -v t=$t '\$1 == t { print \$5; exit }' \"\$f\")"
		eval "DEMO_${t^^}_QR=\$(awk -v t=$t '\$1 == t { print \$7; exit }' \"\$f\")"
	done
}

# lt_start [SEED_CMD...]: see the top of this file. Bails out on failure.
lt_start() {
	local tries rc
	[ -x "$LT_ADMIN" ] || bail "$LT_ADMIN is not built"
	command -v lighttpd >/dev/null || bail "lighttpd is not installed (tools/check installs it)"
	LT_DIR=$(mktemp -d "${TMPDIR:-/tmp}/loyalty-test.XXXXXX") || bail "mktemp"
	lt_backend_start
	trap 'lt_stop; lt_backend_stop' EXIT
	# A signal becomes an exit, so the EXIT trap stops the server.
	trap 'exit 143' TERM
	trap 'exit 130' INT
	lt_db_new "$LT_DIR/loyalty.db" || bail "no new database"
	LT_DB=$LT_NEW_DB
	if [ $# -eq 0 ]; then
		"$LT_ADMIN" --db "$LT_DB" demo >"$LT_DIR/demo.txt" 2>"$LT_DIR/seed.err" ||
		    bail "loyalty-admin demo failed: $(cat "$LT_DIR/seed.err")"
		lt_parse_demo "$LT_DIR/demo.txt"
	else
		# A new SQLite file is made by its first writer; a PostgreSQL
		# database is set up by init before anything reaches it.
		[ "$LT_BACKEND" = sqlite ] ||
		    "$LT_ADMIN" --db "$LT_DB" init 2>"$LT_DIR/seed.err" ||
		    bail "loyalty-admin init failed: $(cat "$LT_DIR/seed.err")"
		LOYALTY_DB=$LT_DB "$@" >"$LT_DIR/seed.out" 2>"$LT_DIR/seed.err" ||
		    bail "seed command failed: $* ($(cat "$LT_DIR/seed.err"))"
	fi
	LC_DB=$LT_DB
	LC_RUNDIR=$LT_DIR/run
	LC_BIND=127.0.0.1
	LC_PROCS=${LT_PROCS:-2}
	LC_ERRORLOG=$LT_DIR/lighttpd.log
	LC_DOCROOT=${LT_DOCROOT:-$top_srcdir/htdocs}
	mkdir -p "$LC_RUNDIR"
	lt_serve
}

# lt_serve: lighttpd with lt_start's settings (LC_*) on a free port, one
# another suite took first being tried again with another; sets LT_URL.
# Bails out on failure.
lt_serve() {
	local tries rc=1
	for tries in 1 2 3 4 5; do
		LC_PORT=$(lt_free_port) || bail "no free port"
		rc=0
		lc_server_start 2>>"$LT_DIR/start.log" || rc=$?
		[ $rc -eq 0 ] && break
		[ $rc -eq 1 ] || break
	done
	[ $rc -eq 0 ] || bail "lighttpd did not start: $(tail -5 "$LC_ERRORLOG" "$LT_DIR/start.log" 2>/dev/null)"
	LT_URL=http://127.0.0.1:$LC_PORT
}

# lt_restart_on DB: the server again, on database DB, as lt_start set it
# up (lt_start always makes a new database: a test that made its own,
# such as a copy, serves it so); its responders connect anew.
lt_restart_on() {
	lc_server_stop
	LC_DB=$1
	lt_serve
}

# The pids of the running processes of responder NAME (e.g. me).
lt_responder_pids() {
	local p
	for p in $(lc_server_children); do
		[ "$(readlink "/proc/$p/exe" 2>/dev/null)" = "$LC_BUILDDIR/cgi-bin/$1.fcgi" ] &&
		    echo "$p"
	done
	return 0
}

# Sanitizer reports or crashed responders in the server's log; prints them.
lt_log_problems() {
	[ -n "$LT_DIR" ] && [ -f "$LT_DIR/lighttpd.log" ] || return 1
	grep -E 'AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime error:|child (signaled|signalled)|child exited: [1-9]' \
	    "$LT_DIR/lighttpd.log"
}

# lt_log_clean NAME: a point, no sanitizer report or crashed responder in
# the server's log (lt_log_problems).
lt_log_clean() {
	local lp
	if lp=$(lt_log_problems); then
		tap_result 1 "$1: no sanitizer report or crashed responder in its log"
		diag "$lp"
	else
		tap_result 0 "$1: no sanitizer report or crashed responder in its log"
	fi
}

# Stops the server and every responder; removes the temp folder unless
# LT_KEEP is set or a test failed (then its path is printed).
lt_stop() {
	lc_server_stop
	[ -n "$LT_DIR" ] || return 0
	if [ -n "$LT_KEEP" ] || [ "$tap_failed" -gt 0 ]; then
		diag "kept $LT_DIR"
	else
		rm -rf "$LT_DIR"
	fi
	LT_DIR=
}

# --- HTTP -----------------------------------------------------------------

LT_STATUS=
LT_BODY=
LT_HEADERS=

# lt_race_req METHOD PATH BODY OUTFILE: one request of a racing client
# (BODY "" for none), with the bearer token LT_RACE_TOKEN; appends
# "STATUS BODY" to OUTFILE in one write(2), so the lines of clients
# appending at once stay whole (bash's printf writes a long one in
# pieces).
lt_race_req() {
	local s f=$4.body.$BASHPID
	s=$(curl -s -o "$f" -w '%{http_code}' --max-time 60 -X "$1" \
	    -H "Authorization: Bearer ${LT_RACE_TOKEN:-}" \
	    -H 'Content-Type: application/json' \
	    ${3:+--data-binary "$3"} "$LT_URL$2") || s=000
	printf '%s %s\n' "$s" "$(tr -d '\n' <"$f" 2>/dev/null)" >"$f.line"
	cat "$f.line" >>"$4"
	rm -f "$f" "$f.line"
}

# lt_race N DIR FUNC: N processes running FUNC CLIENT_NO, held until all
# have started (DIR/go), then released together; waits for them all.
lt_race() {
	local i pids=()
	rm -f "$2/go"
	for i in $(seq 1 "$1"); do
		( while [ ! -e "$2/go" ]; do sleep 0.01; done; "$3" "$i" ) &
		pids+=($!)
	done
	sleep 0.3
	touch "$2/go"
	wait "${pids[@]}"
}

# lt_req METHOD PATH [BODY [CURL_ARGS...]]: BODY is sent as is with
# Content-Type: application/json (unless CURL_ARGS set another); "@FILE"
# sends a file. "" sends no body.
lt_req() {
	local m=$1 path=$2 body=${3-} hf bf args=()
	shift 2
	[ $# -gt 0 ] && shift
	hf=$LT_DIR/resp.headers
	bf=$LT_DIR/resp.body
	args=(-s -S -X "$m" -D "$hf" -o "$bf" -w '%{http_code}' -H 'Expect:'
	    --max-time 30)
	[ -n "$LT_TOKEN" ] && args+=(-H "Authorization: Bearer $LT_TOKEN")
	if [ -n "$body" ]; then
		args+=(--data-binary "$body")
		[[ ${*,,} == *content-type:* ]] ||
		    args+=(-H 'Content-Type: application/json')
	fi
	LT_STATUS=$(curl "${args[@]}" "$@" "$LT_URL$path") || LT_STATUS=000
	LT_BODY=$(cat "$bf" 2>/dev/null)
	LT_HEADERS=$(tr -d '\r' <"$hf" 2>/dev/null)
}

# The value of response header NAME (case-insensitive), "" when absent.
lt_header() {
	printf '%s\n' "$LT_HEADERS" | awk -v n="$1" '
	    BEGIN { n = tolower(n) }
	    { i = index($0, ":"); if (i && tolower(substr($0, 1, i - 1)) == n) {
	        v = substr($0, i + 1); sub(/^[ \t]+/, "", v); print v; exit } }'
}

# jq -r FILTER on the last response body; "" when it is not JSON.
lt_jq() {
	printf '%s' "$LT_BODY" | jq -r "$1" 2>/dev/null
}

# Logs in; on 200 sets LT_TOKEN, LT_REFRESH, LT_USER_ID and
# LT_LOCATION_ID and returns 0.
lt_login() {
	local body
	body=$(jq -cn --arg e "$1" --arg p "$2" '{email: $e, password: $p}')
	# A failed login leaves none of the last one's values behind.
	LT_TOKEN= LT_REFRESH= LT_USER_ID= LT_LOCATION_ID=
	lt_req POST /api/v1/auth/login "$body"
	[ "$LT_STATUS" = 200 ] || return 1
	LT_TOKEN=$(lt_jq .access_token)
	LT_REFRESH=$(lt_jq .refresh_token)
	LT_USER_ID=$(lt_jq .user.id)
	LT_LOCATION_ID=$(lt_jq .user.location.id)
	return 0
}

# --- Apache ---------------------------------------------------------------

AP_DIR=
AP_PID=
AP_PORT=
AP_URL=

# 0 when apache2 and mod_fcgid are installed (tools/check installs them).
ap_available() {
	command -v apache2 >/dev/null 2>&1 &&
	    [ -e /usr/lib/apache2/modules/mod_fcgid.so ]
}

# ap_start: Apache 2.4 from Debian in a private ServerRoot (AP_DIR, a temp
# folder) on a free 127.0.0.1 port, with mod_fcgid, mod_rewrite,
# mod_headers and mod_deflate, serving the web folder AP_DIR/www the way
# the two kinds of installation do:
#   /shop/  a shared host: a copy of htdocs/ (or LT_DOCROOT) with its
#           .htaccess (LOYALTY_DB set in it, as its comment says) and the
#           built responders in shop/api-bin/ (LC_RESPONDER_DIR),
#           AllowOverride All
#   /pos/   a server of one's own: the same folder again (AP_DIR/pos),
#           reached through conf/apache-fcgid.conf (an Alias /pos)
# with a fresh demo database (the DEMO_* variables); AP_EXTRA_CONF, when
# set, ends the server's configuration. Sets AP_DIR, AP_PORT,
# AP_URL (http://127.0.0.1:PORT) and AP_PID. Returns 1, with Apache's log
# as TAP comments, when apache2 does not start. The caller stops it with
# ap_stop, or ap_cleanup (also removes AP_DIR unless LT_KEEP is set or a
# test failed), from its own EXIT trap.
ap_start() {
	local www user group mods i db
	[ -x "$LT_ADMIN" ] || bail "$LT_ADMIN is not built"
	AP_DIR=$(mktemp -d "${TMPDIR:-/tmp}/loyalty-apache.XXXXXX") || bail "mktemp"
	www=$AP_DIR/www
	mkdir -p "$www/shop/$LC_RESPONDER_DIR" "$AP_DIR/data" "$AP_DIR/run" "$AP_DIR/fcgid"
	cp -R "${LT_DOCROOT:-$top_srcdir/htdocs}/." "$www/shop/"
	cp "$LC_BUILDDIR"/cgi-bin/*.fcgi "$www/shop/$LC_RESPONDER_DIR/"
	lt_backend_start
	lt_db_new "$AP_DIR/data/loyalty.db" || bail "no new database"
	db=$LT_NEW_DB
	# sed's replacement: & | and \ taken literally.
	sed -i "s|^# *SetEnv LOYALTY_DB .*|SetEnv LOYALTY_DB $(printf '%s' "$db" |
	    sed 's/[&|\\]/\\&/g')|" "$www/shop/.htaccess"
	cp -R "$www/shop" "$AP_DIR/pos"
	sed -i '/^SetEnv LOYALTY_DB/d' "$AP_DIR/pos/.htaccess"
	"$LT_ADMIN" --db "$db" demo >"$AP_DIR/demo.txt" ||
	    bail "loyalty-admin demo failed"
	lt_parse_demo "$AP_DIR/demo.txt"
	chmod 755 "$AP_DIR"
	user=$(id -un) group=$(id -gn)
	if [ "$(id -u)" -eq 0 ]; then
		# Apache will not run its workers as root.
		user=www-data group=www-data
		chown -R www-data:www-data "$AP_DIR/data" "$AP_DIR/fcgid"
	fi
	AP_PORT=$(lt_free_port) || bail "no free port"
	AP_URL=http://127.0.0.1:$AP_PORT
	mods=/usr/lib/apache2/modules
	cat >"$AP_DIR/httpd.conf" <<CONF
ServerRoot "$AP_DIR"
ServerName 127.0.0.1
Listen 127.0.0.1:$AP_PORT
PidFile "$AP_DIR/run/httpd.pid"
DefaultRuntimeDir "$AP_DIR/run"
ErrorLog "$AP_DIR/error.log"
LogLevel warn
User $user
Group $group
LoadModule mpm_event_module $mods/mod_mpm_event.so
LoadModule authz_core_module $mods/mod_authz_core.so
LoadModule mime_module $mods/mod_mime.so
LoadModule alias_module $mods/mod_alias.so
LoadModule dir_module $mods/mod_dir.so
LoadModule env_module $mods/mod_env.so
LoadModule rewrite_module $mods/mod_rewrite.so
LoadModule headers_module $mods/mod_headers.so
LoadModule filter_module $mods/mod_filter.so
LoadModule deflate_module $mods/mod_deflate.so
LoadModule fcgid_module $mods/mod_fcgid.so
TypesConfig /etc/mime.types
FcgidIPCDir "$AP_DIR/fcgid"
FcgidProcessTableFile "$AP_DIR/fcgid/shm"
DocumentRoot "$www"
<Directory />
	AllowOverride None
	Require all denied
</Directory>
<Directory "$www">
	AllowOverride All
	Require all granted
</Directory>
Define LOYALTY_WEBROOT "$AP_DIR/pos"
Define LOYALTY_DB "$db"
Define LOYALTY_URL /pos
Include "$top_srcdir/conf/apache-fcgid.conf"
${AP_EXTRA_CONF:-}
CONF
	apache2 -f "$AP_DIR/httpd.conf" -DFOREGROUND </dev/null >>"$AP_DIR/error.log" 2>&1 &
	AP_PID=$!
	for i in $(seq 1 100); do
		lc_alive "$AP_PID" || break
		curl -s -o /dev/null --max-time 2 "$AP_URL/" && return 0
		sleep 0.1
	done
	lc_alive "$AP_PID" && return 0
	wait "$AP_PID" 2>/dev/null
	AP_PID=
	diag "$(cat "$AP_DIR/error.log")"
	return 1
}

# Stops Apache and whatever responders mod_fcgid left. Safe to call twice.
ap_stop() {
	local pid i p
	[ -n "$AP_PID" ] || return 0
	pid=$AP_PID
	AP_PID=
	kill -TERM "$pid" 2>/dev/null
	for i in $(seq 1 100); do lc_alive "$pid" || break; sleep 0.1; done
	kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	# mod_fcgid ends its processes; make sure (they run from AP_DIR).
	for p in $(pgrep -f "^$AP_DIR/" 2>/dev/null); do kill -KILL "$p" 2>/dev/null; done
}

# ap_stop, then removes AP_DIR unless LT_KEEP is set or a test failed.
ap_cleanup() {
	ap_stop
	[ -n "$AP_DIR" ] || return 0
	if [ -n "$LT_KEEP" ] || [ "$tap_failed" -gt 0 ]; then
		diag "kept $AP_DIR"
	else
		rm -rf "$AP_DIR"
	fi
	AP_DIR=
}

# lt_own_responders: the responders served from a folder of the test's
# own (LT_DIR/api-bin, named as the bundle names it), the test's user's
# alone, where a setup proof file may go (never the build's cgi-bin/);
# sets RESP and restarts the server on LT_DB. Call after lt_start.
lt_own_responders() {
	RESP=$LT_DIR/$LC_RESPONDER_DIR
	mkdir -p "$RESP" && cp "$top_builddir"/cgi-bin/*.fcgi "$RESP/" &&
	    chmod 755 "$RESP" || bail "cannot copy the responders to $RESP"
	# shellcheck disable=SC2034 # read by lc_render_lighttpd (tools/lib.sh)
	LC_CGI_BINDIR=$RESP
	lt_restart_on "$LT_DB"
}
