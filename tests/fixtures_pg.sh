#!/usr/bin/env bash
# The CGI fixtures on PostgreSQL (tests/fixtures.sh, FIXTURES_DB=postgresql),
# each request a plain CGI process; tests/fixtures_pg_fcgi.sh sends them
# through FastCGI. Skipped when the build has no PostgreSQL backend
# (./configure --with-postgresql) or the machine no PostgreSQL server
# programs, unless LC_REQUIRE_PG is set (but to 0): then either is a
# failure. LC_PG_FIXTURES skips them on purpose, for CI's time: "skip"
# both modes, "cgi" the FastCGI one. tools/check runs them in plain CGI in
# its normal build only; the sanitizers' build runs the backend through
# the other PostgreSQL suites, and the FastCGI path through them too.
# tests/fixtures/setup/ is SQLite only but for its three cases that find an
# owner in place: every other one starts from no database, which a
# responder makes as a new SQLite file with its setup code beside it,
# while a PostgreSQL database is made by loyalty-admin init and keeps its
# code in the database; tests/setup_race_pg.sh runs the setup on it, the
# shop's currency, zone and language included.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$PWD}
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
# shellcheck source=tests/pg_lib.sh
. "$top_srcdir/tests/pg_lib.sh"

case ${LC_PG_FIXTURES:-}:${FIXTURES_MODE:-} in
skip:* | cgi:fcgi)
	echo "1..0 # SKIP LC_PG_FIXTURES=$LC_PG_FIXTURES (tools/check: plain CGI, normal build)"
	exit 0 ;;
esac
lt_pg_gate "the fixtures"
export top_srcdir top_builddir
FIXTURES_DB=postgresql exec bash "$top_srcdir/tests/fixtures.sh" "$@"
