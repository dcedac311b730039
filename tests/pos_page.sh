#!/usr/bin/env bash
# tests/pos_page.sh: the POS page (htdocs/index.html, till/*.js, pos.css)
# driven in headless Chromium against a real backend: lighttpd with the
# built responders and a fresh `loyalty-admin demo` database, started by
# lt_start of tests/lib.sh, and the tests of tests/browser/pos/ (one
# behaviour a file, each with cards of its own; see tests/browser/README.md)
# run one file at a time on it. TAP output; skipped (1..0 # SKIP) when
# Chromium, Node or playwright-core cannot be had (see tests/browser.sh).
#
# The offline start (htdocs/sw.js) is tested with the server really gone:
# a test asks this script to stop lighttpd and to start it again on the
# same port (server() of tests/browser/lib/browser.mjs, carried out by
# browser_tests of tests/browser.sh with lc_server_stop / lc_server_start
# of tools/lib.sh), so the page keeps its origin, its service worker and
# its storage; Chromium is also restarted on the same profile, and killed
# once (a crash or a power cut: what it held in memory is lost).
#
# Environment:
#   top_srcdir, top_builddir   as for every test (set by `make check`;
#                    by hand: the repository and its build/, which is
#                    built first when needed)
#   POS_SHOT_DIR     where the screenshots go (default: a new folder in
#                    /tmp, kept, named in a TAP comment)
#   CHROMIUM         the browser binary (default: chromium on PATH)
#   LT_KEEP=1        keep the server's folder (logs, browser profiles)
#   BROWSER_ONLY=WORD  only the files whose name holds WORD
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=lib.sh
. "$top_srcdir/tests/lib.sh"
# shellcheck source=browser.sh
. "$top_srcdir/tests/browser.sh"

browser_need_playwright
browser_backend
lt_start
[ -n "${DEMO_MERCHANT_ID:-}" ] || bail "the output of loyalty-admin demo was not understood"
browser_shots "${POS_SHOT_DIR:-}" pos-page-shots
browser_tests "$top_srcdir/tests/browser/pos"
rc=$?
# shellcheck disable=SC2154 # shots: set by browser_shots (tests/browser.sh)
diag "screenshots in $shots"
lt_stop
exit "$rc"
