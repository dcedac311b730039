#!/usr/bin/env bash
#
# TAP tests of a card's share link, end to end through the built
# responders (plain CGI) and the admin tool: a card issued at the counter
# has a page whose QR code and barcode images scan back to the card's
# codes; the printed card carries the link when public_url is set (and
# still scans), and the admin tool says so when it is not; the text
# settings through the admin tool; and the migration that gives the cards
# of an existing database their tokens, all different.
#
#   top_srcdir=... top_builddir=... tests/share.sh

export LC_ALL=C.UTF-8
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$PWD}
ADMIN=$top_builddir/tools/loyalty-admin
CGI=$top_builddir/cgi-bin
HEX32='^[0-9a-f]{32}$'

bail()
{
	echo "Bail out! $*"
	exit 1
}

for tool in jq sqlite3; do
	command -v "$tool" >/dev/null || bail "$tool is needed"
done
[[ -x $ADMIN && -x $CGI/mycard.fcgi && -x $CGI/enrol.fcgi ]] ||
	bail "build first: no $ADMIN or responders in $CGI"
# shellcheck source=tests/seed.sh
. "$top_srcdir/tests/seed.sh" || bail "cannot read tests/seed.sh"

T=$(mktemp -d "${TMPDIR:-/tmp}/share.XXXXXX") || bail "mktemp failed"
trap 'rm -rf "$T"' EXIT
trap 'exit 130' INT TERM HUP

N=0
FAILED=0
ok()
{
	N=$((N + 1))
	if [[ $1 -eq 0 ]]; then
		echo "ok $N - $2"
		return 0
	fi
	echo "not ok $N - $2"
	FAILED=$((FAILED + 1))
	return 1
}
is()
{
	if [[ $1 == "$2" ]]; then
		ok 0 "$3"
	else
		ok 1 "$3"
		printf '# got:  %s\n# want: %s\n' "$1" "$2"
	fi
}
skip()
{
	N=$((N + 1))
	echo "ok $N # SKIP $1"
}

# The decoders: rsvg-convert draws an SVG, zbarimg reads the codes off it.
DECODE=1
command -v rsvg-convert >/dev/null && command -v zbarimg >/dev/null || DECODE=0

# scan SVG: the codes zbarimg reads off the picture, sorted, one a line.
scan()
{
	rsvg-convert -w "${2:-850}" -b white "$1" -o "$1.png" 2>/dev/null &&
	    zbarimg -q "$1.png" 2>/dev/null | sort
}

# cgi NAME METHOD URI [BODY [TOKEN]]: the responder's answer in $T/out
# (headers) and $T/body; RC its exit status.
cgi()
{
	local body=${4-} env=()

	[[ -n ${5-} ]] && env+=("HTTP_AUTHORIZATION=Bearer $5")
	[[ -n $body ]] && env+=(CONTENT_TYPE=application/json
	    "CONTENT_LENGTH=${#body}")
	printf '%s' "$body" | env -i GATEWAY_INTERFACE=CGI/1.1 \
	    SERVER_PROTOCOL=HTTP/1.1 REQUEST_METHOD="$2" REQUEST_URI="$3" \
	    QUERY_STRING= LOYALTY_DB="$DB" "${env[@]}" "$CGI/$1.fcgi" \
	    >"$T/answer"
	RC=$?
	sed -n '/^\r\{0,1\}$/q;p' "$T/answer" | tr -d '\r' >"$T/out"
	sed '1,/^\r\{0,1\}$/d' "$T/answer" >"$T/body"
}
header() { sed -n "s/^$1: //p" "$T/out"; }

DB=$T/seed.db
seed_build "$top_builddir" "$DB" "$T/seed.vars" 2>"$T/seed.err" ||
	bail "seed failed: $(cat "$T/seed.err")"
# shellcheck disable=SC1091
. "$T/seed.vars"
STAFF=$(seed_login "$top_builddir" "$DB" "$STAFF_EMAIL" "$STAFF_PASSWORD" |
    jq -r .access_token) || bail "staff login failed"

# --- a card issued at the counter, and its page's images ---------------------

cgi enrol POST /api/v1/cards/enrol \
    "{\"program_id\":\"$PUNCH_PROG\",\"customer_name\":\"Scan Me\"}" "$STAFF"
is "$RC $(head -n 1 "$T/out")" "0 Status: 201 Created" \
    "a card issued at the counter is 201"
SHARE=$(jq -r .data.share_token "$T/body")
QR=$(jq -r .data.qr_code_data "$T/body")
BC=$(jq -r .data.barcode_value "$T/body")
[[ $SHARE =~ $HEX32 ]]
ok $? "its share token is 32 lowercase hex characters"

cgi mycard GET "/api/v1/mycard/$SHARE/qr.svg"
is "$(header Content-Type) | $(header Cache-Control)" \
    "image/svg+xml | private, max-age=86400" \
    "the page's QR code is an SVG image its holder's browser may keep"
cp "$T/body" "$T/qr.svg"
if ((DECODE)); then
	is "$(scan "$T/qr.svg" 400)" "QR-Code:$QR" \
	    "the page's QR code scans back to the card's qr_code_data"
else
	skip "rsvg-convert or zbarimg missing"
fi
cgi mycard GET "/api/v1/mycard/$SHARE/barcode.svg"
is "$(header Content-Type)" image/svg+xml "the page's barcode is an SVG image"
cp "$T/body" "$T/barcode.svg"
if ((DECODE)); then
	is "$(scan "$T/barcode.svg" 565)" "EAN-13:$BC" \
	    "the page's barcode scans back to the card's barcode_value"
else
	skip "rsvg-convert or zbarimg missing"
fi
# Every digit, in order, in the text under the bars.
[[ $(grep -o '>[0-9]</text>' "$T/barcode.svg" | tr -dc '0-9') == "$BC" ]]
ok $? "the barcode's digits are written under it"

# The link's QR code, for the customer's phone at enrolment: the address
# the till was opened at (scheme, host, folder), or public_url when set.
link_svg() {	# URI [ENV...]
	local uri=$1
	shift
	env -i GATEWAY_INTERFACE=CGI/1.1 SERVER_PROTOCOL=HTTP/1.1 \
	    REQUEST_METHOD=GET REQUEST_URI="$uri" QUERY_STRING= LOYALTY_DB="$DB" \
	    "$@" "$CGI/mycard.fcgi" >"$T/answer"
	sed -n '/^\r\{0,1\}$/q;p' "$T/answer" | tr -d '\r' >"$T/out"
	sed '1,/^\r\{0,1\}$/d' "$T/answer" >"$T/link.svg"
}
link_svg "/shop/api/v1/mycard/$SHARE/link.svg" HTTP_HOST=pos.example:8443 HTTPS=on
is "$(head -n 1 "$T/out") | $(header Content-Type)" "Status: 200 OK | image/svg+xml" \
    "the link's QR code is an SVG image"
if ((DECODE)); then
	is "$(scan "$T/link.svg" 400)" "QR-Code:https://pos.example:8443/shop/card.html#$SHARE" \
	    "it scans to the card page below the folder the till is in, over https"
	link_svg "/api/v1/mycard/$SHARE/link.svg" HTTP_HOST=192.168.1.20
	is "$(scan "$T/link.svg" 400)" "QR-Code:http://192.168.1.20/card.html#$SHARE" \
	    "at the site's root over plain http"
else
	skip "rsvg-convert or zbarimg missing"
	skip "rsvg-convert or zbarimg missing"
fi
link_svg "/api/v1/mycard/$SHARE/link.svg" 'HTTP_HOST=evil.example"><script>'
is "$(head -n 1 "$T/out")" "Status: 404 Not Found" \
    "a Host header that is no host name gives no link"
link_svg "/api/v1/mycard/$SHARE/link.svg"
is "$(head -n 1 "$T/out")" "Status: 404 Not Found" \
    "no Host header and no public_url: no link"
"$top_builddir/tools/loyalty-admin" --db "$DB" setting set public_url --installation https://loyal.example/my-shop/ ||
	bail "setting public_url failed"
link_svg "/api/v1/mycard/$SHARE/link.svg" HTTP_HOST=ignored.example
if ((DECODE)); then
	is "$(scan "$T/link.svg" 400)" "QR-Code:https://loyal.example/my-shop/card.html#$SHARE" \
	    "with public_url set, the link is made of it"
else
	skip "rsvg-convert or zbarimg missing"
fi
"$top_builddir/tools/loyalty-admin" --db "$DB" setting set public_url --installation "" ||
	bail "clearing public_url failed"

cgi mycard GET "/api/v1/mycard/$SHARE"
is "$(jq -r '.data.customer_name + " " + .data.qr_code_data' "$T/body")" \
    "Scan Me $QR" "the page answers the card issued"

# --- printed cards --------------------------------------------------------------

"$ADMIN" --db "$DB" card print --program "$PUNCH_PROG" >"$T/sheet.html" \
    2>"$T/print.err"
is "$?:$(grep -c 'public_url is not set' "$T/print.err")" "0:1" \
    "card print without public_url prints and warns once on stderr"
grep -q 'Your card online' "$T/sheet.html"
ok $((!$?)) "without public_url no card carries a link"

"$ADMIN" --db "$DB" setting set public_url --installation https://shop.example/loyalty/ \
    </dev/null
ok $? "setting set public_url --installation takes https://shop.example/loyalty/"
"$ADMIN" --db "$DB" card print --program "$PUNCH_PROG" >"$T/sheet.html" \
    2>"$T/print.err"
is "$?:$(wc -c <"$T/print.err")" "0:0" \
    "card print with public_url prints without a warning"
is "$(grep -o '<title>Your card online: [^<]*' "$T/sheet.html" | sed 's/<title>//' | sort | tr '\n' ' ')" \
    "$(sqlite3 "$DB" "SELECT 'Your card online: https://shop.example/loyalty/card.html#' || share_token FROM cards WHERE program_id = '$PUNCH_PROG'" | sort | tr '\n' ' ')" \
    "every card of the sheet carries the link to its own page"

out=$("$ADMIN" --db "$DB" card issue --program "$CASH_PROG" \
    --customer "Paper Card" --svg "$T/card.svg" </dev/null 2>"$T/issue.err")
is "$?:$(wc -c <"$T/issue.err")" "0:0" "card issue --svg with public_url"
is "$(jq -r '.card_page == "card.html#" + .share_token' <<<"$out")" true \
    "card issue prints the card's share_token and card_page"
grep -q "Your card online: https://shop.example/loyalty/card.html#$(jq -r .share_token <<<"$out")" \
    "$T/card.svg"
ok $? "the printed card carries its own link"
if ((DECODE)); then
	is "$(scan "$T/card.svg" | tr '\n' ' ')" \
	    "EAN-13:$(jq -r .barcode_value <<<"$out") QR-Code:$(jq -r .qr_code_data <<<"$out") " \
	    "the printed card with its link still scans to its codes"
else
	skip "rsvg-convert or zbarimg missing"
fi

# The longest address the setting takes still fits the card.
long="https://$(printf 'a%.0s' $(seq 183)).example/"
"$ADMIN" --db "$DB" setting set public_url --installation "$long" </dev/null
ok $? "setting set public_url --installation takes 200 characters"
"$ADMIN" --db "$DB" card issue --program "$CASH_PROG" --customer "Long Link" \
    --svg "$T/long.svg" >/dev/null </dev/null
ok $? "a card with the longest link prints"
is "$(grep -o '<text x="30" y="[0-9]*" font-size="[0-9]*">' "$T/long.svg" | wc -l)" 2 \
    "the longest link takes two lines"

# --- the text settings through the admin tool ---------------------------------

"$ADMIN" --db "$DB" setting set currency_symbol --installation '€' </dev/null
ok $? "setting set currency_symbol --installation €"
is "$("$ADMIN" --db "$DB" setting get currency_symbol --installation)" '€' \
    "setting get prints the symbol"
is "$("$ADMIN" --db "$DB" setting list | grep -E '^(currency_symbol|staff_enrolment) ')" \
    "staff_enrolment installation 1
currency_symbol fallback €" "setting list prints text settings as text (a shop's setting set for the installation: the shops' fallback)"
for bad in 'ABCDEFGHI' $'€\t' 'https://x.example/'; do
	before=$(sqlite3 "$DB" 'SELECT value FROM settings WHERE key = "currency_symbol"')
	"$ADMIN" --db "$DB" setting set currency_symbol --installation "$bad" </dev/null 2>"$T/err"
	is "$?:$(sqlite3 "$DB" 'SELECT value FROM settings WHERE key = "currency_symbol"')" \
	    "1:$before" "setting set currency_symbol --installation '$bad' fails and changes nothing"
done
grep -q 'currency_symbol must be' "$T/err"
ok $? "the failure says what the symbol must be"
for bad in 'ftp://x.example/' 'https://x.example' 'https://x y/' ''; do
	"$ADMIN" --db "$DB" setting set public_url --installation "$bad" </dev/null 2>"$T/err"
	rc=$?
	if [[ -z $bad ]]; then
		is "$rc:$("$ADMIN" --db "$DB" setting get public_url --installation)" "0:" \
		    "setting set public_url --installation '' clears it"
	else
		is "$rc" 1 "setting set public_url --installation '$bad' fails"
	fi
done
"$ADMIN" --db "$DB" setting set staff_enrolment 2 </dev/null 2>/dev/null
is "$?" 1 "setting set staff_enrolment 2 fails"
"$ADMIN" --db "$DB" setting set staff_enrolment 0 </dev/null
cgi enrol GET /api/v1/cards/enrol "" "$STAFF"
is "$(jq -c .data "$T/body")" '{"can_enrol":false,"programs":[]}' \
    "staff_enrolment 0 set with the admin tool: staff are offered nothing"

# --- the migration on an existing database --------------------------------------

OLD=$T/old.db
for f in "$top_srcdir"/schema/00[1-7]_*.sql; do
	b=$(basename "$f" .sql)
	sqlite3 "$OLD" <"$f" || bail "cannot apply $b"
	sqlite3 "$OLD" "CREATE TABLE IF NOT EXISTS schema_migrations (version
	    INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL);
	    INSERT INTO schema_migrations VALUES (${b%%_*} + 0, '$b', 0)" ||
	    bail "cannot record $b"
done
sqlite3 "$OLD" "INSERT INTO merchants VALUES ('m', 'Old Shop', 0);
    INSERT INTO programs(id, merchant_id, type, title, punch_requirement,
        reward_title, created_at) VALUES ('p', 'm', 'punch', 'Old Card', 5,
        'Gift', 0);
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50)
    INSERT INTO cards(id, merchant_id, program_id, customer_name, barcode,
        qr_code, created_at) SELECT 'c' || i, 'm', 'p', 'Old ' || i,
        '2' || printf('%012d', i), 'qr' || i, i FROM n" ||
    bail "cannot fill the old database"
is "$(sqlite3 "$OLD" 'SELECT max(version) FROM schema_migrations')" 7 \
    "an existing database at version 7 with 50 cards"
"$ADMIN" --db "$OLD" init </dev/null
ok $? "the admin tool upgrades it"
# The newest migration: the highest number among schema/*.sql.
latest=$(find "$top_srcdir/schema" -name '[0-9]*.sql' | sed 's|.*/0*\([0-9]*\)_.*|\1|' | sort -n | tail -n 1)
is "$(sqlite3 "$OLD" 'SELECT max(version) FROM schema_migrations')" "$latest" \
    "it is at the newest version ($latest), through 008's share tokens"
is "$(sqlite3 "$OLD" "SELECT count(*), count(DISTINCT share_token),
    sum(share_token GLOB '[0-9a-f]*' AND length(share_token) = 32
    AND share_token NOT GLOB '*[^0-9a-f]*') FROM cards")" "50|50|50" \
    "every existing card got a token of its own, 32 lowercase hex"
is "$(sqlite3 "$OLD" 'PRAGMA integrity_check; PRAGMA foreign_key_check;')" ok \
    "the upgraded database passes integrity and foreign key checks"
tok=$(sqlite3 "$OLD" "SELECT share_token FROM cards WHERE id = 'c7'")
DB=$OLD cgi mycard GET "/api/v1/mycard/$tok"
is "$(jq -r '.data.customer_name + " " + .data.merchant_name' "$T/body")" \
    "Old 7 Old Shop" "an old card's page answers by its new token"
sqlite3 "$OLD" "INSERT INTO cards(id, merchant_id, program_id, customer_name,
    barcode, qr_code, created_at, share_token) VALUES ('x', 'm', 'p', 'X',
    '2999999999999', 'qrx', 0, '$tok')" 2>"$T/sql.err"
grep -q 'UNIQUE constraint failed: cards.share_token' "$T/sql.err"
ok $? "the schema refuses a second card with the same token"
sqlite3 "$OLD" "UPDATE cards SET share_token = 'ABCDEF0123456789ABCDEF0123456789'
    WHERE id = 'c1'" 2>"$T/sql.err"
grep -q 'CHECK constraint failed' "$T/sql.err"
ok $? "the schema refuses a token that is not 32 lowercase hex"

echo "1..$N"
((FAILED == 0))
