#!/usr/bin/env bash
#
# TAP runner for the CGI fixtures: every tests/fixtures/**/*.case is one
# test point. The seed (tests/seed.sh) is built once per run, its users
# logged in once; each case then runs on its own copy of that database,
# driving the built responders as plain CGI under env -i.
#
#   top_srcdir=... top_builddir=... tests/fixtures.sh [CASE_OR_DIR...]
#
# Environment: FIXTURES_JOBS (cases run at once; default: the number of
# processors), FIXTURES_MODE=fcgi (every request goes through cgi-fcgi to
# one long-running FastCGI server per responder, started with spawn-fcgi,
# instead of a plain CGI process), FIXTURES_DB=postgresql (see below),
# ASAN_OPTIONS, UBSAN_OPTIONS and LSAN_OPTIONS (passed to the responders),
# FIXTURES_FAIL_WALK=1 (the walk of database errors, below).
#
# FIXTURES_FAIL_WALK=1 (tests/db_errors.sh) walks every database-error
# path: for each case whose last request expects a 2xx answer, before
# that request's normal run, it is sent again on the case's database as
# it stands then (the case's setup steps and earlier requests done,
# restored before each try) with LC_TEST_DB_FAIL=1, 2, 3, ...: the
# storage switch of test-clock builds, which makes the Nth storage step
# of the process fail as a database error would. Every try must answer
# 503 DATABASE_ERROR (and pass the checks of every answer, Retry-After
# included) and change no row of any table but login_attempts (the
# throttle of logins writes its own rows in a transaction of its own, by
# design, as does an integration token's last use, api_tokens.last_used_at,
# not compared); tokens are compared too, unlike "expect unchanged": a failed
# request must not leave half a login or half a rotation. A sync's 207
# whose failed item says DATABASE_ERROR in its place passes (each item is
# a write of its own, by design). The walk ends at the first N whose
# answer is the one the request gives without the switch (its status,
# and no more lines on stderr: a step that failed and was logged but
# answered as a success is a finding, not the end), and fails at
# FIXTURES_FAIL_CAP tries (default 200). One point per case, its tries
# counted; the other cases are skipped, and so is a case whose first try
# failed nothing (a build without the switch). Plain CGI only (the
# switch counts the steps of a process), SQLite, and a test-clock build
# (else every case is skipped).
#
# FIXTURES_DB=postgresql runs every case on PostgreSQL instead of SQLite
# (the build needs --with-postgresql, the machine PostgreSQL's server
# programs): one throwaway cluster (tests/pg_lib.sh, a port of
# LC_TEST_PORTS; fsync off unless LC_TEST_PG_FSYNC=on: nothing here is
# about durability), the seed built into a template database, and each
# case on its own database copied from it (CREATE DATABASE ... TEMPLATE)
# and dropped afterwards; CASEDB is its postgresql:// URI. sql and
# expect sql go through psql, which prints as sqlite3 does but for
# booleans (t/f: write CAST(x AS INTEGER) to print 1/0 on both), so a
# case's SQL must be written for both: no rowid but on the tables that
# keep one on PostgreSQL too (schema/pg/001_init.sql), no SQLite-only
# function. json_extract and json_array_length, which have no spelling
# common to both for a TEXT column, exist for psql as SQLite answers
# them (in a schema of their own, fixture_sqlite, that only psql's
# search path names; the service never sees it).
#
# Case file grammar: one directive a line, KEYWORD then blanks then its
# argument (the rest of the line); leading blanks, blank lines and a final
# CR are ignored.
#
#   # text                 comment; the first one describes the case
#   request NAME           a request to $top_builddir/cgi-bin/NAME.fcgi;
#                          the lines up to the next "request" belong to it
#   method M               REQUEST_METHOD (default POST)
#   uri U                  REQUEST_URI, QUERY_STRING the part after '?'
#                          ("" when none); no uri: neither is set
#   header Name: value     HTTP_NAME (upper case, - to _); Content-Type
#                          and Content-Length give CONTENT_TYPE and
#                          CONTENT_LENGTH
#   env K=V                any other CGI variable (also LOYALTY_DB)
#   unset K                removes a variable, defaults included (e.g.
#                          unset CONTENT_TYPE sends a body without one)
#   as USER                Authorization: Bearer <access token of USER>,
#                          USER one of staff, staff2, owner, owner2
#   body TEXT              the body: the rest of the line, verbatim (it
#                          cannot start with a blank; "body" alone is an
#                          empty body, Content-Length 0)
#   body-bytes N CHAR      N copies of the one character CHAR
#   body-pad N TEXT        TEXT after as many spaces as make N bytes
#   body-file F            the bytes of F, relative to the case's folder
#                          (no variables replaced in it)
#                          With a body, CONTENT_TYPE defaults to
#                          application/json and CONTENT_LENGTH to its
#                          length in bytes, unless header/env/unset set
#                          them.
#   sql STATEMENT          runs on the case database before the request
#   admin ARGS...          loyalty-admin --db CASEDB ARGS, before the
#                          request (words split as by xargs: quotes work;
#                          stdin is empty)
#   sleep SECONDS          before the request
#   clock MS               the request runs with the service's clock at
#                          ${CLOCK_MS} + MS milliseconds (MS may be
#                          negative): CLOCK_MS is the time the case
#                          started, fixed for the case, so a time rule's
#                          window never depends on how fast the machine
#                          runs it (LOYALTY_TEST_NOW; the build needs
#                          --enable-test-clock, else the case is skipped)
#   sql-sqlite STATEMENT   sql, run only on SQLite; sql-postgresql only on
#   sql-postgresql STATEMENT   PostgreSQL: for what has no common
#                          spelling (a trigger), one of each
#   cgi-only               (anywhere) the case is skipped in FastCGI mode,
#                          e.g. for a body without Content-Length, which
#                          cgi-fcgi cannot send
#   sqlite-only            (anywhere) the case is skipped on PostgreSQL:
#                          it is about SQLite itself (a database file, its
#                          folder, its journal), a comment says why
#   expect status N
#   expect header Name value     present with exactly that value
#   expect header Name           present
#   expect no-header Name        absent
#   expect header-match Name RE  present, the whole value matching the
#                                extended regular expression RE
#   expect json FILTER VALUE     jq FILTER of the body gives exactly one
#                                value, equal to the JSON VALUE by jq's ==
#                                (numbers by value: 12.5 == 12.50; an
#                                absent member is null). FILTER is one
#                                word, or 'quoted' to hold blanks; VALUE
#                                is the rest of the line.
#   expect body-contains TEXT
#   expect body-not-contains TEXT
#   expect unchanged             every table but login_attempts and
#                                tokens holds the same rows (counts and
#                                contents) after the request as before
#   expect unchanged-but-audit [N]  the same but for audit_log, which
#                                holds exactly one row more (N more): a
#                                write that changed nothing else (a
#                                backup, a PATCH of no field, a sync item
#                                refused for good) is still recorded
#   expect sql QUERY => VALUE    sqlite3 (psql) output of QUERY after the
#                                request (columns joined by |, rows by
#                                the two characters \n) equals VALUE; the
#                                first " =>" splits (VALUE may be empty)
#   expect no-file PATH          no file (of any kind) at PATH after the
#                                request, e.g. a code file beside the
#                                database (${VAR} replaced in PATH)
#   save VAR FILTER              VAR = jq -r FILTER of the body: exactly
#                                one value (strings raw, others as JSON)
#   save-file VAR PATH           VAR = the first line of the file PATH
#                                (${VAR} replaced in it), without its end
#                                of line: a file the responder wrote, e.g.
#                                beside its database. Read after the
#                                request, before the saves (which may use
#                                VAR); no such file fails the case
#
# Setup directives (sql, admin, sleep) run in their order, before the
# request; expectations after it, then saves. ${VAR} anywhere (but in
# body-file) is a seed variable (tests/seed.sh), a saved one, or
# STAFF_TOKEN STAFF_REFRESH STAFF2_TOKEN ... OWNER2_REFRESH (the seed's
# logins), or CASEDIR (a scratch folder of the case) and CASEDB (its
# database), or NOW_MS (the time when the line is read, in milliseconds
# since 1970, as the service stores times), or CLOCK_MS (see clock). An
# unknown variable fails the case.
#
# Every response is also checked: exit status 0, no sanitizer report on
# stderr, CGI headers with a Status, Content-Type exactly
# "application/json; charset=utf-8" (unless the request expects a 200 of
# another Content-Type with "expect header" or "expect header-match": an
# image, a page, CSV, a backup, whose bytes body-contains reads), an
# X-Request-Id, a Content-Length that fits; the body one JSON object (but
# for those); status never 500 (but CONFIGURATION_ERROR, a set-up the
# service cannot run with, and that without Retry-After); meta.request_id
# equal to X-Request-Id and meta.timestamp well formed where meta is
# present; on errors the one error body, the status of the code,
# WWW-Authenticate (Bearer...) on every 401, Allow on 405, Retry-After
# in whole seconds on 429 and 503. After the last request the database must pass integrity_check and
# foreign_key_check (SQLite; PostgreSQL checks every foreign key as it
# writes, and has no such check of its files).
#
# On a failure the diagnostics show the response and a command line that
# replays the request; the files it needs are kept in
# $top_builddir/tests/fixtures.out/MODE-DB/CASE/ (cgi-sqlite, fcgi-sqlite,
# cgi-postgresql, fcgi-postgresql: the four runs may go side by side).

export LC_ALL=C
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$PWD}
case $top_srcdir in /*) ;; *) top_srcdir=$PWD/$top_srcdir ;; esac
case $top_builddir in /*) ;; *) top_builddir=$PWD/$top_builddir ;; esac

FIXTURES=$top_srcdir/tests/fixtures
ADMIN=$top_builddir/tools/loyalty-admin
TIMEOUT=60

bail()
{
	echo "Bail out! $*"
	exit 1
}

MODE=${FIXTURES_MODE:-cgi}
DBMODE=${FIXTURES_DB:-sqlite}
OUTDIR=$top_builddir/tests/fixtures.out/$MODE-$DBMODE
TOOLS=(jq timeout xargs)
case $MODE in
cgi) ;;
fcgi) TOOLS+=(spawn-fcgi cgi-fcgi) ;;
*) bail "FIXTURES_MODE must be cgi or fcgi, not $MODE" ;;
esac
case $DBMODE in
sqlite) TOOLS+=(sqlite3) ;;
postgresql) ;;
*) bail "FIXTURES_DB must be sqlite or postgresql, not $DBMODE" ;;
esac
for tool in "${TOOLS[@]}"; do
	command -v "$tool" >/dev/null || bail "$tool is needed"
done
[[ -x $ADMIN ]] || bail "no $ADMIN: build first"
# Whether the responders take a request's LOYALTY_TEST_NOW (configure
# --enable-test-clock); the cases that set the clock need it.
TEST_CLOCK=0
grep -q '^#define LC_TEST_CLOCK 1' "$top_builddir/config.h" 2>/dev/null &&
    TEST_CLOCK=1
WALK=${FIXTURES_FAIL_WALK:-0}
[[ $WALK == [01] ]] || bail "FIXTURES_FAIL_WALK must be 0 or 1, not $WALK"
WALK_CAP=${FIXTURES_FAIL_CAP:-200}
[[ $WALK_CAP =~ ^[1-9][0-9]*$ ]] || bail "FIXTURES_FAIL_CAP must be a number"
if (( WALK )) && [[ $MODE != cgi ]]; then
	bail "FIXTURES_FAIL_WALK needs plain CGI (the switch counts a process's steps)"
fi

# The sqlite3 shell, waiting out a lock (a FastCGI server closing a case's
# database checkpoints it) rather than failing at once.
SQLITE=(sqlite3 -batch -cmd '.timeout 10000')

# Sanitizer settings reach the responders; nothing else does.
SAN_ENV=()
for key in ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS; do
	[[ -n ${!key-} ]] && SAN_ENV+=("$key=${!key}")
done

APP_PIDS=()
cleanup()
{
	local pid

	# Only the FastCGI servers this run started, by their ids. They
	# die on SIGTERM, even waiting in accept().
	for pid in "${APP_PIDS[@]}"; do
		kill -TERM "$pid" 2>/dev/null
	done
	for pid in "${APP_PIDS[@]}"; do
		wait "$pid" 2>/dev/null
	done
	rm -rf "$WORK"
}

WORK=$(mktemp -d "${TMPDIR:-/tmp}/fixtures.XXXXXX") || bail "mktemp failed"
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# shellcheck source=tests/seed.sh
. "$top_srcdir/tests/seed.sh" || bail "cannot read tests/seed.sh"

# PostgreSQL: the cluster (its helpers want tests/lib.sh's ports; this
# script's own bail and diag are defined again below), and the seed's
# template database. The SQLite functions the cases may use (see the
# top), for psql alone.
SEED_TEMPLATE=fixtures_seed
PG_COMPAT="CREATE SCHEMA fixture_sqlite;
CREATE FUNCTION fixture_sqlite.json_extract(doc text, path text)
RETURNS text LANGUAGE sql IMMUTABLE AS \$\$
	SELECT CASE jsonb_typeof(v)
	WHEN 'string' THEN v #>> '{}'
	WHEN 'boolean' THEN CASE WHEN v = 'true' THEN '1' ELSE '0' END
	WHEN 'null' THEN NULL
	WHEN 'number' THEN CASE WHEN v::text ~ '[.eE]'
	    THEN regexp_replace(v::text::float8::text, '^(-?[0-9]+)$', '\\1.0')
	    ELSE v::text END
	ELSE v::text END
	FROM (SELECT jsonb_path_query_first(doc::jsonb, path::jsonpath) AS v) j
\$\$;
CREATE FUNCTION fixture_sqlite.json_array_length(doc text, path text)
RETURNS bigint LANGUAGE sql IMMUTABLE AS \$\$
	SELECT jsonb_array_length(jsonb_path_query_first(doc::jsonb, path::jsonpath))
\$\$;"
if [[ $DBMODE == postgresql ]]; then
	# shellcheck source=tests/lib.sh
	. "$top_srcdir/tests/lib.sh" || bail "cannot read tests/lib.sh"
	# shellcheck source=tests/pg_lib.sh
	. "$top_srcdir/tests/pg_lib.sh" || bail "cannot read tests/pg_lib.sh"
	bail()
	{
		echo "Bail out! $*"
		exit 1
	}
	LC_TEST_PG_FSYNC=${LC_TEST_PG_FSYNC:-off} lt_pg_start
	# The servers go before the cluster they are connected to.
	trap 'cleanup; lt_pg_stop' EXIT
	SEED_DB=$(lt_pg_db "$SEED_TEMPLATE" 2>&1) || bail "cannot create the seed database: $SEED_DB"
else
	SEED_DB=$WORK/seed.db
fi

# db_sql DB SQL: runs SQL on the database DB (a file or a URI) and prints
# its rows as sqlite3 -batch does.
db_sql()
{
	if [[ $DBMODE == postgresql ]]; then
		PGOPTIONS='-c search_path=public,fixture_sqlite' lt_pg_sql "$1" "$2"
	else
		"${SQLITE[@]}" "$1" "$2"
	fi
}

seed_build "$top_builddir" "$SEED_DB" "$WORK/seed.vars" 2>"$WORK/seed.err" ||
	bail "seed failed: $(tr '\n' ' ' <"$WORK/seed.err")"
if [[ $DBMODE == postgresql ]]; then
	out=$(lt_pg_sql "$SEED_DB" "$PG_COMPAT" 2>&1) ||
		bail "cannot add the SQLite functions to the seed: $out"
fi

# Seed variables, then one login per user.
declare -A VARS=()
while IFS= read -r line; do
	eval "VARS[${line%%=*}]=${line#*=}"
done <"$WORK/seed.vars"
USERS=(STAFF STAFF2 OWNER OWNER2)
for who in "${USERS[@]}"; do
	e=${who}_EMAIL p=${who}_PASSWORD
	seed_login "$top_builddir" "$SEED_DB" "${VARS[$e]}" "${VARS[$p]}" ||
		bail "login of ${VARS[$e]} failed"
done >"$WORK/logins"
{
	for who in "${USERS[@]}"; do
		read -r "VARS[${who}_TOKEN]"
		read -r "VARS[${who}_REFRESH]"
		[[ ${VARS[${who}_TOKEN]} =~ ^[A-Za-z0-9_-]{20,}$ ]] ||
			bail "login of ${who} gave no token"
	done
} < <(jq -r '.access_token, .refresh_token' "$WORK/logins")
# Each case copies the seed's one file (PostgreSQL copies a template
# database whole, its log included).
if [[ $DBMODE == sqlite ]]; then
	"${SQLITE[@]}" "$SEED_DB" 'PRAGMA wal_checkpoint(TRUNCATE);' >/dev/null ||
		bail "checkpoint of the seed failed"
fi

# FastCGI mode: one long-running server per responder, on a UNIX socket,
# serving every case in turn (each request names its own database).
if [[ $MODE == fcgi ]]; then
	for app in "$top_builddir"/cgi-bin/*.fcgi; do
		name=${app##*/}
		name=${name%.fcgi}
		env -i "${SAN_ENV[@]}" "$(command -v spawn-fcgi)" -n \
		    -s "$WORK/$name.sock" -- "$app" >"$WORK/$name.log" 2>&1 &
		APP_PIDS+=($!)
	done
	for app in "$top_builddir"/cgi-bin/*.fcgi; do
		name=${app##*/}
		name=${name%.fcgi}
		for i in $(seq 50); do
			[[ -S $WORK/$name.sock ]] && break
			sleep 0.1
		done
		[[ -S $WORK/$name.sock ]] || bail "FastCGI server $name did not start"
	done
fi

# What "expect unchanged" compares: every table but the two that failed
# requests may write. PostgreSQL keeps no order of its own: the rows are
# sorted by every column, and each is one JSON object (NULL and '' apart,
# as SQLite's quote mode keeps them).
if [[ $DBMODE == postgresql ]]; then
	TABLES=$(lt_pg_sql "$SEED_DB" "SELECT t.table_name || '|' ||
	    string_agg('x.' || quote_ident(c.column_name), ', '
	    ORDER BY c.ordinal_position)
	    FROM information_schema.tables t JOIN information_schema.columns c
	    ON c.table_schema = t.table_schema AND c.table_name = t.table_name
	    WHERE t.table_schema = 'public' AND t.table_type = 'BASE TABLE'
	    AND t.table_name NOT IN ('login_attempts', 'tokens')
	    GROUP BY t.table_name ORDER BY t.table_name;") ||
		bail "cannot list tables"
else
	TABLES=$("${SQLITE[@]}" "$SEED_DB" "SELECT name FROM sqlite_master
	    WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
	    AND name NOT IN ('login_attempts', 'tokens') ORDER BY name;") ||
		bail "cannot list tables"
fi
[[ -n $TABLES ]] || bail "no tables in the seed"
DUMP_SQL=
DUMP_SQL_AUDIT=
while IFS= read -r t; do
	if [[ $DBMODE == postgresql ]]; then
		cols=${t#*|}
		t=${t%%|*}
		q="SELECT '# $t', count(*) FROM \"$t\"; SELECT row_to_json(x) FROM \"$t\" x ORDER BY $cols; "
	else
		q="SELECT '# $t', count(*) FROM \"$t\"; SELECT * FROM \"$t\"; "
	fi
	DUMP_SQL+=$q
	[ "$t" = audit_log ] || DUMP_SQL_AUDIT+=$q
done <<<"$TABLES"

# What the walk compares: every table but login_attempts (see the top).
WALK_DUMP_SQL=
WALK_EMPTY_SQL="SELECT 0"
if (( WALK )); then
	[[ $DBMODE == sqlite ]] || bail "FIXTURES_FAIL_WALK runs on SQLite"
	while IFS= read -r t; do
		cols='*'
		# An integration token's last use is written when it is
		# taken, before the handler, in a write of its own.
		[[ $t == api_tokens ]] && cols="id, merchant_id, name, scopes,
		    digest, prefix, created_at, created_by, revoked_at"
		WALK_DUMP_SQL+="SELECT '# $t', count(*) FROM \"$t\"; SELECT $cols FROM \"$t\"; "
		[[ $t == schema_migrations ]] ||
		    WALK_EMPTY_SQL+=" + (SELECT count(*) FROM \"$t\")"
	done < <("${SQLITE[@]}" "$SEED_DB" "SELECT name FROM sqlite_master
	    WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
	    AND name != 'login_attempts' ORDER BY name;")
	[[ -n $WALK_DUMP_SQL ]] || bail "no tables in the seed"
	WALK_EMPTY_SQL+=";"
fi

# The cases: arguments (files or folders), else every case.
CASES=()
[[ $# -eq 0 ]] && set -- "$FIXTURES"
for a in "$@"; do
	if [[ -d $a ]]; then
		while IFS= read -r f; do
			CASES+=("$f")
		done < <(find "$a" -type f -name '*.case' | sort)
	elif [[ -f $a ]]; then
		CASES+=("$a")
	else
		bail "no case $a"
	fi
done

# --- one case --------------------------------------------------------------

declare -A SAVED=()
DIAG=()		# this case's failure messages
CASEDIR=
CASEDB=
CASEFILE=
NREQ=0		# requests run in this case

diag()
{
	DIAG+=("$@")
}

# diag_diff A B: the first 20 lines of diff A B, each as a diagnostic.
diag_diff()
{
	local line

	while IFS= read -r line; do
		diag "  $line"
	done < <(diff "$1" "$2" | head -20)
}

# subst STRING: REPLY = STRING with ${VAR} replaced; 1 on an unknown one.
subst()
{
	local s=$1 out='' name

	while [[ $s == *'${'* ]]; do
		out+=${s%%'${'*}
		s=${s#*'${'}
		if [[ $s != *'}'* ]]; then
			SUBST_ERR="unterminated \${ in: $1"
			return 1
		fi
		name=${s%%'}'*}
		s=${s#*'}'}
		if [[ ! $name =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]]; then
			SUBST_ERR="bad variable name \${$name}"
			return 1
		elif [[ -v SAVED[$name] ]]; then
			out+=${SAVED[$name]}
		elif [[ -v VARS[$name] ]]; then
			out+=${VARS[$name]}
		elif [[ $name == NOW_MS ]]; then
			out+=$(( ${EPOCHREALTIME/[.,]/} / 1000 ))
		else
			SUBST_ERR="unknown variable \${$name}"
			return 1
		fi
	done
	REPLY=$out$s
}

# Request state, reset by "request".
reset_request()
{
	R_NAME=
	R_LINE=0
	R_METHOD=POST
	R_URI=
	R_HAS_URI=0
	R_BODY_KIND=
	R_BODY_ARG=
	R_ENV_KEYS=()
	declare -gA R_ENV=()
	declare -gA R_UNSET=()
	R_SETUP=()	# "LINE<TAB>KEYWORD<TAB>ARG"
	R_EXPECT=()
	R_SAVE=()
	R_SAVE_FILE=()
}

set_env()
{
	[[ -v R_ENV[$1] ]] || R_ENV_KEYS+=("$1")
	R_ENV[$1]=$2
	unset 'R_UNSET[$1]'
}

# Reads a directive into the current request. 1 with a diag on a bad one.
directive()
{
	local ln=$1 kw=$2 arg=$3 name value

	case $kw in
	method)
		subst "$arg" || { diag "line $ln: $SUBST_ERR"; return 1; }
		R_METHOD=$REPLY ;;
	uri)
		subst "$arg" || { diag "line $ln: $SUBST_ERR"; return 1; }
		R_URI=$REPLY
		R_HAS_URI=1 ;;
	header)
		if [[ ! $arg =~ ^([A-Za-z0-9-]+):[[:space:]]*(.*)$ ]]; then
			diag "line $ln: want header Name: value"
			return 1
		fi
		name=${BASH_REMATCH[1]}
		subst "${BASH_REMATCH[2]}" || { diag "line $ln: $SUBST_ERR"; return 1; }
		name=${name^^}
		name=${name//-/_}
		case $name in
		CONTENT_TYPE|CONTENT_LENGTH) ;;
		*) name=HTTP_$name ;;
		esac
		set_env "$name" "$REPLY" ;;
	env)
		if [[ ! $arg =~ ^([A-Za-z_][A-Za-z0-9_]*)=(.*)$ ]]; then
			diag "line $ln: want env NAME=VALUE"
			return 1
		fi
		name=${BASH_REMATCH[1]}
		subst "${BASH_REMATCH[2]}" || { diag "line $ln: $SUBST_ERR"; return 1; }
		set_env "$name" "$REPLY" ;;
	unset)
		if [[ ! $arg =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]]; then
			diag "line $ln: want unset NAME"
			return 1
		fi
		unset 'R_ENV[$arg]'
		R_UNSET[$arg]=1 ;;
	clock)
		if [[ ! $arg =~ ^[+-]?[0-9]{1,12}$ ]]; then
			diag "line $ln: want clock MILLISECONDS (after the case's start)"
			return 1
		fi
		value=$((10#${arg#[+-]}))
		[[ $arg == -* ]] && value=$((-value))
		set_env LOYALTY_TEST_NOW $((VARS[CLOCK_MS] + value)) ;;
	as)
		name=${arg^^}
		case $name in
		STAFF|STAFF2|OWNER|OWNER2) ;;
		*) diag "line $ln: as: no user $arg (staff, staff2, owner, owner2)"
		   return 1 ;;
		esac
		set_env HTTP_AUTHORIZATION "Bearer ${VARS[${name}_TOKEN]}" ;;
	body|body-bytes|body-pad|body-file)
		if [[ -n $R_BODY_KIND ]]; then
			diag "line $ln: a second body"
			return 1
		fi
		case $kw in
		body-bytes)
			if [[ ! $arg =~ ^[0-9]+\ (.)$ ]]; then
				diag "line $ln: want body-bytes N CHAR"
				return 1
			fi ;;
		body-pad)
			if [[ ! $arg =~ ^[0-9]+\ (.*)$ ]]; then
				diag "line $ln: want body-pad N TEXT"
				return 1
			fi ;;
		body-file)
			if [[ ! -f $(dirname "$CASEFILE")/$arg ]]; then
				diag "line $ln: no file $arg"
				return 1
			fi ;;
		esac
		R_BODY_KIND=$kw
		R_BODY_ARG=$arg ;;
	sql|sql-sqlite|sql-postgresql|admin|sleep)
		if [[ -z $arg ]]; then
			diag "line $ln: $kw needs an argument"
			return 1
		fi
		# The other database's statement is not run at all.
		[[ $kw == sql-* && $kw != "sql-$DBMODE" ]] && return 0
		R_SETUP+=("$ln"$'\t'"${kw%%-*}"$'\t'"$arg") ;;
	expect)
		case $arg in
		status\ *|header\ *|no-header\ *|header-match\ *|json\ *|\
		body-contains\ *|body-not-contains\ *|unchanged|unchanged-but-audit|\
		unchanged-but-audit\ [1-9]|unchanged-but-audit\ [1-9][0-9]|\
		no-file\ *|\
		sql\ *' => '*|\
		sql\ *' =>')
			R_EXPECT+=("$ln"$'\t'"$arg") ;;
		*)
			diag "line $ln: unknown expectation: $arg"
			return 1 ;;
		esac ;;
	save)
		if [[ ! $arg =~ ^[A-Za-z_][A-Za-z0-9_]*\ .+$ ]]; then
			diag "line $ln: want save VAR FILTER"
			return 1
		fi
		R_SAVE+=("$ln"$'\t'"$arg") ;;
	save-file)
		if [[ ! $arg =~ ^[A-Za-z_][A-Za-z0-9_]*\ .+$ ]]; then
			diag "line $ln: want save-file VAR PATH"
			return 1
		fi
		R_SAVE_FILE+=("$ln"$'\t'"$arg") ;;
	*)
		diag "line $ln: unknown directive $kw"
		return 1 ;;
	esac
	return 0
}

# Runs the setup directives of the request. 1 after a diag.
run_setup()
{
	local item ln kw arg words=() w out

	for item in "${R_SETUP[@]}"; do
		ln=${item%%$'\t'*}
		item=${item#*$'\t'}
		kw=${item%%$'\t'*}
		arg=${item#*$'\t'}
		case $kw in
		sleep)
			sleep "$arg" || { diag "line $ln: bad sleep $arg"; return 1; } ;;
		sql)
			subst "$arg" || { diag "line $ln: $SUBST_ERR"; return 1; }
			if ! out=$(db_sql "$CASEDB" "$REPLY" 2>&1); then
				diag "line $ln: sql failed: $out"
				return 1
			fi ;;
		admin)
			if ! printf '%s' "$arg" | xargs printf '%s\0' \
			    >"$CASEDIR/words" 2>"$CASEDIR/words.err"; then
				diag "line $ln: cannot split: $(cat "$CASEDIR/words.err")"
				return 1
			fi
			mapfile -d '' -t words <"$CASEDIR/words"
			for w in "${!words[@]}"; do
				subst "${words[w]}" ||
					{ diag "line $ln: $SUBST_ERR"; return 1; }
				words[w]=$REPLY
			done
			if ! out=$("$ADMIN" --db "$CASEDB" "${words[@]}" \
			    </dev/null 2>&1); then
				diag "line $ln: loyalty-admin ${words[*]} failed: $out"
				return 1
			fi ;;
		esac
	done
	return 0
}

# Writes the body of the request to $1; sets BODY_LEN (-1: no body).
make_body()
{
	local f=$1 n c text

	BODY_LEN=-1
	case $R_BODY_KIND in
	'')
		: >"$f"
		return 0 ;;
	body)
		subst "$R_BODY_ARG" || { diag "line $R_LINE: $SUBST_ERR"; return 1; }
		printf '%s' "$REPLY" >"$f" ;;
	body-bytes)
		n=${R_BODY_ARG%% *}
		c=${R_BODY_ARG#* }
		head -c "$n" /dev/zero | tr '\0' "$c" >"$f" ;;
	body-pad)
		n=${R_BODY_ARG%% *}
		subst "${R_BODY_ARG#* }" || { diag "line $R_LINE: $SUBST_ERR"; return 1; }
		text=$REPLY
		if (( ${#text} > n )); then
			diag "line $R_LINE: body-pad text is over $n bytes"
			return 1
		fi
		printf '%*s%s' $((n - ${#text})) '' "$text" >"$f" ;;
	body-file)
		cp "$(dirname "$CASEFILE")/$R_BODY_ARG" "$f" ;;
	esac
	BODY_LEN=$(stat -c %s "$f")
}

# The dump that "expect unchanged" compares; with a second argument, the
# one of "unchanged-but-audit": the other tables, then the count of audit
# rows on the last line.
# A dump that fails sets DUMP_FAILED: two failures alike must not pass.
dump_rows()
{
	local sql=$DUMP_SQL

	[ $# -gt 1 ] && sql="$DUMP_SQL_AUDIT SELECT count(*) FROM audit_log;"
	if [[ $DBMODE == postgresql ]]; then
		lt_pg_sql "$CASEDB" "$sql" >"$1" 2>&1
	else
		"${SQLITE[@]}" -cmd '.mode quote' "$CASEDB" "$sql" >"$1" 2>&1
	fi || {
		diag "cannot dump the rows: $(head -c 500 "$1")"
		DUMP_FAILED=1
	}
}

# Headers of the last response, lower-cased names: first value of each.
declare -A HDR=()

# Checks one response and the request's expectations. 1 after diags.
check_response()
{
	local k=$1 rc=$2
	local out=$CASEDIR/out-$k err=$CASEDIR/err-$k
	local raw head body line name value status=0 ok=1 item ln arg n
	local jqprog jqargs=() i=0 rid got filter want re f bodylen notjson=0
	local -a jlines=() jgot=()

	# The process.
	if (( rc == 124 )); then
		diag "the responder timed out after ${TIMEOUT}s"
		ok=0
	elif (( rc != 0 )); then
		diag "the responder exited with status $rc"
		ok=0
	fi
	if [[ -s $err ]] && grep -qE 'runtime error|AddressSanitizer|LeakSanitizer|ThreadSanitizer|MemorySanitizer' "$err"; then
		diag "sanitizer report on stderr"
		ok=0
	fi

	# The CGI output: headers, blank line, body.
	raw=
	IFS= read -r -d '' raw <"$out"
	if [[ $raw != *$'\r\n\r\n'* ]]; then
		diag "no blank line (CRLF CRLF) after the headers"
		return 1
	fi
	head=${raw%%$'\r\n\r\n'*}
	body=${raw#*$'\r\n\r\n'}
	# The bytes after the headers: a body may hold NULs, which the
	# shell's variables cannot.
	tail -c +$((${#head} + 5)) "$out" >"$CASEDIR/body-out-$k"
	bodylen=$(stat -c %s "$CASEDIR/body-out-$k")
	HDR=()
	while IFS= read -r line; do
		line=${line%$'\r'}
		if [[ ! $line =~ ^([A-Za-z0-9-]+):\ ?(.*)$ ]]; then
			diag "bad header line: $line"
			ok=0
			continue
		fi
		name=${BASH_REMATCH[1],,}
		[[ -v HDR[$name] ]] || HDR[$name]=${BASH_REMATCH[2]}
	done <<<"$head"
	if [[ ${HDR[status]-} =~ ^([1-5][0-9][0-9])\ [^[:space:]] ]]; then
		status=${BASH_REMATCH[1]}
	else
		diag "no valid Status header: '${HDR[status]-}'"
		ok=0
	fi
	# A 200 the case expects in another type than JSON.
	for item in "${R_EXPECT[@]}"; do
		arg=${item#*$'\t'}
		if [[ ${arg,,} =~ ^header(-match)?\ content-type\  &&
		    ${arg,,} != *' application/json'* && $status == 200 ]]; then
			notjson=1
		fi
	done
	if (( !notjson )) &&
	    [[ ${HDR[content-type]-} != 'application/json; charset=utf-8' ]]; then
		diag "Content-Type is '${HDR[content-type]-}'"
		ok=0
	fi
	rid=${HDR[x-request-id]-}
	if [[ -z $rid ]]; then
		diag "no X-Request-Id header"
		ok=0
	fi
	if [[ -v HDR[content-length] && ${HDR[content-length]} != "$bodylen" ]]; then
		diag "Content-Length ${HDR[content-length]} but the body has $bodylen bytes"
		ok=0
	fi
	# A 500 is a failure, but for the service's answer to a set-up it
	# cannot run with (never a retry: no Retry-After either).
	if (( status == 500 )) && [[ $body != *'"code":"CONFIGURATION_ERROR"'* ]]; then
		diag "status 500"
		ok=0
	fi
	if (( status == 500 )) && [[ -v HDR[retry-after] ]]; then
		diag "500 with Retry-After"
		ok=0
	fi
	case $status in
	405) [[ -v HDR[allow] ]] || { diag "405 without Allow"; ok=0; } ;;
	429|503)
		if [[ ! ${HDR[retry-after]-} =~ ^[1-9][0-9]*$ ]]; then
			diag "$status without a Retry-After of whole seconds: '${HDR[retry-after]-}'"
			ok=0
		fi ;;
	esac

	# The body, the automatic checks and every "expect json", in one jq.
	jqprog='
def ts: type == "string" and
    test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z$");
def codes: {VALIDATION_ERROR: 400, UNAUTHORIZED: 401,
    INVALID_CREDENTIALS: 401, FORBIDDEN: 403, NOT_FOUND: 404,
    CARD_NOT_FOUND: 404, METHOD_NOT_ALLOWED: 405, CARD_INACTIVE: 409,
    NO_PENDING_REWARDS: 409, PAYLOAD_TOO_LARGE: 413,
    UNSUPPORTED_MEDIA_TYPE: 415, INSUFFICIENT_BALANCE: 422,
    WRONG_CARD_TYPE: 422, COOLDOWN_ACTIVE: 429, RATE_LIMITED: 429,
    CONFLICT: 409, INTERNAL_ERROR: 500, DATABASE_ERROR: 503,
    SERVICE_UNAVAILABLE: 503, CONFIGURATION_ERROR: 500};
def meta_ok: if has("meta") then
      (if (.meta | type) != "object" then "P meta is not an object"
       else
        (if .meta.request_id != $rid then
          "P meta.request_id \(.meta.request_id | tojson) differs from X-Request-Id" else empty end),
        (if (.meta.timestamp | ts) | not then
          "P meta.timestamp \(.meta.timestamp | tojson) is not YYYY-MM-DDTHH:MM:SS.mmmZ" else empty end)
       end)
    else empty end;
. as $raw | (try (fromjson | [.]) catch ("\(.)")) as $p |
if ($raw | length) == 0 then "P the body is empty"
elif ($p | type) == "string" then "P the body is not JSON: \($p)"
else $p[0] as $b |
  if ($b | type) != "object" then "P the body is not a JSON object"
  elif $status >= 400 then
    ($b |
      (if .success != false then "P error body: success is not false" else empty end),
      (if (.error | type) != "object" then "P error body: no error object"
       else
         (if (.error.code | type) != "string" then "P error body: error.code is not a string"
          elif codes[.error.code] != null and codes[.error.code] != $status then
            "P error.code \(.error.code) is HTTP \(codes[.error.code]), not \($status)"
          else empty
          end),
         (if (.error.message | type) != "string" or .error.message == "" then
           "P error body: error.message is not a non-empty string" else empty end),
         (if (.error | has("details")) and (.error.details | type) != "object" then
           "P error body: error.details is not an object" else empty end)
       end),
      (if has("meta") | not then "P error body: no meta" else meta_ok end))
  else
    ($b | meta_ok,
      (if has("success") and .success != true then
        "P success body: success is not true" else empty end))
  end
end
'
	for item in "${R_EXPECT[@]}"; do
		ln=${item%%$'\t'*}
		arg=${item#*$'\t'}
		[[ $arg == json\ * ]] || continue
		arg=${arg#json }
		if [[ $arg == \'* ]]; then
			arg=${arg#\'}
			if [[ $arg != *\'* ]]; then
				diag "line $ln: unterminated 'FILTER'"
				return 1
			fi
			filter=${arg%%\'*}
			want=${arg#*\'}
		else
			filter=${arg%% *}
			want=${arg#"$filter"}
		fi
		want=${want#"${want%%[! ]*}"}
		if ! subst "$filter"; then diag "line $ln: $SUBST_ERR"; return 1; fi
		filter=$REPLY
		if ! subst "$want"; then diag "line $ln: $SUBST_ERR"; return 1; fi
		want=$REPLY
		jqargs+=(--argjson "v$i" "$want")
		jqprog+=",
(\$p | if type == \"array\" then .[0] | try ([$filter] as \$g | if \$g == [\$v$i] then \"E$i =\" else \"E$i \" + (if \$g == [] then \"(no value)\" else \$g | map(tojson) | join(\" \") end) end) catch \"E$i jq error: \\(.)\" else \"E$i (no JSON body)\" end)"
		jlines[i]="line $ln: expect json $filter $want"
		i=$((i + 1))
	done
	if (( notjson )); then
		# Nothing of JSON to check: every "expect json" fails.
		for (( i = 0; i < ${#jlines[@]}; i++ )); do
			printf 'E%d (not a JSON answer)\n' "$i"
		done >"$CASEDIR/jq-$k"
	elif ! jq -R -r -s --arg rid "$rid" --argjson status "$status" \
	    "${jqargs[@]}" "$jqprog" <"$CASEDIR/body-out-$k" \
	    >"$CASEDIR/jq-$k" 2>"$CASEDIR/jq-err-$k"; then
		# Find the culprit only now: one jq per value is slow.
		for (( i = 0; i < ${#jqargs[@]}; i += 3 )); do
			if ! jq -n --argjson v "${jqargs[i + 2]}" 1 >/dev/null 2>&1; then
				diag "${jlines[i / 3]}: VALUE is not JSON"
				return 1
			fi
		done
		diag "jq failed (a bad FILTER?): $(head -c 500 "$CASEDIR/jq-err-$k")"
		return 1
	fi
	while IFS= read -r line; do
		case $line in
		'P '*) diag "${line#P }"; ok=0 ;;
		E*)
			i=${line%% *}
			jgot[${i#E}]=${line#* } ;;
		esac
	done <"$CASEDIR/jq-$k"
	# Every 401, a failed login included, names the scheme (WWW-Authenticate).
	if [[ $status == 401 && ${HDR[www-authenticate]-} != Bearer* ]]; then
		diag "401 without WWW-Authenticate: Bearer"
		ok=0
	fi

	# The expectations, in order.
	i=0
	for item in "${R_EXPECT[@]}"; do
		ln=${item%%$'\t'*}
		arg=${item#*$'\t'}
		case $arg in
		json\ *)
			if [[ ${jgot[i]-} != '=' ]]; then
				diag "${jlines[i]}: got ${jgot[i]-(nothing)}"
				ok=0
			fi
			i=$((i + 1))
			continue ;;
		unchanged-but-audit | unchanged-but-audit\ *)
			n=1
			[[ $arg == *\ * ]] && n=${arg#* }
			dump_rows "$CASEDIR/after-$k.arows" audit
			if ! cmp -s <(sed '$d' "$CASEDIR/before-$k.arows") \
			    <(sed '$d' "$CASEDIR/after-$k.arows"); then
				diag "line $ln: expect unchanged-but-audit: rows changed:"
				diag_diff "$CASEDIR/before-$k.arows" \
				    "$CASEDIR/after-$k.arows"
				ok=0
			elif x=$(tail -n 1 "$CASEDIR/before-$k.arows") &&
			    [[ ! $x =~ ^[0-9]+$ ]] ||
			    [ "$(tail -n 1 "$CASEDIR/after-$k.arows")" != "$((x + n))" ]; then
				diag "line $ln: expect unchanged-but-audit: audit rows $(tail -n 1 "$CASEDIR/before-$k.arows") before, $(tail -n 1 "$CASEDIR/after-$k.arows") after"
				ok=0
			fi ;;
		unchanged)
			dump_rows "$CASEDIR/after-$k.rows"
			if ! cmp -s "$CASEDIR/before-$k.rows" "$CASEDIR/after-$k.rows"; then
				diag "line $ln: expect unchanged: rows changed:"
				diag_diff "$CASEDIR/before-$k.rows" "$CASEDIR/after-$k.rows"
				ok=0
			fi
			continue ;;
		esac
		if ! subst "$arg"; then diag "line $ln: $SUBST_ERR"; ok=0; continue; fi
		arg=$REPLY
		case $arg in
		status\ *)
			if [[ $status != "${arg#status }" ]]; then
				diag "line $ln: expect status ${arg#status }: got $status"
				ok=0
			fi ;;
		header\ *)
			arg=${arg#header }
			name=${arg%% *}
			if [[ $arg == *' '* ]]; then
				value=${arg#* }
				if [[ ! -v HDR[${name,,}] ]]; then
					diag "line $ln: expect header $name: absent"
					ok=0
				elif [[ ${HDR[${name,,}]} != "$value" ]]; then
					diag "line $ln: expect header $name '$value': got '${HDR[${name,,}]}'"
					ok=0
				fi
			elif [[ ! -v HDR[${name,,}] ]]; then
				diag "line $ln: expect header $name: absent"
				ok=0
			fi ;;
		no-header\ *)
			name=${arg#no-header }
			if [[ -v HDR[${name,,}] ]]; then
				diag "line $ln: expect no-header $name: got '${HDR[${name,,}]}'"
				ok=0
			fi ;;
		header-match\ *)
			arg=${arg#header-match }
			name=${arg%% *}
			re=${arg#* }
			if [[ ! -v HDR[${name,,}] ]]; then
				diag "line $ln: expect header-match $name: absent"
				ok=0
			elif [[ ! ${HDR[${name,,}]} =~ ^($re)$ ]]; then
				diag "line $ln: expect header-match $name $re: got '${HDR[${name,,}]}'"
				ok=0
			fi ;;
		body-contains\ *)
			if ! grep -qaF -- "${arg#body-contains }" \
			    "$CASEDIR/body-out-$k"; then
				diag "line $ln: expect body-contains: not found"
				ok=0
			fi ;;
		body-not-contains\ *)
			if grep -qaF -- "${arg#body-not-contains }" \
			    "$CASEDIR/body-out-$k"; then
				diag "line $ln: expect body-not-contains: found it"
				ok=0
			fi ;;
		no-file\ *)
			if [[ -e ${arg#no-file } || -L ${arg#no-file } ]]; then
				diag "line $ln: expect no-file: ${arg#no-file } exists"
				ok=0
			fi ;;
		sql\ *)
			arg=${arg#sql }
			f=${arg%% =>*}
			want=${arg#* =>}
			want=${want# }
			if ! got=$(db_sql "$CASEDB" "$f" 2>&1); then
				diag "line $ln: expect sql: query failed: $got"
				ok=0
				continue
			fi
			got=${got//$'\n'/\\n}
			if [[ $got != "$want" ]]; then
				diag "line $ln: expect sql $f => $want: got $got"
				ok=0
			fi ;;
		esac
	done

	# Saves.
	for item in "${R_SAVE_FILE[@]}"; do
		ln=${item%%$'\t'*}
		arg=${item#*$'\t'}
		name=${arg%% *}
		if ! subst "${arg#* }"; then diag "line $ln: $SUBST_ERR"; ok=0; continue; fi
		if [[ ! -f $REPLY ]]; then
			diag "line $ln: save-file $name: no file $REPLY"
			ok=0
			continue
		fi
		got=
		IFS= read -r got <"$REPLY"
		SAVED[$name]=${got%$'\r'}
	done
	for item in "${R_SAVE[@]}"; do
		ln=${item%%$'\t'*}
		arg=${item#*$'\t'}
		name=${arg%% *}
		if ! subst "${arg#* }"; then diag "line $ln: $SUBST_ERR"; ok=0; continue; fi
		if ! got=$(jq -r "[$REPLY] | if length == 1 then .[0] |
		    if type == \"string\" then . else tojson end
		    else error(\"\\(length) values\") end" \
		    <"$CASEDIR/body-out-$k" 2>&1); then
			diag "line $ln: save $name: $got"
			ok=0
			continue
		fi
		SAVED[$name]=$got
	done
	(( ok && !DUMP_FAILED ))
}

# Runs the request just read. 1 after diags.
run_request()
{
	local k=$((++NREQ)) resp rc envlist=() key q repro x logsize

	resp=$top_builddir/cgi-bin/$R_NAME.fcgi
	if [[ ! -x $resp ]]; then
		diag "line $R_LINE: no responder $resp"
		return 1
	fi
	if [[ $MODE == fcgi && ! -S $WORK/$R_NAME.sock ]]; then
		diag "line $R_LINE: no FastCGI server for $R_NAME"
		return 1
	fi
	run_setup || return 1
	make_body "$CASEDIR/body-$k" || return 1

	# The environment: defaults, then the case's own.
	declare -A env=(
		[GATEWAY_INTERFACE]=CGI/1.1
		[SERVER_PROTOCOL]=HTTP/1.1
		[SERVER_NAME]=localhost
		[SERVER_PORT]=80
		[REMOTE_ADDR]=127.0.0.1
		[REQUEST_METHOD]=$R_METHOD
		[LOYALTY_DB]=$CASEDB
	)
	local keys=(GATEWAY_INTERFACE SERVER_PROTOCOL SERVER_NAME SERVER_PORT
	    REMOTE_ADDR REQUEST_METHOD)
	if (( R_HAS_URI )); then
		env[REQUEST_URI]=$R_URI
		q=
		[[ $R_URI == *'?'* ]] && q=${R_URI#*'?'}
		env[QUERY_STRING]=$q
		keys+=(REQUEST_URI QUERY_STRING)
	fi
	if (( BODY_LEN >= 0 )); then
		env[CONTENT_TYPE]=application/json
		env[CONTENT_LENGTH]=$BODY_LEN
		keys+=(CONTENT_TYPE CONTENT_LENGTH)
	fi
	for key in "${R_ENV_KEYS[@]}"; do
		[[ -v R_ENV[$key] ]] || continue
		[[ -v env[$key] ]] || keys+=("$key")
		env[$key]=${R_ENV[$key]}
	done
	[[ " ${keys[*]} " == *" LOYALTY_DB "* ]] || keys+=(LOYALTY_DB)
	for key in "${SAN_ENV[@]}"; do
		if [[ ! -v env[${key%%=*}] ]]; then
			env[${key%%=*}]=${key#*=}
			keys+=("${key%%=*}")
		fi
	done
	for key in "${keys[@]}"; do
		[[ -v R_UNSET[$key] ]] && continue
		envlist+=("$key=${env[$key]}")
	done

	local walked=0
	if (( WALK && LAST_REQ )); then
		walk_request "$resp" "${envlist[@]}" || walked=1
	fi

	# The database as the request found it, for a replay. Not on
	# PostgreSQL: the cluster goes with the run.
	if [[ $DBMODE == sqlite ]]; then
		cp "$CASEDB" "$CASEDIR/before-$k.db"
		# A FastCGI server may hold the database open: take its log too.
		cp "$CASEDB-wal" "$CASEDIR/before-$k.db-wal" 2>/dev/null
	fi
	DUMP_FAILED=0
	for x in "${R_EXPECT[@]}"; do
		if [[ ${x#*$'\t'} == unchanged ]]; then
			dump_rows "$CASEDIR/before-$k.rows"
		elif [[ ${x#*$'\t'} == unchanged-but-audit* ]]; then
			dump_rows "$CASEDIR/before-$k.arows" audit
		fi
	done
	if [[ $MODE == fcgi ]]; then
		logsize=$(stat -c %s "$WORK/$R_NAME.log")
		timeout "$TIMEOUT" env -i "${envlist[@]}" "$(command -v cgi-fcgi)" \
		    -bind -connect "$WORK/$R_NAME.sock" \
		    <"$CASEDIR/body-$k" >"$CASEDIR/out-$k" 2>"$CASEDIR/err-$k"
		rc=$?
		# What the server logged meanwhile (in parallel runs, maybe
		# another case's lines too).
		tail -c +$((logsize + 1)) "$WORK/$R_NAME.log" >>"$CASEDIR/err-$k"
	else
		timeout "$TIMEOUT" env -i "${envlist[@]}" "$resp" \
		    <"$CASEDIR/body-$k" >"$CASEDIR/out-$k" 2>"$CASEDIR/err-$k"
		rc=$?
	fi
	if ! check_response "$k" "$rc"; then
		# Keep what a developer needs to replay it.
		KEEP=$OUTDIR/${CASEREL#/}
		KEEP=${KEEP%.case}
		rm -rf "$KEEP"
		mkdir -p "$KEEP"
		cp "$CASEDIR/body-$k" "$KEEP/"
		[[ $DBMODE == sqlite ]] && cp "$CASEDIR/before-$k.db" "$KEEP/"
		cp "$CASEDIR/out-$k" "$KEEP/response-$k"
		cp "$CASEDIR/err-$k" "$KEEP/stderr-$k"
		repro="env -i"
		for key in "${envlist[@]}"; do
			[[ $DBMODE == sqlite && $key == LOYALTY_DB=* ]] &&
			    key=LOYALTY_DB=$KEEP/replay.db
			repro+=" $(printf '%q' "$key")"
		done
		repro+=" $(printf '%q' "$resp") < $(printf '%q' "$KEEP/body-$k")"
		diag "request $k (line $R_LINE, $R_NAME): status ${HDR[status]-?}"
		local line
		while IFS= read -r line; do
			diag "  > ${line%$'\r'}"
		done < <(if [[ ${HDR[content-type]-} == application/json* ]]; then
			head -c 3000 "$CASEDIR/out-$k"
		else
			# Not JSON (an image, a backup): its headers only.
			sed -n '/^\r\?$/q;p' "$CASEDIR/out-$k"
			printf '(and a body of %s bytes)' \
			    "$(stat -c %s "$CASEDIR/body-out-$k" 2>/dev/null)"
		fi; echo)
		if [[ -s $CASEDIR/err-$k ]]; then
			while IFS= read -r line; do
				diag "  stderr: $line"
			done < <(head -c 2000 "$CASEDIR/err-$k")
		fi
		if [[ $DBMODE == postgresql ]]; then
			diag "replay (the cluster and its copy of the database go with the run: LOYALTY_DB=a database of yours, or FIXTURES_DB=sqlite): $repro"
			printf '%s\n' "$repro" >"$KEEP/replay-$k.sh"
			return 1
		fi
		diag "replay: cp $(printf '%q' "$KEEP/before-$k.db") $(printf '%q' "$KEEP/replay.db") && $repro"
		printf '%s\n' "cp $(printf '%q' "$KEEP/before-$k.db") $(printf '%q' "$KEEP/replay.db") && $repro" >"$KEEP/replay-$k.sh"
		return 1
	fi
	return $walked
}

# run_case FILE: sets DESC; 0 when every request passed.
run_case()
{
	local file=$1 ln=0 line kw arg started=0 integrity

	CASEFILE=$file
	DESC=
	DIAG=()
	SAVED=()
	NREQ=0
	LAST_REQ=0
	# The case's clock: "clock MS" requests run at this time plus MS.
	VARS[CLOCK_MS]=$(( ${EPOCHREALTIME/[.,]/} / 1000 ))
	CASEDIR=$(mktemp -d "$WORK/case.XXXXXX")
	if [[ $DBMODE == postgresql ]]; then
		# Named by the case's number: unique in the run, and
		# run_one drops it.
		if ! CASEDB=$(lt_pg_db "case_$CASENUM" "$SEED_TEMPLATE" 2>&1); then
			diag "cannot create the case's database: $CASEDB"
			CASEDB=
			rm -rf "$CASEDIR"
			return 1
		fi
	else
		CASEDB=$CASEDIR/case.db
		cp "$SEED_DB" "$CASEDB"
	fi
	VARS[CASEDIR]=$CASEDIR
	VARS[CASEDB]=$CASEDB
	reset_request

	# The case file is on fd 3: nothing run for a request reads it.
	while IFS= read -r -u 3 line || [[ -n $line ]]; do
		ln=$((ln + 1))
		line=${line%$'\r'}
		line=${line#"${line%%[![:space:]]*}"}
		[[ -z $line ]] && continue
		if [[ $line == '#'* ]]; then
			if [[ -z $DESC ]]; then
				DESC=${line#\#}
				DESC=${DESC# }
			fi
			continue
		fi
		if [[ $line == cgi-only || $line == sqlite-only ]]; then
			continue
		fi
		kw=${line%%[[:space:]]*}
		arg=${line#"$kw"}
		arg=${arg#"${arg%%[![:space:]]*}"}
		if [[ $kw == request ]]; then
			if (( started )); then
				run_request || { rm -rf "$CASEDIR"; return 1; }
			fi
			reset_request
			if [[ ! $arg =~ ^[A-Za-z0-9_-]+$ ]]; then
				diag "line $ln: want request NAME"
				rm -rf "$CASEDIR"
				return 1
			fi
			R_NAME=$arg
			R_LINE=$ln
			started=1
			continue
		fi
		if (( !started )); then
			diag "line $ln: $kw before the first request"
			rm -rf "$CASEDIR"
			return 1
		fi
		directive "$ln" "$kw" "$arg" || { rm -rf "$CASEDIR"; return 1; }
	done 3<"$file"
	if (( !started )); then
		diag "no request in the case"
		rm -rf "$CASEDIR"
		return 1
	fi
	[[ -n $DESC ]] || diag "no description (a first # comment line)"
	LAST_REQ=1
	run_request || { rm -rf "$CASEDIR"; return 1; }
	# PostgreSQL checks every foreign key as it writes.
	integrity=ok
	[[ $DBMODE == sqlite ]] &&
	    integrity=$("${SQLITE[@]}" "$CASEDB" 'PRAGMA integrity_check;
	    PRAGMA foreign_key_check;' 2>&1)
	if [[ $integrity != ok ]]; then
		diag "the database fails integrity_check/foreign_key_check: $integrity"
		rm -rf "$CASEDIR"
		return 1
	fi
	rm -rf "$CASEDIR"
	[[ -n $DESC ]]
}

# --- the walk of database errors (FIXTURES_FAIL_WALK) ----------------------

# FIXTURES_FAIL_TODO=FILE: lines "CASE TODO text" (CASE a path under
# tests/fixtures) mark the walk of CASE, when it fails, as a known finding
# (TAP's TODO): the suite passes while the finding waits for its fix.
declare -A WALK_TODO=()
if (( WALK )) && [[ -n ${FIXTURES_FAIL_TODO-} ]]; then
	[[ -f $FIXTURES_FAIL_TODO ]] || bail "no file $FIXTURES_FAIL_TODO"
	while read -r c kw text; do
		[[ $kw == TODO && -n $text ]] && WALK_TODO[$c]=$text
	done <"$FIXTURES_FAIL_TODO"
fi

# walk_wanted FILE: 0 when the walk takes the case, else 1 and WALK_SKIP
# says why.
walk_wanted()
{
	local last

	if (( !TEST_CLOCK )); then
		WALK_SKIP="the storage switch needs a build configured with --enable-test-clock"
		return 1
	fi
	last=$(awk '/^[[:space:]]*request[[:space:]]/ { s = "" }
	    /^[[:space:]]*expect[[:space:]]+status[[:space:]]/ { s = $3 }
	    END { print s }' "$1")
	if [[ $last != 2[0-9][0-9] ]]; then
		WALK_SKIP="its last request expects no 2xx answer"
		return 1
	fi
	return 0
}

# walk_files DB: the database file and the files beside it that bear its
# name (its log, its writers' queue, a setup code), one a line.
walk_files()
{
	local f

	for f in "$1" "$1"-* "$1".*; do
		[[ -e $f ]] && printf '%s\n' "$f"
	done
}

# walk_restore DB SNAPDIR: the files of DB as the snapshot holds them.
walk_restore()
{
	local f

	while IFS= read -r f; do
		rm -f "$f"
	done < <(walk_files "$1")
	for f in "$2"/*; do
		[[ -e $f ]] && cp -p "$f" "$(dirname "$1")/"
	done
	return 0
}

# walk_dump DB OUT: the rows the walk compares; 1 when the dump failed.
walk_dump()
{
	"${SQLITE[@]}" -cmd '.mode quote' "$1" "$WALK_DUMP_SQL" >"$2" 2>&1
}

# walk_run RESP TAG ENV...: one try, into $CASEDIR/out-TAG and err-TAG;
# sets WALK_RC, WALK_STATUS, WALK_CODE (the error code, or empty).
walk_run()
{
	local resp=$1 tag=$2

	shift 2
	timeout "$TIMEOUT" env -i "$@" "$resp" <"$CASEDIR/body-$NREQ" \
	    >"$CASEDIR/out-$tag" 2>"$CASEDIR/err-$tag"
	WALK_RC=$?
	WALK_STATUS=$(sed -n '/^\r\?$/q; s/^Status: \([0-9][0-9][0-9]\).*/\1/p' \
	    "$CASEDIR/out-$tag")
	WALK_CODE=$(grep -ao '"error":{"code":"[A-Z_]*"' "$CASEDIR/out-$tag" |
	    head -n 1)
	WALK_CODE=${WALK_CODE#'"error":{"code":"'}
	WALK_CODE=${WALK_CODE%'"'}
}

# walk_show TAG: the answer and stderr of a try, as diagnostics.
walk_show()
{
	local line

	while IFS= read -r line; do
		diag "    > ${line%$'\r'}"
	done < <(head -c 1500 "$CASEDIR/out-$1"; echo)
	while IFS= read -r line; do
		diag "    stderr: $line"
	done < <(head -c 1000 "$CASEDIR/err-$1")
}

# walk_request RESP ENV...: the walk of the request about to run (see the
# top); 1 after diags. The case's database is as it was afterwards.
walk_request()
{
	local resp=$1 e db= snap=$CASEDIR/walk-snap absent=0 n s0 l0 lines
	local bad=0 shown=0 ndiag ok reason i keep repro
	local -a envl saved_expect saved_save saved_save_file

	shift
	envl=("$@")
	for e in "${envl[@]}"; do
		[[ $e == LOYALTY_DB=* ]] && db=${e#LOYALTY_DB=}
	done
	if [[ $db != /* ]]; then
		diag "walk: LOYALTY_DB is not a file's path: '$db'"
		return 1
	fi
	mkdir -p "$snap"
	while IFS= read -r e; do
		cp -p "$e" "$snap/" || { diag "walk: cannot copy $e"; return 1; }
	done < <(walk_files "$db")
	[[ -e $db ]] || absent=1
	if (( !absent )) && ! walk_dump "$db" "$CASEDIR/walk-before.rows"; then
		diag "walk: cannot dump the rows: $(head -c 500 "$CASEDIR/walk-before.rows")"
		return 1
	fi
	# The answer without the switch: the walk ends when a try gives it.
	walk_run "$resp" walk-ref "${envl[@]}"
	s0=$WALK_STATUS
	l0=$(wc -l <"$CASEDIR/err-walk-ref")
	if [[ $s0 != 2[0-9][0-9] ]]; then
		diag "walk: without the switch the request answers '$s0', not a 2xx"
		walk_show walk-ref
		walk_restore "$db" "$snap"
		return 1
	fi
	saved_expect=("${R_EXPECT[@]}")
	saved_save=("${R_SAVE[@]}")
	saved_save_file=("${R_SAVE_FILE[@]}")
	R_EXPECT=("$R_LINE"$'\t'"status 503"
	    "$R_LINE"$'\t''json .error.code "DATABASE_ERROR"')
	R_SAVE=()
	R_SAVE_FILE=()
	for (( n = 1; n <= WALK_CAP; n++ )); do
		walk_restore "$db" "$snap"
		walk_run "$resp" "w$n" "${envl[@]}" "LC_TEST_DB_FAIL=$n"
		lines=$(wc -l <"$CASEDIR/err-w$n")
		ok=1
		reason=
		ndiag=${#DIAG[@]}
		if [[ $WALK_STATUS == 503 && $WALK_CODE == DATABASE_ERROR ]]; then
			# The checks of every answer.
			DUMP_FAILED=0
			check_response "w$n" "$WALK_RC" || ok=0
			# Nothing changed.
			if (( absent )); then
				if [[ -e $db ]] && ! e=$("${SQLITE[@]}" "$db" \
				    "$WALK_EMPTY_SQL" 2>&1) || [[ -e $db && $e != 0 ]]; then
					diag "rows written in a new database: $e"
					ok=0
				fi
			elif ! walk_dump "$db" "$CASEDIR/walk-after.rows"; then
				diag "cannot dump the rows: $(head -c 500 "$CASEDIR/walk-after.rows")"
				ok=0
			elif ! cmp -s "$CASEDIR/walk-before.rows" \
			    "$CASEDIR/walk-after.rows"; then
				diag "rows changed:"
				diag_diff "$CASEDIR/walk-before.rows" \
				    "$CASEDIR/walk-after.rows"
				ok=0
			fi
			if (( !ok )); then
				reason="503 DATABASE_ERROR, but:"
			fi
		elif [[ $R_NAME == sync && $WALK_STATUS == 207 ]] &&
		    grep -q '"result":{[^}]*"error":"DATABASE_ERROR"' \
		    "$CASEDIR/out-w$n"; then
			# By design: each item of a batch is a write of its
			# own, and the one that failed says DATABASE_ERROR
			# in its place (sync/database-error.case).
			continue
		elif [[ $WALK_STATUS == "$s0" && $WALK_RC == 0 ]] &&
		    (( lines <= l0 )); then
			break		# no step failed: the walk is over
		else
			ok=0
			reason="a failed step answered ${WALK_STATUS:-no status} ${WALK_CODE:-(no error code)}, not 503 DATABASE_ERROR (exit status $WALK_RC)"
		fi
		(( ok )) && continue
		bad=$((bad + 1))
		if (( shown >= 3 )); then
			# One line each: the first of its diagnostics, and
			# what the first line of stderr says.
			e=${DIAG[ndiag]-}
			DIAG=("${DIAG[@]:0:ndiag}")
			diag "walk: LC_TEST_DB_FAIL=$n: ${reason:0:90} ${e:0:200} (stderr: $(head -c 120 "$CASEDIR/err-w$n" | head -n 1))"
			continue
		fi
		shown=$((shown + 1))
		# This try's diagnostics, under its N.
		local -a mine=("${DIAG[@]:ndiag}")
		DIAG=("${DIAG[@]:0:ndiag}")
		diag "walk: LC_TEST_DB_FAIL=$n: $reason"
		for e in "${mine[@]}"; do
			diag "  $e"
		done
		walk_show "w$n"
		# What a developer needs to replay it.
		keep=$OUTDIR/${CASEREL#/}
		keep=${keep%.case}/walk
		mkdir -p "$keep"
		cp -p "$snap"/* "$keep/" 2>/dev/null
		cp "$CASEDIR/body-$NREQ" "$keep/body"
		repro="env -i"
		for e in "${envl[@]}" "LC_TEST_DB_FAIL=$n"; do
			repro+=" $(printf '%q' "$e")"
		done
		repro+=" $(printf '%q' "$resp") < $(printf '%q' "$keep/body")"
		diag "  replay: copy $keep's files (but body) to $(dirname "$db")/, then $repro"
	done
	R_EXPECT=("${saved_expect[@]}")
	R_SAVE=("${saved_save[@]}")
	R_SAVE_FILE=("${saved_save_file[@]}")
	walk_restore "$db" "$snap"
	rm -rf "$snap"
	if (( n > WALK_CAP )); then
		diag "walk: still failing at LC_TEST_DB_FAIL=$WALK_CAP (FIXTURES_FAIL_CAP): no end found"
		bad=$((bad + 1))
	fi
	WALK_NOTE=" [walk: $((n - 1)) failed steps tried, $bad wrong]"
	# Every request that reaches its handler reads the database: no
	# step failed means this build has no switch.
	(( n == 1 )) && WALK_NOTE=" # SKIP LC_TEST_DB_FAIL=1 failed no step: no storage switch in this build"
	if (( bad > 0 )) && [[ -v WALK_TODO[$CASEREL] ]]; then
		WALK_NOTE+=" # TODO ${WALK_TODO[$CASEREL]}"
	fi
	(( bad == 0 ))
}

# --- main ------------------------------------------------------------------

# run_one N FILE: runs a case into $WORK/res-N, its TAP lines.
run_one()
{
	local n=$1 file=$2 ok=0 line out

	CASEREL=$file
	CASENUM=$n
	[[ $file == "$FIXTURES"/* ]] && CASEREL=${file#"$FIXTURES"/}
	if [[ $MODE == fcgi ]] &&
	    grep -q '^[[:space:]]*cgi-only[[:space:]]*$' "$file"; then
		DESC=$(grep -m1 '^[[:space:]]*#' "$file" | sed 's/^[[:space:]]*# *//')
		echo "ok $n - $CASEREL: ${DESC//'#'/'\#'} # SKIP plain CGI only" \
		    >"$WORK/res-$n"
		return
	fi
	if (( !TEST_CLOCK )) && grep -q '^[[:space:]]*clock[[:space:]]' "$file"; then
		DESC=$(grep -m1 '^[[:space:]]*#' "$file" | sed 's/^[[:space:]]*# *//')
		echo "ok $n - $CASEREL: ${DESC//'#'/'\#'} # SKIP needs a build configured with --enable-test-clock" \
		    >"$WORK/res-$n"
		return
	fi
	if [[ $DBMODE != sqlite ]] &&
	    grep -q '^[[:space:]]*sqlite-only[[:space:]]*$' "$file"; then
		DESC=$(grep -m1 '^[[:space:]]*#' "$file" | sed 's/^[[:space:]]*# *//')
		echo "ok $n - $CASEREL: ${DESC//'#'/'\#'} # SKIP SQLite only" \
		    >"$WORK/res-$n"
		return
	fi
	if (( WALK )) && ! walk_wanted "$file"; then
		DESC=$(grep -m1 '^[[:space:]]*#' "$file" | sed 's/^[[:space:]]*# *//')
		echo "ok $n - $CASEREL: ${DESC//'#'/'\#'} # SKIP $WALK_SKIP" \
		    >"$WORK/res-$n"
		return
	fi
	WALK_NOTE=
	run_case "$file" && ok=1
	# The note may hold a directive (# SKIP, # TODO): kept as it is.
	DESC=${DESC//'#'/'\#'}$WALK_NOTE
	# A FastCGI server may still be connected to the case's database:
	# FORCE ends that session (its next request names another).
	if [[ $DBMODE == postgresql && -n $CASEDB ]] &&
	    ! out=$(lt_pg_sql "$(lt_pg_uri postgres)" \
	    "DROP DATABASE case_$n WITH (FORCE)" 2>&1); then
		ok=0
		diag "cannot drop the case's database: $out"
	fi
	{
		if (( ok )); then
			echo "ok $n - $CASEREL: $DESC"
		else
			echo "not ok $n - $CASEREL: $DESC"
			for line in "${DIAG[@]}"; do
				printf '# %s\n' "$line"
			done
		fi
	} >"$WORK/res-$n.tmp"
	mv "$WORK/res-$n.tmp" "$WORK/res-$n"
}

# Prints the finished results in order.
flush()
{
	local first

	while [[ -f $WORK/res-$printed_next ]]; do
		cat "$WORK/res-$printed_next"
		read -r first <"$WORK/res-$printed_next"
		# A known finding of the walk (TODO) fails nothing.
		[[ $first == not* && $first != *' # TODO '* ]] &&
		    failed=$((failed + 1))
		printed_next=$((printed_next + 1))
	done
}

rm -rf "$OUTDIR"
total=${#CASES[@]}
[[ $MODE == fcgi ]] && total=$((total + 1))
echo "1..$total"
JOBS=${FIXTURES_JOBS:-$(nproc 2>/dev/null || echo 1)}
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || JOBS=1
n=0
running=0
failed=0
CASE_PIDS=()
printed_next=1
for file in "${CASES[@]}"; do
	n=$((n + 1))
	while (( running >= JOBS )); do
		wait -n
		running=$((running - 1))
		flush
	done
	run_one "$n" "$file" &
	CASE_PIDS+=($!)
	running=$((running + 1))
	flush
done
# Not a bare wait: the FastCGI servers are children too.
wait "${CASE_PIDS[@]}"
flush
if [[ $MODE == fcgi ]]; then
	# The servers must have survived every request.
	dead=()
	for i in "${!APP_PIDS[@]}"; do
		kill -0 "${APP_PIDS[i]}" 2>/dev/null || dead+=("${APP_PIDS[i]}")
	done
	if (( ${#dead[@]} == 0 )) && ! grep -qE 'runtime error|Sanitizer' \
	    "$WORK"/*.log; then
		echo "ok $total - the FastCGI servers survived every request, no sanitizer report"
	else
		echo "not ok $total - the FastCGI servers survived every request, no sanitizer report"
		echo "# dead servers (pids): ${dead[*]}"
		grep -hE -B2 -A20 'runtime error|Sanitizer' "$WORK"/*.log | head -60 |
		    sed 's/^/# /'
		failed=$((failed + 1))
	fi
fi
(( failed == 0 ))
