# tests/pg_wrap.sh: runs an end-to-end test script of tests/ on PostgreSQL
# (LT_BACKEND=postgresql: tests/lib.sh's lt_start then serves a database
# of a throwaway cluster, tests/pg_lib.sh). The wrappers NAME_pg.sh are
#   . "$top_srcdir/tests/pg_wrap.sh" NAME.sh
# Skipped (1..0) when this build has no PostgreSQL backend (./configure
# --with-postgresql), its programs are not built, or PostgreSQL's server
# programs are not installed; with LC_REQUIRE_PG set (but to 0) any of
# these is a failure instead.
top_srcdir=${top_srcdir:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir/build}
export top_srcdir top_builddir

# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
# shellcheck source=tests/pg_lib.sh
. "$top_srcdir/tests/pg_lib.sh"
lt_pg_gate "$1"
LT_BACKEND=postgresql exec bash "$top_srcdir/tests/$1"
