#!/usr/bin/env bash
# The Debian package on this machine, through the system's lighttpd. TAP.
#
# Installs LC_DEB_FILE (a loyalty-pos_*.deb; tools/check --deb builds it),
# checks the service it gives (lighttpd serves the till and the back office
# at /loyalty/, first-run setup makes the owner, who sets a till up; a
# login and a purchase work; the responders run as www-data; the folders'
# and the database's owners and modes; loyalty-admin finds the database
# without --db as root; a reinstall migrates in place and keeps the shop),
# then removes the package (the database stays, the service is gone) and
# purges it (nothing stays), and checks lintian's verdict on the file.
#
# It changes the machine: it needs root, apt-get and port 80 of 127.0.0.1
# (LC_DEB_PORT), takes the first-run setup of an installed service and
# purges its database. So it runs only when LC_TEST_DEB=1 says so (CI:
# .ci/run) and is skipped otherwise, even where the package is installed.
. "${top_srcdir:=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}/tests/lib.sh"

if [ "${LC_TEST_DEB:-0}" != 1 ]; then
	echo "1..0 # SKIP installs, sets up, removes and purges the package: set LC_TEST_DEB=1 (and LC_DEB_FILE) to run it"
	exit 0
fi
[ "$(id -u)" -eq 0 ] || bail "LC_TEST_DEB=1 needs root"
DEB=${LC_DEB_FILE:-}
[ -z "$DEB" ] || [ -f "$DEB" ] || bail "LC_DEB_FILE=$DEB: no such file"
PORT=${LC_DEB_PORT:-80}
BASE=/loyalty
VARDIR=/var/lib/loyalty-pos
DB=$VARDIR/loyalty.db
RUNDIR=/run/loyalty-pos
CGIDIR=/usr/libexec/loyalty-pos/cgi-bin
SNIPPET=/etc/lighttpd/conf-available/50-loyalty-pos.conf
ENABLED=/etc/lighttpd/conf-enabled/50-loyalty-pos.conf
export DEBIAN_FRONTEND=noninteractive

LT_DIR=$(mktemp -d "${TMPDIR:-/tmp}/deb-test.XXXXXX") || bail "mktemp"
LT_URL=http://127.0.0.1:$PORT$BASE
started_lighttpd=0
cleanup() {
	if [ "$started_lighttpd" = 1 ]; then
		invoke-rc.d lighttpd stop >/dev/null 2>&1
		/etc/init.d/lighttpd stop >/dev/null 2>&1
	fi
	if [ -n "$LT_KEEP" ] || [ "$tap_failed" -gt 0 ]; then
		diag "kept $LT_DIR"
	else
		rm -rf "$LT_DIR"
	fi
}
trap cleanup EXIT

# "OWNER:GROUP MODE" of a path, "-" when it does not exist.
owner_mode() { stat -c '%U:%G %a' "$1" 2>/dev/null || echo -; }

# Whether lighttpd answers on the port at all.
answering() { curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$PORT/"; }

# The users the running responders of the package run as, one a line.
responder_users() {
	ps -eo user:32=,args= | awk -v d="$CGIDIR/" 'index($2, d) == 1 { print $1 }' | sort -u
}

# Starts the system's lighttpd when it does not answer (a machine without
# systemd, or a policy that keeps services from starting at install).
ensure_lighttpd() {
	local i
	answering && return 0
	started_lighttpd=1
	invoke-rc.d lighttpd start >"$LT_DIR/start.log" 2>&1
	sleep 0.5
	# invoke-rc.d says 0 when a policy forbids the start.
	answering || /etc/init.d/lighttpd start >>"$LT_DIR/start.log" 2>&1
	for i in $(seq 1 50); do
		answering && return 0
		sleep 0.2
	done
	return 1
}

# The maintainer scripts reload lighttpd through invoke-rc.d; where a
# policy forbids it (a container's policy-rc.d), does what an admin would.
reload_if_forbidden() {
	if [ "$started_lighttpd" = 1 ] && [ -x /usr/sbin/policy-rc.d ] &&
	    ! /usr/sbin/policy-rc.d lighttpd force-reload >/dev/null 2>&1; then
		diag "policy-rc.d forbids invoke-rc.d: reloading lighttpd by hand"
		/etc/init.d/lighttpd force-reload >>"$LT_DIR/start.log" 2>&1
	fi
	return 0
}

# Waits until the URL answers STATUS (lighttpd reloading), up to 10 s.
wait_status() {
	local i
	for i in $(seq 1 50); do
		lt_req GET "$1"
		[ "$LT_STATUS" = "$2" ] && return 0
		sleep 0.2
	done
	return 1
}

# --- the file --------------------------------------------------------------

if [ -n "$DEB" ] && command -v lintian >/dev/null; then
	# lintian refuses to judge as root without this, and says so.
	out=$(lintian --fail-on error,warning --pedantic -I "$DEB" 2>&1)
	rc=$?
	is "$rc" 0 "lintian: no error or warning on $(basename "$DEB")" ||
	    printf '%s\n' "$out" | while IFS= read -r l; do diag "$l"; done
	diag "the package is $(stat -c %s "$DEB") bytes"
else
	skip 1 "lintian not installed or no LC_DEB_FILE"
fi

# --- install ---------------------------------------------------------------

if [ -n "$DEB" ]; then
	# From scratch: no leftover of an earlier run.
	apt-get purge -y -q loyalty-pos >/dev/null 2>&1 || true
	apt-get install -y -q "$(realpath "$DEB")" >"$LT_DIR/install.log" 2>&1
	rc=$?
	is "$rc" 0 "apt-get install ./$(basename "$DEB")" ||
	    tail -20 "$LT_DIR/install.log" | while IFS= read -r l; do diag "$l"; done
else
	skip 1 "no LC_DEB_FILE: testing the installed package"
fi
dpkg-query -W -f='${Status}\n' loyalty-pos 2>/dev/null | grep -q 'install ok installed' ||
    bail "loyalty-pos is not installed"

is "$(owner_mode "$VARDIR")" "www-data:www-data 750" "$VARDIR: www-data's, mode 0750"
is "$(owner_mode "$DB")" "www-data:www-data 640" "the database, made by postinst: www-data's, mode 0640"
is "$(owner_mode "$RUNDIR")" "www-data:www-data 700" "$RUNDIR (the sockets): www-data's, mode 0700"
is "$(readlink "$ENABLED")" "../conf-available/50-loyalty-pos.conf" "the lighttpd snippet is enabled"
ok "lighttpd's configuration is valid" lighttpd -tt -f /etc/lighttpd/lighttpd.conf
ok "the system's lighttpd answers on 127.0.0.1:$PORT" ensure_lighttpd ||
    bail "lighttpd does not answer: $(tail -5 "$LT_DIR/start.log" /var/log/lighttpd/error.log 2>/dev/null)"

# --- the webhooks' deliverer: a systemd timer each minute -------------------

unitdir=
for d in /lib/systemd/system /usr/lib/systemd/system; do
	[ -f "$d/loyalty-pos-deliver.timer" ] && unitdir=$d && break
done
ok "the deliverer's timer and service are installed" \
    test -n "$unitdir" -a -f "$unitdir/loyalty-pos-deliver.service"
is "$(sed -n 's/^ExecStart=//p' "$unitdir/loyalty-pos-deliver.service" 2>/dev/null) $(sed -n 's/^User=//p' "$unitdir/loyalty-pos-deliver.service" 2>/dev/null)" \
    "/usr/sbin/loyalty-admin events deliver --max-seconds 50 www-data" \
    "... it runs loyalty-admin events deliver as www-data"
is "$(sed -n 's/^OnCalendar=//p' "$unitdir/loyalty-pos-deliver.timer" 2>/dev/null)" minutely "... each minute"
if command -v systemd-analyze >/dev/null 2>&1 && [ -n "$unitdir" ]; then
	out=$(SYSTEMD_LOG_LEVEL=warning systemd-analyze verify --man=no \
	    "$unitdir/loyalty-pos-deliver.timer" \
	    "$unitdir/loyalty-pos-deliver.service" 2>&1)
	is "$out" "" "systemd-analyze verify finds nothing wrong with them"
else
	skip 1 "no systemd-analyze"
fi
# What the timer runs, run once by hand (systemd is not started here):
# www-data can, on the installed database.
out=$(runuser -u www-data -- env -u LOYALTY_DB /usr/sbin/loyalty-admin events deliver --max-seconds 5 2>&1)
is "$? $out" "0 0" "the deliverer runs as www-data on the installed database (nothing due)"

# --- the pages -------------------------------------------------------------

wait_status /api/v1/setup 200
lt_req GET /
is "$LT_STATUS $(lt_header Content-Type)" "200 text/html; charset=utf-8" "the till: GET $BASE/ is a page"
like "$LT_BODY" 'src="till/main\.js"' "... the till's page"
lt_req GET /owner.html
is "$LT_STATUS" 200 "the back office: GET $BASE/owner.html"
like "$(lt_header Content-Security-Policy)" "style-src 'self' blob:" "... with the back office's own policy"
is "$(lt_header X-Content-Type-Options)" nosniff "... and the security headers"
enc=$(curl -s -o /dev/null -D - -H 'Accept-Encoding: gzip' "$LT_URL/till/main.js" |
    tr -d '\r' | awk 'tolower($1) == "content-encoding:" { print $2 }')
is "$enc" gzip "scripts go compressed (lighttpd-mod-deflate)"
lt_req GET /loyalty.db
is "$LT_STATUS" 403 "no database file is served"
LT_URL=http://127.0.0.1:$PORT lt_req GET "$BASE"
like "$LT_STATUS $(lt_header Location)" "^301 (http://127\.0\.0\.1(:$PORT)?)?$BASE/\$" "$BASE without its slash goes to $BASE/"

# --- first run: the owner, then a till -------------------------------------

lt_req GET /api/v1/setup
is "$LT_STATUS $(lt_jq .data.setup_needed)" "200 true" "GET setup: a new installation needs setting up"
is "$(owner_mode "$DB.setup-code")" "www-data:www-data 600" "the setup code is beside the database, www-data's alone"
code=$(cat "$DB.setup-code" 2>/dev/null)
lt_req POST /api/v1/setup "$(jq -cn --arg c "$code" '{setup_code: $c,
    merchant_name: "Corner Cafe", location_name: "High Street",
    owner_name: "Olive", owner_email: "olive@cafe.example",
    owner_password: "a long password"}')"
is "$LT_STATUS $(lt_jq .data.user.user_type)" "200 owner" "POST setup with the code makes the owner"
LOC=$(lt_jq .data.location.id)
ok "the code file is gone" test ! -e "$DB.setup-code"

ok "the owner logs in" lt_login olive@cafe.example "a long password"
lt_req POST /api/v1/admin/users "$(jq -cn --arg l "$LOC" '{email: "till1@cafe.example",
    password: "till one pass", user_type: "system_user", location_id: $l}')"
is "$LT_STATUS" 200 "the owner adds a till login"
lt_req POST /api/v1/admin/programs '{"type":"punch","title":"Coffee Card","punch_requirement":10,"reward_title":"Free coffee"}'
is "$LT_STATUS" 200 "... a punch program"
PROG=$(lt_jq .data.program.id)
lt_req POST /api/v1/admin/cards "$(jq -cn --arg p "$PROG" '{program_id: $p, customer_name: "Ann Smith"}')"
is "$LT_STATUS" 200 "... and issues a card"
CARD=$(lt_jq '.data.cards[0].card_instance_id // .data.card.card_instance_id')

ok "the till logs in" lt_login till1@cafe.example "till one pass"
lt_req POST /api/v1/transactions/record "$(jq -cn --arg c "$CARD" --arg l "$LT_LOCATION_ID" \
    --arg s "$LT_USER_ID" '{card_instance_id: $c, location_id: $l, staff_user_id: $s,
    purchase_amount: 4.5, punch_count: 2, idempotency_key: "deb-1"}')"
is "$LT_STATUS" 200 "a purchase is recorded"
is "$(lt_jq .data.new_punch_count)" 2 "... and the card has its two punches"

is "$(responder_users)" www-data "the responders run as www-data, none as root"
lt_req GET /api/v1/nothing
is "$LT_STATUS $(lt_jq .error.code)" "404 NOT_FOUND" "an unknown API path is the service's 404"

# --- loyalty-admin ----------------------------------------------------------

out=$(env -u LOYALTY_DB loyalty-admin setting list 2>&1)
rc=$?
is "$rc" 0 "loyalty-admin setting list, as root, without --db"
like "$out" 'access_token_ttl' "... lists the settings of $DB"
out=$(env -u LOYALTY_DB loyalty-admin card issue --program "$PROG" --customer "Bo Lee" 2>&1)
like "$out" '"card_instance_id"' "loyalty-admin card issue, as root, writes to it"
is "$(find "$VARDIR" ! -user www-data | head -n 5)" "" "every file in $VARDIR is still www-data's"
ok "the till still logs in after loyalty-admin ran as root" lt_login till1@cafe.example "till one pass"

# --- upgrade in place ---------------------------------------------------------

if [ -n "$DEB" ]; then
	apt-get install -y -q --reinstall "$(realpath "$DEB")" >"$LT_DIR/reinstall.log" 2>&1
	is "$?" 0 "the package installed again over itself (postinst migrates in place)"
	reload_if_forbidden
	wait_status /api/v1/setup 404
	is "$LT_STATUS" 404 "... setup stays done"
	ok "... the owner still logs in" lt_login olive@cafe.example "a long password"
	lt_req GET "/api/v1/admin/cards?page_size=10"
	is "$(lt_jq '.data.cards | length')" 2 "... and the shop keeps its two cards"
else
	skip 4 "no LC_DEB_FILE to install again"
fi

# --- remove, purge -------------------------------------------------------------

apt-get remove -y -q loyalty-pos >"$LT_DIR/remove.log" 2>&1
is "$?" 0 "apt-get remove loyalty-pos"
reload_if_forbidden
ok "the database stays" test -f "$DB"
ok "the snippet is disabled" test ! -e "$ENABLED"
ok "the responders are gone" test ! -e "$CGIDIR"
is "$(responder_users)" "" "no responder runs any more"
ok "lighttpd's configuration is valid without it" lighttpd -tt -f /etc/lighttpd/lighttpd.conf
wait_status /api/v1/setup 404
is "$LT_STATUS" 404 "lighttpd no longer serves the API"

apt-get purge -y -q loyalty-pos >"$LT_DIR/purge.log" 2>&1
is "$?" 0 "apt-get purge loyalty-pos"
ok "the database folder is gone" test ! -e "$VARDIR"
ok "the run folder is gone" test ! -e "$RUNDIR"
ok "the snippet is gone" test ! -e "$SNIPPET"
left=$( { dpkg -L loyalty-pos 2>/dev/null; ls -d /usr/share/loyalty-pos /usr/libexec/loyalty-pos \
    /usr/share/doc/loyalty-pos /usr/sbin/loyalty-admin /usr/lib/tmpfiles.d/loyalty-pos.conf 2>/dev/null; } )
is "$left" "" "nothing of the package is left"
ok "lighttpd still answers" answering

done_testing
