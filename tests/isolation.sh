#!/usr/bin/env bash
# The tenant isolation matrix, through the real HTTP server, on the seed of
# tests/seed.sh (merchant A = M1 "Test Cafe" with locations Front and Back,
# staff at each and an owner; merchant B = M2 "Other Shop") with more of B
# added here (a second location, a staff member, a cashback program and
# card, purchases, a redemption, pending rewards, idempotency keys) and a
# card each merchant issued at the counter with a key.
#
# Every endpoint is called by every role with, in turn, its own things and
# each kind of foreign thing, from tables below (not case by case):
#
# - v1 (lookup, history, record, sync, claim, redeem): another merchant's
#   card is CARD_NOT_FOUND (404; a sync item's error, 207), another
#   merchant's location or user FORBIDDEN (403), as is staff acting at
#   another location of their merchant or as someone else; login, me and
#   refresh name only the merchant's own locations;
# - enrolment (GET/POST /api/v1/cards/enrol): GET lists the caller's
#   merchant's programs only; another merchant's program is 404 NOT_FOUND
#   on program_id exactly as one that does not exist, another merchant's
#   location (or, for staff, another location of their own) 403 FORBIDDEN
#   on location_id, and neither issues a card or keeps a key anywhere;
# - the customer's card page (GET /api/v1/mycard/TOKEN and its qr.svg,
#   barcode.svg, link.svg; no login): a card's share token shows that card
#   alone, nothing of any other card or of the other merchant, and the same
#   answer whoever's bearer token comes with it;
# - idempotency keys are each merchant's own: one the other merchant used
#   (for an enrolment, a purchase, a redemption) makes the caller's own
#   card, or replays the caller's own, never the other merchant's answer
#   nor a 400 for a key "of another kind" that would tell it was used;
# - the owner's API: staff 403 FORBIDDEN, no token 401, an id of another
#   merchant's location, user, program or card 404 NOT_FOUND exactly as an
#   id that does not exist (docs/admin-api.md); setup is 404 once the shop
#   has an owner; the settings of an installation of several shops are
#   the server's (an owner's PATCH is 403), and an owner's backup holds
#   that owner's shop alone; the feed of events gives the owner's own
#   events alone, and an integration token of another merchant is 404
#   NOT_FOUND (shown or revoked) exactly as one that does not exist;
# - no body (JSON, CSV, SVG, HTML, the backup's rows) holds any id or name
#   of the other merchant (but what the request itself sent, in an error);
# - the other merchant's rows are the same before and after (a dump of
#   them), and no row of one merchant points at the other's.
#
# Merchant B acts on A's things first (A's rows compared around that
# phase), then A's roles on B's things. B's rows are compared around both
# phases, in two parts: phase 1 ends with B's own enrolments under A's
# idempotency keys (which must write B's rows, and none of A's).
. "$top_srcdir/tests/lib.sh"
# shellcheck source=tests/seed.sh
. "$top_srcdir/tests/seed.sh" || bail "cannot read tests/seed.sh"
export TZ=UTC

BSTAFF_EMAIL=bstaff@m2.test
BSTAFF_PASSWORD='bstaff-pass-2'
VICTIM_PASSWORD='victim-pass-1'
MISSING_ID=00000000-0000-4000-8000-000000000000

# The seed, then more of merchant B and a staff member of A whose account
# the owner's controls may change; their ids appended to the seed's
# variables.
iso_seed() {
	local adm=("$LT_ADMIN" --db "$LOYALTY_DB") v=$LT_DIR/seed.vars out p
	seed_build "$top_builddir" "$LOYALTY_DB" "$v" || return 1
	# shellcheck disable=SC1090
	. "$v"
	{
		echo "M2L2='$("${adm[@]}" location add --merchant "$M2" --name "Pier Stall" </dev/null)'"
		echo "BSTAFF_ID='$(printf '%s\n' "$BSTAFF_PASSWORD" | "${adm[@]}" user add \
		    --merchant "$M2" --email "$BSTAFF_EMAIL" --type system_user \
		    --location "$M2L1" --name "Bea Bstaff")'"
		echo "VICTIM_ID='$(printf '%s\n' "$VICTIM_PASSWORD" | "${adm[@]}" user add \
		    --merchant "$M1" --email victim@m1.test --type system_user \
		    --location "$L2" --name "Vic Victim")'"
		p=$("${adm[@]}" program add --merchant "$M2" --type cashback \
		    --title "Brew Bucks" --tier Jade:0:0.05 </dev/null) || return 1
		echo "M2CASH_PROG='$p'"
		out=$("${adm[@]}" card issue --program "$p" --customer "Nia Cashwell" </dev/null) ||
		    return 1
		jq -r '"M2CASH_ID=\u0027\(.card_instance_id)\u0027",
		    "M2CASH_QR=\u0027\(.qr_code_data)\u0027",
		    "M2CASH_BARCODE=\u0027\(.barcode_value)\u0027",
		    "M2CASH_SHARE=\u0027\(.share_token)\u0027"' <<<"$out"
		echo "M2CASH_CUSTOMER='Nia Cashwell'"
	} >>"$v"
	grep -q "^M2L2='.\+'$" "$v" && grep -q "^BSTAFF_ID='.\+'$" "$v" &&
	    grep -q "^VICTIM_ID='.\+'$" "$v"
}

lt_start iso_seed
# shellcheck disable=SC1091
. "$LT_DIR/seed.vars"
W=$LT_DIR/work
mkdir -p "$W"
sql() { sqlite3 -cmd '.timeout 5000' "$LT_DB" "$@"; }

# --- the roles ----------------------------------------------------------------
declare -A TOK REF
for r in OWNER STAFF STAFF2 OWNER2 BSTAFF; do
	e=${r}_EMAIL p=${r}_PASSWORD
	lt_login "${!e}" "${!p}" || bail "login of ${!e} failed"
	TOK[${r,,}]=$LT_TOKEN REF[${r,,}]=$LT_REFRESH
done
LT_TOKEN=

# as ROLE METHOD PATH [BODY]: one request of a role (anon: no token) for
# the preparations; the answer in LT_STATUS and LT_BODY.
as() {
	local role=$1
	shift
	if [ "$role" = anon ]; then LT_TOKEN=; else LT_TOKEN=${TOK[$role]}; fi
	lt_req "$@"
	LT_TOKEN=
}

# --- what each merchant has done before ------------------------------------------
# B: a punch card with pending rewards, a cashback card with a balance and a
# redemption, idempotency keys that A will use too, a location added
# through the owner's API with a key.
as owner2 POST /api/v1/transactions/record "{\"card_instance_id\":\"$M2CARD_ID\",
    \"location_id\":\"$M2L1\",\"staff_user_id\":\"$OWNER2_ID\",\"purchase_amount\":3.00,
    \"punch_count\":10,\"idempotency_key\":\"shared-key-1\"}"
[ "$LT_STATUS" = 200 ] || bail "B's punches: $LT_STATUS $LT_BODY"
as bstaff POST /api/v1/transactions/record "{\"card_instance_id\":\"$M2CASH_ID\",
    \"location_id\":\"$M2L1\",\"staff_user_id\":\"$BSTAFF_ID\",\"purchase_amount\":100.00,
    \"idempotency_key\":\"shared-key-2\"}"
[ "$LT_STATUS" = 200 ] || bail "B's purchase: $LT_STATUS $LT_BODY"
as owner2 POST /api/v1/cashback/redeem "{\"card_instance_id\":\"$M2CASH_ID\",
    \"location_id\":\"$M2L1\",\"staff_user_id\":\"$OWNER2_ID\",\"redemption_amount\":1.00,
    \"purchase_amount\":4.00,\"idempotency_key\":\"shared-key-3\"}"
[ "$LT_STATUS" = 200 ] || bail "B's redemption: $LT_STATUS $LT_BODY"
as owner2 POST /api/v1/admin/locations '{"name":"Kiosk B","idempotency_key":"shared-admin-key"}'
[ "$LT_STATUS" = 200 ] || bail "B's location: $LT_STATUS $LT_BODY"
# A wrong password of B's staff: a login attempt kept with its e-mail.
as anon POST /api/v1/auth/login "{\"email\":\"$BSTAFF_EMAIL\",\"password\":\"not-the-password\"}"
[ "$LT_STATUS" = 401 ] || bail "B's failed login: $LT_STATUS $LT_BODY"
# A: ten pending rewards on the quick card, a cashback balance.
as owner POST /api/v1/transactions/record "{\"card_instance_id\":\"$QUICK_ID\",
    \"location_id\":\"$L1\",\"staff_user_id\":\"$STAFF_ID\",\"purchase_amount\":3.00,
    \"punch_count\":30,\"idempotency_key\":\"a-prep-1\"}"
[ "$LT_STATUS" = 200 ] || bail "A's punches: $LT_STATUS $LT_BODY"
as staff POST /api/v1/transactions/record "{\"card_instance_id\":\"$CASH_ID\",
    \"location_id\":\"$L1\",\"staff_user_id\":\"$STAFF_ID\",\"purchase_amount\":100.00,
    \"idempotency_key\":\"a-prep-2\"}"
[ "$LT_STATUS" = 200 ] || bail "A's purchase: $LT_STATUS $LT_BODY"
# Each: a card issued at the counter with a key the other merchant will
# use too (a staff member of each).
as staff POST /api/v1/cards/enrol "{\"program_id\":\"$PUNCH_PROG\",\"customer_name\":\"Enid Enrolled\",
    \"idempotency_key\":\"a-enrol-key\"}"
[ "$LT_STATUS" = 201 ] || bail "A's enrolment: $LT_STATUS $LT_BODY"
A_ENROL_ID=$(lt_jq .data.card_instance_id)
as bstaff POST /api/v1/cards/enrol "{\"program_id\":\"$M2CASH_PROG\",\"customer_name\":\"Bo Enrolled\",
    \"idempotency_key\":\"b-enrol-key\"}"
[ "$LT_STATUS" = 201 ] || bail "B's enrolment: $LT_STATUS $LT_BODY"
B_ENROL_ID=$(lt_jq .data.card_instance_id)
# Each: an integration token, and an event of its own in the feed.
as owner POST /api/v1/admin/tokens '{"name":"A feed reader","scopes":["events:read"]}'
[ "$LT_STATUS" = 201 ] || bail "A's integration token: $LT_STATUS $LT_BODY"
A_APITOKEN_ID=$(lt_jq .data.token.id)
as owner2 POST /api/v1/admin/tokens '{"name":"B feed reader","scopes":["events:read"]}'
[ "$LT_STATUS" = 201 ] || bail "B's integration token: $LT_STATUS $LT_BODY"
B_APITOKEN_ID=$(lt_jq .data.token.id)
for m in "$M1" "$M2"; do
	sql "INSERT INTO events(merchant_id, type, created_at, data) VALUES ('$m', 'card.updated', 1764000000000, '{\"iso_event_of\":\"$m\"}')" ||
	    bail "an event of $m"
done

# --- each merchant's ids and names, and its rows -------------------------------
# strings_of MERCHANT: every id and name of the merchant's rows, one a line.
strings_of() {
	sql "SELECT id FROM merchants WHERE id = '$1'
	UNION SELECT name FROM merchants WHERE id = '$1'
	UNION SELECT id FROM locations WHERE merchant_id = '$1'
	UNION SELECT name FROM locations WHERE merchant_id = '$1'
	UNION SELECT id FROM users WHERE merchant_id = '$1'
	UNION SELECT email FROM users WHERE merchant_id = '$1'
	UNION SELECT display_name FROM users WHERE merchant_id = '$1'
	UNION SELECT id FROM programs WHERE merchant_id = '$1'
	UNION SELECT title FROM programs WHERE merchant_id = '$1'
	UNION SELECT reward_title FROM programs WHERE merchant_id = '$1'
	UNION SELECT reward_description FROM programs WHERE merchant_id = '$1'
	UNION SELECT name FROM tiers WHERE program_id IN (SELECT id FROM programs WHERE merchant_id = '$1')
	UNION SELECT id FROM api_tokens WHERE merchant_id = '$1'
	UNION SELECT name FROM api_tokens WHERE merchant_id = '$1'
	UNION SELECT prefix FROM api_tokens WHERE merchant_id = '$1'
	UNION SELECT id FROM cards WHERE merchant_id = '$1'
	UNION SELECT customer_name FROM cards WHERE merchant_id = '$1'
	UNION SELECT barcode FROM cards WHERE merchant_id = '$1'
	UNION SELECT qr_code FROM cards WHERE merchant_id = '$1'
	UNION SELECT share_token FROM cards WHERE merchant_id = '$1'
	UNION SELECT id FROM transactions WHERE merchant_id = '$1'
	UNION SELECT id FROM rewards WHERE card_id IN (SELECT id FROM cards WHERE merchant_id = '$1')" |
	    grep -v '^$' | sort -u
}
strings_of "$M1" >"$W/a.all"
strings_of "$M2" >"$W/b.all"
# A string both merchants have (none in this seed) proves nothing.
comm -23 "$W/a.all" "$W/b.all" >"$W/a.strings"
comm -13 "$W/a.all" "$W/b.all" >"$W/b.strings"
[ -n "$(comm -12 "$W/a.all" "$W/b.all")" ] &&
    diag "shared by both merchants, not checked: $(comm -12 "$W/a.all" "$W/b.all" | tr '\n' ' ')"
diag "ids and names looked for: $(wc -l <"$W/b.strings") of merchant B in A's answers, $(wc -l <"$W/a.strings") of A in B's"

# dump MERCHANT: every row of the merchant, and of what hangs off them.
dump() {
	local m=$1 cards="(SELECT id FROM cards WHERE merchant_id = '$1')"
	sql "SELECT 'merchant', * FROM merchants WHERE id = '$m';
	SELECT 'location', * FROM locations WHERE merchant_id = '$m' ORDER BY id;
	SELECT 'user', * FROM users WHERE merchant_id = '$m' ORDER BY id;
	SELECT 'program', * FROM programs WHERE merchant_id = '$m' ORDER BY id;
	SELECT 'tier', * FROM tiers WHERE program_id IN (SELECT id FROM programs WHERE merchant_id = '$m') ORDER BY program_id, min_spend;
	SELECT 'card', * FROM cards WHERE merchant_id = '$m' ORDER BY id;
	SELECT 'txn', * FROM transactions WHERE merchant_id = '$m' OR card_id IN $cards ORDER BY id;
	SELECT 'reward', * FROM rewards WHERE card_id IN $cards ORDER BY id;
	SELECT 'earning', * FROM cashback_earnings WHERE card_id IN $cards ORDER BY transaction_id;
	SELECT 'entry', * FROM redemption_entries WHERE redeem_transaction_id IN (SELECT id FROM transactions WHERE card_id IN $cards) ORDER BY 2, 3;
	SELECT 'idem', * FROM idempotency_keys WHERE merchant_id = '$m' ORDER BY key;
	SELECT 'bucket', * FROM report_buckets WHERE merchant_id = '$m' ORDER BY bucket, location_id, staff_user_id;
	SELECT 'count', * FROM txn_counts WHERE card_id IN $cards ORDER BY card_id, type;
	SELECT 'token', hex(digest), kind, user_id, family, expires_at, rotated_at, revoked FROM tokens WHERE user_id IN (SELECT id FROM users WHERE merchant_id = '$m') ORDER BY 2;
	SELECT 'apitoken', * FROM api_tokens WHERE merchant_id = '$m' ORDER BY id;
	SELECT 'event', * FROM events WHERE merchant_id = '$m' ORDER BY seq;
	SELECT 'pruned', * FROM events_pruned WHERE merchant_id = '$m';"
}
dump "$M1" >"$W/a.before"
dump "$M2" >"$W/b.before"

# --- running one case ---------------------------------------------------------------
CASES=0
declare -A BODIES CASES_OF
RE_CODE='"error":\{"code":"([A-Z_]+)"'
RE_ITEM_ERR='"result":\{"success":false,"error":"([A-Z_]+)"'

# urlenc TEXT: TEXT for a URL's path or query.
urlenc() {
	local s=$1 i c o=
	[[ $s =~ ^[A-Za-z0-9._~-]*$ ]] && { printf '%s' "$s"; return; }
	for ((i = 0; i < ${#s}; i++)); do
		c=${s:i:1}
		case $c in
		[A-Za-z0-9._~-]) o+=$c ;;
		*) printf -v c '%%%02X' "'$c"; o+=$c ;;
		esac
	done
	printf '%s' "$o"
}

# check FAMILY ROLE METHOD PATH BODY WANT DESC [FOREIGN_LIST]: the request
# as ROLE; one test point for its status and code (WANT: "STATUS CODE",
# CODE - for none); its body is then searched for the strings of
# FOREIGN_LIST (one a line), but those the request itself sent when the
# answer is an error. Sets ST, CODE, BF (the body's file).
check() {
	local fam=$1 role=$2 m=$3 path=$4 body=$5 want=$6 desc=$7
	local list=${8:-} args out s
	local -a found
	CASES=$((CASES + 1))
	BF=$W/body.$CASES
	args=(-s -o "$BF" -w '%{http_code} %{time_total}' -X "$m" --max-time 30 -H 'Expect:')
	[ "$role" = anon ] || args+=(-H "Authorization: Bearer ${TOK[$role]}")
	[ -z "$body" ] || args+=(-H 'Content-Type: application/json' --data-binary "$body")
	ST=$(curl "${args[@]}" "$LT_URL$path") || ST="000 ${ST#* }"
	echo "${ST#* } $desc" >>"$W/times"
	ST=${ST%% *}
	out=
	[ -f "$BF" ] && read -r -d '' out <"$BF"
	CODE=-
	if [[ $out =~ $RE_CODE ]]; then
		CODE=${BASH_REMATCH[1]}
	elif [ "$ST" = 207 ] && [[ $out =~ $RE_ITEM_ERR ]]; then
		CODE=${BASH_REMATCH[1]}
	fi
	is "$ST $CODE" "$want" "$desc" || diag "  body: ${out:0:300}"
	CASES_OF[$fam]=$((${CASES_OF[$fam]:-0} + 1))
	[ -n "$list" ] || return 0
	BODIES[$fam]=$((${BODIES[$fam]:-0} + 1))
	found=()
	while IFS= read -r s; do
		# An error may name what the request sent (and nothing else).
		[ "${ST:0:1}" != 2 ] && [[ "$path $body" == *"$s"* || "$path" == *"$(urlenc "$s")"* ]] &&
		    continue
		found+=("'$s'")
	done < <(scan "$BF" "$list" "$out")
	[ ${#found[@]} -eq 0 ] ||
	    echo "$desc: ${#found[@]} of them, e.g. ${found[*]:0:6}" >>"$W/leaks.$fam"
	return 0
}

# scan FILE LIST [START]: the strings of LIST (one a line) that FILE holds
# as whole words, each once. A database (START "SQLite format 3": the
# backup) is searched in its rows, dumped as SQL text.
scan() {
	local f=$1 s
	local -A seen=()
	if [[ ${3:-} == "SQLite format 3" ]]; then
		sqlite3 "$1" .dump >"$1.sql" 2>&1
		f=$1.sql
	fi
	while IFS= read -r s; do
		[ -n "${seen[$s]:-}" ] && continue
		seen[$s]=1
		printf '%s\n' "$s"
	done < <(grep -a -o -w -F -f "$2" "$f" 2>/dev/null)
}

# fill VAR path|body TEMPLATE NAME=VALUE...: VAR = TEMPLATE with each
# @NAME@ there replaced by VALUE (URL-encoded in a path).
fill() {
	local -n out=$1
	local mode=$2 t=$3 kv k v
	shift 3
	for kv in "$@"; do
		k=${kv%%=*} v=${kv#*=}
		[[ $t == *"@$k@"* ]] || continue
		[ "$mode" = path ] && v=$(urlenc "$v")
		t=${t//@$k@/$v}
	done
	out=$t
}

# --- the v1 matrix ---------------------------------------------------------------
# NAME|FAMILY|METHOD|PATH|BODY|CARD: cash or punch|1 when it acts at a
# location as a staff member. @CARD@ @QR@ @BC@ @LOC@ @STAFF@ @KEY@ are
# filled in.
V1_OPS=(
	'lookup by QR|lookup|POST|/api/v1/cards/lookup|{"qr_code_data":"@QR@"}|cash|0'
	'lookup by barcode|lookup|POST|/api/v1/cards/lookup|{"barcode_value":"@BC@"}|cash|0'
	'history|history|GET|/api/v1/transactions/history?card_instance_id=@CARD@||cash|0'
	'record by id|record|POST|/api/v1/transactions/record|{"card_instance_id":"@CARD@","location_id":"@LOC@","staff_user_id":"@STAFF@","purchase_amount":2.00,"idempotency_key":"@KEY@"}|cash|1'
	'record by QR|record|POST|/api/v1/transactions/record|{"qr_code_data":"@QR@","location_id":"@LOC@","staff_user_id":"@STAFF@","purchase_amount":2.00,"idempotency_key":"@KEY@"}|cash|1'
	'record by barcode|record|POST|/api/v1/transactions/record|{"barcode_value":"@BC@","location_id":"@LOC@","staff_user_id":"@STAFF@","purchase_amount":2.00,"idempotency_key":"@KEY@"}|cash|1'
	'sync|sync|POST|/api/v1/transactions/sync|{"transactions":[{"card_instance_id":"@CARD@","location_id":"@LOC@","staff_user_id":"@STAFF@","purchase_amount":2.00,"idempotency_key":"@KEY@"}]}|cash|1'
	'claim|claim|POST|/api/v1/rewards/claim|{"card_instance_id":"@CARD@","location_id":"@LOC@","staff_user_id":"@STAFF@","idempotency_key":"@KEY@"}|punch|1'
	'redeem|redeem|POST|/api/v1/cashback/redeem|{"card_instance_id":"@CARD@","location_id":"@LOC@","staff_user_id":"@STAFF@","redemption_amount":0.10,"purchase_amount":1.00,"idempotency_key":"@KEY@"}|cash|1'
)
# The cards: SIDE_KIND -> id, QR, barcode.
declare -A CARD_ID CARD_QR CARD_BC
CARD_ID[A_cash]=$CASH_ID CARD_QR[A_cash]=$CASH_QR CARD_BC[A_cash]=$CASH_BARCODE
CARD_ID[A_punch]=$QUICK_ID CARD_QR[A_punch]=$QUICK_QR CARD_BC[A_punch]=$QUICK_BARCODE
CARD_ID[B_cash]=$M2CASH_ID CARD_QR[B_cash]=$M2CASH_QR CARD_BC[B_cash]=$M2CASH_BARCODE
CARD_ID[B_punch]=$M2CARD_ID CARD_QR[B_punch]=$M2CARD_QR CARD_BC[B_punch]=$M2CARD_BARCODE

# v1_role ROLE LIST VARIANT...: every operation as ROLE, for every
# variant "DESC|CARD_SIDE|LOC|STAFF|STATUS CODE|LOCATION_ONLY": the card
# of merchant CARD_SIDE (A or B) of the operation's kind, at location LOC
# as staff member STAFF, answered STATUS CODE; LOCATION_ONLY 1 skips the
# operations that name no location (lookup, history). Bodies are searched
# for the strings of LIST.
v1_role() {
	local role=$1 list=$2 op var name fam m path tmpl kind atloc
	local vdesc cside loc staff want lonly p b k w
	shift 2
	for var in "$@"; do
		IFS='|' read -r vdesc cside loc staff want lonly <<<"$var"
		for op in "${V1_OPS[@]}"; do
			IFS='|' read -r name fam m path tmpl kind atloc <<<"$op"
			[ "$lonly" = 1 ] && [ "$atloc" = 0 ] && continue
			k=${cside}_$kind
			fill p path "$path" CARD="${CARD_ID[$k]}"
			fill b body "$tmpl" CARD="${CARD_ID[$k]}" QR="${CARD_QR[$k]}" \
			    BC="${CARD_BC[$k]}" LOC="$loc" STAFF="$staff" KEY="iso-$CASES"
			# A sync answers each item: 200 when all succeeded, else 207.
			w=$want
			[ "$fam" = sync ] && [ "${w%% *}" != 200 ] && w="207 ${w#* }"
			check "$fam" "$role" "$m" "$p" "$b" "$w" \
			    "$role: $name with $vdesc -> $w" "$list"
		done
	done
}

# --- the owner's API matrix ---------------------------------------------------
# FAMILY|METHOD|PATH|BODY|ID KIND|OWN|OTHER: OWN is the owner's answer
# with their own id (or with none: ID KIND -), OTHER with another
# merchant's id and with an id that does not exist. Filled in: @ID@ (of
# the kind), @NAME@ (its name, unchanged by a rename), @BARCODE@ (a
# card's), @N@ (a number new each time), @L1@ @VICTIM@ @OWNCARD@ (the
# acting merchant's), @FROM@ @TO@ (yesterday and tomorrow).
ADMIN_ROWS=(
	'admin_locations|GET|/api/v1/admin/locations||-|200 -|'
	'admin_locations|POST|/api/v1/admin/locations|{"name":"Iso @N@"}|-|200 -|'
	'admin_locations|PATCH|/api/v1/admin/locations/@ID@|{"name":"@NAME@"}|loc|200 -|404 NOT_FOUND'
	'admin_users|GET|/api/v1/admin/users||-|200 -|'
	'admin_users|POST|/api/v1/admin/users|{"email":"iso-@N@@m1.test","password":"iso-pass-@N@","user_type":"system_user","location_id":"@ID@","name":"Iso @N@"}|loc|200 -|404 NOT_FOUND'
	'admin_users|POST|/api/v1/admin/users|{"email":"@ID@","password":"iso-pass-@N@","user_type":"owner"}|email|409 CONFLICT|409 CONFLICT'
	'admin_users|PATCH|/api/v1/admin/users/@ID@|{"name":"@NAME@"}|user|200 -|404 NOT_FOUND'
	'admin_users|PATCH|/api/v1/admin/users/@ID@|{"disabled":false}|user|200 -|404 NOT_FOUND'
	'admin_users|PATCH|/api/v1/admin/users/@ID@|{"password":"iso-new-pass-@N@"}|user|200 -|404 NOT_FOUND'
	'admin_users|PATCH|/api/v1/admin/users/@ID@|{"location_id":"@L1@"}|user|200 -|404 NOT_FOUND'
	'admin_users|PATCH|/api/v1/admin/users/@VICTIM@|{"location_id":"@ID@"}|loc|200 -|404 NOT_FOUND'
	'admin_programs|GET|/api/v1/admin/programs||-|200 -|'
	'admin_programs|POST|/api/v1/admin/programs|{"type":"punch","title":"Iso @N@","punch_requirement":5,"reward_title":"Iso gift"}|-|200 -|'
	'admin_programs|PATCH|/api/v1/admin/programs/@ID@|{"title":"@NAME@"}|prog|200 -|404 NOT_FOUND'
	'admin_programs|PATCH|/api/v1/admin/programs/@ID@|{"cooldown_seconds":60}|prog|200 -|404 NOT_FOUND'
	'admin_cards|GET|/api/v1/admin/cards||-|200 -|'
	'admin_cards|GET|/api/v1/admin/cards?page_size=100&status=active||-|200 -|'
	'admin_cards|GET|/api/v1/admin/cards?program_id=@ID@||prog|200 -|200 -'
	'admin_cards|GET|/api/v1/admin/cards?q=@NAME@||card|200 -|200 -'
	'admin_cards|GET|/api/v1/admin/cards?q=@BARCODE@||card|200 -|200 -'
	'admin_cards|GET|/api/v1/admin/cards?q=@ID@||card|200 -|200 -'
	'admin_cards|POST|/api/v1/admin/cards|{"program_id":"@ID@","customer_name":"Iso @N@"}|prog|200 -|404 NOT_FOUND'
	'admin_cards|POST|/api/v1/admin/cards|{"program_id":"@ID@","customer_names":["Iso @N@ a","Iso @N@ b"]}|prog|200 -|404 NOT_FOUND'
	'admin_cards|GET|/api/v1/admin/cards/@ID@||card|200 -|404 NOT_FOUND'
	'admin_cards|PATCH|/api/v1/admin/cards/@ID@|{"customer_name":"@NAME@"}|card|200 -|404 NOT_FOUND'
	'admin_cards|PATCH|/api/v1/admin/cards/@ID@|{"status":"active"}|card|200 -|404 NOT_FOUND'
	'admin_cards|GET|/api/v1/admin/cards/@ID@/qr.svg||card|200 -|404 NOT_FOUND'
	'admin_cards|GET|/api/v1/admin/cards/@ID@/barcode.svg||card|200 -|404 NOT_FOUND'
	'admin_cards|GET|/api/v1/admin/cards/sheet?ids=@ID@||card|200 -|404 NOT_FOUND'
	'admin_cards|GET|/api/v1/admin/cards/sheet?ids=@OWNCARD@,@ID@||card|200 -|404 NOT_FOUND'
	'admin_cards|GET|/api/v1/admin/cards/sheet?program_id=@ID@||prog|200 -|404 NOT_FOUND'
	'admin_reports|GET|/api/v1/admin/reports/summary?from=@FROM@&to=@TO@&group=day||-|200 -|'
	'admin_reports|GET|/api/v1/admin/reports/summary?from=@FROM@&to=@TO@&group=location||-|200 -|'
	'admin_reports|GET|/api/v1/admin/reports/summary?from=@FROM@&to=@TO@&group=staff||-|200 -|'
	'admin_reports|GET|/api/v1/admin/reports/summary?from=@FROM@&to=@TO@&group=staff&format=csv||-|200 -|'
	'admin_reports|GET|/api/v1/admin/reports/summary?from=@FROM@&to=@TO@&group=location&format=csv||-|200 -|'
	'admin_reports|GET|/api/v1/admin/reports/transactions?from=@FROM@&to=@TO@&page_size=500||-|200 -|'
	'admin_reports|GET|/api/v1/admin/reports/transactions?from=@FROM@&to=@TO@&format=csv||-|200 -|'
	'admin_backup|GET|/api/v1/admin/backup||-|200 -|'
	'admin_events|GET|/api/v1/admin/events||-|200 -|'
	'admin_events|GET|/api/v1/admin/events?type=card.updated,card.issued&limit=500||-|200 -|'
	'admin_tokens|GET|/api/v1/admin/tokens||-|200 -|'
	'admin_tokens|POST|/api/v1/admin/tokens|{"name":"Iso @N@","scopes":["webhooks:manage"]}|-|201 -|'
	'admin_tokens|GET|/api/v1/admin/tokens/@ID@||apitoken|200 -|404 NOT_FOUND'
	'admin_tokens|DELETE|/api/v1/admin/tokens/@ID@||apitoken|200 -|404 NOT_FOUND'
	'admin_settings|GET|/api/v1/admin/settings||-|200 -|'
	'admin_settings|PATCH|/api/v1/admin/settings|{"sync_max_age_days":3650}|-|403 FORBIDDEN|'
)
# (An installation of several shops has its settings set on the server,
# with loyalty-admin: no shop's owner changes the others' token lifetime,
# login throttling or report days.)
printf -v FROM '%(%Y-%m-%d)T' $((EPOCHSECONDS - 86400))
printf -v TO '%(%Y-%m-%d)T' $((EPOCHSECONDS + 86400))

# The ids (and names) of each kind: SIDE_KIND, SIDE A, B or missing.
declare -A ID NAME BARCODE
ID[A_loc]=$L1 NAME[A_loc]=$L1_NAME ID[B_loc]=$M2L1 NAME[B_loc]=$M2L1_NAME
ID[A_user]=$VICTIM_ID NAME[A_user]="Vic Victim" ID[B_user]=$BSTAFF_ID NAME[B_user]="Bea Bstaff"
ID[A_prog]=$PUNCH_PROG NAME[A_prog]="Coffee Card" ID[B_prog]=$M2_PROG NAME[B_prog]="Tea Card"
ID[A_card]=$PUNCH_ID NAME[A_card]=$PUNCH_CUSTOMER BARCODE[A_card]=$PUNCH_BARCODE
ID[B_card]=$M2CARD_ID NAME[B_card]=$M2CARD_CUSTOMER BARCODE[B_card]=$M2CARD_BARCODE
ID[A_email]=$OWNER_EMAIL ID[B_email]=$OWNER2_EMAIL
ID[A_apitoken]=$A_APITOKEN_ID ID[B_apitoken]=$B_APITOKEN_ID
for k in loc user prog card email apitoken; do
	ID[missing_$k]=$MISSING_ID NAME[missing_$k]="Nobody Here" BARCODE[missing_$k]=2000000000008
done
ID[missing_email]=nobody@nowhere.test

declare -A KIND_NAME=([loc]=location [user]=user [prog]=program [card]=card
    [email]=e-mail [apitoken]="integration token" ["-"]=-) KIND_AN=([email]=n
    [apitoken]=n)

# admin_role ROLE SIDE OTHER_SIDE LIST FILTER: every row, as ROLE of
# merchant SIDE, with its own id, the other merchant's and a missing one.
# FILTER: all; foreign (only with the other merchant's ids: no write of
# the acting merchant's own); read (no write at all). Staff get 403 and
# no token 401 whatever the row.
admin_role() {
	local role=$1 side=$2 other=$3 list=$4 filter=$5 row fam m path tmpl kind own oth
	local target t want p b desc n own_card victim l1 what
	[ "$side" = A ] && own_card=$PUNCH_ID victim=$VICTIM_ID l1=$L1
	[ "$side" = B ] && own_card=$M2CARD_ID victim=$BSTAFF_ID l1=$M2L1
	for row in "${ADMIN_ROWS[@]}"; do
		IFS='|' read -r fam m path tmpl kind own oth <<<"$row"
		for target in own other missing; do
			[ "$kind" = - ] && [ "$target" != own ] && continue
			[ "$filter" = foreign ] && [ "$target" = own ] && [ "$m" != GET ] && continue
			[ "$filter" = foreign ] && [ "$kind" = email ] && [ "$target" = missing ] && continue
			[ "$filter" = read ] && [ "$m" != GET ] && continue
			case $target in
			own) t=$side want=$own what="its own ${KIND_NAME[$kind]}" ;;
			other) t=$other want=$oth what="merchant $other's ${KIND_NAME[$kind]}" ;;
			missing) t=missing want=$oth what="${KIND_NAME[$kind]} that does not exist" ;;
			esac
			[ "$kind" = email ] && [ "$target" = missing ] && want="200 -"
			[ "$kind" = - ] && what="no id"
			[ "$target" = missing ] && what="a${KIND_AN[$kind]:-} $what"
			case $role in
			staff | staff2 | bstaff) want="403 FORBIDDEN" ;;
			anon) want="401 UNAUTHORIZED" ;;
			esac
			n=$((CASES + 1))
			k=${t}_$kind
			fill p path "$path" ID="${ID[$k]:-}" NAME="${NAME[$k]:-}" \
			    BARCODE="${BARCODE[$k]:-}" OWNCARD="$own_card" FROM="$FROM" TO="$TO" \
			    VICTIM="$victim"
			fill b body "$tmpl" ID="${ID[$k]:-}" NAME="${NAME[$k]:-}" N="$n" \
			    L1="$l1" VICTIM="$victim"
			desc="$role: $m $path with $what -> $want"
			desc=${desc//@ID@/\{id\}}
			desc=${desc//@OWNCARD@/\{its card\}}
			desc=${desc//@VICTIM@/\{its staff member\}}
			desc=${desc//@FROM@/\{from\}}
			desc=${desc//@TO@/\{to\}}
			check "$fam" "$role" "$m" "$p" "$b" "$want" "$desc" "$list"
		done
	done
}

# setup: 404 for everyone once the shop has an owner.
setup_rows() {
	local role=$1 list=$2
	check setup "$role" GET /api/v1/setup "" "404 NOT_FOUND" \
	    "$role: GET /api/v1/setup once there is an owner -> 404 NOT_FOUND" "$list"
	check setup "$role" POST /api/v1/setup '{"setup_code":"x","merchant_name":"Evil","location_name":"Evil","owner_name":"Evil","owner_email":"evil@evil.test","owner_password":"evil-pass-1"}' \
	    "404 NOT_FOUND" "$role: POST /api/v1/setup once there is an owner -> 404 NOT_FOUND" "$list"
}

# --- enrolment and the customer's card page -----------------------------------
declare -A R_MERCHANT=([owner]=$M1 [staff]=$M1 [staff2]=$M1 [owner2]=$M2 [bstaff]=$M2)

# enrol_role ROLE LIST VARIANT...: GET /api/v1/cards/enrol as ROLE (its
# merchant's programs, all and only), then POST /api/v1/cards/enrol for
# every variant "TAG|DESC|PROGRAM|LOCATION|KEY|STATUS CODE|FIELD"
# (LOCATION, KEY -: not sent): refused on FIELD, with no card and no key
# more anywhere. A foreign program (TAG foreign) is refused exactly as one
# that does not exist (TAG missing). Bodies are searched for LIST.
enrol_role() {
	local role=$1 list=$2 m=${R_MERCHANT[$1]} var tag vdesc prog loc key want field b before
	local -A err=()
	shift 2
	check enrol "$role" GET /api/v1/cards/enrol "" "200 -" \
	    "$role: GET /api/v1/cards/enrol -> 200 -" "$list"
	is "$(jq -r '[.data.can_enrol, (.data.programs | map(.id) | sort | join(" "))] | join(" ")' "$BF" 2>&1)" \
	    "true $(sql "SELECT id FROM programs WHERE merchant_id = '$m' ORDER BY id" | tr '\n' ' ' | sed 's/ $//')" \
	    "... can_enrol, and every program of its merchant and no other"
	for var in "$@"; do
		IFS='|' read -r tag vdesc prog loc key want field <<<"$var"
		b="{\"program_id\":\"$prog\",\"customer_name\":\"Iso Enrol $((CASES + 1))\""
		[ "$loc" = - ] || b+=",\"location_id\":\"$loc\""
		[ "$key" = - ] || b+=",\"idempotency_key\":\"$key\""
		b+="}"
		before=$(sql "SELECT (SELECT count(*) FROM cards) || ' cards, ' || (SELECT count(*) FROM idempotency_keys) || ' keys'")
		check enrol "$role" POST /api/v1/cards/enrol "$b" "$want" \
		    "$role: POST /api/v1/cards/enrol with $vdesc -> $want" "$list"
		err[$tag]=$(jq -c 'del(.meta)' "$BF" 2>&1)
		is "$(jq -r '.error.details.field // "-"' "$BF" 2>&1) $(sql "SELECT (SELECT count(*) FROM cards) || ' cards, ' || (SELECT count(*) FROM idempotency_keys) || ' keys'")" \
		    "$field $before" "... on $field, and nothing issued or kept ($before in all, as before)"
	done
	if [ -n "${err[foreign]:-}" ] && [ -n "${err[missing]:-}" ]; then
		is "${err[foreign]}" "${err[missing]}" \
		    "$role: the other merchant's program is refused exactly as one that does not exist"
	fi
}

# enrol_write ROLE LIST DESC PROGRAM LOCATION KEY STATUS [CARD]: an
# enrolment as ROLE that is taken: STATUS 201, a new card of its own
# merchant, of PROGRAM, to the customer sent, issued by one of its own
# (at LOCATION when not -); or 200, its own card CARD replayed. Sets
# NEW_CARD. Bodies are searched for LIST.
enrol_write() {
	local role=$1 list=$2 desc=$3 prog=$4 loc=$5 key=$6 st=$7 same=${8:-}
	local m=${R_MERCHANT[$1]} b name got where=
	name="Iso Enrol $((CASES + 1))"
	b="{\"program_id\":\"$prog\",\"customer_name\":\"$name\",\"idempotency_key\":\"$key\""
	[ "$loc" = - ] || b+=",\"location_id\":\"$loc\""
	b+="}"
	check enrol "$role" POST /api/v1/cards/enrol "$b" "$st -" \
	    "$role: POST /api/v1/cards/enrol with $desc -> $st -" "$list"
	NEW_CARD=$(jq -r '.data.card_instance_id // "none"' "$BF" 2>/dev/null)
	[ "$loc" = - ] || where=" AND c.issued_location_id = '$loc'"
	got="$(jq -r '.data.idempotent' "$BF" 2>&1) $(sql "SELECT count(*) FROM cards c
	    JOIN programs p ON p.id = c.program_id JOIN users u ON u.id = c.issued_by
	    WHERE c.id = '$NEW_CARD' AND c.merchant_id = '$m' AND p.merchant_id = '$m'
	    AND u.merchant_id = '$m'$where")"
	if [ "$st" = 201 ]; then
		is "$got $(jq -r '[.data.program_id, .data.customer_name] | join("|")' "$BF" 2>&1)" \
		    "false 1 $prog|$name" \
		    "... a new card of its own merchant's program, to that customer, issued by one of its own$([ "$loc" = - ] || echo " there")"
	else
		is "$got $NEW_CARD" "true 1 $same" \
		    "... its own merchant's card replayed, not the other merchant's"
	fi
}

# own_strings CARD: what a customer's page of CARD may show: its
# merchant's name, its program's title, reward and tiers, its customer,
# barcode and QR code (never its share token, nor any id).
own_strings() {
	sql "SELECT m.name FROM cards c JOIN merchants m ON m.id = c.merchant_id WHERE c.id = '$1'
	UNION SELECT p.title FROM cards c JOIN programs p ON p.id = c.program_id WHERE c.id = '$1'
	UNION SELECT p.reward_title FROM cards c JOIN programs p ON p.id = c.program_id WHERE c.id = '$1'
	UNION SELECT p.reward_description FROM cards c JOIN programs p ON p.id = c.program_id WHERE c.id = '$1'
	UNION SELECT t.name FROM cards c JOIN tiers t ON t.program_id = c.program_id WHERE c.id = '$1'
	UNION SELECT customer_name FROM cards WHERE id = '$1'
	UNION SELECT barcode FROM cards WHERE id = '$1'
	UNION SELECT qr_code FROM cards WHERE id = '$1'" | grep -v '^$' | sort -u
}

# mycard_rows OWNER_ROLE ROLE... -- CARD...: each card's page (GET
# /api/v1/mycard/TOKEN, by the card's share token) and its three images,
# first with no bearer token, then with each ROLE's (of the other
# merchant, or of the card's own): 200 every time, the same answer (the
# JSON's data, the images byte for byte) whoever sends a token, the card's
# own name and codes, its QR code and barcode drawn as the card's owner
# (OWNER_ROLE) gets them from the back office; every body is searched for
# every id, name and share token of both merchants but what the card's
# page may show (own_strings).
mycard_rows() {
	local owner=$1 card tok sfx role ref got what r
	local -a roles=()
	shift
	while [ "$1" != -- ]; do roles+=("$1"); shift; done
	shift
	for card in "$@"; do
		tok=$(sql "SELECT share_token FROM cards WHERE id = '$card'")
		what="the page of $(sql "SELECT customer_name FROM cards WHERE id = '$card'")'s card"
		own_strings "$card" >"$W/own.$card"
		{ strings_of "$M1"; strings_of "$M2"; } | sort -u | comm -23 - "$W/own.$card" >"$W/notown.$card"
		for sfx in "" /qr.svg /barcode.svg /link.svg; do
			check mycard anon GET "/api/v1/mycard/$tok$sfx" "" "200 -" \
			    "anon: GET /api/v1/mycard/{token}$sfx, $what -> 200 -" "$W/notown.$card"
			ref=$BF got=
			for role in "${roles[@]}"; do
				check mycard "$role" GET "/api/v1/mycard/$tok$sfx" "" "200 -" \
				    "$role: GET /api/v1/mycard/{token}$sfx, $what -> 200 -" "$W/notown.$card"
				if [ -z "$sfx" ]; then
					[ "$(jq -cS .data "$BF" 2>&1)" = "$(jq -cS .data "$ref" 2>&1)" ] || got+=" $role"
				else
					cmp -s "$BF" "$ref" || got+=" $role"
				fi
			done
			is "${got:-none}" none \
			    "... $what$sfx: the same answer with ${roles[*]}'s bearer tokens as with none (differed:${got:- none})"
			if [ -z "$sfx" ]; then
				is "$(jq -r '[.data.customer_name, .data.barcode_value, .data.qr_code_data] | join("|")' "$ref" 2>&1)" \
				    "$(sql "SELECT customer_name || '|' || barcode || '|' || qr_code FROM cards WHERE id = '$card'")" \
				    "... $what: that card's customer and codes"
			elif [ "$sfx" != /link.svg ]; then
				cp "$ref" "$W/mycard.svg"
				as "$owner" GET "/api/v1/admin/cards/$card$sfx"
				r=$LT_STATUS
				cmp -s "$LT_DIR/resp.body" "$W/mycard.svg" && r+=" same"
				is "$r" "200 same" "... $what$sfx: that card's, as its owner's back office draws it"
			fi
		done
	done
}

# ============================================================================
# Phase 1: merchant B's owner and staff with A's things.
# ============================================================================
B_V1=(
	"merchant A's card|A|@LOC@|@STAFF@|404 CARD_NOT_FOUND|0"
	"merchant A's location|B|$L1|@STAFF@|403 FORBIDDEN|1"
	"merchant A's staff member|B|@LOC@|$STAFF_ID|403 FORBIDDEN|1"
	"merchant A's owner as staff|B|@LOC@|$OWNER_ID|403 FORBIDDEN|1"
)
for role in owner2 bstaff; do
	if [ $role = owner2 ]; then me=$OWNER2_ID; else me=$BSTAFF_ID; fi
	vars=()
	for v in "${B_V1[@]}"; do
		v=${v//@LOC@/$M2L1}
		vars+=("${v//@STAFF@/$me}")
	done
	v1_role $role "$W/a.strings" "${vars[@]}"
done
admin_role owner2 B A "$W/a.strings" foreign
admin_role bstaff B A "$W/a.strings" foreign
setup_rows owner2 "$W/a.strings"
for role in owner2 bstaff; do
	vars=(
		"foreign|merchant A's program|$PUNCH_PROG|-|-|404 NOT_FOUND|program_id"
		"missing|a program that does not exist|$MISSING_ID|-|-|404 NOT_FOUND|program_id"
		"x|merchant A's program at its own location|$PUNCH_PROG|$M2L1|-|404 NOT_FOUND|program_id"
		"x|merchant A's program and the key A enrolled with|$CASH_PROG|-|a-enrol-key|404 NOT_FOUND|program_id"
		"x|its own program at merchant A's location|$M2_PROG|$L1|-|403 FORBIDDEN|location_id"
		"x|its own program at merchant A's second location|$M2_PROG|$L2|-|403 FORBIDDEN|location_id"
		"x|merchant A's program at merchant A's location, with A's key|$PUNCH_PROG|$L1|a-enrol-key|403 FORBIDDEN|location_id"
	)
	[ $role = bstaff ] &&
	    vars+=("x|its own program at the other location of its merchant|$M2_PROG|$M2L2|-|403 FORBIDDEN|location_id")
	enrol_role $role "$W/a.strings" "${vars[@]}"
done
# A's card issued at the counter is A's alone at B's tills too.
IFS='|' read -r bc qr < <(sql "SELECT barcode || '|' || qr_code FROM cards WHERE id = '$A_ENROL_ID'")
check lookup bstaff POST /api/v1/cards/lookup "{\"barcode_value\":\"$bc\"}" "404 CARD_NOT_FOUND" \
    "bstaff: lookup by barcode of the card A issued at the counter -> 404 CARD_NOT_FOUND" "$W/a.strings"
check lookup owner2 POST /api/v1/cards/lookup "{\"qr_code_data\":\"$qr\"}" "404 CARD_NOT_FOUND" \
    "owner2: lookup by QR of the card A issued at the counter -> 404 CARD_NOT_FOUND" "$W/a.strings"
# A's customers' pages: each shows its card alone, whoever else asks.
mycard_rows owner owner2 bstaff -- "$PUNCH_ID" "$CASH_ID" "$A_ENROL_ID"
# Controls: the search for foreign strings finds a merchant's own ids and
# names in its own answers, JSON and backup (so it would find them in the
# other's).
check admin_locations owner2 GET /api/v1/admin/locations "" "200 -" \
    "owner2: GET /api/v1/admin/locations (control) -> 200 -"
n=$(scan "$BF" "$W/b.strings" | grep -c .)
ok "control: the search finds merchant B's ids and names in B's own location list ($n)" \
    test "$n" -ge 6
check admin_backup owner2 GET /api/v1/admin/backup "" "200 -" \
    "owner2: GET /api/v1/admin/backup (control) -> 200 -"
n=$(scan "$BF" "$W/b.strings" "SQLite format 3" | grep -c .)
ok "control: the search finds all of merchant B's $(grep -c . "$W/b.strings") ids and names in B's own backup ($n)" \
    test "$n" -eq "$(grep -c . "$W/b.strings")"
# The page of a card: the search finds what it may show, in its body.
check mycard anon GET "/api/v1/mycard/$(sql "SELECT share_token FROM cards WHERE id = '$M2CASH_ID'")" "" \
    "200 -" "anon: GET /api/v1/mycard/{token} of B's cashback card (control) -> 200 -"
n=$(scan "$BF" <(own_strings "$M2CASH_ID") | grep -c .)
ok "control: the search finds the card's own names and codes in its page ($n of $(own_strings "$M2CASH_ID" | grep -c .))" \
    test "$n" -ge 6
dump "$M2" >"$W/b.mid"
ok "merchant B's requests so far changed none of merchant B's rows either" \
    diff -u "$W/b.before" "$W/b.mid"

# B's own enrolments with keys A used (to enrol, for a purchase): a new
# card of B each, then B's own answer replayed; never A's card, never a
# 400 saying the key was used "for another kind". B's rows are compared
# from here on, and the strings looked for include B's new cards.
enrol_write owner2 "$W/a.strings" "its own program and the key A enrolled with" \
    "$M2_PROG" - a-enrol-key 201
B_KEYED_ID=$NEW_CARD
enrol_write bstaff "$W/a.strings" "its own program and a key A used for a purchase" \
    "$M2CASH_PROG" - a-prep-2 201
enrol_write bstaff "$W/a.strings" "the key A enrolled with, again" \
    "$M2_PROG" - a-enrol-key 200 "$B_KEYED_ID"
enrol_write owner2 "$W/a.strings" "merchant A's program and the key A enrolled with, once B used it" \
    "$PUNCH_PROG" - a-enrol-key 200 "$B_KEYED_ID"
dump "$M2" >"$W/b.before"
strings_of "$M2" >"$W/b.all"
comm -23 "$W/a.all" "$W/b.all" >"$W/a.strings"
comm -13 "$W/a.all" "$W/b.all" >"$W/b.strings"
CASES_B=$CASES
dump "$M1" >"$W/a.mid"
ok "merchant B's $CASES_B requests changed none of merchant A's rows" \
    diff -u "$W/a.before" "$W/a.mid"

# ============================================================================
# Phase 2: merchant A's owner, staff (L1) and staff2 (L2) with B's things.
# ============================================================================
# ROLE: its location, itself, the other location and staff member of A.
declare -A R_LOC R_ME R_OLOC R_OSTAFF
R_LOC[owner]=$L1 R_ME[owner]=$OWNER_ID
R_LOC[staff]=$L1 R_ME[staff]=$STAFF_ID R_OLOC[staff]=$L2 R_OSTAFF[staff]=$STAFF2_ID
R_LOC[staff2]=$L2 R_ME[staff2]=$STAFF2_ID R_OLOC[staff2]=$L1 R_OSTAFF[staff2]=$STAFF_ID
for role in owner staff staff2; do
	loc=${R_LOC[$role]} me=${R_ME[$role]}
	vars=(
		"its own card, location and self|A|$loc|$me|200 -|0"
		"merchant B's card|B|$loc|$me|404 CARD_NOT_FOUND|0"
		"merchant B's location|A|$M2L1|$me|403 FORBIDDEN|1"
		"merchant B's second location|A|$M2L2|$me|403 FORBIDDEN|1"
		"merchant B's owner as staff|A|$loc|$OWNER2_ID|403 FORBIDDEN|1"
		"merchant B's staff member|A|$loc|$BSTAFF_ID|403 FORBIDDEN|1"
	)
	if [ $role = owner ]; then
		vars+=("the owner at the other location for its staff|A|$L2|$STAFF2_ID|200 -|1")
	else
		vars+=("another location of its merchant|A|${R_OLOC[$role]}|$me|403 FORBIDDEN|1"
		    "another staff member at its location|A|$loc|${R_OSTAFF[$role]}|403 FORBIDDEN|1"
		    "its merchant's owner as staff|A|$loc|$OWNER_ID|403 FORBIDDEN|1")
	fi
	v1_role $role "$W/b.strings" "${vars[@]}"
done

# Enrolment with B's things.
for role in owner staff staff2; do
	vars=(
		"foreign|merchant B's program|$M2_PROG|-|-|404 NOT_FOUND|program_id"
		"missing|a program that does not exist|$MISSING_ID|-|-|404 NOT_FOUND|program_id"
		"x|merchant B's program at its own location|$M2_PROG|${R_LOC[$role]}|-|404 NOT_FOUND|program_id"
		"x|merchant B's program and the key B enrolled with|$M2CASH_PROG|-|b-enrol-key|404 NOT_FOUND|program_id"
		"x|its own program at merchant B's location|$PUNCH_PROG|$M2L1|-|403 FORBIDDEN|location_id"
		"x|its own program at merchant B's second location|$PUNCH_PROG|$M2L2|-|403 FORBIDDEN|location_id"
		"x|merchant B's program at merchant B's location, with B's key|$M2_PROG|$M2L1|b-enrol-key|403 FORBIDDEN|location_id"
	)
	[ $role = owner ] ||
	    vars+=("x|its own program at another location of its merchant|$PUNCH_PROG|${R_OLOC[$role]}|-|403 FORBIDDEN|location_id")
	enrol_role $role "$W/b.strings" "${vars[@]}"
done
# A's own enrolments with keys B used (to enrol, for a redemption).
enrol_write staff "$W/b.strings" "its own program and the key B enrolled with" \
    "$PUNCH_PROG" - b-enrol-key 201
A_KEYED_ID=$NEW_CARD
enrol_write staff2 "$W/b.strings" "its own program and a key B used for a redemption" \
    "$CASH_PROG" - shared-key-3 201
enrol_write owner "$W/b.strings" "the key B enrolled with, again (its staff's card)" \
    "$QUICK_PROG" - b-enrol-key 200 "$A_KEYED_ID"
enrol_write owner "$W/b.strings" "its own program at the other location of its merchant" \
    "$QUICK_PROG" "$L2" a-owner-at-l2 201
# B's cards issued at the counter are B's alone.
for c in "$B_ENROL_ID" "$B_KEYED_ID"; do
	IFS='|' read -r bc qr < <(sql "SELECT barcode || '|' || qr_code FROM cards WHERE id = '$c'")
	check lookup staff POST /api/v1/cards/lookup "{\"barcode_value\":\"$bc\"}" "404 CARD_NOT_FOUND" \
	    "staff: lookup by barcode of a card B issued at the counter -> 404 CARD_NOT_FOUND" "$W/b.strings"
	check lookup owner POST /api/v1/cards/lookup "{\"qr_code_data\":\"$qr\"}" "404 CARD_NOT_FOUND" \
	    "owner: lookup by QR of a card B issued at the counter -> 404 CARD_NOT_FOUND" "$W/b.strings"
done
# B's customers' pages, whoever of A asks.
mycard_rows owner2 owner staff staff2 -- "$M2CARD_ID" "$M2CASH_ID" "$B_ENROL_ID" "$B_KEYED_ID"

# Another merchant's idempotency keys are not this merchant's: fresh
# writes, not B's answers replayed.
b_txn=$(sql "SELECT transaction_id FROM idempotency_keys WHERE merchant_id = '$M2' AND key = 'shared-key-2'")
check record owner POST /api/v1/transactions/record "{\"card_instance_id\":\"$CASH_ID\",\"location_id\":\"$L1\",\"staff_user_id\":\"$STAFF_ID\",\"purchase_amount\":2.00,\"idempotency_key\":\"shared-key-2\"}" \
    "200 -" "owner: record with an idempotency key merchant B used -> 200 -" "$W/b.strings"
is "$(jq -r '[.data.idempotent, .data.transaction_id == "'"$b_txn"'", .data.card_type] | join(" ")' "$BF")" \
    "false false cashback" "... a new purchase of A's card, not B's answer replayed"
check claim staff POST /api/v1/rewards/claim "{\"card_instance_id\":\"$QUICK_ID\",\"location_id\":\"$L1\",\"staff_user_id\":\"$STAFF_ID\",\"idempotency_key\":\"shared-key-1\"}" \
    "200 -" "staff: claim with an idempotency key merchant B used for a purchase -> 200 -" "$W/b.strings"
check admin_locations owner POST /api/v1/admin/locations '{"name":"Kiosk A","idempotency_key":"shared-admin-key"}' \
    "200 -" "owner: POST /api/v1/admin/locations with an idempotency key merchant B used -> 200 -" "$W/b.strings"
is "$(jq -r '[.data.idempotent, .data.location.name] | join(" ")' "$BF")" "false Kiosk A" \
    "... a new location of A, not B's answer replayed"

# login, me, refresh: the user's merchant and locations only.
for role in owner staff staff2; do
	e=${role^^}_EMAIL p=${role^^}_PASSWORD
	if [ $role = owner ]; then
		want_locs=$(sql "SELECT id FROM locations WHERE merchant_id = '$M1' ORDER BY id")
	else
		want_locs=${R_LOC[$role]}
	fi
	check login anon POST /api/v1/auth/login "{\"email\":\"${!e}\",\"password\":\"${!p}\"}" \
	    "200 -" "$role: login -> 200" "$W/b.strings"
	is "$(jq -r '.user.merchant_id + " " + ([.user.locations[].id] | sort | join(" "))' "$BF")" \
	    "$M1 $(echo "$want_locs" | sort | tr '\n' ' ' | sed 's/ $//')" \
	    "... its merchant and only its locations ($([ $role = owner ] && echo all of them || echo its own))"
	check me "$role" GET /api/v1/auth/me "" "200 -" "$role: me -> 200" "$W/b.strings"
	is "$(jq -r '(.data // .) | (.merchant_id // .user.merchant_id)' "$BF")" "$M1" "... its merchant"
done

for role in owner staff staff2 anon; do
	admin_role $role A B "$W/b.strings" all
	setup_rows $role "$W/b.strings"
done

# The figures of A's reports are A's alone.
as owner GET "/api/v1/admin/reports/summary?from=$FROM&to=$TO&group=day"
is "$(lt_jq .data.totals.purchases) $(lt_jq '.data.outstanding_cashback * 100 | round')" \
    "$(sql "SELECT count(*) FROM transactions WHERE merchant_id = '$M1' AND type IN ('punch', 'cashback', 'discount')") $(sql "SELECT sum(cashback_balance) FROM cards WHERE merchant_id = '$M1'")" \
    "A's report counts A's purchases and owes A's cashback only"
as owner GET "/api/v1/admin/reports/transactions?from=$FROM&to=$TO&page_size=500"
is "$(lt_jq .data.pagination.total_count)" \
    "$(sql "SELECT count(*) FROM transactions WHERE merchant_id = '$M1'")" \
    "A's transaction report lists A's transactions only"

# Settings: what one merchant's owner sets must not change the other
# merchant's service (the token lifetime of its tills, its login
# throttling, the days of its reports).
as owner2 GET /api/v1/admin/settings
b_max=$(lt_jq '.data.settings[] | select(.key == "login_max_failures") | .value')
check admin_settings owner PATCH /api/v1/admin/settings '{"login_max_failures":7}' \
    "403 FORBIDDEN" "owner: PATCH /api/v1/admin/settings of an installation of several shops -> 403 FORBIDDEN" \
    "$W/b.strings"
as owner2 GET /api/v1/admin/settings
is "$(lt_jq '.data.settings[] | select(.key == "login_max_failures") | .value')" "$b_max" \
    "... and merchant B's login_max_failures is as it was"

# A's backup: A's shop, whole and alone (no other merchant, no token, no
# login attempt), and a sound database.
check admin_backup owner GET /api/v1/admin/backup "" "200 -" \
    "owner: GET /api/v1/admin/backup -> 200" "$W/b.strings"
is "$(sqlite3 "$BF" "SELECT group_concat(id) FROM merchants; SELECT count(*) FROM cards; SELECT count(*) FROM transactions; SELECT count(*) FROM users; SELECT count(*) FROM tokens; SELECT count(*) FROM login_attempts; PRAGMA integrity_check" 2>&1 | tr '\n' ' ')" \
    "$M1 $(sql "SELECT count(*) FROM cards WHERE merchant_id = '$M1'; SELECT count(*) FROM transactions WHERE merchant_id = '$M1'; SELECT count(*) FROM users WHERE merchant_id = '$M1'" | tr '\n' ' ')0 0 ok " \
    "... it holds merchant A, all its cards, transactions and users, no token, no login attempt, and passes integrity_check"

# refresh last: it rotates the tokens.
for role in owner staff staff2; do
	check refresh anon POST /api/v1/auth/refresh "{\"refresh_token\":\"${REF[$role]}\"}" \
	    "200 -" "$role: refresh -> 200" "$W/b.strings"
done

# ============================================================================
# The verdicts.
# ============================================================================
dump "$M2" >"$W/b.after"
ok "none of merchant B's rows changed ($(wc -l <"$W/b.before") rows compared)" \
    diff -u "$W/b.before" "$W/b.after"
is "$(sql "SELECT (SELECT count(*) FROM transactions t WHERE t.merchant_id = '$M1' AND (t.card_id IN (SELECT id FROM cards WHERE merchant_id <> '$M1') OR t.location_id IN (SELECT id FROM locations WHERE merchant_id <> '$M1') OR t.staff_user_id IN (SELECT id FROM users WHERE merchant_id <> '$M1')))
    + (SELECT count(*) FROM users u JOIN locations l ON l.id = u.location_id WHERE u.merchant_id <> l.merchant_id)
    + (SELECT count(*) FROM cards c JOIN programs p ON p.id = c.program_id WHERE c.merchant_id <> p.merchant_id)
    + (SELECT count(*) FROM transactions t JOIN cards c ON c.id = t.card_id WHERE t.merchant_id <> c.merchant_id)
    + (SELECT count(*) FROM cards c JOIN users u ON u.id = c.issued_by WHERE c.merchant_id <> u.merchant_id)
    + (SELECT count(*) FROM cards c JOIN locations l ON l.id = c.issued_location_id WHERE c.merchant_id <> l.merchant_id)
    + (SELECT count(*) FROM idempotency_keys k WHERE k.transaction_id IN (SELECT id FROM cards WHERE merchant_id <> k.merchant_id
        UNION ALL SELECT id FROM transactions WHERE merchant_id <> k.merchant_id UNION ALL SELECT id FROM locations WHERE merchant_id <> k.merchant_id
        UNION ALL SELECT id FROM users WHERE merchant_id <> k.merchant_id UNION ALL SELECT id FROM programs WHERE merchant_id <> k.merchant_id))")" 0 \
    "no row of one merchant points at the other's (transactions, users, cards and who issued them where, idempotency keys)"
for fam in login me refresh lookup history record sync claim redeem enrol mycard setup \
    admin_locations admin_users admin_programs admin_cards admin_reports \
    admin_backup admin_settings; do
	if [ -s "$W/leaks.$fam" ]; then
		tap_result 1 "no foreign id or name in any of the ${BODIES[$fam]:-0} bodies of $fam"
		while IFS= read -r l; do diag "  $l"; done < <(head -20 "$W/leaks.$fam")
	else
		tap_result 0 "no foreign id or name in any of the ${BODIES[$fam]:-0} bodies of $fam"
	fi
done
summary=
for fam in login me refresh lookup history record sync claim redeem enrol mycard setup \
    admin_locations admin_users admin_programs admin_cards admin_reports \
    admin_backup admin_settings; do
	summary+=" $fam ${CASES_OF[$fam]:-0},"
done
diag "matrix: $CASES requests ($CASES_B in phase 1, by merchant B's owner and staff and, for A's cards' pages, no one; $((CASES - CASES_B)) in phase 2, by A's owner, staff, staff2 and no one);${summary%,}"
diag "answer times: $(awk '{ s += $1 } END { printf "%.1f s in all", s }' "$W/times"); slowest: $(sort -rn "$W/times" | head -3 | awk '{ t = $1; sub(/^[^ ]* /, ""); printf "%s%.3f s (%s)", (NR > 1 ? "; " : ""), t, $0 }')"
problems=$(lt_log_problems)
is "$problems" "" "no sanitizer report or crashed responder in the server log"

done_testing
