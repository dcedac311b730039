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
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$PWD}
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
# shellcheck source=tests/pg_lib.sh
. "$top_srcdir/tests/pg_lib.sh"

why=
case ${LC_PG_FIXTURES:-}:${FIXTURES_MODE:-} in
skip:* | cgi:fcgi)
	echo "1..0 # SKIP LC_PG_FIXTURES=$LC_PG_FIXTURES (tools/check: plain CGI, normal build)"
	exit 0 ;;
esac
# The compiler's flags of this build say whether lib/db.c has the backend.
if ! grep -q '^DEFS = .*-DLC_WITH_POSTGRESQL=1' "$top_builddir/Makefile" \
    2>/dev/null; then
	why="this build has no PostgreSQL backend (./configure --with-postgresql)"
elif ! lt_pg_available; then
	why="PostgreSQL's server programs are not installed (Debian's postgresql package)"
fi
if [ -n "$why" ]; then
	if [ -n "${LC_REQUIRE_PG:-}" ] && [ "$LC_REQUIRE_PG" != 0 ]; then
		echo "1..1"
		echo "not ok 1 - the fixtures on PostgreSQL: $why (LC_REQUIRE_PG is set)"
		exit 1
	fi
	echo "1..0 # SKIP $why"
	exit 0
fi
export top_srcdir top_builddir
FIXTURES_DB=postgresql exec bash "$top_srcdir/tests/fixtures.sh" "$@"
