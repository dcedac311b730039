# shellcheck shell=bash disable=SC2034,SC2154  # globals of tests/lib.sh and the test
# tests/browser.sh: the shell side of the page tests, which drive
# headless Chromium with playwright-core (tests/browser/, see its README),
# sourced after tests/lib.sh:
#   skip_all REASON        1..0 # SKIP REASON, and exit
#   browser_need           sets chrome to the browser binary ($CHROMIUM,
#                          else chromium on PATH) and checks for node and
#                          playwright-core (PLAYWRIGHT_DIR, default
#                          ~/.cache/loyalty-pos/playwright); as root,
#                          installs what is missing (apt-get, group
#                          "browser" of tools/lib.sh; lc_install_playwright)
#                          unless POS_TEST_INSTALL=0; else skips the whole
#                          test, or bails out when LC_REQUIRE_OPENAPI_LINT=1
#                          (CI) asks for every tool
#   browser_want_playwright
#                          browser_need_playwright for a test of which the
#                          browser is one part (tests/https.sh): returns 1
#                          with the reason in browser_why instead of
#                          skipping the whole test (bails all the same
#                          when LC_REQUIRE_OPENAPI_LINT=1)
#   browser_tests DIR [VAR=VALUE...]
#                          runs DIR's *.test.mjs with Node's test runner,
#                          one file at a time (tests/browser/lib/run.mjs),
#                          VAR=VALUE and the BROWSER_*, LT_* and DEMO_*
#                          variables in their environment; passes their
#                          TAP on and carries out their requests to stop
#                          or start the server; returns their status
#                          (tap_failed set when it failed, so lt_stop
#                          keeps LT_DIR); BROWSER_ONLY=WORD: only the
#                          files whose name holds WORD
#   browser_backend        builds the backend when it is not built yet
#   browser_shots DIR NAME sets shots to DIR, else to a new folder in /tmp
#                          (kept), named NAME.XXXXXX

skip_all() { echo "1..0 # SKIP $*"; exit 0; }

browser_find() {
	local c
	for c in ${CHROMIUM:-} chromium chromium-browser google-chrome; do
		command -v "$c" 2>/dev/null && return 0
	done
	return 1
}
browser_need() {
	chrome=$(browser_find)
	if { [ -z "$chrome" ] || ! command -v node >/dev/null 2>&1; } &&
	    [ "${POS_TEST_INSTALL:-1}" != 0 ] && [ "$(id -u)" -eq 0 ]; then
		diag "installing Chromium and Node with apt-get"
		lc_want_packages browser
		chrome=$(browser_find)
	fi
	[ -n "$chrome" ] || { browser_missing "chromium is not installed (apt-get install chromium)"; return; }
	command -v node >/dev/null 2>&1 || browser_missing "node is not installed (apt-get install nodejs)"
}
# browser_need and playwright-core.
PLAYWRIGHT_DIR=${PLAYWRIGHT_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/loyalty-pos/playwright}
browser_need_playwright() {
	local pkg=$PLAYWRIGHT_DIR/node_modules/playwright-core/package.json
	browser_need || return
	if ! grep -q "\"version\": *\"$LC_PLAYWRIGHT_VERSION\"" "$pkg" 2>/dev/null &&
	    [ "${POS_TEST_INSTALL:-1}" != 0 ] && [ "$(id -u)" -eq 0 ]; then
		diag "installing playwright-core $LC_PLAYWRIGHT_VERSION from npm"
		# One install at a time: make check runs the page tests side by side.
		mkdir -p "$PLAYWRIGHT_DIR" && {
			flock 9
			PLAYWRIGHT_DIR=$PLAYWRIGHT_DIR lc_install_playwright </dev/null >&2
		} 9>"$PLAYWRIGHT_DIR/.install.lock"
	fi
	[ -f "$pkg" ] || browser_missing "playwright-core is not in $PLAYWRIGHT_DIR (bash -c '. tools/lib.sh && lc_install_playwright')"
}
browser_missing() {
	[ "${LC_REQUIRE_OPENAPI_LINT:-0}" = 1 ] && bail "$* (every tool is required here)"
	if [ -n "${browser_optional:-}" ]; then
		browser_why=$*
		return 1
	fi
	skip_all "$*"
}
browser_want_playwright() {
	local browser_optional=1
	browser_why=
	browser_need_playwright
}

browser_backend() {
	if [ ! -x "$LT_ADMIN" ] && [ ! -e "$top_srcdir/config.status" ]; then
		(lc_need_packages build run && lc_build "$top_builddir") >&2 ||
		    bail "could not build the backend in $top_builddir"
	fi
}

browser_shots() {	# DIR NAME
	shots=$1
	if [ -z "$shots" ]; then
		shots=$(mktemp -d "${TMPDIR:-/tmp}/$2.XXXXXX") || bail "mktemp failed"
	fi
	mkdir -p "$shots" || bail "cannot create $shots"
}

# The files of DIR one at a time; their requests to stop or start the
# server come as lines "stop ID" / "start ID" on a FIFO (BROWSER_CTL), read
# here while node runs in the background, so this shell keeps the new
# lighttpd's pid for lt_stop; answered in server-ack (browser_server_ctl).
browser_tests() {	# DIR [VAR=VALUE...]
	local dir=$1 f files=() npid rc line ctl
	shift
	for f in "$dir"/*.test.mjs; do
		case ${f##*/} in *"${BROWSER_ONLY:-}"*) ;; *) continue ;; esac
		[ -f "$f" ] && files+=("$f")
	done
	[ ${#files[@]} -gt 0 ] || skip_all "no tests in $dir"
	ctl=$LT_DIR/server-ctl
	rm -f "$ctl"
	mkfifo "$ctl" || bail "mkfifo $ctl failed"
	exec 7<>"$ctl"
	env BROWSER_CHROME="$chrome" BROWSER_RUN="$LT_DIR" BROWSER_SHOTS="$shots" \
	    BROWSER_URL="$LT_URL/" BROWSER_CTL="$ctl" PLAYWRIGHT_DIR="$PLAYWRIGHT_DIR" \
	    LT_ADMIN="$LT_ADMIN" LT_DB="$LT_DB" \
	    DEMO_MERCHANT_ID="${DEMO_MERCHANT_ID:-}" DEMO_LOCATION_ID="${DEMO_LOCATION_ID:-}" \
	    DEMO_LOCATION2_ID="${DEMO_LOCATION2_ID:-}" \
	    DEMO_OWNER_EMAIL="${DEMO_OWNER_EMAIL:-}" DEMO_OWNER_PASSWORD="${DEMO_OWNER_PASSWORD:-}" \
	    DEMO_STAFF_EMAIL="${DEMO_STAFF_EMAIL:-}" DEMO_STAFF_PASSWORD="${DEMO_STAFF_PASSWORD:-}" \
	    DEMO_PUNCH_CARD="${DEMO_PUNCH_CARD:-}" DEMO_PUNCH_BARCODE="${DEMO_PUNCH_BARCODE:-}" \
	    DEMO_PUNCH_QR="${DEMO_PUNCH_QR:-}" DEMO_CASHBACK_CARD="${DEMO_CASHBACK_CARD:-}" \
	    DEMO_CASHBACK_BARCODE="${DEMO_CASHBACK_BARCODE:-}" DEMO_CASHBACK_QR="${DEMO_CASHBACK_QR:-}" \
	    DEMO_DISCOUNT_CARD="${DEMO_DISCOUNT_CARD:-}" DEMO_DISCOUNT_BARCODE="${DEMO_DISCOUNT_BARCODE:-}" \
	    DEMO_DISCOUNT_QR="${DEMO_DISCOUNT_QR:-}" LC_ALL=C.UTF-8 \
	    "$@" node "$top_srcdir/tests/browser/lib/run.mjs" "${files[@]}" 7>&- &
	npid=$!
	while lc_alive "$npid"; do
		if IFS= read -r -t 1 -u 7 line; then
			# shellcheck disable=SC2086  # "stop ID": two words
			browser_server_ctl $line </dev/null
		fi
	done
	wait "$npid"
	rc=$?
	exec 7>&-
	[ "$rc" -eq 0 ] || tap_failed=1
	return "$rc"
}

# A test's requests to stop or start the server ("stop N" / "start N" on
# BROWSER_CTL, read by browser_tests) are carried out with lc_server_stop / lc_server_start
# of tools/lib.sh on the same port, folders and database (LC_* as lt_start
# left them), so the page's origin stays the same; "N ok" (or "N failed")
# in server-ack answers.
browser_server_ctl() {	# stop|start N
	local r=ok
	case $1 in
	stop) lc_server_stop ;;
	start) lc_server_start 2>>"$LT_DIR/start.log" || r=failed ;;
	esac
	printf '%s %s\n' "$2" "$r" >"$LT_DIR/server-ack.new" &&
	    mv "$LT_DIR/server-ack.new" "$LT_DIR/server-ack"
}
