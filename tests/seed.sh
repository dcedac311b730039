#!/usr/bin/env bash
#
# The test seed: one fresh database made with the built admin tool, and a
# file of shell assignments naming everything in it.
#
#   tests/seed.sh BUILDDIR DBFILE VARSFILE
#
# or, sourced, the functions seed_build (same arguments) and seed_login.
# DBFILE must not exist yet. VARSFILE gets one NAME='value' line per
# variable, safe to source in sh or bash (QR payloads hold + and /):
#
#   M1 L1 L2                   merchant "Test Cafe", locations "Front", "Back"
#   OWNER_ID STAFF_ID STAFF2_ID   owner, staff at L1, staff2 at L2 (no name)
#   PUNCH_PROG QUICK_PROG CASH_PROG DISC_PROG   programs of M1
#   PUNCH_* QUICK_* CASH_* DISC_* INACTIVE_*    cards: _ID, _QR, _BARCODE,
#                              _SHARE (share token), _CUSTOMER (INACTIVE:
#                              punch card, deactivated)
#   M2 M2L1 OWNER2_ID M2_PROG M2CARD_*          merchant "Other Shop"
#   X_EMAIL X_PASSWORD for X in OWNER STAFF STAFF2 OWNER2
#   L1_NAME L2_NAME M2L1_NAME M1_NAME M2_NAME

# Everyone's credentials, in one place.
SEED_OWNER_EMAIL=owner@m1.test
SEED_OWNER_PASSWORD=owner-pass
SEED_STAFF_EMAIL=staff@m1.test
SEED_STAFF_PASSWORD=staff-pass
SEED_STAFF2_EMAIL=staff2@m1.test
SEED_STAFF2_PASSWORD=staff2-pass
SEED_OWNER2_EMAIL=owner@m2.test
SEED_OWNER2_PASSWORD=owner2-pass

# Helpers of seed_build; they see its locals (bash scoping is dynamic).

# _seed_set NAME VALUE
_seed_set()
{
	names+=("$1")
	val[$1]=$2
}

# _seed_adm ARGS...: runs the admin tool on the seed database.
_seed_adm()
{
	"$admin" --db "$db" "$@"
}

# _seed_add NAME ARGS...: runs an "add" whose stdout is the new id.
_seed_add()
{
	local n=$1

	shift
	if ! out=$(_seed_adm "$@" </dev/null); then
		echo "seed: loyalty-admin $* failed" >&2
		return 1
	fi
	if [[ ! $out =~ $uuid ]]; then
		echo "seed: loyalty-admin $* printed '$out', not an id" >&2
		return 1
	fi
	_seed_set "$n" "$out"
}

# _seed_user NAME PASSWORD ARGS...: user add, the password on stdin.
_seed_user()
{
	local n=$1 pw=$2

	shift 2
	if ! out=$(printf '%s\n' "$pw" | _seed_adm user add "$@"); then
		echo "seed: loyalty-admin user add $* failed" >&2
		return 1
	fi
	if [[ ! $out =~ $uuid ]]; then
		echo "seed: user add printed '$out', not an id" >&2
		return 1
	fi
	_seed_set "$n" "$out"
}

# _seed_card PREFIX PROGRAM CUSTOMER: card issue, setting PREFIX_ID,
# PREFIX_QR, PREFIX_BARCODE, PREFIX_SHARE and PREFIX_CUSTOMER.
_seed_card()
{
	local p=$1 id bc qr sh

	if ! out=$(_seed_adm card issue --program "$2" --customer "$3" \
	    </dev/null) ||
	    ! { read -r id; read -r bc; read -r qr; read -r sh; } < <(jq -r \
	    '.card_instance_id, .barcode_value, .qr_code_data, .share_token' \
	    <<<"$out") ||
	    [[ ! $id =~ $uuid || -z $bc || -z $qr || ! $sh =~ ^[0-9a-f]{32}$ ]]; then
		echo "seed: card issue for $p failed: $out" >&2
		return 1
	fi
	_seed_set "${p}_ID" "$id"
	_seed_set "${p}_QR" "$qr"
	_seed_set "${p}_BARCODE" "$bc"
	_seed_set "${p}_SHARE" "$sh"
	_seed_set "${p}_CUSTOMER" "$3"
}

# seed_build BUILDDIR DBFILE VARSFILE: 0, or 1 with the reason on stderr.
seed_build()
{
	local builddir=$1 db=$2 vars=$3
	local admin="$builddir/tools/loyalty-admin"
	local uuid='^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
	local -a names=()
	local -A val=()
	local out name q="'\\''"

	if [[ $# -ne 3 ]]; then
		echo "usage: seed.sh BUILDDIR DBFILE VARSFILE" >&2
		return 1
	fi
	if [[ ! -x $admin ]]; then
		echo "seed: no admin tool at $admin (build first)" >&2
		return 1
	fi
	if [[ -e $db ]]; then
		echo "seed: $db exists already" >&2
		return 1
	fi
	command -v jq >/dev/null || { echo "seed: jq is needed" >&2; return 1; }

	_seed_adm init </dev/null || { echo "seed: init failed" >&2; return 1; }
	# The fixtures' offline purchases carry fixed dates (2026-03-01):
	# kept syncable as the calendar moves on. Cases of the limit itself
	# set it back.
	_seed_adm setting set sync_max_age_days 3650 </dev/null ||
	    { echo "seed: setting failed" >&2; return 1; }

	_seed_set M1_NAME "Test Cafe"
	_seed_add M1 merchant add --name "Test Cafe" || return 1
	_seed_set L1_NAME "Front"
	_seed_add L1 location add --merchant "${val[M1]}" --name "Front" || return 1
	_seed_set L2_NAME "Back"
	_seed_add L2 location add --merchant "${val[M1]}" --name "Back" || return 1
	_seed_user OWNER_ID "$SEED_OWNER_PASSWORD" --merchant "${val[M1]}" \
	    --email "$SEED_OWNER_EMAIL" --type owner --name "Olive Owner" ||
	    return 1
	_seed_user STAFF_ID "$SEED_STAFF_PASSWORD" --merchant "${val[M1]}" \
	    --email "$SEED_STAFF_EMAIL" --type system_user \
	    --location "${val[L1]}" --name "Sam Staff" || return 1
	_seed_user STAFF2_ID "$SEED_STAFF2_PASSWORD" --merchant "${val[M1]}" \
	    --email "$SEED_STAFF2_EMAIL" --type system_user \
	    --location "${val[L2]}" || return 1

	_seed_add PUNCH_PROG program add --merchant "${val[M1]}" --type punch \
	    --title "Coffee Card" --punches 10 --reward-title "Free coffee" \
	    --reward-description "Any hot drink" --reward-amount 3.50 \
	    --cooldown 60 || return 1
	_seed_add QUICK_PROG program add --merchant "${val[M1]}" --type punch \
	    --title "Quick Card" --punches 3 --reward-title "Cookie" \
	    --cooldown 1 || return 1
	_seed_add CASH_PROG program add --merchant "${val[M1]}" --type cashback \
	    --title "Cashback Club" --tier Bronze:0:0.05 \
	    --tier Silver:100:0.10 || return 1
	_seed_add DISC_PROG program add --merchant "${val[M1]}" --type discount \
	    --title "Member Discount" --tier Member:0:0.10 \
	    --tier VIP:250:0.20 || return 1

	_seed_card PUNCH "${val[PUNCH_PROG]}" "Pat Punch" || return 1
	_seed_card QUICK "${val[QUICK_PROG]}" "Quinn Quick" || return 1
	_seed_card CASH "${val[CASH_PROG]}" "Cass Cash" || return 1
	_seed_card DISC "${val[DISC_PROG]}" "Dee Discount" || return 1
	_seed_card INACTIVE "${val[PUNCH_PROG]}" "Ira Inactive" || return 1
	_seed_adm card deactivate "${val[INACTIVE_ID]}" </dev/null ||
	    { echo "seed: card deactivate failed" >&2; return 1; }

	_seed_set M2_NAME "Other Shop"
	_seed_add M2 merchant add --name "Other Shop" || return 1
	_seed_set M2L1_NAME "Main"
	_seed_add M2L1 location add --merchant "${val[M2]}" --name "Main" || return 1
	_seed_user OWNER2_ID "$SEED_OWNER2_PASSWORD" --merchant "${val[M2]}" \
	    --email "$SEED_OWNER2_EMAIL" --type owner || return 1
	_seed_add M2_PROG program add --merchant "${val[M2]}" --type punch \
	    --title "Tea Card" --punches 5 --reward-title "Free tea" ||
	    return 1
	_seed_card M2CARD "${val[M2_PROG]}" "Mo Other" || return 1

	for name in OWNER STAFF STAFF2 OWNER2; do
		local e="SEED_${name}_EMAIL" p="SEED_${name}_PASSWORD"

		_seed_set "${name}_EMAIL" "${!e}"
		_seed_set "${name}_PASSWORD" "${!p}"
	done

	{
		for name in "${names[@]}"; do
			printf "%s='%s'\n" "$name" "${val[$name]//\'/$q}"
		done
	} >"$vars" || return 1
	return 0
}

# seed_login BUILDDIR DBFILE EMAIL PASSWORD: runs the login responder as
# plain CGI and prints the response body (the JSON after the headers).
# Returns non-zero when the responder fails or answers other than 200.
seed_login()
{
	local body out

	body=$(printf '{"email":"%s","password":"%s"}' "$3" "$4")
	out=$(env -i REQUEST_METHOD=POST REQUEST_URI=/api/v1/auth/login \
	    CONTENT_TYPE=application/json CONTENT_LENGTH=${#body} \
	    GATEWAY_INTERFACE=CGI/1.1 SERVER_PROTOCOL=HTTP/1.1 \
	    LOYALTY_DB="$2" "$1/cgi-bin/login.fcgi" <<<"$body") || return 1
	[[ $out == "Status: 200 "* ]] || return 1
	printf '%s\n' "${out#*$'\r\n\r\n'}"
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	seed_build "$@"
fi
