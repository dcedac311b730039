#!/usr/bin/env bash
# End-to-end over real HTTP: lighttpd exactly as tools/serve runs it, with
# the FastCGI responders, a fresh demo database and the auth flow; then the
# same flow through Apache 2.4 + mod_fcgid with htdocs/.htaccess and
# conf/apache-fcgid.conf (skipped when apache2 is not installed).
# LT_BACKEND=postgresql serves both from PostgreSQL (tests/e2e_pg.sh).
# TAP; run by `make check`, or by hand: tests/e2e.sh (after tools/check or
# a build in build/). LT_KEEP=1 keeps the temp folders.
set -u
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"

command -v jq >/dev/null || bail "jq is not installed (tools/check installs it)"
command -v curl >/dev/null || bail "curl is not installed (tools/check installs it)"

json_ct='application/json; charset=utf-8'

# The checks every error response must pass: status, JSON error body with
# code, Content-Type and X-Request-Id equal to meta.request_id.
# raw URL FORMAT [ARG...]: printf's FORMAT and ARGs sent as they are to
# URL's host and port, for requests curl will not send; sets RAW (the
# answer, without CRs).
raw() {
	local hp=${1#http://}
	# shellcheck disable=SC2059 # the format is the test's own
	RAW=$( (exec 3<>"/dev/tcp/${hp%%:*}/${hp##*:}" &&
	    printf "$2" "${@:3}" >&3 && timeout 10 cat <&3) 2>/dev/null | tr -d '\r')
}
raw_status() { printf '%s\n' "$RAW" | sed -n '1s/^HTTP\/1\.[01] \([0-9]*\).*/\1/p'; }
raw_header() { printf '%s\n' "$RAW" | sed -n "/^\$/q; s/^$1: //Ip" | head -n 1; }
raw_code() { printf '%s\n' "$RAW" | sed -n '/^{/p' | jq -r .error.code 2>/dev/null; }

# Requests the web server itself refuses, as PREFIX/api/v1/...: each line
# NAME|STATUS|FORMAT: lighttpd's status for it, and printf's format (%s
# for the prefix, %% for a %).
REFUSED='a NUL in the query|400|GET %s/api/v1/transactions/history?page=%%00 HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n
a control byte in the query|400|GET %s/api/v1/transactions/history?page=%%01 HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n
an invalid UTF-8 byte in the query|400|GET %s/api/v1/transactions/history?page=%%ff HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n
a NUL in the path|400|POST %s/api/v1/transactions/record%%00 HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}
a garbage request line|400|GARBAGE\r\n\r\n
a negative Content-Length|400|POST %s/api/v1/cards/lookup HTTP/1.1\r\nHost: t\r\nContent-Length: -5\r\nConnection: close\r\n\r\n
a NUL in a header|400|GET %s/api/v1/cards/lookup HTTP/1.1\r\nHost: t\r\nX-A: a\000b\r\nConnection: close\r\n\r\n
an unknown Transfer-Encoding|400|POST %s/api/v1/cards/lookup HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: gzip\r\nConnection: close\r\n\r\n
a request line of 9,000 bytes|431|GET %s/api/v1/cards/lookup?q='"$(head -c 9000 /dev/zero | tr '\0' a)"' HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n
a header of 70,000 bytes|431|GET %s/api/v1/cards/lookup HTTP/1.1\r\nHost: t\r\nX-Big: '"$(head -c 70000 /dev/zero | tr '\0' a)"'\r\nConnection: close\r\n\r\n'

# refused SERVER URL PREFIX LOG: each of REFUSED is a 4xx that tells no
# client to retry and writes nothing to the error log LOG; under
# lighttpd (its error handler is the service's) in the service's shape,
# never stored, and with a code of its status.
refused() {
	local server=$1 url=$2 prefix=$3 log=$4 name status text st want mark
	mark=$(wc -c <"$log")
	while IFS='|' read -r name status text; do
		raw "$url" "$text" "$prefix"
		st=$(raw_status)
		like "$st/$(raw_header Retry-After)" '^4[0-9][0-9]/$' \
		    "$server: $name: a 4xx without Retry-After"
		[ "$server" = lighttpd ] || continue
		case $status in 414) want=URI_TOO_LONG ;; 431) want=HEADERS_TOO_LARGE ;;
		*) want=VALIDATION_ERROR ;; esac
		is "$st/$(raw_code)/$(raw_header Cache-Control)" "$status/$want/no-store" \
		    "$server: $name: $status $want in the service's shape, not stored"
	done <<EOF
$REFUSED
EOF
	is "$(tail -c +$((mark + 1)) "$log" | grep -c 'loyalty: request')" 0 \
	    "$server: none of them wrote a line of the service's to the error log"
}

check_error() {	# STATUS CODE DESC
	is "$LT_STATUS" "$1" "$3: status $1"
	is "$(lt_jq '.success,.error.code' | tr '\n' ' ')" "false $2 " \
	    "$3: JSON error body with code $2"
	is "$(lt_header Content-Type)" "$json_ct" "$3: Content-Type"
	ok "$3: X-Request-Id equals meta.request_id" \
	    test -n "$(lt_header X-Request-Id)" -a \
	    "$(lt_header X-Request-Id)" = "$(lt_jq .meta.request_id)"
}

lt_start

# --- login ------------------------------------------------------------------

ok "staff logs in" lt_login "$DEMO_STAFF_EMAIL" "$DEMO_STAFF_PASSWORD"
staff_token=$LT_TOKEN staff_refresh=$LT_REFRESH staff_id=$LT_USER_ID
is "$(lt_jq '.token_type, .expires_in, .user.email, .user.user_type' | tr '\n' ' ')" \
    "bearer 3600 $DEMO_STAFF_EMAIL system_user " "login: token_type, expires_in, user"
like "$staff_token" '^[A-Za-z0-9_-]{43}$' "login: access token is 256 bits, base64url"
ok "login: refresh token differs from the access token" \
    test -n "$staff_refresh" -a "$staff_refresh" != "$staff_token"
is "$(lt_jq '.user.location.id')" "$DEMO_LOCATION_ID" "login: staff location is Main Street"
is "$(lt_header Content-Type)" "$json_ct" "login: Content-Type"
like "$(lt_header X-Request-Id)" '^[0-9a-f-]{36}$' "login: X-Request-Id is a UUID"
is "$(lt_header Cache-Control)" "no-store" "login: Cache-Control no-store"

ok "owner logs in" lt_login "$DEMO_OWNER_EMAIL" "$DEMO_OWNER_PASSWORD"
owner_token=$LT_TOKEN
is "$(lt_jq '.user.user_type, (.user.locations | length), .user.location.id' | tr '\n' ' ')" \
    "owner 2 $DEMO_LOCATION_ID " "login: owner sees both locations, first active"

LT_TOKEN=
lt_req POST /api/v1/auth/login '{"email":"staff@demo.example","password":"wrong"}'
check_error 401 INVALID_CREDENTIALS "login with a wrong password"

# --- me -------------------------------------------------------------------

LT_TOKEN=$staff_token
lt_req GET /api/v1/auth/me
is "$LT_STATUS" 200 "me with the staff token: 200"
is "$(lt_jq '.id, .email' | tr '\n' ' ')" "$staff_id $DEMO_STAFF_EMAIL " "me: the staff's profile"
is "$(lt_header Content-Type)" "$json_ct" "me: Content-Type"
is "$(lt_header Cache-Control)" "no-store" "me: Cache-Control no-store"

lt_req GET '/api/v1/auth/me?unused=1&x=%20y'
is "$LT_STATUS" 200 "me with a query string: 200 (rewrite keeps the path)"

lt_req GET /api/v1/auth/me "" -H 'X-Request-Id: till-7.req_42'
is "$(lt_header X-Request-Id)" "till-7.req_42" "a client's X-Request-Id is echoed"

LT_TOKEN=
lt_req GET /api/v1/auth/me
check_error 401 UNAUTHORIZED "me without a token"
is "$(lt_header WWW-Authenticate)" "Bearer" "401 without a token: WWW-Authenticate: Bearer"

LT_TOKEN=not-a-real-token
lt_req GET /api/v1/auth/me
check_error 401 UNAUTHORIZED "me with a bad token"
is "$(lt_header WWW-Authenticate)" 'Bearer error="invalid_token"' \
    "401 with a token: WWW-Authenticate error=\"invalid_token\""

# --- refresh ----------------------------------------------------------------

LT_TOKEN=
lt_req POST /api/v1/auth/refresh "{\"refresh_token\":\"$staff_refresh\"}"
is "$LT_STATUS" 200 "refresh: 200"
new_access=$(lt_jq .access_token) new_refresh=$(lt_jq .refresh_token)
is "$(lt_jq .expires_in)" 3600 "refresh: expires_in"
ok "refresh: a new pair" test -n "$new_refresh" -a "$new_refresh" != "$staff_refresh" \
    -a -n "$new_access" -a "$new_access" != "$staff_token"
is "$(lt_header Cache-Control)" "no-store" "refresh: Cache-Control no-store"

LT_TOKEN=$new_access
lt_req GET /api/v1/auth/me
is "$LT_STATUS" 200 "me with the refreshed access token: 200"
LT_TOKEN=$staff_token
lt_req GET /api/v1/auth/me
is "$LT_STATUS" 200 "the access token from before the refresh still works"

LT_TOKEN=
lt_req POST /api/v1/auth/refresh "{\"refresh_token\":\"$staff_refresh\"}"
check_error 401 UNAUTHORIZED "the old refresh token is rejected"
is "$(lt_header WWW-Authenticate)" 'Bearer' \
    "reused refresh token (no Authorization header): WWW-Authenticate: Bearer"
lt_req POST /api/v1/auth/refresh "{\"refresh_token\":\"$new_refresh\"}"
is "$LT_STATUS" 401 "reuse revoked the family: the newest refresh token is rejected"
for t in "$staff_token" "$new_access"; do
	LT_TOKEN=$t
	lt_req GET /api/v1/auth/me
	is "$LT_STATUS" 401 "reuse revoked the family: its access tokens are rejected"
done
LT_TOKEN=$owner_token
lt_req GET /api/v1/auth/me
is "$LT_STATUS" 200 "another login (the owner's) is untouched"

# --- routing and limits -------------------------------------------------------

LT_TOKEN=
for p in /api/v1/nope /api/v1/auth/me/extra '/api/v2/auth/me?x=1' /api/; do
	lt_req GET "$p"
	check_error 404 NOT_FOUND "unknown path $p"
done

lt_req GET /api/v1/auth/login
check_error 405 METHOD_NOT_ALLOWED "GET login"
is "$(lt_header Allow)" POST "405 on login: Allow: POST"
lt_req POST /api/v1/auth/me '{}'
is "$LT_STATUS/$(lt_header Allow)" 405/GET "POST me: 405 with Allow: GET"

big=$LT_DIR/big.json
head -c $((2 * 1024 * 1024)) /dev/zero | tr '\0' ' ' >"$big"
lt_req POST /api/v1/auth/login "@$big"
check_error 413 PAYLOAD_TOO_LARGE "a 2 MiB body (answered by the service)"
exact=$LT_DIR/exact.json
{ printf '{"email":"x@y.z","password":"p","pad":"'
  head -c $((1024 * 1024 - 41)) /dev/zero | tr '\0' 'a'; printf '"}'; } >"$exact"
is "$(wc -c <"$exact" | tr -d ' ')" 1048576 "the exact-limit body is 1 MiB"
lt_req POST /api/v1/auth/login "@$exact"
is "$LT_STATUS/$(lt_jq .error.code)" 401/INVALID_CREDENTIALS "a body of exactly 1 MiB is accepted"

lt_req POST /api/v1/auth/login '{}' -H 'Content-Type: text/plain'
check_error 415 UNSUPPORTED_MEDIA_TYPE "login with Content-Type text/plain"

# Request ids are random per request (version 4), not counted up from
# one draw per process: ten answers of the same processes share no
# leading 32 bits and all are version 4.
ids=''
for i in 1 2 3 4 5 6 7 8 9 10; do
	lt_req GET /api/v1/nope
	ids="$ids$(lt_header X-Request-Id)"$'\n'
done
is "$(printf '%s' "$ids" | grep -cE '^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$')/$(printf '%s' "$ids" | cut -c1-8 | sort -u | wc -l)" \
    10/10 "ten request ids: each a version 4 UUID, no two alike in their first 32 bits"

refused lighttpd "$LT_URL" '' "$LC_ERRORLOG"
raw "$LT_URL" 'GET /api/v1/mycard/abc%%01 HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n'
is "$(raw_status)/$(raw_header X-Robots-Tag)" 400/noindex \
    "lighttpd: a card link it refuses is not indexed either"

if [ -x "$LC_BUILDDIR/cgi-bin/history.fcgi" ]; then
	LT_TOKEN=$owner_token
	lt_req GET "/api/v1/transactions/history?card_instance_id=$DEMO_PUNCH_CARD&page=0"
	is "$LT_STATUS/$(lt_jq .error.details.field)" 400/page \
	    "the query string reaches the responder (history page=0)"
else
	skip 1 "history.fcgi not built yet"
fi

# --- FastCGI ------------------------------------------------------------------

LT_TOKEN=$owner_token
before=$(lt_responder_pids me | sort | tr '\n' ' ')
is "$(echo "$before" | wc -w | tr -d ' ')" "$LC_PROCS" "lighttpd started $LC_PROCS me.fcgi processes"
fails=0
for i in $(seq 1 200); do
	lt_req GET /api/v1/auth/me
	[ "$LT_STATUS" = 200 ] || fails=$((fails + 1))
done
is "$fails" 0 "200 sequential me calls all succeed (connection and statements reused)"
after=$(lt_responder_pids me | sort | tr '\n' ' ')
is "$after" "$before" "the same me.fcgi processes served them all (FastCGI, not CGI)"
held=0
for p in $after; do
	if [ "$LT_BACKEND" = postgresql ]; then
		# Its connection: a TCP socket to the cluster's port.
		ss -Htnp state established "( dport = :$LT_PG_PORT )" 2>/dev/null |
		    grep -q "pid=$p," && held=$((held + 1))
		continue
	fi
	for fd in "/proc/$p/fd/"*; do
		if [ "$(readlink "$fd" 2>/dev/null)" = "$LT_DB" ]; then
			held=$((held + 1))
			break
		fi
	done
done
ok "the me.fcgi processes keep the database open between requests" test "$held" -ge 1

pids=$(lc_server_children)
lc_server_stop
left=
for p in $pids; do lc_alive "$p" && left="$left $p"; done
is "$left" "" "stopping lighttpd ends every responder"
# After the stop: a responder exits normally on SIGTERM, so under
# --enable-sanitizers LeakSanitizer has just checked each of them.
is "$(lt_log_problems)" "" "no sanitizer report or crashed responder in lighttpd's log"
lt_stop

# --- Apache 2.4 + mod_fcgid -----------------------------------------------------

APACHE_POINTS=19
if ! ap_available; then
	skip $APACHE_POINTS "apache2 and libapache2-mod-fcgid not installed (tools/check installs them)"
	done_testing
	exit
fi

# ap_start (tests/lib.sh): /shop/ is a shared host (htdocs/ with its
# .htaccess in a subfolder, LOYALTY_DB set there as its comment says),
# /pos/ a server of one's own through conf/apache-fcgid.conf.
trap 'ap_cleanup; lt_backend_stop' EXIT
if ! ap_start; then
	ok "apache2 starts with conf/apache-fcgid.conf and htdocs/.htaccess" false
	skip $((APACHE_POINTS - 1)) "apache2 did not start"
	done_testing
	exit
fi
ok "apache2 starts with conf/apache-fcgid.conf and htdocs/.htaccess" true
# A responder that dies before answering: Apache's own 500.
printf '#!/bin/sh\nexit 1\n' >"$AP_DIR/www/shop/$LC_RESPONDER_DIR/broken.fcgi"
chmod 755 "$AP_DIR/www/shop/$LC_RESPONDER_DIR/broken.fcgi"
LT_DIR=$AP_DIR LT_URL=$AP_URL

LT_TOKEN=
lt_req POST /shop/api/v1/auth/login \
    "{\"email\":\"$DEMO_STAFF_EMAIL\",\"password\":\"$DEMO_STAFF_PASSWORD\"}"
is "$LT_STATUS/$(lt_jq .user.email)" "200/$DEMO_STAFF_EMAIL" "apache .htaccess: staff logs in under a subfolder"
a_token=$(lt_jq .access_token) a_refresh=$(lt_jq .refresh_token)
is "$(lt_header Content-Type)" "$json_ct" "apache: Content-Type"

LT_TOKEN=$a_token
lt_req GET '/shop/api/v1/auth/me?x=1'
is "$LT_STATUS/$(lt_jq .email)" "200/$DEMO_STAFF_EMAIL" "apache: the Authorization header reaches me"
LT_TOKEN=
lt_req GET /shop/api/v1/auth/me
is "$LT_STATUS/$(lt_header WWW-Authenticate)" "401/Bearer" "apache: 401 without a token, WWW-Authenticate: Bearer"
LT_TOKEN=not-a-real-token
lt_req GET /shop/api/v1/auth/me
is "$LT_STATUS/$(lt_header WWW-Authenticate)" '401/Bearer error="invalid_token"' \
    "apache: 401 with a bad token, error=\"invalid_token\""

LT_TOKEN=
lt_req POST /shop/api/v1/auth/refresh "{\"refresh_token\":\"$a_refresh\"}"
is "$LT_STATUS" 200 "apache: refresh"
a_new=$(lt_jq .refresh_token)
lt_req POST /shop/api/v1/auth/refresh "{\"refresh_token\":\"$a_refresh\"}"
is "$LT_STATUS" 401 "apache: the old refresh token is rejected"
lt_req POST /shop/api/v1/auth/refresh "{\"refresh_token\":\"$a_new\"}"
is "$LT_STATUS" 401 "apache: reuse revoked the family"

lt_req GET /shop/api/v1/nope
is "$LT_STATUS/$(lt_jq .error.code)" 404/NOT_FOUND "apache: unknown /api/ path is 404 JSON"
lt_req GET /shop/api/v1/auth/login
is "$LT_STATUS/$(lt_header Allow)" 405/POST "apache: GET login is 405 with Allow: POST"
big=$AP_DIR/big.json
head -c $((2 * 1024 * 1024)) /dev/zero | tr '\0' ' ' >"$big"
lt_req POST /shop/api/v1/auth/login "@$big"
is "$LT_STATUS/$(lt_jq .error.code)" 413/PAYLOAD_TOO_LARGE "apache: a 2 MiB body gets the service's 413"
ok "apache: X-Request-Id present" test -n "$(lt_header X-Request-Id)"
# Apache refuses these before it reads the site's .htaccess: its own
# page, but a 4xx, never a 500 to retry.
refused apache "$AP_URL" /shop "$AP_DIR/error.log"
lt_req GET "/shop/$LC_RESPONDER_DIR/me.fcgi"
is "$LT_STATUS/$(lt_jq .error.code)" 404/NOT_FOUND "apache: a responder called directly answers 404"
lt_req GET "/shop/$LC_RESPONDER_DIR/broken.fcgi"
is "$LT_STATUS/$(lt_header Content-Type)/$(lt_jq .error.code)/$(lt_header Retry-After)" \
    "500/$json_ct/INTERNAL_ERROR/1" \
    "apache: its own 500 (a responder that dies at start) is JSON, with Retry-After"

lt_req POST /pos/api/v1/auth/login \
    "{\"email\":\"$DEMO_OWNER_EMAIL\",\"password\":\"$DEMO_OWNER_PASSWORD\"}"
is "$LT_STATUS/$(lt_jq .user.user_type)" 200/owner "apache-fcgid.conf: owner logs in under /pos"
LT_TOKEN=$(lt_jq .access_token)
lt_req GET /pos/api/v1/auth/me
is "$LT_STATUS/$(lt_jq .user_type)" 200/owner "apache-fcgid.conf: me with the token"
if [ -x "$LC_BUILDDIR/cgi-bin/history.fcgi" ]; then
	lt_req GET "/shop/api/v1/transactions/history?card_instance_id=$DEMO_PUNCH_CARD&page=0"
	is "$LT_STATUS/$(lt_jq .error.details.field)" 400/page \
	    "apache: the query string reaches the responder (history page=0)"
else
	skip 1 "history.fcgi not built yet"
fi

ap_stop
is "$(grep -E 'AddressSanitizer|LeakSanitizer|runtime error:' "$AP_DIR/error.log")" "" \
    "apache: no sanitizer report in the error log (after the stop)"
done_testing
