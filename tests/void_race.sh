#!/usr/bin/env bash
# Voids racing redemptions through the real HTTP server: tills voiding the
# same purchase and the same redemption at once while others redeem from
# the same card. Each transaction is voided once (the others get 409
# ALREADY_VOIDED), no redemption overdraws, and the ledger holds to the
# cent: balance = the earnings' remaining sum, and earned = balance +
# redeemed (net of what voids gave back).
. "$top_srcdir/tests/lib.sh"

CLIENTS=8
ROUNDS=4
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

P=$(admin program add --merchant "$DEMO_MERCHANT_ID" --type cashback \
    --title "Void race" --tier Base:0:0.05) || bail "program add"
CARD=$(admin card issue --program "$P" --customer "Race" |
    jq -r .card_instance_id) || bail "card issue"

void_body() {	# TRANSACTION KEY
	printf '{"transaction_id":"%s","reason":"race","location_id":"%s","staff_user_id":"%s","idempotency_key":"%s"}' \
	    "$1" "$LOC" "$STAFF" "$2"
}

# Clients 1-2 void the purchase, 3-4 the redemption (each its own key),
# 5-8 redeem 0.75 each.
racer() {
	case $1 in
	1|2) lt_race_req POST /api/v1/transactions/void "$(void_body "$PURCHASE" "vp-$ROUND-$1")" "$W/vp$ROUND" ;;
	3|4) lt_race_req POST /api/v1/transactions/void "$(void_body "$REDEMPTION" "vr-$ROUND-$1")" "$W/vr$ROUND" ;;
	*) lt_race_req POST /api/v1/cashback/redeem \
	    "{\"card_instance_id\":\"$CARD\",\"location_id\":\"$LOC\",\"staff_user_id\":\"$STAFF\",\"redemption_amount\":0.75,\"purchase_amount\":0.75,\"idempotency_key\":\"rd-$ROUND-$1\"}" \
	    "$W/rd$ROUND" ;;
	esac
}

ledger="SELECT (SELECT cashback_balance FROM cards WHERE id = '$CARD') - (SELECT coalesce(sum(remaining), 0) FROM cashback_earnings WHERE card_id = '$CARD'), (SELECT lifetime_cashback - cashback_balance FROM cards WHERE id = '$CARD') - (SELECT coalesce(sum(redeemed_amount), 0) FROM transactions WHERE card_id = '$CARD' AND type IN ('cashback_redeem', 'void'))"

for ROUND in $(seq 1 $ROUNDS); do
	# 40.00 and 20.00 earn 2.00 and 1.00; a redemption of 1.00 spends
	# from the first. Then the first purchase and the redemption are
	# voided twice each while four tills redeem 0.75.
	for amt in 40.00 20.00; do
		LT_TOKEN=$TOKEN lt_req POST /api/v1/transactions/record \
		    "{\"card_instance_id\":\"$CARD\",\"location_id\":\"$LOC\",\"staff_user_id\":\"$STAFF\",\"purchase_amount\":$amt}"
		[ "$LT_STATUS" = 200 ] || bail "record $amt: $LT_STATUS $LT_BODY"
		[ "$amt" = 40.00 ] && PURCHASE=$(lt_jq .data.transaction_id)
	done
	LT_TOKEN=$TOKEN lt_req POST /api/v1/cashback/redeem \
	    "{\"card_instance_id\":\"$CARD\",\"location_id\":\"$LOC\",\"staff_user_id\":\"$STAFF\",\"redemption_amount\":1.00,\"purchase_amount\":1.00}"
	[ "$LT_STATUS" = 200 ] || bail "redeem: $LT_STATUS $LT_BODY"
	REDEMPTION=$(lt_jq .transaction_id)
	lt_race "$CLIENTS" "$W" racer
	is "$(grep -c '^200 ' "$W/vp$ROUND")|$(grep -c '^409 .*ALREADY_VOIDED' "$W/vp$ROUND")|$(grep -c '^200 ' "$W/vr$ROUND")|$(grep -c '^409 .*ALREADY_VOIDED' "$W/vr$ROUND")" \
	    "1|1|1|1" "round $ROUND: the purchase and the redemption are voided once each; the second void of each is 409 ALREADY_VOIDED"
	is "$(grep -vc '^\(200 \|422 .*INSUFFICIENT_BALANCE\)' "$W/rd$ROUND")" 0 \
	    "... each redemption is made or refused for the balance"
	is "$(lt_sql "SELECT count(*) FROM transactions WHERE type = 'void' AND voided_transaction_id IN ('$PURCHASE', '$REDEMPTION')")" \
	    2 "... one void row for each"
	is "$(lt_sql "$ledger")" "0|0" \
	    "... balance = the remaining sum; earned = balance + redeemed net of voids"
done

is "$(lt_sql "SELECT count(*) FROM cards WHERE id = '$CARD' AND cashback_balance >= 0")" 1 "the balance never went below 0"
is "$(cat "$W"/* 2>/dev/null | grep -c '^\(000\|5[0-9][0-9]\) ')" 0 "no request failed or got a 5xx"
is "$(lt_integrity)" ok "integrity_check is ok after the load"
problems=$(lt_log_problems)
is "$problems" "" "no sanitizer report or crashed responder in the server log"

done_testing
