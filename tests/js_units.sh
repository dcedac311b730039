#!/bin/sh
# tests/js_units.sh: the pages' JavaScript unit tests, tests/js/*.test.mjs
# (and *.test.js), with Node's built-in test runner; TAP output. Skipped
# when node is not installed (apt-get install nodejs).
#
# The tests import the pages' modules straight from htdocs/ (no build
# step). They run under LC_ALL=C.UTF-8, so Intl writes numbers the
# English way ("1,234.50") as the expected sentences spell them; a test
# that needs another locale sets it itself.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}

if ! command -v node >/dev/null 2>&1; then
	echo "1..0 # SKIP node is not installed (apt-get install nodejs)"
	exit 0
fi
cd "$top_srcdir" || { echo "Bail out! no $top_srcdir"; exit 1; }
# The files one by one: Node 18 and 20 take a folder, later ones globs.
set --
for f in tests/js/*.test.mjs tests/js/*.test.js; do
	[ -f "$f" ] && set -- "$@" "$f"
done
if [ $# -eq 0 ]; then
	echo "1..0 # SKIP no tests in tests/js/"
	exit 0
fi
LC_ALL=C.UTF-8 exec node --test --test-reporter=tap "$@"
