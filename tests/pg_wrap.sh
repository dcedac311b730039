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

# Says why the script cannot run on PostgreSQL here; nothing when it can.
pgw_why() {
	local out
	[ -x "$top_builddir/tools/loyalty-admin" ] &&
	    [ -x "$top_builddir/cgi-bin/notfound.fcgi" ] ||
	    { echo "the server programs are not built in $top_builddir"; return; }
	# A port nothing listens on: a build with the backend fails to
	# connect, one without says so before trying.
	out=$("$top_builddir/tools/loyalty-admin" --db \
	    'postgresql://127.0.0.1:1/none?connect_timeout=2' init 2>&1)
	case $out in
	*"no PostgreSQL support"*)
		echo "no PostgreSQL backend in this build (./configure --with-postgresql)"
		return ;;
	*PostgreSQL*) ;;
	*)	echo "loyalty-admin init of a PostgreSQL URI said: $out"
		return ;;
	esac
	(
		. "$top_srcdir/tests/lib.sh"
		. "$top_srcdir/tests/pg_lib.sh"
		lt_pg_available
	) >/dev/null 2>&1 ||
	    echo "PostgreSQL's server programs are not installed (Debian's postgresql package)"
}

pgw_why=$(pgw_why)
if [ -n "$pgw_why" ]; then
	if [ -n "${LC_REQUIRE_PG:-}" ] && [ "$LC_REQUIRE_PG" != 0 ]; then
		echo "1..1"
		echo "not ok 1 - $1 on PostgreSQL: $pgw_why (LC_REQUIRE_PG is set)"
		exit 1
	fi
	echo "1..0 # SKIP $pgw_why"
	exit 0
fi
LT_BACKEND=postgresql exec bash "$top_srcdir/tests/$1"
