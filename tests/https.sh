#!/usr/bin/env bash
# https by default, over real servers with a throwaway certificate (made
# here by OpenSSL for shop.example and 127.0.0.1): lighttpd as tools/serve
# runs it (conf/lighttpd.conf.in, with an https socket added as
# docs/https.md says), lighttpd with Debian's snippet (conf/lighttpd-site.conf.in,
# below /loyalty of another site), then Apache 2.4 with mod_ssl and
# htdocs/.htaccess (/shop/).
# For each: a visit over plain http by a public name is sent on to https
# (308, the path and query kept, a POST too), by an address, localhost or
# a local network's name it is not; every answer over https, pages and the
# API's, carries Strict-Transport-Security (and keeps its other headers),
# none over http; behind a front server that did the https
# (X-Forwarded-Proto) Apache neither loops nor forgets HSTS. Then in
# Chromium: the till and the back office warn when opened over plain http
# by a local network's name, the set-up asks for "I understand" there,
# and neither warns on localhost or over https (tests/browser/https/,
# run with playwright-core as the page tests are; skipped when Chromium,
# Node or playwright-core cannot be had).
# TAP; run by `make check`, or by hand: tests/https.sh (after tools/check
# or a build in build/). LT_KEEP=1 keeps the temp folders.
set -u
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
. "$top_srcdir/tests/browser.sh"

command -v curl >/dev/null || bail "curl is not installed (tools/check installs it)"
command -v openssl >/dev/null || bail "openssl is not installed (tools/check installs it)"
[ -e /usr/lib/lighttpd/mod_openssl.so ] ||
    bail "lighttpd's mod_openssl is not installed (lighttpd-mod-openssl; tools/check installs it)"

CERTS=$(mktemp -d "${TMPDIR:-/tmp}/loyalty-https.XXXXXX") || bail "mktemp"
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=shop.example \
    -addext 'subjectAltName=DNS:shop.example,IP:127.0.0.1' \
    -keyout "$CERTS/key.pem" -out "$CERTS/cert.pem" 2>"$CERTS/openssl.log" ||
    bail "openssl could not make a certificate: $(cat "$CERTS/openssl.log")"
chmod 644 "$CERTS/key.pem"

# The patterns and HSTS of tools/lib.sh, which the lighttpd configurations
# are rendered with: .htaccess spells them out the same.
HSTS=$LC_HSTS

# hreq METHOD URL [CURL_ARGS...]: one request, shop.example resolving to
# 127.0.0.1 on both ports and the throwaway certificate trusted; sets
# LT_STATUS and LT_HEADERS as lt_req does.
hreq() {
	local m=$1 url=$2
	shift 2
	LT_STATUS=$(curl -s -S -X "$m" -D "$CERTS/h" -o "$CERTS/b" -w '%{http_code}' \
	    --max-time 30 --cacert "$CERTS/cert.pem" \
	    --resolve "shop.example:$HTTP_PORT:127.0.0.1" \
	    --resolve "shop.example:$HTTPS_PORT:127.0.0.1" "$@" "$url") || LT_STATUS=000
	LT_HEADERS=$(tr -d '\r' <"$CERTS/h" 2>/dev/null)
	LT_BODY=$(cat "$CERTS/b" 2>/dev/null)
}

# Served over http as they came: no public certificate is made for them.
LOCAL_HOSTS="127.0.0.1 localhost 192.168.1.20 raspberrypi pos.local till.lan shop.home
pos.internal pi.home.arpa pos.fritz.box raspberrypi.localdomain till.intranet shop.corp [::1]"
CHECKS_POINTS=$((14 + $(wc -w <<<"$LOCAL_HOSTS")))
APACHE_POINTS=$((CHECKS_POINTS + 2))

# checks NAME PREFIX: the points above for a server on HTTP_PORT and
# HTTPS_PORT serving the service below PREFIX ("" or /shop).
checks() {
	local n=$1 p=$2 h
	# The Host header says the default port (80), as a browser does on
	# it: what the redirect is about.
	hreq GET "http://shop.example:$HTTP_PORT$p/index.html?x=1" -H 'Host: shop.example'
	is "$LT_STATUS|$(lt_header Location)" "308|https://shop.example$p/index.html?x=1" \
	    "$n: a page over http by a public name goes on to https (308), path and query kept"
	hreq POST "http://shop.example:$HTTP_PORT$p/api/v1/auth/login" -H 'Host: shop.example' \
	    -H 'Content-Type: application/json' -d '{}'
	is "$LT_STATUS|$(lt_header Location)" "308|https://shop.example$p/api/v1/auth/login" \
	    "$n: ... an API call too (308: the POST stays a POST)"
	hreq GET "http://shop.example:$HTTP_PORT$p/index.html" -H "Host: SHOP.Example.:80"
	is "$LT_STATUS|$(lt_header Location | tr A-Z a-z)" "308|https://shop.example$p/index.html" \
	    "$n: ... the name in any letter case, with its final dot and port 80"
	hreq GET "http://shop.example:$HTTP_PORT$p/index.html"
	is "$LT_STATUS|$(lt_header Location)" "200|" \
	    "$n: a public name on another port (shop.example:$HTTP_PORT) is served there: its https is not known"
	for h in $LOCAL_HOSTS "localhost:$HTTP_PORT"; do
		hreq GET "http://127.0.0.1:$HTTP_PORT$p/index.html" -H "Host: $h"
		is "$LT_STATUS|$(lt_header Location)|$(lt_header Strict-Transport-Security)" "200||" \
		    "$n: a page over http by $h is served there (no public certificate for it), without HSTS"
	done
	hreq GET "http://127.0.0.1:$HTTP_PORT$p/api/v1/auth/me"
	is "$LT_STATUS|$(lt_header Strict-Transport-Security)" "401|" \
	    "$n: an API answer over http by address: no HSTS"

	hreq GET "https://shop.example:$HTTPS_PORT$p/index.html"
	is "$LT_STATUS|$(lt_header Strict-Transport-Security)|$(lt_header X-Content-Type-Options)|$(lt_header Cache-Control)" \
	    "200|$HSTS|nosniff|no-cache" "$n: the till's page over https: HSTS, and its other headers kept"
	like "$(lt_header Content-Security-Policy)" "^default-src 'none'; script-src 'self'; style-src 'self';" \
	    "$n: ... its policy kept"
	hreq GET "https://shop.example:$HTTPS_PORT$p/owner.html"
	is "$LT_STATUS|$(lt_header Strict-Transport-Security)" "200|$HSTS" "$n: the back office over https: HSTS"
	like "$(lt_header Content-Security-Policy)" "style-src 'self' blob:" "$n: ... its own policy kept"
	hreq GET "https://shop.example:$HTTPS_PORT$p/js/http-warning.js"
	is "$LT_STATUS|$(lt_header Strict-Transport-Security)" "200|$HSTS" "$n: a script over https: HSTS"
	hreq POST "https://shop.example:$HTTPS_PORT$p/api/v1/auth/login" -H 'Content-Type: application/json' \
	    --data-binary '{"email":"nobody@shop.example","password":"not the password"}'
	is "$LT_STATUS|$(lt_header Strict-Transport-Security)|$(lt_header X-Frame-Options)|$(printf '%s' "$LT_BODY" | jq -r .error.code)" \
	    "401|$HSTS|DENY|INVALID_CREDENTIALS" \
	    "$n: the API answers over https (a wrong login): HSTS, the security headers kept"
	like "$(lt_header Content-Security-Policy)" "frame-ancestors 'none'" "$n: ... and the API's frame policy"
	hreq GET "https://shop.example:$HTTPS_PORT$p/api/v1/nothing-here"
	is "$LT_STATUS|$(lt_header Strict-Transport-Security)|$(printf '%s' "$LT_BODY" | jq -r .error.code)" \
	    "404|$HSTS|NOT_FOUND" "$n: an API 404 over https: HSTS too"
}

ok ".htaccess has tools/lib.sh's LC_HTTPS_LOCAL_RE, LC_HTTPS_PUBLIC_RE and LC_HSTS" \
    grep -qxF "RewriteCond %{HTTP_HOST} !$LC_HTTPS_LOCAL_RE [NC]" "$top_srcdir/htdocs/.htaccess"
ok "... the public name's" grep -qxF "RewriteCond %{HTTP_HOST} $LC_HTTPS_PUBLIC_RE [NC]" "$top_srcdir/htdocs/.htaccess"
ok "... HSTS" grep -qF "Header always set Strict-Transport-Security \"$LC_HSTS\"" "$top_srcdir/htdocs/.htaccess"

# --- lighttpd, as tools/serve runs it, with https as docs/https.md says ------

HTTPS_PORT=$(lt_free_port) || bail "no free port"
TEMPLATE=$CERTS/lighttpd.conf.in
{
	cat "$top_srcdir/conf/lighttpd.conf.in"
	cat <<EOF
server.modules += ( "mod_openssl" )
\$SERVER["socket"] == "127.0.0.1:$HTTPS_PORT" {
	ssl.engine = "enable"
	ssl.pemfile = "$CERTS/cert.pem"
	ssl.privkey = "$CERTS/key.pem"
}
EOF
} >"$TEMPLATE"
# A new installation (no shop yet): the set-up form is what the pages show.
LC_CONF_TEMPLATE=$TEMPLATE lt_start true
trap 'lt_stop; lt_backend_stop; ap_cleanup; [ -n "${LT_KEEP:-}" ] || rm -rf "$CERTS"' EXIT
HTTP_PORT=$LC_PORT
hreq GET "https://127.0.0.1:$HTTPS_PORT/index.html"
is "$LT_STATUS" 200 "lighttpd: answers https with the throwaway certificate (verified by curl)"
checks lighttpd ""
hreq GET "http://shop.example:$HTTP_PORT/index.html" -H 'Host: shop.example' -H 'X-Forwarded-Proto: https'
is "$LT_STATUS" 308 "lighttpd: X-Forwarded-Proto is not taken from a client (no front server here)"

# --- the browser: the warnings ----------------------------------------------

# tests/browser/https/*.test.mjs (tests/browser/README.md), their steps
# numbered on into this test's own TAP.
BROWSER_POINTS=6
if browser_want_playwright; then
	browser_shots "${HTTPS_SHOT_DIR:-}" https-page-shots
	diag "the pages in Chromium, screenshots in $shots"
	n0=$tap_n
	browser_tests "$top_srcdir/tests/browser/https" HTTP_PORT="$HTTP_PORT" HTTPS_PORT="$HTTPS_PORT" \
	    >"$LT_DIR/browser.tap" 2>&1
	failing=
	while IFS= read -r line; do
		case $line in
		'ok '*' - '*) tap_result 0 "${line#* - }"; failing= ;;
		'not ok '*' - '*) tap_result 1 "${line#* - }"; failing=1 ;;
		'TAP version '* | 1..* | '# Subtest: '*) ;;
		# A point's YAML (its duration; a failure's error and stack):
		# kept as comments under a failing one.
		' '*) [ -z "$failing" ] || printf '#%s\n' "$line" ;;
		'#'*) printf '%s\n' "$line" ;;
		*) printf '# %s\n' "$line" ;;
		esac
	done <"$LT_DIR/browser.tap"
	[ $((tap_n - n0)) -eq "$BROWSER_POINTS" ] ||
	    tap_result 1 "the browser's steps all ran ($((tap_n - n0)) of $BROWSER_POINTS)"
else
	skip "$BROWSER_POINTS" "$browser_why"
fi

# --- lighttpd with Debian's snippet (conf/lighttpd-site.conf.in) ------------

# The snippet below /loyalty of a server of other things, as Debian's
# package enables it, https as docs/https.md says.
lc_server_stop
mkdir -p "$CERTS/root" && echo 'another site' >"$CERTS/root/index.html" || bail "mkdir"
HTTPS_PORT=$(lt_free_port) || bail "no free port"
{
	cat <<EOF
server.modules = ( "mod_access", "mod_alias", "mod_redirect", "mod_setenv",
	"mod_fastcgi", "mod_rewrite", "mod_deflate", "mod_openssl" )
server.bind = "@BIND@"
server.port = @PORT@
server.document-root = "$CERTS/root"
server.errorlog = "@ERRORLOG@"
server.upload-dirs = ( "@RUNDIR@" )
\$SERVER["socket"] == "127.0.0.1:$HTTPS_PORT" {
	ssl.engine = "enable"
	ssl.pemfile = "$CERTS/cert.pem"
	ssl.privkey = "$CERTS/key.pem"
}
EOF
	cat "$top_srcdir/conf/lighttpd-site.conf.in"
} >"$CERTS/site.conf.in"
LC_CONF_TEMPLATE=$CERTS/site.conf.in LC_URL_PREFIX=/loyalty lt_serve
HTTP_PORT=$LC_PORT
checks "lighttpd, Debian's snippet" /loyalty
hreq GET "http://shop.example:$HTTP_PORT/index.html" -H 'Host: shop.example'
is "$LT_STATUS|$(lt_header Location)|$(cat "$CERTS/b")" "200||another site" \
    "lighttpd, Debian's snippet: the server's other site is not redirected"
lt_stop

# --- Apache with mod_ssl and .htaccess --------------------------------------

if ! ap_available || [ ! -e /usr/lib/apache2/modules/mod_ssl.so ]; then
	skip "$APACHE_POINTS" "apache2 with mod_fcgid and mod_ssl is not installed"
	done_testing
	exit
fi
# Two ports of Apache's own: one taken meanwhile (by a test beside this
# one) is tried again with others.
started=
for try in 1 2 3 4 5; do
	HTTPS_PORT=$(lt_free_port) || bail "no free port"
	AP_EXTRA_CONF="LoadModule ssl_module /usr/lib/apache2/modules/mod_ssl.so
Listen 127.0.0.1:$HTTPS_PORT
<VirtualHost 127.0.0.1:$HTTPS_PORT>
	SSLEngine on
	SSLCertificateFile \"$CERTS/cert.pem\"
	SSLCertificateKeyFile \"$CERTS/key.pem\"
</VirtualHost>"
	if ap_start >"$CERTS/ap_start.$try" 2>&1 && [ "$AP_PORT" != "$HTTPS_PORT" ]; then
		started=1
		break
	fi
	ap_stop
	rm -rf "$AP_DIR"
done
if [ -z "$started" ]; then
	cat "$CERTS/ap_start.$try"
	skip "$APACHE_POINTS" "Apache did not start"
	done_testing
	exit
fi
HTTP_PORT=$AP_PORT
hreq GET "https://127.0.0.1:$HTTPS_PORT/shop/index.html"
is "$LT_STATUS" 200 "apache: answers https with the throwaway certificate (verified by curl)"
checks apache /shop
hreq GET "http://shop.example:$HTTP_PORT/shop/index.html" -H 'Host: shop.example' -H 'X-Forwarded-Proto: https'
is "$LT_STATUS|$(lt_header Strict-Transport-Security)" "200|$HSTS" \
    "apache: behind a front server that did the https (X-Forwarded-Proto): no loop, HSTS sent"
ap_stop
done_testing
