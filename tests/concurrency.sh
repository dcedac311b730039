#!/usr/bin/env bash
# Concurrency through the real HTTP server: several FastCGI processes of
# each responder write one database while 8 client processes hit them at
# once. Nothing may be lost or counted twice. LT_BACKEND=postgresql runs
# it on PostgreSQL (tests/concurrency_pg.sh).
. "$top_srcdir/tests/lib.sh"

CLIENTS=8
LT_PROCS=4
lt_start
lt_login "$DEMO_STAFF_EMAIL" "$DEMO_STAFF_PASSWORD" || bail "login failed"
TOKEN=$LT_TOKEN
LT_RACE_TOKEN=$TOKEN
STAFF=$LT_USER_ID
LOC=$LT_LOCATION_ID
W=$LT_DIR/work
mkdir -p "$W"

admin() { "$LT_ADMIN" --db "$LT_DB" "$@"; }

# hold_write_lock SECONDS: holds the database's write lock that long, as
# another writer would: SQLite's, or on PostgreSQL the advisory lock every
# write transaction takes (LC_PG_WRITE_LOCK, lib/lc_pg.h).
hold_write_lock() {
	local key
	if [ "$LT_BACKEND" = sqlite ]; then
		sqlite3 "$LT_DB" "BEGIN IMMEDIATE;" ".shell sleep $1" "COMMIT;"
		return
	fi
	key=$(sed -n 's/^#define LC_PG_WRITE_LOCK "\([0-9]*\)"$/\1/p' \
	    "$top_srcdir/lib/lc_pg.h")
	[ -n "$key" ] || { echo "no LC_PG_WRITE_LOCK in lib/lc_pg.h" >&2; return 1; }
	lt_pg_sql "$LT_DB" "BEGIN; SELECT pg_advisory_xact_lock($key);
	    SELECT pg_sleep($1); COMMIT" >/dev/null
}

# A new card on a new program of the demo merchant; prints card id.
new_card() {	# TYPE ARGS...
	local p
	p=$(admin program add --merchant "$DEMO_MERCHANT_ID" --type "$@") || bail "program add"
	admin card issue --program "$p" --customer "Concurrent" | jq -r .card_instance_id
}

count() { grep -c "^$1 " "$2" 2>/dev/null || true; }

# --- one idempotency key from 8 clients ------------------------------------
CARD=$(new_card cashback --title "Idem" --tier Base:0:0.05)
same_key() {
	lt_race_req POST /api/v1/transactions/record "{\"card_instance_id\":\"$CARD\",
	    \"location_id\":\"$LOC\",\"staff_user_id\":\"$STAFF\",
	    \"purchase_amount\":20.00,\"idempotency_key\":\"same-key-1\"}" "$W/idem"
}
lt_race "$CLIENTS" "$W" same_key
is "$(count 200 "$W/idem")" "$CLIENTS" "the same key from $CLIENTS clients at once: every client gets 200"
is "$(lt_sql "SELECT count(*) FROM transactions WHERE card_id = '$CARD'")" 1 \
    "... and exactly one transaction is recorded"
is "$(grep -c '"idempotent":true' "$W/idem")" $((CLIENTS - 1)) \
    "... the other $((CLIENTS - 1)) answers are replays"
is "$(awk '{ print $2 }' "$W/idem" | jq -r .data.transaction_id | sort -u | wc -l)" 1 \
    "... all naming the same transaction"
is "$(lt_sql "SELECT cashback_balance FROM cards WHERE id = '$CARD'")" 100 \
    "... and the card earned once (1.00)"

# --- punches with distinct keys: one per cooldown window -------------------
PCARD=$(new_card punch --title "Burst" --punches 10 --reward-title "R" --cooldown 3)
punch() {
	lt_race_req POST /api/v1/transactions/record "{\"card_instance_id\":\"$PCARD\",
	    \"location_id\":\"$LOC\",\"staff_user_id\":\"$STAFF\",
	    \"purchase_amount\":1,\"idempotency_key\":\"punch-$ROUND-$1\"}" "$W/punch$ROUND"
}
ROUND=1 lt_race "$CLIENTS" "$W" punch
is "$(count 200 "$W/punch1")" 1 "$CLIENTS clients punching one card at once: exactly one succeeds"
is "$(count 429 "$W/punch1")" $((CLIENTS - 1)) "... the others get 429 COOLDOWN_ACTIVE"
is "$(grep -c COOLDOWN_ACTIVE "$W/punch1")" $((CLIENTS - 1)) "... with the COOLDOWN_ACTIVE code"
sleep 3.2
ROUND=2 lt_race "$CLIENTS" "$W" punch
is "$(count 200 "$W/punch2")" 1 "after the 3 s cooldown, another burst: exactly one succeeds again"
is "$(lt_sql "SELECT count(*) || ' ' || (SELECT lifetime_punches FROM cards WHERE id = '$PCARD') FROM transactions WHERE card_id = '$PCARD'")" "2 2" \
    "... two punches recorded and counted in two windows"

# --- parallel cashback purchases sum to the cent ---------------------------
CCARD=$(new_card cashback --title "Sum" --tier Base:0:0.05)
PER=20
buy() {	# amounts vary per client and purchase, many with half cents
	local j a
	for j in $(seq 1 $PER); do
		a=$(( (j * 137 + $1 * 53) % 5000 + 1 ))
		lt_race_req POST /api/v1/transactions/record "{\"card_instance_id\":\"$CCARD\",
		    \"location_id\":\"$LOC\",\"staff_user_id\":\"$STAFF\",
		    \"purchase_amount\":$((a / 100)).$(printf %02d $((a % 100))),
		    \"idempotency_key\":\"buy-$1-$j\"}" "$W/buy"
	done
}
lt_race "$CLIENTS" "$W" buy
expect=0
for i in $(seq 1 $CLIENTS); do
	for j in $(seq 1 $PER); do
		a=$(( (j * 137 + i * 53) % 5000 + 1 ))
		expect=$((expect + (a * 500 + 5000) / 10000))
	done
done
is "$(count 200 "$W/buy")" $((CLIENTS * PER)) "$((CLIENTS * PER)) parallel cashback purchases all succeed"
is "$(lt_sql "SELECT cashback_balance FROM cards WHERE id = '$CCARD'")" "$expect" \
    "... the balance is the sum of the parts, to the cent ($expect cents)"
reported=$(awk '{ print $2 }' "$W/buy" | jq -r .data.cashback_earned |
    awk '{ s += sprintf("%.0f", $1 * 100) } END { print s }')
is "$reported" "$expect" "... and equals the sum of the earnings reported to the tills"
is "$(lt_sql "SELECT sum(remaining) FROM cashback_earnings WHERE card_id = '$CCARD'")" "$expect" \
    "... and the ledger's remaining amounts"

# --- 8 clients redeeming 1.00 twenty times against 10.00 -------------------
RCARD=$(new_card cashback --title "Redeem" --tier Base:0:0.02)
LT_TOKEN=$TOKEN lt_req POST /api/v1/transactions/record "{\"card_instance_id\":\"$RCARD\",
    \"location_id\":\"$LOC\",\"staff_user_id\":\"$STAFF\",\"purchase_amount\":500.00}"
is "$(lt_jq .data.new_balance)" 10 "a 500.00 purchase at 2 % gives a 10.00 balance"
redeem() {
	local j
	for j in $(seq 1 20); do
		lt_race_req POST /api/v1/cashback/redeem "{\"card_instance_id\":\"$RCARD\",
		    \"location_id\":\"$LOC\",\"staff_user_id\":\"$STAFF\",
		    \"redemption_amount\":1.00,\"purchase_amount\":5.00,
		    \"idempotency_key\":\"red-$1-$j\"}" "$W/redeem"
	done
}
lt_race "$CLIENTS" "$W" redeem
is "$(count 200 "$W/redeem")" 10 "$CLIENTS clients x 20 redemptions of 1.00 against 10.00: exactly 10 succeed"
is "$(count 422 "$W/redeem")" $((CLIENTS * 20 - 10)) "... all the others are 422 INSUFFICIENT_BALANCE"
is "$(lt_sql "SELECT cashback_balance FROM cards WHERE id = '$RCARD'")" 0 "... the balance is 0.00"
is "$(lt_sql "SELECT coalesce(sum(remaining), 0) FROM cashback_earnings WHERE card_id = '$RCARD'")" 0 \
    "... and the ledger agrees"
is "$(lt_sql "SELECT sum(amount_used) FROM redemption_entries e JOIN transactions t ON t.id = e.redeem_transaction_id WHERE t.card_id = '$RCARD'")" 1000 \
    "... the redemption entries add up to exactly 10.00"

# --- 8 clients claiming 3 pending rewards ----------------------------------
QCARD=$(new_card punch --title "Claims" --punches 10 --reward-title "Gift" --cooldown 0)
LT_TOKEN=$TOKEN lt_req POST /api/v1/transactions/record "{\"card_instance_id\":\"$QCARD\",
    \"location_id\":\"$LOC\",\"staff_user_id\":\"$STAFF\",\"purchase_amount\":1,\"punch_count\":30}"
is "$(lt_jq .data.rewards_earned)" 3 "30 punches on a 10-punch card earn 3 rewards"
claim() {
	lt_race_req POST /api/v1/rewards/claim "{\"card_instance_id\":\"$QCARD\",
	    \"location_id\":\"$LOC\",\"staff_user_id\":\"$STAFF\"}" "$W/claim"
}
lt_race "$CLIENTS" "$W" claim
is "$(count 200 "$W/claim")" 3 "$CLIENTS clients claiming at once on a card with 3 pending rewards: exactly 3 succeed"
is "$(count 409 "$W/claim")" $((CLIENTS - 3)) "... the others get 409 NO_PENDING_REWARDS"
is "$(awk '$1 == 200 { print $2 }' "$W/claim" | jq -r .reward_id | sort -u | wc -l)" 3 \
    "... each success claimed a different reward"
is "$(lt_sql "SELECT pending_rewards || ' ' || (SELECT count(*) FROM rewards WHERE card_id = '$QCARD' AND status = 'claimed') FROM cards WHERE id = '$QCARD'")" "0 3" \
    "... nothing is left pending and 3 are claimed"

# --- tills logging in together are never throttled -------------------------
for i in 1 2 3 4; do
	LT_TOKEN= lt_req POST /api/v1/auth/login "{\"email\":\"$DEMO_STAFF_EMAIL\",\"password\":\"wrong\"}"
done
is "$LT_STATUS" 401 "four wrong passwords: 401, one failure short of the limit"
login_ok() {
	lt_race_req POST /api/v1/auth/login "{\"email\":\"$DEMO_STAFF_EMAIL\",
	    \"password\":\"$DEMO_STAFF_PASSWORD\"}" "$W/logins"
}
lt_race "$CLIENTS" "$W" login_ok
is "$(count 200 "$W/logins")" $CLIENTS "then $CLIENTS tills logging in at once with the right password all get in"

# --- a sync batch against a locked database answers in bounded time -------
SCARD=$(new_card cashback --title "Locked" --tier Base:0:0.05)
items=$(for i in $(seq 1 10); do
	printf '{"card_instance_id":"%s","location_id":"%s","staff_user_id":"%s","purchase_amount":1.00,"idempotency_key":"locked-%d"},' \
	    "$SCARD" "$LOC" "$STAFF" "$i"
done)
batch="{\"transactions\":[${items%,}]}"
hold_write_lock 24 &
locker=$!
sleep 0.5
t0=$(date +%s)
LT_TOKEN=$TOKEN lt_req POST /api/v1/transactions/sync "$batch"
took=$(( $(date +%s) - t0 ))
is "$LT_STATUS" 207 "a 10-item sync while another process holds the write lock: 207"
is "$(lt_jq '[.data.results[].result.error] | unique | join(",")')" DATABASE_ERROR \
    "... every item is DATABASE_ERROR (transient: the till resends it)"
ok "... and it answered in ${took} s, within the batch deadline, not 10 x the busy timeout" \
    test "$took" -le 22
wait "$locker"
LT_TOKEN=$TOKEN lt_req POST /api/v1/transactions/sync "$batch"
is "$LT_STATUS:$(lt_jq .data.success_count)" 200:10 "once the lock is gone the resent batch records all 10"
is "$(lt_sql "SELECT count(*) FROM transactions WHERE card_id = '$SCARD'")" 10 \
    "... each exactly once"

# --- the server stayed healthy ---------------------------------------------
is "$(cat "$W"/* 2>/dev/null | grep -c '^\(000\|5[0-9][0-9]\) ')" 0 "no request failed or got a 5xx"
is "$(lt_integrity)" ok "integrity_check is ok after the load"
problems=$(lt_log_problems)
is "$problems" "" "no sanitizer report or crashed responder in the server log"

done_testing
