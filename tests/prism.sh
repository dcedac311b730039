#!/usr/bin/env bash
# docs/openapi.yaml as validators read it, against the running service.
# TAP output.
#
# 0. The document alone: every required parameter has an example
#    (tests/prism/cover.py --params; Dredd and the like refuse to run
#    without), needing only python3's yaml.
# 1. Prism (@stoplight/prism-cli, the version tools/lib.sh pins) as a
#    validating proxy in front of the demo shop served by lighttpd
#    (lt_start), on a port of its own: a cover of every operation of the
#    document, good requests and bad ones (each documented error that can
#    be provoked), sent through it. Prism checks each request against its
#    operation (parameters, security, body) and each answer (status,
#    headers, Content-Type, body) and says what breaks the document in
#    its sl-violations header. A point per request: a good request must
#    have no violation at all; a bad one must have a request violation
#    (the document says why it is refused) and its answer none; both must
#    answer the status the cover expects. Prism runs without --errors:
#    with it, Prism answers a request it finds invalid with a 422 of its
#    own instead of forwarding it, so the service's answers to bad
#    requests would go unchecked; sl-violations reports the same
#    violations either way. A request on no documented path or method
#    ("route": 404, 405) is checked for the status and the error body.
#    Then every operation must have had a 2xx and a 4xx answer that Prism
#    checked without a violation (tests/prism/cover.py).
# 2. The web server's own refusals (issue 24): a control or invalid UTF-8
#    byte in the URL, a request line of 8 KiB and more, through Prism;
#    a NUL in a header, a garbage request line, a negative Content-Length,
#    sent to lighttpd itself (Prism's own HTTP parser refuses them): each
#    a 4xx of its own (400 VALIDATION_ERROR, 431 HEADERS_TOO_LARGE) with
#    Cache-Control: no-store and without Retry-After.
# 3. A generated run: Portman (@apideck/portman, pinned in tools/lib.sh)
#    generates requests from the document (each operation's example
#    request and its fuzz variations: required fields dropped, numbers
#    and lengths past their limits), with the example ids replaced by the
#    demo's; Newman (Portman's own) sends them to the service, bounded
#    (a few hundred requests, 150 s). Any 5xx fails.
#
# Prism and Portman are installed from npm into ~/.cache/loyalty-pos/
# (PRISM_DIR, PORTMAN_DIR) by
#     bash -c '. tools/lib.sh && lc_install_prism'
# and run from there without the network. Without them (or without node,
# or python3's yaml for the cover's check) the points are skipped, saying
# why; they fail instead when LC_REQUIRE_OPENAPI_LINT=1 (CI).
. "$top_srcdir/tests/lib.sh"

SPEC=$top_srcdir/docs/openapi.yaml
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/loyalty-pos
PRISM_DIR=${PRISM_DIR:-$CACHE/prism-cli}
PORTMAN_DIR=${PORTMAN_DIR:-$CACHE/portman}
PRISM=$PRISM_DIR/node_modules/@stoplight/prism-cli/dist/index.js
PORTMAN=$PORTMAN_DIR/node_modules/@apideck/portman/bin/portman
NEWMAN=$PORTMAN_DIR/node_modules/newman/bin/newman.js

# A tool that is missing: skipped, or failed where it must run.
missing() {
	if [ "${LC_REQUIRE_OPENAPI_LINT:-0}" = 1 ]; then
		tap_result 1 "$1 (LC_REQUIRE_OPENAPI_LINT=1)"
	else
		skip 1 "$1"
	fi
}

# The document alone: what request generators need of it.
if python3 -c 'import yaml' 2>/dev/null; then
	while IFS= read -r l; do
		case $l in
		'PASS '*) tap_result 0 "${l#PASS }" ;;
		'FAIL '*) tap_result 1 "${l#FAIL }" ;;
		*) diag "$l" ;;
		esac
	done < <(python3 "$top_srcdir/tests/prism/cover.py" "$SPEC" --params)
fi

have_prism=1 have_portman=1
if ! command -v node >/dev/null; then
	missing "no node: Prism and Portman not run"
	done_testing
	exit $?
fi
for t in jq curl python3; do
	command -v $t >/dev/null || bail "$t is not installed (tools/check installs it)"
done
[ -f "$PRISM" ] || { have_prism=0; missing "Prism is not in $PRISM_DIR (bash -c '. tools/lib.sh && lc_install_prism'): the validating proxy's cover not run"; }
[ -f "$PORTMAN" ] && [ -f "$NEWMAN" ] ||
    { have_portman=0; missing "Portman is not in $PORTMAN_DIR (bash -c '. tools/lib.sh && lc_install_prism'): the generated run not run"; }
python3 -c 'import yaml' 2>/dev/null ||
    { have_prism=0; missing "python3 cannot import yaml (Debian: python3-yaml): the cover not checked"; }
if [ $have_prism = 0 ] && [ $have_portman = 0 ]; then
	done_testing
	exit $?
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/prism-test.XXXXXX") || bail "mktemp"
PRISM_PID=
PRISM_URL=
prism_stop() {
	[ -n "$PRISM_PID" ] || return 0
	kill -TERM "$PRISM_PID" 2>/dev/null
	for _ in $(seq 1 50); do kill -0 "$PRISM_PID" 2>/dev/null || break; sleep 0.1; done
	kill -KILL "$PRISM_PID" 2>/dev/null
	wait "$PRISM_PID" 2>/dev/null
	PRISM_PID=
}
cleanup() {
	prism_stop
	lt_stop
	lt_backend_stop
	if [ -n "$LT_KEEP" ] || [ "$tap_failed" -gt 0 ]; then
		diag "kept $WORK"
	else
		rm -rf "$WORK"
	fi
}

# prism_start: Prism as a proxy for LT_URL on a free port; sets PRISM_URL.
# Its log (violations included) goes to $WORK/prism.log. A port found
# free can be taken by a test beside this one before Prism binds it:
# then another port, up to 5 times.
prism_start() {
	local port i try off
	touch "$WORK/prism.log"
	for try in 1 2 3 4 5; do
		port=$(lt_free_port) || bail "no free port for Prism"
		off=$(stat -c %s "$WORK/prism.log")
		NODE_OPTIONS=--max-old-space-size=512 node "$PRISM" proxy "$SPEC" "$LT_URL" \
		    --host 127.0.0.1 --port "$port" --cors false -v warn \
		    </dev/null >>"$WORK/prism.log" 2>&1 &
		PRISM_PID=$!
		PRISM_URL=http://127.0.0.1:$port
		# Reading the document takes Prism a while on a busy machine.
		for i in $(seq 1 1200); do
			if ! kill -0 "$PRISM_PID" 2>/dev/null; then
				wait "$PRISM_PID" 2>/dev/null
				tail -c +$((off + 1)) "$WORK/prism.log" | grep -q EADDRINUSE &&
				    continue 2
				bail "Prism did not start: $(tail -n 20 "$WORK/prism.log")"
			fi
			curl -s -o /dev/null --max-time 2 "$PRISM_URL/api/v1/setup" && return 0
			sleep 0.1
		done
		bail "Prism did not answer within 120 s: $(tail -n 20 "$WORK/prism.log")"
	done
	bail "Prism found no free port in 5 tries"
}

# --- 1. the cover, through Prism -------------------------------------------------

# pc KIND WANT DESC METHOD PATH [BODY [CURL_ARGS...]]: the request through
# Prism (lt_req), a point on it. KIND: ok (valid by the document: no
# violation), bad (refused by the document: a request violation, and
# none on the answer) or route (no documented path or method: Prism
# finds no operation; the status and the error body are checked).
# WANT: the status, an extended regular expression. With NORETRY=1 the
# answer must have no Retry-After; with NOSTORE=1 neither, and
# Cache-Control: no-store. KNOWN=REASON marks a point of a known service
# bug (TAP's TODO: its failure is expected, and a pass says the marker
# can go).
pc() {
	local kind=$1 want=$2 desc=$3 v req resp routed=0 problems=()
	shift 3
	LT_URL=$PRISM_URL lt_req "$@"
	v=$(lt_header sl-violations)
	case $v in
	'Too many violations!'*) v='[{"location":["request"],"message":"too many violations"}]' ;;
	'') v='[]' ;;
	esac
	printf '%s' "$v" | jq -e 'type == "array"' >/dev/null 2>&1 ||
	    v="[{\"location\":[\"response\"],\"message\":\"sl-violations is not JSON\"}]"
	if printf '%s' "$v" | jq -e 'any(.[]; .message == "Selected route not found")' >/dev/null; then
		routed=1
		v=$(printf '%s' "$v" | jq -c '[.[] | select(.message != "Selected route not found")]')
	fi
	req=$(printf '%s' "$v" | jq -c '[.[] | select(.location[0] == "request")]')
	resp=$(printf '%s' "$v" | jq -c '[.[] | select(.location[0] != "request")]')
	[[ $LT_STATUS =~ ^($want)$ ]] || problems+=("status $LT_STATUS, want $want")
	case $kind in
	ok)
		[ $routed = 0 ] || problems+=("Prism found no operation for it")
		[ "$req" = '[]' ] || problems+=("request violations: $req")
		;;
	bad)
		[ $routed = 0 ] || problems+=("Prism found no operation for it")
		[ "$req" != '[]' ] || problems+=("the document does not refuse this request (no request violation)")
		;;
	route)
		[ $routed = 1 ] || problems+=("Prism found an operation for it")
		[ "$req" = '[]' ] || problems+=("request violations: $req")
		printf '%s' "$LT_BODY" | jq -e '.success == false and (.error.code | type == "string")
		    and (.error.message | type == "string") and (.meta.request_id | type == "string")' \
		    >/dev/null 2>&1 || problems+=("not the error body: ${LT_BODY:0:200}")
		if [ "$LT_STATUS" = 405 ] && [ -z "$(lt_header Allow)" ]; then
			problems+=("405 without Allow")
		fi
		;;
	esac
	[ "$resp" = '[]' ] || problems+=("answer violations: $resp")
	[[ $(lt_header Content-Type) == application/problem+json* ]] &&
	    problems+=("Prism's own error: ${LT_BODY:0:300}")
	if [ "${NOSTORE:-0}" = 1 ]; then
		[ "$(lt_header Cache-Control)" = no-store ] ||
		    problems+=("Cache-Control '$(lt_header Cache-Control)', want no-store")
	fi
	if [ "${NOSTORE:-0}" = 1 ] || [ "${NORETRY:-0}" = 1 ]; then
		[ -z "$(lt_header Retry-After)" ] || problems+=("Retry-After $(lt_header Retry-After)")
	fi
	printf '%s\t%s\t%s\t%s\t%s\n' "$1" "${2%%\?*}" "$LT_STATUS" \
	    "$([ ${#problems[@]} = 0 ] && [ $routed = 0 ] && echo clean || echo -)" "$desc" >>"$WORK/cover.tsv"
	if [ -n "${KNOWN:-}" ]; then
		tap_n=$((tap_n + 1))
		if [ ${#problems[@]} = 0 ]; then
			# Fixed: the marker is to go (automake counts it so).
			printf 'ok %d - %s # TODO %s\n' "$tap_n" "$kind: $1 ${2:0:60} -> $LT_STATUS: $desc" "$KNOWN"
			tap_failed=$((tap_failed + 1))
		else
			printf 'not ok %d - %s # TODO %s\n' "$tap_n" "$kind: $1 ${2:0:60} -> $LT_STATUS: $desc" "$KNOWN"
		fi
	elif [ ${#problems[@]} = 0 ]; then
		tap_result 0 "$kind: $1 ${2:0:60} -> $LT_STATUS: $desc"
	else
		tap_result 1 "$kind: $1 ${2:0:60} -> $LT_STATUS: $desc"
	fi
	if [ ${#problems[@]} != 0 ]; then
		local p
		for p in "${problems[@]}"; do diag "  ${p:0:1500}"; done
		[ "$LT_STATUS" -ge 400 ] 2>/dev/null && diag "  body: ${LT_BODY:0:300}"
	fi
	return 0
}

json() { jq -cn "$@"; }

lt_start
trap cleanup EXIT
L1=$DEMO_LOCATION_ID
L2=$DEMO_LOCATION2_ID
TODAY=$(date -u +%F)
NIL=00000000-0000-4000-8000-000000000000

if [ $have_prism = 1 ]; then
prism_start
diag "Prism $(node "$PRISM" --version 2>/dev/null) at $PRISM_URL, the service at $LT_URL"

# Auth.
LT_TOKEN=
pc ok 200 "staff login" POST /api/v1/auth/login \
    "$(json --arg e "$DEMO_STAFF_EMAIL" --arg p "$DEMO_STAFF_PASSWORD" '{email: $e, password: $p}')"
STAFF=$(lt_jq .access_token)
STAFF_ID=$(lt_jq .user.id)
pc ok 401 "wrong password" POST /api/v1/auth/login \
    "$(json --arg e "$DEMO_STAFF_EMAIL" '{email: $e, password: "wrong"}')"
pc bad 400 "login without password" POST /api/v1/auth/login '{"email":"a@b.example"}'
pc bad 400 "login with a password that is null" POST /api/v1/auth/login '{"email":"a@b.example","password":null}'
pc bad 415 "login as text/plain" POST /api/v1/auth/login '{}' -H 'Content-Type: text/plain'
printf '{"email":"a@b.example","password":"%s"}' "$(head -c 1048600 /dev/zero | tr '\0' a)" >"$WORK/big.json"
pc bad 413 "a body over 1 MiB" POST /api/v1/auth/login "@$WORK/big.json"
for i in 1 2 3 4 5; do
	pc ok 401 "failed login $i of an unknown e-mail" POST /api/v1/auth/login \
	    '{"email":"nobody@demo.example","password":"guess"}'
done
pc ok 429 "a login past the failure limit" POST /api/v1/auth/login \
    '{"email":"nobody@demo.example","password":"guess"}'
pc route 405 "login with GET" GET /api/v1/auth/login

LT_TOKEN=$STAFF
pc ok 200 "me with the client's X-Request-Id" GET /api/v1/auth/me "" -H "X-Request-Id: till-7.req_42"
pc route 405 "me with POST" POST /api/v1/auth/me '{}'
LT_TOKEN=
pc bad 401 "me without a token" GET /api/v1/auth/me
LT_TOKEN=not-a-token
pc ok 401 "me with a garbage token" GET /api/v1/auth/me

LT_TOKEN=
pc ok 200 "a second staff login" POST /api/v1/auth/login \
    "$(json --arg e "$DEMO_STAFF_EMAIL" --arg p "$DEMO_STAFF_PASSWORD" '{email: $e, password: $p}')"
R1=$(lt_jq .refresh_token)
pc ok 200 "refresh" POST /api/v1/auth/refresh "$(json --arg r "$R1" '{refresh_token: $r}')"
pc ok 401 "a rotated refresh token again" POST /api/v1/auth/refresh "$(json --arg r "$R1" '{refresh_token: $r}')"
pc bad 400 "refresh without the token" POST /api/v1/auth/refresh '{}'
pc bad 400 "refresh with a number" POST /api/v1/auth/refresh '{"refresh_token":42}'

pc ok 200 "a third staff login" POST /api/v1/auth/login \
    "$(json --arg e "$DEMO_STAFF_EMAIL" --arg p "$DEMO_STAFF_PASSWORD" '{email: $e, password: $p}')"
R3=$(lt_jq .refresh_token)
LT_TOKEN=$(lt_jq .access_token)
pc ok 200 "logout" POST /api/v1/auth/logout "$(json --arg r "$R3" '{refresh_token: $r}')"
pc ok 401 "logout again" POST /api/v1/auth/logout '{}'
pc bad 400 "logout with a number" POST /api/v1/auth/logout '{"refresh_token":42}'
LT_TOKEN=
pc ok 401 "logout with nothing" POST /api/v1/auth/logout '{}'

LT_TOKEN=$STAFF
# Lookup.
pc ok 200 "lookup punch by barcode" POST /api/v1/cards/lookup \
    "$(json --arg b "$DEMO_PUNCH_BARCODE" '{barcode_value: $b}')"
pc ok 200 "lookup cashback by QR, the barcode null" POST /api/v1/cards/lookup \
    "$(json --arg q "$DEMO_CASHBACK_QR" '{qr_code_data: $q, barcode_value: null}')"
pc ok 200 "lookup discount by QR" POST /api/v1/cards/lookup \
    "$(json --arg q "$DEMO_DISCOUNT_QR" '{qr_code_data: $q}')"
pc bad 400 "lookup with both codes" POST /api/v1/cards/lookup \
    "$(json --arg q "$DEMO_DISCOUNT_QR" --arg b "$DEMO_PUNCH_BARCODE" '{qr_code_data: $q, barcode_value: $b}')"
pc bad 400 "lookup with neither code (both null)" POST /api/v1/cards/lookup '{"qr_code_data":null,"barcode_value":null}'
pc ok 404 "lookup of an unknown barcode" POST /api/v1/cards/lookup '{"barcode_value":"2000000000008"}'
pc route 405 "lookup with GET" GET /api/v1/cards/lookup
LT_TOKEN=
pc bad 401 "lookup without a token" POST /api/v1/cards/lookup '{"barcode_value":"2000000000008"}'
LT_TOKEN=$STAFF

# Enrolment, and the customer's own page of each card.
pc ok 200 "programs to enrol" GET /api/v1/cards/enrol
P_PUNCH=$(lt_jq '[.data.programs[] | select(.card_type == "punch")][0].id')
P_CASH=$(lt_jq '[.data.programs[] | select(.card_type == "cashback")][0].id')
P_DISC=$(lt_jq '[.data.programs[] | select(.card_type == "discount")][0].id')
pc ok 201 "enrol a punch card" POST /api/v1/cards/enrol \
    "$(json --arg p "$P_PUNCH" '{program_id: $p, customer_name: "Nina New", idempotency_key: "pr-enrol"}')"
SHARE_PUNCH=$(lt_jq .data.share_token)
pc ok 200 "the same enrolment replayed" POST /api/v1/cards/enrol \
    "$(json --arg p "$P_PUNCH" '{program_id: $p, customer_name: "Nina New", idempotency_key: "pr-enrol"}')"
pc ok 201 "enrol a cashback card" POST /api/v1/cards/enrol \
    "$(json --arg p "$P_CASH" --arg l "$L1" '{program_id: $p, customer_name: "Cai Cash", location_id: $l}')"
SHARE_CASH=$(lt_jq .data.share_token)
pc ok 201 "enrol a discount card, location and key null" POST /api/v1/cards/enrol \
    "$(json --arg p "$P_DISC" '{program_id: $p, customer_name: "Dot Disc", location_id: null, idempotency_key: null}')"
SHARE_DISC=$(lt_jq .data.share_token)
pc bad 400 "enrol without a name" POST /api/v1/cards/enrol "$(json --arg p "$P_PUNCH" '{program_id: $p}')"
pc ok 404 "enrol for an unknown program" POST /api/v1/cards/enrol \
    "{\"program_id\":\"$NIL\",\"customer_name\":\"X\"}"
pc ok 403 "enrol at another location" POST /api/v1/cards/enrol \
    "$(json --arg p "$P_PUNCH" --arg l "$L2" '{program_id: $p, customer_name: "X", location_id: $l}')"
pc bad 415 "enrol as text/plain" POST /api/v1/cards/enrol '{}' -H 'Content-Type: text/plain'
pc route 405 "enrol with PATCH" PATCH /api/v1/cards/enrol '{}'
LT_TOKEN=
pc bad 401 "enrol without a token" GET /api/v1/cards/enrol
pc ok 200 "a punch card's own page" GET "/api/v1/mycard/$SHARE_PUNCH"
pc ok 200 "a cashback card's own page" GET "/api/v1/mycard/$SHARE_CASH"
pc ok 200 "a discount card's own page" GET "/api/v1/mycard/$SHARE_DISC"
pc ok 200 "a card page's QR code" GET "/api/v1/mycard/$SHARE_PUNCH/qr.svg"
pc ok 200 "a card page's barcode" GET "/api/v1/mycard/$SHARE_CASH/barcode.svg"
pc ok 200 "a card page's link as a QR code" GET "/api/v1/mycard/$SHARE_CASH/link.svg"
pc ok 404 "an unknown card page" GET /api/v1/mycard/0123456789abcdef0123456789abcdef
pc ok 404 "a malformed card page" GET /api/v1/mycard/NOT-A-TOKEN
pc ok 404 "the QR code of an unknown card page" GET /api/v1/mycard/0123456789abcdef0123456789abcdef/qr.svg
pc ok 404 "the barcode of an unknown card page" GET /api/v1/mycard/0123456789abcdef0123456789abcdef/barcode.svg
pc ok 404 "the link of an unknown card page" GET /api/v1/mycard/0123456789abcdef0123456789abcdef/link.svg
pc route 405 "a card page with POST" POST "/api/v1/mycard/$SHARE_PUNCH" '{}'
pc route 404 "the card pages' root" GET /api/v1/mycard
# The discount card's link last: a re-draw ends it.
pc ok 200 "a card page's new link, asked from the page" POST "/api/v1/mycard/$SHARE_DISC/redraw" '{}'
pc ok 404 "the old link, re-drawn" POST "/api/v1/mycard/$SHARE_DISC/redraw" '{}'
pc ok 404 "a new link for an unknown card page" POST /api/v1/mycard/0123456789abcdef0123456789abcdef/redraw
pc bad 400 "a new link with a body not an object" POST "/api/v1/mycard/$SHARE_PUNCH/redraw" '[]'
LT_TOKEN=$STAFF

# Record.
purchase() {	# CARD_FIELD VALUE AMOUNT [EXTRA_JQ]
	json --arg k "$1" --arg v "$2" --argjson a "$3" --arg l "$L1" --arg s "$STAFF_ID" \
	    "{(\$k): \$v, location_id: \$l, staff_user_id: \$s, purchase_amount: \$a} ${4:+| . + $4}"
}
pc ok 200 "record 12 punches (a reward, carry-over)" POST /api/v1/transactions/record \
    "$(purchase card_instance_id "$DEMO_PUNCH_CARD" 4.50 '{punch_count: 12, idempotency_key: "pr-p1"}')"
pc ok 200 "the same record replayed" POST /api/v1/transactions/record \
    "$(purchase card_instance_id "$DEMO_PUNCH_CARD" 4.50 '{punch_count: 12, idempotency_key: "pr-p1"}')"
pc ok 429 "a punch within the cooldown" POST /api/v1/transactions/record \
    "$(purchase qr_code_data "$DEMO_PUNCH_QR" 4.50)"
pc ok 200 "record cashback, every field" POST /api/v1/transactions/record \
    "$(purchase card_instance_id "$DEMO_CASHBACK_CARD" 120 '{transaction_notes: "Table 4", pos_reference_id: "R-1001", pos_terminal_id: "till-1", idempotency_key: "pr-c1", client_timestamp: "2026-11-02T10:15:00Z"}')"
pc ok 200 "record discount, the optional fields null" POST /api/v1/transactions/record \
    "$(purchase barcode_value "$DEMO_DISCOUNT_BARCODE" 19.99 '{qr_code_data: null, card_instance_id: null, punch_count: null, transaction_notes: null, idempotency_key: null, pos_reference_id: null, pos_terminal_id: null, client_timestamp: null}')"
pc ok 403 "record at another location" POST /api/v1/transactions/record \
    "$(purchase card_instance_id "$DEMO_CASHBACK_CARD" 12 "{location_id: \"$L2\"}")"
pc ok 400 "record with three decimals" POST /api/v1/transactions/record \
    "$(purchase card_instance_id "$DEMO_CASHBACK_CARD" 12.345)"
pc bad 400 "record with a negative amount" POST /api/v1/transactions/record \
    "$(purchase card_instance_id "$DEMO_CASHBACK_CARD" -1)"
pc bad 400 "record with the amount null" POST /api/v1/transactions/record \
    "$(purchase card_instance_id "$DEMO_CASHBACK_CARD" null)"
pc bad 400 "record without a card" POST /api/v1/transactions/record \
    "$(json --arg l "$L1" --arg s "$STAFF_ID" '{location_id: $l, staff_user_id: $s, purchase_amount: 1}')"
pc ok 404 "record on an unknown card" POST /api/v1/transactions/record \
    "$(purchase barcode_value 2000000000008 12)"
pc ok 200 "record with a key sent to redeem later" POST /api/v1/transactions/record \
    "$(purchase card_instance_id "$DEMO_CASHBACK_CARD" 1 '{idempotency_key: "pr-kind"}')"
pc route 405 "record with GET" GET /api/v1/transactions/record

# History.
pc ok 200 "history of the punch card" GET "/api/v1/transactions/history?card_instance_id=$DEMO_PUNCH_CARD"
pc ok 200 "history filtered and paged" GET \
    "/api/v1/transactions/history?card_instance_id=$DEMO_CASHBACK_CARD&transaction_type=cashback&from_date=2026-01-01&to_date=${TODAY}T23:59:59Z&page=1&page_size=5"
pc ok 200 "history past the last page" GET "/api/v1/transactions/history?card_instance_id=$DEMO_CASHBACK_CARD&page=9"
pc bad 400 "history with page 0" GET "/api/v1/transactions/history?card_instance_id=$DEMO_CASHBACK_CARD&page=0"
pc bad 400 "history without a card" GET "/api/v1/transactions/history"
pc ok 404 "history of an unknown card" GET "/api/v1/transactions/history?card_instance_id=nope"

# Sync.
ago() { date -u -d "-$1" +%FT%TZ; }
pc ok 200 "sync of two items that succeed" POST /api/v1/transactions/sync "$(json \
    --arg b "$DEMO_PUNCH_BARCODE" --arg q "$DEMO_DISCOUNT_QR" --arg l "$L1" --arg s "$STAFF_ID" \
    --arg t1 "$(ago '2 hours')" --arg t2 "$(ago '1 hour')" '{transactions: [
      {barcode_value: $b, location_id: $l, staff_user_id: $s, purchase_amount: 3.2, idempotency_key: "pr-s1", client_timestamp: $t1},
      {qr_code_data: $q, location_id: $l, staff_user_id: $s, purchase_amount: 18, idempotency_key: "pr-s2", client_timestamp: $t2}]}')"
pc ok 207 "sync with failing items, bad ones among them" POST /api/v1/transactions/sync "$(json \
    --arg c "$DEMO_CASHBACK_CARD" --arg l "$L1" --arg l2 "$L2" --arg s "$STAFF_ID" \
    --arg old "$(ago '40 days')" '{transactions: [
      {card_instance_id: $c, location_id: $l, staff_user_id: $s, purchase_amount: 3, idempotency_key: "pr-s1"},
      {barcode_value: "2000000000008", location_id: $l, staff_user_id: $s, purchase_amount: 3, idempotency_key: "pr-s3"},
      {card_instance_id: $c, location_id: $l, staff_user_id: $s, purchase_amount: 3, idempotency_key: "pr-s4", client_timestamp: $old},
      {card_instance_id: $c, location_id: $l2, staff_user_id: $s, purchase_amount: 3, idempotency_key: "pr-s5"},
      {card_instance_id: $c, location_id: $l, staff_user_id: $s, purchase_amount: 3},
      {card_instance_id: $c, location_id: $l, staff_user_id: $s, purchase_amount: "3", idempotency_key: "pr-s7"},
      {card_instance_id: $c, location_id: $l, staff_user_id: $s, purchase_amount: 3, idempotency_key: null},
      {},
      {card_instance_id: $c, location_id: $l, staff_user_id: $s, purchase_amount: 3, idempotency_key: "pr-s6"}]}')"
pc bad 400 "sync of an empty batch" POST /api/v1/transactions/sync '{"transactions":[]}'
pc bad 400 "sync of a batch with an item that is no object" POST /api/v1/transactions/sync '{"transactions":[1]}'
pc bad 400 "sync without a batch" POST /api/v1/transactions/sync '{}'
pc route 405 "sync with GET" GET /api/v1/transactions/sync

# Claim.
claim() {	# CARD [EXTRA_JQ]
	json --arg c "$1" --arg l "$L1" --arg s "$STAFF_ID" \
	    "{card_instance_id: \$c, location_id: \$l, staff_user_id: \$s} ${2:+| . + $2}"
}
pc ok 200 "claim the pending reward" POST /api/v1/rewards/claim "$(claim "$DEMO_PUNCH_CARD" '{idempotency_key: "pr-cl1"}')"
pc ok 200 "the same claim replayed" POST /api/v1/rewards/claim "$(claim "$DEMO_PUNCH_CARD" '{idempotency_key: "pr-cl1"}')"
pc ok 409 "claim with nothing pending, the key null" POST /api/v1/rewards/claim "$(claim "$DEMO_PUNCH_CARD" '{idempotency_key: null}')"
pc ok 422 "claim on a cashback card" POST /api/v1/rewards/claim "$(claim "$DEMO_CASHBACK_CARD")"
pc ok 403 "claim as another staff member" POST /api/v1/rewards/claim \
    "$(claim "$DEMO_PUNCH_CARD" "{staff_user_id: \"$NIL\"}")"
pc ok 404 "claim on an unknown card" POST /api/v1/rewards/claim "$(claim "$NIL")"
pc bad 400 "claim without a card" POST /api/v1/rewards/claim '{}'
pc route 405 "claim with GET" GET /api/v1/rewards/claim

# Redeem.
redeem() {	# CARD AMOUNT PURCHASE [EXTRA_JQ]
	json --arg c "$1" --argjson r "$2" --argjson p "$3" --arg l "$L1" --arg s "$STAFF_ID" \
	    "{card_instance_id: \$c, redemption_amount: \$r, purchase_amount: \$p, location_id: \$l, staff_user_id: \$s} ${4:+| . + $4}"
}
pc ok 200 "redeem, earning on the remainder" POST /api/v1/cashback/redeem \
    "$(redeem "$DEMO_CASHBACK_CARD" 2 10 '{earn_on_remainder: true, idempotency_key: "pr-r1", transaction_notes: "half price"}')"
REDEEM1=$(lt_jq .transaction_id)
pc ok 200 "the same redemption replayed" POST /api/v1/cashback/redeem \
    "$(redeem "$DEMO_CASHBACK_CARD" 2 10 '{earn_on_remainder: true, idempotency_key: "pr-r1", transaction_notes: "half price"}')"
pc ok 200 "redeem, the optional fields null" POST /api/v1/cashback/redeem \
    "$(redeem "$DEMO_CASHBACK_CARD" 0.5 1 '{earn_on_remainder: null, idempotency_key: null, transaction_notes: null}')"
pc ok 422 "redeem above the balance" POST /api/v1/cashback/redeem "$(redeem "$DEMO_CASHBACK_CARD" 500 600)"
pc ok 400 "redeem above the purchase" POST /api/v1/cashback/redeem "$(redeem "$DEMO_CASHBACK_CARD" 5 4)"
pc bad 400 "redeem 0" POST /api/v1/cashback/redeem "$(redeem "$DEMO_CASHBACK_CARD" 0 4)"
pc ok 422 "redeem on a punch card" POST /api/v1/cashback/redeem "$(redeem "$DEMO_PUNCH_CARD" 1 4)"
pc ok 404 "redeem on an unknown card" POST /api/v1/cashback/redeem "$(redeem "$NIL" 1 4)"
pc ok 403 "redeem at another location" POST /api/v1/cashback/redeem "$(redeem "$DEMO_CASHBACK_CARD" 1 4 "{location_id: \"$L2\"}")"
pc ok 400 "redeem with a record's key" POST /api/v1/cashback/redeem \
    "$(redeem "$DEMO_CASHBACK_CARD" 0.1 1 '{idempotency_key: "pr-kind"}')"
pc route 405 "redeem with GET" GET /api/v1/cashback/redeem

# Void.
void() {	# TRANSACTION [EXTRA_JQ]
	json --arg t "$1" --arg l "$L1" --arg s "$STAFF_ID" \
	    "{transaction_id: \$t, reason: \"Keyed 45.00 for 4.50\", location_id: \$l, staff_user_id: \$s} ${2:+| . + $2}"
}
pc ok 200 "a purchase to void" POST /api/v1/transactions/record \
    "$(purchase card_instance_id "$DEMO_CASHBACK_CARD" 45)"
VOIDED=$(lt_jq .data.transaction_id)
pc ok 200 "void the purchase" POST /api/v1/transactions/void "$(void "$VOIDED" '{idempotency_key: "pr-v1"}')"
VOID1=$(lt_jq .data.transaction_id)
pc ok 200 "the same void replayed" POST /api/v1/transactions/void "$(void "$VOIDED" '{idempotency_key: "pr-v1"}')"
pc ok 409 "void it a second time" POST /api/v1/transactions/void "$(void "$VOIDED")"
pc ok 409 "void a void" POST /api/v1/transactions/void "$(void "$VOID1")"
pc ok 400 "void with a blank reason" POST /api/v1/transactions/void "$(void "$VOIDED" '{reason: " "}')"
pc bad 400 "void without a reason" POST /api/v1/transactions/void "$(void "$VOIDED" '{reason: null}')"
pc ok 403 "void at another location" POST /api/v1/transactions/void "$(void "$VOIDED" "{location_id: \"$L2\"}")"
pc ok 404 "void an unknown transaction" POST /api/v1/transactions/void "$(void "$NIL")"
pc route 405 "void with PUT" PUT /api/v1/transactions/void '{}'
pc ok 200 "what the cashier may still void" GET "/api/v1/transactions/void?location_id=$L1&staff_user_id=$STAFF_ID"
pc ok 403 "what another cashier may void" GET "/api/v1/transactions/void?location_id=$L1&staff_user_id=$NIL"
pc bad 400 "the voidable list without staff_user_id" GET "/api/v1/transactions/void?location_id=$L1"
pc ok 200 "history with a void and its original" GET "/api/v1/transactions/history?card_instance_id=$DEMO_CASHBACK_CARD&page_size=3"

# Staff on the owner's API; setup on a shop that has its owner.
pc ok 403 "staff token on the owner's API" GET /api/v1/admin/locations
pc ok 404 "setup once an owner exists" GET /api/v1/setup
pc bad 404 "setup POST once an owner exists" POST /api/v1/setup '{}'
pc route 404 "a path of no endpoint" GET /api/v1/nothing/here
pc route 404 "a path of no endpoint, POST" POST /api/v1/cards '{}'
pc route 405 "setup with PATCH" PATCH /api/v1/setup '{}'

# The owner.
LT_TOKEN=
pc ok 200 "owner login" POST /api/v1/auth/login \
    "$(json --arg e "$DEMO_OWNER_EMAIL" --arg p "$DEMO_OWNER_PASSWORD" '{email: $e, password: $p}')"
OWNER=$(lt_jq .access_token)
OWNER_ID=$(lt_jq .user.id)
LT_TOKEN=$OWNER
pc ok 200 "owner's me" GET /api/v1/auth/me

pc ok 200 "list locations" GET /api/v1/admin/locations
pc ok 200 "add a location" POST /api/v1/admin/locations '{"name":"Station Kiosk","idempotency_key":"pr-loc"}'
LOC=$(lt_jq .data.location.id)
pc ok 200 "the same location replayed" POST /api/v1/admin/locations '{"name":"Station Kiosk","idempotency_key":"pr-loc"}'
pc ok 200 "add a location, the key null" POST /api/v1/admin/locations '{"name":"Pier Kiosk","idempotency_key":null}'
pc ok 200 "rename a location" PATCH "/api/v1/admin/locations/$LOC" '{"name":"Station Kiosk 2"}'
pc ok 404 "rename an unknown location" PATCH "/api/v1/admin/locations/$NIL" '{"name":"x"}'
pc bad 404 "a location id of the wrong form" PATCH /api/v1/admin/locations/42 '{"name":"x"}'
pc bad 400 "add a location without a name" POST /api/v1/admin/locations '{}'
pc bad 400 "rename a location to null" PATCH "/api/v1/admin/locations/$LOC" '{"name":null}'
pc route 405 "PATCH on the location list" PATCH /api/v1/admin/locations '{"name":"x"}'
pc route 405 "DELETE on the location list" DELETE /api/v1/admin/locations
pc route 405 "GET of one location" GET "/api/v1/admin/locations/$LOC"

pc ok 200 "list users" GET /api/v1/admin/users
pc ok 200 "add a staff member" POST /api/v1/admin/users "$(json --arg l "$LOC" \
    '{email: "till2@demo.example", password: "till two pass", user_type: "system_user", location_id: $l, name: "Till 2"}')"
USER2=$(lt_jq .data.user.id)
pc ok 200 "add an owner, name and location null" POST /api/v1/admin/users \
    '{"email":"second-owner@demo.example","password":"another pass","user_type":"owner","name":null,"location_id":null,"idempotency_key":null}'
pc ok 409 "add a taken e-mail" POST /api/v1/admin/users "$(json --arg l "$LOC" \
    '{email: "till2@demo.example", password: "password 3", user_type: "system_user", location_id: $l}')"
pc ok 404 "add staff at another merchant's location" POST /api/v1/admin/users \
    "{\"email\":\"till3@demo.example\",\"password\":\"password 3\",\"user_type\":\"system_user\",\"location_id\":\"$NIL\"}"
pc bad 400 "add a user of an unknown type" POST /api/v1/admin/users \
    '{"email":"till3@demo.example","password":"password 3","user_type":"manager"}'
pc bad 400 "add a user with a short password" POST /api/v1/admin/users "$(json --arg l "$LOC" \
    '{email: "till3@demo.example", password: "seven77", user_type: "system_user", location_id: $l}')"
pc ok 200 "disable a user" PATCH "/api/v1/admin/users/$USER2" '{"disabled":true}'
pc ok 200 "move and rename a user" PATCH "/api/v1/admin/users/$USER2" "$(json --arg l "$L2" '{location_id: $l, name: ""}')"
pc ok 200 "set a user's password, the rest null" PATCH "/api/v1/admin/users/$USER2" \
    '{"password":"a new pass","name":null,"location_id":null,"disabled":null}'
pc ok 400 "disable yourself" PATCH "/api/v1/admin/users/$OWNER_ID" '{"disabled":true}'
pc ok 404 "change an unknown user" PATCH "/api/v1/admin/users/$NIL" '{"disabled":true}'
pc route 405 "DELETE a user" DELETE "/api/v1/admin/users/$USER2"

pc ok 200 "list programs" GET /api/v1/admin/programs
pc ok 200 "add a punch program" POST /api/v1/admin/programs \
    '{"type":"punch","title":"Tea Card","punch_requirement":8,"reward_title":"Free tea","reward_amount":2.8,"idempotency_key":"pr-prog","max_punches_per_purchase":null,"expiry_days":null}'
PROG=$(lt_jq .data.program.id)
pc ok 200 "add a punch program, tiers null" POST /api/v1/admin/programs \
    '{"type":"punch","title":"Coffee Card","punch_requirement":8,"reward_title":"Free coffee","tiers":null}'
pc ok 200 "add a discount program" POST /api/v1/admin/programs \
    '{"type":"discount","title":"VIP","tiers":[{"name":"Base","min_spend":0,"rate":0.05},{"name":"Gold","min_spend":500,"rate":0.125}],"punch_requirement":null}'
DPROG=$(lt_jq .data.program.id)
pc ok 200 "add a cashback program" POST /api/v1/admin/programs \
    '{"type":"cashback","title":"Back","tiers":[{"name":"All","min_spend":0,"rate":0.0125}],"expiry_days":null}'
pc bad 400 "add a punch program with tiers" POST /api/v1/admin/programs \
    '{"type":"punch","title":"X","punch_requirement":8,"reward_title":"Y","tiers":[{"name":"A","min_spend":0,"rate":0.1}]}'
pc bad 400 "add a cashback program with a punch program's field" POST /api/v1/admin/programs \
    '{"type":"cashback","title":"X","tiers":[{"name":"All","min_spend":0,"rate":0.01}],"cooldown_seconds":5}'
pc ok 200 "add a cashback program, a punch program's fields null" POST /api/v1/admin/programs \
    '{"type":"cashback","title":"X","tiers":[{"name":"All","min_spend":0,"rate":0.01}],"punch_requirement":null,"reward_title":null,"reward_description":null,"reward_amount":null,"cooldown_seconds":null,"max_punches_per_purchase":null}'
pc bad 400 "add a cashback program without tiers" POST /api/v1/admin/programs \
    '{"type":"cashback","title":"X","tiers":null}'
pc ok 200 "change the cooldown, cap the punches" PATCH "/api/v1/admin/programs/$PROG" \
    '{"cooldown_seconds":0,"reward_description":"Any tea","max_punches_per_purchase":2,"title":null}'
pc ok 200 "change the tiers" PATCH "/api/v1/admin/programs/$DPROG" '{"tiers":[{"name":"Base","min_spend":0,"rate":0.06}]}'
pc ok 400 "change a program's type" PATCH "/api/v1/admin/programs/$PROG" '{"type":"cashback"}'
pc ok 404 "change an unknown program" PATCH "/api/v1/admin/programs/$NIL" '{"title":"x"}'

pc ok 200 "issue two cards" POST /api/v1/admin/cards "$(json --arg p "$PROG" '{program_id: $p, customer_names: ["Ann Smith", "Bo Lee"], idempotency_key: "pr-cards"}')"
CARD=$(lt_jq '.data.cards[0].card_instance_id')
CARD2=$(lt_jq '.data.cards[1].card_instance_id')
pc ok 200 "issue one discount card" POST /api/v1/admin/cards "$(json --arg p "$DPROG" '{program_id: $p, customer_name: "Dee", customer_names: null}')"
pc ok 404 "issue for an unknown program" POST /api/v1/admin/cards "{\"program_id\":\"$NIL\",\"customer_name\":\"X\"}"
pc bad 400 "issue with both name fields" POST /api/v1/admin/cards "$(json --arg p "$PROG" '{program_id: $p, customer_name: "A", customer_names: ["B"]}')"
pc ok 200 "issue cards without a name" POST /api/v1/admin/cards "$(json --arg p "$PROG" '{program_id: $p, count: 3, customer_name: null}')"
pc ok 200 "issue one card without a name" POST /api/v1/admin/cards "$(json --arg p "$DPROG" '{program_id: $p, count: 1}')"
pc bad 400 "issue with no name nor count" POST /api/v1/admin/cards "$(json --arg p "$DPROG" '{program_id: $p}')"
pc bad 400 "issue with count and a name" POST /api/v1/admin/cards "$(json --arg p "$PROG" '{program_id: $p, count: 2, customer_name: "A"}')"
pc bad 400 "issue a count of 101" POST /api/v1/admin/cards "$(json --arg p "$PROG" '{program_id: $p, count: 101}')"
pc ok 200 "list cards" GET /api/v1/admin/cards
pc ok 200 "search cards" GET "/api/v1/admin/cards?q=ann&status=active&page=1&page_size=2&program_id=$PROG"
pc bad 400 "list cards, bad page_size" GET "/api/v1/admin/cards?page_size=101"
pc ok 200 "one card" GET "/api/v1/admin/cards/$CARD"
pc ok 200 "one discount card of the demo" GET "/api/v1/admin/cards/$DEMO_DISCOUNT_CARD"
pc ok 404 "one unknown card" GET "/api/v1/admin/cards/$NIL"
pc ok 200 "rename a card's customer" PATCH "/api/v1/admin/cards/$CARD2" '{"customer_name":"Bo Lee-Smith","status":null}'
pc ok 200 "the owner voids a redemption (and its earn-on-remainder purchase)" POST /api/v1/transactions/void \
    "$(json --arg t "$REDEEM1" --arg l "$L1" --arg s "$OWNER_ID" '{transaction_id: $t, reason: "Refunded", location_id: $l, staff_user_id: $s}')"
pc ok 200 "adjust a card's cashback" POST "/api/v1/admin/cards/$DEMO_CASHBACK_CARD/adjust" \
    '{"cashback_amount":-0.50,"reason":"Earned on a returned item","idempotency_key":"pr-adj1","punches":null}'
pc ok 200 "adjust a card's punches" POST "/api/v1/admin/cards/$DEMO_PUNCH_CARD/adjust" '{"punches":3,"reason":"Stamps forgotten","location_id":null}'
pc ok 422 "adjust below zero" POST "/api/v1/admin/cards/$DEMO_CASHBACK_CARD/adjust" '{"cashback_amount":-100000,"reason":"x"}'
pc ok 422 "adjust punches of a cashback card" POST "/api/v1/admin/cards/$DEMO_CASHBACK_CARD/adjust" '{"punches":1,"reason":"x"}'
pc bad 400 "adjust without a reason" POST "/api/v1/admin/cards/$DEMO_PUNCH_CARD/adjust" '{"punches":1}'
pc bad 400 "adjust with both amounts" POST "/api/v1/admin/cards/$DEMO_PUNCH_CARD/adjust" '{"punches":1,"cashback_amount":1,"reason":"x"}'
pc ok 404 "adjust an unknown card" POST "/api/v1/admin/cards/$NIL/adjust" '{"punches":1,"reason":"x"}'
pc route 405 "adjust with GET" GET "/api/v1/admin/cards/$DEMO_PUNCH_CARD/adjust"
pc ok 200 "deactivate a card" PATCH "/api/v1/admin/cards/$DEMO_CASHBACK_CARD" '{"status":"inactive"}'
pc ok 409 "adjust a deactivated card" POST "/api/v1/admin/cards/$DEMO_CASHBACK_CARD/adjust" '{"cashback_amount":1,"reason":"x"}'
pc bad 400 "a bad card status" PATCH "/api/v1/admin/cards/$CARD" '{"status":"lost"}'
pc ok 404 "change an unknown card" PATCH "/api/v1/admin/cards/$NIL" '{"status":"active"}'
pc route 405 "POST on one card" POST "/api/v1/admin/cards/$CARD" '{}'
pc ok 200 "a new link for a card" POST "/api/v1/admin/cards/$CARD/redraw" '{"idempotency_key":"pr-redraw"}'
pc ok 200 "the same new link again (its key)" POST "/api/v1/admin/cards/$CARD/redraw" '{"idempotency_key":"pr-redraw"}'
pc ok 404 "a new link for an unknown card" POST "/api/v1/admin/cards/$NIL/redraw" '{}'
pc ok 200 "a card's QR code" GET "/api/v1/admin/cards/$CARD/qr.svg"
pc ok 200 "a card's barcode" GET "/api/v1/admin/cards/$CARD/barcode.svg"
pc ok 404 "an unknown card's barcode" GET "/api/v1/admin/cards/$NIL/barcode.svg"
pc ok 404 "an unknown card's QR code" GET "/api/v1/admin/cards/$NIL/qr.svg"
pc route 404 "a path below a card" GET "/api/v1/admin/cards/$CARD/face.png"
pc ok 200 "a sheet by ids" GET "/api/v1/admin/cards/sheet?ids=$CARD,$CARD2"
pc ok 200 "a sheet of a program" GET "/api/v1/admin/cards/sheet?program_id=$PROG"
pc ok 400 "a sheet without ids" GET /api/v1/admin/cards/sheet
pc ok 404 "a sheet with an unknown id" GET "/api/v1/admin/cards/sheet?ids=$NIL"
pc ok 404 "a sheet of an unknown program" GET "/api/v1/admin/cards/sheet?program_id=$NIL"

for g in day location staff; do
	pc ok 200 "summary by $g" GET "/api/v1/admin/reports/summary?from=2026-01-01&to=$TODAY&group=$g"
done
pc ok 200 "summary as CSV" GET "/api/v1/admin/reports/summary?from=2026-01-01&to=$TODAY&format=csv"
pc ok 200 "summary as CSV, names" GET "/api/v1/admin/reports/summary?from=2026-01-01&to=$TODAY&format=csv&header=names"
pc bad 400 "summary as CSV, a bad header" GET "/api/v1/admin/reports/summary?from=2026-01-01&to=$TODAY&format=csv&header=labels"
pc bad 400 "summary without to" GET "/api/v1/admin/reports/summary?from=2026-01-01"
pc bad 400 "summary of a bad group" GET "/api/v1/admin/reports/summary?from=2026-01-01&to=$TODAY&group=week"
pc ok 200 "transactions report" GET "/api/v1/admin/reports/transactions?from=2026-01-01&to=$TODAY&page_size=500"
pc ok 200 "transactions report as CSV" GET "/api/v1/admin/reports/transactions?from=2026-01-01&to=$TODAY&format=csv"
pc ok 200 "transactions report as CSV, names" GET "/api/v1/admin/reports/transactions?from=2026-01-01&to=$TODAY&format=csv&header=names"
pc ok 400 "transactions report, from after to" GET "/api/v1/admin/reports/transactions?from=$TODAY&to=2026-01-01"
pc route 404 "an unknown report" GET "/api/v1/admin/reports/weekly?from=2026-01-01&to=$TODAY"

pc ok 200 "backup" GET /api/v1/admin/backup
pc route 405 "backup with POST" POST /api/v1/admin/backup '{}'

pc ok 200 "audit trail" GET "/api/v1/admin/audit?page_size=500"
pc ok 200 "audit trail of a period and an action" GET "/api/v1/admin/audit?from=2026-01-01&to=$TODAY&action=location.update"
pc ok 200 "audit trail of one card" GET "/api/v1/admin/audit?object_type=card&object_id=$CARD"
pc ok 200 "audit trail as CSV" GET "/api/v1/admin/audit?format=csv"
pc ok 200 "audit trail as CSV, names" GET "/api/v1/admin/audit?format=csv&header=names"
pc ok 400 "audit trail, an object id without its type" GET "/api/v1/admin/audit?object_id=$CARD"
pc route 405 "audit trail with POST" POST /api/v1/admin/audit '{}'
pc bad 400 "a bad X-Terminal-Id" POST /api/v1/admin/locations '{"name":"T"}' -H "X-Terminal-Id: $(printf 't%.0s' $(seq 65))"

pc ok 200 "settings" GET /api/v1/admin/settings
pc ok 200 "set a setting" PATCH /api/v1/admin/settings '{"login_max_failures":6}'
pc bad 400 "set an unknown setting" PATCH /api/v1/admin/settings '{"bogus":1}'
pc bad 400 "set a setting out of range" PATCH /api/v1/admin/settings '{"utc_offset_minutes":10}'
pc bad 400 "set no setting" PATCH /api/v1/admin/settings '{}'
pc bad 400 "set a setting to null" PATCH /api/v1/admin/settings '{"login_max_failures":null}'
pc ok 200 "set the text settings" PATCH /api/v1/admin/settings \
    '{"currency_symbol":"€","public_url":"https://shop.example/loyalty/"}'
pc bad 400 "set a bad public_url" PATCH /api/v1/admin/settings '{"public_url":"ftp://shop.example/"}'
pc bad 400 "set a currency symbol that is a number" PATCH /api/v1/admin/settings '{"currency_symbol":1}'
pc ok 200 "staff may not enrol" PATCH /api/v1/admin/settings '{"staff_enrolment":0}'
pc ok 200 "a sheet with the cards' links" GET "/api/v1/admin/cards/sheet?ids=$CARD"
LT_TOKEN=$STAFF
pc ok 200 "staff's me while they may not enrol" GET /api/v1/auth/me
pc ok 200 "programs to enrol while staff may not" GET /api/v1/cards/enrol
pc ok 403 "enrol while staff may not" POST /api/v1/cards/enrol \
    "$(json --arg p "$P_PUNCH" '{program_id: $p, customer_name: "X"}')"
LT_TOKEN=$OWNER
pc ok 201 "the owner enrols while staff may not" POST /api/v1/cards/enrol \
    "$(json --arg p "$P_PUNCH" '{program_id: $p, customer_name: "Ola Owner"}')"
pc ok 200 "staff may enrol again" PATCH /api/v1/admin/settings '{"staff_enrolment":1}'

# Integrations (issue 28): webhook endpoints, integration tokens, the feed.
pc ok 200 "list webhooks" GET /api/v1/admin/webhooks
pc ok 201 "add a webhook" POST /api/v1/admin/webhooks \
    '{"url":"https://shop.example/hooks/loyalty","event_types":["transaction.recorded","reward.claimed"],"description":"Website"}'
HOOK=$(lt_jq .data.webhook.id)
pc ok 201 "add a webhook of every type" POST /api/v1/admin/webhooks '{"url":"https://hooks.example:8443/all","event_types":null}'
HOOK2=$(lt_jq .data.webhook.id)
pc ok 400 "add a webhook to a private address" POST /api/v1/admin/webhooks '{"url":"https://10.1.2.3/hook"}'
pc ok 400 "add a webhook over plain http" POST /api/v1/admin/webhooks '{"url":"http://shop.example/hook"}'
pc bad 400 "add a webhook without a url" POST /api/v1/admin/webhooks '{"description":"x"}'
pc bad 400 "add a webhook of an unknown type" POST /api/v1/admin/webhooks '{"url":"https://shop.example/h","event_types":["card.lost"]}'
pc bad 400 "add a webhook of no type" POST /api/v1/admin/webhooks '{"url":"https://shop.example/h","event_types":[]}'
pc ok 200 "one webhook" GET "/api/v1/admin/webhooks/$HOOK"
pc ok 404 "an unknown webhook" GET "/api/v1/admin/webhooks/$NIL"
pc ok 200 "disable a webhook" PATCH "/api/v1/admin/webhooks/$HOOK" '{"enabled":false}'
pc ok 200 "enable a webhook for every type" PATCH "/api/v1/admin/webhooks/$HOOK" '{"enabled":true,"event_types":null}'
pc bad 400 "a webhook's PATCH of nothing" PATCH "/api/v1/admin/webhooks/$HOOK" '{}'
pc ok 404 "PATCH of an unknown webhook" PATCH "/api/v1/admin/webhooks/$NIL" '{"enabled":false}'
pc ok 200 "rotate a webhook's secret, an empty body" POST "/api/v1/admin/webhooks/$HOOK/rotate" "" -H "Content-Length: 0"
pc ok 200 "rotate a webhook's secret" POST "/api/v1/admin/webhooks/$HOOK/rotate" '{}'
pc ok 404 "rotate an unknown webhook's secret" POST "/api/v1/admin/webhooks/$NIL/rotate" '{}'
pc ok 202 "test a webhook" POST "/api/v1/admin/webhooks/$HOOK/test" '{}'
pc ok 404 "test an unknown webhook" POST "/api/v1/admin/webhooks/$NIL/test" '{}'
pc ok 404 "resend an unknown event" POST "/api/v1/admin/webhooks/$HOOK/resend" '{"event_id":"evt_9999999999999999"}'
pc bad 400 "resend a malformed event id" POST "/api/v1/admin/webhooks/$HOOK/resend" '{"event_id":"42"}'
pc ok 200 "a webhook's deliveries" GET "/api/v1/admin/webhooks/$HOOK/deliveries?limit=5&offset=0"
pc bad 400 "a webhook's deliveries, limit 101" GET "/api/v1/admin/webhooks/$HOOK/deliveries?limit=101"
pc ok 404 "an unknown webhook's deliveries" GET "/api/v1/admin/webhooks/$NIL/deliveries"
pc ok 200 "delete a webhook" DELETE "/api/v1/admin/webhooks/$HOOK2"
pc ok 404 "delete it again" DELETE "/api/v1/admin/webhooks/$HOOK2"
pc ok 200 "the event feed" GET /api/v1/admin/events
EVT=$(lt_jq '.data.events[0].id')
pc ok 200 "the feed after an event, two of two types" GET "/api/v1/admin/events?after=$EVT&limit=2&type=transaction.recorded,reward.earned"
pc bad 400 "the feed with a malformed after" GET "/api/v1/admin/events?after=42"
pc ok 400 "the feed of an unknown type" GET "/api/v1/admin/events?type=card.lost"
pc bad 400 "the feed with limit 501" GET "/api/v1/admin/events?limit=501"
pc ok 202 "resend an event" POST "/api/v1/admin/webhooks/$HOOK/resend" "$(json --arg e "$EVT" '{event_id: $e}')"
pc ok 200 "list tokens" GET /api/v1/admin/tokens
pc ok 201 "make a token to read events" POST /api/v1/admin/tokens '{"name":"Website shop","scopes":["events:read"]}'
TOK_ID=$(lt_jq .data.token.id)
TOK=$(lt_jq .data.token.secret)
pc ok 201 "make a token of both scopes" POST /api/v1/admin/tokens '{"name":"Accounting","scopes":["events:read","webhooks:manage"]}'
TOK2=$(lt_jq .data.token.secret)
pc bad 400 "make a token without scopes" POST /api/v1/admin/tokens '{"name":"x","scopes":[]}'
pc bad 400 "make a token of an unknown scope" POST /api/v1/admin/tokens '{"name":"x","scopes":["cards:write"]}'
pc bad 400 "make a token without a name" POST /api/v1/admin/tokens '{"scopes":["events:read"]}'
pc ok 200 "one token" GET "/api/v1/admin/tokens/$TOK_ID"
pc ok 404 "an unknown token" GET "/api/v1/admin/tokens/$NIL"
pc route 405 "PATCH on a token" PATCH "/api/v1/admin/tokens/$TOK_ID" '{}'
LT_TOKEN=$TOK
pc ok 200 "the feed with an integration token" GET "/api/v1/admin/events?limit=3"
pc ok 403 "webhooks with a token of events:read" GET /api/v1/admin/webhooks
pc ok 403 "tokens with an integration token" GET /api/v1/admin/tokens
pc ok 403 "locations with an integration token" GET /api/v1/admin/locations
LT_TOKEN=$TOK2
pc ok 200 "webhooks with a token of webhooks:manage" GET /api/v1/admin/webhooks
pc ok 201 "a webhook added by an integration token" POST /api/v1/admin/webhooks '{"url":"https://books.example/loyalty"}'
LT_TOKEN=$OWNER
pc ok 200 "revoke a token" DELETE "/api/v1/admin/tokens/$TOK_ID"
pc ok 200 "revoke it again" DELETE "/api/v1/admin/tokens/$TOK_ID"
pc ok 404 "revoke an unknown token" DELETE "/api/v1/admin/tokens/$NIL"
LT_TOKEN=$TOK
pc ok 401 "the feed with a revoked token" GET /api/v1/admin/events
LT_TOKEN=$OWNER
# Events pruned after the retention: the feed says so (the deliverer
# keeps events_pruned; here it is set, as if it had run).
sqlite3 "$LT_DB" "INSERT OR REPLACE INTO events_pruned (merchant_id, through_seq)
    SELECT merchant_id, 2 FROM events GROUP BY merchant_id" 2>/dev/null ||
    diag "could not mark events pruned in $LT_DB"
pc ok 410 "the feed after a pruned event" GET /api/v1/admin/events?after=evt_0000000000000001
pc route 405 "PUT on the webhook list" PUT /api/v1/admin/webhooks '{}'
pc ok 403 "set a setting the server sets" PATCH /api/v1/admin/settings '{"webhook_allow_private":1}'
pc ok 200 "keep events 60 days" PATCH /api/v1/admin/settings '{"event_retention_days":60}'

LT_TOKEN=
for p in locations users programs cards cards/sheet reports/summary?from=2026-01-01\&to=$TODAY \
    reports/transactions?from=2026-01-01\&to=$TODAY backup audit settings webhooks tokens events; do
	pc bad 401 "the owner's API without a token: $p" GET "/api/v1/admin/$p"
done
pc bad 401 "a location's PATCH without a token" PATCH "/api/v1/admin/locations/$LOC" '{"name":"x"}'
pc bad 401 "a user's PATCH without a token" PATCH "/api/v1/admin/users/$USER2" '{"name":"x"}'
pc bad 401 "a program's PATCH without a token" PATCH "/api/v1/admin/programs/$PROG" '{"title":"x"}'
pc bad 401 "issue without a token" POST /api/v1/admin/cards "$(json --arg p "$PROG" '{program_id: $p, customer_name: "X"}')"
pc bad 401 "one card without a token" GET "/api/v1/admin/cards/$CARD"
pc bad 401 "a card's PATCH without a token" PATCH "/api/v1/admin/cards/$CARD" '{"status":"active"}'
pc bad 401 "adjust without a token" POST "/api/v1/admin/cards/$CARD/adjust" '{"punches":1,"reason":"x"}'
pc bad 401 "a card's QR code without a token" GET "/api/v1/admin/cards/$CARD/qr.svg"
pc bad 401 "a card's barcode without a token" GET "/api/v1/admin/cards/$CARD/barcode.svg"
pc bad 401 "add a location without a token" POST /api/v1/admin/locations '{"name":"x"}'
pc bad 401 "add a user without a token" POST /api/v1/admin/users '{"email":"x@y.example","password":"12345678","user_type":"owner"}'
pc bad 401 "add a program without a token" POST /api/v1/admin/programs '{"type":"punch","title":"X","punch_requirement":8,"reward_title":"Y"}'
pc bad 401 "settings PATCH without a token" PATCH /api/v1/admin/settings '{"login_max_failures":5}'
pc bad 401 "record without a token" POST /api/v1/transactions/record "$(purchase card_instance_id "$CARD" 3)"
pc bad 401 "history without a token" GET "/api/v1/transactions/history?card_instance_id=$CARD"
pc bad 401 "sync without a token" POST /api/v1/transactions/sync '{"transactions":[{}]}'
pc bad 401 "claim without a token" POST /api/v1/rewards/claim "$(claim "$CARD")"
pc bad 401 "redeem without a token" POST /api/v1/cashback/redeem "$(redeem "$CARD" 1 2)"
pc bad 401 "void without a token" POST /api/v1/transactions/void "$(void "$NIL")"
pc bad 401 "the voidable list without a token" GET "/api/v1/transactions/void?location_id=$L1&staff_user_id=$STAFF_ID"
pc bad 401 "enrol POST without a token" POST /api/v1/cards/enrol "$(json --arg p "$P_PUNCH" '{program_id: $p, customer_name: "X"}')"
LT_TOKEN=$STAFF
pc ok 200 "2 punches on a card capped at 2" POST /api/v1/transactions/record \
    "$(purchase card_instance_id "$CARD" 3 '{punch_count: 2}')"
pc ok 400 "3 punches on a card capped at 2" POST /api/v1/transactions/record \
    "$(purchase card_instance_id "$CARD" 3 '{punch_count: 3}')"
LT_TOKEN=$OWNER
pc ok 200 "lift the punch cap" PATCH "/api/v1/admin/programs/$PROG" '{"max_punches_per_purchase":null}'
pc ok 400 "a punch cap on a discount program" PATCH "/api/v1/admin/programs/$DPROG" '{"max_punches_per_purchase":3}'
LT_TOKEN=$STAFF
pc ok 200 "3 punches once the cap is lifted" POST /api/v1/transactions/record \
    "$(purchase card_instance_id "$CARD" 3 '{punch_count: 3}')"
pc ok 409 "record on the deactivated card" POST /api/v1/transactions/record \
    "$(purchase card_instance_id "$DEMO_CASHBACK_CARD" 3)"
pc ok 409 "redeem on the deactivated card" POST /api/v1/cashback/redeem "$(redeem "$DEMO_CASHBACK_CARD" 0.1 1)"
pc ok 409 "claim on the deactivated card" POST /api/v1/rewards/claim "$(claim "$DEMO_CASHBACK_CARD")"
pc ok 200 "lookup of the deactivated card" POST /api/v1/cards/lookup \
    "$(json --arg q "$DEMO_CASHBACK_QR" '{qr_code_data: $q}')"

# --- 2. the web server's own refusals ----------------------------------------------
# Through Prism where its HTTP parser lets them by; then each its own 4xx,
# never 500 nor Retry-After, with Cache-Control: no-store.
LT_TOKEN=$STAFF
NOSTORE=1 pc bad 400 "the web server's: a NUL byte in the query" GET \
    "/api/v1/transactions/history?card_instance_id=$DEMO_PUNCH_CARD&page=%00"
NOSTORE=1 pc bad 400 "the web server's: a control byte in the query" GET \
    "/api/v1/transactions/history?card_instance_id=$DEMO_PUNCH_CARD&page=%01"
NORETRY=1 pc bad 400 "invalid UTF-8 in the query" GET \
    "/api/v1/transactions/history?card_instance_id=$DEMO_PUNCH_CARD&page=%ff"
NOSTORE=1 pc route 400 "the web server's: a NUL byte in the path" POST /api/v1/transactions/record%00 '{}'
NOSTORE=1 pc ok 431 "the web server's: a request line over 8 KiB" GET \
    "/api/v1/auth/me?x=$(head -c 8300 /dev/zero | tr '\0' a)"

lt_log_clean "the demo server"
fi # have_prism

# raw DESC WANT_STATUS WANT_CODE: the request on stdin sent to lighttpd as
# it is (bash's /dev/tcp); the answer's status, code and headers checked.
raw() {
	local desc=$1 want=$2 code=$3 resp head body st problems=()
	resp=$(
		exec 3<>"/dev/tcp/127.0.0.1/${LT_URL##*:}" || exit 1
		cat >&3
		timeout 20 cat <&3
	) || resp=
	head=$(printf '%s' "$resp" | tr -d '\r' | sed '/^$/q')
	body=$(printf '%s' "$resp" | tr -d '\r' | sed '1,/^$/d')
	st=$(printf '%s' "$head" | sed -n '1s/^HTTP\/[0-9.]* \([0-9]*\).*/\1/p')
	[ "$st" = "$want" ] || problems+=("status ${st:-none}, want $want")
	printf '%s' "$body" | jq -e --arg c "$code" '.success == false and .error.code == $c' >/dev/null 2>&1 ||
	    problems+=("body ${body:0:200}, want the error $code")
	printf '%s\n' "$head" | grep -qi '^Retry-After:' && problems+=("Retry-After on a refused request")
	printf '%s\n' "$head" | grep -qi '^Cache-Control: *no-store$' || problems+=("no Cache-Control: no-store")
	printf '%s\n' "$head" | grep -qi '^X-Request-Id: *[A-Za-z0-9._-]\{1,64\}$' || problems+=("no X-Request-Id")
	if [ ${#problems[@]} = 0 ]; then
		tap_result 0 "the web server's own: $desc -> $want $code"
	else
		tap_result 1 "the web server's own: $desc -> $want $code"
		local p
		for p in "${problems[@]}"; do diag "  $p"; done
	fi
}
if [ -n "$LT_URL" ]; then
	raw "a NUL in a header" 400 VALIDATION_ERROR < <(printf \
	    'GET /api/v1/auth/me HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Bad: a\0b\r\nConnection: close\r\n\r\n')
	raw "a garbage request line" 400 VALIDATION_ERROR < <(printf 'GARBAGE\r\n\r\n')
	raw "a negative Content-Length" 400 VALIDATION_ERROR < <(printf \
	    'POST /api/v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: -5\r\nConnection: close\r\n\r\n{}')
	raw "a request line of 8,192 bytes and more" 431 HEADERS_TOO_LARGE < <(printf \
	    'GET /api/v1/auth/me?x=%s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' \
	    "$(head -c 8192 /dev/zero | tr '\0' a)")
	raw "a NUL byte in the path" 400 VALIDATION_ERROR < <(printf \
	    'GET /api/v1/transactions/record%%00 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n')
	raw "a control byte in the query" 400 VALIDATION_ERROR < <(printf \
	    'GET /api/v1/auth/me?page=%%01 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n')
fi

# --- 1 (end). setup on a new installation, and the cover's check ---------------------
if [ $have_prism = 1 ]; then
	prism_stop
	lt_stop
	LT_TOKEN=
	lt_start true
	trap cleanup EXIT
	prism_start
	pc ok 200 "setup status of a new installation" GET /api/v1/setup
	CODE=$(head -n 1 "$LT_DB.setup-code" 2>/dev/null)
	setup_body() {	# CODE
		json --arg c "$1" '{setup_code: $c, merchant_name: "Corner Cafe", location_name: "High Street",
		    owner_name: "Olive", owner_email: "olive@cafe.example", owner_password: "a long password"}'
	}
	pc ok 403 "setup with a wrong code" POST /api/v1/setup "$(setup_body AAAAAAAAAAAAAAAAAAAA)"
	pc bad 403 "setup without a code" POST /api/v1/setup "$(setup_body "$CODE" | jq -c 'del(.setup_code)')"
	pc ok 400 "setup with a bad e-mail" POST /api/v1/setup "$(setup_body "$CODE" | jq -c '.owner_email = "olive"')"
	pc bad 400 "setup with a short password" POST /api/v1/setup "$(setup_body "$CODE" | jq -c '.owner_password = "short"')"
	pc ok 200 "setup with the right code" POST /api/v1/setup "$(setup_body "$CODE")"
	pc ok 404 "setup status after setup" GET /api/v1/setup
	pc ok 200 "the new owner logs in" POST /api/v1/auth/login '{"email":"olive@cafe.example","password":"a long password"}'
	LT_TOKEN=$(lt_jq .access_token)
	pc ok 200 "the new owner's first card list" GET /api/v1/admin/cards
	pc ok 200 "the new shop's empty summary" GET "/api/v1/admin/reports/summary?from=$TODAY&to=$TODAY"
	lt_log_clean "the new installation's server"
	prism_stop

	while IFS= read -r l; do
		case $l in
		'PASS '*) tap_result 0 "${l#PASS }" ;;
		'FAIL '*) tap_result 1 "${l#FAIL }" ;;
		*) diag "$l" ;;
		esac
	done < <(python3 "$top_srcdir/tests/prism/cover.py" "$SPEC" "$WORK/cover.tsv")
fi

# --- 3. the generated run --------------------------------------------------------------
if [ $have_portman = 1 ]; then
	prism_stop
	lt_stop
	lt_start
	trap cleanup EXIT
	lt_login "$DEMO_STAFF_EMAIL" "$DEMO_STAFF_PASSWORD" || bail "staff login failed"
	STAFF_ID=$LT_USER_ID
	lt_login "$DEMO_OWNER_EMAIL" "$DEMO_OWNER_PASSWORD" || bail "owner login failed"
	mkdir -p "$WORK/gen"
	# Portman writes its working files below the current folder.
	if ! (cd "$WORK/gen" && timeout 300 node "$PORTMAN" -l "$SPEC" -b "$LT_URL" \
	    -c "$top_srcdir/tests/prism/portman.json" -o "$WORK/gen/collection.json" \
	    </dev/null >"$WORK/gen/portman.log" 2>&1) || [ ! -s "$WORK/gen/collection.json" ]; then
		tap_result 1 "Portman generates requests from docs/openapi.yaml"
		tail -n 20 "$WORK/gen/portman.log" | while IFS= read -r l; do diag "$l"; done
	else
		# The document's example ids and codes become the demo's, so
		# that the requests reach past "not found".
		python3 "$top_srcdir/tests/prism/demo_ids.py" "$WORK/gen/collection.json" \
		    "$WORK/gen/requests.json" \
		    location="$DEMO_LOCATION_ID" staff="$STAFF_ID" card="$DEMO_PUNCH_CARD" \
		    cashback_card="$DEMO_CASHBACK_CARD" barcode="$DEMO_PUNCH_BARCODE" \
		    qr="$DEMO_DISCOUNT_QR" >"$WORK/gen/ids.log" 2>&1 ||
		    bail "demo_ids.py: $(tail -n 5 "$WORK/gen/ids.log")"
		n=$(jq '[.. | objects | select(has("request") and has("name"))] | length' "$WORK/gen/requests.json")
		tap_result 0 "Portman generates requests from docs/openapi.yaml ($n requests)"
		t0=$(date +%s)
		(cd "$WORK/gen" && timeout 200 node "$NEWMAN" run requests.json \
		    --env-var "baseUrl=$LT_URL" --env-var "token=$LT_TOKEN" \
		    --timeout 150000 --timeout-request 30000 --suppress-exit-code \
		    -r json --reporter-json-export run.json </dev/null >newman.log 2>&1)
		rc=$?
		t1=$(date +%s)
		if [ ! -s "$WORK/gen/run.json" ]; then
			tap_result 1 "Newman ran the generated requests (exit $rc)"
			tail -n 20 "$WORK/gen/newman.log" | while IFS= read -r l; do diag "$l"; done
		else
			sent=$(jq '[.run.executions[] | select(.response)] | length' "$WORK/gen/run.json")
			tap_result 0 "Newman sent $sent generated requests in $((t1 - t0)) s (exit $rc)"
			jq -r '.run.executions[] | select(.response) |
			    "\(.response.code)\t\(.item.name)"' "$WORK/gen/run.json" |
			    cut -f1 | sort | uniq -c | while read -r c s; do diag "  $c answered $s"; done
			fails=$(jq -r '.run.executions[] | select(.response.code >= 500 or (.response == null)) |
			    "\(.response.code // "no answer") \(.request.method) \(.request.url.path | join("/")) \(.item.name)"' \
			    "$WORK/gen/run.json")
			if [ -z "$fails" ]; then
				tap_result 0 "no generated request got a 5xx or no answer"
			else
				tap_result 1 "no generated request got a 5xx or no answer"
				printf '%s\n' "$fails" | head -n 40 | while IFS= read -r l; do diag "  $l"; done
			fi
		fi
	fi
	lt_log_clean "the generated run's server"
fi

done_testing
