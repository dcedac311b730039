#!/usr/bin/env bash
# Two web servers on one PostgreSQL database: two lighttpd instances on
# two ports of 127.0.0.1, each with its own FastCGI processes (LT_PROCS of
# each responder), serving one database of a throwaway cluster, with
# clients spread over both at once. What one SQLite file's write lock
# gives a single server must hold across them (lib/db_pg.c: every write
# takes the database's advisory lock as it begins):
#   a) one idempotency key sent to both at once: one transaction, and
#      both answers name it with the same data;
#   b) redemptions of one cashback card through both never overdraw it,
#      and the ledger stays equal to the balance;
#   c) a punch card's cooldown: purchases at once through both, one punch;
#   d) one refresh token sent to both at once: one rotation, and the
#      other, a reuse, revokes the login as on SQLite.
# Server B reaches the database by a URI with a query string
# (?connect_timeout=10&application_name=...): the & and ? pass through
# the lighttpd configuration to the responders intact.
# Skipped as tests/pg_wrap.sh says (no backend in the build, no server
# programs). TAP; LT_KEEP=1 keeps the temp folders.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
if [ "${LT_BACKEND:-}" != postgresql ]; then
	. "$top_srcdir/tests/pg_wrap.sh" pg_two_servers.sh
fi
. "$top_srcdir/tests/lib.sh"

command -v jq >/dev/null || bail "jq is not installed (tools/check installs it)"
KEYS=30		# idempotency keys, each sent to both servers at once
KEYS_AT_ONCE=10	# keys raced together (2 clients each)
REDEEMERS=8	# clients redeeming, half through each server
COOLDOWN_ROUNDS=3
PUNCHERS=8
REFRESH_ROUNDS=10
LT_PROCS=4
lt_start
URL_A=$LT_URL
PID_A=$LC_LIGHTTPD_PID
W=$LT_DIR/work
mkdir -p "$W"

# --- server B: another lighttpd and its responders, the same database -----
PID_B=
stop_b() {
	local a=$LC_LIGHTTPD_PID
	LC_LIGHTTPD_PID=$PID_B
	lc_server_stop
	LC_LIGHTTPD_PID=$a
	PID_B=
}
trap 'stop_b; lt_stop; lt_backend_stop' EXIT
APP_B=lt_server_b
LC_DB="$LT_DB?connect_timeout=10&application_name=$APP_B"
LC_RUNDIR=$LT_DIR/run_b
LC_ERRORLOG=$LT_DIR/lighttpd_b.log
mkdir -p "$LC_RUNDIR"
for tries in 1 2 3 4 5; do
	LC_PORT=$(lt_free_port) || bail "no free port"
	rc=0
	lc_server_start 2>>"$LT_DIR/start_b.log" || rc=$?
	[ $rc -eq 0 ] && break
	[ $rc -eq 1 ] || break
done
[ $rc -eq 0 ] || bail "the second lighttpd did not start: $(tail -5 "$LC_ERRORLOG" "$LT_DIR/start_b.log" 2>/dev/null)"
PID_B=$LC_LIGHTTPD_PID
URL_B=http://127.0.0.1:$LC_PORT
LC_LIGHTTPD_PID=$PID_A	# lt_stop's

admin() { "$LT_ADMIN" --db "$LT_DB" "$@"; }
count() { grep -c "^$1 " "$2" 2>/dev/null || true; }
# url N: client N's server, A for odd N, B for even.
url() { if [ $(($1 % 2)) -eq 1 ]; then echo "$URL_A"; else echo "$URL_B"; fi; }
new_card() {	# TYPE ARGS...: a card of a new program; prints its id
	local p
	p=$(admin program add --merchant "$DEMO_MERCHANT_ID" --type "$@") || bail "program add"
	admin card issue --program "$p" --customer "Two servers" | jq -r .card_instance_id
}

LT_URL=$URL_B
lt_login "$DEMO_STAFF_EMAIL" "$DEMO_STAFF_PASSWORD" ||
    bail "login through server B failed: $LT_STATUS $LT_BODY"
LT_URL=$URL_A
lt_login "$DEMO_STAFF_EMAIL" "$DEMO_STAFF_PASSWORD" ||
    bail "login through server A failed: $LT_STATUS $LT_BODY"
TOKEN=$LT_TOKEN
LT_RACE_TOKEN=$TOKEN
STAFF=$LT_USER_ID
LOC=$LT_LOCATION_ID
LT_URL=$URL_B LT_TOKEN=$TOKEN lt_req GET /api/v1/auth/me
is "$LT_STATUS:$(lt_jq .id)" "200:$STAFF" "a token from server A works on server B"
is "$(lt_sql "SELECT count(DISTINCT application_name) FROM pg_stat_activity
    WHERE datname = current_database() AND application_name IN ('loyalty-pos', '$APP_B')")" 2 \
    "both servers' responders are connected, B's by its URI with ?...&application_name"

# --- a) one key, both servers ----------------------------------------------
ICARD=$(new_card cashback --title "Idem" --tier Base:0:0.05)
# Clients 2k-1 and 2k send key k of this batch, one to each server.
same_key() {
	local k=$((BATCH * KEYS_AT_ONCE + ($1 + 1) / 2))
	LT_URL=$(url "$1") lt_race_req POST /api/v1/transactions/record \
	    "{\"card_instance_id\":\"$ICARD\",\"location_id\":\"$LOC\",
	    \"staff_user_id\":\"$STAFF\",\"purchase_amount\":20.00,
	    \"idempotency_key\":\"two-$k\"}" "$W/idem.$k"
}
for BATCH in $(seq 0 $((KEYS / KEYS_AT_ONCE - 1))); do
	lt_race $((2 * KEYS_AT_ONCE)) "$W" same_key
done
answered=0 one_first=0 same=0
for k in $(seq 1 $KEYS); do
	f=$W/idem.$k
	[ "$(count 200 "$f")" = 2 ] && answered=$((answered + 1))
	[ "$(grep -c '"idempotent":false' "$f")" = 1 ] && one_first=$((one_first + 1))
	# The data but the replay flag (meta's request id differs).
	[ "$(awk '{ $1 = ""; print }' "$f" | jq -c '.data | del(.idempotent)' |
	    sort -u | wc -l)" = 1 ] && same=$((same + 1))
done
is "$answered" "$KEYS" "$KEYS keys, each sent to both servers at once: every answer is 200"
is "$one_first" "$KEYS" "... of each pair one recorded it and one replayed it"
is "$same" "$KEYS" "... and both answers of each pair carry the same data (transaction, balance)"
is "$(lt_sql "SELECT (SELECT count(*) FROM transactions WHERE card_id = '$ICARD') || ' ' ||
    (SELECT count(DISTINCT k.transaction_id) FROM idempotency_keys k
    JOIN transactions t ON t.id = k.transaction_id
    WHERE k.key LIKE 'two-%' AND t.card_id = '$ICARD')")" "$KEYS $KEYS" \
    "... exactly one transaction per key, each the one its key names"
is "$(cat "$W"/idem.* | awk '{ $1 = ""; print }' | jq -r .data.transaction_id | sort -u | wc -l)" \
    "$KEYS" "... and the answers name $KEYS transactions in all"
is "$(lt_sql "SELECT cashback_balance FROM cards WHERE id = '$ICARD'")" $((KEYS * 100)) \
    "... and the card earned once per key ($KEYS x 1.00)"

# --- b) redemptions through both servers -----------------------------------
RCARD=$(new_card cashback --title "Redeem" --tier Base:0:0.02)
LT_URL=$URL_A LT_TOKEN=$TOKEN lt_req POST /api/v1/transactions/record \
    "{\"card_instance_id\":\"$RCARD\",\"location_id\":\"$LOC\",\"staff_user_id\":\"$STAFF\",\"purchase_amount\":500.00}"
is "$(lt_jq .data.new_balance)" 10 "a 500.00 purchase at 2 % gives a 10.00 balance"
START=1000
# Client N redeems 0.50, 0.75, 1.00 or 1.25 (by N) ten times.
redeem() {
	local j a=$((50 + ($1 % 4) * 25))
	for j in $(seq 1 10); do
		LT_URL=$(url "$1") lt_race_req POST /api/v1/cashback/redeem \
		    "{\"card_instance_id\":\"$RCARD\",\"location_id\":\"$LOC\",
		    \"staff_user_id\":\"$STAFF\",\"redemption_amount\":$((a / 100)).$(printf %02d $((a % 100))),
		    \"purchase_amount\":5.00,\"idempotency_key\":\"tr-$1-$j\"}" "$W/redeem"
	done
}
lt_race "$REDEEMERS" "$W" redeem
ok=$(count 200 "$W/redeem")
is "$((ok + $(grep -c '^422 .*INSUFFICIENT_BALANCE' "$W/redeem")))" $((REDEEMERS * 10)) \
    "$REDEEMERS clients x 10 redemptions through both servers: each made (200) or refused for the balance (422) ($ok made)"
sum=$(awk '$1 == 200 { $1 = ""; print }' "$W/redeem" | jq -r '(.data // .).redeemed_amount' |
    awk '{ s += sprintf("%.0f", $1 * 100) } END { print s + 0 }')
ok "... what they redeemed ($sum cents) is at most the starting balance ($START)" test "$sum" -le "$START"
is "$(awk '$1 == 200 { $1 = ""; print }' "$W/redeem" | jq -r '(.data // .).new_balance' |
    awk '$1 < 0' | wc -l)" 0 "... no answer shows a balance below 0"
is "$(lt_sql "SELECT cashback_balance FROM cards WHERE id = '$RCARD'")" $((START - sum)) \
    "... the balance is the start less what was redeemed"
is "$(lt_sql "SELECT (SELECT cashback_balance FROM cards WHERE id = '$RCARD') -
    (SELECT coalesce(sum(remaining), 0) FROM cashback_earnings WHERE card_id = '$RCARD')")" 0 \
    "... the ledger's remaining amounts equal the balance"
is "$(lt_sql "SELECT coalesce(sum(amount_used), 0) FROM redemption_entries e
    JOIN transactions t ON t.id = e.redeem_transaction_id WHERE t.card_id = '$RCARD'")" "$sum" \
    "... and the redemption entries add up to what was redeemed"

# --- c) a punch card's cooldown across both --------------------------------
punch() {
	LT_URL=$(url "$1") lt_race_req POST /api/v1/transactions/record \
	    "{\"card_instance_id\":\"$PCARD\",\"location_id\":\"$LOC\",
	    \"staff_user_id\":\"$STAFF\",\"purchase_amount\":1,
	    \"idempotency_key\":\"tp-$ROUND-$1\"}" "$W/punch$ROUND"
}
ones=0 shaped=0 recorded=0
for ROUND in $(seq 1 $COOLDOWN_ROUNDS); do
	# A long cooldown: a slow machine stays within one window.
	PCARD=$(new_card punch --title "Burst $ROUND" --punches 10 --reward-title "R" --cooldown 600)
	lt_race "$PUNCHERS" "$W" punch
	[ "$(count 200 "$W/punch$ROUND")" = 1 ] && ones=$((ones + 1))
	[ "$(grep -c '^429 .*COOLDOWN_ACTIVE' "$W/punch$ROUND")" = $((PUNCHERS - 1)) ] &&
	    shaped=$((shaped + 1))
	[ "$(lt_sql "SELECT count(*) || ' ' || (SELECT lifetime_punches FROM cards WHERE id = '$PCARD')
	    FROM transactions WHERE card_id = '$PCARD'")" = "1 1" ] && recorded=$((recorded + 1))
done
is "$ones" "$COOLDOWN_ROUNDS" "$PUNCHERS purchases at once on a punch card through both servers, $COOLDOWN_ROUNDS cards: exactly one succeeds"
is "$shaped" "$COOLDOWN_ROUNDS" "... the others get 429 COOLDOWN_ACTIVE"
is "$recorded" "$COOLDOWN_ROUNDS" "... and one punch is recorded and counted"

# --- d) one refresh token, both servers ------------------------------------
refresh() {
	LT_URL=$(url "$1") lt_race_req POST /api/v1/auth/refresh \
	    "{\"refresh_token\":\"$RTOKEN\"}" "$W/refresh$ROUND"
}
ones=0 revoked=0 others=0
for ROUND in $(seq 1 $REFRESH_ROUNDS); do
	LT_URL=$URL_A
	lt_login "$DEMO_STAFF_EMAIL" "$DEMO_STAFF_PASSWORD" || bail "login failed"
	RTOKEN=$LT_REFRESH
	lt_race 2 "$W" refresh
	f=$W/refresh$ROUND
	[ "$(count 200 "$f")" = 1 ] && [ "$(count 401 "$f")" = 1 ] && ones=$((ones + 1))
	# The loser came second: a reuse of a rotated token, which revokes
	# the login, the winner's new tokens with it.
	new_access=$(awk '$1 == 200 { $1 = ""; print }' "$f" | jq -r .access_token)
	new_refresh=$(awk '$1 == 200 { $1 = ""; print }' "$f" | jq -r .refresh_token)
	n=0
	for u in "$URL_A" "$URL_B"; do
		LT_URL=$u LT_TOKEN=$new_access lt_req GET /api/v1/auth/me
		[ "$LT_STATUS" = 401 ] && n=$((n + 1))
		LT_URL=$u LT_TOKEN=$LT_TOKEN lt_req GET /api/v1/auth/me
		[ "$LT_STATUS" = 401 ] && n=$((n + 1))
	done
	LT_URL=$URL_B LT_TOKEN= lt_req POST /api/v1/auth/refresh "{\"refresh_token\":\"$new_refresh\"}"
	[ "$LT_STATUS" = 401 ] && n=$((n + 1))
	[ "$n" = 5 ] && revoked=$((revoked + 1))
	LT_URL=$URL_B LT_TOKEN=$TOKEN lt_req GET /api/v1/auth/me
	[ "$LT_STATUS" = 200 ] && others=$((others + 1))
done
is "$ones" "$REFRESH_ROUNDS" "one refresh token sent to both servers at once, $REFRESH_ROUNDS logins: one 200, one 401 each"
is "$revoked" "$REFRESH_ROUNDS" "... the second was a reuse: the login's old and new access tokens and the new refresh token are refused on both servers"
is "$others" "$REFRESH_ROUNDS" "... and another login (the first) is untouched"
is "$(lt_sql "SELECT count(*) FROM audit_log WHERE action = 'auth.refresh_reuse'")" "$REFRESH_ROUNDS" \
    "... each reuse is in the audit trail once"

# --- both servers stayed healthy -------------------------------------------
is "$(cat "$W"/idem.* "$W"/redeem "$W"/punch* "$W"/refresh* 2>/dev/null |
    grep -c '^\(000\|5[0-9][0-9]\) ')" 0 "no request failed or got a 5xx"
is "$(lt_integrity)" ok "amcheck finds the tables and indexes sound after the load"
problems=$(lt_log_problems; grep -E 'AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime error:|child (signaled|signalled)|child exited: [1-9]' \
    "$LT_DIR/lighttpd_b.log")
is "$problems" "" "no sanitizer report or crashed responder in either server's log"

done_testing
