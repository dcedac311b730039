#!/bin/sh
# tests/page_tables.sh: htdocs/js/server-tables.js, the pages' copy of the
# server's limits (lib/lc_limits.h) and error table (lib/err.c), is what
# tools/gen_tables writes from them now. A limit or an error row changed
# without running it fails here, not as a page that lets a cashier type
# what the server refuses. TAP output.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir/build}
gen=$top_builddir/tools/gen_tables
file=$top_srcdir/htdocs/js/server-tables.js

echo "1..2"
if [ ! -x "$gen" ]; then
	echo "Bail out! no $gen (make it first)"
	exit 1
fi
tmp=$(mktemp "${TMPDIR:-/tmp}/page_tables.XXXXXX")
trap 'rm -f "$tmp"' EXIT
"$gen" >"$tmp" || { echo "Bail out! $gen failed"; exit 1; }
if diff -u "$file" "$tmp" >"$tmp.diff" 2>&1; then
	echo "ok 1 - htdocs/js/server-tables.js is current"
else
	echo "not ok 1 - htdocs/js/server-tables.js is not what tools/gen_tables writes;"
	echo "# run: $gen > $file"
	sed 's/^/# /' "$tmp.diff"
fi
rm -f "$tmp.diff"

# Every limit of lc_limits.h is given to the pages or named in
# gen_tables.c as the server's own: a new one is not forgotten.
missing=
for n in $(sed -n 's/^#define \(LC_[A-Z0-9_]*\).*/\1/p' "$top_srcdir/lib/lc_limits.h"); do
	[ "$n" = LC_LIMITS_H ] && continue
	grep -q "\<$n\>" "$top_srcdir/tools/gen_tables.c" || missing="$missing $n"
done
if [ -z "$missing" ]; then
	echo "ok 2 - every limit of lib/lc_limits.h is in tools/gen_tables.c, for the pages or as the server's own"
else
	echo "not ok 2 - tools/gen_tables.c does not name:$missing (a row for the pages, or its list of the server's own)"
fi
