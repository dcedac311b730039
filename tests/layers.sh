#!/usr/bin/env bash
# The library's layers hold: each of these rules names the only files of
# lib/ allowed to do a thing, and fails naming any other file that does.
#   storage: only the storage backends (SQLite's with its VFS,
#            PostgreSQL's, and loyalty-admin migrate-to, which copies one
#            into the other) name their database library or hold SQL
#            text;
#   writes:  only the write path begins, commits or rolls back;
#   answers: only the handlers (api_*.c) and the JSON module build JSON
#            (and the audit trail, whose rows keep an object's values as
#            JSON: audit.c);
#   rules:   the rules and storage never see a request or a response.
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top_srcdir/lib" || exit 1

n=0 failed=0

# only DESC REGEX ALLOWED...: REGEX matches in no other lib/ file (ALLOWED
# are file names or patterns such as 'api_*.c').
only() {
	local desc=$1 re=$2 bad
	shift 2
	bad=$(grep -lE "$re" -- *.c *.h | while read -r f; do
		local ok=0 pat
		for pat in "$@"; do
			# shellcheck disable=SC2254
			case $f in $pat) ok=1 ;; esac
		done
		[ "$ok" -eq 1 ] || echo "$f"
	done)
	n=$((n + 1))
	if [ -z "$bad" ]; then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc"
		echo "# also in: $(echo $bad)"
		failed=$((failed + 1))
	fi
}

# somewhere DESC REGEX FILE: the rule is not vacuous.
somewhere() {
	n=$((n + 1))
	if grep -qE "$2" "$3"; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		failed=$((failed + 1))
	fi
}

only "only the storage backend names SQLite" \
    'sqlite3_[a-z]|sqlite3\.h|sqlite3 \*|SQLITE_' db_sqlite.c db_walbuf.c \
    lc_sqlite.h admin_migrate.c
somewhere "the storage backend steps statements" 'sqlite3_step\(' db_sqlite.c
only "only the PostgreSQL backend names libpq" \
    '\bPQ[a-zA-Z]+\(|libpq-fe\.h|PGconn|PGresult' 'db_pg*.c' lc_pg.h \
    admin_migrate.c
somewhere "the PostgreSQL backend runs prepared statements" \
    'PQexecPrepared\(' db_pg.c
# A statement's text goes on after its verb; a bare "DELETE" is the HTTP
# method's name.
only "only the storage backends hold SQL" \
    '"((SELECT|INSERT|UPDATE|DELETE) |(BEGIN|COMMIT|ROLLBACK)[ "])' \
    db_sqlite.c lc_sqlite.h 'db_pg*.c' lc_pg.h lc_backend.h admin_migrate.c \
    'db_*.c'
only "only the write path begins, commits or rolls back" \
    'lc_db_(begin|commit|rollback)\(' write.c lc_store.h db.c db_sqlite.c
somewhere "the write path begins transactions" 'lc_db_begin\(' write.c
only "only handlers and the JSON module build JSON" \
    'json_object_new_|json_tokener_|json_object_object_add\(|json_object_array_add\(' \
    json.c 'api_*.c' audit.c view.c event.c
only "rules, cards, storage and the write path never see HTTP" \
    'struct lc_(ctx|req)\b|lc_fail\(' \
    lc_http.h json.c err.c 'http_*.c' endpoints.c 'api_*.c' lcard.h

# struct lc_write is filled by position (lc_rules.h says why): a write
# by designated initialisers would escape -Wextra's count of its fields.
n=$((n + 1))
bad=$(grep -nE 'struct lc_write [a-z_]+ = \{[^}]*\.[a-z_]+ *=' -- *.c)
bad2=$(grep -nA1 'struct lc_write [a-z_]* = {$' -- *.c | grep -E '^\S+-[0-9]+-\s*\.')
if [ -z "$bad$bad2" ]; then
	echo "ok $n - every write fills struct lc_write by position"
else
	echo "not ok $n - every write fills struct lc_write by position"
	echo "# $bad$bad2" | head -3
	failed=$((failed + 1))
fi

# The wall the compiler keeps: the core is built with LC_CORE, and
# lc_http.h refuses it.
n=$((n + 1))
if out=$(printf '#include "lc_http.h"\n' |
    ${CC:-cc} -DLC_CORE -I. -E -x c - 2>&1); then
	echo "not ok $n - a core file that includes lc_http.h fails to compile"
	failed=$((failed + 1))
elif echo "$out" | grep -q 'never sees HTTP'; then
	echo "ok $n - a core file that includes lc_http.h fails to compile"
else
	echo "not ok $n - a core file that includes lc_http.h fails to compile"
	echo "# $out" | head -3
	failed=$((failed + 1))
fi

# And every rule, card, storage and write-path file is built as core,
# no HTTP file is (lib_liblccore_a_SOURCES in Makefile.am).
core=$(sed -n '/^lib_liblccore_a_SOURCES/,/\$(NULL)/p' ../Makefile.am |
    sed -n 's|.*lib/\([a-z_]*\.c\).*|\1|p')
bad=
for f in rule_*.c card*.c db*.c write.c audit.c settings.c shop.c view.c; do
	case " $(echo $core) " in *" $f "*) ;; *) bad="$bad $f" ;; esac
done
for f in $core; do
	case $f in http_*.c | api_*.c | endpoints.c | admin.c) bad="$bad $f" ;; esac
done
n=$((n + 1))
if [ -z "$bad" ] && [ -n "$core" ]; then
	echo "ok $n - the rules, cards, storage and write path are built as core"
else
	echo "not ok $n - the rules, cards, storage and write path are built as core"
	echo "# misplaced:$bad"
	failed=$((failed + 1))
fi

echo "1..$n"
[ "$failed" -eq 0 ]
