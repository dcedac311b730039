#!/usr/bin/env bash
#
# TAP tests of the shared-hosting bundles (tools/bundle): builds them (the
# libraries come from tools/bundle's cache after the first run) into
# top_builddir/bundle/, unpacks them, and checks what a merchant uploads:
# the web root with .htaccess and a responder for each of its rules,
# loyalty-admin outside it, nothing else (no source, no database), every
# program statically linked. The x86_64 programs then run in a root that
# holds nothing but themselves, the database and /tmp (a chroot): the
# admin tool makes the databases, and setup, login, lookup and record
# answer as plain CGI. The aarch64 ones run under qemu-aarch64: the admin
# tool makes a demo database, notfound and login answer. A small program
# on each arch's libcurl, OpenSSL and lib/cafile.c fetches over https from
# openssl s_server on 127.0.0.1: in an empty root with the CA file where
# Debian or CentOS (cPanel) keeps it, or SSL_CERT_FILE, and with none (the
# built-in CA certificates, which refuse the test's CA). With the
# deliverer in the tree, the bundled loyalty-admin runs events deliver.
#
#   top_srcdir=... top_builddir=... tests/bundle.sh

export LC_ALL=C.UTF-8
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$PWD}
. "$top_srcdir/tests/lib.sh"

command -v jq >/dev/null || bail "jq is needed"
NPOINTS=64
if lt_sanitized; then
	skip "$NPOINTS" "a sanitizer build: the bundles are built without sanitizers and tested by the normal suite"
	done_testing
	exit
fi
if ! lc_want_packages build bundle; then
	skip "$NPOINTS" "the bundle's build tools cannot be installed (tools/lib.sh LC_PKGS_BUNDLE)"
	done_testing
	exit
fi

W=$top_builddir/bundle
BCACHE=${LC_BUNDLE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/loyalty-pos/bundle}
T=$(mktemp -d "${TMPDIR:-/tmp}/loyalty-bundle.XXXXXX") || bail "mktemp"
trap 'rm -rf "$T"' EXIT
start=$(date +%s)
# At a low priority: the suite's other tests, some timed, run beside it.
if ! nice -n 10 bash "$top_srcdir/tools/bundle" -o "$W/dist" -w "$W" x86_64 aarch64 >"$T/bundle.out" 2>"$T/bundle.err"; then
	tail -20 "$T/bundle.err" | sed 's/^/# /'
	bail "tools/bundle failed"
fi
diag "tools/bundle took $(($(date +%s) - start)) s"
version=$(sed -n 's/^AC_INIT(\[[^]]*\], *\[\([^]]*\)\].*/\1/p' "$top_srcdir/configure.ac")

# --- what is in a bundle ----------------------------------------------------

# Each bundle's unpacked top folder and its responders' folder, by arch.
TOP_x86_64='' DIR_x86_64='' TOP_aarch64='' DIR_aarch64=''

# check_bundle ARCH ELF-MACHINE: the points about its files (12).
check_bundle() {
	local arch=$1 machine=$2 tgz zip top web dir f bad n rules missing p v rest
	tgz=$W/dist/loyalty-pos-$version-linux-$arch.tar.gz
	ok "$arch: tools/bundle printed $tgz" grep -qxF "$tgz" "$T/bundle.out"
	mkdir -p "$T/$arch"
	tar -C "$T/$arch" -xzf "$tgz" || bail "cannot unpack $tgz"
	top=$T/$arch/loyalty-pos-$version-linux-$arch
	web=$top/loyalty-pos
	is "$(cd "$top" && ls -A | tr '\n' ' ')" "INSTALL VERSIONS admin loyalty-pos " \
	    "$arch: the bundle holds INSTALL, VERSIONS, admin/ and the web root loyalty-pos/"
	# Each library from Debian's patched source, libfcgi with the fix of
	# CVE-2025-23016 (2.4.2-2+deb12u1) and upstream's later one (ours);
	# the CA certificates from Debian's ca-certificates (a native
	# package: no Debian revision), with their licence.
	bad=
	for p in musl sqlite3 json-c libfcgi libscrypt qrencode openssl curl ca-certificates; do
		v=$(sed -n "s/^$p \([^ ]*\).*/\1/p" "$top/VERSIONS")
		case $p/$v in */*-* | ca-certificates/2[0-9]*) ;; *) bad="$bad $p(${v:-missing})" ;; esac
	done
	grep -q '^# .*Mozilla Public License 2\.0' "$top/VERSIONS" || bad="$bad (no CA licence)"
	# ... each from a Debian source in the cache, not upstream's alone.
	# Upstream's tarball alone only for a version tools/bundle-patches
	# records as reviewed (its Debian patches touch nothing built).
	while read -r p v rest; do
		# tzdata is no library: the table lib/tz_rules.c was made from.
		case $p in '#'* | '' | tzdata) continue ;; esac
		if [ "$rest" = upstream-tarball ]; then
			grep -qxF "${v%%+lc*}" "$top_srcdir/tools/bundle-patches/$p/upstream-ok" 2>/dev/null ||
			    bad="$bad $p($v from upstream alone, not allowed)"
		elif [ "$(dpkg-parsechangelog -l "$BCACHE/src/${p}_$v/debian/changelog" -S Version 2>/dev/null)" != "${v%%+lc*}" ]; then
			bad="$bad $p(no Debian source $v in the cache)"
		fi
	done <"$top/VERSIONS"
	v=$(sed -n 's/^libfcgi \([^ ]*\).*/\1/p' "$top/VERSIONS")
	{ dpkg --compare-versions "${v%%+lc*}" ge 2.4.2-2+deb12u1 && case $v in *+lc*) true ;; *) false ;; esac; } ||
	    bad="$bad libfcgi($v: not Debian's CVE-2025-23016 fix and ours)"
	v=$(sed -n 's/^const char lc_tz_rules_version\[\] = "\(.*\)";$/\1/p' "$top_srcdir/lib/tz_rules.c")
	grep -qxF "tzdata $v" "$top/VERSIONS" || bad="$bad tzdata(not ${v:-?} of lib/tz_rules.c)"
	is "$bad" "" "$arch: VERSIONS names a Debian source version of each library, libfcgi's with both fixes, and the tzdata of the zones' rules"
	# The .zip: the same files with the same modes (the programs 755),
	# as unzip unpacks it.
	zip=${tgz%.tar.gz}.zip
	mkdir -p "$T/$arch.zip"
	if grep -qxF "$zip" "$T/bundle.out" && unzip -q "$zip" -d "$T/$arch.zip"; then
		is "$(cd "$T/$arch.zip" && find . -printf '%p %m %s\n' | LC_ALL=C sort | md5sum)" \
		    "$(cd "$T/$arch" && find . -printf '%p %m %s\n' | LC_ALL=C sort | md5sum)" \
		    "$arch: the .zip unpacks to the .tar.gz's files, modes and sizes"
	else
		ok "$arch: tools/bundle made and printed $zip, and unzip unpacks it" false
	fi
	# INSTALL is the whole story: nothing it names is elsewhere.
	bad=$(grep -nE 'README|conf/apache|@[A-Z]+@|\ba x86|\ba aarch' "$top/INSTALL" || true)
	is "$bad" "" "$arch: INSTALL points to no README or file outside the bundle, no placeholder is left"
	ok "$arch: INSTALL names this bundle's version and machine" \
	    grep -q "Loyalty POS $version for web hosting (Linux, $arch)" "$top/INSTALL"
	# Every file of htdocs/, byte for byte.
	bad=$(cd "$top_srcdir/htdocs" && find . -type f | while read -r f; do
		cmp -s "$f" "$web/$f" || echo "$f"
	done)
	is "$bad" "" "$arch: the web root holds every file of htdocs/, .htaccess too"
	# The folder .htaccess rewrites to, with an executable for each rule.
	rules=$(sed -n 's|^RewriteRule [^ ]* \([A-Za-z0-9_-]*/[A-Za-z0-9_]*\.fcgi\) .*|\1|p' \
	    "$web/.htaccess" | sort -u)
	missing=
	for f in $rules; do [ -x "$web/$f" ] || missing="$missing $f"; done
	n=$(printf '%s\n' $rules | wc -l)
	ok "$arch: each of the $n responders .htaccess rewrites to is there, executable${missing:+ (missing:$missing)}" \
	    test -z "$missing" -a "$n" -ge 20
	dir=${rules%%/*}
	# Nothing but the web root's files, the responders and the tool: no
	# source, object, database, setup code or build file.
	bad=$(cd "$top" && find . -type f | grep -E '\.(c|h|o|a|la|so|sql|db|db-wal|db-shm|sqlite3?|setup-code|in|am|ac)$|Makefile|config\.(log|status)' || true)
	is "$bad" "" "$arch: no source, object or database file in the bundle"
	bad=$(cd "$top" && find . -type f ! -path "./loyalty-pos/$dir/*" ! -path ./admin/loyalty-admin \
	    -exec sh -c 'head -c 4 "$1" | grep -q "^.ELF" && echo "$1"' _ {} \;)
	is "$bad" "" "$arch: no program outside $dir/ and admin/ (the admin tool is not in the web root)"
	bad=
	for f in "$web/$dir"/*.fcgi "$top/admin/loyalty-admin"; do
		file -b "$f" | grep -q "$machine.*statically linked" || bad="$bad ${f##*/}: $(file -b "$f")"
	done
	is "$bad" "" "$arch: file(1) says each program is $machine, statically linked"
	bad=
	for f in "$web/$dir"/*.fcgi "$top/admin/loyalty-admin"; do
		readelf -lW "$f" 2>/dev/null | grep -qE 'INTERP|DYNAMIC' && bad="$bad ${f##*/}"
	done
	is "$bad" "" "$arch: no program asks for a dynamic loader or libraries (readelf: no INTERP, no DYNAMIC)"
	diag "$arch: $(du -b "$tgz" | cut -f1) bytes the tarball; a responder $(du -b "$web/$dir/login.fcgi" | cut -f1), loyalty-admin $(du -b "$top/admin/loyalty-admin" | cut -f1)"
	printf -v "TOP_$arch" '%s' "$top"
	printf -v "DIR_$arch" '%s' "$dir"
}
check_bundle x86_64 x86-64
check_bundle aarch64 'ARM aarch64'

# --- x86_64 in an empty root ------------------------------------------------

# A root of its own for each database: the responders used, the tool, the
# database's folder and /tmp, and nothing else (no /dev, /etc, /lib).
# chroot as root; else inside a user namespace of our own (unshare -r).
RUN=()
if [ "$(id -u)" -eq 0 ]; then
	RUN=("$(command -v chroot)")
elif unshare -r true 2>/dev/null; then
	RUN=("$(command -v unshare)" -r "$(command -v chroot)")
fi
TOKEN=

# cgi ROOTDIR|qemu:BINDIR NAME METHOD URI [BODY]: runs responder NAME as
# plain CGI (in the root, or under qemu-aarch64); sets C_STATUS, C_BODY.
cgi() {
	local where=$1 name=$2 method=$3 uri=$4 body=${5-} out cmd env
	env=(GATEWAY_INTERFACE=CGI/1.1 SERVER_PROTOCOL=HTTP/1.1 SERVER_NAME=localhost
	    SERVER_PORT=80 REMOTE_ADDR=127.0.0.1 REQUEST_METHOD="$method"
	    REQUEST_URI="$uri" QUERY_STRING=)
	case $uri in *\?*) env+=(QUERY_STRING="${uri#*\?}") ;; esac
	[ -n "$TOKEN" ] && env+=("HTTP_AUTHORIZATION=Bearer $TOKEN")
	[ -n "$body" ] && env+=(CONTENT_TYPE=application/json CONTENT_LENGTH=${#body})
	case $where in
	qemu:*)	env+=(LOYALTY_DB="$QDB")
		cmd=("$(command -v qemu-aarch64)" "${where#qemu:}/$name.fcgi") ;;
	site:*)	# as uploaded: loyalty.conf beside the responder names the
		# database; without /proc the responder finds its folder
		# from SCRIPT_FILENAME, as Apache sets it.
		env+=(SCRIPT_FILENAME="/site/$DIR_x86_64/$name.fcgi")
		cmd=("${RUN[@]}" "${where#site:}" "/site/$DIR_x86_64/$name.fcgi") ;;
	*)	env+=(LOYALTY_DB=/data/loyalty.db)
		cmd=("${RUN[@]}" "$where" "/$DIR_x86_64/$name.fcgi") ;;
	esac
	out=$(printf '%s' "$body" | env -i "${env[@]}" "${cmd[@]}" 2>"$T/cgi.err")
	C_STATUS=$(printf '%s' "$out" | sed -n '1s/^Status: \([0-9]*\).*/\1/p')
	C_BODY=${out#*$'\r\n\r\n'}
}

# mkroot DIR: the empty root with the programs.
mkroot() {
	mkdir -p "$1/$DIR_x86_64" "$1/data" "$1/tmp" &&
	    chmod 1777 "$1/tmp" &&
	    cp "$TOP_x86_64/loyalty-pos/$DIR_x86_64"/{setup,login,lookup,record,notfound}.fcgi "$1/$DIR_x86_64/" &&
	    cp "$TOP_x86_64/admin/loyalty-admin" "$1/"
}

if [ ${#RUN[@]} -eq 0 ]; then
	skip 16 "neither chroot (root) nor unshare -r can make an empty root here"
else
	R1=$T/root1
	mkroot "$R1" || bail "cannot make $R1"
	ok "x86_64: loyalty-admin init makes a database in the empty root" \
	    "${RUN[@]}" "$R1" /loyalty-admin --db /data/loyalty.db init
	is "$(cd "$R1" && find . -type f | LC_ALL=C sort | tr '\n' ' ')" \
	    "./$DIR_x86_64/login.fcgi ./$DIR_x86_64/lookup.fcgi ./$DIR_x86_64/notfound.fcgi ./$DIR_x86_64/record.fcgi ./$DIR_x86_64/setup.fcgi ./data/loyalty.db ./loyalty-admin " \
	    "x86_64: the root holds the programs and the database alone"
	cgi "$R1" notfound GET /api/v1/nothing
	is "$C_STATUS $(jq -r .error.code <<<"$C_BODY" 2>/dev/null)" "404 NOT_FOUND" \
	    "x86_64: notfound answers 404 NOT_FOUND in JSON"
	cgi "$R1" setup GET /api/v1/setup
	is "$C_STATUS $(jq -c '[.data.setup_needed, .data.code_file]' <<<"$C_BODY" 2>/dev/null)" \
	    '200 [true,"loyalty.db.setup-code"]' "x86_64: setup asks for the code and writes its file"
	code=$(cat "$R1/data/loyalty.db.setup-code" 2>/dev/null) || code=
	cgi "$R1" setup POST /api/v1/setup \
	    "{\"setup_code\":\"$code\",\"merchant_name\":\"Corner Cafe\",\"location_name\":\"High Street\",\"owner_name\":\"Olive\",\"owner_email\":\"olive@cafe.example\",\"owner_password\":\"a long password\"}"
	is "$C_STATUS $(jq -r .data.location.name <<<"$C_BODY" 2>/dev/null)" "200 High Street" \
	    "x86_64: setup with the code makes the shop"
	ok "x86_64: the code file is gone after setup" test ! -e "$R1/data/loyalty.db.setup-code"
	cgi "$R1" login POST /api/v1/auth/login '{"email":"olive@cafe.example","password":"a long password"}'
	is "$C_STATUS $(jq -r .user.user_type <<<"$C_BODY" 2>/dev/null)" "200 owner" \
	    "x86_64: the new owner logs in (scrypt, tokens from getrandom)"

	# A demo shop for the till's calls.
	R2=$T/root2
	mkroot "$R2" || bail "cannot make $R2"
	ok "x86_64: loyalty-admin demo fills a database in the empty root" \
	    sh -c '"$@" >"'"$T/demo.txt"'"' _ "${RUN[@]}" "$R2" /loyalty-admin --db /data/loyalty.db demo
	lt_parse_demo "$T/demo.txt"
	cgi "$R2" login POST /api/v1/auth/login \
	    "{\"email\":\"$DEMO_STAFF_EMAIL\",\"password\":\"$DEMO_STAFF_PASSWORD\"}"
	is "$C_STATUS $(jq -r .user.user_type <<<"$C_BODY" 2>/dev/null)" "200 system_user" \
	    "x86_64: the demo's cashier logs in"
	TOKEN=$(jq -r .access_token <<<"$C_BODY" 2>/dev/null)
	staff=$(jq -r .user.id <<<"$C_BODY" 2>/dev/null)
	cgi "$R2" lookup POST /api/v1/cards/lookup "{\"barcode_value\":\"$DEMO_PUNCH_BARCODE\"}"
	is "$C_STATUS $(jq -c '[.data.card_instance_id, .data.card_type]' <<<"$C_BODY" 2>/dev/null)" \
	    "200 [\"$DEMO_PUNCH_CARD\",\"punch\"]" "x86_64: lookup finds the punch card by its barcode"
	before=$(jq -r '.data.current_punches // 0' <<<"$C_BODY" 2>/dev/null) || before=0
	cgi "$R2" record POST /api/v1/transactions/record \
	    "{\"card_instance_id\":\"$DEMO_PUNCH_CARD\",\"location_id\":\"$DEMO_LOCATION_ID\",\"staff_user_id\":\"$staff\",\"purchase_amount\":4.50}"
	is "$C_STATUS $(jq -r .success <<<"$C_BODY" 2>/dev/null)" "200 true" \
	    "x86_64: record takes a purchase on it"
	cgi "$R2" lookup POST /api/v1/cards/lookup "{\"qr_code_data\":\"$DEMO_PUNCH_QR\"}"
	is "$C_STATUS $(jq -r .data.current_punches <<<"$C_BODY" 2>/dev/null)" "200 $((before + 1))" \
	    "x86_64: lookup by QR code shows the punch"
	cgi "$R2" record POST /api/v1/transactions/record \
	    "{\"card_instance_id\":\"$DEMO_PUNCH_CARD\",\"location_id\":\"$DEMO_LOCATION_ID\",\"staff_user_id\":\"$staff\",\"purchase_amount\":4.50}"
	is "$C_STATUS $(jq -r .error.code <<<"$C_BODY" 2>/dev/null)" "429 COOLDOWN_ACTIVE" \
	    "x86_64: a second purchase within the cooldown is refused (the clock works)"
	TOKEN=
	ok "x86_64: the responders wrote nothing outside data/ and tmp/" \
	    test "$(cd "$R2" && find . -type f ! -path './data/*' ! -path './tmp/*' | wc -l)" -eq 6

	# The web root as uploaded, with no LOYALTY_DB: the database goes
	# where loyalty.conf says, data/ of the site.
	R3=$T/root3
	if [ -f "$TOP_x86_64/loyalty-pos/$DIR_x86_64/loyalty.conf" ]; then
		mkdir -p "$R3/tmp" && cp -a "$TOP_x86_64/loyalty-pos" "$R3/site" ||
		    bail "cannot make $R3"
		cgi "site:$R3" setup GET /api/v1/setup
		is "$C_STATUS $(jq -c .data.setup_needed <<<"$C_BODY" 2>/dev/null)" "200 true" \
		    "x86_64: the site as uploaded answers setup (loyalty.conf names the database)"
		ok "x86_64: its database and setup code are in the site's data/" \
		    test -s "$R3/site/data/loyalty.db" -a -s "$R3/site/data/loyalty.db.setup-code"
	else
		skip 2 "the bundle has no $DIR_x86_64/loyalty.conf"
	fi
fi

# --- a shop's time zone with no zoneinfo ---------------------------------------

# The empty root has no /usr/share/zoneinfo, as some web hosts: the shop's
# days follow Europe/Berlin by the rule built into the programs
# (lib/tz_rules.c). 29 March 2026 has 23 hours there, 23:00Z on the 28th
# to 22:00Z on the 29th: purchases at 22:50Z (28th, 23:50 CET), 23:05Z
# (29th, 00:05 CET), 01:05Z (29th, 03:05 CEST) and 22:05Z on the 29th
# (30th, 00:05 CEST), which UTC or a fixed +01:00 would count otherwise.
if [ ${#RUN[@]} -eq 0 ]; then
	skip 4 "neither chroot (root) nor unshare -r can make an empty root here"
else
	R4=$T/root4
	mkroot "$R4" && cp "$TOP_x86_64/loyalty-pos/$DIR_x86_64"/{sync,admin_reports}.fcgi "$R4/$DIR_x86_64/" ||
	    bail "cannot make $R4"
	"${RUN[@]}" "$R4" /loyalty-admin --db /data/loyalty.db demo >"$T/demo-tz.txt" ||
	    bail "loyalty-admin demo failed in $R4"
	lt_parse_demo "$T/demo-tz.txt"
	# Sync takes purchases of up to sync_max_age_days back: March 2026's too.
	ok "x86_64: a demo shop in an empty root (no zoneinfo) set to Europe/Berlin" \
	    sh -c '"$@" setting set time_zone Europe/Berlin && "$@" setting set sync_max_age_days 3650' \
	    _ "${RUN[@]}" "$R4" /loyalty-admin --db /data/loyalty.db
	cgi "$R4" login POST /api/v1/auth/login \
	    "{\"email\":\"$DEMO_OWNER_EMAIL\",\"password\":\"$DEMO_OWNER_PASSWORD\"}"
	TOKEN=$(jq -r .access_token <<<"$C_BODY" 2>/dev/null)
	owner=$(jq -r .user.id <<<"$C_BODY" 2>/dev/null)
	items=
	for at in 2026-03-28T22:50:00Z 2026-03-28T23:05:00Z 2026-03-29T01:05:00Z 2026-03-29T22:05:00Z; do
		items="$items${items:+,}{\"qr_code_data\":\"$DEMO_CASHBACK_QR\",\"location_id\":\"$DEMO_LOCATION_ID\",\"staff_user_id\":\"$owner\",\"purchase_amount\":1.00,\"client_timestamp\":\"$at\",\"idempotency_key\":\"tz-$at\"}"
	done
	cgi "$R4" sync POST /api/v1/transactions/sync "{\"transactions\":[$items]}"
	is "$C_STATUS $(jq -c .data.success_count <<<"$C_BODY" 2>/dev/null)" "200 4" \
	    "x86_64: sync takes four purchases around Berlin's spring change"
	cgi "$R4" admin_reports GET "/api/v1/admin/reports/summary?from=2026-03-27&to=2026-03-31"
	is "$C_STATUS $(jq -c '.data.rows | map([.key, .purchases])' <<<"$C_BODY" 2>/dev/null)" \
	    '200 [["2026-03-28",1],["2026-03-29",2],["2026-03-30",1]]' \
	    "x86_64: with no zoneinfo the report's days are Berlin's (29 March: 23 hours)"
	cgi "$R4" admin_reports GET "/api/v1/admin/reports/transactions?from=2026-03-29&to=2026-03-29&format=csv&header=names"
	is "$C_STATUS $(grep -c -e '^.\?Date,Time (Europe/Berlin),' -e '^2026-03-29,03:05:00,' <<<"$C_BODY")" "200 2" \
	    "x86_64: ... and its CSV's times, 03:05 CEST, under the header Time (Europe/Berlin)"
	TOKEN=
fi

# --- aarch64 under qemu -----------------------------------------------------

if ! command -v qemu-aarch64 >/dev/null; then
	skip 4 "no qemu-aarch64 (Debian's qemu-user)"
else
	QB=$TOP_aarch64/loyalty-pos/$DIR_aarch64
	QDB=$T/aarch64.db
	ok "aarch64: loyalty-admin demo under qemu-aarch64 makes a database" \
	    sh -c '"$@" >"'"$T/demo-a.txt"'"' _ qemu-aarch64 "$TOP_aarch64/admin/loyalty-admin" --db "$QDB" demo
	lt_parse_demo "$T/demo-a.txt"
	cgi "qemu:$QB" notfound GET /api/v1/nothing
	is "$C_STATUS $(jq -r .error.code <<<"$C_BODY" 2>/dev/null)" "404 NOT_FOUND" \
	    "aarch64: notfound answers 404 NOT_FOUND under qemu-aarch64"
	cgi "qemu:$QB" login POST /api/v1/auth/login \
	    "{\"email\":\"$DEMO_OWNER_EMAIL\",\"password\":\"$DEMO_OWNER_PASSWORD\"}"
	is "$C_STATUS $(jq -r .user.user_type <<<"$C_BODY" 2>/dev/null)" "200 owner" \
	    "aarch64: the demo's owner logs in under qemu-aarch64"
	cgi "qemu:$QB" login POST /api/v1/auth/login \
	    "{\"email\":\"$DEMO_OWNER_EMAIL\",\"password\":\"not the password\"}"
	is "$C_STATUS $(jq -r .error.code <<<"$C_BODY" 2>/dev/null)" "401 INVALID_CREDENTIALS" \
	    "aarch64: a wrong password is refused"
fi

# --- https with the bundle's libcurl and OpenSSL ----------------------------

# A small program built with each arch's libraries as tools/bundle built
# them (the prefix its service build used) and lib/cafile.c as the
# bundle compiles it (the built-in CA certificates): curl's own account
# of what it was built with, and a GET over https to openssl s_server on
# 127.0.0.1 with a certificate of the test's own CA. In an empty root,
# the CA certificates are taken from where a Debian or a CentOS host
# keeps them, from SSL_CERT_FILE, or else the built-in ones (which do not
# know the test's CA: verification fails, as it must); the name is
# looked up in the root's /etc/hosts by musl, in curl's resolver thread.
cat >"$T/probe.c" <<'PROBE'
#include <stdio.h>
#include <string.h>
#include <curl/curl.h>
#include "lc_cafile.h"

static size_t
sink(char *p, size_t size, size_t n, void *arg)
{
	(void)p;
	*(size_t *)arg += size * n;
	return size * n;
}

int
main(int argc, char **argv)
{
	curl_version_info_data *v;
	const char *const *p;
	char err[CURL_ERROR_SIZE] = "";
	size_t got = 0;
	long code = 0;
	CURLcode rc;
	CURL *c;

	if (argc == 2 && strcmp(argv[1], "--version") == 0) {
		v = curl_version_info(CURLVERSION_NOW);
		printf("%s\nprotocols:", curl_version());
		for (p = v->protocols; *p != NULL; p++)
			printf(" %s", *p);
		printf("\nthreaded resolver: %s\n",
		    (v->features & CURL_VERSION_ASYNCHDNS) ? "yes" : "no");
		return 0;
	}
	if (argc != 2 || curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK ||
	    (c = curl_easy_init()) == NULL)
		return 2;
	if (lc_ca_curl(c) != 0) {
		puts("lc_ca_curl failed");
		return 3;
	}
	if (curl_easy_setopt(c, CURLOPT_URL, argv[1]) != CURLE_OK ||
	    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, err) != CURLE_OK ||
	    curl_easy_setopt(c, CURLOPT_TIMEOUT, 20L) != CURLE_OK ||
	    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L) != CURLE_OK ||
	    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, sink) != CURLE_OK ||
	    curl_easy_setopt(c, CURLOPT_WRITEDATA, &got) != CURLE_OK)
		return 2;
	rc = curl_easy_perform(c);
	if (curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code) != CURLE_OK)
		code = 0;
	printf("ca %s\nresult %d %ld %s\n", lc_ca_file() ? lc_ca_file() : "built-in",
	    (int)rc, got > 0 ? code : 0L, err);
	curl_easy_cleanup(c);
	return 0;
}
PROBE
# probe ARCH: builds T/probe-ARCH; 0 when built.
probe() {
	local prefix
	prefix=$(cut -d' ' -f1 "$W/$1/.bundle-args" 2>/dev/null)
	[ -x "$prefix/bin/musl-gcc" ] &&
	    "$prefix/bin/musl-gcc" -Os -static -no-pie -Wall -Wextra -DLC_CA_BUNDLED \
	    -I"$prefix/include" -I"$top_srcdir/lib" "$T/probe.c" "$top_srcdir/lib/cafile.c" \
	    -L"$prefix/lib" -lcurl -lssl -lcrypto -o "$T/probe-$1" 2>"$T/probe-$1.err"
}
# The test's CA, and the server's certificate from it for lc-probe.test
# and 127.0.0.1.
CERTS=$T/certs
mkdir -p "$CERTS"
if ! (cd "$CERTS" &&
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
    -subj "/CN=Loyalty POS test CA" -keyout ca.key -out ca.pem &&
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
    -subj /CN=lc-probe.test -keyout srv.key -out srv.csr &&
    printf 'subjectAltName=DNS:lc-probe.test,IP:127.0.0.1\n' >srv.ext &&
    openssl x509 -req -in srv.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 \
    -extfile srv.ext -out srv.pem) >"$CERTS/log" 2>&1; then
	sed 's/^/# /' "$CERTS/log"
	bail "openssl could not make the test's certificates"
fi
SPORT=$(lt_free_port) || bail "no free port"
openssl s_server -quiet -www -accept "127.0.0.1:$SPORT" -cert "$CERTS/srv.pem" \
    -key "$CERTS/srv.key" >"$T/s_server.log" 2>&1 </dev/null &
SPID=$!
trap 'kill "$SPID" 2>/dev/null; rm -rf "$T"' EXIT
for i in $(seq 1 100); do
	(exec 3<>"/dev/tcp/127.0.0.1/$SPORT") 2>/dev/null && break
	sleep 0.1
done
ok "openssl s_server listens on 127.0.0.1:$SPORT" bash -c '(exec 3<>"/dev/tcp/127.0.0.1/$1")' _ "$SPORT"

if ! probe x86_64; then
	sed 's/^/# /' "$T/probe-x86_64.err" | head -20
	ok "x86_64: a program links the bundle's libcurl, OpenSSL and lib/cafile.c" false
	skip 6 "no x86_64 probe"
else
	ok "x86_64: a program links the bundle's libcurl, OpenSSL and lib/cafile.c" true
	v=$("$T/probe-x86_64" --version)
	diag "x86_64: $(printf '%s' "$v" | tr '\n' ';')"
	bad=
	[[ $v == *"OpenSSL/3."* ]] || bad="$bad no-OpenSSL"
	[[ $v == *$'\nprotocols: http https\n'* ]] || bad="$bad protocols"
	[[ $v == *"threaded resolver: yes"* ]] || bad="$bad resolver"
	for p in zlib libidn2 nghttp2 brotli zstd libpsl libssh; do
		[[ $v == *"$p/"* ]] && bad="$bad $p"
	done
	is "$bad" "" "x86_64: curl on OpenSSL 3, HTTP and HTTPS alone, the threaded resolver, no other library"
	if [ ${#RUN[@]} -eq 0 ]; then
		skip 5 "neither chroot (root) nor unshare -r can make an empty root here"
	else
		R4=$T/root4
		mkdir -p "$R4/etc" "$R4/own" && cp "$T/probe-x86_64" "$R4/probe" &&
		    printf '127.0.0.1 lc-probe.test\n' >"$R4/etc/hosts" || bail "cannot make $R4"
		URL=https://lc-probe.test:$SPORT/
		# in_root [VAR=VALUE...]: the probe in the root, its "result" line.
		in_root() {
			env -i "$@" "${RUN[@]}" "$R4" /probe "$URL" 2>&1 | sed -n 's/^result //p'
		}
		is "$(in_root | cut -d' ' -f1,2)" "60 0" \
		    "x86_64: a host without CA certificates: the built-in ones, which refuse the test's CA (60: peer verification failed)"
		mkdir -p "$R4/etc/ssl/certs" && cp "$CERTS/ca.pem" "$R4/etc/ssl/certs/ca-certificates.crt"
		is "$(in_root | cut -d' ' -f1,2)" "0 200" \
		    "x86_64: a Debian host's /etc/ssl/certs/ca-certificates.crt: the handshake and GET succeed (the name from /etc/hosts)"
		rm -rf "$R4/etc/ssl"
		mkdir -p "$R4/etc/pki/tls/certs" && cp "$CERTS/ca.pem" "$R4/etc/pki/tls/certs/ca-bundle.crt"
		is "$(in_root | cut -d' ' -f1,2)" "0 200" \
		    "x86_64: a CentOS/AlmaLinux/CloudLinux (cPanel) host's /etc/pki/tls/certs/ca-bundle.crt: the GET succeeds"
		rm -rf "$R4/etc/pki"
		cp "$CERTS/ca.pem" "$R4/own/ca.pem"
		is "$(in_root SSL_CERT_FILE=/own/ca.pem | cut -d' ' -f1,2)" "0 200" \
		    "x86_64: SSL_CERT_FILE names the CA file: the GET succeeds"
		is "$(in_root SSL_CERT_FILE=/own/none.pem | cut -d' ' -f1)" 77 \
		    "x86_64: an SSL_CERT_FILE that is not there fails (77), never falls back in silence"
	fi
fi
if ! command -v qemu-aarch64 >/dev/null; then
	skip 2 "no qemu-aarch64 (Debian's qemu-user)"
elif ! probe aarch64; then
	sed 's/^/# /' "$T/probe-aarch64.err" | head -20
	ok "aarch64: a program links the bundle's libcurl, OpenSSL and lib/cafile.c" false
	skip 1 "no aarch64 probe"
else
	ok "aarch64: a program links the bundle's libcurl, OpenSSL and lib/cafile.c" true
	is "$(env -i SSL_CERT_FILE="$CERTS/ca.pem" qemu-aarch64 "$T/probe-aarch64" \
	    "https://127.0.0.1:$SPORT/" 2>&1 | sed -n 's/^result //p' | cut -d' ' -f1,2)" "0 200" \
	    "aarch64: under qemu-aarch64, the handshake and GET succeed (SSL_CERT_FILE, 127.0.0.1)"
fi
kill "$SPID" 2>/dev/null
# The programs themselves: loyalty-admin delivers the webhooks, and so
# carries curl and OpenSSL (both arches).
bad=
for a in x86_64 aarch64; do
	eval "f=\$TOP_$a/admin/loyalty-admin"
	# curl's OpenSSL side and OpenSSL's TLS client (its source file
	# names, which its errors carry).
	{ grep -qa 'SSL certificate problem' "$f" && grep -qa 'statem_clnt\.c' "$f"; } ||
	    bad="$bad $a"
done
if "$TOP_x86_64/admin/loyalty-admin" help 2>&1 | grep -q 'events deliver'; then
	is "$bad" "" "the bundled loyalty-admin of each arch carries curl and OpenSSL (the deliverer)"
	if [ ${#RUN[@]} -eq 0 ]; then
		skip 1 "neither chroot (root) nor unshare -r can make an empty root here"
	else
		ok "x86_64: loyalty-admin events deliver runs in the empty root, on the demo's database" \
		    sh -c '"$@" >/dev/null' _ env -i "${RUN[@]}" "$R2" /loyalty-admin --db /data/loyalty.db \
		    events deliver --max-seconds 5
	fi
else
	skip 2 "this tree's loyalty-admin has no 'events deliver' yet"
fi

# --- never a library without Debian's patches -------------------------------

# apt-get that fetches no source package (a mirror missing a Debian part),
# on a cache of its own that has the apt lists but no source unpacked:
# tools/bundle must stop, and say why, rather than build upstream's
# tarball without Debian's fixes.
mkdir -p "$T/shim" "$T/nosrc"
cat >"$T/shim/apt-get" <<'SHIM'
#!/bin/sh
for a in "$@"; do [ "$a" = source ] && { echo "E: (test) no source package" >&2; exit 100; }; done
exec /usr/bin/apt-get "$@"
SHIM
chmod 755 "$T/shim/apt-get"
cp -a "$BCACHE/apt" "$T/nosrc/" 2>/dev/null
PATH=$T/shim:$PATH LC_BUNDLE_CACHE=$T/nosrc nice -n 10 bash "$top_srcdir/tools/bundle" \
    -o "$T/nosrc-dist" -w "$T/nosrc-work" x86_64 >"$T/nosrc.out" 2>"$T/nosrc.err"
rc=$?
ok "tools/bundle stops when a Debian source package cannot be fetched (exit $rc)" \
    test "$rc" -ne 0 -a ! -s "$T/nosrc.out"
ok "... and says it builds only from Debian's patched sources" \
    grep -q "only from Debian's source packages with their patches" "$T/nosrc.err" ||
    tail -5 "$T/nosrc.err" | sed 's/^/# /'
ok "... having built nothing from an upstream tarball" \
    test -z "$(find "$T/nosrc/src" -mindepth 1 -maxdepth 1 -type d 2>/dev/null)"

# --- the bundle's site on Apache as shared hosts run it ---------------------

# tests/hosting.sh's whole flow (mod_fcgid, plain CGI, suEXEC, site root
# and subfolder) with the static x86_64 responders, as a merchant uploads
# them. Its own points are in this test's log; here they count as one.
tgz=$W/dist/loyalty-pos-$version-linux-x86_64.tar.gz
LC_HOSTING_BUNDLE=$tgz bash "$top_srcdir/tests/hosting.sh" >"$T/hosting.tap" 2>&1
sed 's/^/# hosting: /' "$T/hosting.tap"
plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' "$T/hosting.tap")
is "$(grep -c '^not ok' "$T/hosting.tap")|$(grep -c '^ok ' "$T/hosting.tap")" "0|${plan:-no plan}" \
    "the x86_64 bundle's site passes tests/hosting.sh on Apache (every point of its plan)"

done_testing
