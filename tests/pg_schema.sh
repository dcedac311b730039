#!/usr/bin/env bash
# The PostgreSQL schema against SQLite's: schema/pg/*.sql, applied in order
# (psql -1, each file one transaction) on an empty database of a throwaway
# cluster (tests/pg_lib.sh), and schema/*.sql applied by the sqlite3 shell
# (each file one transaction, foreign keys on, as lib/db_sqlite.c does)
# must give:
#
# - the same tables; per table the same columns in the same order, with
#   the same type (INTEGER as BIGINT, TEXT, BLOB as BYTEA), NOT NULL and
#   default; the rowid column where queries use SQLite's rowid (and only
#   there), audit_log.seq an identity;
# - the same indexes (name, table, uniqueness, columns, partial predicate),
#   primary keys, unique constraints and foreign keys; users.email unique
#   in any ASCII case (users_email_nocase on lower(email COLLATE "C"));
# - the same outcome for writes that each CHECK, NOT NULL, UNIQUE and
#   foreign key refuses, and for ones they let through;
# - the same triggers (name, table, timing, event; PostgreSQL refuses
#   TRUNCATE of audit_log too) and the same effect: report_buckets and
#   txn_counts after writes of every type (voids, adjustments, expiries,
#   rewards earned and withdrawn, a transaction deleted, times before 1970
#   and beyond 32 bits), and after the migrations' backfills of rows
#   written between migrations (002, 005, 008, 009, 012);
# - an audit trail that refuses UPDATE, DELETE (and TRUNCATE) with "the
#   audit trail is append-only";
# - lc_fold folding exactly what lib/db_sqlite.c's fold_cp folds, over
#   U+0001-U+024F and U+0370-U+04FF: against a Python re-implementation of
#   fold_cp's rules written here, and against fold_cp itself (compiled from
#   lib/*.c), in a database of locale C and one of C.UTF-8.
#
# Skipped (1..0) when PostgreSQL's server programs are missing, unless
# LC_REQUIRE_PG is set (to anything but 0): then that is a failure.
#
#   top_srcdir=... LC_TEST_PORTS=LOW-HIGH tests/pg_schema.sh

export LC_ALL=C.UTF-8
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/pg_lib.sh"

if ! lt_pg_available; then
	if [ -n "${LC_REQUIRE_PG:-}" ] && [ "$LC_REQUIRE_PG" != 0 ]; then
		echo "1..1"
		echo "not ok 1 - PostgreSQL's server programs are installed (LC_REQUIRE_PG is set; Debian: postgresql)"
		exit 1
	fi
	echo "1..0 # SKIP PostgreSQL's server programs are not installed (Debian: postgresql)"
	exit 0
fi
for t in sqlite3 python3; do
	command -v "$t" >/dev/null || bail "$t is needed"
done

W=$(mktemp -d "${TMPDIR:-/tmp}/loyalty-pgschema.XXXXXX") || bail "mktemp"
pgs_cleanup() {
	if [ -n "$LT_KEEP" ] || [ "$tap_failed" -gt 0 ]; then
		diag "kept $W"
	else
		rm -rf "$W"
	fi
}
trap pgs_cleanup EXIT
lt_pg_start
PSQL=$LT_PG_BIN/psql
[ -x "$PSQL" ] || PSQL=psql

SQ_FILES=("$top_srcdir"/schema/[0-9]*.sql)
PG_FILES=("$top_srcdir"/schema/pg/[0-9]*.sql)

# --- helpers ----------------------------------------------------------------

# sq DB SQL: the sqlite3 shell as the service opens it (foreign keys on).
sq() {
	sqlite3 -batch -bail "$1" "PRAGMA foreign_keys = ON;" "$2"
}
# pg URI SQL
pg() {
	lt_pg_sql "$@"
}
# quiet CMD...: CMD without its output (a point's command).
quiet() { "$@" >/dev/null; }
# sq_apply DB FILE...: each file in one transaction, as migrate() does.
sq_apply() {
	local db=$1 f
	shift
	for f in "$@"; do
		{ echo "PRAGMA foreign_keys = ON; BEGIN;"; cat "$f"; echo "COMMIT;"; } |
		    sqlite3 -batch -bail "$db" >/dev/null || return 1
	done
}
# pg_apply URI FILE...: each file in one transaction (psql -1).
pg_apply() {
	local uri=$1 f
	shift
	for f in "$@"; do
		"$PSQL" -X -q -v ON_ERROR_STOP=1 -1 -f "$f" -d "$uri" >"$W/psql.out" 2>&1 ||
		    { diag "$f: $(cat "$W/psql.out")"; return 1; }
	done
}
# The migrations of NUMBERS (e.g. 002 003) of each chain.
sq_files() { local n; for n in "$@"; do echo "$top_srcdir"/schema/"$n"_*.sql; done; }
pg_files() { local n; for n in "$@"; do echo "$top_srcdir"/schema/pg/"$n"_*.sql; done; }

# --- the two chains -----------------------------------------------------------

sq_names=$(for f in "${SQ_FILES[@]}"; do basename "$f"; done)
pg_names=$(for f in "${PG_FILES[@]}"; do basename "$f"; done)
is "$pg_names" "$sq_names" "schema/pg/ has a file of the same number and name for each of schema/"

SQ=$W/fresh.db
ok "schema/*.sql applies on SQLite" sq_apply "$SQ" "${SQ_FILES[@]}"
PG=$(lt_pg_db fresh) || bail "cannot create a database"
for f in "${PG_FILES[@]}"; do
	ok "schema/pg/${f##*/} applies with psql -1 after the ones before it" \
	    pg_apply "$PG" "$f" || bail "schema/pg/${f##*/} does not apply"
done

# --- structure -----------------------------------------------------------------

# Tables of the public schema, as PostgreSQL names its catalog rows.
PG_TABLES="SELECT c.oid, c.relname FROM pg_class c JOIN pg_namespace n
    ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r'"

sq_tables=$(sq "$SQ" "SELECT name FROM sqlite_master WHERE type = 'table'
    AND name NOT LIKE 'sqlite_%' ORDER BY name")
pg_tables=$(pg "$PG" "SELECT relname FROM ($PG_TABLES) t ORDER BY relname COLLATE \"C\"")
is "$pg_tables" "$sq_tables" "the same tables"

# Per table: name, type, NOT NULL, default. SQLite lets a PRIMARY KEY
# column of a rowid table hold NULL (a legacy quirk no query relies on):
# counted NOT NULL, as PostgreSQL makes it. Its INTEGER PRIMARY KEY
# (audit_log.seq) is the rowid, numbered by itself: a default, as
# PostgreSQL's identity. Defaults compare as text without PostgreSQL's
# casts ('active'::text).
for t in $sq_tables; do
	want=$(sq "$SQ" "SELECT name, upper(type), \"notnull\" OR pk > 0,
	    coalesce(dflt_value, CASE WHEN pk = 1 AND upper(type) = 'INTEGER'
	    AND (SELECT count(*) FROM pragma_table_info('$t') WHERE pk > 0) = 1
	    THEN 'identity' END, '-')
	    FROM pragma_table_info('$t') ORDER BY cid")
	got=$(pg "$PG" "SELECT a.attname, CASE format_type(a.atttypid, a.atttypmod)
	    WHEN 'bigint' THEN 'INTEGER' WHEN 'text' THEN 'TEXT'
	    WHEN 'bytea' THEN 'BLOB' ELSE format_type(a.atttypid, a.atttypmod) END,
	    a.attnotnull::int,
	    CASE WHEN a.attidentity <> '' THEN 'identity'
	    ELSE coalesce(regexp_replace(pg_get_expr(d.adbin, d.adrelid),
	    '::[a-z ]+$', ''), '-') END
	    FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid
	    AND d.adnum = a.attnum WHERE a.attrelid = 'public.$t'::regclass
	    AND a.attnum > 0 AND NOT a.attisdropped AND a.attname <> 'rowid'
	    ORDER BY a.attnum")
	is "$got" "$want" "$t: the same columns in order (type, NOT NULL, default)"
done

# rowid: where lib/ or the tests use SQLite's rowid (ORDER BY rowid,
# WHERE rowid = ?, t.rowid = p.k), and nowhere else.
ROWID_TABLES="cards
cashback_earnings
locations
login_attempts
programs
rewards
transactions
users"
got=$(pg "$PG" "SELECT t.relname FROM ($PG_TABLES) t JOIN pg_attribute a
    ON a.attrelid = t.oid AND a.attname = 'rowid' AND a.attnum = 1
    AND a.atttypid = 'int8'::regtype AND a.attnotnull AND a.attidentity = 'd'
    WHERE EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conrelid = t.oid
    AND c.contype = 'u' AND c.conkey = ARRAY[a.attnum])
    ORDER BY t.relname COLLATE \"C\"")
is "$got" "$ROWID_TABLES" "rowid BIGINT GENERATED BY DEFAULT AS IDENTITY NOT NULL UNIQUE, first, in the tables queried by rowid only"
is "$(pg "$PG" "SELECT count(*) FROM pg_attribute WHERE attname = 'rowid'
    AND attrelid IN (SELECT oid FROM ($PG_TABLES) t)")" 8 "no other table has a rowid column"
is "$(pg "$PG" "SELECT a.attidentity, format_type(a.atttypid, NULL),
    EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conrelid = a.attrelid
    AND c.contype = 'p' AND c.conkey = ARRAY[a.attnum])
    FROM pg_attribute a WHERE a.attrelid = 'audit_log'::regclass
    AND a.attname = 'seq'")" "a|bigint|t" \
    "audit_log.seq is BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY"

# Indexes made by CREATE INDEX: table, name, unique, columns, predicate
# (parentheses, casts and case aside). users_email_nocase stands for
# SQLite's UNIQUE COLLATE NOCASE on users.email: compared apart, below.
norm_pred() { sed -e 's/::text//g' -e 's/[()]//g' -e 's/  */ /g' | tr '[:upper:]' '[:lower:]'; }
want=$(sq "$SQ" "SELECT m.tbl_name, m.name, il.\"unique\",
    (SELECT group_concat(name, ',') FROM (SELECT name FROM
    pragma_index_info(m.name) ORDER BY seqno)),
    CASE WHEN instr(upper(s.sql), ' WHERE ') > 0
    THEN substr(s.sql, instr(upper(s.sql), ' WHERE ') + 7) ELSE '' END
    FROM (SELECT name, tbl_name, replace(replace(sql, char(10), ' '),
    char(9), ' ') AS sql FROM sqlite_master WHERE type = 'index') s
    JOIN sqlite_master m ON m.name = s.name
    JOIN pragma_index_list(m.tbl_name) il ON il.name = m.name
    WHERE m.sql IS NOT NULL ORDER BY 1, 2" | norm_pred)
got=$(pg "$PG" "SELECT t.relname, i.relname, x.indisunique::int,
    (SELECT string_agg(a.attname, ',' ORDER BY k.ord) FROM
    unnest(x.indkey) WITH ORDINALITY k(attnum, ord) JOIN pg_attribute a
    ON a.attrelid = x.indrelid AND a.attnum = k.attnum),
    coalesce(pg_get_expr(x.indpred, x.indrelid), '')
    FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
    JOIN ($PG_TABLES) t ON t.oid = x.indrelid
    WHERE i.relname <> 'users_email_nocase' AND NOT EXISTS (SELECT 1
    FROM pg_constraint c WHERE c.conindid = x.indexrelid
    AND c.conrelid = x.indrelid AND c.contype IN ('p', 'u'))
    ORDER BY t.relname COLLATE \"C\", i.relname COLLATE \"C\"" | norm_pred)
is "$got" "$want" "the same indexes (table, name, unique, columns, predicate)"

is "$(sq "$SQ" "SELECT il.\"unique\", x.name, x.coll FROM
    pragma_index_list('users') il JOIN pragma_index_xinfo(il.name) x
    WHERE il.origin = 'u' AND x.key")|$(pg "$PG" "SELECT pg_get_indexdef('users_email_nocase'::regclass)")" \
    "1|email|NOCASE|CREATE UNIQUE INDEX users_email_nocase ON public.users USING btree (lower((email COLLATE \"C\")))" \
    "users.email: SQLite's UNIQUE COLLATE NOCASE is PostgreSQL's unique index on lower(email COLLATE \"C\")"

# Primary keys and unique constraints: table, kind, columns; the rowid
# columns' and users.email's (above) aside.
want=$(sq "$SQ" "SELECT m.name, 'p', (SELECT group_concat(name, ',') FROM
    (SELECT name FROM pragma_table_info(m.name) WHERE pk > 0 ORDER BY pk))
    FROM sqlite_master m WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'
    AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) WHERE pk > 0)
    UNION ALL
    SELECT m.name, 'u', (SELECT group_concat(name, ',') FROM (SELECT name
    FROM pragma_index_info(il.name) ORDER BY seqno))
    FROM sqlite_master m JOIN pragma_index_list(m.name) il
    WHERE m.type = 'table' AND il.origin = 'u'
    AND NOT (m.name = 'users' AND il.name IN (SELECT il2.name FROM
    pragma_index_list('users') il2 JOIN pragma_index_info(il2.name) i2
    WHERE i2.name = 'email'))
    ORDER BY 1, 2, 3")
got=$(pg "$PG" "SELECT * FROM (SELECT t.relname, c.contype, (SELECT string_agg(a.attname,
    ',' ORDER BY k.ord) FROM unnest(c.conkey) WITH ORDINALITY k(attnum, ord)
    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum)
    AS cols FROM pg_constraint c JOIN ($PG_TABLES) t ON t.oid = c.conrelid
    WHERE c.contype IN ('p', 'u')
    AND c.conkey IS DISTINCT FROM ARRAY[(SELECT attnum FROM pg_attribute
    WHERE attrelid = c.conrelid AND attname = 'rowid')]
    ) q ORDER BY relname COLLATE \"C\", contype, cols COLLATE \"C\"")
is "$got" "$want" "the same primary keys and unique constraints"

want=$(sq "$SQ" "SELECT m.name, f.\"from\", f.\"table\", f.\"to\" FROM
    sqlite_master m JOIN pragma_foreign_key_list(m.name) f
    WHERE m.type = 'table' ORDER BY 1, 2")
got=$(pg "$PG" "SELECT t.relname, a.attname, r.relname, ra.attname
    FROM pg_constraint c JOIN ($PG_TABLES) t ON t.oid = c.conrelid
    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
    JOIN pg_class r ON r.oid = c.confrelid
    JOIN pg_attribute ra ON ra.attrelid = c.confrelid AND ra.attnum = c.confkey[1]
    WHERE c.contype = 'f' AND cardinality(c.conkey) = 1
    ORDER BY t.relname COLLATE \"C\", a.attname COLLATE \"C\"")
is "$got" "$want" "the same foreign keys"

# Triggers: name, table, timing, event, with a WHEN clause or not. SQLite
# has no TRUNCATE; PostgreSQL's audit_log refuses it too.
want=$( (sq "$SQ" "SELECT name, tbl_name,
    CASE WHEN sql LIKE '% BEFORE %' THEN 'BEFORE' ELSE 'AFTER' END,
    CASE WHEN sql LIKE '% INSERT ON %' THEN 'INSERT'
    WHEN sql LIKE '% UPDATE ON %' THEN 'UPDATE'
    WHEN sql LIKE '% DELETE ON %' THEN 'DELETE' END,
    instr(upper(substr(replace(sql, char(10), ' '), 1,
    instr(upper(sql), ' BEGIN'))), ' WHEN ') > 0
    FROM sqlite_master WHERE type = 'trigger'"
    echo "audit_log_no_truncate|audit_log|BEFORE|TRUNCATE|0") | LC_ALL=C sort)
got=$(pg "$PG" "SELECT t.tgname, c.relname, substring(pg_get_triggerdef(t.oid)
    FROM ' (BEFORE|AFTER) '), substring(pg_get_triggerdef(t.oid)
    FROM ' (INSERT|UPDATE|DELETE|TRUNCATE) ON '), (t.tgqual IS NOT NULL)::int
    FROM pg_trigger t JOIN ($PG_TABLES) c ON c.oid = t.tgrelid
    WHERE NOT t.tgisinternal" | LC_ALL=C sort)
is "$got" "$want" "the same triggers (table, timing, event, WHEN)"

# --- trigger behaviour: every kind of write --------------------------------------

# Valid on both engines. Times: 1700000000000 is 2023-11-14; -1, -900000
# and -900001 are before 1970 (buckets -1, -1, -2); 4102444800123 is 2100,
# beyond 32 bits.
SEED="
INSERT INTO merchants VALUES ('m1', 'Shop', 1), ('m2', 'Other', 1);
INSERT INTO locations(id, merchant_id, name, created_at) VALUES
    ('l1', 'm1', 'Front', 1), ('l2', 'm1', 'Back', 2), ('l3', 'm2', 'Far', 3);
INSERT INTO users(id, merchant_id, email, display_name, user_type,
    location_id, password_hash, created_at) VALUES
    ('o1', 'm1', 'Owner@Example.com', 'Olive', 'owner', NULL, 'x', 1),
    ('s1', 'm1', 's1@example.com', 'Sam', 'system_user', 'l1', 'x', 1),
    ('s2', 'm1', 's2@example.com', NULL, 'system_user', 'l2', 'x', 1),
    ('s3', 'm2', 's3@example.com', NULL, 'system_user', 'l3', 'x', 1);
INSERT INTO programs(id, merchant_id, type, title, punch_requirement,
    reward_title, created_at) VALUES
    ('pp', 'm1', 'punch', 'Coffee', 5, 'Free coffee', 1),
    ('pc', 'm1', 'cashback', 'Cash', NULL, NULL, 1),
    ('pd', 'm1', 'discount', 'Disc', NULL, NULL, 1),
    ('pq', 'm2', 'punch', 'Tea', 3, 'Free tea', 1);
INSERT INTO cards(id, merchant_id, program_id, customer_name, barcode,
    qr_code, created_at) VALUES
    ('c1', 'm1', 'pp', 'Ann', 'b1', 'q1', 1),
    ('c2', 'm1', 'pc', 'Bob', 'b2', 'q2', 1),
    ('c3', 'm1', 'pd', 'Cy', 'b3', 'q3', 1),
    ('c4', 'm2', 'pq', 'Di', 'b4', 'q4', 1);
"
# Purchases, claims and redemptions (the types of 001).
TXNS_001="
INSERT INTO transactions(id, merchant_id, card_id, location_id,
    staff_user_id, type, purchase_amount, punches_added, rate_bp,
    cashback_earned, discount_amount, redeemed_amount, reward_id, created_at)
VALUES
    ('a01', 'm1', 'c1', 'l1', 's1', 'punch', 500, 2, NULL, NULL, NULL, NULL, NULL, 1700000000000),
    ('a02', 'm1', 'c1', 'l1', 's1', 'punch', 300, 3, NULL, NULL, NULL, NULL, NULL, 1700000001000),
    ('a03', 'm1', 'c2', 'l2', 's2', 'cashback_redeem', 0, NULL, NULL, NULL, NULL, 30, NULL, 1700000900001),
    ('a04', 'm1', 'c2', 'l2', 's2', 'cashback', 400, NULL, 500, 20, NULL, NULL, NULL, 1700000900001),
    ('a05', 'm1', 'c2', 'l2', 's2', 'cashback', 1000, NULL, 500, 50, NULL, NULL, NULL, 1700000900001),
    ('a06', 'm1', 'c3', 'l1', 's1', 'discount', 2000, NULL, 1000, NULL, 200, NULL, NULL, -900001),
    ('a07', 'm1', 'c1', 'l1', 's1', 'reward_claim', 0, NULL, NULL, NULL, NULL, NULL, 'r1', -1),
    ('a08', 'm1', 'c2', 'l1', 's1', 'cashback_redeem', 0, NULL, NULL, NULL, NULL, 10, NULL, 5),
    ('a09', 'm1', 'c2', 'l2', 's1', 'cashback', 100, NULL, 500, 5, NULL, NULL, NULL, 5),
    ('a10', 'm1', 'c1', 'l1', 's1', 'punch', 250, 1, NULL, NULL, NULL, NULL, NULL, -900000),
    ('a11', 'm1', 'c1', 'l2', 's2', 'punch', 999, 1, NULL, NULL, NULL, NULL, NULL, 0),
    ('a12', 'm1', 'c1', 'l1', 's1', 'punch', 777, 1, NULL, NULL, NULL, NULL, NULL, 4102444800123),
    ('a13', 'm2', 'c4', 'l3', 's3', 'punch', 100, 1, NULL, NULL, NULL, NULL, NULL, 1700000000000);
INSERT INTO rewards(id, card_id, earned_transaction_id, title, earned_at)
VALUES ('r1', 'c1', 'a02', 'Free coffee', 1700000001000),
    ('r2', 'c1', 'a10', 'Free coffee', -900000),
    ('r3', 'c4', 'a13', 'Free tea', 1700000000000);
"
# Voids (of a purchase, a claim, a redemption, each where and by whom the
# original was not), adjustments both ways, expiries (two in one quarter
# hour), a reward withdrawn, a transaction deleted.
TXNS_009="
INSERT INTO transactions(id, merchant_id, card_id, location_id,
    staff_user_id, type, purchase_amount, punches_added, cashback_earned,
    redeemed_amount, voided_transaction_id, reason, created_at) VALUES
    ('v01', 'm1', 'c1', 'l2', 's2', 'void', 500, -2, NULL, NULL, 'a01', 'wrong card', 1700003000000),
    ('v02', 'm1', 'c1', 'l2', 's2', 'void', 0, NULL, NULL, NULL, 'a07', 'no', 1700003000000),
    ('v03', 'm1', 'c2', 'l1', 'o1', 'void', 0, NULL, NULL, -30, 'a03', 'no', 1700003000001),
    ('v04', 'm1', 'c2', 'l1', 'o1', 'void', 1000, NULL, -50, NULL, 'a05', 'no', -5),
    ('d01', 'm1', 'c1', 'l1', 'o1', 'adjustment', 0, -2, NULL, NULL, NULL, 'fix', 1700010000000),
    ('d02', 'm1', 'c1', 'l1', 'o1', 'adjustment', 0, -1, NULL, NULL, NULL, 'fix', 1700010000001),
    ('d03', 'm1', 'c1', 'l1', 'o1', 'adjustment', 0, 4, NULL, NULL, NULL, 'gift', 1700010000002),
    ('d04', 'm1', 'c2', 'l2', 'o1', 'adjustment', 0, NULL, 15, NULL, NULL, 'gift', -899999),
    ('d05', 'm1', 'c2', 'l2', 'o1', 'adjustment', 0, NULL, -10, NULL, NULL, 'fix', -899999);
DELETE FROM rewards WHERE id = 'r2';
DELETE FROM transactions WHERE id = 'a12';
"
TXNS_011="
INSERT INTO transactions(id, merchant_id, card_id, location_id,
    staff_user_id, type, expired_amount, created_at) VALUES
    ('e01', 'm1', 'c2', 'l2', 's2', 'expiry', 5, 1731536000000),
    ('e02', 'm1', 'c2', 'l2', 's2', 'expiry', 7, 1731536000001),
    ('e03', 'm1', 'c2', 'l1', 's1', 'expiry', 3, -1);
INSERT INTO rewards(id, card_id, earned_transaction_id, title, earned_at)
VALUES ('r4', 'c1', 'd03', 'Free coffee', 1700010000002);
"
# Written between 005 and 009, when 005's report_txn counted them.
TXNS_005="
INSERT INTO transactions(id, merchant_id, card_id, location_id,
    staff_user_id, type, purchase_amount, punches_added, rate_bp,
    cashback_earned, discount_amount, redeemed_amount, reward_id, created_at)
VALUES
    ('b01', 'm1', 'c1', 'l2', 's2', 'punch', 120, 2, NULL, NULL, NULL, NULL, NULL, -1800001),
    ('b02', 'm1', 'c1', 'l2', 's2', 'punch', 130, 1, NULL, NULL, NULL, NULL, NULL, -1800000),
    ('b03', 'm1', 'c1', 'l2', 's2', 'reward_claim', 0, NULL, NULL, NULL, NULL, NULL, 'r1', 1700000000001),
    ('b04', 'm1', 'c2', 'l1', 's1', 'cashback_redeem', 0, NULL, NULL, NULL, NULL, 7, NULL, 1700000000002),
    ('b05', 'm1', 'c2', 'l1', 's1', 'cashback', 50, NULL, 500, 2, NULL, NULL, NULL, 1700000000002),
    ('b06', 'm1', 'c3', 'l1', 's1', 'discount', 900, NULL, 1000, NULL, 90, NULL, NULL, 1700000000003);
INSERT INTO rewards(id, card_id, earned_transaction_id, title, earned_at)
VALUES ('r5', 'c1', 'b01', 'Free coffee', -1800001),
    ('r6', 'c1', 'b01', 'Free coffee', -1800001);
"
BUCKETS="SELECT * FROM report_buckets ORDER BY merchant_id, bucket, location_id, staff_user_id"
COUNTS="SELECT * FROM txn_counts ORDER BY card_id, type"

SQW=$W/writes.db
cp "$SQ" "$SQW"
PGW=$(lt_pg_db writes fresh) || bail "cannot copy the database"
ok "every kind of write on SQLite" quiet sq "$SQW" "$SEED $TXNS_001 $TXNS_009 $TXNS_011"
ok "every kind of write on PostgreSQL" quiet pg "$PGW" "$SEED $TXNS_001 $TXNS_009 $TXNS_011"
want=$(sq "$SQW" "$BUCKETS")
is "$(pg "$PGW" "$BUCKETS")" "$want" "report_buckets: the same figures after every kind of write"
like "$(printf '%s\n' "$want" | cut -d'|' -f2 | tr '\n' ' ')" \
    '^-2 -1 (-1 )*0 .* 4558272 1888888 $' \
    "report_buckets spans times before 1970 and after 2038 (the writes above took)"
is "$(pg "$PGW" "$COUNTS")" "$(sq "$SQW" "$COUNTS")" "txn_counts: the same counts (a delete counted too)"

# --- backfills: rows written between migrations ----------------------------------

SQB=$W/staged.db
PGB=$(lt_pg_db staged) || bail "cannot create a database"
stage_sq() {	# SQL NUMBERS...
	local sql=$1 fs
	shift
	mapfile -t fs < <(sq_files "$@")
	sq_apply "$SQB" "${fs[@]}" && { [ -z "$sql" ] || quiet sq "$SQB" "$sql"; }
}
stage_pg() {	# SQL NUMBERS...
	local sql=$1 fs
	shift
	mapfile -t fs < <(pg_files "$@")
	pg_apply "$PGB" "${fs[@]}" && { [ -z "$sql" ] || quiet pg "$PGB" "$sql"; }
}
stage() {	# DESC SQL NUMBERS...
	local d=$1
	shift
	ok "$d (SQLite)" stage_sq "$@"
	ok "$d (PostgreSQL)" stage_pg "$@"
}
stage "001, then shops, cards, purchases, claims, redemptions, rewards" \
    "$SEED $TXNS_001" 001
stage "002-004" "" 002 003 004
is "$(pg "$PGB" "$COUNTS")" "$(sq "$SQB" "$COUNTS")" "002 counts the transactions already there alike"
stage "005" "" 005
is "$(pg "$PGB" "$BUCKETS")" "$(sq "$SQB" "$BUCKETS")" "005 sums the transactions and rewards already there alike"
stage "006-008, then purchases, claims, redemptions, a reward" "$TXNS_005" 006 007 008
is "$(pg "$PGB" "$BUCKETS")" "$(sq "$SQB" "$BUCKETS")" "005's triggers count the writes after it alike"
is "$(pg "$PGB" "SELECT count(*), count(DISTINCT share_token),
    sum((share_token ~ '^[0-9a-f]{32}$')::int) FROM cards")" "4|4|4" \
    "008 gave each card already there a token of its own, 32 lowercase hex digits (PostgreSQL)"
is "$(sq "$SQB" "SELECT count(*), count(DISTINCT share_token),
    sum(length(share_token) = 32 AND share_token NOT GLOB '*[^0-9a-f]*')
    FROM cards")" "4|4|4" "... and on SQLite"
stage "009" "" 009
parents="SELECT id, coalesce(parent_transaction_id, '-') FROM transactions ORDER BY id"
want=$(sq "$SQB" "$parents")
is "$(pg "$PGB" "$parents")" "$want" "009 links each earn-on-remainder purchase to its redemption alike"
like "$want" "a04\|a03" "... a04 to a03 (the rows were written for it)"
stage "010, 011, then voids, adjustments, a withdrawn reward, a delete" \
    "$TXNS_009" 010 011
stage "012, then expiries and a reward" "$TXNS_011" 012
is "$(pg "$PGB" "$BUCKETS")" "$(sq "$SQB" "$BUCKETS")" \
    "012 counts the adjustments already there alike; the figures stay the same"
is "$(pg "$PGB" "$COUNTS")" "$(sq "$SQB" "$COUNTS")" "txn_counts stay the same"

# --- the audit trail -------------------------------------------------------------

AUDIT_ADD="INSERT INTO audit_log(at, merchant_id, actor_type, user_id, action,
    object_type, object_id) VALUES (1, 'm1', 'owner', 'o1', 'card.create', 'card', 'c1'),
    (2, NULL, 'loyalty-admin', NULL, 'merchant.create', 'merchant', 'm2')"
ok "audit_log takes rows" quiet pg "$PGW" "$AUDIT_ADD"
quiet sq "$SQW" "$AUDIT_ADD"
is "$(pg "$PGW" "SELECT seq, action FROM audit_log ORDER BY seq")" \
    "$(sq "$SQW" "SELECT seq, action FROM audit_log ORDER BY seq")" \
    "audit_log.seq numbers the rows in the order of writing, as SQLite's"
for w in "UPDATE audit_log SET action = 'x' WHERE seq = 1" \
    "DELETE FROM audit_log WHERE seq = 2" "TRUNCATE audit_log"; do
	out=$(pg "$PGW" "$w" 2>&1)
	rc=$?
	r=1
	[ $rc -ne 0 ] && [[ $out == *"the audit trail is append-only"* ]] && r=0
	ok "audit_log refuses ${w%% *}: 'the audit trail is append-only'" [ $r -eq 0 ] ||
	    diag "rc $rc: $out"
done
is "$(pg "$PGW" "SELECT count(*), min(action) FROM audit_log")" "2|card.create" \
    "audit_log is as it was"
out=$(sq "$SQW" "UPDATE audit_log SET action = 'x'" 2>&1)
like "$out" "the audit trail is append-only" "(SQLite's says the same)"

# --- constraints: the same writes refused, the same let through --------------------

# probe WANT DESC SQL: SQL on both written databases, rolled back;
# WANT is ok or refused.
probe() {
	local want=$1 d=$2 sql=$3 s p
	sq "$SQW" "BEGIN; $sql; ROLLBACK;" >/dev/null 2>"$W/probe.err" && s=ok || s=refused
	pg "$PGW" "BEGIN; $sql; ROLLBACK;" >/dev/null 2>>"$W/probe.err" && p=ok || p=refused
	is "$s $p" "$want $want" "$want on both: $d" || diag "$(cat "$W/probe.err")"
}
T="INSERT INTO transactions(id, merchant_id, card_id, location_id, staff_user_id"
U="INSERT INTO users(id, merchant_id, email, user_type, location_id, password_hash, created_at)"
P="INSERT INTO programs(id, merchant_id, type, title, punch_requirement, reward_title"
C="INSERT INTO cards(id, merchant_id, program_id, customer_name, barcode, qr_code, created_at"
probe refused "a merchant's empty name" "INSERT INTO merchants VALUES ('m9', '', 1)"
probe refused "a merchant without created_at" "INSERT INTO merchants(id, name) VALUES ('m9', 'x')"
probe refused "a location of no merchant" "INSERT INTO locations(id, merchant_id, name, created_at) VALUES ('l9', 'mx', 'x', 1)"
probe refused "a location's name of 201 characters" "INSERT INTO locations(id, merchant_id, name, created_at) VALUES ('l9', 'm1', '$(printf 'é%.0s' $(seq 201))', 1)"
probe ok "a location's name of 200 characters beyond ASCII" "INSERT INTO locations(id, merchant_id, name, created_at) VALUES ('l9', 'm1', '$(printf 'é%.0s' $(seq 200))', 1)"
probe refused "a staff member without a location" "$U VALUES ('u9', 'm1', 'u9@x.test', 'system_user', NULL, 'x', 1)"
probe refused "a user of another type" "$U VALUES ('u9', 'm1', 'u9@x.test', 'admin', NULL, 'x', 1)"
probe refused "an e-mail address taken, in other case" "$U VALUES ('u9', 'm1', 'OWNER@example.COM', 'owner', NULL, 'x', 1)"
probe ok "an owner without a location" "$U VALUES ('u9', 'm1', 'u9@x.test', 'owner', NULL, 'x', 1)"
probe refused "users.disabled 2" "UPDATE users SET disabled = 2 WHERE id = 's1'"
probe refused "a program of another type" "$P, created_at) VALUES ('p9', 'm1', 'stamps', 't', 5, 'r', 1)"
probe refused "a punch program without punch_requirement" "$P, created_at) VALUES ('p9', 'm1', 'punch', 't', NULL, 'r', 1)"
probe refused "a punch_requirement of 1001" "$P, created_at) VALUES ('p9', 'm1', 'punch', 't', 1001, 'r', 1)"
probe refused "max_punches 101" "$P, max_punches, created_at) VALUES ('p9', 'm1', 'punch', 't', 5, 'r', 101, 1)"
probe refused "expiry_days 0" "$P, expiry_days, created_at) VALUES ('p9', 'm1', 'cashback', 't', NULL, NULL, 0, 1)"
probe ok "a cashback program of 3650 days" "$P, expiry_days, created_at) VALUES ('p9', 'm1', 'cashback', 't', NULL, NULL, 3650, 1)"
probe refused "a negative reward_amount" "UPDATE programs SET reward_amount = -1 WHERE id = 'pp'"
probe refused "a tier of 10001 basis points" "INSERT INTO tiers VALUES ('pc', 'Gold', 0, 10001)"
probe refused "two tiers at one min_spend" "INSERT INTO tiers VALUES ('pc', 'A', 0, 5); INSERT INTO tiers VALUES ('pc', 'B', 0, 6)"
probe refused "a card of another status" "$C, status) VALUES ('c9', 'm1', 'pp', 'x', 'b9', 'q9', 1, 'gone')"
probe refused "a barcode taken" "$C) VALUES ('c9', 'm1', 'pp', 'x', 'b1', 'q9', 1)"
probe refused "negative punches on a card" "UPDATE cards SET current_punches = -1 WHERE id = 'c1'"
probe refused "a share token in capitals" "UPDATE cards SET share_token = '0123456789ABCDEF0123456789abcdef' WHERE id = 'c1'"
probe refused "a share token of 31 digits" "UPDATE cards SET share_token = '0123456789abcdef0123456789abcde' WHERE id = 'c1'"
probe refused "a share token taken" "UPDATE cards SET share_token = '0123456789abcdef0123456789abcdef'"
probe ok "a share token of 32 lowercase hex digits" "UPDATE cards SET share_token = '0123456789abcdef0123456789abcdef' WHERE id = 'c1'"
probe refused "a card issued by no user" "UPDATE cards SET issued_by = 'nobody' WHERE id = 'c1'"
probe refused "a transaction of another type" "$T, type, created_at) VALUES ('x9', 'm1', 'c1', 'l1', 's1', 'gift', 1)"
probe refused "a transaction id taken" "$T, type, created_at) VALUES ('a01', 'm1', 'c1', 'l1', 's1', 'punch', 1)"
probe refused "a transaction of no card" "$T, type, created_at) VALUES ('x9', 'm1', 'cx', 'l1', 's1', 'punch', 1)"
probe refused "a void naming nothing voided" "$T, type, created_at) VALUES ('x9', 'm1', 'c1', 'l1', 's1', 'void', 1)"
probe refused "a purchase naming something voided" "$T, type, voided_transaction_id, created_at) VALUES ('x9', 'm1', 'c1', 'l1', 's1', 'punch', 'a02', 1)"
probe refused "a second void of one transaction" "$T, type, voided_transaction_id, created_at) VALUES ('x9', 'm1', 'c1', 'l1', 's1', 'void', 'a01', 1)"
probe ok "a void of a transaction not voided" "$T, type, voided_transaction_id, created_at) VALUES ('x9', 'm1', 'c1', 'l1', 's1', 'void', 'a02', 1)"
probe refused "a negative purchase_amount" "$T, type, purchase_amount, created_at) VALUES ('x9', 'm1', 'c1', 'l1', 's1', 'punch', -1, 1)"
probe refused "an expiry of 0" "$T, type, expired_amount, created_at) VALUES ('x9', 'm1', 'c2', 'l1', 's1', 'expiry', 0, 1)"
probe refused "an expiry of no amount (report_expiry's NOT NULL)" "$T, type, created_at) VALUES ('x9', 'm1', 'c2', 'l1', 's1', 'expiry', 1)"
probe refused "an idempotency key's kind of 33 characters" "INSERT INTO idempotency_keys VALUES ('m1', 'k', '$(printf 'k%.0s' $(seq 33))', 't', '{}', 1)"
probe refused "an idempotency key's empty kind" "INSERT INTO idempotency_keys VALUES ('m1', 'k', '', 't', '{}', 1)"
probe ok "an idempotency key of the owner's kinds (005)" "INSERT INTO idempotency_keys VALUES ('m1', 'k', 'card_adjust', 't', '{}', 1)"
probe refused "an idempotency key taken" "INSERT INTO idempotency_keys VALUES ('m1', 'k', 'claim', 't', '{}', 1); INSERT INTO idempotency_keys VALUES ('m1', 'k', 'redeem', 't', '{}', 1)"
probe refused "an earning's remaining above its amount" "INSERT INTO cashback_earnings(transaction_id, card_id, amount, remaining, earned_at) VALUES ('a04', 'c2', 20, 21, 1)"
probe refused "a redemption entry of 0" "INSERT INTO redemption_entries VALUES ('a03', 'a04', 0)"
probe refused "a token of another kind" "INSERT INTO tokens(digest, kind, user_id, family, expires_at, created_at) VALUES ('d1', 'magic', 'o1', 'f', 1, 1)"
probe refused "a token of no user" "INSERT INTO tokens(digest, kind, user_id, family, expires_at, created_at) VALUES ('d1', 'access', 'ux', 'f', 1, 1)"
probe ok "a token" "INSERT INTO tokens(digest, kind, user_id, family, expires_at, created_at) VALUES ('d1', 'access', 'o1', 'f', 1, 1)"
probe refused "a login attempt pending 2" "INSERT INTO login_attempts(email, at, pending) VALUES ('a', 1, 2)"
probe refused "a count below 0" "UPDATE txn_counts SET n = -1"
probe refused "an audit row of another actor" "INSERT INTO audit_log(at, actor_type, action, object_type) VALUES (1, 'robot', 'a', 'b')"
probe refused "an audit row's terminal_id of 65 characters" "INSERT INTO audit_log(at, actor_type, terminal_id, action, object_type) VALUES (1, 'service', '$(printf 't%.0s' $(seq 65))', 'a', 'b')"
probe refused "an audit row's empty action" "INSERT INTO audit_log(at, actor_type, action, object_type) VALUES (1, 'service', '', 'b')"

# --- lc_fold -------------------------------------------------------------------

# U+0000 aside: PostgreSQL's text cannot hold it.
FOLD_CPS="list(range(1, 0x250)) + list(range(0x370, 0x500))"
fold_sql=$(python3 -c "
cps = $FOLD_CPS
print(\"U&'\" + ''.join('\\\\%04X' % c for c in cps) + \"'\")")
# fold_cp's rules, written again here from its comment and code.
fold_want=$(python3 -c "
def fold(c):
    if ord('A') <= c <= ord('Z'):
        return c + 32
    if 0xC0 <= c <= 0xDE and c != 0xD7:		# Latin-1, not the multiplication sign
        return c + 32
    if 0x391 <= c <= 0x3AB and c != 0x3A2:	# Greek capitals
        return c + 32
    if 0x410 <= c <= 0x42F:			# Cyrillic А-Я
        return c + 32
    if 0x400 <= c <= 0x40F:			# Cyrillic Ѐ-Џ
        return c + 80
    if 0x100 <= c <= 0x17F and c not in (0x130, 0x131, 0x138, 0x149, 0x178, 0x17F):
        odd_capital = 0x139 <= c <= 0x148 or 0x179 <= c <= 0x17E
        if (c % 2 == 1) == odd_capital:
            return c + 1
    return c
print(' '.join('%x' % fold(c) for c in $FOLD_CPS))")
fold_q="SELECT string_agg(to_hex(ascii(ch)), ' ' ORDER BY n)
    FROM regexp_split_to_table(lc_fold($fold_sql), '') WITH ORDINALITY x(ch, n)"
fold_got=$(pg "$PG" "$fold_q")
is "$fold_got" "$fold_want" "lc_fold folds U+0001-U+024F and U+0370-U+04FF as fold_cp's rules say"
is "$(printf '%s\n' "$fold_got" | wc -w)" 991 "(991 code points)"
is "$(python3 -c "
w = '$fold_want'.split()
cps = $FOLD_CPS
print(sum(1 for c, f in zip(cps, w) if int(f, 16) != c))")" 191 \
    "(fold_cp's rules fold 191 of them)"

# fold_cp itself, from the library's source.
src=$(grep -l '^fold_cp(uint32_t c)' "$top_srcdir"/lib/*.c | head -1)
cc=$(command -v cc || command -v gcc)
if [ -n "$src" ] && [ -n "$cc" ]; then
	{
		printf '#include <stdint.h>\n#include <stdio.h>\nstatic uint32_t\n'
		awk '/^fold_cp\(uint32_t c\)/ { p = 1 } p { print } p && /^}/ { exit }' "$src"
		printf 'int main(void) { uint32_t c; const char *sep = "";\n'
		printf 'for (c = 1; c < 0x500; c++) { if (c >= 0x250 && c < 0x370) continue;\n'
		printf 'printf("%%s%%x", sep, (unsigned)fold_cp(c)); sep = " "; }\n'
		printf 'printf("\\n"); return 0; }\n'
	} >"$W/fold.c"
	if "$cc" -std=c11 -Wall -o "$W/fold" "$W/fold.c" 2>"$W/fold.err"; then
		is "$fold_got" "$("$W/fold")" "lc_fold folds exactly as ${src#"$top_srcdir"/}'s fold_cp"
	else
		ok "fold_cp of ${src#"$top_srcdir"/} compiles alone" false
		diag "$(cat "$W/fold.err")"
	fi
else
	ok "fold_cp(uint32_t c) is in lib/*.c (and a C compiler here)" false
fi

is "$(pg "$PG" "SELECT provolatile, proisstrict, proparallel FROM pg_proc
    WHERE proname = 'lc_fold'")|$(pg "$PG" "SELECT lc_fold(NULL) IS NULL")" "i|t|s|t" \
    "lc_fold is IMMUTABLE STRICT PARALLEL SAFE"
is "$(pg "$PG" "SELECT lc_fold('ẞ STRASSE Ǆ ǅ Ա ﬀ'), lc_fold('Anna-Lena ÉLODIE') LIKE lc_fold('%éLo%')")" \
    "ẞ strasse Ǆ ǅ Ա ﬀ|t" "lc_fold leaves what fold_cp leaves (beyond U+04FF too); a search matches in any case"

# The same in a database of another locale: lc_fold does not follow it.
if pg "$(lt_pg_uri postgres)" "CREATE DATABASE utf8loc TEMPLATE template0 LOCALE 'C.UTF-8'" 2>/dev/null; then
	U8=$(lt_pg_uri utf8loc)
	pg_apply "$U8" "${PG_FILES[@]}" &&
	    is "$(pg "$U8" "$fold_q")|$(pg "$U8" "SELECT lower(U&'\00C9') = U&'\00E9'")" "$fold_want|t" \
	    "lc_fold folds the same in a database of locale C.UTF-8 (where lower() folds more)"
else
	skip 1 "no locale C.UTF-8 here"
fi

done_testing
