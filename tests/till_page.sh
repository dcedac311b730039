#!/usr/bin/env bash
# tests/till_page.sh: the till (htdocs/index.html, till/*.js, js/*.js) at
# rush hour, in headless Chromium against real lighttpd and a fresh
# `loyalty-admin demo` database: the tests of tests/browser/till/ (one
# behaviour a file, each with cards of its own; see tests/browser/README.md),
# run one file at a time on one server. TAP output; skipped without
# Chromium, Node or playwright-core (see tests/browser.sh).
#
# Environment:
#   TILL_SHOT_DIR   where the screenshots go (default: a new folder in
#                   /tmp, kept, named in a TAP comment)
#   CHROMIUM, LT_KEEP=1, POS_TEST_INSTALL=0   see tests/browser.sh, tests/lib.sh
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
browser_shots "${TILL_SHOT_DIR:-}" till-page-shots
browser_tests "$top_srcdir/tests/browser/till"
rc=$?
# shellcheck disable=SC2154 # shots: set by browser_shots (tests/browser.sh)
diag "screenshots in $shots"
lt_stop
exit "$rc"
