#!/usr/bin/env bash
# Shared hosting for real: Apache 2.4 set up as shared hosts are, with
# nothing of ours in the server's configuration, only the site's
# .htaccess, and the service laid out as the bundle lays it out (the pages,
# api-bin/ with the responders and loyalty.conf, an empty data/), owned by
# a user of its own. In each variant: the owner's first run (the setup
# code read as the site's user, then the owner account), a till's day
# (login, lookup, record, claim, redeem, history, sync) and a backup, with
# the database, its setup code, loyalty.conf, .htaccess and source never
# served. Then sites set up wrong answer CONFIGURATION_ERROR (500, no
# Retry-After) and the server's error log says what to fix.
#
#   fcgid-root      mod_fcgid at the site root, ScriptAlias /cgi-bin/ to
#                   the system's folder (Debian's default), one web server
#                   user for every site (data/ 777, loyalty.conf umask 022)
#   fcgid-sub       mod_fcgid in a subfolder, AllowOverride FileInfo
#                   Options only
#   cgi-root        plain CGI (mod_cgi) at the site root, /cgi-bin/ mapped
#   suexec-vhost    suEXEC with plain CGI: a DocumentRoot under /var/www
#                   owned by the site's user (SuexecUserGroup); the
#                   .htaccess's SetEnv LOYALTY_DB never reaches the
#                   responders there, loyalty.conf does
#   suexec-userdir  suEXEC with plain CGI in a user's folder:
#                   /~USER/shop/, ~USER/public_html/shop
#
# Root only: suEXEC needs Apache started as root, and the site a user of
# its own (made here, with its tree under /var/www, suEXEC's document
# root; both removed at the end). CI runs as root. Set LC_HOSTING_BUNDLE
# to a dist/loyalty-pos-*-linux-x86_64.tar.gz to test its site instead of
# the native build's responders. LT_KEEP=1 keeps the tree.
set -u
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"

command -v jq >/dev/null || bail "jq is not installed (tools/check installs it)"
command -v curl >/dev/null || bail "curl is not installed (tools/check installs it)"

R=$LC_RESPONDER_DIR
MODS=/usr/lib/apache2/modules
SUEXEC=/usr/lib/apache2/suexec
json_ct='application/json; charset=utf-8'
# Points of one variant's flow, of a site set up wrong: for the skips.
FLOW_POINTS=31
BROKEN_POINTS=4

if [ "$(id -u)" -ne 0 ]; then
	skip 1 "not root: suEXEC and the site's own user need root (CI runs as root)"
	done_testing
	exit
fi
if ! ap_available || [ ! -e "$MODS/mod_cgi.so" ]; then
	skip 1 "apache2 with mod_fcgid and mod_cgi is not installed (tools/check installs them)"
	done_testing
	exit
fi
have_suexec=0
[ -u "$(readlink -f "$SUEXEC" 2>/dev/null)" ] && [ -e "$MODS/mod_suexec.so" ] &&
    have_suexec=1

H= U= AP_F= AP_C=
cleanup() {
	local rc=$? pid p f
	# The servers' logs when a point failed or the script died.
	if [ -n "$H" ] && { [ "$rc" -ne 0 ] || [ "$tap_failed" -gt 0 ]; }; then
		for f in "$H/apache-f/error.log" "$H/apache-c/error.log" /var/log/apache2/suexec.log; do
			[ -f "$f" ] || continue
			diag "--- $f"
			tail -n 15 "$f" | while IFS= read -r l; do diag "$l"; done
		done
	fi
	for pid in $AP_F $AP_C; do
		kill -TERM "$pid" 2>/dev/null
		for p in $(seq 1 50); do lc_alive "$pid" || break; sleep 0.1; done
		# Its session (setsid): children a killed parent left too.
		kill -KILL -- "-$pid" "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	AP_F= AP_C=
	# Responders mod_fcgid or a CGI left, all run from the tree.
	if [ -n "$H" ]; then
		for p in $(pgrep -f "^$H/" 2>/dev/null); do kill -KILL "$p" 2>/dev/null; done
	fi
	if [ -n "$U" ]; then
		userdel "$U" >/dev/null 2>&1
		U=
	fi
	[ -n "$H" ] || return 0
	if [ -n "$LT_KEEP" ] || [ "$tap_failed" -gt 0 ]; then
		diag "kept $H"
	else
		rm -rf "$H"
	fi
	H=
}
trap cleanup EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

# One run at a time (make check runs this test, and tests/bundle.sh runs
# it on the bundle, maybe at once): both would share suEXEC's log and
# /var/www, and lose servers to each other's ports.
exec 9>/tmp/lc-hosting.lock || bail "cannot open /tmp/lc-hosting.lock"
flock -w 900 9 || bail "another tests/hosting.sh held its lock for 15 minutes"

mkdir -p /var/www
H=$(mktemp -d /var/www/lc-hosting.XXXXXX) || bail "mktemp under /var/www"
chmod 755 "$H"
LT_DIR=$H/http
mkdir -p "$LT_DIR" "$H/home"
chmod 755 "$H/home"
U=lchost$$
# What the site's user runs comes from here, not from the build: a
# checkout under a folder only its owner may enter (/root is 0700 on
# Debian) must work as well.
mkdir -p "$H/bin"
install -m 755 "$LT_ADMIN" "$H/bin/loyalty-admin" || bail "cannot copy $LT_ADMIN"
U_ADMIN=$H/bin/loyalty-admin
useradd -M -d "$H/home/$U" -s /usr/sbin/nologin -U "$U" ||
    bail "useradd $U failed"
mkdir -p "$H/home/$U/public_html"

# The site as the bundle lays it out, or the bundle's own.
BUNDLE_SITE=
if [ -n "${LC_HOSTING_BUNDLE:-}" ]; then
	mkdir -p "$H/bundle"
	tar -C "$H/bundle" -xzf "$LC_HOSTING_BUNDLE" || bail "cannot unpack $LC_HOSTING_BUNDLE"
	BUNDLE_SITE=$(ls -d "$H"/bundle/*/loyalty-pos 2>/dev/null | head -n 1)
	[ -d "$BUNDLE_SITE/$R" ] || bail "no loyalty-pos/$R in $LC_HOSTING_BUNDLE"
	diag "the site of $(basename "$LC_HOSTING_BUNDLE")"
fi

# site_make DIR shared|own: the site in DIR, every file the user's, folders
# 755, files 644, the responders 755 (as the README says to upload them).
# shared: the web server runs every site as one user of its own, which
# must write data/ (777), and whose files the owner must read (umask 022).
site_make() {
	local d=$1
	mkdir -p "$d"
	if [ -n "$BUNDLE_SITE" ]; then
		cp -R "$BUNDLE_SITE/." "$d/"
	else
		cp -R "$top_srcdir/htdocs/." "$d/"
		mkdir -p "$d/$R" "$d/data"
		cp "$top_builddir"/cgi-bin/*.fcgi "$d/$R/"
		cp "$top_srcdir/conf/loyalty.conf" "$d/$R/"
	fi
	# What a careless upload leaves: source and a script.
	printf 'int main(void) { return 0; }\n' >"$d/$R/login.c"
	printf 'echo build-secret\n' >"$d/build.sh"
	[ "$2" = shared ] && sed -i 's/^#umask = 022$/umask = 022/' "$d/$R/loyalty.conf"
	chown -R "$U:$U" "$d"
	find "$d" -type d -exec chmod 755 {} +
	find "$d" -type f -exec chmod 644 {} +
	chmod 755 "$d/$R"/*.fcgi
	[ "$2" = shared ] && chmod 777 "$d/data"
	return 0
}

# --- the sites ----------------------------------------------------------------

site_make "$H/fcgid-root" shared
mkdir -p "$H/fcgid-docroot"
site_make "$H/fcgid-docroot/shop" shared
chown "$U:$U" "$H/fcgid-docroot"
site_make "$H/cgi-root" shared
site_make "$H/suexec-root" own
# The line the .htaccess offers, set to a path that would fail: suEXEC
# passes no such variable on, so the responders go by loyalty.conf.
sed -i "s|^# *SetEnv LOYALTY_DB .*|SetEnv LOYALTY_DB $H/nowhere/loyalty.db|" \
    "$H/suexec-root/.htaccess"
site_make "$H/home/$U/public_html/shop" own
chown "$U:$U" "$H/home/$U" "$H/home/$U/public_html"
chmod 755 "$H/home/$U" "$H/home/$U/public_html"

# Set up wrong, each the way it happens.
# A database the site's user uploaded (mode 644, folder 755), served by
# the web server's own user: SQLite's "attempt to write a readonly
# database".
site_make "$H/fcgid-upload" own
runuser -u "$U" -- "$U_ADMIN" --db "$H/fcgid-upload/data/loyalty.db" init ||
    bail "loyalty-admin init as $U failed"
chmod 644 "$H/fcgid-upload/data/loyalty.db"
# data/ of another user under suEXEC: the service may not create its
# database there.
site_make "$H/suexec-nodata" own
chown root:root "$H/suexec-nodata/data"
# A folder of the programs its group may write: suEXEC refuses them all.
site_make "$H/suexec-775" own
chmod 775 "$H/suexec-775/$R"
# A typing error in loyalty.conf.
site_make "$H/cgi-badconf" shared
printf 'databse = ../data/loyalty.db\n' >>"$H/cgi-badconf/$R/loyalty.conf"

# --- the servers ------------------------------------------------------------

# The ports and both servers' configuration: again with other ports when
# a server could not bind one (another test took it meanwhile).
servers_conf() {
local v p taken=' '
for v in P_FROOT P_FSUB P_FUP P_CROOT P_SVH P_SUD P_SBAD P_CBAD P_S775; do
	# Nine different ports.
	p=
	while [ -z "$p" ] || [[ $taken == *" $p "* ]]; do
		p=$(lt_free_port) || bail "no free port"
	done
	taken="$taken$p "
	printf -v "$v" '%s' "$p"
done

# What every shared host has, and Debian's ScriptAlias of /cgi-bin/.
common_conf() {	# SERVERROOT
	cat <<CONF
ServerRoot "$1"
ServerName 127.0.0.1
PidFile "$1/httpd.pid"
DefaultRuntimeDir "$1"
ErrorLog "$1/error.log"
LogLevel warn
User www-data
Group www-data
LoadModule authz_core_module $MODS/mod_authz_core.so
LoadModule mime_module $MODS/mod_mime.so
LoadModule alias_module $MODS/mod_alias.so
LoadModule dir_module $MODS/mod_dir.so
LoadModule env_module $MODS/mod_env.so
LoadModule rewrite_module $MODS/mod_rewrite.so
LoadModule headers_module $MODS/mod_headers.so
LoadModule filter_module $MODS/mod_filter.so
LoadModule deflate_module $MODS/mod_deflate.so
TypesConfig /etc/mime.types
DirectoryIndex index.html
<Directory />
	AllowOverride None
	Require all denied
</Directory>
ScriptAlias /cgi-bin/ /usr/lib/cgi-bin/
<Directory "/usr/lib/cgi-bin">
	AllowOverride None
	Options +ExecCGI
	Require all granted
</Directory>
CONF
}

site_conf() {	# PORT DOCROOT OVERRIDE [EXTRA LINE]
	cat <<CONF
Listen 127.0.0.1:$1
<VirtualHost 127.0.0.1:$1>
	DocumentRoot "$2"
	${4:-}
	<Directory "$2">
		AllowOverride $3
		Require all granted
	</Directory>
</VirtualHost>
CONF
}

mkdir -p "$H/apache-f/fcgid" "$H/apache-c"
chown www-data:www-data "$H/apache-f/fcgid"
{
	common_conf "$H/apache-f"
	cat <<CONF
LoadModule mpm_event_module $MODS/mod_mpm_event.so
LoadModule fcgid_module $MODS/mod_fcgid.so
FcgidIPCDir "$H/apache-f/fcgid"
FcgidProcessTableFile "$H/apache-f/fcgid/shm"
CONF
	site_conf "$P_FROOT" "$H/fcgid-root" All
	site_conf "$P_FSUB" "$H/fcgid-docroot" "FileInfo Options"
	site_conf "$P_FUP" "$H/fcgid-upload" All
} >"$H/apache-f/httpd.conf"
{
	common_conf "$H/apache-c"
	cat <<CONF
LoadModule mpm_prefork_module $MODS/mod_mpm_prefork.so
LoadModule cgi_module $MODS/mod_cgi.so
LoadModule userdir_module $MODS/mod_userdir.so
CONF
	[ "$have_suexec" -eq 1 ] && echo "LoadModule suexec_module $MODS/mod_suexec.so"
	echo "UserDir disabled"
	site_conf "$P_CROOT" "$H/cgi-root" All
	site_conf "$P_CBAD" "$H/cgi-badconf" All
	if [ "$have_suexec" -eq 1 ]; then
		site_conf "$P_SVH" "$H/suexec-root" All "SuexecUserGroup $U $U"
		site_conf "$P_SBAD" "$H/suexec-nodata" All "SuexecUserGroup $U $U"
		site_conf "$P_S775" "$H/suexec-775" All "SuexecUserGroup $U $U"
		site_conf "$P_SUD" "$H/apache-c" None "UserDir public_html
	UserDir enabled $U"
		cat <<CONF
<Directory "$H/home/*/public_html">
	AllowOverride All
	Require all granted
</Directory>
CONF
	fi
} >"$H/apache-c/httpd.conf"

}

# ap_run CONF PORT...: Apache in the foreground of a job; its pid on stdout
# once every port answers, or nothing (its log as TAP comments).
ap_run() {
	local conf=$1 dir pid i port up
	shift
	dir=$(dirname "$conf")
	# A session of its own: prefork's Apache signals its whole process
	# group as it stops, which must not be this script.
	# Without the lock's descriptor: a server outliving this script
	# must not hold the next run up.
	setsid apache2 -f "$conf" -DFOREGROUND </dev/null >>"$dir/error.log" 2>&1 9>&- &
	pid=$!
	for i in $(seq 1 100); do
		lc_alive "$pid" || break
		up=1
		for port in "$@"; do
			curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$port/" || up=0
		done
		# Another server may answer on a port this one could not
		# bind: each port must be this one's.
		for port in "$@"; do
			ss -Hltnp "sport = :$port" 2>/dev/null |
			    grep -q "pid=$pid," || up=0
		done
		[ "$up" -eq 1 ] && { echo "$pid"; return 0; }
		grep -q 'could not bind' "$dir/error.log" && break
		sleep 0.1
	done
	kill -KILL -- "-$pid" "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	# On stderr: stdout is the pid the caller takes (a line of this log
	# taken for a pid once made a server that could not bind look up).
	while IFS= read -r l; do diag "$l"; done <"$dir/error.log" >&2
	return 1
}

for try in 1 2 3 4 5; do
	servers_conf
	: >"$H/apache-f/error.log"
	: >"$H/apache-c/error.log"
	AP_F=$(ap_run "$H/apache-f/httpd.conf" "$P_FROOT" "$P_FSUB" "$P_FUP")
	if [ "$have_suexec" -eq 1 ]; then
		AP_C=$(ap_run "$H/apache-c/httpd.conf" "$P_CROOT" "$P_CBAD" "$P_SVH" "$P_SBAD" "$P_SUD" "$P_S775")
	else
		AP_C=$(ap_run "$H/apache-c/httpd.conf" "$P_CROOT" "$P_CBAD")
	fi
	[[ $AP_F =~ ^[0-9]+$ && $AP_C =~ ^[0-9]+$ ]] && break
	grep -q 'could not bind' "$H/apache-f/error.log" "$H/apache-c/error.log" ||
	    break
	diag "a port was taken meanwhile (try $try): again with others"
	for pid in $AP_F $AP_C; do
		kill -TERM "$pid" 2>/dev/null
		for p in $(seq 1 50); do lc_alive "$pid" || break; sleep 0.1; done
		kill -KILL -- "-$pid" "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	AP_F= AP_C=
done
like "$AP_F" '^[0-9]+$' "Apache with mod_fcgid starts: three sites, .htaccess only"
like "$AP_C" '^[0-9]+$' "Apache with mod_cgi (prefork) starts as root, User www-data"
if [ "$have_suexec" -eq 1 ]; then
	ok "... with suEXEC on ($(readlink -f "$SUEXEC"))" \
	    grep -q 'suEXEC mechanism enabled' "$H/apache-c/error.log"
else
	skip 1 "apache2-suexec-pristine is not installed (tools/check installs it)"
fi

# --- one site's flow -----------------------------------------------------------

# never_served VARIANT: each of these is refused (403 or 404), and no
# answer holds any of the file's content.
never_served() {
	local v=$1 p bad='' secret
	for p in data/loyalty.db data/loyalty.db-wal data/loyalty.db-shm \
	    data/loyalty.db-journal data/loyalty.db.setup-code data/ \
	    "$R/loyalty.conf" "$R/" .htaccess "$R/login.c" build.sh; do
		lt_req GET "/$p"
		case $LT_STATUS in 403 | 404) ;; *) bad="$bad $p:$LT_STATUS" ;; esac
		for secret in 'SQLite format 3' "$2" 'database =' 'int main' \
		    build-secret RewriteRule; do
			[[ $LT_BODY == *"$secret"* ]] && bad="$bad $p:content"
		done
	done
	is "$bad" "" "$v: data/ (database, -wal, -shm, setup code), loyalty.conf, .htaccess, source and the folders are never served"
	lt_req GET "/$R/login.fcgi"
	is "$LT_STATUS $(lt_jq .error.code)" "404 NOT_FOUND" \
	    "$v: a responder asked for by its file runs (the service's 404), never served as a file"
}

# flow VARIANT URL SITE USER: the whole first run and a till's day.
flow() {
	local v=$1 site=$3 as=$4 db code loc staff punch cash pcard ccard log0
	LT_URL=$2 LT_TOKEN=
	db=$site/data/loyalty.db
	log0=$(cat "$H"/apache-?/error.log 2>/dev/null | grep -c 'loyalty: ')
	lt_req GET /
	is "$LT_STATUS $(lt_header Content-Type)" "200 text/html; charset=utf-8" "$v: the till's page"
	lt_req GET /api/v1/setup
	is "$LT_STATUS $(lt_jq .data.setup_needed)" "200 true" "$v: a new installation asks for setup"
	ok "$v: that request made the database in data/, as loyalty.conf says" test -s "$db"
	is "$(stat -c %U "$db" 2>/dev/null)" "$as" "$v: the database is $as's"
	code=$(runuser -u "$U" -- cat "$db.setup-code" 2>/dev/null)
	like "$code" '^[A-Z0-9]{8,64}$' "$v: the site's user reads the setup code (as with FTP)"
	never_served "$v" "${code:-no code}"

	lt_req POST /api/v1/setup "$(jq -cn --arg c "$code" '{setup_code: $c,
	    merchant_name: "Corner Cafe", location_name: "High Street",
	    owner_name: "Olive", owner_email: "olive@cafe.example",
	    owner_password: "a long password"}')"
	is "$LT_STATUS $(lt_jq .data.user.user_type)" "200 owner" "$v: setup with the code makes the owner"
	loc=$(lt_jq .data.location.id)
	ok "$v: the code file is gone" test ! -e "$db.setup-code"
	lt_req GET /api/v1/setup
	is "$LT_STATUS" 404 "$v: setup is gone for good"

	ok "$v: the owner logs in" lt_login olive@cafe.example "a long password"
	lt_req POST /api/v1/admin/users "$(jq -cn --arg l "$loc" '{email: "till1@cafe.example",
	    password: "till one pass", user_type: "system_user", location_id: $l}')"
	is "$LT_STATUS" 200 "$v: the owner adds a till login"
	lt_req POST /api/v1/admin/programs '{"type":"punch","title":"Coffee Card","punch_requirement":3,"reward_title":"Free coffee","cooldown_seconds":0,"max_punches_per_purchase":5}'
	punch=$(lt_jq .data.program.id)
	lt_req POST /api/v1/admin/programs '{"type":"cashback","title":"Cashback","tiers":[{"name":"Base","min_spend":0,"rate":0.1}]}'
	cash=$(lt_jq .data.program.id)
	lt_req POST /api/v1/admin/cards "$(jq -cn --arg p "$punch" '{program_id: $p, customer_name: "Ann Smith"}')"
	pcard=$(lt_jq '.data.card_instance_id // .data.cards[0].card_instance_id // .data.card.card_instance_id')
	pqr=$(lt_jq '.data.qr_code_data // .data.cards[0].qr_code_data // .data.card.qr_code_data')
	lt_req POST /api/v1/admin/cards "$(jq -cn --arg p "$cash" '{program_id: $p, customer_name: "Bo Lee"}')"
	ccard=$(lt_jq '.data.card_instance_id // .data.cards[0].card_instance_id // .data.card.card_instance_id')
	ok "$v: two programs and a card of each" test -n "$punch" -a -n "$cash" \
	    -a -n "$pcard" -a "$pcard" != null -a -n "$ccard" -a "$ccard" != null

	ok "$v: the till logs in" lt_login till1@cafe.example "till one pass"
	staff=$LT_USER_ID
	lt_req POST /api/v1/cards/lookup "$(jq -cn --arg q "$pqr" '{qr_code_data: $q}')"
	is "$LT_STATUS $(lt_jq .data.card_instance_id)" "200 $pcard" "$v: lookup by the card's QR code"
	lt_req POST /api/v1/transactions/record "$(jq -cn --arg c "$pcard" --arg l "$loc" --arg s "$staff" \
	    '{card_instance_id: $c, location_id: $l, staff_user_id: $s, purchase_amount: 4.5,
	    punch_count: 3, idempotency_key: "h-1"}')"
	is "$LT_STATUS $(lt_jq .data.reward_earned)" "200 true" "$v: three punches earn the reward"
	lt_req POST /api/v1/rewards/claim "$(jq -cn --arg c "$pcard" --arg l "$loc" --arg s "$staff" \
	    '{card_instance_id: $c, location_id: $l, staff_user_id: $s, idempotency_key: "h-2"}')"
	is "$LT_STATUS $(lt_jq .reward_name)" "200 Free coffee" "$v: the reward is claimed"
	lt_req POST /api/v1/transactions/record "$(jq -cn --arg c "$ccard" --arg l "$loc" --arg s "$staff" \
	    '{card_instance_id: $c, location_id: $l, staff_user_id: $s, purchase_amount: 20,
	    idempotency_key: "h-3"}')"
	is "$LT_STATUS" 200 "$v: a cashback purchase"
	lt_req POST /api/v1/cashback/redeem "$(jq -cn --arg c "$ccard" --arg l "$loc" --arg s "$staff" \
	    '{card_instance_id: $c, location_id: $l, staff_user_id: $s, redemption_amount: 1.5,
	    purchase_amount: 10, idempotency_key: "h-4"}')"
	is "$LT_STATUS" 200 "$v: cashback redeemed"
	lt_req POST /api/v1/transactions/sync "$(jq -cn --arg p "$pcard" --arg c "$ccard" --arg l "$loc" \
	    --arg s "$staff" '{transactions: [
	    {card_instance_id: $p, location_id: $l, staff_user_id: $s, purchase_amount: 3, idempotency_key: "h-5"},
	    {card_instance_id: $c, location_id: $l, staff_user_id: $s, purchase_amount: 5, idempotency_key: "h-6"}]}')"
	is "$LT_STATUS $(lt_jq .data.success_count)" "200 2" "$v: an offline batch of two is synced"
	lt_req GET "/api/v1/transactions/history?card_instance_id=$ccard"
	is "$LT_STATUS $(lt_jq '.data.transactions | length')" "200 3" "$v: the cashback card's history holds its three"

	ok "$v: the owner logs in again" lt_login olive@cafe.example "a long password"
	lt_req GET /api/v1/admin/backup 2>/dev/null	# binary: bash warns of its NULs
	is "$LT_STATUS $(head -c 15 "$LT_DIR/resp.body" 2>/dev/null)" "200 SQLite format 3" \
	    "$v: the back office's backup is a database"
	is "$(find "$site/data" -mindepth 1 ! -user "$as" 2>/dev/null | head -n 3)" "" \
	    "$v: everything in data/ is $as's"
	is "$(($(cat "$H"/apache-?/error.log 2>/dev/null | grep -c 'loyalty: ') - log0))" 0 \
	    "$v: nothing in the server's error log"
	LT_TOKEN=
}

# broken VARIANT URL WANT LOG_RE: a site set up wrong answers 500
# CONFIGURATION_ERROR whose message holds WANT, with no Retry-After and no
# path, and the error log matches LOG_RE.
broken() {
	local v=$1 want=$3 re=$4
	LT_URL=$2 LT_TOKEN=
	lt_req GET /api/v1/setup
	is "$LT_STATUS $(lt_jq .error.code) $(lt_header Content-Type)" \
	    "500 CONFIGURATION_ERROR $json_ct" "$v: 500 CONFIGURATION_ERROR"
	like "$(lt_jq .error.message)" "$want" "$v: the answer says what is wrong"
	is "$(lt_header Retry-After)|$(printf '%s' "$LT_BODY" | grep -c "$H")" "|0" \
	    "$v: no Retry-After (retrying will not fix it), no path in the answer"
	ok "$v: the server's error log says what and where" \
	    grep -Eq "$re" "$H/apache-f/error.log" "$H/apache-c/error.log"
}

# --- the variants -------------------------------------------------------------

if [ -n "$AP_F" ]; then
	flow fcgid-root "http://127.0.0.1:$P_FROOT" "$H/fcgid-root" www-data
	lt_req GET /cgi-bin/login.fcgi
	is "$LT_STATUS" 404 "fcgid-root: /cgi-bin/ is the host's (ScriptAlias), not the site's: api-bin/ is ours"
	flow fcgid-sub "http://127.0.0.1:$P_FSUB/shop" "$H/fcgid-docroot/shop" www-data
	broken fcgid-upload "http://127.0.0.1:$P_FUP" 'read-only for this user' \
	    "database $H/fcgid-upload/$R/\\.\\./data/loyalty\\.db \\(.*loyalty\\.conf\\) cannot be used: the file is read-only for this user \\(this process runs as uid $(id -u www-data)"
	ok "fcgid-upload: the uploaded database is as it was" \
	    test "$(stat -c %U:%a "$H/fcgid-upload/data/loyalty.db")" = "$U:644"
else
	skip $((2 * FLOW_POINTS + 1 + BROKEN_POINTS + 1)) "Apache with mod_fcgid did not start"
fi

if [ -n "$AP_C" ]; then
	flow cgi-root "http://127.0.0.1:$P_CROOT" "$H/cgi-root" www-data
	broken cgi-badconf "http://127.0.0.1:$P_CBAD" 'loyalty\.conf has an error' \
	    "loyalty\\.conf:[0-9]+: unknown setting \"databse\""
	if [ "$have_suexec" -eq 1 ]; then
		flow suexec-vhost "http://127.0.0.1:$P_SVH" "$H/suexec-root" "$U"
		flow suexec-userdir "http://127.0.0.1:$P_SUD/~$U/shop" "$H/home/$U/public_html/shop" "$U"
		broken suexec-nodata "http://127.0.0.1:$P_SBAD" 'its folder is not writable' \
		    "database $H/suexec-nodata/$R/\\.\\./data/loyalty\\.db .*cannot be used: the file does not exist, and its folder is not writable .*uid $(id -u "$U")"
		ok "suexec-nodata: nothing was created" test -z "$(ls -A "$H/suexec-nodata/data")"
		# README: Apache's own 500 that stays means suEXEC refused.
		LT_URL=http://127.0.0.1:$P_S775
		lt_req GET /api/v1/setup
		is "$LT_STATUS $(lt_jq .error.code) $(lt_header Retry-After) $(lt_header X-Request-Id)" \
		    "500 INTERNAL_ERROR 1 " \
		    "suexec-775: programs in a folder its group may write: Apache's own 500 (JSON, Retry-After, no request id), as README says"
		ok "suexec-775: suEXEC's log says why" \
		    grep -q "directory is writable by others: ($H/suexec-775/$R)" /var/log/apache2/suexec.log
	else
		skip $((2 * FLOW_POINTS + BROKEN_POINTS + 3)) "apache2-suexec-pristine is not installed"
	fi
else
	skip $((FLOW_POINTS + BROKEN_POINTS)) "Apache with mod_cgi did not start"
	skip $((2 * FLOW_POINTS + BROKEN_POINTS + 3)) "Apache with mod_cgi did not start"
fi

# --- which database, without a web server ------------------------------------

# cgi_setup SITE [VAR=VALUE...]: GET setup by plain CGI as the site's user.
cgi_setup() {
	local d=$1
	shift
	runuser -u "$U" -- env -i GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD=GET \
	    REQUEST_URI=/api/v1/setup "$@" "$d/$R/setup.fcgi" </dev/null 2>/dev/null |
	    tr -d '\r' | sed -n 's/^Status: \([0-9]*\).*/\1/p'
}
site_make "$H/direct" own
mkdir -p "$H/direct-env"
chown "$U:$U" "$H/direct-env"
is "$(cgi_setup "$H/direct" LOYALTY_DB="$H/direct-env/loyalty.db")|$(ls -A "$H/direct/data")" \
    "200|" "LOYALTY_DB, where it reaches the responder, wins over loyalty.conf"
ok "... the database is where it says" test -s "$H/direct-env/loyalty.db"
is "$(cgi_setup "$H/direct")" 200 "without it, loyalty.conf's database"
ok "... in data/" test -s "$H/direct/data/loyalty.db"

is "$(cat "$H"/apache-?/error.log | grep -E 'AddressSanitizer|LeakSanitizer|runtime error:|child (pid [0-9]+ )?exit signal|Segmentation' | head -n 3)" "" \
    "no sanitizer report or crashed responder in the servers' logs"

done_testing
