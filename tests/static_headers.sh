#!/usr/bin/env bash
# The headers, compression, types and caching of the pages, their files and
# the API's answers, over real HTTP: lighttpd exactly as tools/serve runs
# it (conf/lighttpd.conf.in), then Apache 2.4 + mod_fcgid with
# htdocs/.htaccess on a shared host (/shop/) and through
# conf/apache-fcgid.conf (/pos/) (skipped when apache2 is not installed).
# For each file: the security headers, the pages' Content-Security-Policy,
# Cache-Control: no-cache, its Content-Type (a JavaScript module type for
# .js), no compression unless asked, gzip when asked (decompressed, the
# very bytes of the file) and a 304 when revalidated; the API's answers
# keep their own policy and caching (https: tests/https.sh). The sizes go
# to TAP comments.
# TAP; run by `make check`, or by hand: tests/static_headers.sh (after
# tools/check or a build in build/). LT_KEEP=1 keeps the temp folders.
set -u
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"

command -v curl >/dev/null || bail "curl is not installed (tools/check installs it)"
command -v jq >/dev/null || bail "jq is not installed (tools/check installs it)"
command -v gzip >/dev/null || bail "gzip is not installed"

# What every answer carries, pages and API alike.
SECURITY="nosniff|DENY|no-referrer|camera=(self), microphone=(), geolocation=()"
# The pages' policy; owner.html's also takes blob: style sheets (its card
# sheet opens from a blob: URL under this policy).
CSP_PAGE="default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; connect-src 'self'; worker-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
CSP_OWNER=${CSP_PAGE/style-src \'self\';/style-src \'self\' blob:;}

# The files checked in full, then whatever else the web folder holds that
# a browser loads (card.html, owner/*.js, till/*.js, js/*.js, vendor/...): type,
# security headers, policy and caching.
# The till's modules are its page: till/*.js, each one concern.
MAIN_FILES="index.html $(cd "$top_srcdir/htdocs" && echo till/*.js) pos.css owner.html sw.js"

# A snapshot of htdocs/, served by both servers, so that a file edited
# while the test runs does not make it fail.
SNAP=$(mktemp -d "${TMPDIR:-/tmp}/loyalty-htdocs.XXXXXX") || bail "mktemp"
cp -R "$top_srcdir/htdocs/." "$SNAP/"
EXTRA_FILES=$(cd "$SNAP" && find . -maxdepth 3 -type f \
    \( -name '*.html' -o -name '*.js' -o -name '*.mjs' -o -name '*.css' \
    -o -name '*.svg' -o -name '*.json' -o -name '*.webmanifest' \) |
    sed 's|^\./||' | sort | while read -r f; do
	case " $MAIN_FILES " in *" $f "*) ;; *) echo "$f" ;; esac
    done)

content_type() {	# FILE: the Content-Type both servers must send
	case $1 in
	*.html) echo 'text/html; charset=utf-8' ;;
	*.js | *.mjs) echo 'text/javascript; charset=utf-8' ;;
	*.css) echo 'text/css; charset=utf-8' ;;
	*.json) echo 'application/json; charset=utf-8' ;;
	*.svg) echo 'image/svg+xml' ;;
	*.webmanifest) echo 'application/manifest+json' ;;
	esac
}

csp_of() {	# FILE
	case $1 in
	owner.html) echo "$CSP_OWNER" ;;
	*) echo "$CSP_PAGE" ;;
	esac
}

# The security headers of the last answer, joined, and how many
# X-Content-Type-Options lines it had (a responder's and the server's
# must not both go out).
security_of_last() {
	printf '%s|%s|%s|%s' "$(lt_header X-Content-Type-Options)" \
	    "$(lt_header X-Frame-Options)" "$(lt_header Referrer-Policy)" \
	    "$(lt_header Permissions-Policy)"
}
nosniff_lines() {
	printf '%s\n' "$LT_HEADERS" | grep -ci '^x-content-type-options:'
}
# Every value of header NAME in the last answer, joined with ", " (as a
# browser reads a header sent more than once).
header_all() {
	printf '%s\n' "$LT_HEADERS" | awk -v n="$1" '
	    BEGIN { n = tolower(n) }
	    { i = index($0, ":"); if (i && tolower(substr($0, 1, i - 1)) == n) {
	        v = substr($0, i + 1); sub(/^[ \t]+/, "", v)
	        out = out (out == "" ? "" : ", ") v } }
	    END { print out }'
}
# lt_req for a compressed answer (the body is binary: bash warns about
# its NUL bytes when lt_req reads it into LT_BODY).
lt_req_gz() {
	lt_req "$@" 2>/dev/null
}

sizes_total_plain=0 sizes_total_gz=0
sizes_till_plain=0 sizes_till_gz=0

# check_file NAME PREFIX FILE: the full checks of one file.
check_file() {
	local n=$1 pre=$2 f=$3 file=$SNAP/$3 body etag plain gz
	body=$LT_DIR/resp.body
	lt_req GET "$pre/$f"
	is "$LT_STATUS" 200 "$n: $f: 200"
	is "$(security_of_last)" "$SECURITY" "$n: $f: security headers"
	is "$(nosniff_lines)" 1 "$n: $f: one X-Content-Type-Options"
	is "$(header_all Content-Security-Policy)" "$(csp_of "$f")" "$n: $f: Content-Security-Policy"
	is "$(lt_header Cache-Control)" no-cache "$n: $f: Cache-Control: no-cache"
	is "$(lt_header Content-Type)" "$(content_type "$f")" "$n: $f: Content-Type"
	is "$(lt_header Content-Encoding)" "" "$n: $f: not compressed when not asked"
	ok "$n: $f: the body is the file" cmp -s "$body" "$file"
	plain=$(wc -c <"$body" | tr -d ' ')

	lt_req_gz GET "$pre/$f" "" -H 'Accept-Encoding: gzip'
	is "$LT_STATUS/$(lt_header Content-Encoding)" 200/gzip "$n: $f: gzip when asked"
	like "$(lt_header Vary)" '(^|[ ,])Accept-Encoding($|[ ,])' "$n: $f: Vary: Accept-Encoding"
	is "$(security_of_last)|$(lt_header Cache-Control)" "$SECURITY|no-cache" \
	    "$n: $f: the same headers compressed"
	ok "$n: $f: decompressed, the very bytes of the file" \
	    sh -c 'gzip -dc <"$1" | cmp -s - "$2"' sh "$body" "$file"
	gz=$(wc -c <"$body" | tr -d ' ')
	diag "$n: $f: $plain bytes, gzip $gz ($((gz * 100 / (plain > 0 ? plain : 1)))%)"
	sizes_total_plain=$((sizes_total_plain + plain))
	sizes_total_gz=$((sizes_total_gz + gz))
	case $f in owner.html) ;; *)
		sizes_till_plain=$((sizes_till_plain + plain))
		sizes_till_gz=$((sizes_till_gz + gz)) ;;
	esac

	etag=$(lt_header ETag)
	lt_req_gz GET "$pre/$f" "" -H 'Accept-Encoding: gzip' -H "If-None-Match: $etag"
	is "$LT_STATUS" 304 "$n: $f: revalidated with the compressed ETag: 304"
}

# check_extra NAME PREFIX FILE: type, headers and caching.
check_extra() {
	local n=$1 pre=$2 f=$3
	lt_req GET "$pre/$f"
	is "$LT_STATUS|$(lt_header Content-Type)|$(security_of_last)|$(lt_header Cache-Control)" \
	    "200|$(content_type "$f")|$SECURITY|no-cache" "$n: $f: type, security headers, no-cache"
	is "$(header_all Content-Security-Policy)" "$(csp_of "$f")" "$n: $f: Content-Security-Policy"
}

# check_server NAME PREFIX: every check against LT_URL$PREFIX, with the
# demo database's logins.
check_server() {
	local n=$1 pre=$2 f token card
	sizes_total_plain=0 sizes_total_gz=0 sizes_till_plain=0 sizes_till_gz=0
	for f in $MAIN_FILES; do
		check_file "$n" "$pre" "$f"
	done
	diag "$n: the till's page (index.html, till/*.js, pos.css, sw.js):" \
	    "$sizes_till_plain bytes, gzip $sizes_till_gz"
	diag "$n: with owner.html: $sizes_total_plain bytes, gzip $sizes_total_gz"
	lt_req GET "$pre/"
	is "$LT_STATUS|$(lt_header Content-Type)|$(lt_header Cache-Control)" \
	    "200|text/html; charset=utf-8|no-cache" "$n: / is the till's page, no-cache"
	is "$(header_all Content-Security-Policy)" "$CSP_PAGE" "$n: /: Content-Security-Policy"
	for f in $EXTRA_FILES; do
		check_extra "$n" "$pre" "$f"
	done

	# The API: its own Cache-Control and no page policy, but the
	# security headers and no framing.
	LT_TOKEN=
	lt_req GET "$pre/api/v1/auth/me"
	is "$LT_STATUS|$(lt_header Content-Type)|$(lt_jq .error.code)" \
	    "401|application/json; charset=utf-8|UNAUTHORIZED" "$n: API: me without a token is 401 JSON"
	is "$(security_of_last)" "$SECURITY" "$n: API: security headers"
	is "$(header_all Content-Security-Policy)" "frame-ancestors 'none'" "$n: API: frames refused"
	is "$(lt_header Cache-Control)" no-store "$n: API: its own Cache-Control: no-store"
	is "$(nosniff_lines)" 1 "$n: API: one X-Content-Type-Options"

	lt_req_gz POST "$pre/api/v1/auth/login" \
	    "$(jq -cn --arg e "$DEMO_OWNER_EMAIL" --arg p "$DEMO_OWNER_PASSWORD" '{email: $e, password: $p}')" \
	    -H 'Accept-Encoding: gzip'
	is "$LT_STATUS/$(lt_header Content-Encoding)" 200/gzip "$n: API: a login answer is compressed when asked"
	token=$(gzip -dc <"$LT_DIR/resp.body" 2>/dev/null | jq -r .access_token 2>/dev/null)
	like "$token" '^[A-Za-z0-9_-]{43}$' "$n: API: decompressed, the login answer"

	# A picture from a responder keeps its own policy, plus no framing,
	# and one nosniff (the responder sends one too).
	card=$DEMO_PUNCH_CARD
	LT_TOKEN=$token
	lt_req GET "$pre/api/v1/admin/cards/$card/qr.svg"
	LT_TOKEN=
	is "$LT_STATUS|$(lt_header Content-Type)|$(nosniff_lines)" "200|image/svg+xml|1" \
	    "$n: API: the card's QR code, one X-Content-Type-Options"
	like "$(header_all Content-Security-Policy)" "^default-src 'none'; .*, frame-ancestors 'none'\$" \
	    "$n: API: the picture keeps its policy, frames refused"
	is "$(security_of_last)" "$SECURITY" "$n: API: the picture's security headers"
}

# --- lighttpd -------------------------------------------------------------------

LT_DOCROOT=$SNAP lt_start
trap 'lt_stop; rm -rf "$SNAP"' EXIT
first=$tap_n
check_server lighttpd ""
per_server=$((tap_n - first))
is "$(lt_log_problems)" "" "lighttpd: no crashed responder in its log"
lt_stop

# --- Apache 2.4 + mod_fcgid -------------------------------------------------------

if ! ap_available; then
	skip $((2 * per_server + 5)) "apache2 and libapache2-mod-fcgid not installed (tools/check installs them)"
	done_testing
	exit
fi
# ap_start copies the snapshot (LT_DOCROOT) into its web folder.
trap 'ap_cleanup; rm -rf "$SNAP"' EXIT
if ! LT_DOCROOT=$SNAP ap_start; then
	ok "apache2 starts with htdocs/.htaccess and conf/apache-fcgid.conf" false
	skip $((2 * per_server + 4)) "apache2 did not start"
	done_testing
	exit
fi
ok "apache2 starts with htdocs/.htaccess and conf/apache-fcgid.conf" true
LT_DIR=$AP_DIR LT_URL=$AP_URL
check_server "apache .htaccess" /shop
check_server "apache-fcgid.conf" /pos

ap_stop
done_testing
