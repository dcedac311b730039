#!/usr/bin/env bash
# PostgreSQL's hard cases for lib/db_pg.c, on a throwaway cluster:
#   a) PgBouncer (Debian 12's 1.18, no max_prepared_statements) in
#      transaction mode, 3 server connections shared by every responder
#      process: each process fails at most one request (503 with
#      Retry-After) before it sends statements whole, a purchase retried
#      with its key is recorded once, and then every request succeeds;
#   b) a restart of the cluster under a running lighttpd: the first
#      request of every process after it succeeds (the connection is made
#      again for it);
#   c) a login the server refuses (wrong password over TCP, scram) is 500
#      CONFIGURATION_ERROR without Retry-After and the password appears
#      neither in the answer nor in the error log; the cluster stopped is
#      503 DATABASE_ERROR with Retry-After;
#   d) a mistyped PostgreSQL name or another scheme's URI is refused by
#      loyalty-admin and makes no SQLite file.
# Skipped as tests/pg_wrap.sh says, or without PgBouncer (Debian's
# pgbouncer package); with LC_REQUIRE_PG set (but to 0) a failure
# instead. TAP; LT_KEEP=1 keeps the temp folders.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
if [ "${LT_BACKEND:-}" != postgresql ]; then
	. "$top_srcdir/tests/pg_wrap.sh" pg_pooler.sh
fi
PGBOUNCER=$(command -v pgbouncer 2>/dev/null || echo /usr/sbin/pgbouncer)
if [ ! -x "$PGBOUNCER" ]; then
	if [ -n "${LC_REQUIRE_PG:-}" ] && [ "$LC_REQUIRE_PG" != 0 ]; then
		echo "1..1"
		echo "not ok 1 - PgBouncer is not installed (Debian's pgbouncer package; LC_REQUIRE_PG is set)"
		exit 1
	fi
	echo "1..0 # SKIP PgBouncer is not installed (Debian's pgbouncer package)"
	exit 0
fi
. "$top_srcdir/tests/lib.sh"

command -v jq >/dev/null || bail "jq is not installed (tools/check installs it)"
CLIENTS=8	# a) clients at once through the pooler
REQS=40		# ... requests each: lookup, purchase, history in turn
AFTER=100	# ... then this many more, none may fail
POOL=3		# PgBouncer's server connections per database and user
LT_PROCS=4
lt_start
W=$LT_DIR/work
mkdir -p "$W"
DIRECT=$LT_DB
PB_PID=
pb_stop() {
	[ -n "$PB_PID" ] || return 0
	kill -TERM "$PB_PID" 2>/dev/null
	wait "$PB_PID" 2>/dev/null
	PB_PID=
}
trap 'pb_stop; lt_stop; lt_backend_stop' EXIT

pg_ctl() { lt_pg_run "$LT_PG_BIN/pg_ctl" -D "$LT_PG_DIR/data" "$@" >>"$LT_PG_DIR/start.log" 2>&1; }
pg_start() { pg_ctl -l "$LT_PG_DIR/server.log" -o "-p $LT_PG_PORT" -w -t 60 "$@"; }
# The server connections to LT_DB's database but this one.
backends() {
	lt_pg_sql "$DIRECT" "SELECT count(*) FROM pg_stat_activity
	    WHERE datname = current_database() AND pid <> pg_backend_pid()"
}
pids_of() { local r; for r in "$@"; do lt_responder_pids "$r"; done | sort -n | tr '\n' ' '; }
login() {	# logs the demo's staff in, through whatever 503 a pooler gives
	local i
	for i in 1 2 3 4; do
		lt_login "$DEMO_STAFF_EMAIL" "$DEMO_STAFF_PASSWORD" && return 0
		[ "$LT_STATUS" = 503 ] || break
		echo "login 503" >>"$W/login503"
	done
	bail "login failed: $LT_STATUS $LT_BODY"
}
CARD=$DEMO_CASHBACK_CARD
BARCODE=$DEMO_CASHBACK_BARCODE
purchase_body() {	# KEY
	printf '{"card_instance_id":"%s","location_id":"%s","staff_user_id":"%s","purchase_amount":1.00,"idempotency_key":"%s"}' \
	    "$CARD" "$LOC" "$STAFF" "$1"
}
# req CLIENT NO OUT: request NO of a client, by NO: lookup, purchase (key
# KEYP-CLIENT-NO) or history; retried with the same body on 503 up to
# RETRIES times; appends "CLIENT NO ENDPOINT STATUS" per attempt to OUT.
RETRIES=3
KEYP=pb
req() {
	local c=$1 j=$2 out=$3 ep m path body s n f=$W/body.$BASHPID
	case $((j % 3)) in
	0) ep=lookup m=POST path=/api/v1/cards/lookup body="{\"barcode_value\":\"$BARCODE\"}" ;;
	1) ep=record m=POST path=/api/v1/transactions/record body=$(purchase_body "$KEYP-$c-$j") ;;
	*) ep=history m=GET path="/api/v1/transactions/history?card_instance_id=$CARD" body= ;;
	esac
	for n in $(seq 0 "$RETRIES"); do
		s=$(curl -s -o "$f" -w '%{http_code}' --max-time 60 -X "$m" \
		    -H "Authorization: Bearer $LT_RACE_TOKEN" \
		    -H 'Content-Type: application/json' \
		    ${body:+--data-binary "$body"} "$LT_URL$path") || s=000
		echo "$c $j $ep $s" >>"$out"
		[ "$s" = 200 ] || cp "$f" "$out.fail.$c.$j.$n" 2>/dev/null
		[ "$s" = 503 ] || break
	done
	rm -f "$f"
}
count_lines() { local n; n=$(grep -c -- "$1" "$2" 2>/dev/null); echo "${n:-0}"; }

login
LT_RACE_TOKEN=$LT_TOKEN STAFF=$LT_USER_ID LOC=$LT_LOCATION_ID

# --- b) a restart of the cluster under a running lighttpd -------------------
warm() { local j; for j in 1 2 3 4 5 6; do RETRIES=0 KEYP=warm req "$1" "$j" "$W/warm"; done; }
lt_race 8 "$W" warm
is "$(count_lines ' 200$' "$W/warm")" 48 "b) 8 clients x 6 requests on a direct connection: all 200"
PIDS_B=$(pids_of lookup record history)
# Responders connect at their first request: the processes holding a
# connection to the cluster, by ss(8)'s owners of the sockets to its port.
connected() {
	local p
	ss -Htnp state established "( dport = :$LT_PG_PORT )" 2>/dev/null |
	    grep -o 'pid=[0-9]*' | cut -d= -f2 | sort -un |
	    while read -r p; do
		case " $PIDS_B " in *" $p "*) echo "$p" ;; esac
	    done | tr '\n' ' '
}
BEFORE=$(connected)
ok "... $(echo "$BEFORE" | wc -w) of its $(echo "$PIDS_B" | wc -w) responder processes hold a connection" \
    test "$(echo "$BEFORE" | wc -w)" -ge 3
ok "pg_ctl restart -m fast while lighttpd runs" pg_start -m fast restart
is "$(connected)" "" "... which drops every connection"
after() { local j; for j in 3 4 5; do RETRIES=0 KEYP=after req "$1" "$j" "$W/after"; done; }
lt_race 8 "$W" after
is "$(count_lines ' 200$' "$W/after")" 24 \
    "... the first requests after it (8 clients x lookup, purchase, history at once) all 200"
[ "$(count_lines ' 200$' "$W/after")" = 24 ] || diag "$(grep -v ' 200$' "$W/after"; cat "$W"/after.fail.* 2>/dev/null)"
# A process connected again only for a request after the restart: those
# that held a connection before and hold one now served such a request.
again=0
for p in $(connected); do
	case " $BEFORE " in *" $p "*) again=$((again + 1)) ;; esac
done
ok "... served by $again processes that had a connection before it" test "$again" -ge 3
is "$(pids_of lookup record history)" "$PIDS_B" "... by the same processes (none died for it)"
is "$(lt_sql "SELECT count(*) FROM idempotency_keys WHERE key LIKE 'after-%'")" 8 \
    "... and the 8 purchases are recorded"

# --- c) the cluster stopped, then a login it refuses ------------------------
ok "pg_ctl stop -m fast" pg_ctl -m fast -w -t 30 stop
LT_TOKEN=$LT_RACE_TOKEN lt_req POST /api/v1/cards/lookup "{\"barcode_value\":\"$BARCODE\"}"
is "$LT_STATUS $(lt_jq .error.code)" "503 DATABASE_ERROR" "c) the cluster stopped: 503 DATABASE_ERROR"
like "$(lt_header Retry-After)" '^[1-9][0-9]*$' "... with Retry-After"
ok "pg_ctl start again" pg_start start
LT_TOKEN=$LT_RACE_TOKEN lt_req POST /api/v1/cards/lookup "{\"barcode_value\":\"$BARCODE\"}"
is "$LT_STATUS" 200 "... started again: the next lookup is 200"

SECRET=Wr0ng-pa55word-Zq7
lt_pg_sql "$DIRECT" "CREATE ROLE pw_user LOGIN PASSWORD 'R1ght-pa55word-Xk2'" >/dev/null ||
    bail "CREATE ROLE failed"
HBA=$LT_PG_DIR/data/pg_hba.conf
{ echo "host all pw_user 127.0.0.1/32 scram-sha-256"; cat "$HBA"; } >"$HBA.new" &&
    cat "$HBA.new" >"$HBA" && rm -f "$HBA.new" || bail "pg_hba.conf"
pg_ctl reload || bail "pg_ctl reload"
sleep 0.5
ok "... the cluster now asks pw_user for its password over TCP" \
    bash -c '! PGCONNECT_TIMEOUT=5 PGPASSWORD=x "$1" -X -w -c "SELECT 1" "$2" >/dev/null 2>&1' _ \
    "$( [ -x "$LT_PG_BIN/psql" ] && echo "$LT_PG_BIN/psql" || echo psql)" \
    "${DIRECT/loyalty@/pw_user@}"
lt_restart_on "${DIRECT/loyalty@/pw_user:$SECRET@}"
mark=$(wc -c <"$LC_ERRORLOG")
LT_TOKEN=$LT_RACE_TOKEN lt_req POST /api/v1/cards/lookup "{\"barcode_value\":\"$BARCODE\"}"
is "$LT_STATUS $(lt_jq .error.code)" "500 CONFIGURATION_ERROR" \
    "a wrong password: 500 CONFIGURATION_ERROR"
is "$(lt_header Retry-After)" "" "... without Retry-After"
ok "... the answer does not hold the password" bash -c '! grep -qF -- "$1" <<<"$2$3"' _ "$SECRET" "$LT_HEADERS" "$LT_BODY"
ok "... nor does lighttpd's error log" bash -c '! grep -qF -- "$1" "$2"' _ "$SECRET" "$LC_ERRORLOG"
like "$(tail -c +$((mark + 1)) "$LC_ERRORLOG")" 'password' "... which says what failed"

# --- a) PgBouncer in transaction mode ---------------------------------------
PB_DIR=$LT_PG_DIR/pgbouncer
mkdir -p "$PB_DIR" || bail "mkdir $PB_DIR"
# pb_start: PgBouncer on a free port (PB_PORT) of 127.0.0.1; 1 when it
# cannot listen there (another suite, or a client's local port, took it
# first: try another), 2 on another failure.
pb_start() {
	local ok=
	PB_PORT=$(lt_free_port) || return 2
	cat >"$PB_DIR/pgbouncer.ini" <<INI || return 2
[databases]
* = host=127.0.0.1 port=$LT_PG_PORT

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $PB_PORT
unix_socket_dir =
auth_type = trust
auth_file = $PB_DIR/userlist.txt
pool_mode = transaction
default_pool_size = $POOL
max_client_conn = 200
logfile = $PB_DIR/pgbouncer.log
pidfile =
INI
	echo '"loyalty" ""' >"$PB_DIR/userlist.txt" || return 2
	: >"$PB_DIR/pgbouncer.log"
	[ -z "$LT_PG_AS" ] || chown -R "$LT_PG_AS": "$PB_DIR" || return 2
	if [ -n "$LT_PG_AS" ]; then
		(cd "$PB_DIR" && exec runuser -u "$LT_PG_AS" -- "$PGBOUNCER" "$PB_DIR/pgbouncer.ini") \
		    >>"$PB_DIR/out.log" 2>&1 &
	else
		(cd "$PB_DIR" && exec "$PGBOUNCER" "$PB_DIR/pgbouncer.ini") >>"$PB_DIR/out.log" 2>&1 &
	fi
	PB_PID=$!
	for _ in $(seq 1 100); do
		(exec 3<>"/dev/tcp/127.0.0.1/$PB_PORT") 2>/dev/null && { ok=1; break; }
		kill -0 "$PB_PID" 2>/dev/null || break
		sleep 0.1
	done
	[ -n "$ok" ] && return 0
	pb_stop
	grep -q 'cannot listen\|nowhere to listen' "$PB_DIR/pgbouncer.log" && return 1
	return 2
}
for _ in 1 2 3 4 5; do
	rc=0
	pb_start || rc=$?
	[ $rc -eq 1 ] || break
done
PB_URI=postgresql://loyalty@127.0.0.1:$PB_PORT/${DIRECT##*/}
is "$(lt_pg_sql "$PB_URI" "SELECT 1")" 1 "a) PgBouncer $("$PGBOUNCER" --version | head -1 | awk '{ print $2 }') runs, in transaction mode, before the cluster" ||
    bail "PgBouncer did not start: $(tail -5 "$PB_DIR/out.log" "$PB_DIR/pgbouncer.log" 2>/dev/null)"
lt_restart_on "$PB_URI"
mark=$(wc -c <"$LC_ERRORLOG")
login
LT_RACE_TOKEN=$LT_TOKEN
load() { local j; for j in $(seq 1 "$REQS"); do req "$1" "$j" "$W/load"; done; }
PIDS_A=$(pids_of lookup record history login)
TX0=$(lt_sql "SELECT count(*) FROM transactions WHERE card_id = '$CARD'")
lt_race "$CLIENTS" "$W" load
procs=$(echo "$PIDS_A" | wc -w)
# A process takes its one 503 at its first request (its statements'
# names are prepared on every server connection by then): the warm-up
# is over when every process of the three has served one, that is holds
# a connection to PgBouncer. Bursts of 16 at once reach the idle ones.
unreached() {
	local p c
	c=" $(ss -Htnp state established "( dport = :$PB_PORT )" 2>/dev/null |
	    grep -o 'pid=[0-9]*' | cut -d= -f2 | sort -un | tr '\n' ' ') "
	for p in $(pids_of lookup record history); do
		case $c in *" $p "*) ;; *) echo "$p" ;; esac
	done
}
burst() { local k; for k in 0 1 2; do req "$1" $((500 + ROUND * 3 + k)) "$W/load"; done; }
# A loaded machine may need more bursts (lighttpd gives each to the least
# busy processes): a count of them, not a time, bounds the warm-up.
ROUND=0
while [ -n "$(unreached)" ] && [ $ROUND -lt 25 ]; do
	ROUND=$((ROUND + 1))
	lt_race 16 "$W" burst
done
is "$(unreached | wc -l)" 0 "... every lookup, purchase and history process served requests in the warm-up ($ROUND bursts of 16 more)"
# The last attempt of each request is its outcome.
awk '{ last[$1 " " $2] = $3 " " $4 } END { for (k in last) print k, last[k] }' "$W/load" >"$W/final"
n=$((CLIENTS * REQS + ROUND * 48))
is "$(wc -l <"$W/final") $(count_lines ' 200$' "$W/final")" "$n $n" \
    "$CLIENTS clients x $REQS requests through it (and the bursts), a 503 retried up to $RETRIES times: every one ends 200"
n503=$(( $(count_lines ' 503$' "$W/load") + $(count_lines 503 "$W/login503") ))
fails=$(( $(grep -cv ' \(200\|503\)$' "$W/load") + 0 ))
is "$fails" 0 "... no answer but 200 or 503"
[ "$fails" = 0 ] || diag "$(grep -v ' \(200\|503\)$' "$W/load" | head -5; cat "$W"/load.fail.* 2>/dev/null | head -5)"
ok "... at most one 503 per responder process ($n503 for $procs processes)" test "$n503" -le "$procs"
over=
for r in lookup record history; do
	a=$(awk -v r=$r '$3 == r && $4 == 503' "$W/load" | wc -l)
	p=$(lt_responder_pids $r | wc -l)
	[ "$a" -le "$p" ] || over="$over $r:$a>$p"
done
is "$over" "" "... and per responder too"
is "$(pids_of lookup record history login)" "$PIDS_A" "... by the same processes (none died for it)"
purchases=$(awk '$3 == "record"' "$W/final" | wc -l)
is "$(lt_sql "SELECT count(*) || ' ' || count(DISTINCT k.transaction_id) || ' ' ||
    count(DISTINCT k.key) FROM idempotency_keys k JOIN transactions t ON t.id = k.transaction_id
    WHERE k.key LIKE 'pb-%' AND t.card_id = '$CARD'")" "$purchases $purchases $purchases" \
    "... each of the $purchases purchases recorded exactly once"
is "$(lt_sql "SELECT count(*) - $TX0 FROM transactions WHERE card_id = '$CARD'")" "$purchases" \
    "... and the card has $purchases transactions more than before, none without its key"
# An earlier lt_sql's session may not have gone yet: a moment for it.
for _ in $(seq 1 30); do
	conns=$(backends)
	[ "$conns" -le "$POOL" ] && break
	sleep 0.1
done
ok "... over at most $POOL server connections ($conns) for $procs processes" \
    test "$conns" -le "$POOL" -a "$procs" -gt "$POOL"
later() { local j; for j in $(seq 1 $((AFTER / 4))); do RETRIES=0 req "$1" $((1000 + j)) "$W/later"; done; }
lt_race 4 "$W" later
is "$(count_lines ' 200$' "$W/later")" "$AFTER" "... then $AFTER more requests (4 clients at once): all 200, none retried"
# Once a process: as many as the 503s, never more than the processes.
logged=$(tail -c +$((mark + 1)) "$LC_ERRORLOG" |
    grep -c 'pooler in transaction mode?): statements are sent whole from now on')
ok "... the error log names the pooler and the fallback, once a process ($logged times)" \
    test "$logged" -ge 1 -a "$logged" -le "$procs" -a "$logged" -ge "$n503"

# --- d) a mistyped name -----------------------------------------------------
for name in 'postgre:host=x dbname=y' 'PostgreSQL://u@h/d' 'http://x/y'; do
	d=$(mktemp -d "$W/name.XXXXXX")
	rc=0
	out=$(cd "$d" && "$LT_ADMIN" --db "$name" init 2>&1) || rc=$?
	is "$rc $(ls -A "$d" | wc -l)" "1 0" "d) loyalty-admin --db '$name' init: exits 1 and makes no file"
	like "$out" 'not a database name' "... saying it is not a database name"
done

problems=$(lt_log_problems)
is "$problems" "" "no sanitizer report or crashed responder in the server's log"
done_testing
