#!/usr/bin/env bash
# The outbox under concurrency, through the real HTTP server: 8 clients
# x 25 purchases on one card at once, each key sent twice (the second a
# replay) and every fifth purchase followed by one refused (an inactive
# card). The events must equal the committed changes exactly: every
# committed purchase's transaction in exactly one transaction.recorded,
# no event for a replay or a refused write, the seqs in commit order
# (the card's lifetime cashback, which each purchase raises, rises with
# them). LT_BACKEND=postgresql runs it on PostgreSQL (events_race_pg.sh).
. "$top_srcdir/tests/lib.sh"

CLIENTS=8
PER=25
LT_PROCS=4
lt_start
lt_login "$DEMO_STAFF_EMAIL" "$DEMO_STAFF_PASSWORD" || bail "login failed"
LT_RACE_TOKEN=$LT_TOKEN
STAFF=$LT_USER_ID
LOC=$LT_LOCATION_ID
W=$LT_DIR/work
mkdir -p "$W"

admin() { "$LT_ADMIN" --db "$LT_DB" "$@"; }

new_card() {	# TITLE: a card of a new cashback program with two tiers
	local p
	p=$(admin program add --merchant "$DEMO_MERCHANT_ID" --type cashback \
	    --title "$1" --tier Base:0:0.05 --tier Gold:1000:0.10) || bail "program add"
	admin card issue --program "$p" --customer "Racer" | jq -r .card_instance_id
}

CARD=$(new_card "Events race")
DEAD=$(new_card "Events race, inactive")
[ -n "$CARD" ] && [ -n "$DEAD" ] || bail "no cards"
admin card deactivate "$DEAD" >/dev/null || bail "card deactivate"
BASE=$(lt_sql "SELECT coalesce(max(seq), 0) FROM events")

buy() {
	local j a body
	for j in $(seq 1 $PER); do
		a=$(( (j * 211 + $1 * 97) % 1500 + 100 ))
		body="{\"card_instance_id\":\"$CARD\",\"location_id\":\"$LOC\",
		    \"staff_user_id\":\"$STAFF\",
		    \"purchase_amount\":$((a / 100)).$(printf %02d $((a % 100))),
		    \"idempotency_key\":\"ev-$1-$j\"}"
		lt_race_req POST /api/v1/transactions/record "$body" "$W/buy"
		lt_race_req POST /api/v1/transactions/record "$body" "$W/replay"
		[ $((j % 5)) -ne 0 ] || lt_race_req POST /api/v1/transactions/record \
		    "{\"card_instance_id\":\"$DEAD\",\"location_id\":\"$LOC\",
		    \"staff_user_id\":\"$STAFF\",\"purchase_amount\":1.00,
		    \"idempotency_key\":\"dead-$1-$j\"}" "$W/refused"
	done
}
lt_race "$CLIENTS" "$W" buy

N=$((CLIENTS * PER))
count() { grep -c "^$1 " "$2" 2>/dev/null || true; }
is "$(count 200 "$W/buy")" $N "$N purchases from $CLIENTS clients at once: all 200"
is "$(count 200 "$W/replay")" $N "... their $N replays too"
is "$(grep -c '"idempotent":true' "$W/replay")" $N "... each a replay"
is "$(count 409 "$W/refused")" $((CLIENTS * PER / 5)) "... and the purchases on the inactive card are refused (409)"

awk '{ print $2 }' "$W/buy" | jq -r .data.transaction_id | sort >"$W/answered"
lt_sql "SELECT id FROM transactions WHERE card_id = '$CARD'" | sort >"$W/committed"
lt_sql "SELECT data FROM events WHERE seq > $BASE ORDER BY seq" >"$W/events"
lt_sql "SELECT seq FROM events WHERE seq > $BASE ORDER BY seq" >"$W/seqs"
lt_sql "SELECT type FROM events WHERE seq > $BASE ORDER BY seq" >"$W/types"
jq -r 'select(.transaction != null) | .transaction.transaction_id' "$W/events" |
    sort >"$W/evtxn"

is "$(sort -u "$W/answered" | wc -l)" $N "the tills were told $N different transactions"
ok "... exactly the $N committed" cmp -s "$W/answered" "$W/committed"
is "$(wc -l <"$W/evtxn")" $N "$N transaction.recorded events"
is "$(uniq -d "$W/evtxn" | wc -l)" 0 "... no transaction in two of them"
ok "... and their transactions are exactly the committed ones" \
    cmp -s "$W/evtxn" "$W/committed"
is "$(sort "$W/types" | uniq -c | awk '{ printf "%s %s,", $2, $1 }')" \
    "tier.changed 1,transaction.recorded $N," \
    "nothing else: one tier.changed (into Gold), none for a replay or a refused write"
is "$(grep -c "$DEAD" "$W/events")" 0 "... none names the inactive card"
is "$(lt_sql "SELECT count(*) FROM events WHERE seq > $BASE AND merchant_id = '$DEMO_MERCHANT_ID'")" \
    $((N + 1)) "... all of the card's merchant"
is "$(awk 'NR > 1 && $1 <= p { bad++ } { p = $1 } END { print bad + 0 }' "$W/seqs")" 0 \
    "seqs strictly increase"
# Each purchase raises the card's lifetime cashback (5 % or 10 % of at
# least 1.00): in commit order it rises at every event.
is "$(jq -r 'select(.transaction != null) | .card.lifetime_cashback * 100 | round' \
    "$W/events" | awk 'NR > 1 && $1 <= p { bad++ } { p = $1 } END { print bad + 0 }')" 0 \
    "... in commit order: the card's lifetime cashback rises with every event"
is "$(jq -r 'select(.transaction != null) | [.transaction.new_balance, .card.cashback_balance] | map(. * 100 | round) | (.[0] == .[1])' \
    "$W/events" | sort -u)" true "each event's card is the card after its purchase"
is "$(jq -r 'select(has("previous_tier")) | "\(.previous_tier) \(.tier)"' "$W/events")" \
    "Base Gold" "the tier.changed event: Base to Gold"
is "$(lt_sql "SELECT count(*) FROM audit_log WHERE action = 'transaction.record' AND object_id = '$CARD'")" \
    $N "the audit trail agrees: $N purchases recorded"

is "$(cat "$W"/buy "$W"/replay "$W"/refused | grep -c '^\(000\|5[0-9][0-9]\) ')" 0 \
    "no request failed or got a 5xx"
is "$(lt_integrity)" ok "integrity_check is ok after the load"
is "$(lt_log_problems)" "" "no sanitizer report or crashed responder in the server log"

done_testing
