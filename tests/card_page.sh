#!/usr/bin/env bash
# tests/card_page.sh: the customer's own card page (htdocs/card.html,
# card.js, card.css, card-sw.js, js/progress.js) driven in headless
# Chromium against a real backend: the tests are
# tests/browser/card/*.test.mjs (one behaviour a file, Node's test runner
# with playwright-core, see tests/browser/README.md); this wrapper only
# starts the server: lighttpd with the built responders on a `loyalty-admin
# demo` database (lt_start of tests/lib.sh). Each test file starts from a
# demo shop of its own (tests/browser/lib/card-helpers.mjs: a new demo
# database renamed over the running server's, as an owner replacing the
# database does) and has the server stopped and started where it needs
# to (offline).
# TAP output.
#
# The whole test is skipped (1..0 # SKIP) when Chromium, Node or
# playwright-core cannot be had; as root, missing ones are installed
# (apt-get, group "browser" of tools/lib.sh; lc_install_playwright)
# unless POS_TEST_INSTALL=0; the decoding points are skipped without
# zbarimg (zbar-tools, group "test").
#
# Environment:
#   top_srcdir, top_builddir   as for every test
#   CARD_SHOT_DIR    where the screenshots go (default: POS_SHOT_DIR, else
#                    a new folder in /tmp, kept, named in a TAP comment)
#   CHROMIUM         the browser binary (default: chromium on PATH)
#   LT_KEEP=1        keep the server's folder (logs, Chromium's profiles)
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=lib.sh
. "$top_srcdir/tests/lib.sh"
# shellcheck source=browser.sh
. "$top_srcdir/tests/browser.sh"

browser_need_playwright
if ! command -v zbarimg >/dev/null 2>&1 && [ "${POS_TEST_INSTALL:-1}" != 0 ] &&
    [ "$(id -u)" -eq 0 ]; then
	diag "installing zbar-tools with apt-get"
	lc_want_packages test
fi
command -v sqlite3 >/dev/null 2>&1 || skip_all "sqlite3 is not installed (apt-get install sqlite3)"

browser_backend
lt_start
browser_shots "${CARD_SHOT_DIR:-${POS_SHOT_DIR:-}}" card-page-shots

diag "backend on $LT_URL/, screenshots in $shots"
browser_tests "$top_srcdir/tests/browser/card"
# The runner's status; lt_stop (the EXIT trap) keeps the server's folder
# when a test failed.
exit $?
