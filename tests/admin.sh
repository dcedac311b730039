#!/usr/bin/env bash
#
# TAP tests of tools/loyalty-admin: every command of its usage, ids that
# are the API's ids, and failures that go to stderr, exit non-zero and
# leave the database exactly as it was.
#
#   top_srcdir=... top_builddir=... tests/admin.sh

export LC_ALL=C
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$PWD}
ADMIN=$top_builddir/tools/loyalty-admin
UUID='^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'

bail()
{
	echo "Bail out! $*"
	exit 1
}

for tool in jq sqlite3 base64; do
	command -v "$tool" >/dev/null || bail "$tool is needed"
done
[[ -x $ADMIN ]] || bail "no $ADMIN: build first"
# shellcheck source=tests/seed.sh
. "$top_srcdir/tests/seed.sh" || bail "cannot read tests/seed.sh"

T=$(mktemp -d "${TMPDIR:-/tmp}/admin.XXXXXX") || bail "mktemp failed"
trap 'rm -rf "$T"' EXIT
trap 'exit 130' INT TERM HUP
cd "$T" || bail "cannot enter $T"

# --- TAP helpers -----------------------------------------------------------

N=0
FAILED=0

# diag LINE...: TAP comments, one per line of each argument.
diag()
{
	local arg line

	for arg in "$@"; do
		while IFS= read -r line; do
			printf '# %s\n' "$line"
		done <<<"$arg"
	done
}

# ok STATUS DESC: a test point that passes when STATUS is 0.
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

# is GOT WANT DESC
is()
{
	if [[ $1 == "$2" ]]; then
		ok 0 "$3"
	else
		ok 1 "$3"
		diag "got:  '$1'" "want: '$2'"
	fi
}

# like GOT ERE DESC
like()
{
	[[ $1 =~ $2 ]]
	ok $? "$3" || diag "got '$1', want a match of $2"
}

# run [--stdin TEXT] ARGS...: the admin tool; sets RC, OUT, ERR.
run()
{
	local in=/dev/null

	if [[ ${1-} == --stdin ]]; then
		printf '%s\n' "$2" >"$T/stdin"
		in=$T/stdin
		shift 2
	fi
	"$ADMIN" "$@" <"$in" >"$T/out" 2>"$T/err"
	RC=$?
	OUT=$(<"$T/out")
	ERR=$(<"$T/err")
}

# Everything in the database, to prove a failure wrote nothing.
snapshot()
{
	sqlite3 -batch "$1" .dump 2>&1
}

# fails_cleanly DESC DB [--stdin TEXT] ARGS...: one test point: the command
# exits non-zero, prints nothing on stdout, says why on stderr, and DB is
# unchanged.
fails_cleanly()
{
	local desc=$1 db=$2 before after why=()

	shift 2
	before=$(snapshot "$db")
	run "$@"
	after=$(snapshot "$db")
	(( RC != 0 )) || why+=("exit status 0")
	(( RC < 128 )) || why+=("killed by a signal: exit $RC")
	[[ -z $OUT ]] || why+=("stdout: $OUT")
	[[ -n $ERR ]] || why+=("nothing on stderr")
	[[ $ERR != *'runtime error'* && $ERR != *Sanitizer* ]] ||
		why+=("sanitizer report: $ERR")
	[[ $before == "$after" ]] || why+=("the database changed")
	ok "${#why[@]}" "$desc" || diag "${why[@]}" "stderr: $ERR"
}

# adds_id DESC VAR [--stdin TEXT] ARGS...: one test point: the command
# succeeds and prints one id alone on stdout, stored in VAR.
adds_id()
{
	local desc=$1 var=$2

	shift 2
	run "$@"
	[[ $RC -eq 0 && $OUT =~ $UUID && -z $ERR ]]
	ok $? "$desc" || diag "exit $RC" "stdout: $OUT" "stderr: $ERR"
	printf -v "$var" '%s' "$OUT"
}

# q DB SQL: one sqlite3 query's output.
q()
{
	sqlite3 -batch "$1" "$2" 2>&1
}

# --- usage and init --------------------------------------------------------

run
ok "$([[ $RC -ne 0 && -z $OUT && $ERR == *usage:* ]]; echo $?)" \
    "no command: usage on stderr, non-zero exit"
for cmd in init merchant location user program card setting events demo; do
	[[ $ERR == *"  $cmd"* ]]
	ok $? "usage names the $cmd command"
done
run --db "$T/x.db" frobnicate
ok "$([[ $RC -ne 0 && -z $OUT && -n $ERR && ! -e $T/x.db ]]; echo $?)" \
    "unknown command on a missing file: non-zero exit, no database file made"

DB=$T/main.db
run --db "$DB" init
ok "$([[ $RC -eq 0 && -z $OUT && -f $DB ]]; echo $?)" \
    "init creates the database, prints nothing" || diag "exit $RC: $ERR"
is "$(umask 022; stat -c %a "$DB" "$DB-wal" "$DB-shm" 2>/dev/null | sort -u | tr '\n' ' ')" \
    "640 " "the database (and its -wal and -shm while open) is the service's user's and group's only: 0640"
# The migrations the build embeds: SCHEMA_FILES of Makefile.am.
nschema=$(sed -n '/^SCHEMA_FILES =/,/NULL)/p' "$top_srcdir/Makefile.am" |
    grep -c 'schema/[0-9]*_.*\.sql')
is "$(q "$DB" 'SELECT count(*) FROM schema_migrations')" "$nschema" \
    "init records every migration in schema_migrations"
is "$(q "$DB" "SELECT version || ' ' || name FROM schema_migrations WHERE version = 1")" \
    "1 001_init" "schema_migrations holds version 1, 001_init"
is "$(q "$DB" 'PRAGMA integrity_check')" ok "a new database passes integrity_check"

adds_id "merchant add prints the new id alone" M1 --db "$DB" merchant add \
    --name "Test Cafe"
before=$(snapshot "$DB")
run --db "$DB" init
after=$(snapshot "$DB")
ok "$([[ $RC -eq 0 && $before == "$after" ]]; echo $?)" \
    "init on an existing database changes nothing (idempotent)" ||
    diag "exit $RC: $ERR"
is "$(q "$DB" 'SELECT count(*) FROM schema_migrations')" "$nschema" \
    "init again applies no migration twice"
is "$(q "$DB" "SELECT name FROM merchants WHERE id = '$M1'")" "Test Cafe" \
    "init again keeps the data"
run --db "$DB" init extra
ok "$([[ $RC -ne 0 && -z $OUT ]]; echo $?)" "init takes no argument"
fails_cleanly "an unknown command fails with usage" "$DB" --db "$DB" frobnicate
ok "$([[ $ERR == *usage:* ]]; echo $?)" "an unknown command prints the usage"
fails_cleanly "an unknown verb fails" "$DB" --db "$DB" merchant remove \
    --name X

# --- refusing to create a database -------------------------------------------

for args in "merchant add --name X" "setting list" "card activate nope" \
    "location add --merchant x --name y"; do
	# shellcheck disable=SC2086
	run --db "$T/missing.db" $args
	ok "$([[ $RC -ne 0 && -z $OUT && -n $ERR && ! -e $T/missing.db ]]; echo $?)" \
	    "$args on a missing database fails and creates no file" ||
	    diag "exit $RC: $ERR"
done
LOYALTY_DB=$T/missing-env.db run merchant add --name X
ok "$([[ $RC -ne 0 && ! -e $T/missing-env.db ]]; echo $?)" \
    "a missing LOYALTY_DB file is not created either"
is "$ERR" "loyalty-admin: $T/missing-env.db (LOYALTY_DB): the file does not exist (loyalty-admin init creates it)" \
    "... and the error names the path, where it came from, and what makes it"
run --db "$T/no-folder/x.db" init
is "$RC|$ERR" "1|loyalty-admin: $T/no-folder/x.db (--db): its folder does not exist" \
    "init in a folder that does not exist names the path and says so"
printf 'not a database, but long enough for SQLite to look at it: %0100d\n' 0 >"$T/text.db"
run --db "$T/text.db" setting list
is "$RC|${ERR##*$'\n'}" "1|loyalty-admin: $T/text.db (--db): the file is not a SQLite database" \
    "a file that is not a database is named as such"

# --- --db and LOYALTY_DB ---------------------------------------------------

run --db "$T/env.db" init
export LOYALTY_DB=$T/env.db
adds_id "merchant add with --db while LOYALTY_DB names another file" MX \
    --db "$DB" merchant add --name "Precedence"
is "$(q "$DB" "SELECT count(*) FROM merchants WHERE id = '$MX'")" 1 \
    "--db wins over LOYALTY_DB: the row is in the --db file"
is "$(q "$T/env.db" 'SELECT count(*) FROM merchants')" 0 \
    "--db wins over LOYALTY_DB: nothing in the LOYALTY_DB file"
adds_id "merchant add without --db" MY merchant add --name "From env"
is "$(q "$T/env.db" "SELECT count(*) FROM merchants WHERE id = '$MY'")" 1 \
    "without --db, LOYALTY_DB names the database"
unset LOYALTY_DB

# --- merchant and location -------------------------------------------------

fails_cleanly "merchant add with an empty name fails" "$DB" --db "$DB" \
    merchant add --name ""
fails_cleanly "merchant add with a 201-character name fails" "$DB" \
    --db "$DB" merchant add --name "$(printf 'n%.0s' {1..201})"
fails_cleanly "merchant add without --name fails" "$DB" --db "$DB" \
    merchant add
fails_cleanly "merchant add with an unknown option fails" "$DB" --db "$DB" \
    merchant add --name X --colour red

adds_id "location add prints the new id alone" L1 --db "$DB" location add \
    --merchant "$M1" --name "Front"
adds_id "a second location add prints another id" L2 --db "$DB" location add \
    --merchant "$M1" --name "Back"
ok "$([[ $L1 != "$L2" ]]; echo $?)" "location ids differ"
is "$(q "$DB" "SELECT merchant_id || ' ' || name FROM locations WHERE id = '$L2'")" \
    "$M1 Back" "location add stores merchant and name"
fails_cleanly "location add for an unknown merchant fails" "$DB" --db "$DB" \
    location add --merchant 00000000-0000-4000-8000-000000000000 --name X
fails_cleanly "location add without --name fails" "$DB" --db "$DB" \
    location add --merchant "$M1"
adds_id "merchant add for a second merchant" M2 --db "$DB" merchant add \
    --name "Other Shop"
adds_id "location add at the second merchant" M2L1 --db "$DB" location add \
    --merchant "$M2" --name "Main"

# --- users -------------------------------------------------------------------

adds_id "user add owner (password on stdin) prints the new id alone" OWNER \
    --stdin owner-pass --db "$DB" user add --merchant "$M1" \
    --email owner@m1.test --type owner --name "Olive Owner"
adds_id "user add system_user prints the new id alone" STAFF \
    --stdin staff-pass --db "$DB" user add --merchant "$M1" \
    --email staff@m1.test --type system_user --location "$L1" \
    --name "Sam Staff"
adds_id "user add without --name" STAFF2 --stdin staff2-pass --db "$DB" \
    user add --merchant "$M1" --email staff2@m1.test --type system_user \
    --location "$L2"
is "$(q "$DB" "SELECT display_name IS NULL FROM users WHERE id = '$STAFF2'")" 1 \
    "a user without --name has no display name"
is "$(q "$DB" "SELECT user_type || ' ' || location_id || ' ' || display_name FROM users WHERE id = '$STAFF'")" \
    "system_user $L1 Sam Staff" "user add stores type, location and name"
is "$(q "$DB" "SELECT count(*) FROM users WHERE password_hash LIKE '%pass%'")" 0 \
    "passwords are stored hashed"

fails_cleanly "user add system_user without --location fails" "$DB" \
    --stdin pw --db "$DB" user add --merchant "$M1" --email a@m1.test \
    --type system_user
fails_cleanly "user add with a location of another merchant fails" "$DB" \
    --stdin pw --db "$DB" user add --merchant "$M1" --email b@m1.test \
    --type system_user --location "$M2L1"
fails_cleanly "user add with an unknown location fails" "$DB" \
    --stdin pw --db "$DB" user add --merchant "$M1" --email b@m1.test \
    --type system_user --location 00000000-0000-4000-8000-000000000000
fails_cleanly "user add with a duplicate e-mail fails" "$DB" \
    --stdin pw --db "$DB" user add --merchant "$M1" --email staff@m1.test \
    --type owner
fails_cleanly "user add with a duplicate e-mail in another case fails" "$DB" \
    --stdin pw --db "$DB" user add --merchant "$M2" --email STAFF@M1.test \
    --type owner
fails_cleanly "user add with an empty password fails" "$DB" \
    --stdin "" --db "$DB" user add --merchant "$M1" --email c@m1.test \
    --type owner
fails_cleanly "user add with no stdin at all fails" "$DB" \
    --db "$DB" user add --merchant "$M1" --email c@m1.test --type owner
fails_cleanly "user add for an unknown merchant fails" "$DB" \
    --stdin pw --db "$DB" user add \
    --merchant 00000000-0000-4000-8000-000000000000 --email d@m1.test \
    --type owner
fails_cleanly "user add with a bad --type fails" "$DB" \
    --stdin pw --db "$DB" user add --merchant "$M1" --email e@m1.test \
    --type admin
fails_cleanly "user add with an e-mail without @ fails" "$DB" \
    --stdin pw --db "$DB" user add --merchant "$M1" --email nobody \
    --type owner
fails_cleanly "user add without --email fails" "$DB" \
    --stdin pw --db "$DB" user add --merchant "$M1" --type owner

# --- the ids are the API's ids ----------------------------------------------

if out=$(seed_login "$top_builddir" "$DB" staff@m1.test staff-pass); then
	ok 0 "the new staff user logs in through login.fcgi"
else
	ok 1 "the new staff user logs in through login.fcgi"
fi
is "$(jq -r .user.id <<<"$out")" "$STAFF" "login's user.id is the id user add printed"
is "$(jq -r .user.merchant_id <<<"$out")" "$M1" \
    "login's merchant_id is the id merchant add printed"
is "$(jq -r .user.location.id <<<"$out")" "$L1" \
    "login's location.id is the id location add printed"
out=$(seed_login "$top_builddir" "$DB" owner@m1.test owner-pass)
is "$(jq -r '[.user.id, (.user.locations | map(.id) | join(" "))] | join(" ")' <<<"$out")" \
    "$OWNER $L1 $L2" "the owner's id and locations (in creation order) are the printed ids"

# --- taking access away ------------------------------------------------------

# me.fcgi as plain CGI with TOKEN: prints the HTTP status.
me_status()
{
	env -i LOYALTY_DB="$DB" REQUEST_METHOD=GET REQUEST_URI=/api/v1/auth/me \
	    HTTP_AUTHORIZATION="Bearer $1" "$top_builddir/cgi-bin/me.fcgi" </dev/null |
	    sed -n '1s/^Status: \([0-9]*\).*/\1/p'
}

out=$(seed_login "$top_builddir" "$DB" staff2@m1.test staff2-pass)
tok=$(jq -r .access_token <<<"$out")
is "$(me_status "$tok")" 200 "a logged-in till works before its user is disabled"
run --db "$DB" user disable "$STAFF2"
is "$RC:$OUT" "0:" "user disable succeeds silently"
is "$(me_status "$tok")" 401 "user disable logs out the user's tills at once"
if seed_login "$top_builddir" "$DB" staff2@m1.test staff2-pass >/dev/null 2>&1; then
	ok 1 "a disabled user cannot log in"
else
	ok 0 "a disabled user cannot log in"
fi
run --db "$DB" user enable "$STAFF2"
if out=$(seed_login "$top_builddir" "$DB" staff2@m1.test staff2-pass); then
	ok 0 "user enable gives access back"
else
	ok 1 "user enable gives access back"
fi
tok=$(jq -r .access_token <<<"$out")
run --stdin new-staff2-pass --db "$DB" user passwd "$STAFF2"
is "$RC:$OUT" "0:" "user passwd succeeds silently"
is "$(me_status "$tok")" 401 "user passwd logs out the user's tills"
if seed_login "$top_builddir" "$DB" staff2@m1.test new-staff2-pass >/dev/null &&
    ! seed_login "$top_builddir" "$DB" staff2@m1.test staff2-pass >/dev/null 2>&1; then
	ok 0 "after user passwd only the new password logs in"
else
	ok 1 "after user passwd only the new password logs in"
fi
run --stdin staff2-pass --db "$DB" user passwd "$STAFF2"
fails_cleanly "user disable of an unknown user fails" "$DB" --db "$DB" \
    user disable 00000000-0000-4000-8000-000000000000
fails_cleanly "user passwd with an empty password fails" "$DB" \
    --stdin "" --db "$DB" user passwd "$STAFF2"
fails_cleanly "user add with an empty --name fails" "$DB" \
    --stdin pw --db "$DB" user add --merchant "$M1" --email f@m1.test \
    --type owner --name ""
fails_cleanly "location add with a name that is not UTF-8 fails" "$DB" \
    --db "$DB" location add --merchant "$M1" --name $'Caf\xe9'
fails_cleanly "merchant add with a control character in the name fails" \
    "$DB" --db "$DB" merchant add --name $'Two\nLines'
fails_cleanly "user add with a display name that is not UTF-8 fails" "$DB" \
    --stdin pw --db "$DB" user add --merchant "$M1" --email g@m1.test \
    --type owner --name $'Jos\xe9'
adds_id "location add takes UTF-8 names" LUTF --db "$DB" location add \
    --merchant "$M1" --name "Café Été"

# --- programs ----------------------------------------------------------------

adds_id "program add punch prints the new id alone" PUNCH --db "$DB" \
    program add --merchant "$M1" --type punch --title "Coffee Card" \
    --punches 10 --reward-title "Free coffee" \
    --reward-description "Any hot drink" --reward-amount 3.50 --cooldown 90
is "$(q "$DB" "SELECT type, title, punch_requirement, reward_title, reward_description, reward_amount, cooldown_seconds FROM programs WHERE id = '$PUNCH'")" \
    "punch|Coffee Card|10|Free coffee|Any hot drink|350|90" \
    "program add punch stores requirement, reward (in cents) and cooldown"
adds_id "program add punch with defaults" QUICK --db "$DB" program add \
    --merchant "$M1" --type punch --title "Quick" --punches 3 \
    --reward-title Cookie
is "$(q "$DB" "SELECT reward_description, reward_amount, cooldown_seconds FROM programs WHERE id = '$QUICK'")" \
    "|0|60" "a punch program defaults to no description, amount 0, cooldown 60"
for p in 0 -1 abc 1001 2.5 ""; do
	fails_cleanly "program add punch with --punches '$p' fails" "$DB" \
	    --db "$DB" program add --merchant "$M1" --type punch --title P \
	    --punches "$p" --reward-title R
done
fails_cleanly "program add punch without --punches fails" "$DB" --db "$DB" \
    program add --merchant "$M1" --type punch --title P --reward-title R
for d in 0 -1 3651 7.5 abc ""; do
	fails_cleanly "program add cashback with --expiry-days '$d' fails" "$DB" \
	    --db "$DB" program add --merchant "$M1" --type cashback --title X \
	    --tier Base:0:0.02 --expiry-days "$d"
done
fails_cleanly "program add discount with --expiry-days fails" "$DB" \
    --db "$DB" program add --merchant "$M1" --type discount --title X \
    --tier Base:0:0.02 --expiry-days 30
fails_cleanly "program add punch with --expiry-days fails" "$DB" \
    --db "$DB" program add --merchant "$M1" --type punch --title P \
    --punches 5 --reward-title R --expiry-days 30
fails_cleanly "program add punch without --reward-title fails" "$DB" \
    --db "$DB" program add --merchant "$M1" --type punch --title P \
    --punches 5
fails_cleanly "program add punch with --reward-amount 3.505 fails" "$DB" \
    --db "$DB" program add --merchant "$M1" --type punch --title P \
    --punches 5 --reward-title R --reward-amount 3.505
fails_cleanly "program add punch with --reward-amount -1 fails" "$DB" \
    --db "$DB" program add --merchant "$M1" --type punch --title P \
    --punches 5 --reward-title R --reward-amount -1
fails_cleanly "program add punch with --cooldown -1 fails" "$DB" \
    --db "$DB" program add --merchant "$M1" --type punch --title P \
    --punches 5 --reward-title R --cooldown -1
fails_cleanly "program add punch with a --tier fails" "$DB" \
    --db "$DB" program add --merchant "$M1" --type punch --title P \
    --punches 5 --reward-title R --tier A:0:0.1
fails_cleanly "program add for an unknown merchant fails" "$DB" --db "$DB" \
    program add --merchant 00000000-0000-4000-8000-000000000000 \
    --type punch --title P --punches 5 --reward-title R
fails_cleanly "program add with --type stamps fails" "$DB" --db "$DB" \
    program add --merchant "$M1" --type stamps --title P

adds_id "program add cashback prints the new id alone" CASH --db "$DB" \
    program add --merchant "$M1" --type cashback --title "Cashback Club" \
    --tier Bronze:0:0.05 --tier Silver:100:0.10 --tier Gold:500.50:0.1250
is "$(q "$DB" "SELECT group_concat(name || ':' || min_spend || ':' || rate_bp, ' ') FROM (SELECT * FROM tiers WHERE program_id = '$CASH' ORDER BY min_spend)")" \
    "Bronze:0:500 Silver:10000:1000 Gold:50050:1250" \
    "tiers are stored as cents and basis points"
adds_id "program add discount prints the new id alone" DISC --db "$DB" \
    program add --merchant "$M1" --type discount --title "Member Discount" \
    --tier Member:0:0.10 --tier VIP:250:0.20
is "$(q "$DB" "SELECT count(*) FROM tiers WHERE program_id = '$DISC'")" 2 \
    "program add discount stores its tiers"
for t in "Bronze:10:0.05" "Bronze:0:1.5" "Bronze:0:0.12345" "Bronze" \
    "Bronze:0" ":0:0.05" "Bronze:x:0.05" "Bronze:0:-0.05" "Bronze:0.001:0.05"; do
	fails_cleanly "program add cashback with --tier '$t' fails" "$DB" \
	    --db "$DB" program add --merchant "$M1" --type cashback --title C \
	    --tier "$t"
done
fails_cleanly "a second tier not above the first fails" "$DB" --db "$DB" \
    program add --merchant "$M1" --type cashback --title C \
    --tier A:0:0.05 --tier B:0:0.10
fails_cleanly "tiers in decreasing MIN_SPEND fail" "$DB" --db "$DB" \
    program add --merchant "$M1" --type discount --title C \
    --tier A:0:0.05 --tier B:200:0.10 --tier C:100:0.15
fails_cleanly "a bad second tier fails with the first one not written" "$DB" \
    --db "$DB" program add --merchant "$M1" --type discount --title C \
    --tier A:0:0.05 --tier B:200:2
fails_cleanly "program add cashback without --tier fails" "$DB" --db "$DB" \
    program add --merchant "$M1" --type cashback --title C
fails_cleanly "program add cashback with --punches fails" "$DB" --db "$DB" \
    program add --merchant "$M1" --type cashback --title C --tier A:0:0.05 \
    --punches 4
fails_cleanly "program add without --title fails" "$DB" --db "$DB" \
    program add --merchant "$M1" --type cashback --tier A:0:0.05

# --- cards -------------------------------------------------------------------

# ean13_ok CODE: 0 when CODE is 13 digits with a valid check digit.
ean13_ok()
{
	local c=$1 i sum=0

	[[ $c =~ ^[0-9]{13}$ ]] || return 1
	for (( i = 0; i < 12; i++ )); do
		sum=$((sum + ${c:i:1} * (i % 2 ? 3 : 1)))
	done
	(( (10 - sum % 10) % 10 == ${c:12:1} ))
}

# b64_ok TEXT: 0 when TEXT is valid padded standard base64 of some bytes.
b64_ok()
{
	[[ $1 =~ ^[A-Za-z0-9+/]+={0,2}$ && $(( ${#1} % 4 )) -eq 0 ]] &&
	    [[ $(printf '%s' "$1" | base64 -d 2>/dev/null | wc -c) -gt 0 ]]
}

run --db "$DB" card issue --program "$PUNCH" --customer "Pat Punch"
ok "$([[ $RC -eq 0 && -z $ERR ]] && jq -e . <<<"$OUT" >/dev/null; echo $?)" \
    "card issue prints one JSON object" || diag "exit $RC: $OUT $ERR"
C1=$(jq -r .card_instance_id <<<"$OUT")
B1=$(jq -r .barcode_value <<<"$OUT")
Q1=$(jq -r .qr_code_data <<<"$OUT")
like "$C1" "$UUID" "card_instance_id is a UUID"
ean13_ok "$B1"
ok $? "barcode_value is 13 digits with a valid EAN-13 check digit" ||
    diag "barcode: $B1"
b64_ok "$Q1"
ok $? "qr_code_data is valid base64" || diag "qr: $Q1"
is "$(q "$DB" "SELECT barcode || ' ' || qr_code || ' ' || status || ' ' || customer_name || ' ' || merchant_id FROM cards WHERE id = '$C1'")" \
    "$B1 $Q1 active Pat Punch $M1" \
    "the card row holds the printed codes, active, at the program's merchant"
run --db "$DB" card issue --program "$CASH" --customer "Cass Cash"
C2=$(jq -r .card_instance_id <<<"$OUT")
B2=$(jq -r .barcode_value <<<"$OUT")
Q2=$(jq -r .qr_code_data <<<"$OUT")
ok "$([[ $C1 != "$C2" && $B1 != "$B2" && $Q1 != "$Q2" ]]; echo $?)" \
    "two cards differ in id, barcode and QR payload"
ean13_ok "$B2"
ok $? "the second barcode has a valid EAN-13 check digit too" || diag "$B2"
b64_ok "$Q2"
ok $? "the second QR payload is valid base64 too" || diag "$Q2"
bad=0
for i in 1 2 3 4 5 6 7 8; do
	run --db "$DB" card issue --program "$DISC" --customer "Batch $i"
	b=$(jq -r .barcode_value <<<"$OUT")
	ean13_ok "$b" && b64_ok "$(jq -r .qr_code_data <<<"$OUT")" || bad=1
done
ok "$bad" "eight more cards all have valid barcodes and QR payloads"
is "$(q "$DB" 'SELECT count(DISTINCT qr_code) = count(*) AND count(DISTINCT barcode) = count(*) FROM cards')" \
    1 "no two cards share a QR payload or a barcode"
fails_cleanly "card issue for an unknown program fails" "$DB" --db "$DB" \
    card issue --program 00000000-0000-4000-8000-000000000000 --customer X
fails_cleanly "card issue without --customer fails" "$DB" --db "$DB" \
    card issue --program "$PUNCH"
fails_cleanly "card issue with an empty customer fails" "$DB" --db "$DB" \
    card issue --program "$PUNCH" --customer ""

# A box of cards without a name: --count N, no --customer.
run --db "$DB" card issue --program "$PUNCH" --count 3
ok "$([[ $RC -eq 0 && -z $ERR && $(jq -s length <<<"$OUT") == 3 ]]; echo $?)" \
    "card issue --count 3 prints three JSON objects, one a line" ||
    diag "exit $RC: $OUT $ERR"
ids=$(jq -r .card_instance_id <<<"$OUT" | sed "s/.*/'&'/" | paste -sd,)
is "$(q "$DB" "SELECT count(*) FROM cards WHERE customer_name = '' AND id IN ($ids)")" \
    3 "the three cards have no customer name"
is "$(q "$DB" "SELECT count(*) FROM audit_log WHERE action = 'card.issue' AND json_array_length(json_extract(after, '\$.card_ids')) = 3")" \
    1 "the three cards are one card.issue row of the audit trail, listing them"
fails_cleanly "card issue with --count and --customer fails" "$DB" --db "$DB" \
    card issue --program "$PUNCH" --count 2 --customer X
fails_cleanly "card issue with --count 0 fails" "$DB" --db "$DB" \
    card issue --program "$PUNCH" --count 0
fails_cleanly "card issue with --count 101 fails" "$DB" --db "$DB" \
    card issue --program "$PUNCH" --count 101
fails_cleanly "card issue --count 2 with --svg fails (one card a drawing)" \
    "$DB" --db "$DB" card issue --program "$PUNCH" --count 2 --svg "$T/two.svg"

run --db "$DB" card deactivate "$C1"
ok "$([[ $RC -eq 0 && -z $OUT ]]; echo $?)" "card deactivate succeeds" ||
    diag "exit $RC: $ERR"
is "$(q "$DB" "SELECT status FROM cards WHERE id = '$C1'")" inactive \
    "card deactivate sets status inactive"
is "$(q "$DB" "SELECT status FROM cards WHERE id = '$C2'")" active \
    "card deactivate leaves other cards active"
run --db "$DB" card activate "$C1"
ok "$([[ $RC -eq 0 && -z $OUT ]]; echo $?)" "card activate succeeds" ||
    diag "exit $RC: $ERR"
is "$(q "$DB" "SELECT status FROM cards WHERE id = '$C1'")" active \
    "card activate sets status back to active"
fails_cleanly "card deactivate of an unknown id fails" "$DB" --db "$DB" \
    card deactivate 00000000-0000-4000-8000-000000000000
fails_cleanly "card activate of an unknown id fails" "$DB" --db "$DB" \
    card activate nope
fails_cleanly "card deactivate without an id fails" "$DB" --db "$DB" \
    card deactivate

# --- settings ----------------------------------------------------------------

run --db "$DB" setting get access_token_ttl
is "$RC $OUT" "0 3600" "setting get prints the default when unset"
run --db "$DB" setting set login_max_failures 3
ok "$([[ $RC -eq 0 && -z $OUT ]]; echo $?)" "setting set succeeds silently" ||
    diag "exit $RC: $ERR"
run --db "$DB" setting get login_max_failures
is "$OUT" 3 "setting get prints the value set"
run --db "$DB" setting list
ok "$([[ $RC -eq 0 && $OUT == *"login_max_failures installation 3"* && \
    $OUT == *"access_token_ttl installation 3600"* && $OUT == *refresh_token_ttl* && \
    $OUT == *login_window_seconds* ]]; echo $?)" \
    "setting list prints every setting with its scope and value" || diag "$OUT"
fails_cleanly "setting set of an unknown setting fails" "$DB" --db "$DB" \
    setting set colour blue
fails_cleanly "setting get of an unknown setting fails" "$DB" --db "$DB" \
    setting get colour
for v in 0 1001 abc -5 "" 3.5; do
	fails_cleanly "setting set login_max_failures '$v' (out of range) fails" \
	    "$DB" --db "$DB" setting set login_max_failures "$v"
done
fails_cleanly "setting set access_token_ttl 59 (below 60) fails" "$DB" \
    --db "$DB" setting set access_token_ttl 59
fails_cleanly "setting set without a value fails" "$DB" --db "$DB" \
    setting set login_max_failures

# --- a shop's own settings -----------------------------------------------------

S=$T/shops.db
run --db "$S" init
fails_cleanly "setting set of a shop's setting with no shop yet fails" "$S" \
    --db "$S" setting set currency_symbol '€'
like "$ERR" "no shop yet.*--installation" "... saying there is no shop and naming --installation"
run --db "$S" setting set currency_symbol '€' --installation
is "$RC|$OUT|$(q "$S" "SELECT value FROM settings WHERE key = 'currency_symbol'")" \
    "0||€" "setting set --installation sets the shops' fallback"
fails_cleanly "currency has no installation value" "$S" --db "$S" \
    setting set currency EUR --installation
like "$ERR" "currency has no installation value" "... and says so"
adds_id "merchant add with --currency, --time-zone and --language" SA \
    --db "$S" merchant add --name "Tokyo" --currency JPY --time-zone Asia/Tokyo \
    --language ja
is "$(q "$S" "SELECT key || '=' || value FROM shop_settings WHERE merchant_id = '$SA' ORDER BY key" | tr '\n' ' ')" \
    "currency=JPY language=ja time_zone=Asia/Tokyo " \
    "... stores them as the new shop's own settings"
run --db "$S" setting get currency
is "$RC $OUT" "0 JPY" "with one shop, setting get of a shop's setting reads that shop's"
run --db "$S" setting get currency_symbol
is "$OUT" "€" "... and a shop without its own value reads the installation's"
run --db "$S" setting set public_url https://tokyo.example/
is "$RC|$(q "$S" "SELECT merchant_id || ' ' || value FROM shop_settings WHERE key = 'public_url'")|$(q "$S" "SELECT count(*) FROM settings WHERE key = 'public_url'")" \
    "0|$SA https://tokyo.example/|0" \
    "with one shop, setting set of a shop's setting sets that shop's"
run --db "$S" setting list
ok "$([[ $OUT == *"currency shop JPY"* && $OUT == *"currency_symbol shop €"* && \
    $OUT == *"access_token_ttl installation 3600"* ]]; echo $?)" \
    "with one shop, setting list shows that shop's view with each scope" || diag "$OUT"
adds_id "a second shop" SB --db "$S" merchant add --name "Kuwait"
fails_cleanly "with several shops, setting set of a shop's setting needs --merchant" \
    "$S" --db "$S" setting set currency KWD
like "$ERR" "several.*--merchant MID.*--installation" "... and says so"
fails_cleanly "with several shops, setting get of a shop's setting needs --merchant" \
    "$S" --db "$S" setting get language
run --db "$S" setting set currency KWD --merchant "$SB"
is "$RC|$(q "$S" "SELECT value FROM shop_settings WHERE merchant_id = '$SB' AND key = 'currency'")" \
    "0|KWD" "setting set --merchant sets that shop's"
run --db "$S" setting get currency --merchant "$SA"
is "$OUT" JPY "... and leaves the other shop's"
run --db "$S" setting get language --merchant "$SB"
is "$OUT" en "setting get --merchant of a shop without its own value: the default"
run --db "$S" setting list
ok "$([[ $OUT == *"currency fallback "* && $OUT == *"currency_symbol fallback €"* ]]; echo $?)" \
    "with several shops, setting list shows the installation's fallback" || diag "$OUT"
run --db "$S" setting set login_max_failures 4
is "$RC $(q "$S" "SELECT value FROM settings WHERE key = 'login_max_failures'")" "0 4" \
    "an installation setting needs no --merchant with several shops"
is "$(q "$S" "SELECT count(*) FROM audit_log WHERE action = 'settings.update' AND merchant_id = '$SB' AND object_id = '$SB'")" 1 \
    "a shop's setting set by the tool is that shop's row of the audit trail"
fails_cleanly "an installation setting with --merchant fails" "$S" --db "$S" \
    setting set access_token_ttl 7200 --merchant "$SB"
like "$ERR" "installation's.*without --merchant" "... saying it is the installation's"
fails_cleanly "--merchant of no shop fails" "$S" --db "$S" \
    setting get currency --merchant 00000000-0000-4000-8000-000000000000
fails_cleanly "--merchant with --installation fails" "$S" --db "$S" \
    setting set language de --merchant "$SA" --installation
for bad in "currency EURO" "currency eur" "currency HRK" "time_zone Mars/Base" \
    "time_zone ../etc" "time_zone /etc/localtime" "language xx" "language EN"; do
	# shellcheck disable=SC2086
	fails_cleanly "setting set $bad --merchant fails" "$S" --db "$S" \
	    setting set $bad --merchant "$SB"
	like "$ERR" "${bad%% *} must be" "... naming the setting and its rule"
done
for bad in "--currency eur" "--time-zone Mars/Base" "--language xx"; do
	# shellcheck disable=SC2086
	fails_cleanly "merchant add $bad fails and makes no shop" "$S" --db "$S" \
	    merchant add --name "Bad" $bad
done

# --- events deliver ------------------------------------------------------------
# (tests/webhooks.sh delivers to a receiver; here: the command line.)

run --db "$DB" events deliver --max-seconds 5
ok "$([[ $RC -eq 0 && $OUT == 0 && -z $ERR ]]; echo $?)" \
    "events deliver with nothing due succeeds and prints 0 attempts" ||
    diag "exit $RC: $OUT $ERR"
is "$(q "$DB" 'SELECT count(*), min(ended_at >= started_at) FROM deliverer')" "1|1" \
    "... and records its run's start and end"
for v in 0 3601 abc ""; do
	fails_cleanly "events deliver --max-seconds '$v' fails" "$DB" \
	    --db "$DB" events deliver --max-seconds "$v"
done
fails_cleanly "events deliver with an unknown option fails" "$DB" \
    --db "$DB" events deliver --forever 1
fails_cleanly "events without deliver fails with usage" "$DB" \
    --db "$DB" events send
ok "$([[ $ERR == *usage:* ]]; echo $?)" "... printing the usage"

# --- demo --------------------------------------------------------------------

run --db "$T/demo.db" demo
ok "$([[ $RC -eq 0 && -f $T/demo.db ]]; echo $?)" \
    "demo creates a database and fills it" || diag "exit $RC: $ERR"
is "$(q "$T/demo.db" 'SELECT (SELECT count(*) FROM merchants) || (SELECT count(*) FROM locations) || (SELECT count(*) FROM users) || (SELECT count(*) FROM programs) || (SELECT count(*) FROM cards)')" \
    12233 "demo makes a merchant, 2 locations, 2 users, 3 programs, 3 cards"
if out=$(seed_login "$top_builddir" "$T/demo.db" owner@demo.example \
    demo-owner-pass); then
	is "$(jq -r .user.user_type <<<"$out")" owner \
	    "the demo owner logs in with the printed credentials"
else
	ok 1 "the demo owner logs in with the printed credentials"
fi
like "$OUT" "card [0-9a-f-]{36}  barcode [0-9]{13}" "demo prints its cards"

# --- cards to print ------------------------------------------------------------

run --db "$DB" card issue --program "$PUNCH" --customer "Ann <Print> & Co" \
    --svg "$T/card.svg"
C2=$(jq -r .card_instance_id <<<"$OUT" 2>/dev/null)
ok "$([[ $RC -eq 0 && -s $T/card.svg ]] && grep -q '<svg' "$T/card.svg"; echo $?)" \
    "card issue --svg writes the card as SVG" || diag "exit $RC: $ERR"
ok "$(grep -q 'Ann &lt;Print&gt; &amp; Co' "$T/card.svg"; echo $?)" \
    "the card's SVG escapes the customer's name"
if command -v rsvg-convert >/dev/null && command -v zbarimg >/dev/null &&
    rsvg-convert -w 850 -b white "$T/card.svg" -o "$T/card.png"; then
	codes=$(zbarimg -q "$T/card.png" 2>/dev/null | sort | tr '\n' ' ')
	is "$codes" "EAN-13:$(jq -r .barcode_value <<<"$OUT") QR-Code:$(jq -r .qr_code_data <<<"$OUT") " \
	    "the printed card's QR code and barcode scan back to its codes"
else
	echo "ok $((N += 1)) # SKIP rsvg-convert or zbarimg missing"
fi
run --db "$DB" card issue --program "$PUNCH" --count 1 --svg "$T/anon.svg"
ok "$([[ $RC -eq 0 && -s $T/anon.svg ]] && grep -q 'Coffee' "$T/anon.svg" &&
    ! grep -q 'font-size="34"' "$T/anon.svg"; echo $?)" \
    "card issue --count 1 --svg draws the card without a name line" ||
    diag "exit $RC: $ERR"
fails_cleanly "card issue --svg to a folder that does not exist fails" \
    "$DB" --db "$DB" card issue --program "$PUNCH" --customer Nobody \
    --svg "$T/no/such/dir/card.svg"
run --db "$DB" card issue --program nope --customer Nobody --svg "$T/no.svg"
ok "$([[ $RC -ne 0 && ! -e $T/no.svg ]]; echo $?)" \
    "a card issue that fails leaves no SVG file behind"
run --db "$DB" card print --program "$PUNCH"
ok "$([[ $RC -eq 0 && $OUT == '<!DOCTYPE html>'* ]]; echo $?)" \
    "card print prints an HTML sheet" || diag "exit $RC: $ERR"
is "$(grep -o 'class="card"' <<<"$OUT" | wc -l)" \
    "$(q "$DB" "SELECT count(*) FROM cards WHERE program_id = '$PUNCH'")" \
    "the sheet holds every card of the program"
fails_cleanly "card print of an unknown program fails" "$DB" \
    --db "$DB" card print --program nope
fails_cleanly "card print --page 0 fails" "$DB" \
    --db "$DB" card print --program "$PUNCH" --page 0

# --- the whole database is still sound ---------------------------------------

is "$(q "$DB" 'PRAGMA integrity_check; PRAGMA foreign_key_check;')" ok \
    "after all of this the database passes integrity and foreign key checks"

echo "1..$N"
(( FAILED == 0 ))
