#!/usr/bin/env bash
# The first-run setup raced through the real HTTP server: on a new
# installation (no database yet), 8 clients send POST /api/v1/setup with
# the right code at the same moment, to several FastCGI processes. Exactly
# one makes the owner (200); the others get 404 (an owner exists), or 403
# (the code file was already gone); the database holds one merchant, one
# location and one owner, who can log in. LT_BACKEND=postgresql runs it on
# a set-up, empty PostgreSQL database (tests/setup_race_pg.sh), whose code
# is kept in the database and shown by loyalty-admin setup-code.
. "$top_srcdir/tests/lib.sh"

CLIENTS=8
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

# setup N: one POST with the right code; appends "STATUS BODY" to $W/setup.
setup() {
	local s f=$W/body.$1 body
	body=$(jq -cn --arg c "$CODE" --arg n "$1" '{setup_code: $c,
	    merchant_name: ("Shop " + $n), location_name: ("Street " + $n),
	    owner_name: ("Owner " + $n), owner_email: ("owner\($n)@race.example"),
	    owner_password: ("password of owner " + $n)}')
	s=$(curl -s -o "$f" -w '%{http_code}' --max-time 60 \
	    -H 'Content-Type: application/json' --data-binary "$body" \
	    "$LT_URL/api/v1/setup") || s=000
	# One write(2) a line, so the lines of clients appending at once
	# stay whole (bash's printf writes a long one in pieces).
	printf '%s %s\n' "$s" "$(tr -d '\n' <"$f" 2>/dev/null)" >"$f.line"
	cat "$f.line" >>"$W/setup"
	rm -f "$f.line"
}

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
