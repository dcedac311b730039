#!/usr/bin/env bash
# The database deleted or replaced under running FastCGI processes, as a
# shopkeeper starting over does over FTP (docs/deployment.md, "Starting over"), through
# the real HTTP server: lighttpd with every responder, run from a folder of
# the test's own (api-bin/, the account's alone, as on a host with
# suEXEC), on a new SQLite installation. One process a responder, so that
# every request of a kind reaches the process that had the old file open:
# no point depends on which process lighttpd picks, none on time.
#
#  1. The shop set up with the code from the file beside the database
#     (mode 0600 under umask 022); its owner logs in; the endpoints of
#     round() below are used, so each of their processes has the file
#     open.
#  2. loyalty.db deleted while the processes keep running (they still
#     have it open): GET /setup is CONFIGURATION_ERROR while its -wal and
#     -shm are left, and makes no new file; once -wal, -shm and -queue
#     are deleted too, GET /setup says setup_needed and writes a NEW code
#     file; setup with it makes the second shop, whose owner logs in
#     while the first owner (password and token) gets 401. After requests to every endpoint, each process
#     has the new file open and none of the old ones (/proc/PID/fd), and
#     logged once that it opened the path again; the file at the path
#     holds the second shop (sqlite3), passes integrity_check, and its
#     -wal and -shm are still the files its setup made: no process that
#     closed the old file deleted the new one's by name. (SQLite itself
#     skips the checkpoint and the deletion on closing a file that was
#     moved or unlinked, where its VFS tells, as the unix one does; the
#     service also sets SQLITE_FCNTL_PERSIST_WAL on such a connection
#     before it closes it. This checks the outcome, whichever does it.)
#  3. A third database, made apart with loyalty-admin demo, renamed over
#     the path, the second shop's -wal and -shm deleted first (left in
#     place, the new file would be read through the old one's log; the
#     documented restore is another: a new name, and loyalty.conf's
#     database pointed at it): the same processes serve the demo shop,
#     and each has it open.
#  4. Deleted again, the shop set up the other way, by a proof file put
#     into the responders' folder: GET /setup offers it (folder api-bin,
#     another round than the second shop's database); the second shop's
#     proof, its file left in the folder, is no proof here; the POST is
#     403 on setup_proof while the file is missing, is a symbolic link, a
#     folder, or (as root) another user's, and while the folder may be
#     written by its group (GET then offers no proof, and
#     proof_unavailable says why); none of them a guess the setup's guard
#     keeps; with the file there, 200, and the service deletes it and the
#     code file.
#  5. What the host's layout lets others reach (hosting.warnings of
#     admin/settings): none here; a database folder others may write
#     (without the sticky bit) and a database others may read are told,
#     and (as root) programs of another user than the service's.
#
# The same processes serve it all (their pids do not change). SQLite
# only: a PostgreSQL database has no file to delete. TAP; run by `make
# check`, or by hand: tests/db_replaced.sh (after tools/check or a build
# in build/). LT_KEEP=1 keeps the temp folder.
set -u
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"

command -v jq >/dev/null || bail "jq is not installed (tools/check installs it)"
command -v curl >/dev/null || bail "curl is not installed (tools/check installs it)"
command -v sqlite3 >/dev/null || bail "sqlite3 is not installed (tools/check installs it)"
if [ "$LT_BACKEND" != sqlite ]; then
	echo "1..0 # SKIP SQLite only: a PostgreSQL database has no file to delete"
	exit 0
fi

# What a shop's files are made with where loyalty.conf sets no umask and
# the host's is the common one: the code must still be the service's alone.
umask 022
# One process a responder (see the top).
# shellcheck disable=SC2034 # LT_PROCS and LC_CGI_BINDIR: read by lib.sh
LT_PROCS=1
# A seed that creates nothing: the first request makes the database.
lt_start true
[ ! -e "$LT_DB" ] || bail "the seed command made $LT_DB"

# The responders from a folder of the test's own: where the proof file goes.
lt_own_responders
[ ! -e "$LT_DB" ] || bail "the server's start made $LT_DB"

LOG=$LT_DIR/lighttpd.log
ROUNDS=3	# requests of each kind a round

# The pids of the responders, as NAME:PID lines, sorted.
responders() {
	local p exe
	for p in $(lc_server_children); do
		exe=$(readlink "/proc/$p/exe" 2>/dev/null) || continue
		case $exe in "$RESP"/*.fcgi) exe=${exe##*/}; echo "${exe%.fcgi}:$p" ;; esac
	done | sort
}

# setup_body CODE_OR_PROOF_MEMBER SHOP EMAIL: the setup's JSON body.
setup_body() {
	jq -cn --argjson way "$1" --arg shop "$2" --arg email "$3" '$way + {
	    merchant_name: $shop, location_name: ($shop + " High Street"),
	    owner_name: ("Owner of " + $shop), owner_email: $email,
	    owner_password: ("password of " + $email)}'
}

# round TAG TOKEN EMAIL PASSWORD: ROUNDS requests to each endpoint an
# owner uses, writes among them (a location a time) and a login; prints
# each answer that was not the one expected, as "METHOD PATH: STATUS".
round() {
	local tag=$1 i m p want
	LT_TOKEN=$2
	for i in $(seq 1 $ROUNDS); do
		while read -r m p want; do
			case $m in
			POST) lt_req POST "$p" "$(jq -cn --arg n "$tag location $i" '{name: $n}')" ;;
			*) lt_req "$m" "$p" ;;
			esac
			[ "$LT_STATUS" = "$want" ] || echo "$m $p: $LT_STATUS $(lt_jq .error.code)"
		done <<EOF
GET /api/v1/auth/me 200
GET /api/v1/admin/settings 200
GET /api/v1/admin/locations 200
POST /api/v1/admin/locations 200
GET /api/v1/admin/users 200
GET /api/v1/admin/programs 200
GET /api/v1/admin/cards 200
GET /api/v1/admin/audit 200
GET /api/v1/admin/reports/summary?from=2026-01-01&to=2026-01-31 200
GET /api/v1/transactions/history?card_instance_id=00000000-0000-4000-8000-000000000000 404
GET /api/v1/setup 404
EOF
		lt_login "$3" "$4" || echo "login $3: $LT_STATUS"
		LT_TOKEN=$2
	done
	LT_TOKEN=
}

# The files of the database (it, its -wal, -shm and -queue) the
# responders have open, as PID:PATH lines, PATH ending in " (deleted)"
# where the file no longer has that name.
open_files() {
	local p f t
	for p in $(lc_server_children); do
		for f in /proc/"$p"/fd/*; do
			t=$(readlink "$f" 2>/dev/null) || continue
			case $t in "$LT_DB" | "$LT_DB "* | "$LT_DB-"*) echo "$p:$t" ;; esac
		done
	done | sort -u
}
# The pids that have the database itself open under its name.
holders() { open_files | sed -n "s|^\([0-9]*\):$LT_DB\$|\1|p" | tr '\n' ' '; }

# The dev:inode of a file, "none" when there is none.
ino() { stat -c %d:%i "$1" 2>/dev/null || echo none; }

# --- 1. the first shop, by the code --------------------------------------------

lt_req GET /api/v1/setup
is "$LT_STATUS:$(lt_jq .data.setup_needed):$(lt_jq .data.code_file)" \
    200:true:loyalty.db.setup-code "a new installation needs setup and names its code file"
is "$(lt_jq .data.proof.folder):$(lt_jq .data.hosting.warnings)" \
    "$LC_RESPONDER_DIR:[]" "... offers the proof way in $LC_RESPONDER_DIR/, and hosting has no warning"
CODE1=$(head -n 1 "$LT_DB.setup-code" 2>/dev/null)
like "$CODE1" '^[2-9A-HJKMNP-Z]{20}$' "the code file holds a 20-symbol code" ||
    bail "no setup code"
is "$(stat -c %a "$LT_DB.setup-code")" 600 "... readable by the service's user only, under umask 022"

lt_req POST /api/v1/setup "$(setup_body "{\"setup_code\":\"$CODE1\"}" "First Shop" first@shop.example)"
is "$LT_STATUS:$(lt_jq .data.merchant.name)" "200:First Shop" "setup with the code makes the first shop"
ok "... and deletes the code file" test ! -e "$LT_DB.setup-code"
ok "the first owner logs in" lt_login first@shop.example "password of first@shop.example"
TOKEN1=$LT_TOKEN
is "$(round first "$TOKEN1" first@shop.example "password of first@shop.example")" "" \
    "the first shop: every endpoint answers, $ROUNDS times each"
PIDS=$(responders)
is "$(printf '%s\n' "$PIDS" | grep -c '^setup:')" 1 "the responders run, setup's among them"
HOLD1=$(holders)
n=$(wc -w <<<"$HOLD1")
ok "$n processes have the first shop's file open" test "$n" -ge 8

# --- 2. deleted, as over FTP: the second shop ----------------------------------

# An FTP program deletes one file after another: loyalty.db first.
rm -f "$LT_DB"
is "$(open_files | grep -c "^[0-9]*:$LT_DB (deleted)\$")" "$n" "loyalty.db deleted: the $n processes still have it open"
mark=$(wc -c <"$LOG")
lt_req GET /api/v1/setup
is "$LT_STATUS:$(lt_jq .error.code):$(lt_header Retry-After)" 500:CONFIGURATION_ERROR: \
    "GET /setup while its -wal and -shm are left: CONFIGURATION_ERROR, no Retry-After"
like "$(lt_jq .error.message)" '-wal or -shm.*delete' "... saying which files to delete too"
ok "... and no new database is made beside the old one's log" test ! -e "$LT_DB"
rm -f "$LT_DB-wal" "$LT_DB-shm" "$LT_DB-queue"
ok "then its -wal, -shm and -queue are deleted too" \
    test ! -e "$LT_DB" -a ! -e "$LT_DB-wal" -a ! -e "$LT_DB-shm" -a ! -e "$LT_DB-queue"

lt_req GET /api/v1/setup
is "$LT_STATUS:$(lt_jq .data.setup_needed):$(lt_jq .data.code_file)" \
    200:true:loyalty.db.setup-code "GET /setup after the deletion: setup_needed, the code file named"
CODE2=$(head -n 1 "$LT_DB.setup-code" 2>/dev/null)
like "$CODE2" '^[2-9A-HJKMNP-Z]{20}$' "... a new code file, with a code" || bail "no new setup code"
ok "... not the first shop's code" test "$CODE2" != "$CODE1"
is "$(stat -c %a "$LT_DB.setup-code")" 600 "... mode 0600"
ok "... beside a new database file" test -f "$LT_DB"
# A proof of this database, its file uploaded: still there after a
# start over (step 4), where it must name nothing.
SECRET2=$(lt_jq .data.proof.secret) PFILE2=$(lt_jq .data.proof.file) ROUND2=$(lt_jq .data.proof.round)
like "$PFILE2" '^loyalty-setup-[a-z2-7]{24}\.txt$' "... and a proof file's name"
: >"$RESP/$PFILE2"

lt_req POST /api/v1/setup "$(setup_body "{\"setup_code\":\"$CODE1\"}" "Second Shop" second@shop.example)"
is "$LT_STATUS:$(lt_jq .error.details.field)" 403:setup_code "the first shop's code is refused"
lt_req POST /api/v1/setup "$(setup_body "{\"setup_code\":\"$CODE2\"}" "Second Shop" second@shop.example)"
is "$LT_STATUS:$(lt_jq .data.merchant.name):$(lt_jq .data.user.email)" \
    "200:Second Shop:second@shop.example" "setup with the new code: 200, the second shop"
WAL2=$(ino "$LT_DB-wal") SHM2=$(ino "$LT_DB-shm")
ok "... the new database has its -wal and -shm" test "$WAL2" != none -a "$SHM2" != none

ok "the second owner logs in" lt_login second@shop.example "password of second@shop.example"
TOKEN2=$LT_TOKEN
lt_login first@shop.example "password of first@shop.example"
is "$LT_STATUS:$(lt_jq .error.code)" 401:INVALID_CREDENTIALS "the first owner's password: 401"
LT_TOKEN=$TOKEN1
lt_req GET /api/v1/auth/me
is "$LT_STATUS" 401 "the first owner's token: 401"
LT_TOKEN=

is "$(round second "$TOKEN2" second@shop.example "password of second@shop.example")" "" \
    "the second shop: every endpoint answers, $ROUNDS times each"
is "$(responders)" "$PIDS" "the same processes served it all (none restarted)"
is "$(open_files | grep -c deleted)" 0 "none of them has a file of the first shop's open any more"
is "$(holders)" "$HOLD1" "... each has the file at the path open instead"
is "$(tail -c +$((mark + 1)) "$LOG" | grep -c 'was removed or replaced since this process opened it: opening it again')" \
    "$n" "... and logged once that it opened the path again"

is "$(lt_sql 'PRAGMA integrity_check')" ok "the file at the path passes integrity_check"
is "$(lt_sql "SELECT (SELECT group_concat(name) FROM merchants) || '|' ||
    (SELECT group_concat(email) FROM users) || '|' || (SELECT count(*) FROM locations)")" \
    "Second Shop|second@shop.example|$((1 + ROUNDS))" \
    "... and holds the second shop alone: its owner, its first location and the $ROUNDS made since"
is "$(lt_sql "SELECT count(*) FROM audit_log WHERE action = 'setup'")" 1 "... and its one setup in the audit log"
is "$(ino "$LT_DB-wal"):$(ino "$LT_DB-shm")" "$WAL2:$SHM2" \
    "the new database's -wal and -shm are the files its setup made: no old process deleted them"
is "$(lt_sql 'PRAGMA integrity_check')" ok "... integrity_check still ok"

# --- 3. another database renamed over the path --------------------------------

OTHER=$LT_DIR/other.db
"$LT_ADMIN" --db "$OTHER" demo >"$LT_DIR/demo.txt" 2>"$LT_DIR/demo.err" ||
    bail "loyalty-admin demo failed: $(cat "$LT_DIR/demo.err")"
lt_parse_demo "$LT_DIR/demo.txt"
ok "the demo database is whole in its one file (no -wal left)" test ! -s "$OTHER-wal"
mark=$(wc -c <"$LOG")
# The log and its index belong to the file they were made for: they go
# first (the processes keep theirs open, nameless).
rm -f "$LT_DB-wal" "$LT_DB-shm"
mv "$OTHER" "$LT_DB" || bail "cannot rename $OTHER over $LT_DB"
rm -f "$OTHER-queue" "$OTHER-wal" "$OTHER-shm"

ok "the demo owner logs in" lt_login "$DEMO_OWNER_EMAIL" "$DEMO_OWNER_PASSWORD"
TOKEN3=$LT_TOKEN
lt_req GET /api/v1/admin/locations
is "$LT_STATUS:$(lt_jq '[.data.locations[].name] | length')" 200:2 "... and sees the demo's two locations"
lt_login second@shop.example "password of second@shop.example"
is "$LT_STATUS" 401 "the second owner's password: 401"
LT_TOKEN=$TOKEN2
lt_req GET /api/v1/auth/me
is "$LT_STATUS" 401 "the second owner's token: 401"
lt_req GET /api/v1/setup
is "$LT_STATUS" 404 "GET /setup: 404, the demo shop has its owner"
is "$(round demo "$TOKEN3" "$DEMO_OWNER_EMAIL" "$DEMO_OWNER_PASSWORD")" "" \
    "the demo shop: every endpoint answers, $ROUNDS times each"
is "$(responders)" "$PIDS" "the same processes served it (none restarted)"
is "$(open_files | grep -c deleted)" 0 "none of them has a file of the second shop's open any more"
is "$(holders)" "$HOLD1" "... each has the renamed file open instead"
is "$(tail -c +$((mark + 1)) "$LOG" | grep -c 'was removed or replaced since this process opened it: opening it again')" \
    "$n" "... and logged once that it opened the path again"
is "$(lt_sql 'PRAGMA integrity_check')" ok "the renamed database passes integrity_check"
is "$(lt_sql "SELECT (SELECT count(*) FROM merchants) || '|' ||
    (SELECT count(*) FROM users WHERE email = 'second@shop.example') || '|' ||
    (SELECT count(*) FROM locations WHERE name LIKE 'demo location %')")" "1|0|$ROUNDS" \
    "... holds the demo shop with the $ROUNDS locations made since, nothing of the second shop"

# --- 4. deleted again: the third shop, by the proof file -----------------------

rm -f "$LT_DB" "$LT_DB-wal" "$LT_DB-shm" "$LT_DB-queue"
lt_req GET /api/v1/setup
is "$LT_STATUS:$(lt_jq .data.setup_needed)" 200:true "deleted again: GET /setup says setup_needed"
SECRET=$(lt_jq .data.proof.secret) PFILE=$(lt_jq .data.proof.file)
like "$SECRET" '^[a-z2-7]{26}$' "... a proof secret of 26 symbols"
like "$PFILE" '^loyalty-setup-[a-z2-7]{24}\.txt$' "... the proof file's name"
is "$(lt_jq .data.proof.folder)" "$LC_RESPONDER_DIR" "... to be put in the responders' folder, by its name"
ok "... for another database than the second shop's: another round" test "$(lt_jq .data.proof.round)" != "$ROUND2"
ok "... a file the service does not make itself" test ! -e "$RESP/$PFILE"
ok "... and the code file is there too" test -s "$LT_DB.setup-code"
BODY3=$(setup_body "{\"setup_proof\":\"$SECRET\"}" "Third Shop" third@shop.example)

lt_req POST /api/v1/setup "$(setup_body "{\"setup_proof\":\"$SECRET2\"}" "Third Shop" third@shop.example)"
is "$LT_STATUS:$(lt_jq .error.details.field)" 403:setup_proof \
    "the second shop's proof, its file still in $LC_RESPONDER_DIR/, names nothing in the new database: 403"
rm -f "$RESP/$PFILE2"
lt_req POST /api/v1/setup "$BODY3"
is "$LT_STATUS:$(lt_jq .error.code):$(lt_jq .error.details.field)" 403:FORBIDDEN:setup_proof \
    "setup by the proof before its file is there: 403 on setup_proof"
like "$(lt_jq .error.message)" "$PFILE.*\\($LC_RESPONDER_DIR/\\)" "... the message names the file and the folder"

ln -s "$LT_DIR/lighttpd.log" "$RESP/$PFILE"
lt_req POST /api/v1/setup "$BODY3"
is "$LT_STATUS:$(lt_jq .error.details.field)" 403:setup_proof "a symbolic link by that name is no proof: 403"
rm -f "$RESP/$PFILE"
mkdir "$RESP/$PFILE"
lt_req POST /api/v1/setup "$BODY3"
is "$LT_STATUS:$(lt_jq .error.details.field)" 403:setup_proof "a folder by that name is no proof: 403"
rmdir "$RESP/$PFILE"
if [ "$(id -u)" -eq 0 ]; then
	: >"$RESP/$PFILE"
	chown nobody "$RESP/$PFILE"
	lt_req POST /api/v1/setup "$BODY3"
	is "$LT_STATUS:$(lt_jq .error.details.field)" 403:setup_proof \
	    "a file by that name of another user than the folder's: 403"
	rm -f "$RESP/$PFILE"
else
	skip 1 "not root: a file of another user needs chown"
fi
chmod 775 "$RESP"
lt_req GET /api/v1/setup
is "$LT_STATUS:$(lt_jq '.data | has("proof")'):$(lt_jq .data.proof_unavailable)" \
    200:false:programs_folder_open \
    "a responders' folder its group may write: no proof offered, proof_unavailable says why"
: >"$RESP/$PFILE"
lt_req POST /api/v1/setup "$BODY3"
is "$LT_STATUS:$(lt_jq .error.details.field)" 403:setup_proof "... and the file there is no proof: 403"
rm -f "$RESP/$PFILE"
chmod 755 "$RESP"
is "$(lt_sql "SELECT count(*) FROM login_attempts WHERE email = 'setup:code'")" 0 \
    "none was a guess the setup's guard keeps (a proof file not there is none)"
is "$(lt_sql "SELECT count(*) FROM users")" 0 "... and nothing was made"

printf 'This file shows that this Loyalty POS installation is yours.\r\n' >"$RESP/$PFILE"
lt_req POST /api/v1/setup "$BODY3"
is "$LT_STATUS:$(lt_jq .data.merchant.name):$(lt_jq .data.user.email)" \
    "200:Third Shop:third@shop.example" "with the proof file in $LC_RESPONDER_DIR/: 200, the third shop"
ok "... the service deleted the proof file" test ! -e "$RESP/$PFILE"
ok "... and the code file" test ! -e "$LT_DB.setup-code"
ok "the third owner logs in" lt_login third@shop.example "password of third@shop.example"
TOKEN4=$LT_TOKEN
lt_req POST /api/v1/setup "$BODY3"
is "$LT_STATUS" 404 "the proof again: 404, the shop has its owner"
is "$(lt_sql "SELECT action || '|' || actor_type || '|' || json_extract(after, '$.name') FROM audit_log")" \
    "setup|setup|Third Shop" "the audit log holds the setup, by the proof as by a code"
ok "the responders' folder holds the programs alone again" \
    test "$(find "$RESP" -mindepth 1 ! -name '*.fcgi' | wc -l)" -eq 0

# --- 5. what the host lets others reach ----------------------------------------

warnings() {
	LT_TOKEN=$TOKEN4
	lt_req GET /api/v1/admin/settings
	LT_TOKEN=
	printf '%s:%s' "$LT_STATUS" "$(lt_jq '.data.hosting.warnings | join(",")')"
}
is "$(warnings)" 200: "admin/settings: no hosting warning in the test's layout"
DIR=${LT_DB%/*}
mode=$(stat -c %a "$DIR")
chmod 777 "$DIR"
is "$(warnings)" 200:data_folder_writable_by_all "the database's folder 777: data_folder_writable_by_all"
chmod 1777 "$DIR"
is "$(warnings)" 200: "... 1777 (sticky, as /tmp): no warning"
chmod "$mode" "$DIR"
dbmode=$(stat -c %a "$LT_DB")
chmod 644 "$LT_DB"
is "$(warnings)" 200:database_readable_by_all "the database 644: database_readable_by_all"
chmod "$dbmode" "$LT_DB"
if [ "$(id -u)" -eq 0 ]; then
	chown nobody "$RESP"
	is "$(warnings)" 200:shared_web_user "programs in a folder of another user than the service's: shared_web_user"
	chown root "$RESP"
else
	skip 1 "not root: a folder of another user needs chown"
fi
is "$(warnings)" 200: "put back: no warning"

is "$(lt_sql 'PRAGMA integrity_check')" ok "integrity_check is ok at the end"
is "$(responders)" "$PIDS" "the same processes served the whole test"
lt_log_clean "the server"

done_testing
