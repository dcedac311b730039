#!/usr/bin/env bash
# tests/i18n_page.sh: the pages in every language, driven in headless
# Chromium against a real backend: the tests are
# tests/browser/i18n/*.test.mjs (see tests/browser/README.md): the
# pseudo-locale's leftovers (?lang=qps: every text not from a catalog
# stands out), screenshots in Arabic and Japanese at 390 and 1280 px,
# axe-core in right to left, the language switch and the browser's and
# the shop's languages. This wrapper only starts the server: lighttpd with
# responders of its own on no database yet (as tests/owner_page.sh), so a
# file can open the setup form of a new installation; the others make a
# demo shop of their own (card-helpers.mjs freshDemo).
# TAP output.
#
# Skipped (1..0 # SKIP) when Chromium, Node or playwright-core cannot be
# had; as root, missing ones are installed (group "browser" of
# tools/lib.sh: with the fonts for Arabic and Japanese; playwright-core
# and axe-core by lc_install_playwright) unless POS_TEST_INSTALL=0.
#
# Environment:
#   top_srcdir, top_builddir   as for every test
#   I18N_SHOT_DIR    where the screenshots go (default: POS_SHOT_DIR, else
#                    a new folder in /tmp, kept, named in a TAP comment)
#   LT_KEEP=1        keep the server's folder (logs, Chromium's profiles)
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=lib.sh
. "$top_srcdir/tests/lib.sh"
# shellcheck source=browser.sh
. "$top_srcdir/tests/browser.sh"

# The pages' words, layout and formats: the same pages and the same
# requests as the normal suite's run, which the sanitizers add nothing to
# (the responders' requests are the other browser suites' too): CI time.
lt_sanitized && skip_all "a sanitizer build: the pages' languages are tested by the normal suite"
browser_need_playwright
command -v sqlite3 >/dev/null 2>&1 || skip_all "sqlite3 is not installed (apt-get install sqlite3)"

browser_backend
lt_start true
[ ! -e "$LT_DB" ] || bail "the seed command made $LT_DB"
lt_own_responders
browser_shots "${I18N_SHOT_DIR:-${POS_SHOT_DIR:-}}" i18n-page-shots

diag "backend on $LT_URL/, screenshots in $shots"
browser_tests "$top_srcdir/tests/browser/i18n" OWNER_RESP="$RESP"
exit $?
