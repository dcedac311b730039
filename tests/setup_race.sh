#!/usr/bin/env bash
# The first-run setup raced through the real HTTP server: on a new
# installation (no database yet), 8 clients send POST /api/v1/setup with
# the right code at the same moment, to several FastCGI processes. Exactly
# one makes the owner (200); the others get 404 (an owner exists), or 403
# (the code file was already gone); the database holds one merchant, one
# location and one owner, who can log in. Before that, GUESSERS clients
# each from an address of its own (127.0.1.N, the server's REMOTE_ADDR)
# send a wrong code at once: all addresses together are checked at most
# LC_SETUP_CODE_CAP (4) times login_max_failures (set to 1 here), the
# others refused (429) naming the proof file. LT_BACKEND=postgresql runs it on
# a set-up, empty PostgreSQL database (tests/setup_race_pg.sh), whose code
# is kept in the database and shown by loyalty-admin setup-code.
. "$top_srcdir/tests/lib.sh"

CLIENTS=8
GUESSERS=12
CAP=4		# LC_SETUP_CODE_CAP x login_max_failures 1
LT_PROCS=4
# A seed that creates nothing: the first request makes the database.
lt_start true
W=$LT_DIR/work
mkdir -p "$W"

lt_req GET /api/v1/setup
if [ "$LT_BACKEND" = sqlite ]; then
	is "$LT_STATUS:$(lt_jq .data.setup_needed):$(lt_jq .data.code_file)" \
	    "200:true:loyalty.db.setup-code" "a new installation needs setup and names its code file"
	CODE=$(head -n 1 "$LT_DB.setup-code" 2>/dev/null)
	like "$CODE" '^[2-9A-HJKMNP-Z]{20}$' "the code file holds a 20-symbol code" ||
	    bail "no setup code to race with"
	is "$(stat -c %a "$LT_DB.setup-code")" 600 "... readable by the service's user only"
else
	is "$LT_STATUS:$(lt_jq .data.setup_needed):$(lt_jq .data.code_command)" \
	    "200:true:loyalty-admin setup-code" "a new installation needs setup and names the command showing its code"
	CODE=$("$LT_ADMIN" --db "$LT_DB" setup-code 2>&1)
	like "$CODE" '^[2-9A-HJKMNP-Z]{20}$' "loyalty-admin setup-code shows a 20-symbol code" ||
	    bail "no setup code to race with"
	is "$(lt_sql "SELECT value FROM settings WHERE key = 'setup_code'")" "$CODE" \
	    "... kept in the database, the same as the one GET /setup made"
fi
ok "... and the code is in no answer" test "${LT_BODY/$CODE/}" = "$LT_BODY"

# Client N's shop settings: its own, so the winner's alone must be stored.
CURRENCIES=(JPY KWD EUR USD)
ZONES=(Asia/Tokyo Asia/Kuwait Europe/Berlin America/New_York)
LANGS=(ja ar de en)

# setup N: one POST with the right code; appends "STATUS BODY" to $W/setup.
setup() {
	local s f=$W/body.$1 body i=$(($1 % 4))
	body=$(jq -cn --arg c "$CODE" --arg n "$1" --arg cur "${CURRENCIES[i]}" \
	    --arg tz "${ZONES[i]}" --arg lang "${LANGS[i]}" '{setup_code: $c,
	    merchant_name: ("Shop " + $n), location_name: ("Street " + $n),
	    owner_name: ("Owner " + $n), owner_email: ("owner\($n)@race.example"),
	    owner_password: ("password of owner " + $n), currency: $cur,
	    time_zone: $tz, language: $lang}')
	s=$(curl -s -o "$f" -w '%{http_code}' --max-time 60 \
	    -H 'Content-Type: application/json' --data-binary "$body" \
	    "$LT_URL/api/v1/setup") || s=000
	# One write(2) a line, so the lines of clients appending at once
	# stay whole (bash's printf writes a long one in pieces).
	printf '%s %s\n' "$s" "$(tr -d '\n' <"$f" 2>/dev/null)" >"$f.line"
	cat "$f.line" >>"$W/setup"
	rm -f "$f.line"
}

# guess N: one POST with a wrong code from 127.0.1.N; appends to $W/guess.
guess() {
	local s f=$W/gbody.$1 body
	body=$(jq -cn --arg n "$1" '{setup_code: "WRONGCODEAAAAAAAAAAA",
	    merchant_name: "Shop", location_name: "Street", owner_name: "Eve",
	    owner_email: "eve\($n)@race.example", owner_password: "a password of Eve"}')
	s=$(curl -s -o "$f" -w '%{http_code}' --max-time 60 \
	    --interface "127.0.1.$1" -H 'Content-Type: application/json' \
	    --data-binary "$body" "$LT_URL/api/v1/setup") || s=000
	printf '%s %s\n' "$s" "$(tr -d '\n' <"$f" 2>/dev/null)" >"$f.line"
	cat "$f.line" >>"$W/guess"
	rm -f "$f.line"
}
"$LT_ADMIN" --db "$LT_DB" setting set login_max_failures 1 >/dev/null ||
    bail "setting set login_max_failures"
pids=()
for i in $(seq 1 $GUESSERS); do
	( while [ ! -e "$W/go-guess" ]; do sleep 0.01; done; guess "$i" ) &
	pids+=($!)
done
sleep 0.3
touch "$W/go-guess"
wait "${pids[@]}"
checked=$(grep -c '^403 .*"setup_code"' "$W/guess" || true)
capped=$(grep -c '^429 .*proof file' "$W/guess" || true)
diag "$GUESSERS wrong codes at once from $GUESSERS addresses: $checked checked (403), $capped refused by the cap (429); answers: $(awk '{ print $1 }' "$W/guess" | sort | uniq -c | tr -s ' \n' ' ')"
ok "... at most $CAP checked in all" test "$checked" -ge 1 -a "$checked" -le "$CAP"
is "$((checked + capped))" "$GUESSERS" "... every other refused by the cap of all addresses (429), saying the proof file still works"
is "$(lt_sql "SELECT count(*) || ':' || count(DISTINCT addr) FROM login_attempts WHERE email = 'setup:code' AND pending = 0")" \
    "$checked:$checked" "... each failure kept once, with its own address"
# The window passed, as it were: the right codes below race afresh.
lt_sql "DELETE FROM login_attempts" >/dev/null || bail "cannot clear the guesses"
"$LT_ADMIN" --db "$LT_DB" setting set login_max_failures 5 >/dev/null ||
    bail "setting set login_max_failures"

# The clients wait for one file, then all send at once.
pids=()
for i in $(seq 1 $CLIENTS); do
	( while [ ! -e "$W/go" ]; do sleep 0.01; done; setup "$i" ) &
	pids+=($!)
done
sleep 0.3
touch "$W/go"
wait "${pids[@]}"

count() { grep -c "^$1 " "$W/setup" 2>/dev/null || true; }
statuses=$(awk '{ print $1 }' "$W/setup" | sort | uniq -c | tr -s ' \n' ' ')
is "$(wc -l <"$W/setup")" "$CLIENTS" "$CLIENTS setups sent at once all got an answer"
is "$(count 200)" 1 "exactly one setup succeeded (answers:$statuses)"
is "$(($(count 404) + $(count 403)))" $((CLIENTS - 1)) \
    "... the other $((CLIENTS - 1)) got 404 or 403 (answers:$statuses)"
is "$(lt_sql "SELECT count(*) FROM users WHERE user_type = 'owner'")" 1 \
    "the database holds exactly one owner"
is "$(lt_sql "SELECT (SELECT count(*) FROM merchants) || ':' ||
    (SELECT count(*) FROM locations) || ':' || (SELECT count(*) FROM users)")" \
    1:1:1 "... one merchant, one location and one user in all"
WINNER=$(awk '$1 == 200 { $1 = ""; print; exit }' "$W/setup" |
    jq -r '.data.user.email' 2>/dev/null)
is "$(lt_sql "SELECT email FROM users")" "$WINNER" "... the owner the 200 answer named"
n=${WINNER#owner}
n=${n%%@*}
ok "the new owner logs in" lt_login "$WINNER" "password of owner $n"
# The setup's shop settings are written with its merchant, in one write:
# the winner's three, none of a loser's.
i=$((n % 4))
is "$(lt_sql "SELECT key || '=' || value FROM shop_settings ORDER BY key")" \
    "currency=${CURRENCIES[i]}
language=${LANGS[i]}
time_zone=${ZONES[i]}" "... its shop's currency, language and time zone, no other client's"
lt_req GET /api/v1/setup
is "$LT_STATUS" 404 "setup is 404 once the owner exists"
if [ "$LT_BACKEND" = sqlite ]; then
	[ -e "$LT_DB.setup-code" ] && diag "note: a setup code file is left beside the database"
else
	is "$(lt_sql "SELECT count(*) FROM settings WHERE key = 'setup_code' AND value <> ''")" 0 \
	    "the setup emptied the code kept in the database"
fi

is "$(lt_integrity)" ok "integrity_check is ok after the race"
is "$(grep -c '^\(000\|5[0-9][0-9]\) ' "$W/setup")" 0 "no setup failed or got a 5xx"
problems=$(lt_log_problems)
is "$problems" "" "no sanitizer report or crashed responder in the server log"

done_testing
