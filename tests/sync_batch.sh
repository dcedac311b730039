#!/usr/bin/env bash
# One full offline batch over real HTTP (lighttpd + the FastCGI responders,
# a fresh demo database): 100 items mixing good punches captured minutes
# apart and sent out of order, cashback and discount purchases, unknown and
# deactivated cards, items with bad fields, scope violations, punches inside
# the cooldown, a key repeated in the batch and keys recorded earlier
# through record. The per-item results must be exactly the ones computed
# here, with the right counts and 207; sending the batch again must change
# nothing, every success coming back idempotent and every failure failing
# the same way. The time of each send is printed as a diag line.
# TAP; run by `make check`, or by hand with top_srcdir and top_builddir
# exported (absolute paths). LT_KEEP=1 keeps the temp folder.
set -u
export LC_ALL=C
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"

tools="jq curl date"
[ "$LT_BACKEND" = sqlite ] && tools="$tools sqlite3"
for tool in $tools; do
	command -v "$tool" >/dev/null || bail "$tool is not installed (tools/check installs it)"
done

lt_start
lt_login "$DEMO_STAFF_EMAIL" "$DEMO_STAFF_PASSWORD" || bail "staff login failed"
LOC=$LT_LOCATION_ID
ME=$LT_USER_ID
[ -n "$LOC" ] && [ -n "$ME" ] || bail "login gave no user or location"
[ -n "$DEMO_LOCATION2_ID" ] && [ "$DEMO_LOCATION2_ID" != "$LOC" ] ||
    bail "the demo has no second location"

PUNCH=$DEMO_PUNCH_CARD CASH=$DEMO_CASHBACK_CARD DISC=$DEMO_DISCOUNT_CARD
for v in PUNCH CASH DISC DEMO_PUNCH_QR DEMO_CASHBACK_QR DEMO_DISCOUNT_QR \
    DEMO_CASHBACK_BARCODE DEMO_DISCOUNT_BARCODE; do
	[ -n "${!v}" ] || bail "the demo printed no $v"
done

# A deactivated punch card of the same program, issued for this test.
PUNCH_PROG=$(lt_sql "SELECT program_id FROM cards WHERE id = '$PUNCH'") ||
    bail "cannot read the punch card's program"
out=$("$LT_ADMIN" --db "$LT_DB" card issue --program "$PUNCH_PROG" \
    --customer "Ina Active" </dev/null) || bail "card issue failed"
INACT=$(jq -r .card_instance_id <<<"$out")
INACT_BC=$(jq -r .barcode_value <<<"$out")
INACT_QR=$(jq -r .qr_code_data <<<"$out")
[ -n "$INACT" ] && [ -n "$INACT_BC" ] && [ -n "$INACT_QR" ] ||
    bail "card issue printed '$out'"
"$LT_ADMIN" --db "$LT_DB" card deactivate "$INACT" </dev/null >/dev/null ||
    bail "card deactivate failed"

# --- keys recorded online first -------------------------------------------

declare -A REC_TX=()
# record KEY CARD_ID AMOUNT
record() {
	lt_req POST /api/v1/transactions/record "$(printf \
	    '{"card_instance_id":"%s","location_id":"%s","staff_user_id":"%s","purchase_amount":%s,"idempotency_key":"%s"}' \
	    "$2" "$LOC" "$ME" "$3" "$1")"
	[ "$LT_STATUS" = 200 ] || bail "record $1: $LT_STATUS $LT_BODY"
	REC_TX[$1]=$(lt_jq .data.transaction_id)
}
record rec-cash-1 "$CASH" 12.00
record rec-cash-2 "$CASH" 8.50
record rec-disc-1 "$DISC" 30.00
record rec-disc-2 "$DISC" 45.25
record rec-punch-1 "$PUNCH" 4.00	# now: far from the offline punches

# --- the batch, and the results it must give --------------------------------

# Item groups: each entry is "ITEM_JSON<TAB>EXPECTED", EXPECTED being the
# JSON [idempotency_key, success, error, idempotent] of its result.
GA=() GB=() GC=() GD=() GE=() TAIL=()
S="\"location_id\":\"$LOC\",\"staff_user_id\":\"$ME\""
tab=$'\t'

ok_exp() { printf '["%s",true,null,false]' "$1"; }
err_exp() { printf '[%s,false,"%s",null]' "$1" "$2"; }	# KEYJSON CODE

# A: 30 punches captured 2 minutes apart from 08:00, sent in the order
# 0, 7, 14, 21, 28, 5, ... (7 is coprime with 30: each slot once).
# Two days ago, on the hour: within sync_max_age_days, in the past.
BASE=$(( ($(date +%s) / 3600 - 48) * 3600 ))
slot_ts() { date -ud "@$((BASE + $1 * 120 + ${2:-0}))" +%Y-%m-%dT%H:%M:%SZ; }
for i in $(seq 0 29); do
	s=$(( i * 7 % 30 ))
	k=$(printf 'punch-%02d' "$s")
	GA+=("{\"qr_code_data\":\"$DEMO_PUNCH_QR\",$S,\"purchase_amount\":3.$(printf %02d "$s"),\"client_timestamp\":\"$(slot_ts "$s")\",\"pos_terminal_id\":\"till-2\",\"idempotency_key\":\"$k\"}$tab$(ok_exp "$k")")
done

# B: 20 cashback purchases, by id, QR or barcode, half with an offline time.
for i in $(seq 1 20); do
	k=$(printf 'cash-%02d' "$i")
	case $((i % 3)) in
	0) id="\"card_instance_id\":\"$CASH\"" ;;
	1) id="\"qr_code_data\":\"$DEMO_CASHBACK_QR\"" ;;
	2) id="\"barcode_value\":\"$DEMO_CASHBACK_BARCODE\"" ;;
	esac
	ts=
	(( i % 2 )) && ts=",\"client_timestamp\":\"$(slot_ts "$i" 30)\""
	GB+=("{$id,$S,\"purchase_amount\":$((i * 3)).$((i % 10))5$ts,\"idempotency_key\":\"$k\"}$tab$(ok_exp "$k")")
done

# C: 20 discount purchases.
for i in $(seq 1 20); do
	k=$(printf 'disc-%02d' "$i")
	case $((i % 2)) in
	0) id="\"qr_code_data\":\"$DEMO_DISCOUNT_QR\"" ;;
	1) id="\"barcode_value\":\"$DEMO_DISCOUNT_BARCODE\"" ;;
	esac
	GC+=("{$id,$S,\"purchase_amount\":$((i * 7)).25,\"transaction_notes\":\"offline $i\",\"idempotency_key\":\"$k\"}$tab$(ok_exp "$k")")
done

# D: 22 items that fail on their own.
nf() {	# KEY IDENT
	GD+=("{$2,$S,\"purchase_amount\":5.00,\"idempotency_key\":\"$1\"}$tab$(err_exp "\"$1\"" CARD_NOT_FOUND)")
}
nf nf-1 '"qr_code_data":"dW5rbm93bi0x"'
nf nf-2 '"qr_code_data":"dW5rbm93bi1jYXJkLTI="'
nf nf-3 '"qr_code_data":"*** not base64 ***"'
nf nf-4 '"card_instance_id":"00000000-0000-4000-8000-000000000001"'
nf nf-5 '"card_instance_id":"no-such-card"'
nf nf-6 '"barcode_value":"0000000000000"'
ia() {	# KEY IDENT
	GD+=("{$2,$S,\"purchase_amount\":5.00,\"idempotency_key\":\"$1\"}$tab$(err_exp "\"$1\"" CARD_INACTIVE)")
}
ia ina-1 "\"qr_code_data\":\"$INACT_QR\""
ia ina-2 "\"card_instance_id\":\"$INACT\""
ia ina-3 "\"barcode_value\":\"$INACT_BC\""
ia ina-4 "\"qr_code_data\":\"$INACT_QR\",\"card_instance_id\":\"$INACT\""
ia ina-5 "\"card_instance_id\":\"$INACT\",\"client_timestamp\":\"$(slot_ts 40)\""
ia ina-6 "\"barcode_value\":\"$INACT_BC\",\"punch_count\":3"
bad() {	# KEYJSON ITEM
	GD+=("$2$tab$(err_exp "$1" VALIDATION_ERROR)")
}
bad '"bad-1"' "{\"card_instance_id\":\"$CASH\",$S,\"purchase_amount\":\"5.00\",\"idempotency_key\":\"bad-1\"}"
bad '"bad-2"' "{\"card_instance_id\":\"$CASH\",$S,\"purchase_amount\":5.005,\"idempotency_key\":\"bad-2\"}"
bad '"bad-3"' "{\"card_instance_id\":\"$PUNCH\",$S,\"purchase_amount\":5.00,\"punch_count\":0,\"idempotency_key\":\"bad-3\"}"
bad null "{\"card_instance_id\":\"$DISC\",$S,\"purchase_amount\":5.00}"
bad '"bad-5"' "{\"card_instance_id\":\"$DISC\",$S,\"purchase_amount\":5.00,\"client_timestamp\":\"2026-01-01\",\"idempotency_key\":\"bad-5\"}"
bad '"bad-6"' "{\"card_instance_id\":\"$DISC\",\"staff_user_id\":\"$ME\",\"purchase_amount\":5.00,\"idempotency_key\":\"bad-6\"}"
bad null "{\"card_instance_id\":\"$DISC\",$S,\"purchase_amount\":5.00,\"idempotency_key\":12345}"
bad '"bad-8"' "{\"card_instance_id\":\"$DISC\",\"qr_code_data\":\"$DEMO_CASHBACK_QR\",$S,\"purchase_amount\":5.00,\"idempotency_key\":\"bad-8\"}"
for k in fb-1 fb-2; do
	GD+=("{\"card_instance_id\":\"$CASH\",\"location_id\":\"$DEMO_LOCATION2_ID\",\"staff_user_id\":\"$ME\",\"purchase_amount\":5.00,\"idempotency_key\":\"$k\"}$tab$(err_exp "\"$k\"" FORBIDDEN)")
done

# E: the keys recorded online, replayed from the offline queue.
rep() {	# KEY CARD AMOUNT
	GE+=("{\"card_instance_id\":\"$2\",$S,\"purchase_amount\":$3,\"idempotency_key\":\"$1\"}${tab}[\"$1\",true,null,true]")
}
rep rec-cash-1 "$CASH" 12.00
rep rec-disc-1 "$DISC" 30.00
rep rec-punch-1 "$PUNCH" 4.00
rep rec-cash-2 "$CASH" 8.50
rep rec-disc-2 "$DISC" 45.25

# At the end: two punches 10 s after an offline one (cooldown), and a key
# already used earlier in this batch.
TAIL+=("{\"qr_code_data\":\"$DEMO_PUNCH_QR\",$S,\"purchase_amount\":1.00,\"client_timestamp\":\"$(slot_ts 3 10)\",\"idempotency_key\":\"cool-1\"}$tab$(err_exp '"cool-1"' COOLDOWN_ACTIVE)")
TAIL+=("{\"qr_code_data\":\"$DEMO_PUNCH_QR\",$S,\"purchase_amount\":1.00,\"client_timestamp\":\"$(slot_ts 17 -10)\",\"idempotency_key\":\"cool-2\"}$tab$(err_exp '"cool-2"' COOLDOWN_ACTIVE)")
TAIL+=("{\"card_instance_id\":\"$CASH\",$S,\"purchase_amount\":99.00,\"idempotency_key\":\"cash-01\"}${tab}[\"cash-01\",true,null,true]")

# Round robin over the groups, then the tail.
ENTRIES=()
for (( r = 0; r < 30; r++ )); do
	for g in GA GB GC GD GE; do
		declare -n grp=$g
		(( r < ${#grp[@]} )) && ENTRIES+=("${grp[r]}")
		unset -n grp
	done
done
ENTRIES+=("${TAIL[@]}")
[ "${#ENTRIES[@]}" -eq 100 ] || bail "the batch has ${#ENTRIES[@]} items, not 100"

items='' expected='' nok=0
for e in "${ENTRIES[@]}"; do
	items+=${items:+,}${e%%"$tab"*}
	expected+=${expected:+,}${e#*"$tab"}
	[[ ${e#*"$tab"} == *',true,'* ]] && nok=$((nok + 1))
done
BATCH="{\"transactions\":[$items]}"
EXPECTED=$(jq -c . <<<"[$expected]") || bail "the expected list is not JSON"
jq -e '.transactions | length == 100' <<<"$BATCH" >/dev/null ||
    bail "the batch is not JSON"
# The same list with every success now a replay.
EXPECTED2=$(jq -c 'map(if .[1] then .[3] = true else . end)' <<<"$EXPECTED")

# What the results are compared on.
TUPLES='[.data.results[] | [.idempotency_key, .result.success,
    .result.error, .result.idempotent]]'

# Shows where two lists of tuples differ, one diag line per item.
diff_tuples() {	# GOT WANT
	jq -rn --argjson g "$1" --argjson w "$2" '
	    range(0; [($g | length), ($w | length)] | max) as $i |
	    select($g[$i] != $w[$i]) |
	    "item \($i): got \($g[$i] | tojson), want \($w[$i] | tojson)"' |
	    head -30 | while IFS= read -r l; do diag "  $l"; done
}

# Every row a write of the batch could touch, each value typed (quoted
# text, NULL as NULL): SQLite's quote mode, PostgreSQL's JSON of a row.
dump() {
	if [ "$LT_BACKEND" = sqlite ]; then
		sqlite3 -batch -cmd '.mode quote' "$LT_DB" "
		    SELECT * FROM transactions ORDER BY rowid;
		    SELECT * FROM cards ORDER BY id;
		    SELECT * FROM cashback_earnings ORDER BY rowid;
		    SELECT * FROM rewards ORDER BY rowid;
		    SELECT * FROM idempotency_keys ORDER BY merchant_id, key;
		    SELECT * FROM redemption_entries ORDER BY 1, 2;"
		return
	fi
	lt_sql "SELECT row_to_json(t) FROM transactions t ORDER BY rowid;
	    SELECT row_to_json(t) FROM cards t ORDER BY id;
	    SELECT row_to_json(t) FROM cashback_earnings t ORDER BY rowid;
	    SELECT row_to_json(t) FROM rewards t ORDER BY rowid;
	    SELECT row_to_json(t) FROM idempotency_keys t ORDER BY merchant_id, key;
	    SELECT row_to_json(t) FROM redemption_entries t
	        ORDER BY redeem_transaction_id, earning_transaction_id;"
}

ms_now() { date +%s%3N; }

# --- first send ------------------------------------------------------------

ntx_before=$(lt_sql 'SELECT count(*) FROM transactions')
t0=$(ms_now)
lt_req POST /api/v1/transactions/sync "$BATCH"
t1=$(ms_now)
diag "100-item sync batch (first send): $((t1 - t0)) ms"
R1=$LT_BODY

is "$LT_STATUS" 207 "first send: 207"
is "$(lt_jq '.success')" true "first send: envelope success true"
is "$(lt_jq '[.data.total_count, .data.success_count, .data.error_count] | join(" ")')" \
    "100 $nok $((100 - nok))" "first send: total, success and error counts"
GOT=$(lt_jq "$TUPLES | tojson")
ok "first send: every item's key, success, error and idempotent" \
    test "$GOT" = "$EXPECTED" || diff_tuples "$GOT" "$EXPECTED"
is "$(lt_jq '[.data.results[] | select(.result.success) |
    select((.result.transaction_id | type) != "string" or
    (.result.card_type | IN("punch", "cashback", "discount") | not))] | length')" 0 \
    "first send: every success carries a transaction_id and a card_type"
is "$(lt_jq '[.data.results[] | select(.result.success | not) |
    select((.result.message | type) != "string" or .result.message == "" or
    has("transaction_id"))] | length')" 0 \
    "first send: every failure carries a message and no transaction_id"
is "$(lt_jq '[.data.results[] | .result.card_type // empty] | group_by(.) |
    map("\(.[0])=\(length)") | join(" ")')" \
    "cashback=23 discount=22 punch=31" "first send: card types of the successes"

want=
for k in rec-cash-1 rec-disc-1 rec-punch-1 rec-cash-2 rec-disc-2; do
	want+="$k=${REC_TX[$k]} "
done
is "$(lt_jq '[.data.results[] | select(.idempotency_key | tostring | startswith("rec-")) |
    "\(.idempotency_key)=\(.result.transaction_id)"] | join(" ")') " "$want" \
    "first send: record keys replay their original transactions"
is "$(lt_jq '[.data.results[] | select(.idempotency_key == "cash-01") |
    .result.transaction_id] | unique | length')" 1 \
    "first send: a key repeated in the batch replays its first item"

new=$(lt_jq '[.data.results[] | select(.result.success and
    (.result.idempotent | not)) | .result.transaction_id] | unique | length')
is "$new" 70 "first send: 70 new transactions, all distinct"
is "$(lt_sql 'SELECT count(*) FROM transactions')" \
    "$((ntx_before + 70))" "first send: exactly those 70 were written"
ids=$(lt_jq '[.data.results[] | select(.result.success) | .result.transaction_id] |
    unique | map("'"'"'" + . + "'"'"'") | join(",")')
is "$(lt_sql "SELECT count(*) FROM transactions WHERE id IN ($ids)")" 75 \
    "first send: every reported transaction_id is in the database"
# client_timestamp's seconds since 1970 (an ISO 8601 time in UTC).
if [ "$LT_BACKEND" = sqlite ]; then
	epoch="CAST(strftime('%s', client_timestamp) AS INTEGER)"
else
	epoch="CAST(floor(extract(epoch FROM CAST(client_timestamp AS timestamptz))) AS BIGINT)"
fi
is "$(lt_sql "SELECT count(*) FROM transactions WHERE card_id = '$PUNCH'
    AND client_timestamp IS NOT NULL
    AND created_at = $epoch * 1000")" 30 \
    "first send: each offline punch is dated at its client_timestamp"
is "$(lt_sql "SELECT lifetime_punches, current_punches, pending_rewards
    FROM cards WHERE id = '$PUNCH'")" "31|1|3" "first send: punch card counters"
is "$(lt_sql "SELECT (SELECT cashback_balance FROM cards WHERE id = '$CASH') -
    (SELECT coalesce(sum(remaining), 0) FROM cashback_earnings WHERE card_id = '$CASH'),
    (SELECT count(*) FROM cashback_earnings WHERE card_id = '$CASH')")" "0|22" \
    "first send: cashback balance equals its ledger, one earning per purchase"
is "$(lt_sql "SELECT count(*) FROM transactions WHERE card_id = '$INACT'
    OR location_id = '$DEMO_LOCATION2_ID'")" 0 \
    "first send: nothing on the deactivated card or the forbidden location"

# --- second send: the same batch -------------------------------------------

before=$(dump) || bail "cannot dump the database"
t0=$(ms_now)
lt_req POST /api/v1/transactions/sync "$BATCH"
t1=$(ms_now)
diag "100-item sync batch (second send, replays): $((t1 - t0)) ms"
after=$(dump) || bail "cannot dump the database"

is "$LT_STATUS" 207 "second send: 207"
if ! ok "second send: the database is unchanged" test "$before" = "$after"; then
	diff <(printf '%s\n' "$before") <(printf '%s\n' "$after") | head -20 |
	    while IFS= read -r l; do diag "  $l"; done
fi
is "$(lt_jq '[.data.total_count, .data.success_count, .data.error_count] | join(" ")')" \
    "100 $nok $((100 - nok))" "second send: the same counts"
GOT=$(lt_jq "$TUPLES | tojson")
ok "second send: every success is idempotent, every failure the same" \
    test "$GOT" = "$EXPECTED2" || diff_tuples "$GOT" "$EXPECTED2"
sel='[.data.results[] | select(.result.success) | .result.transaction_id]'
is "$(lt_jq "$sel | tojson")" "$(jq -c "$sel" <<<"$R1")" \
    "second send: the successes carry their original transaction_ids"
sel='[.data.results[] | select(.result.success | not)]'
is "$(lt_jq "$sel | tojson")" "$(jq -c "$sel" <<<"$R1")" \
    "second send: the failures fail with the same code and message"

ok "no sanitizer report or crashed responder in the server log" \
    eval '! lt_log_problems'
done_testing
