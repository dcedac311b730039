#!/usr/bin/env bash
# tests/owner_page.sh: the back office (htdocs/owner.html, owner/*.js,
# owner.css) driven in headless Chromium against a real backend: the
# tests are tests/browser/owner/*.test.mjs (one behaviour a file, Node's
# test runner with playwright-core, see tests/browser/README.md); this
# wrapper only starts the server: lighttpd with the built responders,
# started by lt_start of tests/lib.sh on a NEW EMPTY database (the seed
# command makes nothing: the first request creates the database), the
# responders served from a folder of the test's own (api-bin/ of the
# server's folder, the test user's alone, as on a host with suEXEC),
# where a setup proof file may go. Each test file starts from a state of
# its own (tests/browser/lib/owner-helpers.mjs: the database's files
# deleted under the running server, as an owner starting over does; the
# shop set up through the API where the file needs one). TAP output.
#
# The whole test is skipped (1..0 # SKIP) when Chromium, Node or
# playwright-core cannot be had; as root, missing ones are installed
# (apt-get, group "browser" of tools/lib.sh; lc_install_playwright)
# unless POS_TEST_INSTALL=0. zbarimg (zbar-tools, group "test") decodes
# the codes; rsvg-convert (librsvg2-bin) is optional.
#
# Environment:
#   top_srcdir, top_builddir   as for every test
#   OWNER_SHOT_DIR   where the screenshots go (default: POS_SHOT_DIR, else
#                    a new folder in /tmp, kept, named in a TAP comment)
#   CHROMIUM         the browser binary (default: chromium on PATH)
#   LT_KEEP=1        keep the server's folder (logs, Chromium's profiles,
#                    downloads)
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=lib.sh
. "$top_srcdir/tests/lib.sh"
# shellcheck source=browser.sh
. "$top_srcdir/tests/browser.sh"

# --- Chromium, Node, playwright-core and the decoders --------------------------

browser_need_playwright
if ! command -v zbarimg >/dev/null 2>&1 && [ "${POS_TEST_INSTALL:-1}" != 0 ] &&
    [ "$(id -u)" -eq 0 ]; then
	diag "installing zbar-tools with apt-get"
	lc_want_packages test
fi
command -v sqlite3 >/dev/null 2>&1 || skip_all "sqlite3 is not installed (apt-get install sqlite3)"

# --- backend: a new, empty installation --------------------------------------

browser_backend
# `true` as the seed command: nothing is made, not even the database file.
lt_start true
[ ! -e "$LT_DB" ] || bail "the seed command made $LT_DB"
# The responders from a folder of the test's own: where the proof file goes.
lt_own_responders
[ ! -e "$LT_DB" ] || bail "the server's start made $LT_DB"

browser_shots "${OWNER_SHOT_DIR:-${POS_SHOT_DIR:-}}" owner-page-shots

diag "backend on $LT_URL/ (new empty database $LT_DB), screenshots in $shots"
browser_tests "$top_srcdir/tests/browser/owner" OWNER_RESP="$RESP"
# The runner's status; lt_stop (the EXIT trap) keeps the server's folder
# when a test failed.
exit $?
