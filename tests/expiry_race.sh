#!/usr/bin/env bash
# Lazy cashback expiry under concurrency, through the real HTTP server:
# tills (and the customer's page) reading one card at the same moment,
# with earnings due, record each expiry exactly once, to the cent, and
# every reader sees the balance after it.
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
    --title "Expiring" --tier Base:0:0.05 --expiry-days 30) || bail "program add"
issued=$(admin card issue --program "$P" --customer "Race") || bail "card issue"
CARD=$(jq -r .card_instance_id <<<"$issued")
BARCODE=$(jq -r .barcode_value <<<"$issued")
SHARE=$(jq -r .share_token <<<"$issued")

# Each client reads the card as a till, its history, or the customer's page.
reader() {
	case $(($1 % 4)) in
	0) lt_race_req GET "/api/v1/mycard/$SHARE" "" "$W/page$ROUND" ;;
	1) lt_race_req GET "/api/v1/transactions/history?card_instance_id=$CARD" "" \
	    "$W/hist$ROUND" ;;
	*) lt_race_req POST /api/v1/cards/lookup "{\"barcode_value\":\"$BARCODE\"}" \
	    "$W/look$ROUND" ;;
	esac
}

expired=0
for ROUND in $(seq 1 $ROUNDS); do
	# Three purchases of 20.00, 40.00 and 2.99 (1.00, 2.00 and 0.15), a
	# part of the first spent, then the first two made due.
	for amt in 20.00 40.00 2.99; do
		LT_TOKEN=$TOKEN lt_req POST /api/v1/transactions/record \
		    "{\"card_instance_id\":\"$CARD\",\"location_id\":\"$LOC\",\"staff_user_id\":\"$STAFF\",\"purchase_amount\":$amt}"
		[ "$LT_STATUS" = 200 ] || bail "record $amt: $LT_STATUS $LT_BODY"
	done
	LT_TOKEN=$TOKEN lt_req POST /api/v1/cashback/redeem \
	    "{\"card_instance_id\":\"$CARD\",\"location_id\":\"$LOC\",\"staff_user_id\":\"$STAFF\",\"redemption_amount\":0.37,\"purchase_amount\":1.00}"
	[ "$LT_STATUS" = 200 ] || bail "redeem: $LT_STATUS $LT_BODY"
	due=$(lt_sql "SELECT sum(remaining) FROM cashback_earnings WHERE card_id = '$CARD' AND remaining > 0 AND amount IN (100, 200)")
	lt_sql "UPDATE cashback_earnings SET expires_at = 1700000000000 + $ROUND WHERE card_id = '$CARD' AND remaining > 0 AND amount IN (100, 200)"
	expired=$((expired + due))
	before=$(lt_sql "SELECT cashback_balance FROM cards WHERE id = '$CARD'")
	lt_race "$CLIENTS" "$W" reader
	is "$(cat "$W"/*"$ROUND" | grep -c '^200 ')" "$CLIENTS" \
	    "round $ROUND: $CLIENTS readers of a card with $due cents due at once all get 200" ||
	    diag "$(cat "$W"/*"$ROUND" | grep -v '^200 ' | cut -c1-400)"
	is "$(lt_sql "SELECT count(*), sum(expired_amount) FROM transactions WHERE card_id = '$CARD' AND type = 'expiry' AND created_at = 1700000000000 + $ROUND")" \
	    "2|$due" "... the two due earnings expire once each, $due cents in all"
	is "$(lt_sql "SELECT count(*) FROM audit_log WHERE action = 'cashback.expire' AND object_id = '$CARD'")" \
	    "$ROUND" "... and the audit trail has one row of it, by the service"
	is "$(lt_sql "SELECT cashback_balance FROM cards WHERE id = '$CARD'")" \
	    "$((before - due))" "... the balance is less by exactly that"
	is "$(cut -d' ' -f2- "$W/look$ROUND" |
	    jq '.data.cashback_balance * 100 | round' | sort -u)" \
	    "$(lt_sql "SELECT cashback_balance FROM cards WHERE id = '$CARD'")" \
	    "... and every till read that balance"
done

is "$(lt_sql "SELECT coalesce(sum(expired_amount), 0) FROM transactions WHERE card_id = '$CARD' AND type = 'expiry'")" \
    "$expired" "all rounds: the expiries sum to what was due ($expired cents)"
is "$(lt_sql "SELECT (SELECT cashback_balance FROM cards WHERE id = '$CARD') - (SELECT sum(remaining) FROM cashback_earnings WHERE card_id = '$CARD')")" \
    0 "the balance equals the ledger's remaining sum"
is "$(lt_sql "SELECT lifetime_cashback - cashback_balance - (SELECT sum(redeemed_amount) FROM transactions WHERE card_id = '$CARD' AND type = 'cashback_redeem') - (SELECT sum(expired_amount) FROM transactions WHERE card_id = '$CARD' AND type = 'expiry') FROM cards WHERE id = '$CARD'")" \
    0 "earned = balance + redeemed + expired, to the cent"
is "$(cat "$W"/* 2>/dev/null | grep -c '^\(000\|5[0-9][0-9]\) ')" 0 "no request failed or got a 5xx"
is "$(lt_integrity)" ok "integrity_check is ok after the load"
problems=$(lt_log_problems)
is "$problems" "" "no sanitizer report or crashed responder in the server log"

done_testing
