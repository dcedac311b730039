#!/usr/bin/env bash
# The bundle's INSTALL, walked literally, as a shopkeeper does it, on
# Apache set up as shared hosts are (tests/hosting_lib.sh): the x86_64
# bundle as tools/bundle makes it (its .zip, unpacked with unzip, the same
# files and modes as its .tar.gz), uploaded as the site's user as an FTP
# program uploads (every file 644), the permissions of INSTALL's step 3
# read from its text, then owner.html opened (the page, then its first
# request, GET api/v1/setup), and on:
#
#   fcgid-root      mod_fcgid, every site run as the web server's user;
#                   the site's root (step 2: what is inside loyalty-pos/
#                   into public_html/ itself, over the host's index.html)
#   fcgid-sub       the same in the folder loyalty-pos/, AllowOverride
#                   FileInfo Options only
#   cgi-sub         plain CGI (mod_cgi), the web server's user, loyalty-pos/
#   suexec-vhost    suEXEC: a DocumentRoot of the site's user, loyalty-pos/
#   suexec-userdir  suEXEC in ~USER/public_html/loyalty-pos/
#
# On the web server's user the first visit answers CONFIGURATION_ERROR (the
# page opened before step 4 b), data/ is then set to what 4 b says, and the
# reload offers the setup with the proof file and its warnings; under
# suEXEC the setup code, read from its file as the site's user. Each then
# sets the shop up (step 5) and the owner logs in; deletes data/loyalty.db*
# as the site's user ("Starting over") and reloads: a new setup, even from
# the mod_fcgid processes that had the old file open, a second owner, the
# first one's login and token refused. Nothing secret is served, however
# the path is spelt, and another account of the server reads nothing of
# the shop (what it can reach on the web server's user, the page warns
# of). A backup is restored as "Restoring a backup" says (the page warns
# where the uploaded file is readable by all). Last, case c of step 4: the
# programs for the other machine (the aarch64 bundle's) answer Apache's
# own 500, without the service's X-Request-Id, which is what makes the
# page say "The shop's programs did not answer" (under plain CGI and
# suEXEC also the programs as uploaded, 644, before step 3).
#
# INSTALL and admin/loyalty-admin uploaded into the shop's folder by
# mistake are refused too.
#
# Root only (suEXEC, the site's own user); skipped otherwise, or without
# Apache or the bundle's build tools. The bundles are built as
# tests/bundle.sh builds them (tools/bundle -w top_builddir/bundle: the
# same static builds, a second run rebuilds nothing), into a folder of
# this test's own; or LC_HOSTING_BUNDLE names the x86_64 .tar.gz or .zip
# (its .zip and the aarch64 one are taken from beside it). LT_KEEP=1 keeps
# the tree.
set -u
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
. "$top_srcdir/tests/hosting_lib.sh"

# The points of a walk, by kind of host: for the skips.
WALK_FCGID_POINTS=41
WALK_CGI_POINTS=40
WALK_SUEXEC_POINTS=35
# What the owner page puts into the proof file it offers (owner/session.js).
PROOF_TEXT='This file shows that this Loyalty POS installation is yours.'

hl_preflight 1

DIST=
walk_cleanup() {
	hl_cleanup
	[ -n "$DIST" ] && rm -rf "$DIST"
	DIST=
}
trap walk_cleanup EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

# --- the bundles --------------------------------------------------------------

version=$(sed -n 's/^AC_INIT(\[[^]]*\], *\[\([^]]*\)\].*/\1/p' "$top_srcdir/configure.ac")
if [ -n "${LC_HOSTING_BUNDLE:-}" ]; then
	b=${LC_HOSTING_BUNDLE%.zip}
	b=${b%.tar.gz}
	X_TGZ=$b.tar.gz X_ZIP=$b.zip
	A_ZIP=${b/linux-x86_64/linux-aarch64}.zip
	diag "the bundles beside $(basename "$LC_HOSTING_BUNDLE")"
elif lt_sanitized; then
	skip 1 "a sanitizer build: the bundles are built without sanitizers and walked by the normal suite"
	done_testing
	exit
elif ! command -v unzip >/dev/null || ! lc_want_packages build bundle; then
	skip 1 "the bundle's build tools (and unzip) cannot be installed (tools/lib.sh LC_PKGS_BUNDLE)"
	done_testing
	exit
else
	DIST=$(mktemp -d "${TMPDIR:-/tmp}/loyalty-walk.XXXXXX") || bail "mktemp"
	start=$(date +%s)
	# As tests/bundle.sh runs it, with the same work folder (its static
	# builds: nothing is rebuilt when it ran first), at a low priority;
	# the bundles into a folder of this test's own (tests/bundle.sh's run
	# may replace those in top_builddir/bundle/dist meanwhile).
	if ! nice -n 10 bash "$top_srcdir/tools/bundle" -o "$DIST" -w "$top_builddir/bundle" \
	    x86_64 aarch64 >"$DIST/bundle.out" 2>"$DIST/bundle.err"; then
		tail -20 "$DIST/bundle.err" | sed 's/^/# /'
		bail "tools/bundle failed"
	fi
	diag "tools/bundle took $(($(date +%s) - start)) s"
	X_TGZ=$DIST/loyalty-pos-$version-linux-x86_64.tar.gz
	X_ZIP=$DIST/loyalty-pos-$version-linux-x86_64.zip
	A_ZIP=$DIST/loyalty-pos-$version-linux-aarch64.zip
fi
[ -f "$X_ZIP" ] && [ -f "$X_TGZ" ] || bail "no $X_ZIP and $X_TGZ"

hl_lock
hl_tree lc-walk
H=$HL_H
LT_DIR=$H/http
mkdir -p "$LT_DIR" "$H/home" "$H/zip" "$H/tgz" "$H/aarch64"
chmod 755 "$H/home"

# Step 1: unpacked on the shopkeeper's computer, from the .zip.
unzip -q "$X_ZIP" -d "$H/zip" || bail "unzip $X_ZIP failed"
tar -C "$H/tgz" -xzf "$X_TGZ" || bail "cannot unpack $X_TGZ"
is "$(cd "$H/zip" && find . -printf '%y %p %m %s\n' | LC_ALL=C sort | md5sum)" \
    "$(cd "$H/tgz" && find . -printf '%y %p %m %s\n' | LC_ALL=C sort | md5sum)" \
    "step 1: the .zip unpacks (unzip) to the .tar.gz's files, with their modes and sizes"
TOP=$(ls -d "$H"/zip/loyalty-pos-*-linux-x86_64 2>/dev/null | head -n 1)
[ -d "$TOP/loyalty-pos" ] && [ -f "$TOP/INSTALL" ] || bail "no INSTALL and loyalty-pos/ in $X_ZIP"
INSTALL=$TOP/INSTALL
BUNDLE_SITE=$TOP/loyalty-pos

# --- what INSTALL says ------------------------------------------------------------

# step_text N: INSTALL's step N, from "N. " to the next step.
step_text() {
	awk -v n="$1" '$0 ~ "^" n "\\. " { on = 1 } on && $0 ~ "^" (n + 1) "\\. " { exit } on' "$INSTALL"
}
S3=$(step_text 3)
S4=$(step_text 4)
S5=$(step_text 5)
# Step 3's table: "loyalty-pos/FOLDER/*.fcgi  MODE", "every folder  MODE",
# "every other file  MODE".
R=$(printf '%s\n' "$S3" | sed -n 's|^ *loyalty-pos/\([A-Za-z0-9_-]*\)/\*\.fcgi  *\([0-7]\{3\}\).*|\1|p')
M_PROG=$(printf '%s\n' "$S3" | sed -n 's|^ *loyalty-pos/[A-Za-z0-9_-]*/\*\.fcgi  *\([0-7]\{3\}\).*|\1|p')
M_DIR=$(printf '%s\n' "$S3" | sed -n 's|^ *every folder  *\([0-7]\{3\}\).*|\1|p')
M_FILE=$(printf '%s\n' "$S3" | sed -n 's|^ *every other file  *\([0-7]\{3\}\).*|\1|p')
is "$R $M_PROG $M_DIR $M_FILE" "$LC_RESPONDER_DIR 755 755 644" \
    "INSTALL step 3: the programs in loyalty-pos/$LC_RESPONDER_DIR/ 755, every folder 755, every other file 644"
[ -n "$R" ] && [ -n "$M_PROG" ] && [ -n "$M_DIR" ] && [ -n "$M_FILE" ] ||
    bail "INSTALL's step 3 is no longer as this test reads it"
# Step 4 b: "Set the folder loyalty-pos/data/ to MODE".
M_DATA=$(printf '%s\n' "$S4" | tr '\n' ' ' | tr -s ' ' |
    sed -n 's|.*Set the folder loyalty-pos/data/ to \([0-7]\{3\}\).*|\1|p')
is "$M_DATA" 777 "INSTALL step 4 b: data/ to 777 where the web server's user runs the programs"
[ -n "$M_DATA" ] || bail "INSTALL's step 4 b is no longer as this test reads it"
# The page's words INSTALL quotes: the page has each (owner.html,
# owner/*.js, its English catalog i18n/en.json); case b's is the
# service's own message (below).
bad=
for t in 'Set up your shop' "The shop's programs did not answer" 'No connection to the server' \
    'Download the proof file' 'Create my shop' "Your shop's data is not private on this host"; do
	tr '\n' ' ' <"$INSTALL" | tr -s ' ' | grep -qF "\"$t" || bad="$bad [INSTALL: $t]"
	cat "$BUNDLE_SITE/owner.html" "$BUNDLE_SITE"/owner/*.js \
	    "$BUNDLE_SITE/i18n/en.json" | sed "s/\\\\'/'/g" |
	    grep -qF "$t" || bad="$bad [page: $t]"
done
is "$bad" "" "INSTALL quotes the page's words (steps 4 and 5, After setup), and the page has each"
B_TEXT=$(printf '%s\n' "$S4" | tr '\n' ' ' | tr -s ' ' | sed -n 's|.*b) "\([^"]*\)".*|\1|p')
like "$B_TEXT" '^The database cannot be used: \.\.\. ' "INSTALL step 4 b quotes the message (\"$B_TEXT\")"
# As a regular expression, its "..." anything.
B_RE=$(printf '%s' "$B_TEXT" | sed -e 's/[][\.*^$()+?{}|]/\\&/g' -e 's/\\\.\\\.\\\./.*/g')
CODE_FILE=$(printf '%s\n' "$S5" | tr '\n' ' ' | tr -s ' ' |
    sed -n 's|.*download the file \(data/[A-Za-z0-9._-]*\) .*|\1|p')
is "$CODE_FILE" data/loyalty.db.setup-code "INSTALL step 5: the setup code is in data/loyalty.db.setup-code"
ok "INSTALL, Starting over: delete every file in loyalty-pos/data/ whose name begins with loyalty.db" \
    sh -c 'tr "\n" " " <"$1" | tr -s " " | grep -q "every file in loyalty-pos/data/ whose name begins with loyalty\.db"' _ "$INSTALL"

# Restoring a backup: "under a new name, say restored.db", "database =
# ../data/restored.db", "Set the uploaded file to 600 first", "(case b),
# to 666".
S_RESTORE=$(awk '/^Restoring a backup/ { on = 1; next } on && /^[A-Z]/ { exit } on' "$INSTALL" |
    tr '\n' ' ' | tr -s ' ')
RESTORED=$(printf '%s' "$S_RESTORE" | sed -n 's|.*under a new name, say \([A-Za-z0-9_.-]*\.db\)[,. ].*|\1|p')
RESTORE_LINE=$(printf '%s' "$S_RESTORE" | sed -n "s|.*\(database = \.\./data/$RESTORED\).*|\1|p")
M_OWN=$(printf '%s' "$S_RESTORE" | sed -n 's|.*Set the uploaded file to \([0-7]\{3\}\) first.*|\1|p')
M_RESTORED=$(printf '%s' "$S_RESTORE" | sed -n 's|.*case b), to \([0-7]\{3\}\).*|\1|p')
is "$RESTORED|$RESTORE_LINE|$M_OWN|$M_RESTORED" "restored.db|database = ../data/restored.db|600|666" \
    "INSTALL, Restoring a backup: uploaded as data/restored.db (600, or 666 in case b), loyalty.conf's database = ../data/restored.db"
[ -n "$RESTORED" ] && [ -n "$RESTORE_LINE" ] && [ -n "$M_OWN" ] && [ -n "$M_RESTORED" ] ||
    bail "INSTALL's Restoring a backup is no longer as this test reads it"
# The deliverer's cron job: "* * * * *" and the command, with the paths
# of a shop uploaded as step 2 says (in loyalty-pos/).
S_CRON=$(awk '/^Webhooks: the deliverer/ { on = 1; next } on && /^[A-Z]/ { exit } on' "$INSTALL")
CRON_CMD=$(printf '%s\n' "$S_CRON" | sed -n 's|^ *\(/home/USER/loyalty-admin .* events deliver.*\)$|\1|p')
is "$(printf '%s\n' "$S_CRON" | grep -c '^ *\* \* \* \* \*$')|$CRON_CMD" \
    "1|/home/USER/loyalty-admin --db /home/USER/public_html/loyalty-pos/data/loyalty.db events deliver >/dev/null" \
    "INSTALL, Webhooks: cPanel's Cron Jobs, * * * * * and loyalty-admin events deliver on the shop's database, from the home folder"
# What the error log may hold of a walk: step 4 b's refusal, the starting
# over.
LOG_OK='cannot be used: the file does not exist, and its folder is not writable\|CONFIGURATION_ERROR (The database cannot be used: the file does not exist, and its folder is not writable\|was removed or replaced since this process opened it: opening it again'

# The programs for the other kind of machine: the aarch64 bundle's; where
# there is none, or the kernel would run them anyway (qemu registered with
# binfmt_misc), programs whose ELF header names no machine.
OTHER=$H/aarch64/programs
mkdir -p "$OTHER"
erase=0
if [ -f "$A_ZIP" ] && unzip -q "$A_ZIP" -d "$H/aarch64" &&
    cp "$H"/aarch64/loyalty-pos-*-linux-aarch64/loyalty-pos/"$R"/*.fcgi "$OTHER/"; then
	OTHER_WHAT="the aarch64 bundle's programs"
	if grep -qs '^enabled' /proc/sys/fs/binfmt_misc/qemu-aarch64; then
		erase=1
		OTHER_WHAT="$OTHER_WHAT, their ELF machine erased (binfmt_misc runs aarch64 here)"
	fi
else
	cp "$BUNDLE_SITE/$R"/*.fcgi "$OTHER/"
	erase=1
	OTHER_WHAT="the x86_64 programs with their ELF machine erased (no aarch64 bundle)"
fi
if [ "$erase" -eq 1 ]; then
	for f in "$OTHER"/*.fcgi; do
		printf '\000\000' | dd of="$f" bs=1 seek=18 conv=notrunc status=none
	done
fi
chmod 644 "$OTHER"/*.fcgi

# --- the host -------------------------------------------------------------------

U=lcwalk$$
O=lcwother$$
hl_user "$U" "$H/home/$U"
hl_user "$O" "$H/home/$O"
# Each site's web space, the site's user's, with the host's own page.
for d in fcgid-root fcgid-sub cgi-sub suexec-vhost home/$U; do
	mkdir -p "$H/$d/public_html"
	printf '<!doctype html><title>Welcome</title><p>HOST-PLACEHOLDER-PAGE\n' >"$H/$d/public_html/index.html"
	chown -R "$U:$U" "$H/$d"
	chmod 755 "$H/$d" "$H/$d/public_html"
	chmod 644 "$H/$d/public_html/index.html"
done

servers_conf() {
	hl_ports P_FROOT P_FSUB P_CSUB P_SVH P_SUD
	HL_F_PORTS="$P_FROOT $P_FSUB"
	HL_C_PORTS=$P_CSUB
	[ "$HL_HAVE_SUEXEC" -eq 1 ] && HL_C_PORTS="$HL_C_PORTS $P_SVH $P_SUD"
	{
		hl_fcgid_conf "$H/apache-f"
		hl_site_conf "$P_FROOT" "$H/fcgid-root/public_html" All
		hl_site_conf "$P_FSUB" "$H/fcgid-sub/public_html" "FileInfo Options"
	} >"$H/apache-f/httpd.conf.tmp"
	mv "$H/apache-f/httpd.conf.tmp" "$H/apache-f/httpd.conf"
	{
		hl_cgi_conf "$H/apache-c"
		hl_site_conf "$P_CSUB" "$H/cgi-sub/public_html" All
		if [ "$HL_HAVE_SUEXEC" -eq 1 ]; then
			hl_site_conf "$P_SVH" "$H/suexec-vhost/public_html" All "SuexecUserGroup $U $U"
			hl_userdir_conf "$P_SUD"
		fi
	} >"$H/apache-c/httpd.conf.tmp"
	mv "$H/apache-c/httpd.conf.tmp" "$H/apache-c/httpd.conf"
}
mkdir -p "$H/apache-f" "$H/apache-c"
hl_servers servers_conf
AP_F=$HL_AP_F AP_C=$HL_AP_C
like "$AP_F" '^[0-9]+$' "Apache with mod_fcgid starts (the web server's user runs every site)"
like "$AP_C" '^[0-9]+$' "Apache with mod_cgi starts"

# --- the shopkeeper's steps -------------------------------------------------------

# as_site CMD...: CMD as the site's user (an FTP program, the host's file
# manager).
as_site() {
	runuser -u "$U" -- "$@"
}

# upload SRC DEST: step 2, SRC's files (the hidden .htaccess too) into
# DEST as an FTP program uploads them: the site's user's, folders 755,
# every file 644 (the programs too: some FTP programs lose their mode).
upload() {
	as_site sh -c 'umask 022 && mkdir -p "$2" && cp -R "$1/." "$2/" &&
	    cd "$2" && find . -type d -exec chmod 755 {} + &&
	    find . -type f -exec chmod 644 {} +' _ "$1" "$2"
}

# step3 SITE: the permissions as INSTALL's step 3 reads, by the site's
# user.
step3() {
	as_site sh -c 'find "$1" -type d -exec chmod "$2" {} +
	    find "$1" -type f -exec chmod "$3" {} +
	    chmod "$4" "$1/$5"/*.fcgi' _ "$1" "$M_DIR" "$M_FILE" "$M_PROG" "$R"
}

# open_page: step 4, owner.html opened: the page, then its first request
# (owner/session.js: GET api/v1/setup beside the page), whose answer is left in
# LT_STATUS and LT_BODY. PAGE_OK: the page itself came (200, HTML).
# open_page [SECONDS]: the owner's page and its first request, given up
# after SECONDS (30 unless told).
open_page() {
	lt_req GET /owner.html
	PAGE_OK=0
	[ "$LT_STATUS" = 200 ] && [[ $LT_BODY == *'<script type="module" src="owner/main.js"'* ]] && PAGE_OK=1
	lt_req GET /api/v1/setup "" --max-time "${1:-30}"
}

# served: the answer is the service's own (owner/net.js: JSON with an
# X-Request-Id), not the web server's in its place.
served() {
	[ -n "$(lt_header X-Request-Id)" ] && [ -n "$(lt_jq .success)" ]
}

# warnings: the hosting warnings of the last answer, sorted, one line.
warnings() {
	lt_jq '.data.hosting.warnings | if type == "array" then sort | join(" ") else "none: \(.)" end'
}

# setup_json KEY VALUE NAME EMAIL: step 5's form.
setup_json() {
	jq -cn --arg k "$1" --arg s "$2" --arg n "$3" --arg e "$4" '{($k): $s,
	    merchant_name: "Corner Cafe", location_name: "High Street",
	    owner_name: $n, owner_email: $e, owner_password: "a long password"}'
}

# prove SITE KIND: step 5 with the answer to the last GET setup: the
# proof file uploaded (KIND shared) or the code read (own); sets PROOF
# (KEY VALUE of the form) and PROOF_FILE.
prove() {
	local secret file
	PROOF_FILE=
	if [ "$2" = shared ]; then
		secret=$(lt_jq .data.proof.secret) file=$(lt_jq .data.proof.file)
		PROOF_FILE=$1/$(lt_jq .data.proof.folder)/$file
		# "Download the proof file", then uploaded under its name.
		printf '%s\r\n' "$PROOF_TEXT" \
		    "Upload it into the folder $R/ of the shop, beside the programs." \
		    'You may delete it once your shop is set up.' >"$H/download.txt"
		chmod 644 "$H/download.txt"
		as_site sh -c 'umask 022 && cp "$1" "$2"' _ "$H/download.txt" "$PROOF_FILE"
		PROOF="setup_proof $secret"
		PROOF_WAY="the proof file"
	else
		PROOF="setup_code $(as_site cat "$1/$CODE_FILE" 2>/dev/null)"
		PROOF_WAY="the setup code (read as the site's user)"
	fi
}

# spellings PATH: the ways to ask for PATH (of the site), one a line,
# each after a tag: "reach" when it names PATH as plainly (as written,
# through ./ and ../, percent-encoded, with //, with a query), "other"
# when Apache should find no such file (a trailing slash, a path info
# ending in .fcgi, a NUL, a space, an encoded slash).
spellings() {
	local p=$1 dir='' base=$1
	[[ $p == */* ]] && dir=${p%/*}/ base=${p##*/}
	printf 'reach %s\n' "$p" "./$p" "$R/../$p" "nothere/../$p" "nothere/%2e%2e/$p" "$p?x=1"
	printf 'other %s\n' "$p%20"
	[ -n "$base" ] || return 0
	printf 'reach %s\n' "$dir$(printf '%%%02x' "'${base:0:1}")${base:1}"
	[[ $base == ?*.* ]] && printf 'reach %s\n' "$dir${base%.*}%2e${base##*.}"
	[ -n "$dir" ] && printf 'reach %s\n' "${dir%/}//$base"
	printf 'other %s\n' "$p/" "$p/x.fcgi" "$p%00"
	[ -n "$dir" ] && printf 'other %s\n' "${dir%/}%2f$base"
	return 0
}

# get SPELLING: its status, the body in LT_DIR/ref.body.
get() {
	curl -s -g --path-as-is -o "$LT_DIR/ref.body" -w '%{http_code}' --max-time 30 \
	    "$LT_URL/$1" || echo 000
}

# refused SECRET... -- PATH...: every spelling of each PATH is refused
# (403 or 404; 400 where Apache finds the request itself bad), and no
# answer holds a SECRET. Sets REFUSED_BAD, REFUSED_N.
refused() {
	local secrets=() p f q s tag
	while [ $# -gt 0 ] && [ "$1" != -- ]; do secrets+=("$1"); shift; done
	shift
	REFUSED_BAD= REFUSED_N=0
	for p in "$@"; do
		while read -r tag f; do
			REFUSED_N=$((REFUSED_N + 1))
			q=$(get "$f")
			case $q in 403 | 404 | 400) ;; *) REFUSED_BAD="$REFUSED_BAD /$f:$q" ;; esac
			for s in 'SQLite format 3' 'database =' RewriteRule "$PROOF_TEXT" \
			    "${secrets[@]}"; do
				[ -n "$s" ] && grep -qaF -- "$s" "$LT_DIR/ref.body" &&
				    REFUSED_BAD="$REFUSED_BAD /$f:content"
			done
		done < <(spellings "$p")
	done
	return 0
}

# reached PATH: the spellings of a file the site serves that name it
# plainly each bring it (200, its bytes): those refused above were
# refused for what they name, not for how they are spelt.
reached() {
	local tag f bad=
	while read -r tag f; do
		[ "$tag" = reach ] || continue
		[ "$(get "$f")" = 200 ] && cmp -s "$LT_DIR/ref.body" "$2/$1" || bad="$bad /$f"
	done < <(spellings "$1")
	printf '%s' "$bad"
}

# walk VARIANT URL SITE shared|own LOG: INSTALL from step 3 on (the upload
# is the caller's), then starting over, then the programs of another
# machine; LOG is the server's error log.
walk() {
	local v=$1 site=$3 kind=$4 log=$5 want log0 n0 pids p f i alive code1 \
	    code2 scode token1 old_proof made loc m
	LT_URL=$2 LT_TOKEN=
	log0=$(grep -c 'loyalty: ' "$log")
	# Case c's first cause: the programs as some FTP programs upload
	# them, 644. Not under mod_fcgid: a failed start there holds the
	# next ones of that program back for seconds.
	if [ "$v" = "${v#fcgid}" ]; then
		open_page
		is "$PAGE_OK $LT_STATUS $(lt_jq .error.code)|$(lt_header X-Request-Id)" "1 500 INTERNAL_ERROR|" \
		    "$v: step 4 before step 3 (the programs 644, as uploaded): Apache's 500, no X-Request-Id: \"The shop's programs did not answer\""
	fi
	step3 "$site"
	is "$(stat -c %a "$site/$R/setup.fcgi") $(stat -c %a "$site/$R") $(stat -c %a "$site/owner.html") $(stat -c %U "$site/$R/loyalty.conf")" \
	    "755 755 644 $U" "$v: step 3: the programs 755, the folders 755, the other files 644, all the site user's"

	# Step 4.
	open_page
	if [ "$kind" = shared ]; then
		is "$PAGE_OK $LT_STATUS $(lt_jq .error.code)" "1 500 CONFIGURATION_ERROR" \
		    "$v: step 4, the page opened before data/ is writable: CONFIGURATION_ERROR"
		like "$(lt_jq .error.message)" "$B_RE" "$v: ... with the message case b quotes"
		ok "$v: ... the service's own answer (X-Request-Id): the page shows it, not 'did not answer'" served
		is "$(ls -A "$site/data")" "" "$v: ... and nothing was made in data/"
		# Step 4 b, by the site's user (its file manager).
		as_site chmod "$M_DATA" "$site/data"
		open_page
	fi
	f="step 4"
	[ "$kind" = shared ] && f="step 4 b, the page reloaded"
	is "$PAGE_OK $LT_STATUS $(lt_jq .data.setup_needed)" "1 200 true" \
	    "$v: $f: the page, and case a: \"Set up your shop\""
	if [ "$kind" = shared ]; then
		want='data_folder_writable_by_all shared_web_user'
		is "$(warnings)" "$want" "$v: ... with the warnings of a host that runs every site as one user"
		like "$(lt_jq .data.proof.file)/$(lt_jq .data.proof.folder)" "^loyalty-setup-[a-z2-7]{24}\\.txt/$R\$" \
		    "$v: ... and the proof file's way (the page's first, on such a host)"
		# (Or none at all: no use to the owner on such a host.)
		like "$(stat -c %U:%a "$site/$CODE_FILE" 2>/dev/null || echo none)|$(as_site cat "$site/$CODE_FILE" 2>/dev/null)" \
		    '^(www-data:600|none)\|$' "$v: the setup code's file, if any, is the web server's, mode 600: no FTP program reads it"
	else
		want=
		is "$(warnings)" "" "$v: ... no warning: the programs run as the site's user"
		is "$(lt_jq .data.code_file)" "${CODE_FILE#data/}" "$v: ... and the setup code's file, as INSTALL names it"
		is "$(stat -c %U:%a "$site/$CODE_FILE" 2>/dev/null)" "$U:600" \
		    "$v: the setup code's file is the site user's, mode 600: its FTP program reads it"
	fi

	# Step 5.
	prove "$site" "$kind"
	code1=$(cat "$site/$CODE_FILE" 2>/dev/null)
	lt_req POST /api/v1/setup "$(setup_json "${PROOF% *}" "${PROOF#* }" Olive olive@cafe.example)"
	is "$LT_STATUS $(lt_jq .data.user.user_type)" "200 owner" \
	    "$v: step 5: \"Create my shop\" with $PROOF_WAY makes the owner"
	old_proof=$PROOF_FILE
	ok "$v: the owner logs in" lt_login olive@cafe.example "a long password"
	token1=$LT_TOKEN
	lt_req GET /api/v1/admin/settings
	is "$LT_STATUS $(warnings)" "200 $want" "$v: the back office shows the same warnings (After setup)"
	LT_TOKEN=

	# Starting over: data/loyalty.db* deleted as the site's user (its FTP
	# program), the page opened again.
	pids=$(pgrep -f "^$site/$R/setup\\.fcgi" | tr '\n' ' ')
	n0=$(grep -c 'was removed or replaced since this process opened it' "$log")
	as_site sh -c 'rm -f -- "$1"/loyalty.db*' _ "$site/data"
	f=
	[ "$kind" = shared ] && f=" (the web server's files too: data/ is 777)"
	is "$(ls -A "$site/data")" "" "$v: Starting over: the site's user deletes data/loyalty.db*$f"
	open_page
	is "$PAGE_OK $LT_STATUS $(lt_jq .data.setup_needed)" "1 200 true" "$v: ... and the page asks for a new setup"
	code2=$(cat "$site/$CODE_FILE" 2>/dev/null)
	if [ "$kind" = shared ]; then
		# A new proof, and a new code where the service writes one.
		is "$([ "$(lt_jq .data.proof.file)" != "${old_proof##*/}" ] && echo new)|$([ -z "$code2" ] ||
		    [ "$code2" != "$code1" ] && echo new)" "new|new" \
		    "$v: ... a new one: a new proof file's name (and code, if any)"
	else
		like "$code2|$([ "$code2" != "$code1" ] && echo new)" '^[A-Z0-9]{20}\|new$' \
		    "$v: ... a new one: a new setup code in data/"
	fi
	if [ "$v" != "${v#fcgid}" ]; then
		alive=
		for p in $pids; do lc_alive "$p" && alive="$alive $p"; done
		ok "$v: ... answered by mod_fcgid's setup process that had the old file open (still running:${alive:- none})" \
		    test -n "$alive" -a -n "$pids"
		ok "$v: ... which said so in the error log (removed or replaced: opening it again)" \
		    test "$(grep -c 'was removed or replaced since this process opened it' "$log")" -gt "$n0"
	fi
	# While the new code's file is there: it and the rest never served.
	refused "$code2" -- "$CODE_FILE" data/loyalty.db data/loyalty.db-wal data/loyalty.db-shm
	is "$REFUSED_BAD" "" "$v: the new setup code's file and database: $REFUSED_N requests, each spelling refused (403/404/400), nothing of them in an answer"
	is "$(as_site cat "$site/$CODE_FILE" 2>/dev/null | tr -d '\n' | wc -c)|$(runuser -u "$O" -- cat "$site/$CODE_FILE" 2>/dev/null)" \
	    "$([ "$kind" = own ] && echo 20 || echo 0)|" \
	    "$v: another account cannot read the code either; the site's user $([ "$kind" = own ] && echo can || echo cannot)"
	prove "$site" "$kind"
	lt_req POST /api/v1/setup "$(setup_json "${PROOF% *}" "${PROOF#* }" Nina nina@shop.example)"
	is "$LT_STATUS $(lt_jq .data.user.user_type)" "200 owner" "$v: the second setup makes the new owner"
	loc=$(lt_jq .data.location.id)
	ok "$v: the new owner logs in" lt_login nina@shop.example "a long password"
	LT_TOKEN=
	lt_req POST /api/v1/auth/login '{"email":"olive@cafe.example","password":"a long password"}'
	is "$LT_STATUS" 401 "$v: the first shop's owner no longer logs in (401)"
	LT_TOKEN=$token1
	lt_req GET /api/v1/auth/me
	is "$LT_STATUS" 401 "$v: ... nor does the first shop's session go on (401)"
	LT_TOKEN=
	if [ "$kind" = shared ]; then
		ok "$v: the first proof file is still in $R/ (the web server's user cannot delete it)" \
		    test -f "$old_proof"
		is "$(ls "$site/$R" | grep -c '^loyalty-setup-')" 2 "$v: ... beside the second one"
	else
		ok "$v: no proof file was needed: $R/ holds the programs and loyalty.conf only" \
		    test -z "$(ls "$site/$R" | grep -v '\.fcgi$' | grep -vx loyalty.conf)"
	fi

	# Reads nothing secret: the database with its -wal, -shm and -queue
	# (the day's writes made them), copies of them and of the setup
	# code in the site's folder (a careless upload), loyalty.conf and
	# what an editor leaves beside it, the proof files, .htaccess, and
	# INSTALL and the admin tool, uploaded by mistake with them.
	ok "$v: the day's files are there: data/loyalty.db and the writers' -queue" \
	    test -s "$site/data/loyalty.db" -a -e "$site/data/loyalty.db-queue"
	# The -wal and -shm stay while a process has the database open
	# (FastCGI); the last one to close it removes them (CGI). Where
	# they are not, copies of the database stand in for them, for the
	# requests below only (none of which reaches the service).
	made=
	for f in loyalty.db-wal loyalty.db-shm; do
		[ -e "$site/data/$f" ] && continue
		cp -p "$site/data/loyalty.db" "$site/data/$f"
		made="$made $site/data/$f"
	done
	for p in loyalty.db loyalty.db-queue loyalty.db-mj1a2b3c4d; do
		as_site cp "$site/data/${p%-mj*}" "$site/$p" 2>/dev/null ||
		    as_site sh -c 'echo "SQLite format 3" >"$1"' _ "$site/$p"
	done
	# The code (one of the right form where the host gave none), and a
	# proof file where none was needed.
	scode=${code2:-ABCDEFGHJKLMNPQRSTUV}
	printf '%s\n' "$scode" >"$H/code.txt"
	chmod 644 "$H/code.txt"
	as_site cp "$H/code.txt" "$site/loyalty.db.setup-code"
	as_site cp "$H/code.txt" "$site/loyalty.db.setup-code.1234.tmp"
	[ "$kind" = shared ] || as_site sh -c 'printf "%s\r\n" "$1" >"$2"' _ "$PROOF_TEXT" \
	    "$site/$R/loyalty-setup-aaaaaaaaaaaaaaaaaaaaaaaa.txt"
	as_site cp "$site/$R/loyalty.conf" "$site/$R/loyalty.conf~"
	as_site cp "$site/$R/loyalty.conf" "$site/$R/loyalty.conf.bak"
	as_site cp "$site/$R/loyalty.conf" "$site/$R/.loyalty.conf.swp"
	as_site cp "$INSTALL" "$site/INSTALL"
	as_site mkdir -p "$site/admin"
	as_site cp "$TOP/admin/loyalty-admin" "$site/admin/loyalty-admin"
	refused "$scode" -- data/loyalty.db data/loyalty.db-wal data/loyalty.db-shm data/loyalty.db-queue \
	    data/loyalty.db-journal data/ data loyalty.db loyalty.db-queue loyalty.db-mj1a2b3c4d \
	    loyalty.db.setup-code loyalty.db.setup-code.1234.tmp \
	    "$R/loyalty.conf" "$R/loyalty.conf~" "$R/loyalty.conf.bak" "$R/.loyalty.conf.swp" "$R/" \
	    $(cd "$site" && ls -d "$R"/loyalty-setup-*.txt 2>/dev/null) .htaccess
	# shellcheck disable=SC2086
	[ -n "$made" ] && rm -f $made
	rm -f "$site/$R/loyalty-setup-aaaaaaaaaaaaaaaaaaaaaaaa.txt"
	is "$(reached js/money.js "$site")" "" "$v: those spellings of js/money.js bring it: they reach the site's files"
	is "$REFUSED_BAD" "" "$v: reads nothing secret: $REFUSED_N requests (the database, -wal, -shm, -queue, copies and a journal, the setup code and its temporary file, loyalty.conf and an editor's copies, the proof files, .htaccess; each percent-encoded, through ./ and ../, with // and more), each refused"
	lt_req GET /INSTALL
	f=$LT_STATUS
	lt_req GET /admin/loyalty-admin 2>/dev/null
	is "$f $LT_STATUS" "403 403" "$v: INSTALL and admin/loyalty-admin uploaded into the site by mistake are refused"
	as_site rm -rf "$site/INSTALL" "$site/admin"

	# Another account of the server reads nothing of the shop's; what it
	# may do on a host that runs every site as the web server's user is
	# what the warnings say.
	is "$(for f in loyalty.db loyalty.db-wal loyalty.db-shm; do
		runuser -u "$O" -- head -c 1 "$site/data/$f" 2>/dev/null | wc -c
	    done | tr -d ' \n')|$(stat -c %a "$site/data/loyalty.db")" 000\|640 \
	    "$v: another account cannot read the database (mode 640), nor its -wal or -shm where they are"
	if [ "$kind" = shared ]; then
		ok "$v: ... but may put files into data/ (777), as data_folder_writable_by_all warns" \
		    runuser -u "$O" -- sh -c 'echo x >"$1" && rm "$1"' _ "$site/data/other-account-was-here"
		ok "$v: ... and every site's programs (the web server's user) read the database, as shared_web_user warns" \
		    sh -c 'runuser -u www-data -- head -c 15 "$1" | grep -q "SQLite format 3"' _ "$site/data/loyalty.db"
	else
		is "$(runuser -u "$O" -- sh -c 'echo x >"$1"' _ "$site/data/other-account-was-here" 2>/dev/null; ls "$site/data" | grep -c other-account)" 0 \
		    "$v: ... nor put a file into data/"
		is "$(runuser -u www-data -- head -c 1 "$site/data/loyalty.db" 2>/dev/null | wc -c | tr -d ' ')" 0 \
		    "$v: ... nor can the web server's user (every other site's programs)"
	fi

	# Restoring a backup, as INSTALL says: the back office's backup
	# (a till login is added after it), uploaded into data/ under a new
	# name (set to what INSTALL says where the programs run as the web
	# server's user), loyalty.conf's "database =" changed to it; under
	# FastCGI it counts once the running programs end (the test ends
	# them, as the host would within minutes).
	lt_login nina@shop.example "a long password"
	lt_req GET /api/v1/admin/backup 2>/dev/null	# binary: bash warns of its NULs
	cp "$LT_DIR/resp.body" "$H/backup.db" && chmod 644 "$H/backup.db"
	is "$LT_STATUS $(head -c 15 "$H/backup.db")" "200 SQLite format 3" "$v: Restoring a backup: the back office's backup"
	lt_req POST /api/v1/admin/users "$(jq -cn --arg l "$loc" '{email: "after@shop.example",
	    password: "after the backup", user_type: "system_user", location_id: $l}')"
	LT_TOKEN=
	as_site sh -c 'umask 022 && cp "$1" "$2"' _ "$H/backup.db" "$site/data/$RESTORED"
	m=$([ "$kind" = shared ] && echo "$M_RESTORED" || echo "$M_OWN")
	as_site chmod "$m" "$site/data/$RESTORED"
	as_site sed -i "s|^database = .*|$RESTORE_LINE|" "$site/$R/loyalty.conf"
	is "$(grep -c "^$RESTORE_LINE\$" "$site/$R/loyalty.conf")|$(stat -c %U:%a "$site/data/$RESTORED")" \
	    "1|$U:$m" \
	    "$v: ... uploaded as data/$RESTORED, set to $m, loyalty.conf's line: $RESTORE_LINE"
	pids=$(pgrep -f "^$site/$R/" | tr '\n' ' ')
	if [ -n "$pids" ]; then
		# shellcheck disable=SC2086
		kill -TERM $pids 2>/dev/null
		for i in $(seq 1 100); do
			alive=
			for p in $pids; do lc_alive "$p" && alive=1; done
			[ -z "$alive" ] && break
			sleep 0.1
		done
	fi
	ok "$v: ... the shop works from it: its owner logs in" lt_login nina@shop.example "a long password"
	lt_req GET /api/v1/admin/settings
	f=$(warnings)
	LT_TOKEN=
	lt_req POST /api/v1/auth/login '{"email":"after@shop.example","password":"after the backup"}'
	is "$LT_STATUS" 401 "$v: ... as it was at the backup (the till login added after it is not there)"
	# The page warns of the restored file exactly as far as the server's
	# other accounts can read it.
	p=no
	runuser -u "$O" -- head -c 1 "$site/data/$RESTORED" >/dev/null 2>&1 && p=yes
	is "$p $f" "$p $( { for i in $want; do echo "$i"; done; [ "$p" = yes ] && echo database_readable_by_all; } |
	    LC_ALL=C sort | paste -sd ' ')" \
	    "$v: ... another account $([ "$p" = yes ] && echo can || echo cannot) read it (mode $(stat -c %a "$site/data/$RESTORED")), and the back office's warnings say $([ "$p" = yes ] && echo so || echo nothing of it)"
	is "$(grep 'loyalty: ' "$log" | tail -n "+$((log0 + 1))" | grep -v -e "$LOG_OK" | head -n 3)" "" \
	    "$v: the error log holds nothing but what step 4 b fixed and the starting over"

	# Step 4 c: the programs of the other kind of machine, uploaded over
	# these (deleted first, as FTP replaces a file), set to 755 (step 3).
	# ("A new version": the programs to 755 again.)
	as_site sh -c 'rm -f -- "$1"/*.fcgi && cp "$2"/*.fcgi "$1"/ && chmod "$3" "$1"/*.fcgi' \
	    _ "$site/$R" "$OTHER" "$M_PROG"
	is "$(stat -c %a "$site/$R/setup.fcgi")|$(cmp -s "$site/$R/setup.fcgi" "$OTHER/setup.fcgi" && echo same)" \
	    "755|same" "$v: the other machine's programs are in $R/, 755"
	# mod_fcgid answers 500 only once it has given up starting the
	# program: rounds of a spawn, a second's wait and a connect
	# (fcgid_bridge.c), past the usual 30 s on a busy machine.
	open_page 180
	is "$PAGE_OK $LT_STATUS $(lt_jq .error.code) $(lt_header Content-Type)" \
	    "1 500 INTERNAL_ERROR application/json; charset=utf-8" \
	    "$v: case c, $OTHER_WHAT: the page comes, its first request gets Apache's 500 as JSON (.htaccess's ErrorDocument)"
	is "$(lt_header X-Request-Id)|$(lt_jq .error.message)" "|The shop's programs did not answer. If it stays so, the owner's page owner.html says why." \
	    "$v: ... without the service's X-Request-Id: the page says \"The shop's programs did not answer\""
}

# --- the variants -------------------------------------------------------------

if [ -n "$AP_F" ]; then
	# Step 2 at the site's root: what is inside loyalty-pos/ into
	# public_html/ itself, over the host's index.html.
	upload "$BUNDLE_SITE" "$H/fcgid-root/public_html"
	LT_URL=http://127.0.0.1:$P_FROOT
	lt_req GET /
	is "$LT_STATUS $(grep -c HOST-PLACEHOLDER-PAGE <<<"$LT_BODY")" "200 0" \
	    "fcgid-root: step 2 at the site's root: the till's page replaced the host's index.html"
	ok "fcgid-root: ... and the hidden .htaccess came along" test -f "$H/fcgid-root/public_html/.htaccess"
	walk fcgid-root "http://127.0.0.1:$P_FROOT" "$H/fcgid-root/public_html" shared "$H/apache-f/error.log"
	upload "$BUNDLE_SITE" "$H/fcgid-sub/public_html/loyalty-pos"
	walk fcgid-sub "http://127.0.0.1:$P_FSUB/loyalty-pos" "$H/fcgid-sub/public_html/loyalty-pos" shared \
	    "$H/apache-f/error.log"
else
	skip $((2 + 2 * WALK_FCGID_POINTS)) "Apache with mod_fcgid did not start"
fi
if [ -n "$AP_C" ]; then
	upload "$BUNDLE_SITE" "$H/cgi-sub/public_html/loyalty-pos"
	walk cgi-sub "http://127.0.0.1:$P_CSUB/loyalty-pos" "$H/cgi-sub/public_html/loyalty-pos" shared \
	    "$H/apache-c/error.log"
else
	skip "$WALK_CGI_POINTS" "Apache with mod_cgi did not start"
fi
if [ -n "$AP_C" ] && [ "$HL_HAVE_SUEXEC" -eq 1 ]; then
	upload "$BUNDLE_SITE" "$H/suexec-vhost/public_html/loyalty-pos"
	walk suexec-vhost "http://127.0.0.1:$P_SVH/loyalty-pos" "$H/suexec-vhost/public_html/loyalty-pos" own \
	    "$H/apache-c/error.log"
	upload "$BUNDLE_SITE" "$H/home/$U/public_html/loyalty-pos"
	walk suexec-userdir "http://127.0.0.1:$P_SUD/~$U/loyalty-pos" "$H/home/$U/public_html/loyalty-pos" own \
	    "$H/apache-c/error.log"
	# The deliverer as INSTALL sets it up: loyalty-admin into the home
	# folder (755), the cron line's command run as cron runs it (sh, the
	# site's user), on the shop's database; nothing on stderr (which
	# cron would mail every minute).
	if "$TOP/admin/loyalty-admin" help 2>&1 | grep -q 'events deliver'; then
		as_site sh -c 'umask 022 && cp "$1" "$2" && chmod "$3" "$2"' _ \
		    "$TOP/admin/loyalty-admin" "$H/home/$U/loyalty-admin" "$M_PROG"
		c=${CRON_CMD//\/home\/USER/$H/home/$U}
		as_site sh -c "$c" 2>"$H/cron.err"
		is "$?|$(head -c 300 "$H/cron.err")" "0|" \
		    "suexec-userdir: INSTALL's cron command runs as the site's user (events deliver on the shop's database), silent"
	else
		skip 1 "this tree's loyalty-admin has no 'events deliver' yet"
	fi
else
	skip $((2 * WALK_SUEXEC_POINTS + 1)) "suEXEC is not there (apache2-suexec-pristine) or Apache with mod_cgi did not start"
fi

is "$(cat "$H"/apache-?/error.log | grep -E 'AddressSanitizer|LeakSanitizer|runtime error:|child (pid [0-9]+ )?exit signal|Segmentation' | head -n 3)" "" \
    "no sanitizer report or crashed responder in the servers' logs"

done_testing
