#!/usr/bin/env bash
# docs/openapi.yaml against the service, so the document cannot drift from
# it. TAP output.
#
# 1. The linter: Redocly CLI, run from the repository's root without
#    --config, as anyone would run it, so that the project's redocly.yaml
#    there is the configuration it applies; no error and no warning pass.
#    It runs when it is installed in $OPENAPI_LINT_DIR (default
#    ~/.cache/loyalty-pos/redocly-cli), from there without the network;
#    install it once with
#        bash -c '. tools/lib.sh && lc_install_redocly'
#    (the version CI pins, LC_REDOCLY_VERSION). Without it (or without
#    node) the point is skipped, saying why; it fails instead when
#    LC_REQUIRE_OPENAPI_LINT=1 (CI: .ci/run installs it and sets that).
# 2. The document against the code (tests/openapi_check.py --doc): its
#    examples against its schemas, the endpoint table (lib/endpoints.def),
#    the error table (lib/err.c), the limits (lib/lc_limits.h) and the
#    settings (lib/settings.c).
# 3. Live answers: the demo shop served by lighttpd (lt_start), every
#    endpoint called, successes and errors; then a new installation for
#    setup. Each answer is checked against the schema its operation
#    documents for its status, with its headers (tests/openapi_check.py
#    --live), and every operation must have had a checked 2xx answer.
#
# Needs python3 with PyYAML (Debian: python3-yaml); without it everything
# but the linter is skipped.
. "$top_srcdir/tests/lib.sh"

SPEC=$top_srcdir/docs/openapi.yaml
CHECK=$top_srcdir/tests/openapi_check.py
LINT_DIR=${OPENAPI_LINT_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/loyalty-pos/redocly-cli}

# Turns the checker's PASS/FAIL/DIAG/SKIP lines into TAP points.
points() {
	local kind rest
	while IFS=' ' read -r kind rest; do
		case $kind in
		PASS) tap_result 0 "$rest" ;;
		FAIL) tap_result 1 "$rest" ;;
		DIAG) diag "$rest" ;;
		SKIP) skip 1 "$rest" ;;
		*) tap_result 1 "checker said: $kind $rest" ;;
		esac
	done
}

# --- 1. the linter ------------------------------------------------------------

redocly=$LINT_DIR/node_modules/.bin/redocly
# No linter: skipped, or failed where it must run.
nolint() {
	if [ "${LC_REQUIRE_OPENAPI_LINT:-0}" = 1 ]; then
		tap_result 1 "Redocly CLI lint of docs/openapi.yaml: $1 (LC_REQUIRE_OPENAPI_LINT=1)"
	else
		skip 1 "$1"
	fi
}
if ! command -v node >/dev/null; then
	nolint "no node: Redocly CLI lint not run"
elif [ ! -x "$redocly" ]; then
	nolint "Redocly CLI is not in $LINT_DIR (bash -c '. tools/lib.sh && lc_install_redocly'): lint not run"
else
	out=$(cd "$top_srcdir" && REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true \
	    npm_config_offline=true timeout 300 "$redocly" lint docs/openapi.yaml 2>&1)
	rc=$?
	# Without a configuration of its own it says so and lints with its
	# defaults (hundreds of warnings); a warning is a failure here too.
	case $out in
	*'No configurations were provided'* | *'You have '*' warning'*) [ $rc -ne 0 ] || rc=1 ;;
	esac
	tap_result $rc "Redocly CLI lint of docs/openapi.yaml from the root with its redocly.yaml ($("$redocly" --version 2>/dev/null | head -n 1))" ||
	    printf '%s\n' "$out" | grep -v '[║╔╚]' | tail -n 40 | while IFS= read -r l; do diag "$l"; done
fi

if ! python3 -c 'import yaml' 2>/dev/null; then
	skip 1 "python3 cannot import yaml (Debian: apt-get install python3-yaml): document not checked"
	done_testing
	exit $?
fi

# --- 2. the document against the code ------------------------------------------

points < <(python3 "$CHECK" "$SPEC" "$top_srcdir" --doc)

# The audit log's actions and types of object: the document's enums are
# lib/audit.c's lists (which the filters and every written row obey).
audit_lists() {
	python3 - "$SPEC" "$top_srcdir/lib/audit.c" <<'PY'
import re, sys, yaml
doc = yaml.safe_load(open(sys.argv[1]))["components"]["schemas"]
src = open(sys.argv[2]).read()
# action_words: { "action", "its words" } pairs, the action first.
for name, arr, item in (("AuditAction", r"action_words\[\]\[2\]", r'\{\s*"([^"]+)"'),
                        ("AuditObjectType", r"object_types\[\]", r'"([^"]+)"')):
    m = re.search(r"const char \*const " + arr + r" = \{(.*?)\n\};", src, re.S)
    code = sorted(re.findall(item, m.group(1))) if m else []
    print(name, "same" if code and sorted(doc[name]["enum"]) == code else
          "differs: code %s, document %s" % (code, sorted(doc[name]["enum"])))
PY
}
is "$(audit_lists)" "AuditAction same
AuditObjectType same" "the document's audit actions and object types are lib/audit.c's lists"

# --- 3. live answers -------------------------------------------------------------

REC=$(mktemp -d "${TMPDIR:-/tmp}/openapi-live.XXXXXX") || bail "mktemp"
rec_n=0
# The recording goes with the server's folder, unless LT_KEEP is set.
rec_done() {
	if [ -n "$LT_KEEP" ]; then diag "kept $REC"; else rm -rf "$REC"; fi
}

# call DESC METHOD PATH [BODY [CURL_ARGS...]]: lt_req, recorded for the
# checker. RID=... before it sends that X-Request-Id (checked as echoed).
# SHOP_DECIMALS is the decimals of the shop the request is made in (the
# checker's `x-decimals: currency` where the answer does not say).
SHOP_DECIMALS=2
call() {
	local desc=$1 f
	shift
	if [ -n "${RID:-}" ]; then
		[ $# -ge 3 ] || set -- "$1" "$2" ""
		set -- "$@" -H "X-Request-Id: $RID"
	fi
	lt_req "$@"
	rec_n=$((rec_n + 1))
	f=$(printf '%s/%04d' "$REC" "$rec_n")
	cp "$LT_DIR/resp.headers" "$f.headers" 2>/dev/null || : >"$f.headers"
	cp "$LT_DIR/resp.body" "$f.body" 2>/dev/null || : >"$f.body"
	printf '%s\n%s\n%s\n%s\n%s\n' "$1" "$2" "$desc" "${RID:-}" "$SHOP_DECIMALS" >"$f.req"
}

json() { jq -cn "$@"; }

lt_start
trap 'lt_stop; rec_done' EXIT
L1=$DEMO_LOCATION_ID
L2=$DEMO_LOCATION2_ID
TODAY=$(date -u +%F)

# Auth.
call "staff login" POST /api/v1/auth/login \
    "$(json --arg e "$DEMO_STAFF_EMAIL" --arg p "$DEMO_STAFF_PASSWORD" '{email: $e, password: $p}')"
STAFF=$(lt_jq .access_token)
STAFF_ID=$(lt_jq .user.id)
LT_TOKEN=
call "wrong password" POST /api/v1/auth/login \
    "$(json --arg e "$DEMO_STAFF_EMAIL" '{email: $e, password: "wrong"}')"
call "login without password" POST /api/v1/auth/login '{"email":"a@b.example"}'
call "login as text/plain" POST /api/v1/auth/login '{}' -H 'Content-Type: text/plain'
head -c 1048577 /dev/zero | tr '\0' ' ' >"$REC/big.json"
call "a body over 1 MiB" POST /api/v1/auth/login "@$REC/big.json"
call "login that is not JSON" POST /api/v1/auth/login '{"email":'
for i in 1 2 3 4 5; do
	call "failed login $i of an unknown e-mail" POST /api/v1/auth/login \
	    '{"email":"nobody@demo.example","password":"guess"}'
done
call "a login past the failure limit" POST /api/v1/auth/login \
    '{"email":"nobody@demo.example","password":"guess"}'
call "login with GET" GET /api/v1/auth/login

LT_TOKEN=$STAFF
RID=till-7.req_42 call "me with the client's X-Request-Id" GET /api/v1/auth/me
call "me" GET /api/v1/auth/me
call "me with POST" POST /api/v1/auth/me '{}'
LT_TOKEN=
call "me without a token" GET /api/v1/auth/me
LT_TOKEN=not-a-token
call "me with a garbage token" GET /api/v1/auth/me

# Refresh, on a login of its own (a reuse revokes the whole login).
LT_TOKEN=
call "a second staff login" POST /api/v1/auth/login \
    "$(json --arg e "$DEMO_STAFF_EMAIL" --arg p "$DEMO_STAFF_PASSWORD" '{email: $e, password: $p}')"
R1=$(lt_jq .refresh_token)
call "refresh" POST /api/v1/auth/refresh "$(json --arg r "$R1" '{refresh_token: $r}')"
call "a rotated refresh token again" POST /api/v1/auth/refresh "$(json --arg r "$R1" '{refresh_token: $r}')"
call "refresh without the token" POST /api/v1/auth/refresh '{}'
call "refresh with a number" POST /api/v1/auth/refresh '{"refresh_token":42}'

# Logout, on a login of its own.
call "a third staff login" POST /api/v1/auth/login \
    "$(json --arg e "$DEMO_STAFF_EMAIL" --arg p "$DEMO_STAFF_PASSWORD" '{email: $e, password: $p}')"
R3=$(lt_jq .refresh_token)
LT_TOKEN=$(lt_jq .access_token)
call "logout" POST /api/v1/auth/logout "$(json --arg r "$R3" '{refresh_token: $r}')"
call "logout again" POST /api/v1/auth/logout '{}'
call "logout with a number" POST /api/v1/auth/logout '{"refresh_token":42}'
LT_TOKEN=
call "logout with nothing" POST /api/v1/auth/logout '{}'

LT_TOKEN=$STAFF
# Lookup.
call "lookup punch by barcode" POST /api/v1/cards/lookup \
    "$(json --arg b "$DEMO_PUNCH_BARCODE" '{barcode_value: $b}')"
call "lookup cashback by QR" POST /api/v1/cards/lookup \
    "$(json --arg q "$DEMO_CASHBACK_QR" '{qr_code_data: $q}')"
call "lookup discount by QR" POST /api/v1/cards/lookup \
    "$(json --arg q "$DEMO_DISCOUNT_QR" '{qr_code_data: $q}')"
call "lookup with both codes" POST /api/v1/cards/lookup \
    "$(json --arg q "$DEMO_DISCOUNT_QR" --arg b "$DEMO_PUNCH_BARCODE" '{qr_code_data: $q, barcode_value: $b}')"
call "lookup of an unknown barcode" POST /api/v1/cards/lookup '{"barcode_value":"2000000000008"}'
call "lookup with GET" GET /api/v1/cards/lookup
LT_TOKEN=
call "lookup without a token" POST /api/v1/cards/lookup '{"barcode_value":"2000000000008"}'
LT_TOKEN=$STAFF

# Enrolment at the counter, and the customer's own page of each card.
call "programs to enrol" GET /api/v1/cards/enrol
P_PUNCH=$(lt_jq '[.data.programs[] | select(.card_type == "punch")][0].id')
P_CASH=$(lt_jq '[.data.programs[] | select(.card_type == "cashback")][0].id')
P_DISC=$(lt_jq '[.data.programs[] | select(.card_type == "discount")][0].id')
call "enrol a punch card" POST /api/v1/cards/enrol \
    "$(json --arg p "$P_PUNCH" '{program_id: $p, customer_name: "Nina New", idempotency_key: "oa-enrol"}')"
SHARE_PUNCH=$(lt_jq .data.share_token)
call "the same enrolment replayed" POST /api/v1/cards/enrol \
    "$(json --arg p "$P_PUNCH" '{program_id: $p, customer_name: "Nina New", idempotency_key: "oa-enrol"}')"
call "enrol a cashback card" POST /api/v1/cards/enrol \
    "$(json --arg p "$P_CASH" --arg l "$L1" '{program_id: $p, customer_name: "Cai Cash", location_id: $l}')"
SHARE_CASH=$(lt_jq .data.share_token)
call "enrol a discount card" POST /api/v1/cards/enrol \
    "$(json --arg p "$P_DISC" '{program_id: $p, customer_name: "Dot Disc"}')"
SHARE_DISC=$(lt_jq .data.share_token)
call "enrol without a name" POST /api/v1/cards/enrol "$(json --arg p "$P_PUNCH" '{program_id: $p}')"
call "enrol for an unknown program" POST /api/v1/cards/enrol \
    '{"program_id":"00000000-0000-4000-8000-000000000000","customer_name":"X"}'
call "enrol at another location" POST /api/v1/cards/enrol \
    "$(json --arg p "$P_PUNCH" --arg l "$L2" '{program_id: $p, customer_name: "X", location_id: $l}')"
call "enrol as text/plain" POST /api/v1/cards/enrol '{}' -H 'Content-Type: text/plain'
call "enrol with PATCH" PATCH /api/v1/cards/enrol '{}'
LT_TOKEN=
call "enrol without a token" GET /api/v1/cards/enrol
call "a punch card's own page" GET "/api/v1/mycard/$SHARE_PUNCH"
call "a cashback card's own page" GET "/api/v1/mycard/$SHARE_CASH"
call "a discount card's own page" GET "/api/v1/mycard/$SHARE_DISC"
call "a card page's QR code" GET "/api/v1/mycard/$SHARE_PUNCH/qr.svg"
call "a card page's barcode" GET "/api/v1/mycard/$SHARE_CASH/barcode.svg"
call "a card page's link as a QR code" GET "/api/v1/mycard/$SHARE_CASH/link.svg"
call "an unknown card page" GET /api/v1/mycard/0123456789abcdef0123456789abcdef
call "a malformed card page" GET /api/v1/mycard/NOT-A-TOKEN
call "the QR code of an unknown card page" GET /api/v1/mycard/0123456789abcdef0123456789abcdef/qr.svg
call "a card page with POST" POST "/api/v1/mycard/$SHARE_PUNCH" '{}'
call "the card pages' root" GET /api/v1/mycard
call "a card page's new link, asked from the page" POST "/api/v1/mycard/$SHARE_DISC/redraw" '{}'
call "a new link for an unknown card page" POST /api/v1/mycard/0123456789abcdef0123456789abcdef/redraw '{}'
LT_TOKEN=$STAFF

# Record.
purchase() {	# CARD_FIELD VALUE AMOUNT [EXTRA_JQ]
	json --arg k "$1" --arg v "$2" --argjson a "$3" --arg l "$L1" --arg s "$STAFF_ID" \
	    "{(\$k): \$v, location_id: \$l, staff_user_id: \$s, purchase_amount: \$a} ${4:+| . + $4}"
}
call "record 12 punches (a reward, carry-over)" POST /api/v1/transactions/record \
    "$(purchase card_instance_id "$DEMO_PUNCH_CARD" 4.50 '{punch_count: 12, idempotency_key: "oa-p1"}')"
call "the same record replayed" POST /api/v1/transactions/record \
    "$(purchase card_instance_id "$DEMO_PUNCH_CARD" 4.50 '{punch_count: 12, idempotency_key: "oa-p1"}')"
call "a punch within the cooldown" POST /api/v1/transactions/record \
    "$(purchase qr_code_data "$DEMO_PUNCH_QR" 4.50)"
call "record cashback (tier changes)" POST /api/v1/transactions/record \
    "$(purchase card_instance_id "$DEMO_CASHBACK_CARD" 120 '{transaction_notes: "Table 4", pos_reference_id: "R-1001", pos_terminal_id: "till-1", idempotency_key: "oa-c1", client_timestamp: "2026-11-02T10:15:00Z"}')"
call "record discount (rounding)" POST /api/v1/transactions/record \
    "$(purchase barcode_value "$DEMO_DISCOUNT_BARCODE" 19.99)"
call "record at another location" POST /api/v1/transactions/record \
    "$(purchase card_instance_id "$DEMO_CASHBACK_CARD" 12 "{location_id: \"$L2\"}")"
call "record with three decimals" POST /api/v1/transactions/record \
    "$(purchase card_instance_id "$DEMO_CASHBACK_CARD" 12.345)"
call "record on an unknown card" POST /api/v1/transactions/record \
    "$(purchase barcode_value 2000000000008 12)"
call "record with a record key sent to redeem later" POST /api/v1/transactions/record \
    "$(purchase card_instance_id "$DEMO_CASHBACK_CARD" 1 '{idempotency_key: "oa-kind"}')"

# History.
call "history of the punch card" GET "/api/v1/transactions/history?card_instance_id=$DEMO_PUNCH_CARD"
call "history filtered and paged" GET \
    "/api/v1/transactions/history?card_instance_id=$DEMO_CASHBACK_CARD&transaction_type=cashback&from_date=2026-01-01&to_date=${TODAY}T23:59:59Z&page=1&page_size=5"
call "history past the last page" GET "/api/v1/transactions/history?card_instance_id=$DEMO_CASHBACK_CARD&page=9"
call "history with page 0" GET "/api/v1/transactions/history?card_instance_id=$DEMO_CASHBACK_CARD&page=0"
call "history without a card" GET "/api/v1/transactions/history"
call "history of an unknown card" GET "/api/v1/transactions/history?card_instance_id=nope"

# Sync.
ago() { date -u -d "-$1" +%FT%TZ; }
call "sync of two items that succeed" POST /api/v1/transactions/sync "$(json \
    --arg b "$DEMO_PUNCH_BARCODE" --arg q "$DEMO_DISCOUNT_QR" --arg l "$L1" --arg s "$STAFF_ID" \
    --arg t1 "$(ago '2 hours')" --arg t2 "$(ago '1 hour')" '{transactions: [
      {barcode_value: $b, location_id: $l, staff_user_id: $s, purchase_amount: 3.2, idempotency_key: "oa-s1", client_timestamp: $t1},
      {qr_code_data: $q, location_id: $l, staff_user_id: $s, purchase_amount: 18, idempotency_key: "oa-s2", client_timestamp: $t2}]}')"
call "sync with failing items" POST /api/v1/transactions/sync "$(json \
    --arg c "$DEMO_CASHBACK_CARD" --arg l "$L1" --arg l2 "$L2" --arg s "$STAFF_ID" \
    --arg old "$(ago '40 days')" '{transactions: [
      {card_instance_id: $c, location_id: $l, staff_user_id: $s, purchase_amount: 3, idempotency_key: "oa-s1"},
      {barcode_value: "2000000000008", location_id: $l, staff_user_id: $s, purchase_amount: 3, idempotency_key: "oa-s3"},
      {card_instance_id: $c, location_id: $l, staff_user_id: $s, purchase_amount: 3, idempotency_key: "oa-s4", client_timestamp: $old},
      {card_instance_id: $c, location_id: $l2, staff_user_id: $s, purchase_amount: 3, idempotency_key: "oa-s5"},
      {card_instance_id: $c, location_id: $l, staff_user_id: $s, purchase_amount: 3},
      {card_instance_id: $c, location_id: $l, staff_user_id: $s, purchase_amount: 3, idempotency_key: "oa-s6"}]}')"
call "sync of an empty batch" POST /api/v1/transactions/sync '{"transactions":[]}'

# Claim.
claim() {	# CARD [EXTRA_JQ]
	json --arg c "$1" --arg l "$L1" --arg s "$STAFF_ID" \
	    "{card_instance_id: \$c, location_id: \$l, staff_user_id: \$s} ${2:+| . + $2}"
}
call "claim the pending reward" POST /api/v1/rewards/claim "$(claim "$DEMO_PUNCH_CARD" '{idempotency_key: "oa-cl1"}')"
call "the same claim replayed" POST /api/v1/rewards/claim "$(claim "$DEMO_PUNCH_CARD" '{idempotency_key: "oa-cl1"}')"
call "claim with nothing pending" POST /api/v1/rewards/claim "$(claim "$DEMO_PUNCH_CARD")"
call "claim on a cashback card" POST /api/v1/rewards/claim "$(claim "$DEMO_CASHBACK_CARD")"
call "claim as another staff member" POST /api/v1/rewards/claim \
    "$(claim "$DEMO_PUNCH_CARD" '{staff_user_id: "00000000-0000-4000-8000-000000000000"}')"
call "claim without a card" POST /api/v1/rewards/claim '{}'

# Redeem.
redeem() {	# CARD AMOUNT PURCHASE [EXTRA_JQ]
	json --arg c "$1" --argjson r "$2" --argjson p "$3" --arg l "$L1" --arg s "$STAFF_ID" \
	    "{card_instance_id: \$c, redemption_amount: \$r, purchase_amount: \$p, location_id: \$l, staff_user_id: \$s} ${4:+| . + $4}"
}
call "redeem, earning on the remainder" POST /api/v1/cashback/redeem \
    "$(redeem "$DEMO_CASHBACK_CARD" 2 10 '{earn_on_remainder: true, idempotency_key: "oa-r1", transaction_notes: "half price"}')"
REDEEM1=$(lt_jq .transaction_id)
call "the same redemption replayed" POST /api/v1/cashback/redeem \
    "$(redeem "$DEMO_CASHBACK_CARD" 2 10 '{earn_on_remainder: true, idempotency_key: "oa-r1", transaction_notes: "half price"}')"
call "redeem without earning" POST /api/v1/cashback/redeem "$(redeem "$DEMO_CASHBACK_CARD" 0.1 1)"
call "redeem above the balance" POST /api/v1/cashback/redeem "$(redeem "$DEMO_CASHBACK_CARD" 500 600)"
call "redeem above the purchase" POST /api/v1/cashback/redeem "$(redeem "$DEMO_CASHBACK_CARD" 5 4)"
call "redeem on a punch card" POST /api/v1/cashback/redeem "$(redeem "$DEMO_PUNCH_CARD" 1 4)"
call "redeem with a record's key" POST /api/v1/cashback/redeem \
    "$(redeem "$DEMO_CASHBACK_CARD" 0.1 1 '{idempotency_key: "oa-kind"}')"

# Void.
void() {	# TRANSACTION [EXTRA_JQ]
	json --arg t "$1" --arg l "$L1" --arg s "$STAFF_ID" \
	    "{transaction_id: \$t, reason: \"Keyed 45.00 for 4.50\", location_id: \$l, staff_user_id: \$s} ${2:+| . + $2}"
}
call "a purchase to void" POST /api/v1/transactions/record \
    "$(purchase card_instance_id "$DEMO_CASHBACK_CARD" 45)"
VOIDED=$(lt_jq .data.transaction_id)
call "void the purchase" POST /api/v1/transactions/void "$(void "$VOIDED" '{idempotency_key: "oa-v1"}')"
VOID1=$(lt_jq .data.transaction_id)
call "the same void replayed" POST /api/v1/transactions/void "$(void "$VOIDED" '{idempotency_key: "oa-v1"}')"
call "void it a second time" POST /api/v1/transactions/void "$(void "$VOIDED")"
call "void a void" POST /api/v1/transactions/void "$(void "$VOID1")"
call "void without a reason" POST /api/v1/transactions/void "$(void "$VOIDED" '{reason: " "}')"
call "void at another location" POST /api/v1/transactions/void "$(void "$VOIDED" "{location_id: \"$L2\"}")"
call "void an unknown transaction" POST /api/v1/transactions/void "$(void 00000000-0000-4000-8000-000000000000)"
call "void with PUT" PUT /api/v1/transactions/void '{}'
call "what the cashier may still void" GET "/api/v1/transactions/void?location_id=$L1&staff_user_id=$STAFF_ID"
call "the voidable list without staff_user_id" GET "/api/v1/transactions/void?location_id=$L1"
call "history with a void and its original" GET "/api/v1/transactions/history?card_instance_id=$DEMO_CASHBACK_CARD&page_size=3"

# Staff on the owner's API; setup on a shop that has its owner.
call "staff token on the owner's API" GET /api/v1/admin/locations
call "setup once an owner exists" GET /api/v1/setup
call "setup POST once an owner exists" POST /api/v1/setup '{}'
call "a path of no endpoint" GET /api/v1/nothing/here
call "a path of no endpoint, POST" POST /api/v1/cards '{}'

# The owner.
LT_TOKEN=
call "owner login" POST /api/v1/auth/login \
    "$(json --arg e "$DEMO_OWNER_EMAIL" --arg p "$DEMO_OWNER_PASSWORD" '{email: $e, password: $p}')"
OWNER=$(lt_jq .access_token)
OWNER_ID=$(lt_jq .user.id)
LT_TOKEN=$OWNER
call "owner's me" GET /api/v1/auth/me

call "list locations" GET /api/v1/admin/locations
call "add a location" POST /api/v1/admin/locations '{"name":"Station Kiosk","idempotency_key":"oa-loc"}'
LOC=$(lt_jq .data.location.id)
call "the same location replayed" POST /api/v1/admin/locations '{"name":"Station Kiosk","idempotency_key":"oa-loc"}'
call "rename a location" PATCH "/api/v1/admin/locations/$LOC" '{"name":"Station Kiosk 2"}'
call "rename an unknown location" PATCH /api/v1/admin/locations/00000000-0000-4000-8000-000000000000 '{"name":"x"}'
call "a location id of the wrong form" PATCH /api/v1/admin/locations/42 '{"name":"x"}'
call "add a location without a name" POST /api/v1/admin/locations '{}'
call "PATCH on the location list" PATCH /api/v1/admin/locations '{"name":"x"}'
call "DELETE on the location list" DELETE /api/v1/admin/locations
call "GET of one location" GET "/api/v1/admin/locations/$LOC"

call "list users" GET /api/v1/admin/users
call "add a staff member" POST /api/v1/admin/users "$(json --arg l "$LOC" \
    '{email: "till2@demo.example", password: "till two pass", user_type: "system_user", location_id: $l, name: "Till 2"}')"
USER2=$(lt_jq .data.user.id)
call "add an owner without a name" POST /api/v1/admin/users \
    '{"email":"second-owner@demo.example","password":"another pass","user_type":"owner"}'
call "add a taken e-mail" POST /api/v1/admin/users "$(json --arg l "$LOC" \
    '{email: "till2@demo.example", password: "password 3", user_type: "system_user", location_id: $l}')"
call "add staff at another merchant's location" POST /api/v1/admin/users \
    '{"email":"till3@demo.example","password":"password 3","user_type":"system_user","location_id":"00000000-0000-4000-8000-000000000000"}'
call "add a user of an unknown type" POST /api/v1/admin/users \
    '{"email":"till3@demo.example","password":"password 3","user_type":"manager"}'
call "add a user with a short password" POST /api/v1/admin/users "$(json --arg l "$LOC" \
    '{email: "till3@demo.example", password: "seven77", user_type: "system_user", location_id: $l}')"
call "disable a user" PATCH "/api/v1/admin/users/$USER2" '{"disabled":true}'
call "move and rename a user" PATCH "/api/v1/admin/users/$USER2" "$(json --arg l "$L2" '{location_id: $l, name: ""}')"
call "set a user's password" PATCH "/api/v1/admin/users/$USER2" '{"password":"a new pass"}'
call "disable yourself" PATCH "/api/v1/admin/users/$OWNER_ID" '{"disabled":true}'

call "list programs" GET /api/v1/admin/programs
call "add a punch program" POST /api/v1/admin/programs \
    '{"type":"punch","title":"Tea Card","punch_requirement":8,"reward_title":"Free tea","reward_amount":2.8,"idempotency_key":"oa-prog"}'
PROG=$(lt_jq .data.program.id)
call "add a discount program" POST /api/v1/admin/programs \
    '{"type":"discount","title":"VIP","tiers":[{"name":"Base","min_spend":0,"rate":0.05},{"name":"Gold","min_spend":500,"rate":0.125}]}'
DPROG=$(lt_jq .data.program.id)
call "add a cashback program" POST /api/v1/admin/programs \
    '{"type":"cashback","title":"Back","tiers":[{"name":"All","min_spend":0,"rate":0.0125}]}'
call "add a punch program with tiers" POST /api/v1/admin/programs \
    '{"type":"punch","title":"X","punch_requirement":8,"reward_title":"Y","tiers":[{"name":"A","min_spend":0,"rate":0.1}]}'
call "change the cooldown, cap the punches" PATCH "/api/v1/admin/programs/$PROG" \
    '{"cooldown_seconds":0,"reward_description":"Any tea","max_punches_per_purchase":2}'
call "change the tiers" PATCH "/api/v1/admin/programs/$DPROG" '{"tiers":[{"name":"Base","min_spend":0,"rate":0.06}]}'
call "change a program's type" PATCH "/api/v1/admin/programs/$PROG" '{"type":"cashback"}'

call "issue two cards" POST /api/v1/admin/cards "$(json --arg p "$PROG" '{program_id: $p, customer_names: ["Ann Smith", "Bo Lee"], idempotency_key: "oa-cards"}')"
CARD=$(lt_jq '.data.cards[0].card_instance_id')
CARD2=$(lt_jq '.data.cards[1].card_instance_id')
call "issue one discount card" POST /api/v1/admin/cards "$(json --arg p "$DPROG" '{program_id: $p, customer_name: "Dee"}')"
call "issue for an unknown program" POST /api/v1/admin/cards '{"program_id":"00000000-0000-4000-8000-000000000000","customer_name":"X"}'
call "issue with both name fields" POST /api/v1/admin/cards "$(json --arg p "$PROG" '{program_id: $p, customer_name: "A", customer_names: ["B"]}')"
call "issue cards without a name" POST /api/v1/admin/cards "$(json --arg p "$PROG" '{program_id: $p, count: 3, customer_name: null}')"
call "issue one card without a name" POST /api/v1/admin/cards "$(json --arg p "$DPROG" '{program_id: $p, count: 1}')"
call "issue with no name nor count" POST /api/v1/admin/cards "$(json --arg p "$DPROG" '{program_id: $p}')"
call "issue with count and a name" POST /api/v1/admin/cards "$(json --arg p "$PROG" '{program_id: $p, count: 2, customer_name: "A"}')"
call "list cards" GET /api/v1/admin/cards
call "search cards" GET "/api/v1/admin/cards?q=ann&status=active&page=1&page_size=2&program_id=$PROG"
call "list cards, bad page_size" GET "/api/v1/admin/cards?page_size=101"
call "one card" GET "/api/v1/admin/cards/$CARD"
call "one discount card of the demo" GET "/api/v1/admin/cards/$DEMO_DISCOUNT_CARD"
call "one unknown card" GET /api/v1/admin/cards/00000000-0000-4000-8000-000000000000
call "rename a card's customer" PATCH "/api/v1/admin/cards/$CARD2" '{"customer_name":"Bo Lee-Smith"}'
call "the owner voids a redemption (and its earn-on-remainder purchase)" POST /api/v1/transactions/void \
    "$(json --arg t "$REDEEM1" --arg l "$L1" --arg s "$OWNER_ID" '{transaction_id: $t, reason: "Refunded", location_id: $l, staff_user_id: $s}')"
call "adjust a card's cashback" POST "/api/v1/admin/cards/$DEMO_CASHBACK_CARD/adjust" \
    '{"cashback_amount":-0.50,"reason":"Earned on a returned item","idempotency_key":"oa-adj1"}'
call "adjust a card's punches" POST "/api/v1/admin/cards/$DEMO_PUNCH_CARD/adjust" '{"punches":3,"reason":"Stamps forgotten"}'
call "adjust below zero" POST "/api/v1/admin/cards/$DEMO_CASHBACK_CARD/adjust" '{"cashback_amount":-100000,"reason":"x"}'
call "adjust punches of a cashback card" POST "/api/v1/admin/cards/$DEMO_CASHBACK_CARD/adjust" '{"punches":1,"reason":"x"}'
call "adjust without a reason" POST "/api/v1/admin/cards/$DEMO_PUNCH_CARD/adjust" '{"punches":1}'
call "adjust an unknown card" POST /api/v1/admin/cards/00000000-0000-4000-8000-000000000000/adjust '{"punches":1,"reason":"x"}'
call "adjust with GET" GET "/api/v1/admin/cards/$DEMO_PUNCH_CARD/adjust"
call "deactivate a card" PATCH "/api/v1/admin/cards/$DEMO_CASHBACK_CARD" '{"status":"inactive"}'
call "adjust a deactivated card" POST "/api/v1/admin/cards/$DEMO_CASHBACK_CARD/adjust" '{"cashback_amount":1,"reason":"x"}'
call "a bad card status" PATCH "/api/v1/admin/cards/$CARD" '{"status":"lost"}'
call "POST on one card" POST "/api/v1/admin/cards/$CARD" '{}'
call "a card's QR code" GET "/api/v1/admin/cards/$CARD/qr.svg"
call "a card's barcode" GET "/api/v1/admin/cards/$CARD/barcode.svg"
call "a new link for a card" POST "/api/v1/admin/cards/$CARD/redraw" '{}'
call "a new link for an unknown card" POST /api/v1/admin/cards/00000000-0000-4000-8000-000000000000/redraw '{}'
call "an unknown card's barcode" GET /api/v1/admin/cards/00000000-0000-4000-8000-000000000000/barcode.svg
call "a path below a card" GET "/api/v1/admin/cards/$CARD/face.png"
call "a sheet by ids" GET "/api/v1/admin/cards/sheet?ids=$CARD,$CARD2"
call "a sheet of a program" GET "/api/v1/admin/cards/sheet?program_id=$PROG"
call "a sheet without ids" GET /api/v1/admin/cards/sheet
call "a sheet with an unknown id" GET /api/v1/admin/cards/sheet?ids=00000000-0000-4000-8000-000000000000
call "a sheet of an unknown program" GET /api/v1/admin/cards/sheet?program_id=00000000-0000-4000-8000-000000000000

for g in day location staff; do
	call "summary by $g" GET "/api/v1/admin/reports/summary?from=2026-01-01&to=$TODAY&group=$g"
done
call "summary as CSV" GET "/api/v1/admin/reports/summary?from=2026-01-01&to=$TODAY&format=csv"
call "summary as CSV, names" GET "/api/v1/admin/reports/summary?from=2026-01-01&to=$TODAY&format=csv&header=names"
call "summary as CSV, a bad header" GET "/api/v1/admin/reports/summary?from=2026-01-01&to=$TODAY&format=csv&header=labels"
call "summary without to" GET "/api/v1/admin/reports/summary?from=2026-01-01"
call "summary of a bad group" GET "/api/v1/admin/reports/summary?from=2026-01-01&to=$TODAY&group=week"
call "transactions report" GET "/api/v1/admin/reports/transactions?from=2026-01-01&to=$TODAY&page_size=500"
call "transactions report as CSV" GET "/api/v1/admin/reports/transactions?from=2026-01-01&to=$TODAY&format=csv"
call "transactions report as CSV, names" GET "/api/v1/admin/reports/transactions?from=2026-01-01&to=$TODAY&format=csv&header=names"
call "transactions report, from after to" GET "/api/v1/admin/reports/transactions?from=$TODAY&to=2026-01-01"
call "an unknown report" GET "/api/v1/admin/reports/weekly?from=2026-01-01&to=$TODAY"

call "backup" GET /api/v1/admin/backup
call "backup with POST" POST /api/v1/admin/backup '{}'

call "audit trail" GET "/api/v1/admin/audit?page_size=500"
call "audit trail of a period and an action" GET "/api/v1/admin/audit?from=2026-01-01&to=$TODAY&action=location.update"
call "audit trail of one card" GET "/api/v1/admin/audit?object_type=card&object_id=$CARD"
call "audit trail as CSV" GET "/api/v1/admin/audit?format=csv"
call "audit trail as CSV, names" GET "/api/v1/admin/audit?format=csv&header=names"
call "audit trail, an object id without its type" GET "/api/v1/admin/audit?object_id=$CARD"
call "audit trail with POST" POST /api/v1/admin/audit '{}'
call "a bad X-Terminal-Id" GET /api/v1/admin/audit "" -H "X-Terminal-Id: $(printf 't%.0s' $(seq 65))"

call "settings" GET /api/v1/admin/settings
call "set a setting" PATCH /api/v1/admin/settings '{"login_max_failures":6}'
call "set an unknown setting" PATCH /api/v1/admin/settings '{"bogus":1}'
call "set a setting out of range" PATCH /api/v1/admin/settings '{"utc_offset_minutes":10}'
call "set no setting" PATCH /api/v1/admin/settings '{}'
call "set the text settings" PATCH /api/v1/admin/settings \
    '{"currency_symbol":"€","public_url":"https://shop.example/loyalty/"}'
call "set a bad public_url" PATCH /api/v1/admin/settings '{"public_url":"ftp://shop.example/"}'
call "set a currency symbol that is a number" PATCH /api/v1/admin/settings '{"currency_symbol":1}'
call "staff may not enrol" PATCH /api/v1/admin/settings '{"staff_enrolment":0}'
call "a sheet with the cards' links" GET "/api/v1/admin/cards/sheet?ids=$CARD"
LT_TOKEN=$STAFF
call "staff's me while they may not enrol" GET /api/v1/auth/me
call "programs to enrol while staff may not" GET /api/v1/cards/enrol
call "enrol while staff may not" POST /api/v1/cards/enrol \
    "$(json --arg p "$P_PUNCH" '{program_id: $p, customer_name: "X"}')"
LT_TOKEN=$OWNER
call "the owner enrols while staff may not" POST /api/v1/cards/enrol \
    "$(json --arg p "$P_PUNCH" '{program_id: $p, customer_name: "Ola Owner"}')"
call "staff may enrol again" PATCH /api/v1/admin/settings '{"staff_enrolment":1}'

# Integrations (issue 28): webhook endpoints, integration tokens, the feed.
call "list webhooks" GET /api/v1/admin/webhooks
call "add a webhook" POST /api/v1/admin/webhooks \
    '{"url":"https://shop.example/hooks/loyalty","event_types":["transaction.recorded","reward.claimed"],"description":"Website"}'
HOOK=$(lt_jq .data.webhook.id)
call "add a webhook of every type" POST /api/v1/admin/webhooks '{"url":"https://hooks.example:8443/all","event_types":null}'
HOOK2=$(lt_jq .data.webhook.id)
call "add a webhook to a private address" POST /api/v1/admin/webhooks '{"url":"https://10.1.2.3/hook"}'
call "add a webhook over plain http" POST /api/v1/admin/webhooks '{"url":"http://shop.example/hook"}'
call "add a webhook of an unknown type" POST /api/v1/admin/webhooks '{"url":"https://shop.example/h","event_types":["card.lost"]}'
call "add a webhook without a url" POST /api/v1/admin/webhooks '{"description":"x"}'
call "list webhooks, two" GET /api/v1/admin/webhooks
call "one webhook" GET "/api/v1/admin/webhooks/$HOOK"
call "disable a webhook" PATCH "/api/v1/admin/webhooks/$HOOK" '{"enabled":false}'
call "enable a webhook for every type" PATCH "/api/v1/admin/webhooks/$HOOK" '{"enabled":true,"event_types":null,"description":"Website shop"}'
call "a webhook's PATCH of nothing" PATCH "/api/v1/admin/webhooks/$HOOK" '{}'
call "rotate a webhook's secret, an empty body" POST "/api/v1/admin/webhooks/$HOOK/rotate" "" -H "Content-Length: 0"
call "rotate again, a body sent" POST "/api/v1/admin/webhooks/$HOOK/rotate" '{}'
call "test a webhook, an empty body" POST "/api/v1/admin/webhooks/$HOOK/test" "" -H "Content-Length: 0"
call "test a webhook" POST "/api/v1/admin/webhooks/$HOOK/test" '{}'
call "resend an unknown event" POST "/api/v1/admin/webhooks/$HOOK/resend" '{"event_id":"evt_9999999999999999"}'
call "resend a malformed event id" POST "/api/v1/admin/webhooks/$HOOK/resend" '{"event_id":"42"}'
call "resend without an event" POST "/api/v1/admin/webhooks/$HOOK/resend" '{}'
call "a webhook's deliveries" GET "/api/v1/admin/webhooks/$HOOK/deliveries?limit=5&offset=0"
call "a webhook's deliveries, limit 101" GET "/api/v1/admin/webhooks/$HOOK/deliveries?limit=101"
call "an unknown webhook" GET /api/v1/admin/webhooks/00000000-0000-4000-8000-000000000000
call "test an unknown webhook" POST /api/v1/admin/webhooks/00000000-0000-4000-8000-000000000000/test '{}'
call "GET of a webhook's test" GET "/api/v1/admin/webhooks/$HOOK/test"
call "PUT on the webhook list" PUT /api/v1/admin/webhooks '{}'
call "delete a webhook" DELETE "/api/v1/admin/webhooks/$HOOK2"
call "delete it again" DELETE "/api/v1/admin/webhooks/$HOOK2"
call "the event feed" GET /api/v1/admin/events
EVT=$(lt_jq '.data.events[0].id')
call "the feed after an event, two of two types" GET "/api/v1/admin/events?after=$EVT&limit=2&type=transaction.recorded,reward.earned"
call "the feed with a malformed after" GET "/api/v1/admin/events?after=42"
call "the feed of an unknown type" GET "/api/v1/admin/events?type=card.lost"
call "the feed with limit 501" GET "/api/v1/admin/events?limit=501"
call "resend an event" POST "/api/v1/admin/webhooks/$HOOK/resend" "$(json --arg e "$EVT" '{event_id: $e}')"
call "list tokens" GET /api/v1/admin/tokens
call "make a token to read events" POST /api/v1/admin/tokens '{"name":"Website shop","scopes":["events:read"]}'
TOK_ID=$(lt_jq .data.token.id)
TOK=$(lt_jq .data.token.secret)
call "make a token of both scopes" POST /api/v1/admin/tokens '{"name":"Accounting","scopes":["events:read","webhooks:manage"]}'
TOK2=$(lt_jq .data.token.secret)
call "make a token without scopes" POST /api/v1/admin/tokens '{"name":"x","scopes":[]}'
call "make a token of an unknown scope" POST /api/v1/admin/tokens '{"name":"x","scopes":["cards:write"]}'
call "make a token without a name" POST /api/v1/admin/tokens '{"scopes":["events:read"]}'
call "one token" GET "/api/v1/admin/tokens/$TOK_ID"
call "an unknown token" GET /api/v1/admin/tokens/00000000-0000-4000-8000-000000000000
call "PATCH on a token" PATCH "/api/v1/admin/tokens/$TOK_ID" '{}'
LT_TOKEN=$TOK
call "the feed with an integration token" GET "/api/v1/admin/events?limit=3"
call "webhooks with a token of events:read" GET /api/v1/admin/webhooks
call "tokens with an integration token" GET /api/v1/admin/tokens
call "locations with an integration token" GET /api/v1/admin/locations
LT_TOKEN=$TOK2
call "webhooks with a token of webhooks:manage" GET /api/v1/admin/webhooks
call "a webhook added by an integration token" POST /api/v1/admin/webhooks '{"url":"https://books.example/loyalty"}'
LT_TOKEN=$OWNER
call "revoke a token" DELETE "/api/v1/admin/tokens/$TOK_ID"
call "revoke it again" DELETE "/api/v1/admin/tokens/$TOK_ID"
call "revoke an unknown token" DELETE /api/v1/admin/tokens/00000000-0000-4000-8000-000000000000
LT_TOKEN=$TOK
call "the feed with a revoked token" GET /api/v1/admin/events
LT_TOKEN=lci_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA
call "the feed with an unknown integration token" GET /api/v1/admin/events
LT_TOKEN=$OWNER
# Events pruned after the retention: the feed says so (the deliverer
# keeps events_pruned; here it is set, as if it had run).
sqlite3 "$LT_DB" "INSERT OR REPLACE INTO events_pruned (merchant_id, through_seq)
    SELECT merchant_id, 2 FROM events GROUP BY merchant_id" 2>/dev/null ||
    diag "could not mark events pruned in $LT_DB"
call "the feed after a pruned event" GET /api/v1/admin/events?after=evt_0000000000000001
call "set a setting the server sets" PATCH /api/v1/admin/settings '{"webhook_allow_private":1}'
call "keep events 60 days" PATCH /api/v1/admin/settings '{"event_retention_days":60}'

LT_TOKEN=
call "owner's API without a token" GET /api/v1/admin/settings
LT_TOKEN=$STAFF
call "2 punches on a card capped at 2" POST /api/v1/transactions/record \
    "$(purchase card_instance_id "$CARD" 3 '{punch_count: 2}')"
call "3 punches on a card capped at 2" POST /api/v1/transactions/record \
    "$(purchase card_instance_id "$CARD" 3 '{punch_count: 3}')"
LT_TOKEN=$OWNER
call "lift the punch cap" PATCH "/api/v1/admin/programs/$PROG" '{"max_punches_per_purchase":null}'
call "a punch cap on a discount program" PATCH "/api/v1/admin/programs/$DPROG" '{"max_punches_per_purchase":3}'
LT_TOKEN=$STAFF
call "3 punches once the cap is lifted" POST /api/v1/transactions/record \
    "$(purchase card_instance_id "$CARD" 3 '{punch_count: 3}')"
call "record on the deactivated card" POST /api/v1/transactions/record \
    "$(purchase card_instance_id "$DEMO_CASHBACK_CARD" 3)"
call "redeem on the deactivated card" POST /api/v1/cashback/redeem "$(redeem "$DEMO_CASHBACK_CARD" 0.1 1)"
call "lookup of the deactivated card" POST /api/v1/cards/lookup \
    "$(json --arg q "$DEMO_CASHBACK_QR" '{qr_code_data: $q}')"

# A new installation: setup.
lt_log_clean "the demo server"
lt_stop
LT_TOKEN=
lt_start true
trap 'lt_stop; rec_done' EXIT
call "setup status of a new installation" GET /api/v1/setup
CODE=$(head -n 1 "$LT_DB.setup-code" 2>/dev/null)
setup_body() {	# CODE
	json --arg c "$1" '{setup_code: $c, merchant_name: "Corner Cafe", location_name: "High Street",
	    owner_name: "Olive", owner_email: "olive@cafe.example", owner_password: "a long password"}'
}
call "setup with a wrong code" POST /api/v1/setup "$(setup_body AAAAAAAAAAAAAAAAAAAA)"
call "setup without a code" POST /api/v1/setup "$(setup_body "$CODE" | jq -c 'del(.setup_code)')"
call "setup with a bad e-mail" POST /api/v1/setup "$(setup_body "$CODE" | jq -c '.owner_email = "olive"')"
call "setup with a short password" POST /api/v1/setup "$(setup_body "$CODE" | jq -c '.owner_password = "short"')"
# The new shop counts in yen: every amount it answers has no decimals.
call "setup with the right code, a shop in yen" POST /api/v1/setup \
    "$(setup_body "$CODE" | jq -c '.currency = "JPY" | .time_zone = "Asia/Tokyo"')"
SHOP_DECIMALS=0
call "setup status after setup" GET /api/v1/setup
call "the new owner logs in" POST /api/v1/auth/login '{"email":"olive@cafe.example","password":"a long password"}'
LT_TOKEN=$(lt_jq .access_token)
call "the new owner's first card list" GET /api/v1/admin/cards
call "the new shop's empty summary" GET "/api/v1/admin/reports/summary?from=$TODAY&to=$TODAY"
call "a yen reward with decimals" POST /api/v1/admin/programs \
    '{"type":"punch","title":"Ramen Card","punch_requirement":5,"reward_title":"Ramen","reward_amount":350.5}'
call "a yen reward" POST /api/v1/admin/programs \
    '{"type":"punch","title":"Ramen Card","punch_requirement":5,"reward_title":"Ramen","reward_amount":400}'
call "yen cashback tiers" POST /api/v1/admin/programs \
    '{"type":"cashback","title":"Yen Back","tiers":[{"name":"A","min_spend":0,"rate":0.05},{"name":"B","min_spend":50000,"rate":0.1}]}'
call "the yen shop's programs" GET /api/v1/admin/programs

lt_log_clean "the new installation's server"
points < <(python3 "$CHECK" "$SPEC" "$top_srcdir" --live "$REC")

done_testing
