#!/usr/bin/env bash
#
# loyalty-admin migrate-to and setup-code on PostgreSQL, end to end. TAP.
#
# A shop is built on SQLite through the running service (lighttpd, lt_start
# of tests/lib.sh): purchases on punch, cashback and discount cards, a
# reward earned and claimed, cashback redeemed across several earnings and
# earning on the remainder, voids of a purchase and of a redemption, an
# owner's adjustment, expired cashback, a sync batch, an enrolment, failed
# and good logins, refresh tokens, audit rows, and text holding tabs,
# newlines, backslashes, quotes and non-ASCII letters. It is then copied,
# live, into an empty PostgreSQL database (a throwaway cluster,
# tests/pg_lib.sh), and:
#   - every table is the same row for row (rowid too where PostgreSQL
#     keeps it), each value compared as the bytes of its text (a blob's
#     bytes), so only the representation is normalised;
#   - the service, restarted on the copy, answers every card's lookup and
#     history as before, takes old access and refresh tokens, and a new
#     purchase comes after the old ones (the identity counters continue);
#   - a second copy into the same database, a copy from a database at
#     another schema version and one into a name that is not PostgreSQL's
#     fail, say why, and change no row;
#   - a sale made on SQLite after the copy's snapshot makes it fail, saying
#     so (the snapshot's copy, committed, lacks the sale);
#   - setup-code on a fresh PostgreSQL database prints one 20-symbol code,
#     the back office's setup takes it and empties it, and setup-code then
#     says the shop is set up already.
#
# Skipped (1..0) when the build has no PostgreSQL backend or PostgreSQL's
# server programs are missing; with LC_REQUIRE_PG set (but to 0) that is a
# failure instead.
set -u
export LC_ALL=C
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir/build}
export top_srcdir top_builddir

LT_BACKEND=sqlite
# Nothing here is about durability (as tests/fixtures.sh).
LC_TEST_PG_FSYNC=${LC_TEST_PG_FSYNC:-off}
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/pg_lib.sh"
lt_pg_gate migrate-to
. "$top_srcdir/tests/seed.sh"
for tool in jq curl sqlite3 sha256sum; do
	command -v "$tool" >/dev/null || bail "$tool is not installed (tools/check installs it)"
done
ADM=$LT_ADMIN

# Text the copy must keep byte for byte. Names hold no control characters
# nor do reasons (the service refuses them); notes do, and one name of the
# other merchant gets them through SQL, for the copy alone.
ODD_NAME=$'Zoë "O\'Brien" \\ Ünal \\n \\t'
CTRL_NAME=$'Tab\there, CR\r, LF\nÅ \\ \'q\' "qq"'
ODD_NOTE=$'Table\t4 \\n is not a newline, this is:\n«ok» \'q\' "qq" \\'
ODD_REASON=$'Keyed twice by mistake \\ "sorry" \'Åse\''

# The seed of tests/seed.sh, and a cashback program whose earnings expire,
# with a card, and a card of an odd name.
mig_seed() {
	local adm=("$ADM" --db "$LOYALTY_DB") p out
	seed_build "$top_builddir" "$LOYALTY_DB" "$LT_DIR/seed.vars" || return 1
	# shellcheck disable=SC1091
	. "$LT_DIR/seed.vars"
	p=$("${adm[@]}" program add --merchant "$M1" --type cashback \
	    --title "Expiring Club" --tier Base:0:0.10 --expiry-days 30 \
	    </dev/null) || return 1
	out=$("${adm[@]}" card issue --program "$p" --customer "Eve Expiry" \
	    </dev/null) || return 1
	echo "EXP_ID='$(jq -r .card_instance_id <<<"$out")'" >>"$LT_DIR/seed.vars"
	out=$("${adm[@]}" card issue --program "$CASH_PROG" --customer \
	    "$ODD_NAME" </dev/null) || return 1
	echo "ODD_ID='$(jq -r .card_instance_id <<<"$out")'" >>"$LT_DIR/seed.vars"
	sqlite3 "$LOYALTY_DB" "UPDATE cards SET customer_name =
	    '$(printf '%s' "$CTRL_NAME" | sed "s/'/''/g")' WHERE id = '$M2CARD_ID'"
}

T0=$SECONDS
lt_start mig_seed
# shellcheck disable=SC1091
. "$LT_DIR/seed.vars"
diag "the seed and lighttpd: $((SECONDS - T0)) s"
lt_pg_start
trap 'lt_stop; lt_pg_stop' EXIT
diag "the cluster: $((SECONDS - T0)) s"
SQ=$LT_DB
W=$LT_DIR/work
mkdir -p "$W"
sq() { sqlite3 -batch -cmd '.timeout 5000' "$SQ" "$@"; }

# post PATH JSON: a request that must succeed (200, 201), else bail out.
post() {
	lt_req POST "$1" "$2"
	[ "$LT_STATUS" = 200 ] || [ "$LT_STATUS" = 201 ] || bail "POST $1 $2: $LT_STATUS $LT_BODY"
}
# A JSON string of shell text.
js() { jq -n --arg s "$1" '$s'; }

# --- the shop, through the service ------------------------------------------
# Failed logins: the staff's are forgiven by their good one, owner2's stay.
for e in "$STAFF_EMAIL" "$OWNER2_EMAIL" "$OWNER2_EMAIL"; do
	lt_req POST /api/v1/auth/login "{\"email\":\"$e\",\"password\":\"wrong\"}"
	[ "$LT_STATUS" = 401 ] || bail "a wrong password answered $LT_STATUS"
done
lt_login "$OWNER_EMAIL" "$OWNER_PASSWORD" || bail "owner login failed"
OWNER_TOKEN=$LT_TOKEN
lt_login "$STAFF_EMAIL" "$STAFF_PASSWORD" || bail "staff login failed"
post /api/v1/auth/refresh "{\"refresh_token\":\"$LT_REFRESH\"}"
STAFF_TOKEN=$(lt_jq .access_token) STAFF_REFRESH=$(lt_jq .refresh_token)
[ -n "$STAFF_REFRESH" ] && [ "$STAFF_REFRESH" != null ] || bail "refresh gave no token"
lt_login "$STAFF2_EMAIL" "$STAFF2_PASSWORD" || bail "staff2 login failed"
STAFF2_REFRESH=$LT_REFRESH
LT_TOKEN=$STAFF_TOKEN

at="\"location_id\":\"$L1\",\"staff_user_id\":\"$STAFF_ID\""
# Punch card: 12 punches earn a reward (10) and leave 2; the reward is claimed.
post /api/v1/transactions/record "{\"card_instance_id\":\"$PUNCH_ID\",$at,\"purchase_amount\":4.50,\"punch_count\":12,\"transaction_notes\":$(js "$ODD_NOTE")}"
post /api/v1/rewards/claim "{\"card_instance_id\":\"$PUNCH_ID\",$at}"
post /api/v1/transactions/record "{\"card_instance_id\":\"$QUICK_ID\",$at,\"purchase_amount\":1.00,\"punch_count\":2,\"pos_reference_id\":\"R-1\",\"pos_terminal_id\":\"till-1\"}"
# Cashback (5%): three earnings, a redemption across the first two whose
# remainder earns, a purchase voided, a redemption voided.
post /api/v1/transactions/record "{\"card_instance_id\":\"$CASH_ID\",$at,\"purchase_amount\":20.00}"
post /api/v1/transactions/record "{\"card_instance_id\":\"$CASH_ID\",$at,\"purchase_amount\":40.00,\"idempotency_key\":\"rec-2\"}"
post /api/v1/transactions/record "{\"card_instance_id\":\"$CASH_ID\",$at,\"purchase_amount\":30.00}"
post /api/v1/cashback/redeem "{\"card_instance_id\":\"$CASH_ID\",$at,\"redemption_amount\":2.50,\"purchase_amount\":10.00,\"earn_on_remainder\":true}"
[ "$(lt_jq '.redeemed_entries | length')" = 2 ] || bail "the redemption did not span two earnings: $LT_BODY"
[ "$(lt_jq '.earned.transaction_id | type')" = string ] || bail "the redemption earned nothing on its remainder: $LT_BODY"
post /api/v1/transactions/record "{\"card_instance_id\":\"$CASH_ID\",$at,\"purchase_amount\":12.34}"
VOID_PURCHASE=$(lt_jq .data.transaction_id)
post /api/v1/transactions/void "{\"transaction_id\":\"$VOID_PURCHASE\",\"reason\":$(js "$ODD_REASON"),$at}"
post /api/v1/cashback/redeem "{\"card_instance_id\":\"$CASH_ID\",$at,\"redemption_amount\":0.50,\"purchase_amount\":5.00}"
VOID_REDEEM=$(lt_jq .transaction_id)
post /api/v1/transactions/void "{\"transaction_id\":\"$VOID_REDEEM\",\"reason\":\"wrong card\",$at}"
post /api/v1/transactions/record "{\"card_instance_id\":\"$ODD_ID\",$at,\"purchase_amount\":8.00,\"transaction_notes\":$(js "$ODD_NAME")}"
# Discount card, twice.
post /api/v1/transactions/record "{\"card_instance_id\":\"$DISC_ID\",$at,\"purchase_amount\":99.99}"
post /api/v1/transactions/record "{\"card_instance_id\":\"$DISC_ID\",$at,\"purchase_amount\":200.00}"
# Expiring cashback: the first earning expires (as the expiry fixtures make
# it: its date moved into the past), which the next read records.
post /api/v1/transactions/record "{\"card_instance_id\":\"$EXP_ID\",$at,\"purchase_amount\":20.00}"
EXP_E1=$(lt_jq .data.transaction_id)
post /api/v1/transactions/record "{\"card_instance_id\":\"$EXP_ID\",$at,\"purchase_amount\":15.00}"
sq "UPDATE cashback_earnings SET expires_at = 1700000000000 WHERE transaction_id = '$EXP_E1'" ||
    bail "cannot age the earning"
post /api/v1/cards/lookup "{\"barcode_value\":\"$(sq "SELECT barcode FROM cards WHERE id = '$EXP_ID'")\"}"
[ "$(sq "SELECT count(*) FROM transactions WHERE type = 'expiry'")" = 1 ] ||
    bail "no expiry was recorded"
# A sync batch of a till that was offline.
post /api/v1/transactions/sync "{\"transactions\":[{\"qr_code_data\":\"$PUNCH_QR\",$at,\"purchase_amount\":3.00,\"punch_count\":1,\"client_timestamp\":\"2026-03-01T10:00:00Z\",\"idempotency_key\":\"sb-1\"},{\"qr_code_data\":\"$CASH_QR\",$at,\"purchase_amount\":11.00,\"idempotency_key\":\"sb-2\",\"transaction_notes\":$(js "$ODD_NOTE")},{\"qr_code_data\":\"$DISC_QR\",$at,\"purchase_amount\":5.00,\"idempotency_key\":\"sb-3\"}]}"
# An enrolment, and the owner's adjustment of its card.
post /api/v1/cards/enrol "{\"program_id\":\"$PUNCH_PROG\",\"customer_name\":$(js "$ODD_NAME"),\"idempotency_key\":\"enrol-1\"}"
ENROLLED=$(lt_jq .data.card_instance_id)
LT_TOKEN=$OWNER_TOKEN
post "/api/v1/admin/cards/$ENROLLED/adjust" "{\"punches\":4,\"reason\":$(js "$ODD_REASON"),\"idempotency_key\":\"adj-1\"}"
post "/api/v1/admin/cards/$CASH_ID/adjust" "{\"cashback_amount\":-0.25,\"reason\":\"goodwill taken back\"}"
LT_TOKEN=$STAFF_TOKEN

for q in "type = 'punch'" "type = 'cashback'" "type = 'discount'" \
    "type = 'reward_claim'" "type = 'cashback_redeem'" "type = 'void'" \
    "type = 'adjustment'" "type = 'expiry'" "client_timestamp IS NOT NULL" \
    "transaction_notes LIKE '%' || char(9) || '%' || char(10) || '%'"; do
	[ "$(sq "SELECT count(*) > 0 FROM transactions WHERE $q")" = 1 ] ||
	    bail "the shop has no transaction where $q"
done
for t in login_attempts tokens audit_log redemption_entries idempotency_keys \
    report_buckets rewards events; do
	[ "$(sq "SELECT count(*) > 0 FROM $t")" = 1 ] || bail "the shop has no $t"
done
diag "the SQLite shop: $(sq "SELECT count(*) FROM transactions") transactions, $(sq "SELECT count(*) FROM cards") cards, $(sq "SELECT count(*) FROM audit_log") audit rows"

# Every card of M1 as the service shows it: lookup and history.
CARDS=$(sq "SELECT id FROM cards WHERE merchant_id = '$M1' ORDER BY id")
snapshot() {	# DIR
	local c bc
	mkdir -p "$1"
	for c in $CARDS; do
		bc=$(sq "SELECT barcode FROM cards WHERE id = '$c'")
		lt_req POST /api/v1/cards/lookup "{\"barcode_value\":\"$bc\"}"
		printf '%s %s\n' "$LT_STATUS" "$LT_BODY" >"$1/$c.lookup"
		lt_req GET "/api/v1/transactions/history?card_instance_id=$c&page_size=100"
		printf '%s %s\n' "$LT_STATUS" "$LT_BODY" >"$1/$c.history"
	done
}
snapshot "$W/before"

# --- the copy ----------------------------------------------------------------
# Each table's rows, one line each, sorted: rowid first where PostgreSQL
# keeps it, then every column of SQLite's table, each value as the hex of
# its text (a blob's bytes, B before them; NULL as N).
TABLES=$(sq "SELECT name FROM sqlite_master WHERE type = 'table' AND
    name NOT LIKE 'sqlite%' AND name <> 'schema_migrations' ORDER BY name")
# PostgreSQL's column types (the same for every database of this program):
# PGT[table.column], and PGT[table.rowid] where a table keeps one.
declare -A PGT
pg_types() {	# URI
	local t c ty
	while IFS='|' read -r t c ty; do
		PGT[$t.$c]=$ty
	done < <(lt_pg_sql "$1" "SELECT table_name, column_name, data_type
	    FROM information_schema.columns WHERE table_schema = current_schema()")
	[ ${#PGT[@]} -gt 0 ]
}
dump_sqlite() {	# DB OUT
	local t c e cols sql=
	for t in $TABLES; do
		e="'$t'"
		[ -n "${PGT[$t.rowid]:-}" ] && e="$e || '|' || rowid"
		cols=$(sqlite3 -batch "$1" "SELECT name FROM pragma_table_info('$t') ORDER BY cid")
		for c in $cols; do
			e="$e || '|' || CASE typeof(\"$c\") WHEN 'null' THEN 'N'
			    WHEN 'blob' THEN 'B' || lower(hex(\"$c\"))
			    ELSE lower(hex(CAST(\"$c\" AS TEXT))) END"
		done
		sql="$sql SELECT $e FROM \"$t\";"
	done
	sqlite3 -batch "$1" "$sql" | sort >"$2" && [ "${PIPESTATUS[0]}" = 0 ]
}
dump_pg() {	# URI OUT
	local t c e sql=
	for t in $TABLES; do
		e="'$t'"
		[ -n "${PGT[$t.rowid]:-}" ] && e="$e || '|' || rowid"
		for c in $(sq "SELECT name FROM pragma_table_info('$t') ORDER BY cid"); do
			if [ "${PGT[$t.$c]:-}" = bytea ]; then
				e="$e || '|' || CASE WHEN \"$c\" IS NULL THEN 'N'
				    ELSE 'B' || encode(\"$c\", 'hex') END"
			else
				e="$e || '|' || CASE WHEN \"$c\" IS NULL THEN 'N'
				    ELSE encode(convert_to(\"$c\"::text, 'UTF8'), 'hex') END"
			fi
		done
		sql="$sql SELECT $e FROM \"$t\";"
	done
	lt_pg_sql "$1" "$sql" | sort >"$2" && [ "${PIPESTATUS[0]}" = 0 ]
}
# The total of rows of every table of a PostgreSQL database.
pg_rows() {	# URI
	local t sql="SELECT 0"
	for t in $TABLES; do sql="$sql + (SELECT count(*) FROM \"$t\")"; done
	lt_pg_sql "$1" "$sql"
}

# The newest events pruned (as after a long quiet spell): their seqs are
# never given again, on SQLite (AUTOINCREMENT) nor on the copy.
EV_SEQ=$(sq "SELECT seq FROM sqlite_sequence WHERE name = 'events'")
sq "DELETE FROM events WHERE seq > $EV_SEQ - 2" || bail "cannot prune events"
[ "$(sq "SELECT count(*) FROM events")" -gt 0 ] || bail "no events left"
PG=$(lt_pg_db shop) || bail "no PostgreSQL database"
# Live: the service still runs on the SQLite file (idle).
out=$("$ADM" --db "$SQ" migrate-to "$PG" 2>"$W/migrate.err")
rc=$?
is "$rc" 0 "migrate-to exits 0 ($(head -c 300 "$W/migrate.err"))"
like "$out" "^copied $(echo "$TABLES" | wc -l) tables, [0-9]+ rows; counts, balances and ledger sums checked$" \
    "migrate-to prints its summary, every table named"
total=0
for t in $TABLES; do total=$((total + $(sq "SELECT count(*) FROM \"$t\""))); done
like "$out" "^copied [0-9]+ tables, $total rows;" "the summary counts every row of the file ($total)"

pg_types "$PG" || bail "cannot read PostgreSQL's columns"
dump_sqlite "$SQ" "$W/sqlite.dump" || bail "cannot dump SQLite"
dump_pg "$PG" "$W/pg.dump" || bail "cannot dump PostgreSQL"
is "$(wc -l <"$W/sqlite.dump")" "$total" "the SQLite dump has every row"
if cmp -s "$W/sqlite.dump" "$W/pg.dump"; then
	tap_result 0 "every table is the same row for row, in rowid and bytes"
else
	tap_result 1 "every table is the same row for row, in rowid and bytes"
	diff "$W/sqlite.dump" "$W/pg.dump" | head -10 | while IFS= read -r l; do diag "$l"; done
fi
odd_hex=$(printf '%s' "$ODD_NAME" | od -An -tx1 | tr -d ' \n')
is "$(lt_pg_sql "$PG" "SELECT encode(convert_to(customer_name, 'UTF8'), 'hex') FROM cards WHERE id = '$ODD_ID'")" \
    "$odd_hex" "a name with backslashes, quotes and non-ASCII letters is the same bytes"
ctrl_hex=$(printf '%s' "$CTRL_NAME" | od -An -tx1 | tr -d ' \n')
is "$(lt_pg_sql "$PG" "SELECT encode(convert_to(customer_name, 'UTF8'), 'hex') FROM cards WHERE id = '$M2CARD_ID'")" \
    "$ctrl_hex" "a name with a tab, CR and LF is the same bytes"
is "$(lt_pg_sql "$PG" "SELECT count(*) FROM transactions WHERE type = 'void' AND reason = '$(printf '%s' "$ODD_REASON" | sed "s/'/''/g")'")" \
    1 "the void's odd reason is the same text"
is "$(lt_pg_sql "$PG" "SELECT string_agg(version::text || ':' || name, ',' ORDER BY version) FROM schema_migrations")" \
    "$(sq "SELECT group_concat(version || ':' || name, ',') FROM (SELECT * FROM schema_migrations ORDER BY version)")" \
    "PostgreSQL's migrations are SQLite's"

# --- the service on the copy ---------------------------------------------------
lt_restart_on "$PG"
LT_TOKEN=$STAFF_TOKEN
lt_req GET /api/v1/auth/me
is "$LT_STATUS $(lt_jq .id)" "200 $STAFF_ID" "an access token given by the SQLite shop opens the copy"
snapshot "$W/after"
bad=
for c in $CARDS; do
	for k in lookup history; do
		# The same answer but for its meta (a request's id and time).
		[ "$(head -c 3 "$W/before/$c.$k")" = 200 ] &&
		    [ "$(cut -d' ' -f2- "$W/before/$c.$k" | jq -S 'del(.meta)')" = \
		    "$(cut -d' ' -f2- "$W/after/$c.$k" | jq -S 'del(.meta)')" ] &&
		    [ "$(head -c 3 "$W/after/$c.$k")" = 200 ] || bad="$bad $k:$c"
	done
done
is "$bad" "" "every card's lookup and history answer on PostgreSQL as on SQLite ($(echo "$CARDS" | wc -w) cards)"
# What the comparison rests on: the answers carry the balances.
bal() { cut -d' ' -f2- "$1" | jq -r "$2"; }
is "$(bal "$W/after/$CASH_ID.lookup" '.data.cashback_balance // .data.card.cashback_balance')" \
    "$(sq "SELECT printf('%.2f', cashback_balance / 100.0) FROM cards WHERE id = '$CASH_ID'" | sed 's/\.\?0*$//')" \
    "the cashback card's balance on PostgreSQL is SQLite's figure"
is "$(bal "$W/after/$PUNCH_ID.lookup" '[.data.current_punches // .data.card.current_punches, .data.pending_rewards // .data.card.pending_rewards] | join(" ")')" \
    "$(sq "SELECT current_punches || ' ' || pending_rewards FROM cards WHERE id = '$PUNCH_ID'")" \
    "the punch card's punches and rewards on PostgreSQL are SQLite's"
is "$(bal "$W/after/$CASH_ID.history" '.data.transactions | length')" \
    "$(sq "SELECT count(*) FROM transactions WHERE card_id = '$CASH_ID'")" \
    "the cashback card's history on PostgreSQL lists all its transactions"

# A new purchase: its transaction and earning continue the counters.
SQ_OLD_MAX=$(sq "SELECT max(rowid) FROM transactions")
EARN_OLD_MAX=$(sq "SELECT max(rowid) FROM cashback_earnings")
lt_req POST /api/v1/transactions/record "{\"card_instance_id\":\"$CASH_ID\",$at,\"purchase_amount\":50.00}"
is "$LT_STATUS" 200 "a new purchase on PostgreSQL is taken"
NEW_TX=$(lt_jq .data.transaction_id)
is "$(lt_pg_sql "$PG" "SELECT rowid FROM transactions WHERE id = '$NEW_TX'")" "$((SQ_OLD_MAX + 1))" \
    "its transaction's rowid follows the copied ones ($SQ_OLD_MAX)"
is "$(lt_pg_sql "$PG" "SELECT rowid FROM cashback_earnings WHERE transaction_id = '$NEW_TX'")" \
    "$((EARN_OLD_MAX + 1))" "its earning's rowid follows the copied ones ($EARN_OLD_MAX)"
is "$(lt_pg_sql "$PG" "SELECT min(seq) || ' ' || count(*) FROM events WHERE json_extract_path_text(data::json, 'transaction', 'transaction_id') = '$NEW_TX'")" \
    "$((EV_SEQ + 1)) 1" "its event's seq follows the last SQLite gave ($EV_SEQ), the newest pruned"
lt_req GET "/api/v1/transactions/history?card_instance_id=$CASH_ID&page_size=100"
is "$(lt_jq '.data.transactions[0].transaction_id')" "$NEW_TX" "the history lists it first, before every old one"
is "$(lt_jq '[.data.transactions[1:][].transaction_id] | join(" ")')" \
    "$(bal "$W/before/$CASH_ID.history" '[.data.transactions[].transaction_id] | join(" ")')" \
    "then the old ones, in their order"
oldest=$(sq "SELECT transaction_id FROM cashback_earnings WHERE card_id = '$CASH_ID' AND remaining > 0 ORDER BY rowid LIMIT 1")
lt_req POST /api/v1/cashback/redeem "{\"card_instance_id\":\"$CASH_ID\",$at,\"redemption_amount\":0.10,\"purchase_amount\":1.00}"
is "$LT_STATUS $(lt_jq '.redeemed_entries[0].earning_transaction_id')" \
    "200 $oldest" "a redemption on PostgreSQL spends the oldest copied earning first"

lt_req POST /api/v1/auth/refresh "{\"refresh_token\":\"$STAFF_REFRESH\"}"
is "$LT_STATUS" 200 "a refresh token given on SQLite rotates on PostgreSQL"
lt_req POST /api/v1/auth/refresh "{\"refresh_token\":\"$STAFF2_REFRESH\"}"
is "$LT_STATUS" 200 "another user's refresh token works too"
lt_req POST /api/v1/auth/refresh "{\"refresh_token\":\"$STAFF_REFRESH\"}"
is "$LT_STATUS" 401 "the rotated one, sent again, is refused (its login's tokens came along)"
lc_server_stop
# The copy as it is now: its rows and its identity counters.
pg_state() {	# URI OUT
	dump_pg "$1" "$2" && lt_pg_sql "$1" "SELECT sequencename || ' ' ||
	    coalesce(last_value, 0) FROM pg_sequences ORDER BY 1" >>"$2"
}
pg_state "$PG" "$W/pg2.dump" || bail "cannot dump PostgreSQL"

# --- what must fail, and change nothing -----------------------------------------
out=$("$ADM" --db "$SQ" migrate-to "$PG" 2>&1)
rc=$?
isnt_zero() { [ "$1" -ne 0 ]; }
ok "a second migrate-to into the same database fails" isnt_zero "$rc"
like "$out" "not empty \(table [a-z_]+ has rows\)" "and names a table that has rows"
pg_state "$PG" "$W/pg3.dump" || bail "cannot dump PostgreSQL"
ok "and the database is unchanged, rows and identity counters" cmp -s "$W/pg2.dump" "$W/pg3.dump"

# A newer program's SQLite file: one migration more.
sqlite3 "$SQ" ".backup '$W/newer.db'" || bail "cannot copy the shop"
sqlite3 "$W/newer.db" "INSERT INTO schema_migrations VALUES (999, '999_future', 0)" ||
    bail "cannot make a newer file"
NEWER_SUM=$(sha256sum <"$W/newer.db")
PGV=$(lt_pg_db other_version) || bail "no PostgreSQL database"
out=$("$ADM" --db "$W/newer.db" migrate-to "$PGV" 2>&1)
rc=$?
ok "migrate-to from a file at another schema version fails" isnt_zero "$rc"
like "$out" "different schema versions \(999 and [0-9]+\)" "and says the versions differ"
is "$(pg_rows "$PGV")" 0 "and the PostgreSQL database has no row"
is "$(lt_pg_sql "$PGV" "SELECT count(*) FROM pg_sequences WHERE last_value IS NOT NULL")" 0 \
    "nor an identity counter moved"
is "$(sha256sum <"$W/newer.db")" "$NEWER_SUM" "and the file is unchanged"

SQ_SUM=$(sqlite3 "$SQ" .dump | sha256sum)
out=$("$ADM" --db "$SQ" migrate-to "$W/target.db" 2>&1)
rc=$?
ok "migrate-to a file name fails" isnt_zero "$rc"
like "$out" "is not a PostgreSQL database" "and says it wants a PostgreSQL name"
ok "and makes no file" test ! -e "$W/target.db"
out=$("$ADM" --db "$PG" migrate-to "$(lt_pg_db from_pg)" 2>&1)
rc=$?
ok "migrate-to from a PostgreSQL database fails" isnt_zero "$rc"
like "$out" "copies a SQLite database" "and says what it copies"
is "$(sqlite3 "$SQ" .dump | sha256sum)" "$SQ_SUM" "the SQLite shop is unchanged by all of these"

# --- a sale during the copy ----------------------------------------------------
# The copy waits for PostgreSQL's write turn (the service's advisory lock)
# after it has taken its snapshot of the file: a session holding that lock
# keeps it there while the service, on SQLite again, records a sale.
LOCK_KEY=$(sed -n 's/^#define LC_PG_WRITE_LOCK "\([0-9]*\)"$/\1/p' "$top_srcdir/lib/lc_pg.h")
[ -n "$LOCK_KEY" ] || bail "no LC_PG_WRITE_LOCK in lib/lc_pg.h"
PGW=$(lt_pg_db during) || bail "no PostgreSQL database"
# Set up first: the copy would otherwise wait for the lock to make the
# tables, before its snapshot.
"$ADM" --db "$PGW" init >/dev/null 2>"$W/init.err" || bail "init failed: $(cat "$W/init.err")"
lt_restart_on "$SQ"
LT_TOKEN=$STAFF_TOKEN
psql=psql
[ -x "$LT_PG_BIN/psql" ] && psql=$LT_PG_BIN/psql
advisory() {	# GRANTED: the count of advisory locks so
	lt_pg_sql "$PGW" "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted = $1"
}
waitfor() {	# WHAT GRANTED COUNT
	local i
	for i in $(seq 1 100); do
		[ "$(advisory "$2")" = "$3" ] && return 0
		sleep 0.1
	done
	bail "$1 never happened"
}
mkfifo "$W/hold" || bail "mkfifo"
# Both bounded in time; the lock ends with the session, when the FIFO is
# closed (migrate-to must not hold it open too).
timeout 60 "$psql" -X -A -t -q -v ON_ERROR_STOP=1 -d "$PGW" -f "$W/hold" >"$W/hold.out" 2>&1 &
HOLD_PID=$!
exec 7>"$W/hold"
echo "SELECT pg_advisory_lock($LOCK_KEY);" >&7
waitfor "the lock held" true 1
timeout 60 "$ADM" --db "$SQ" migrate-to "$PGW" >"$W/during.out" 2>"$W/during.err" 7>&- &
MIG_PID=$!
waitfor "migrate-to waiting for the lock" false 1
lt_req POST /api/v1/transactions/record "{\"card_instance_id\":\"$DISC_ID\",$at,\"purchase_amount\":7.00}"
LATE_TX=$(lt_jq .data.transaction_id)
is "$LT_STATUS" 200 "the service sells on SQLite while migrate-to waits with its snapshot"
exec 7>&-
wait "$MIG_PID"
rc=$?
wait "$HOLD_PID"
lc_server_stop
ok "migrate-to fails when a write reached the file during the copy" isnt_zero "$rc"
like "$(cat "$W/during.err")" "the SQLite database was written during the copy: nothing was copied" \
    "and says a write came after"
is "$(cat "$W/during.out")" "" "it reports no copy"
is "$(lt_pg_sql "$PGW" "SELECT count(*) FROM transactions") $(lt_pg_sql "$PGW" "SELECT count(*) FROM audit_log")" \
    "0 0" "and the PostgreSQL database stays empty (rolled back), for a run with the tills stopped"

# --- setup-code on PostgreSQL ------------------------------------------------------
PGS=$(lt_pg_db fresh) || bail "no PostgreSQL database"
"$ADM" --db "$PGS" init >/dev/null 2>"$W/init.err" || bail "init failed: $(cat "$W/init.err")"
code1=$("$ADM" --db "$PGS" setup-code 2>"$W/code.err")
rc=$?
code2=$("$ADM" --db "$PGS" setup-code 2>>"$W/code.err")
is "$rc" 0 "setup-code on a fresh PostgreSQL database exits 0"
like "$code1" '^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{20}$' "it prints a code of 20 symbols"
is "$code2" "$code1" "twice the same"
is "$(lt_pg_sql "$PGS" "SELECT value FROM settings WHERE key = 'setup_code'")" "$code1" \
    "kept in the database"
lt_restart_on "$PGS"
LT_TOKEN=
lt_req GET /api/v1/setup
is "$LT_STATUS $(lt_jq .data.setup_needed) $(lt_jq .data.code_command)" \
    "200 true loyalty-admin setup-code" "the back office asks for it by loyalty-admin setup-code"
body=$(jq -cn --arg c "$code1" '{setup_code: $c, merchant_name: "Corner Cafe",
    location_name: "High Street", owner_name: "Olive",
    owner_email: "olive@cafe.example", owner_password: "a long password"}')
lt_req POST /api/v1/setup "$body"
is "$LT_STATUS" 200 "the setup with that code works"
ok "the new owner logs in" lt_login olive@cafe.example "a long password"
is "$(lt_pg_sql "$PGS" "SELECT coalesce(max(value), '') FROM settings WHERE key = 'setup_code'")" "" \
    "the code is emptied"
lc_server_stop
out=$("$ADM" --db "$PGS" setup-code 2>&1)
rc=$?
ok "setup-code after the setup fails" isnt_zero "$rc"
like "$out" "set up already" "and says the shop is set up already"

diag "took $((SECONDS - T0)) s"
done_testing
