#!/usr/bin/env bash
# Authentication races through the real HTTP server (several FastCGI
# processes of each responder, client processes hitting them at once):
#
# - a login whose slow password check began before `loyalty-admin user
#   passwd` or `user disable` committed and ended after it must not hand
#   out tokens that keep working: once the command has returned, no token
#   from a login with the old password (or of the disabled user) may work;
# - wrong passwords sent at the same moment are checked at most
#   login_max_failures times per window, while tills logging in together
#   with the right password are still never refused;
# - wrong passwords from many client addresses at once (each client its
#   own loopback address, 127.0.1.N: the server's REMOTE_ADDR) are
#   checked at most login_max_failures times in all, and the account's
#   till at an address it logged in from before still gets in meanwhile.
. "$top_srcdir/tests/lib.sh"

ROUNDS=6	# rounds of each login race
RACERS=4	# clients logging in in a loop during a race
GUESSERS=16	# clients sending one wrong password each, at once
GUESS_ROUNDS=3
MAX_FAILURES=5
LT_PROCS=4
lt_start
W=$LT_DIR/work
mkdir -p "$W"

admin() { "$LT_ADMIN" --db "$LT_DB" "$@"; }

# Background clients are stopped (and the server with them) however the
# script ends.
CLIENT_PIDS=()
cleanup() {
	touch "$W/stop" 2>/dev/null
	if [ ${#CLIENT_PIDS[@]} -gt 0 ]; then
		kill "${CLIENT_PIDS[@]}" 2>/dev/null
		wait "${CLIENT_PIDS[@]}" 2>/dev/null
	fi
	lt_stop
	lt_backend_stop
}
trap cleanup EXIT

admin setting set login_max_failures "$MAX_FAILURES" >/dev/null ||
    bail "setting set login_max_failures"

# new_user EMAIL PASSWORD: a staff user of the demo shop; prints its id.
new_user() {
	printf '%s\n' "$2" | admin user add --merchant "$DEMO_MERCHANT_ID" \
	    --email "$1" --type system_user --location "$DEMO_LOCATION_ID" ||
	    bail "user add $1"
}

login_body() { jq -cn --arg e "$1" --arg p "$2" '{email: $e, password: $p}'; }

# login BODY OUTFILE: one login from this process; appends "STATUS BODY".
# From the address LOGIN_FROM when set (else curl's own, 127.0.0.1).
login() {
	local s f=$2.body.$BASHPID
	s=$(curl -s -o "$f" -w '%{http_code}' --max-time 20 \
	    ${LOGIN_FROM:+--interface "$LOGIN_FROM"} \
	    -H 'Content-Type: application/json' --data-binary "$1" \
	    "$LT_URL/api/v1/auth/login") || s=000
	# One write(2) a line, so the lines of clients appending at once
	# stay whole (bash's printf writes a long one in pieces).
	printf '%s %s\n' "$s" "$(tr -d '\n' <"$f" 2>/dev/null)" >"$f.line"
	cat "$f.line" >>"$2"
	rm -f "$f.line"
	rm -f "$f"
}

# login_loop BODY OUTFILE: logs in again and again until $W/stop exists
# (and for 20 s at most, whatever happens).
login_loop() {
	local end=$((SECONDS + 20))
	while [ ! -e "$W/stop" ] && [ $SECONDS -lt $end ]; do
		login "$@"
	done
}

# start_clients N FUNC ARGS...: N processes waiting for $W/go, then
# running FUNC CLIENT_NO ARGS...; their pids in CLIENT_PIDS.
start_clients() {
	local i n=$1
	shift
	rm -f "$W/go" "$W/stop"
	CLIENT_PIDS=()
	for i in $(seq 1 "$n"); do
		( while [ ! -e "$W/go" ]; do sleep 0.01; done; "$@" "$i" ) &
		CLIENT_PIDS+=($!)
	done
	sleep 0.3	# every client is waiting
}
wait_clients() {
	wait "${CLIENT_PIDS[@]}"
	CLIENT_PIDS=()
}

# probe me|refresh TOKENS_FILE: the HTTP status of GET /auth/me with each
# access token, or of POST /auth/refresh with each refresh token, one a
# line, all from one curl.
probe() {
	local t first=1
	[ -s "$2" ] || return 0
	while read -r t; do
		[ -n "$first" ] || echo next
		first=
		if [ "$1" = me ]; then
			printf 'url = "%s/api/v1/auth/me"\n' "$LT_URL"
			printf 'header = "Authorization: Bearer %s"\n' "$t"
		else
			printf 'url = "%s/api/v1/auth/refresh"\n' "$LT_URL"
			printf 'header = "Content-Type: application/json"\n'
			printf 'data-binary = "{\\"refresh_token\\":\\"%s\\"}"\n' "$t"
		fi
		printf 'silent\nmax-time = 20\noutput = "/dev/null"\n'
		printf 'write-out = "%%{http_code}\\n"\n'
	done <"$2" >"$2.$1.curl"
	curl -K "$2.$1.curl"
	return 0
}

# not401 me|refresh TOKENS_FILE: how many of the tokens are not refused.
not401() { probe "$@" | grep -vc '^401$' || true; }

count() { grep -c "^$1 " "$2" 2>/dev/null || true; }

# --- a login racing `user passwd` / `user disable` -------------------------
#
# race VERB ROUND: a fresh user; RACERS clients log in with its password
# in a loop; in the middle `loyalty-admin user VERB` runs; the clients
# stop once it has returned. Leaves the tokens of the logins that
# succeeded in $W/VERB.ROUND.{access,refresh}, the user id in RACE_UID.
race() {
	local verb=$1 r=$2 email=race-$1-$2@auth-races.example pw=old-pw-$1-$2
	local out=$W/$verb.$r
	RACE_UID=$(new_user "$email" "$pw")
	start_clients "$RACERS" login_loop "$(login_body "$email" "$pw")" "$out.log"
	touch "$W/go"
	# The clients are logging in steadily: at least one got in (a busy
	# machine may take longer than the usual 0.3 s), up to 10 s.
	local i
	for i in $(seq 1 100); do
		grep -q '^200 ' "$out.log" 2>/dev/null && break
		sleep 0.1
	done
	sleep 0.1
	if [ "$verb" = passwd ]; then
		printf 'new-pw-%s\n' "$r" | admin user passwd "$RACE_UID"
	else
		admin user "$verb" "$RACE_UID"
	fi || bail "user $verb $RACE_UID failed"
	touch "$W/stop"	# the command has returned
	wait_clients
	awk '$1 == 200 { $1 = ""; print }' "$out.log" | jq -r .access_token >"$out.access"
	awk '$1 == 200 { $1 = ""; print }' "$out.log" | jq -r .refresh_token >"$out.refresh"
}

# passwd: the old password's tokens must all be dead once it returns.
got_all=0 tokens=0 live_me=0 live_refresh=0
for r in $(seq 1 $ROUNDS); do
	race passwd "$r"
	n=$(wc -l <"$W/passwd.$r.access")
	m=$(not401 me "$W/passwd.$r.access")
	f=$(not401 refresh "$W/passwd.$r.refresh")
	diag "passwd round $r: $n logins with the old password got tokens; after the change $m access and $f refresh tokens still work"
	[ "$n" -gt 0 ] && got_all=$((got_all + 1))
	tokens=$((tokens + n)) live_me=$((live_me + m)) live_refresh=$((live_refresh + f))
done
is "$got_all" "$ROUNDS" "passwd race: in each of $ROUNDS rounds $RACERS clients logged in with the old password ($tokens token pairs)"
is "$live_me" 0 "... once \`user passwd\` has returned, /auth/me refuses (401) every access token of those logins"
is "$live_refresh" 0 "... and /auth/refresh refuses (401) every refresh token of those logins"

# disable: no token of the user may work, while disabled nor after a
# `user enable` (which gives back the right to log in, not old sessions).
got_all=0 tokens=0 live_dis=0 live_me=0 live_refresh=0
for r in $(seq 1 $ROUNDS); do
	race disable "$r"
	n=$(wc -l <"$W/disable.$r.access")
	d=$(( $(not401 me "$W/disable.$r.access") + $(not401 refresh "$W/disable.$r.refresh") ))
	admin user enable "$RACE_UID" || bail "user enable $RACE_UID failed"
	m=$(not401 me "$W/disable.$r.access")
	f=$(not401 refresh "$W/disable.$r.refresh")
	diag "disable round $r: $n logins got tokens; $d work while disabled; after \`user enable\` $m access and $f refresh tokens work again"
	[ "$n" -gt 0 ] && got_all=$((got_all + 1))
	tokens=$((tokens + n)) live_dis=$((live_dis + d))
	live_me=$((live_me + m)) live_refresh=$((live_refresh + f))
done
is "$got_all" "$ROUNDS" "disable race: in each of $ROUNDS rounds $RACERS clients logged in before the disable ($tokens token pairs)"
is "$live_dis" 0 "... while the user is disabled, every one of those tokens is refused (401)"
is "$live_me" 0 "... after \`user enable\`, /auth/me still refuses (401) every access token obtained before the disable returned"
is "$live_refresh" 0 "... and /auth/refresh every such refresh token"

# --- wrong passwords sent at the same moment -------------------------------
# login_once CLIENT_NO: one login with ONE_BODY, answer appended to ONE_OUT.
login_once() { login "$ONE_BODY" "$ONE_OUT"; }
worst=0 all_shaped=0
for r in $(seq 1 $GUESS_ROUNDS); do
	email=guess-$r@auth-races.example
	new_user "$email" "right-pw-$r" >/dev/null
	ONE_BODY=$(login_body "$email" "wrong-pw-$r")
	ONE_OUT=$W/guess.$r
	start_clients "$GUESSERS" login_once
	touch "$W/go"
	wait_clients
	checked=$(grep -c '^401 .*"INVALID_CREDENTIALS"' "$ONE_OUT" || true)
	limited=$(grep -c '^429 .*"RATE_LIMITED"' "$ONE_OUT" || true)
	diag "guess round $r: $GUESSERS wrong passwords at once: $checked checked (401 INVALID_CREDENTIALS), $limited refused (429 RATE_LIMITED)"
	[ "$checked" -gt "$worst" ] && worst=$checked
	[ "$checked" -ge 1 ] && [ $((checked + limited)) -eq "$GUESSERS" ] &&
	    all_shaped=$((all_shaped + 1))
done
ok "$GUESSERS wrong passwords for one account at once, $GUESS_ROUNDS rounds: at most login_max_failures=$MAX_FAILURES checked per round (worst: $worst)" \
    test "$worst" -le "$MAX_FAILURES"
is "$all_shaped" "$GUESS_ROUNDS" "... every answer is 401 INVALID_CREDENTIALS or 429 RATE_LIMITED, the first guess always checked"

# --- tills logging in together after 4 failures are never throttled --------
email=tills@auth-races.example
new_user "$email" "till-pw" >/dev/null
for i in 1 2 3 4; do
	LT_TOKEN='' lt_req POST /api/v1/auth/login "$(login_body "$email" wrong)"
done
is "$LT_STATUS" 401 "four wrong passwords: 401, one failure short of the limit"
ONE_BODY=$(login_body "$email" till-pw)
ONE_OUT=$W/tills
start_clients 8 login_once
touch "$W/go"
wait_clients
is "$(count 200 "$W/tills")" 8 "then 8 tills logging in at once with the right password all get in (200)"

# --- wrong passwords from many addresses at once --------------------------
# login_from CLIENT_NO: login_once from the address 127.0.1.CLIENT_NO.
login_from() { LOGIN_FROM=127.0.1.$1 login_once; }
# till_loop CLIENT_NO: the till's right password again and again, from
# 127.0.0.1, until $W/stop.
till_loop() { login_loop "$TILL_BODY" "$TILL_OUT"; }
worst=0 all_shaped=0 till_in=0 till_refused=0
for r in $(seq 1 $GUESS_ROUNDS); do
	email=spread-$r@auth-races.example
	new_user "$email" "right-pw-$r" >/dev/null
	# The till logs in once from 127.0.0.1: its address is known.
	LT_TOKEN='' lt_req POST /api/v1/auth/login "$(login_body "$email" "right-pw-$r")"
	[ "$LT_STATUS" = 200 ] || bail "the till's first login: $LT_STATUS"
	TILL_BODY=$(login_body "$email" "right-pw-$r")
	TILL_OUT=$W/spread-till.$r
	start_clients 2 till_loop
	TILL_PIDS=("${CLIENT_PIDS[@]}")
	ONE_BODY=$(login_body "$email" "wrong-pw-$r")
	ONE_OUT=$W/spread.$r
	start_clients "$GUESSERS" login_from
	touch "$W/go"
	wait_clients
	touch "$W/stop"
	CLIENT_PIDS=("${TILL_PIDS[@]}")
	wait_clients
	checked=$(grep -c '^401 .*"INVALID_CREDENTIALS"' "$ONE_OUT" || true)
	limited=$(grep -c '^429 .*"RATE_LIMITED"' "$ONE_OUT" || true)
	addrs=$(lt_sql "SELECT count(DISTINCT addr) FROM login_attempts WHERE email = 'login:$email' AND addr LIKE '127.0.1.%'")
	diag "spread round $r: $GUESSERS wrong passwords at once from $GUESSERS addresses: $checked checked (from $addrs addresses), $limited refused; the till meanwhile: $(count 200 "$TILL_OUT") in, $(grep -vc '^200 ' "$TILL_OUT" || true) not"
	[ "$checked" -gt "$worst" ] && worst=$checked
	[ "$checked" -ge 1 ] && [ $((checked + limited)) -eq "$GUESSERS" ] &&
	    [ "$addrs" -eq "$checked" ] && all_shaped=$((all_shaped + 1))
	till_in=$((till_in + $(count 200 "$TILL_OUT")))
	till_refused=$((till_refused + $(grep -vc '^200 ' "$TILL_OUT" || true)))
done
ok "$GUESSERS wrong passwords from $GUESSERS addresses at once, $GUESS_ROUNDS rounds: at most login_max_failures=$MAX_FAILURES checked per round in all (worst: $worst)" \
    test "$worst" -le "$MAX_FAILURES"
is "$all_shaped" "$GUESS_ROUNDS" "... every answer 401 or 429, each failure kept with the address it came from"
ok "... while the till at its known address logged in $till_in times, refused none ($till_refused)" \
    test "$till_in" -gt 0 -a "$till_refused" -eq 0

# --- the server stayed healthy ---------------------------------------------
is "$(cat "$W"/*.log "$W"/guess.* "$W"/spread* "$W"/tills 2>/dev/null | grep -c '^\(000\|5[0-9][0-9]\) ')" 0 \
    "no login failed or got a 5xx"
problems=$(lt_log_problems)
is "$problems" "" "no sanitizer report or crashed responder in the server log"

done_testing
