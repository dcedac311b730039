#!/usr/bin/env bash
# Shared hosting for real: Apache 2.4 set up as shared hosts are, with
# nothing of ours in the server's configuration, only the site's
# .htaccess, and the service laid out as the bundle lays it out (the pages,
# api-bin/ with the responders and loyalty.conf, an empty data/), owned by
# a user of its own. In each variant: the owner's first run (what GET
# /setup says of the host, the setup code's file mode 600 whatever the
# umask, setup by the proof file the site's user puts into api-bin/ or by
# the code read as the site's user, wrong proofs refused, then the owner
# account), a till's day (login, lookup, record, claim, redeem, history,
# sync) and a backup, with the database and its -wal, -shm and -queue,
# its setup code, the proof file, loyalty.conf, .htaccess and source never
# served. Then sites set up wrong answer CONFIGURATION_ERROR (500, no
# Retry-After) and the server's error log says what to fix.
#
#   fcgid-root      mod_fcgid at the site root, ScriptAlias /cgi-bin/ to
#                   the system's folder (Debian's default), one web server
#                   user for every site (data/ 777, and loyalty.conf's
#                   umask = 022: the database readable by all, the setup
#                   code still not); setup by the proof file
#   fcgid-sub       mod_fcgid in a subfolder, AllowOverride FileInfo
#                   Options only; data/ 777, loyalty.conf as shipped;
#                   setup by the proof file
#   cgi-root        plain CGI (mod_cgi) at the site root, /cgi-bin/ mapped;
#                   data/ 777; setup by the proof file
#   suexec-vhost    suEXEC with plain CGI: a DocumentRoot under /var/www
#                   owned by the site's user (SuexecUserGroup); the
#                   .htaccess's SetEnv LOYALTY_DB never reaches the
#                   responders there, loyalty.conf does; setup by the code
#   suexec-userdir  suEXEC with plain CGI in a user's folder:
#                   /~USER/shop/, ~USER/public_html/shop; setup by the
#                   proof file, which the service then deletes
#
# Root only: suEXEC needs Apache started as root, and the site a user of
# its own, and another account stands for the server's other users (made
# here, with the tree under /var/www, suEXEC's document root; all removed
# at the end). CI runs as root. Set LC_HOSTING_BUNDLE to a
# dist/loyalty-pos-*-linux-x86_64.tar.gz to test its site instead of the
# native build's responders. LT_KEEP=1 keeps the tree.
# tests/install_walk.sh walks the bundle's INSTALL on the same servers
# (tests/hosting_lib.sh).
set -u
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
. "$top_srcdir/tests/hosting_lib.sh"

R=$LC_RESPONDER_DIR
json_ct='application/json; charset=utf-8'
# Points of one variant's flow, of a site set up wrong: for the skips.
FLOW_POINTS=40
BROKEN_POINTS=4
# What the owner page puts into the proof file it offers.
PROOF_TEXT='This file shows that this Loyalty POS installation is yours.'

hl_preflight 1

trap hl_cleanup EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

hl_lock
hl_tree lc-hosting
H=$HL_H
LT_DIR=$H/http
mkdir -p "$LT_DIR" "$H/home"
chmod 755 "$H/home"
# The site's user, and another account of the server (neither the site's
# nor the web server's).
U=lchost$$
O=lcother$$
hl_user "$U" "$H/home/$U"
hl_user "$O" "$H/home/$O"
# What the site's user runs comes from here, not from the build: a
# checkout under a folder only its owner may enter (/root is 0700 on
# Debian) must work as well.
mkdir -p "$H/bin"
install -m 755 "$LT_ADMIN" "$H/bin/loyalty-admin" || bail "cannot copy $LT_ADMIN"
U_ADMIN=$H/bin/loyalty-admin
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

# site_make DIR shared|shared022|own: the site in DIR, every file the
# user's, folders 755, files 644, the responders 755 (as INSTALL says to
# upload them). shared: the web server runs every site as one user of its
# own, which must write data/ (777); shared022: and loyalty.conf's umask =
# 022 lets every account read what the service makes.
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
	if [ "$2" = shared022 ]; then
		grep -q '^#umask = ' "$d/$R/loyalty.conf" ||
		    bail "loyalty.conf has no line '#umask = ...' to set"
		sed -i 's/^#umask = .*$/umask = 022/' "$d/$R/loyalty.conf"
	fi
	chown -R "$U:$U" "$d"
	find "$d" -type d -exec chmod 755 {} +
	find "$d" -type f -exec chmod 644 {} +
	chmod 755 "$d/$R"/*.fcgi
	[ "$2" != own ] && chmod 777 "$d/data"
	return 0
}

# --- the sites ----------------------------------------------------------------

site_make "$H/fcgid-root" shared022
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

# The ports and both servers' configuration (hl_servers runs it again with
# other ports when a server could not bind one).
servers_conf() {
	hl_ports P_FROOT P_FSUB P_FUP P_CROOT P_SVH P_SUD P_SBAD P_CBAD P_S775
	HL_F_PORTS="$P_FROOT $P_FSUB $P_FUP"
	HL_C_PORTS="$P_CROOT $P_CBAD"
	[ "$HL_HAVE_SUEXEC" -eq 1 ] && HL_C_PORTS="$HL_C_PORTS $P_SVH $P_SBAD $P_SUD $P_S775"
	{
		hl_fcgid_conf "$H/apache-f"
		hl_site_conf "$P_FROOT" "$H/fcgid-root" All
		hl_site_conf "$P_FSUB" "$H/fcgid-docroot" "FileInfo Options"
		hl_site_conf "$P_FUP" "$H/fcgid-upload" All
	} >"$H/apache-f/httpd.conf.tmp"
	mv "$H/apache-f/httpd.conf.tmp" "$H/apache-f/httpd.conf"
	{
		hl_cgi_conf "$H/apache-c"
		hl_site_conf "$P_CROOT" "$H/cgi-root" All
		hl_site_conf "$P_CBAD" "$H/cgi-badconf" All
		if [ "$HL_HAVE_SUEXEC" -eq 1 ]; then
			hl_site_conf "$P_SVH" "$H/suexec-root" All "SuexecUserGroup $U $U"
			hl_site_conf "$P_SBAD" "$H/suexec-nodata" All "SuexecUserGroup $U $U"
			hl_site_conf "$P_S775" "$H/suexec-775" All "SuexecUserGroup $U $U"
			hl_userdir_conf "$P_SUD"
		fi
	} >"$H/apache-c/httpd.conf.tmp"
	mv "$H/apache-c/httpd.conf.tmp" "$H/apache-c/httpd.conf"
}
mkdir -p "$H/apache-f" "$H/apache-c"
hl_servers servers_conf
AP_F=$HL_AP_F AP_C=$HL_AP_C
like "$AP_F" '^[0-9]+$' "Apache with mod_fcgid starts: three sites, .htaccess only"
like "$AP_C" '^[0-9]+$' "Apache with mod_cgi (prefork) starts as root, User www-data"
if [ "$HL_HAVE_SUEXEC" -eq 1 ]; then
	ok "... with suEXEC on ($(readlink -f "$HL_SUEXEC"))" \
	    grep -q 'suEXEC mechanism enabled' "$H/apache-c/error.log"
else
	skip 1 "apache2-suexec-pristine is not installed (tools/check installs it)"
fi

# --- one site's flow -----------------------------------------------------------

# never_served VARIANT PROOF_FILE SECRET...: each of these is refused (403
# or 404), and no answer holds any of the SECRETs.
never_served() {
	local v=$1 pf=$2 p bad='' secret
	shift 2
	for p in data/loyalty.db data/loyalty.db-wal data/loyalty.db-shm \
	    data/loyalty.db-journal data/loyalty.db-queue data/loyalty.db.setup-code \
	    data/ loyalty.db loyalty.db-queue "$R/loyalty.conf" "$R/$pf" "$R/" \
	    .htaccess "$R/login.c" build.sh; do
		lt_req GET "/$p" 2>/dev/null	# a database: bash warns of its NULs
		case $LT_STATUS in 403 | 404) ;; *) bad="$bad $p:$LT_STATUS" ;; esac
		for secret in 'SQLite format 3' 'database =' 'int main' \
		    build-secret RewriteRule "$PROOF_TEXT" "$@"; do
			[ -n "$secret" ] && [[ $LT_BODY == *"$secret"* ]] &&
			    bad="$bad $p:content"
		done
	done
	is "$bad" "" "$v: data/ (database, -wal, -shm, -queue, setup code), loyalty.conf, the proof file, .htaccess, source, copies in the site and the folders are never served"
}

# setup_json KEY VALUE: setup's body with KEY (setup_code or setup_proof).
setup_json() {
	jq -cn --arg k "$1" --arg s "$2" '{($k): $s,
	    merchant_name: "Corner Cafe", location_name: "High Street",
	    owner_name: "Olive", owner_email: "olive@cafe.example",
	    owner_password: "a long password"}'
}

# warnings: GET's hosting.warnings, sorted, one line.
warnings() {
	lt_jq '.data.hosting.warnings | if type == "array" then sort | join(" ") else "none: \(.)" end'
}

# flow VARIANT URL SITE USER WARNINGS proof|code: the whole first run and
# a till's day; USER runs the responders, WARNINGS are the hosting
# warnings expected (sorted), and setup goes by the proof file or by the
# code (which the site's user must then be able to read).
flow() {
	local v=$1 site=$3 as=$4 want=$5 way=$6 db code loc staff punch cash \
	    pcard pqr ccard log0 secret pf f p
	LT_URL=$2 LT_TOKEN=
	db=$site/data/loyalty.db
	log0=$(hl_log_count 'loyalty: ')
	lt_req GET /
	is "$LT_STATUS $(lt_header Content-Type)" "200 text/html; charset=utf-8" "$v: the till's page"
	lt_req GET /api/v1/setup
	is "$LT_STATUS $(lt_jq .data.setup_needed)" "200 true" "$v: a new installation asks for setup"
	is "$(warnings)" "$want" "$v: GET /setup's hosting.warnings: ${want:-none}"
	secret=$(lt_jq .data.proof.secret) pf=$(lt_jq .data.proof.file)
	like "$secret $pf $(lt_jq .data.proof.folder)" "^[a-z2-7]{26} loyalty-setup-[a-z2-7]{24}\\.txt $R\$" \
	    "$v: ... and the proof way: a secret, its file's name, the folder $R/"
	ok "$v: that request made the database in data/, as loyalty.conf says" test -s "$db"
	is "$(stat -c %U "$db" 2>/dev/null)" "$as" "$v: the database is $as's"
	# Where the web server's user runs the service, a code's file is
	# no use to the owner: the service may write none.
	f="$as:600"
	[ "$as" = "$U" ] || f="($as:600|none)"
	like "$(stat -c %U:%a "$db.setup-code" 2>/dev/null || echo none)" "^$f\$" \
	    "$v: the setup code's file$([ "$as" = "$U" ] || echo ", if any,") is $as's, mode 600 whatever loyalty.conf's umask"
	code=$(runuser -u "$U" -- cat "$db.setup-code" 2>/dev/null)
	if [ "$as" = "$U" ]; then
		like "$code" '^[A-Z0-9]{20}$' "$v: the site's user reads the setup code (as with FTP)"
	else
		is "$code" "" "$v: the site's user cannot read the setup code (the web server's file)"
	fi
	is "$(runuser -u "$O" -- cat "$db.setup-code" 2>/dev/null)" "" \
	    "$v: another account of the server cannot read it either"

	# Wrong proofs, each refused (403 on setup_proof; at most three
	# failures, below the five the guard allows, should it count them).
	lt_req POST /api/v1/setup "$(setup_json setup_proof abcdefghijklmnopqrstuvwxyz)"
	is "$LT_STATUS $(lt_jq .error.code) $(lt_jq .error.details.field)" "403 FORBIDDEN setup_proof" \
	    "$v: a secret whose file is not in $R/ is refused (403 on setup_proof)"
	install -o "$O" -g "$O" -m 644 /dev/null "$site/$R/$pf"
	lt_req POST /api/v1/setup "$(setup_json setup_proof "$secret")"
	is "$LT_STATUS $(lt_jq .error.code) $(lt_jq .error.details.field)" "403 FORBIDDEN setup_proof" \
	    "$v: the proof file of another account than $R/'s owner is refused"
	rm -f "$site/$R/$pf"
	runuser -u "$U" -- ln -s ../index.html "$site/$R/$pf"
	lt_req POST /api/v1/setup "$(setup_json setup_proof "$secret")"
	is "$LT_STATUS $(lt_jq .error.code) $(lt_jq .error.details.field)" "403 FORBIDDEN setup_proof" \
	    "$v: a link by that name, even the site user's, is refused"
	rm -f "$site/$R/$pf"
	# The proof file as the site's user uploads it (INSTALL, step 5).
	runuser -u "$U" -- sh -c 'printf "%s\r\n" "$1" >"$2"' _ "$PROOF_TEXT" "$site/$R/$pf" ||
	    bail "$U cannot write $site/$R/$pf"
	lt_req GET /api/v1/setup
	is "$LT_STATUS $(lt_jq .data.setup_needed)" "200 true" "$v: the failures used up nothing: setup is still open"
	never_served "$v" "$pf" "${code:-no code}" "$(cat "$db.setup-code" 2>/dev/null)"
	lt_req GET "/$R/login.fcgi"
	is "$LT_STATUS $(lt_jq .error.code)" "404 NOT_FOUND" \
	    "$v: a responder asked for by its file runs (the service's 404), never served as a file"

	if [ "$way" = proof ]; then
		lt_req POST /api/v1/setup "$(setup_json setup_proof "$secret")"
		is "$LT_STATUS $(lt_jq .data.user.user_type)" "200 owner" "$v: setup with the proof file makes the owner"
		if [ "$as" = "$U" ]; then
			ok "$v: the used proof file is gone ($as may write $R/)" test ! -e "$site/$R/$pf"
		else
			ok "$v: the used proof file stays ($as may not write $R/; the owner deletes it)" \
			    test -f "$site/$R/$pf"
		fi
	else
		lt_req POST /api/v1/setup "$(setup_json setup_code "$code")"
		is "$LT_STATUS $(lt_jq .data.user.user_type)" "200 owner" "$v: setup with the code makes the owner"
		ok "$v: the proof file no one used is left alone" test -f "$site/$R/$pf"
	fi
	loc=$(lt_jq .data.location.id)
	ok "$v: the code file is gone" test ! -e "$db.setup-code"
	lt_req GET /api/v1/setup
	is "$LT_STATUS" 404 "$v: setup is gone for good"
	lt_req POST /api/v1/setup "$(setup_json setup_proof "$secret")"
	is "$LT_STATUS" 404 "$v: ... for the proof too"

	ok "$v: the owner logs in" lt_login olive@cafe.example "a long password"
	lt_req GET /api/v1/admin/settings
	is "$LT_STATUS $(warnings)" "200 $want" "$v: the back office's settings carry the same hosting.warnings"
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

	# The files the day left beside the database, and copies of the
	# database and its queue put into the site's own folder (a careless
	# upload of a backup, as issue 25 found).
	ok "$v: the writers' queue file is there (data/loyalty.db-queue)" test -e "$db-queue"
	for f in loyalty.db loyalty.db-queue; do
		cp "$site/data/$f" "$site/$f" 2>/dev/null || printf 'SQLite format 3\n' >"$site/$f"
		chown "$U:$U" "$site/$f"
		chmod 644 "$site/$f"
	done
	[ -e "$site/$R/$pf" ] || runuser -u "$U" -- sh -c 'printf "%s\r\n" "$1" >"$2"' _ "$PROOF_TEXT" "$site/$R/$pf"
	never_served "$v" "$pf"
	f=
	for p in "$R/loyalty.conf" "$R/$pf" data/loyalty.db-queue loyalty.db-queue; do
		lt_req GET "/$p"
		f="$f $LT_STATUS"
	done
	is "$f" " 403 403 403 403" "$v: $R/loyalty.conf, $R/$pf, data/loyalty.db-queue and its copy are refused (403)"
	if [[ " $want " == *" database_readable_by_all "* ]]; then
		ok "$v: another account reads the database, as the warning database_readable_by_all says" \
		    sh -c 'runuser -u "$1" -- head -c 15 "$2" | grep -q "SQLite format 3"' _ "$O" "$db"
	else
		is "$(runuser -u "$O" -- head -c 15 "$db" 2>/dev/null)" "" \
		    "$v: another account cannot read the database"
	fi
	is "$(($(hl_log_count 'loyalty: ') - log0))" 0 "$v: nothing in the server's error log"
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

SHARED='data_folder_writable_by_all shared_web_user'
if [ -n "$AP_F" ]; then
	flow fcgid-root "http://127.0.0.1:$P_FROOT" "$H/fcgid-root" www-data \
	    "data_folder_writable_by_all database_readable_by_all shared_web_user" proof
	lt_req GET /cgi-bin/login.fcgi
	is "$LT_STATUS" 404 "fcgid-root: /cgi-bin/ is the host's (ScriptAlias), not the site's: api-bin/ is ours"
	flow fcgid-sub "http://127.0.0.1:$P_FSUB/shop" "$H/fcgid-docroot/shop" www-data "$SHARED" proof
	broken fcgid-upload "http://127.0.0.1:$P_FUP" 'read-only for this user' \
	    "database $H/fcgid-upload/$R/\\.\\./data/loyalty\\.db \\(.*loyalty\\.conf\\) cannot be used: the file is read-only for this user \\(this process runs as uid $(id -u www-data)"
	ok "fcgid-upload: the uploaded database is as it was" \
	    test "$(stat -c %U:%a "$H/fcgid-upload/data/loyalty.db")" = "$U:644"
else
	skip $((2 * FLOW_POINTS + 1 + BROKEN_POINTS + 1)) "Apache with mod_fcgid did not start"
fi

if [ -n "$AP_C" ]; then
	flow cgi-root "http://127.0.0.1:$P_CROOT" "$H/cgi-root" www-data "$SHARED" proof
	broken cgi-badconf "http://127.0.0.1:$P_CBAD" 'loyalty\.conf has an error' \
	    "loyalty\\.conf:[0-9]+: unknown setting \"databse\""
	if [ "$HL_HAVE_SUEXEC" -eq 1 ]; then
		flow suexec-vhost "http://127.0.0.1:$P_SVH" "$H/suexec-root" "$U" "" code
		flow suexec-userdir "http://127.0.0.1:$P_SUD/~$U/shop" "$H/home/$U/public_html/shop" "$U" "" proof
		broken suexec-nodata "http://127.0.0.1:$P_SBAD" 'its folder is not writable' \
		    "database $H/suexec-nodata/$R/\\.\\./data/loyalty\\.db .*cannot be used: the file does not exist, and its folder is not writable .*uid $(id -u "$U")"
		ok "suexec-nodata: nothing was created" test -z "$(ls -A "$H/suexec-nodata/data")"
		# docs/deployment.md: Apache's own 500 that stays means suEXEC refused.
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
