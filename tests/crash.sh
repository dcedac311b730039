#!/usr/bin/env bash
# The crash test, through the real HTTP server: client processes record
# purchases (punch and cashback), redemptions, reward claims and small
# offline syncs, each with its own idempotency key, while a killer
# SIGKILLs random responder processes every 100 to 500 ms (lighttpd
# starts new ones). A request left without an answer (no connection, or
# a 5xx) is sent again with the same key, a few times. At the end the
# whole server (lighttpd and every responder) is SIGKILLed at once with
# requests in flight, started again on the same database, and every key
# that never got a 200 is sent once more. Then:
#
# - every key answered 200 is stored once, with the transaction_id that
#   was answered (by every answer of that key), and no other key is;
# - no key recorded twice: every transaction of the test's cards is named
#   by exactly one key (but the purchase a redemption with
#   earn_on_remainder adds beside its own);
# - cashback cards: balance = the ledger's remaining = earned - redeemed;
#   punch cards: pending rewards, punches and claims agree with their rows;
#   report figures and history counts agree with the transactions;
# - PRAGMA integrity_check is ok and foreign_key_check is empty.
#
# CRASH_SECONDS (default 24) is how long the clients and the killer run.
. "$top_srcdir/tests/lib.sh"
# shellcheck source=tests/seed.sh
. "$top_srcdir/tests/seed.sh" || bail "cannot read tests/seed.sh"

CLIENTS=6
TRIES=4			# attempts of a request while the killer runs
RESEND_TRIES=5		# attempts of a key after the restart
DURATION=${CRASH_SECONDS:-24}
PUNCH_REQ=4		# punches a reward on the test's punch program
NCARDS=3		# punch cards and cashback cards shared by the clients
LT_PROCS=3
export TZ=UTC

# The seed of tests/seed.sh (merchants M1, M2) and the cards of this
# test on programs of M1 without cooldown, listed in $LT_DIR/crash.cards.
crash_seed() {
	local adm=("$LT_ADMIN" --db "$LOYALTY_DB") pp cb i
	seed_build "$top_builddir" "$LOYALTY_DB" "$LT_DIR/seed.vars" || return 1
	# shellcheck disable=SC1091
	. "$LT_DIR/seed.vars"
	pp=$("${adm[@]}" program add --merchant "$M1" --type punch \
	    --title "Crash Punch" --punches $PUNCH_REQ --reward-title "Crash gift" \
	    --reward-amount 1.00 --cooldown 0 </dev/null) || return 1
	cb=$("${adm[@]}" program add --merchant "$M1" --type cashback \
	    --title "Crash Cashback" --tier Base:0:0.05 --tier Gold:500:0.10 \
	    </dev/null) || return 1
	{
		echo "punch_program $pp"
		echo "cash_program $cb"
		for i in $(seq 1 $NCARDS); do
			echo "punch $("${adm[@]}" card issue --program "$pp" \
			    --customer "Crash P$i" </dev/null | jq -r .card_instance_id)"
			echo "cash $("${adm[@]}" card issue --program "$cb" \
			    --customer "Crash C$i" </dev/null | jq -r .card_instance_id)"
		done
	} >"$LT_DIR/crash.cards"
}

lt_start crash_seed
# shellcheck disable=SC1091
. "$LT_DIR/seed.vars"
W=$LT_DIR/work
mkdir -p "$W"
PUNCH_PROG_ID=$(awk '$1 == "punch_program" { print $2 }' "$LT_DIR/crash.cards")
CASH_PROG_ID=$(awk '$1 == "cash_program" { print $2 }' "$LT_DIR/crash.cards")
mapfile -t PUNCH_CARDS < <(awk '$1 == "punch" { print $2 }' "$LT_DIR/crash.cards")
mapfile -t CASH_CARDS < <(awk '$1 == "cash" { print $2 }' "$LT_DIR/crash.cards")
[ ${#PUNCH_CARDS[@]} -eq $NCARDS ] && [ ${#CASH_CARDS[@]} -eq $NCARDS ] ||
    bail "the seed made no cards"

sql() { sqlite3 -cmd '.timeout 5000' "$LT_DB" "$@"; }
# The test's cards, for SQL.
CARDS_SQL="(SELECT id FROM cards WHERE program_id IN ('$PUNCH_PROG_ID', '$CASH_PROG_ID'))"

# Odd clients are the staff of L1; even ones the owner, acting at L2 for
# staff2. Tokens outlive the crash (they are in the database).
lt_login "$STAFF_EMAIL" "$STAFF_PASSWORD" || bail "staff login failed"
STAFF_TOKEN=$LT_TOKEN
lt_login "$OWNER_EMAIL" "$OWNER_PASSWORD" || bail "owner login failed"
OWNER_TOKEN=$LT_TOKEN
LT_TOKEN=

# Clients and the killer are stopped however the script ends; then the
# server (lt_stop).
BG_PIDS=()
# The processes of BG_PIDS still running: children of this shell (a pid
# the system gave to another process after ours ended is no child of it).
bg_alive() {
	local p kids
	kids=" $(pgrep -P $$ 2>/dev/null | tr '\n' ' ') "
	for p in "${BG_PIDS[@]}"; do
		[[ $kids == *" $p "* ]] && lc_alive "$p" && echo "$p"
	done
	return 0
}
cleanup() {
	local alive
	touch "$W/stop" "$W/stop-killer" 2>/dev/null
	if [ ${#BG_PIDS[@]} -gt 0 ]; then
		alive=$(bg_alive)
		# shellcheck disable=SC2086
		[ -n "$alive" ] && kill $alive 2>/dev/null
		wait "${BG_PIDS[@]}" 2>/dev/null
	fi
	lt_stop
}
trap cleanup EXIT

# money VAR CENTS: VAR = the amount in major units (12.50).
money() { printf -v "$1" '%d.%02d' $(($2 / 100)) $(($2 % 100)); }

# --- the requests --------------------------------------------------------
#
# Every key is logged when it is made, in $W/req.N:
#   KEY KIND ROLE GROUP EARN BODY
# (KIND punch, cashback, redeem, claim or sync; GROUP the batch of a sync
# item, else -; EARN 1 for a redemption with earn_on_remainder; BODY the
# request's JSON, or the item's for sync), and every answer it gets, in
# $W/ans.N:
#   KEY KIND PHASE HTTP RESULT TXN CODE IDEMPOTENT
# (RESULT ok: answered 200, or a sync item that succeeded; fail: a final
# refusal (4xx, or a sync item's final error); lost: no answer, a 5xx, or
# a sync item's DATABASE_ERROR or INTERNAL_ERROR, sent again; bad: a 200
# without a transaction_id). $W/http.N has one line per HTTP request:
#   KEY KIND PHASE HTTP SECONDS
# (KEY the batch's for a sync).

# post TOKEN PATH BODY BODYFILE: sets s, the HTTP status (000 for none
# or a broken answer), and t, the seconds it took.
post() {
	local r
	r=$(curl -s -o "$4" -w '%{http_code} %{time_total}' --max-time 10 \
	    -H 'Expect:' -H "Authorization: Bearer $1" \
	    -H 'Content-Type: application/json' --data-binary "$3" \
	    "$LT_URL$2" 2>/dev/null) || r="000 ${r#* }"
	s=${r%% *} t=${r#* }
	# An answer none of these requests should get is kept for a look.
	case $s in
	000 | 200 | 207 | 409 | 422 | 5??) ;;
	*) cp "$4" "$W/odd.$s.$BASHPID.${EPOCHREALTIME/./}" 2>/dev/null ;;
	esac
}

# The answers are read with bash's own regular expressions, not jq: a
# client starts no process but curl per request, so the load is the
# server's. json-c writes compact JSON; the first "transaction_id" of an
# answer is its own (a redemption's earned purchase comes after).
RE_TXN='[{,]"transaction_id":"([^"]*)"'
RE_IDEM='"idempotent":(true|false)'
RE_CODE='"error":\{"code":"([A-Z_]+)"'
RE_ITEM='\{"idempotency_key":"([^"]*)","result":\{([^}]*)\}'
RE_ITEM_ERR='"error":"([A-Z_]+)"'

# one TOKEN KEY KIND PATH BODY PHASE TRIES LOG: sends one request until it
# is answered or TRIES attempts were made; appends its answers to LOG.
one() {
	local tok=$1 key=$2 kind=$3 path=$4 body=$5 phase=$6 tries=$7 log=$8
	local bf=$W/body.$BASHPID s t a=0 res txn code idem out
	while :; do
		a=$((a + 1))
		post "$tok" "$path" "$body" "$bf"
		echo "$key $kind $phase $s ${t:-0}" >>"${log%/*}/http.${log##*.}"
		out=
		[ -f "$bf" ] && read -r -d '' out <"$bf"
		txn=- code=- idem=-
		[[ $out =~ $RE_CODE ]] && code=${BASH_REMATCH[1]}
		if [ "$s" = 200 ]; then
			res=bad
			[[ $out =~ $RE_TXN ]] && txn=${BASH_REMATCH[1]} res=ok
			[[ $out =~ $RE_IDEM ]] && idem=${BASH_REMATCH[1]}
		elif [ "$s" = 000 ] || [ "$s" -ge 500 ]; then
			res=lost
		else
			res=fail
		fi
		echo "$key $kind $phase $s $res ${txn:--} $code $idem" >>"$log"
		[ "$res" = lost ] && [ $a -lt "$tries" ] || break
		sleep "0.$((a + RANDOM % 3))"
	done
	rm -f "$bf"
}

# batch TOKEN GROUP PHASE TRIES LOG ITEM_KEY=ITEM_JSON...: a sync of the
# items; the items answered lost are sent again, in a batch of their own,
# until TRIES attempts.
batch() {
	local tok=$1 grp=$2 phase=$3 tries=$4 log=$5 bf=$W/body.$BASHPID
	local a=0 s t kv key res txn code idem items left out r
	shift 5
	local -A pending=()
	for kv in "$@"; do pending[${kv%%=*}]=${kv#*=}; done
	while [ ${#pending[@]} -gt 0 ]; do
		a=$((a + 1))
		items=
		for key in "${!pending[@]}"; do items="$items,${pending[$key]}"; done
		post "$tok" /api/v1/transactions/sync "{\"transactions\":[${items#,}]}" "$bf"
		echo "$grp sync $phase $s ${t:-0}" >>"${log%/*}/http.${log##*.}"
		left=()
		out=
		[ -f "$bf" ] && read -r -d '' out <"$bf"
		if [ "$s" = 200 ] || [ "$s" = 207 ]; then
			while [[ $out =~ $RE_ITEM ]]; do
				key=${BASH_REMATCH[1]} r=${BASH_REMATCH[2]}
				out=${out#*"${BASH_REMATCH[0]}"}
				[ -n "${pending[$key]+x}" ] || continue
				txn=- code=- idem=-
				[[ $r =~ $RE_TXN ]] && txn=${BASH_REMATCH[1]}
				[[ $r =~ $RE_IDEM ]] && idem=${BASH_REMATCH[1]}
				[[ $r =~ $RE_ITEM_ERR ]] && code=${BASH_REMATCH[1]}
				case $r:$code in
				'"success":true'*) res=ok; [ "$txn" != - ] || res=bad ;;
				*:DATABASE_ERROR | *:INTERNAL_ERROR) res=lost ;;
				*) res=fail ;;
				esac
				echo "$key sync $phase $s $res $txn $code $idem" >>"$log"
				[ "$res" = lost ] && left+=("$key")
				unset "pending[$key]"
			done
			# An item the answer did not name is lost too.
			for key in "${!pending[@]}"; do
				echo "$key sync $phase $s lost - - -" >>"$log"
				left+=("$key")
			done
		else
			for key in "${!pending[@]}"; do
				echo "$key sync $phase $s lost - - -" >>"$log"
				left+=("$key")
			done
		fi
		[ ${#left[@]} -gt 0 ] && [ $a -lt "$tries" ] || break
		local -A again=()
		for key in "${left[@]}"; do again[$key]=${json_of[$key]}; done
		pending=()
		for key in "${!again[@]}"; do pending[$key]=${again[$key]}; done
		unset again
		sleep "0.$((a + RANDOM % 3))"
	done
	rm -f "$bf"
}

# purchase_json CARD LOC STAFF AMOUNT_CENTS PUNCHES KEY [CLIENT_TS]: sets
# body (no subshell: the clients fork nothing but curl).
purchase_json() {
	local m
	money m "$4"
	printf -v body '{"card_instance_id":"%s","location_id":"%s","staff_user_id":"%s","purchase_amount":%s,"punch_count":%d,"idempotency_key":"%s"%s}' \
	    "$1" "$2" "$3" "$m" "$5" "$6" "${7:+,\"client_timestamp\":\"$7\"}"
}

# client N: sends requests until $W/stop exists.
client() {
	local n=$1 seq=0 tok loc staff role key kind body r j nitems ts card m
	local EARN=(false true)
	local req=$W/req.$n ans=$W/ans.$n
	local -A json_of=()
	if [ $((n % 2)) -eq 1 ]; then
		tok=$STAFF_TOKEN loc=$L1 staff=$STAFF_ID role=staff
	else
		tok=$OWNER_TOKEN loc=$L2 staff=$STAFF2_ID role=owner
	fi
	RANDOM=$((n * 7919 + BASHPID))
	# Until told to stop, a little after the server's crash (20 s more
	# at most, whatever happens).
	while [ ! -e "$W/stop" ] && [ $SECONDS -lt $((END + 20)) ]; do
		seq=$((seq + 1))
		key=crash-$n-$seq
		r=$((RANDOM % 20))
		if [ $r -lt 5 ]; then
			kind=punch
			purchase_json "${PUNCH_CARDS[RANDOM % NCARDS]}" "$loc" \
			    "$staff" $((100 + RANDOM % 900)) $((1 + RANDOM % 3)) "$key"
		elif [ $r -lt 10 ]; then
			kind=cashback
			purchase_json "${CASH_CARDS[RANDOM % NCARDS]}" "$loc" \
			    "$staff" $((100 + RANDOM % 5000)) 1 "$key"
		elif [ $r -lt 13 ]; then
			kind=redeem
			j=$((RANDOM % 2))
			# Small, but one in six more than a balance holds for a
			# while (422 INSUFFICIENT_BALANCE, never recorded).
			if [ $((RANDOM % 6)) -eq 0 ]; then
				money m $((10000 + RANDOM % 20000))
			else
				money m $((5 + RANDOM % 96))
			fi
			printf -v body '{"card_instance_id":"%s","location_id":"%s","staff_user_id":"%s","redemption_amount":%s,"purchase_amount":400.00,"earn_on_remainder":%s,"idempotency_key":"%s"}' \
			    "${CASH_CARDS[RANDOM % NCARDS]}" "$loc" "$staff" "$m" \
			    "${EARN[j]}" "$key"
		elif [ $r -lt 16 ]; then
			kind=claim
			printf -v body '{"card_instance_id":"%s","location_id":"%s","staff_user_id":"%s","idempotency_key":"%s"}' \
			    "${PUNCH_CARDS[RANDOM % NCARDS]}" "$loc" "$staff" "$key"
		else
			kind=sync
		fi
		if [ $kind != sync ]; then
			echo "$key $kind $role - ${j:-0} $body" >>"$req"
			j=
			case $kind in
			punch | cashback) one "$tok" "$key" $kind /api/v1/transactions/record "$body" load $TRIES "$ans" ;;
			redeem) one "$tok" "$key" $kind /api/v1/cashback/redeem "$body" load $TRIES "$ans" ;;
			claim) one "$tok" "$key" $kind /api/v1/rewards/claim "$body" load $TRIES "$ans" ;;
			esac
			continue
		fi
		# An offline batch of 2 to 5 purchases captured in the last
		# minutes.
		nitems=$((2 + RANDOM % 4))
		local items=()
		json_of=()
		for ((j = 1; j <= nitems; j++)); do
			printf -v ts '%(%Y-%m-%dT%H:%M:%S)T.000Z' $((EPOCHSECONDS - 5 - RANDOM % 600))
			if [ $((RANDOM % 2)) -eq 0 ]; then
				card=${PUNCH_CARDS[RANDOM % NCARDS]}
				purchase_json "$card" "$loc" "$staff" \
				    $((100 + RANDOM % 900)) $((1 + RANDOM % 2)) "$key.$j" "$ts"
			else
				card=${CASH_CARDS[RANDOM % NCARDS]}
				purchase_json "$card" "$loc" "$staff" \
				    $((100 + RANDOM % 5000)) 1 "$key.$j" "$ts"
			fi
			echo "$key.$j sync $role $key 0 $body" >>"$req"
			json_of[$key.$j]=$body
			items+=("$key.$j=$body")
		done
		j=
		batch "$tok" "$key" load $TRIES "$ans" "${items[@]}"
	done
}

# killer: SIGKILLs a random responder of the endpoints under load every
# 100 to 500 ms until the end of the run; one line per kill in $W/kills:
#   TIME PID NAME busy|idle
# The responders are lighttpd's children whose /proc/PID/exe is one of
# the build's cgi-bin/*.fcgi (compared with test -ef: nothing forked). Two
# kills in three go to a responder busy with a request, when there is one
# (/proc/PID/syscall: not waiting in accept(2), 43 on x86-64; unreadable
# without the right to trace it, then every one counts as idle), so many
# kills land mid-request, some of them between a commit and its answer.
KILL_NAMES=(record sync claim redeem)
killer() {
	local p pids busy name pick sc state
	RANDOM=$BASHPID
	while [ ! -e "$W/stop-killer" ] && [ $SECONDS -lt "$END" ]; do
		sleep "0.$((1 + RANDOM % 5))"
		pids=() busy=()
		for p in $(lc_server_children); do
			for name in "${KILL_NAMES[@]}"; do
				[ "/proc/$p/exe" -ef "$top_builddir/cgi-bin/$name.fcgi" ] || continue
				pids+=("$p:$name")
				sc=43
				read -r sc _ <"/proc/$p/syscall" 2>/dev/null
				[ "$sc" = 43 ] || busy+=("$p:$name")
				break
			done
		done
		[ ${#pids[@]} -gt 0 ] || continue
		if [ ${#busy[@]} -gt 0 ] && [ $((RANDOM % 3)) -lt 2 ]; then
			pick=${busy[RANDOM % ${#busy[@]}]} state=busy
		else
			pick=${pids[RANDOM % ${#pids[@]}]} state=idle
			[[ " ${busy[*]} " == *" $pick "* ]] && state=busy
		fi
		p=${pick%%:*} name=${pick#*:}
		# Still that responder, not a new process with its pid.
		[ "/proc/$p/exe" -ef "$top_builddir/cgi-bin/$name.fcgi" ] &&
		    kill -KILL "$p" 2>/dev/null &&
		    echo "$EPOCHREALTIME $p $name $state" >>"$W/kills"
	done
}

# crash_server: SIGKILL to lighttpd and every responder at once (lighttpd
# stopped first, so it starts no new one in between).
crash_server() {
	local pid=$LC_LIGHTTPD_PID kids p i alive
	kill -STOP "$pid" 2>/dev/null
	kids=$(pgrep -P "$pid" 2>/dev/null)
	# shellcheck disable=SC2086
	kill -KILL "$pid" $kids 2>/dev/null
	wait "$pid" 2>/dev/null
	LC_LIGHTTPD_PID=
	CRASHED_PROCS=$(echo "$kids" | grep -c .)
	for i in $(seq 1 50); do
		alive=
		for p in $kids; do lc_alive "$p" && alive=1; done
		[ -z "$alive" ] && return 0
		sleep 0.1
	done
	return 1
}

# restart_server: lighttpd again on the same database, rendered by
# tools/lib.sh exactly as lt_start does (which always makes a new
# database); the same port if it can be had.
restart_server() {
	local tries rc=1
	for tries in 1 2 3 4 5; do
		rc=0
		lc_server_start 2>>"$LT_DIR/start.log" || rc=$?
		[ $rc -eq 0 ] && break
		[ $rc -eq 1 ] || break
		LC_PORT=$(lt_free_port) || break
	done
	[ $rc -eq 0 ] || return 1
	LT_URL=http://127.0.0.1:$LC_PORT
}

# --- the crash phase -------------------------------------------------------
rm -f "$W/stop" "$W/stop-killer"
START=$SECONDS
END=$((START + DURATION))
for i in $(seq 1 $CLIENTS); do
	client "$i" &
	BG_PIDS+=($!)
done
CLIENT_PIDS=("${BG_PIDS[@]}")
killer &
KILLER_PID=$!
BG_PIDS+=("$KILLER_PID")
while [ $SECONDS -lt $END ]; do sleep 0.2; done
touch "$W/stop-killer"
wait "$KILLER_PID"
BG_PIDS=("${CLIENT_PIDS[@]}")
# The power cut: the whole server, while the clients keep sending.
ok "the whole server (lighttpd and its responders) is SIGKILLed at the end, requests in flight" \
    crash_server
diag "SIGKILLed lighttpd and $CRASHED_PROCS responders at once"
# The clients meet a dead server for a second, then stop; their last
# retries fail at once (nothing listens). Wait for them, 20 s at most.
sleep 1
touch "$W/stop"
for i in $(seq 1 200); do
	alive=$(bg_alive)
	[ -z "$alive" ] && break
	sleep 0.1
done
is "$alive" "" "the killer, then the clients end by themselves"
# shellcheck disable=SC2086
[ -n "$alive" ] && kill $alive 2>/dev/null
wait "${BG_PIDS[@]}" 2>/dev/null
BG_PIDS=()

ok "lighttpd starts again on the same database" restart_server ||
    bail "no server after the crash: $(tail -5 "$LC_ERRORLOG")"

# --- every key never answered 200, sent again ---------------------------------
cat "$W"/req.[0-9]* >"$W/req.all"
cat "$W"/ans.[0-9]* >"$W/ans.load"
awk '$5 == "ok" { print $1 }' "$W/ans.load" | sort -u >"$W/ok.load"
resend() {
	local key kind role grp _earn body tok btok='' prev_grp='' items=()
	local -A json_of=()
	flush() {
		[ ${#items[@]} -gt 0 ] || return 0
		batch "$btok" "$prev_grp" resend $RESEND_TRIES "$W/ans.resend" "${items[@]}"
		items=()
		json_of=()
	}
	while read -r key kind role grp _earn body; do
		if [ "$role" = staff ]; then tok=$STAFF_TOKEN; else tok=$OWNER_TOKEN; fi
		if [ "$kind" = sync ]; then
			[ "$grp" = "$prev_grp" ] || flush
			prev_grp=$grp btok=$tok
			json_of[$key]=$body
			items+=("$key=$body")
			continue
		fi
		flush
		prev_grp=
		case $kind in
		punch | cashback) one "$tok" "$key" "$kind" /api/v1/transactions/record "$body" resend $RESEND_TRIES "$W/ans.resend" ;;
		redeem) one "$tok" "$key" "$kind" /api/v1/cashback/redeem "$body" resend $RESEND_TRIES "$W/ans.resend" ;;
		claim) one "$tok" "$key" "$kind" /api/v1/rewards/claim "$body" resend $RESEND_TRIES "$W/ans.resend" ;;
		esac
	done < <(awk 'NR == FNR { ok[$1] = 1; next } !($1 in ok)' "$W/ok.load" "$W/req.all")
	flush
}
: >"$W/ans.resend"
resend
cat "$W/ans.load" "$W/ans.resend" >"$W/ans.all"
cat "$W"/http.* >"$W/http.all" 2>/dev/null

# --- the figures -------------------------------------------------------------
# The logs into a database of their own, beside the service's.
L=$W/log.db
{
	echo "CREATE TABLE req(key TEXT PRIMARY KEY, kind, role, grp, earn INTEGER, body);"
	echo "CREATE TABLE ans(key, kind, phase, http, result, txn, code, idem);"
	echo "CREATE TABLE http(key, kind, phase, http, secs REAL);"
	echo "CREATE TABLE kills(at, pid, name, state);"
	echo ".mode tabs"
	echo ".import $W/req.tsv req"
	echo ".import $W/ans.tsv ans"
	echo ".import $W/http.tsv http"
	echo ".import $W/kills.tsv kills"
	echo "CREATE INDEX ans_key ON ans(key);"
} >"$W/load.sql"
awk '{ k = $1; t = $2; r = $3; g = $4; e = $5; $1 = $2 = $3 = $4 = $5 = "";
    sub(/^ +/, ""); print k "\t" t "\t" r "\t" g "\t" e "\t" $0 }' "$W/req.all" >"$W/req.tsv"
tr ' ' '\t' <"$W/ans.all" >"$W/ans.tsv"
tr ' ' '\t' <"$W/http.all" >"$W/http.tsv"
touch "$W/kills"
tr ' ' '\t' <"$W/kills" >"$W/kills.tsv"
sqlite3 "$L" <"$W/load.sql" || bail "cannot load the logs"
q() { sqlite3 -cmd '.timeout 5000' -cmd "ATTACH '$LT_DB' AS s" "$L" "$@"; }

requests=$(q "SELECT count(*) FROM http")
keys=$(q "SELECT count(*) FROM req")
kills=$(q "SELECT count(*) FROM kills")
lost=$(q "SELECT count(*) FROM http WHERE http = '000' OR http >= '500'")
answered=$(q "SELECT count(DISTINCT key) FROM ans WHERE result = 'ok'")
retried=$(q "SELECT count(DISTINCT key) FROM ans WHERE result = 'lost'")
replayed=$(q "SELECT count(*) FROM (SELECT key, min(rowid) r FROM ans WHERE result = 'ok' GROUP BY key) f JOIN ans a ON a.rowid = f.r WHERE a.idem = 'true'")
resent=$(q "SELECT count(DISTINCT key) FROM ans WHERE phase = 'resend'")
diag "$DURATION s, $CLIENTS clients: $requests requests for $keys keys ($(q "SELECT group_concat(n, ', ') FROM (SELECT count(*) || ' ' || kind AS n FROM req GROUP BY kind)")); $kills responders SIGKILLed ($(q "SELECT group_concat(n, ', ') FROM (SELECT count(*) || ' ' || name AS n FROM kills GROUP BY name)"); $(q "SELECT count(*) FROM kills WHERE state = 'busy'") busy with a request)"
diag "requests without an answer or with a 5xx: $lost ($(q "SELECT group_concat(n, ', ') FROM (SELECT count(*) || ' x ' || http AS n FROM http WHERE http = '000' OR http >= '500' GROUP BY http)"))"
diag "keys answered 200: $answered; retried: $retried; first 200 a replay of a commit whose answer was lost: $replayed; sent again after the restart: $resent"
diag "request times: median $(q "SELECT printf('%.3f', secs) FROM http WHERE http <> '000' ORDER BY secs LIMIT 1 OFFSET (SELECT count(*) / 2 FROM http WHERE http <> '000')") s, max $(q "SELECT printf('%.3f', max(secs)) FROM http") s"
diag "final refusals: $(q "SELECT coalesce(group_concat(n, ', '), 'none') FROM (SELECT count(*) || ' ' || code AS n FROM ans a WHERE rowid = (SELECT max(rowid) FROM ans b WHERE b.key = a.key) AND result = 'fail' GROUP BY code)")"

ok "the killer SIGKILLed responders during the run ($kills)" test "$kills" -ge 10
ok "requests went unanswered or got a 5xx, and were sent again ($lost)" test "$lost" -gt 0
odd=$(q "SELECT group_concat(n, ', ') FROM (SELECT count(*) || ' x ' || http AS n FROM http WHERE http NOT IN ('000', '200', '207', '409', '422') AND http NOT GLOB '5??' GROUP BY http)")
is "$odd" "" "every answer is 200, 207, a refusal these requests can get (409 NO_PENDING_REWARDS, 422 INSUFFICIENT_BALANCE), a 5xx or none" ||
    for f in "$W"/odd.*; do [ -f "$f" ] && diag "$(basename "$f"): $(head -c 300 "$f")"; done
is "$(q "SELECT count(*) FROM req WHERE key NOT IN (SELECT key FROM ans)")" 0 \
    "every key was sent"
is "$(q "SELECT count(*) FROM ans WHERE result = 'bad'")" 0 \
    "no 200 came without a transaction_id"
is "$(q "SELECT count(*) FROM ans a WHERE rowid = (SELECT max(rowid) FROM ans b WHERE b.key = a.key) AND result = 'lost'")" 0 \
    "after the restart every key has its answer (200, or a final refusal)"
is "$(q "SELECT group_concat(key, ' ') FROM (SELECT key FROM ans WHERE result = 'ok' GROUP BY key HAVING count(DISTINCT txn) > 1)")" "" \
    "every answer of a key names the same transaction (retries and replays agree)"
is "$(q "SELECT count(*) FROM (SELECT DISTINCT key, txn FROM ans WHERE result = 'ok') a LEFT JOIN s.idempotency_keys k ON k.merchant_id = '$M1' AND k.key = a.key AND k.transaction_id = a.txn WHERE k.key IS NULL")" 0 \
    "every key answered 200 ($answered) is stored with the answered transaction_id"
is "$(q "SELECT count(*) FROM s.idempotency_keys WHERE merchant_id = '$M1' AND key GLOB 'crash-*' AND key NOT IN (SELECT key FROM ans WHERE result = 'ok')")" 0 \
    "no key is stored that was never answered 200"
is "$(q "SELECT count(*) FROM s.idempotency_keys WHERE key GLOB 'crash-*'")" "$answered" \
    "... so the keys stored are exactly the $answered keys answered 200, each once"
is "$(q "SELECT count(*) FROM s.idempotency_keys k LEFT JOIN s.transactions t ON t.id = k.transaction_id WHERE k.key GLOB 'crash-*' AND (t.id IS NULL OR t.card_id NOT IN $CARDS_SQL)")" 0 \
    "every stored key names a transaction of the test's cards"
is "$(q "SELECT count(*) FROM (SELECT transaction_id FROM s.idempotency_keys WHERE key GLOB 'crash-*' GROUP BY transaction_id HAVING count(*) > 1)")" 0 \
    "no two keys name the same transaction"
retried_stored=$(q "SELECT count(*) FROM (SELECT DISTINCT key FROM ans WHERE result = 'lost') r JOIN s.idempotency_keys k ON k.merchant_id = '$M1' AND k.key = r.key")
is "$(q "SELECT count(*) FROM (SELECT DISTINCT key FROM ans WHERE result = 'lost') r JOIN s.idempotency_keys k ON k.merchant_id = '$M1' AND k.key = r.key JOIN s.transactions t ON t.id = k.transaction_id")" \
    "$retried_stored" "the $retried keys sent again after no answer or a 5xx: the $retried_stored stored name one transaction each"
earns=$(q "SELECT count(*) FROM req r JOIN s.idempotency_keys k ON k.merchant_id = '$M1' AND k.key = r.key WHERE r.earn = 1")
is "$(q "SELECT count(*) FROM s.transactions WHERE card_id IN $CARDS_SQL")" $((answered + earns)) \
    "the test's cards hold exactly one transaction per stored key, plus the $earns earn-on-remainder purchases: nothing recorded twice"
is "$(q "SELECT count(*) FROM s.transactions t WHERE t.card_id IN $CARDS_SQL AND t.id NOT IN (SELECT transaction_id FROM s.idempotency_keys WHERE merchant_id = '$M1') AND NOT (t.type = 'cashback' AND EXISTS (SELECT 1 FROM s.transactions r JOIN s.idempotency_keys k ON k.transaction_id = r.id JOIN req ON req.key = k.key AND req.earn = 1 WHERE r.card_id = t.card_id AND r.type = 'cashback_redeem' AND r.created_at = t.created_at))")" 0 \
    "... every transaction without a key is the purchase of a stored earn-on-remainder redemption"
is "$(q "SELECT count(*) FROM req JOIN s.idempotency_keys k ON k.key = req.key JOIN s.transactions t ON t.id = k.transaction_id WHERE (req.kind IN ('punch', 'cashback', 'claim', 'redeem') AND t.type <> CASE req.kind WHEN 'claim' THEN 'reward_claim' WHEN 'redeem' THEN 'cashback_redeem' ELSE req.kind END) OR json_extract(req.body, '\$.card_instance_id') <> t.card_id OR json_extract(req.body, '\$.location_id') <> t.location_id OR json_extract(req.body, '\$.staff_user_id') <> t.staff_user_id")" 0 \
    "each stored transaction is the request of its key (type, card, location, staff)"
is "$(q "SELECT count(*) FROM req JOIN s.idempotency_keys k ON k.key = req.key JOIN s.transactions t ON t.id = k.transaction_id WHERE req.kind IN ('punch', 'cashback', 'sync') AND (t.purchase_amount <> CAST(round(json_extract(req.body, '\$.purchase_amount') * 100) AS INTEGER) OR (t.type = 'punch' AND t.punches_added <> json_extract(req.body, '\$.punch_count')))")" 0 \
    "... and holds its amount and punches"

# --- the cards ---------------------------------------------------------------
cash_bad=$(sql "SELECT c.id || ': balance ' || c.cashback_balance || ', ledger ' || coalesce(e.rem, 0) || ', earned-redeemed ' || (coalesce(t.earned, 0) - coalesce(t.redeemed, 0)) || ', lifetime ' || c.lifetime_cashback || '/' || coalesce(t.earned, 0) || ', spend ' || c.lifetime_spend || '/' || coalesce(t.spend, 0)
    FROM cards c
    LEFT JOIN (SELECT card_id, sum(remaining) rem FROM cashback_earnings GROUP BY card_id) e ON e.card_id = c.id
    LEFT JOIN (SELECT card_id, sum(coalesce(cashback_earned, 0)) earned, sum(coalesce(redeemed_amount, 0)) redeemed,
        sum(CASE WHEN type = 'cashback' THEN purchase_amount ELSE 0 END) spend FROM transactions GROUP BY card_id) t ON t.card_id = c.id
    WHERE c.program_id = '$CASH_PROG_ID' AND (c.cashback_balance <> coalesce(e.rem, 0)
        OR c.cashback_balance <> coalesce(t.earned, 0) - coalesce(t.redeemed, 0)
        OR c.lifetime_cashback <> coalesce(t.earned, 0) OR c.lifetime_spend <> coalesce(t.spend, 0))")
is "$cash_bad" "" "cashback cards: balance = sum of the ledger's remaining = earned - redeemed; lifetime cashback and spend = their transactions"
diag "cashback balances: $(sql "SELECT group_concat(printf('%.2f', cashback_balance / 100.0), ' ') FROM cards WHERE program_id = '$CASH_PROG_ID'")"
is "$(sql "SELECT count(*) FROM transactions t WHERE t.card_id IN $CARDS_SQL AND t.type = 'cashback_redeem' AND t.redeemed_amount <> (SELECT coalesce(sum(amount_used), 0) FROM redemption_entries WHERE redeem_transaction_id = t.id)")
$(sql "SELECT count(*) FROM cashback_earnings e WHERE e.card_id IN $CARDS_SQL AND e.amount - e.remaining <> (SELECT coalesce(sum(amount_used), 0) FROM redemption_entries WHERE earning_transaction_id = e.transaction_id)")
$(sql "SELECT count(*) FROM cashback_earnings e JOIN transactions t ON t.id = e.transaction_id WHERE e.card_id IN $CARDS_SQL AND (e.amount <> t.cashback_earned OR e.card_id <> t.card_id)")" "0
0
0" "the ledger: each redemption's entries add up to it, each earning's use to what it lost, each earning to its purchase"
punch_bad=$(sql "SELECT c.id || ': pending ' || c.pending_rewards || '/' || coalesce(r.pending, 0) || ', lifetime ' || c.lifetime_punches || '/' || coalesce(t.punches, 0) || ', current ' || c.current_punches || ', rewards ' || coalesce(r.total, 0) || ', claims ' || coalesce(t.claims, 0) || '/' || coalesce(r.claimed, 0)
    FROM cards c
    LEFT JOIN (SELECT card_id, sum(status = 'pending_claim') pending, sum(status = 'claimed') claimed, count(*) total FROM rewards GROUP BY card_id) r ON r.card_id = c.id
    LEFT JOIN (SELECT card_id, sum(coalesce(punches_added, 0)) punches, sum(type = 'reward_claim') claims FROM transactions GROUP BY card_id) t ON t.card_id = c.id
    WHERE c.program_id = '$PUNCH_PROG_ID' AND (c.pending_rewards <> coalesce(r.pending, 0)
        OR c.lifetime_punches <> coalesce(t.punches, 0)
        OR c.current_punches <> c.lifetime_punches % $PUNCH_REQ
        OR coalesce(r.total, 0) <> c.lifetime_punches / $PUNCH_REQ
        OR coalesce(t.claims, 0) <> coalesce(r.claimed, 0))")
is "$punch_bad" "" "punch cards: pending_rewards = pending rows; lifetime = punches recorded; current and rewards earned = lifetime split by $PUNCH_REQ; claims = claimed rows"
diag "punch cards (current/pending/lifetime): $(sql "SELECT group_concat(current_punches || '/' || pending_rewards || '/' || lifetime_punches, ' ') FROM cards WHERE program_id = '$PUNCH_PROG_ID'")"
is "$(sql "SELECT count(*) FROM transactions t WHERE t.card_id IN $CARDS_SQL AND t.type = 'reward_claim' AND NOT EXISTS (SELECT 1 FROM rewards r WHERE r.id = t.reward_id AND r.card_id = t.card_id AND r.status = 'claimed' AND r.claim_transaction_id = t.id)")
$(sql "SELECT count(*) FROM rewards r WHERE r.card_id IN $CARDS_SQL AND ((r.status = 'claimed') <> EXISTS (SELECT 1 FROM transactions t WHERE t.id = r.claim_transaction_id AND t.type = 'reward_claim')
    OR NOT EXISTS (SELECT 1 FROM transactions t WHERE t.id = r.earned_transaction_id AND t.type = 'punch'))")" "0
0" "each claim took its own reward, each claimed reward has its claim, each reward its punch"
is "$(sql "SELECT count(*) FROM (SELECT card_id, type, count(*) n FROM transactions WHERE card_id IN $CARDS_SQL GROUP BY card_id, type) t LEFT JOIN txn_counts c USING (card_id, type) WHERE c.n IS NOT t.n")" 0 \
    "the history's per-card counts agree with the transactions"
is "$(sql "SELECT (SELECT sum(type IN ('punch', 'cashback', 'discount')) || ' ' || sum(CASE WHEN type IN ('punch', 'cashback', 'discount') THEN purchase_amount ELSE 0 END) || ' ' || sum(coalesce(punches_added, 0)) || ' ' || sum(type = 'reward_claim') || ' ' || sum(coalesce(cashback_earned, 0)) || ' ' || sum(coalesce(redeemed_amount, 0)) FROM transactions WHERE merchant_id = '$M1') || ' ' || (SELECT count(*) FROM rewards r JOIN transactions t ON t.id = r.earned_transaction_id WHERE t.merchant_id = '$M1')")" \
    "$(sql "SELECT sum(purchases) || ' ' || sum(sales_amount) || ' ' || sum(punches) || ' ' || sum(rewards_claimed) || ' ' || sum(cashback_earned) || ' ' || sum(cashback_redeemed) || ' ' || sum(rewards_earned) FROM report_buckets WHERE merchant_id = '$M1'")" \
    "the report figures (purchases, sales, punches, claims, cashback earned and redeemed, rewards) agree with the transactions"

# --- the database ------------------------------------------------------------
is "$(sql 'PRAGMA integrity_check')" ok "PRAGMA integrity_check is ok"
is "$(sql 'PRAGMA foreign_key_check')" "" "PRAGMA foreign_key_check is empty"
# The killer's SIGKILLs are expected in the log; nothing else is.
problems=$(lt_log_problems | grep -v 'child signalled: 9$')
is "$problems" "" "no sanitizer report, and no responder died but by the test's SIGKILLs"
diag "took $((SECONDS - START)) s from the first request"

done_testing
