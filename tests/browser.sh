# shellcheck shell=bash disable=SC2034,SC2154  # globals of tests/lib.sh and the test
# tests/browser.sh: the shell side of the page tests that drive headless
# Chromium with tests/browser.js (pos_page.sh, owner_page.sh), sourced
# after tests/lib.sh:
#   skip_all REASON        1..0 # SKIP REASON, and exit
#   browser_need           sets chrome to the browser binary ($CHROMIUM,
#                          else chromium on PATH) and checks for node; as
#                          root, installs what is missing with apt-get
#                          (group "browser" of tools/lib.sh) unless
#                          POS_TEST_INSTALL=0; else skips the whole test
#   browser_backend        builds the backend when it is not built yet
#   browser_shots DIR NAME sets shots to DIR, else to a new folder in /tmp
#                          (kept), named NAME.XXXXXX
#   browser_drive [VAR=VALUE...]
#                          runs $LT_DIR/drive.js with node, VAR=VALUE and
#                          the BROWSER_* variables tests/browser.js reads
#                          in its environment; passes its TAP on and
#                          carries out its requests to stop or start the
#                          server; returns its status (tap_failed set
#                          when it failed, so lt_stop keeps LT_DIR)

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
	[ -n "$chrome" ] || skip_all "chromium is not installed (apt-get install chromium)"
	command -v node >/dev/null 2>&1 || skip_all "node is not installed (apt-get install nodejs)"
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

# The driver's requests to stop or start the server ("#@server stop|start
# N" on its stdout) are carried out with lc_server_stop / lc_server_start
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
# lastpipe: the loop runs in this shell, which so keeps the new lighttpd's
# pid for lt_stop.
browser_drive() {	# [VAR=VALUE...]
	local line ctl_cmd ctl_id rc
	shopt -s lastpipe
	env BROWSER_JS="$top_srcdir/tests/browser.js" BROWSER_CHROME="$chrome" \
	    BROWSER_RUN="$LT_DIR" BROWSER_SHOTS="$shots" BROWSER_URL="$LT_URL/" \
	    "$@" node "$LT_DIR/drive.js" |
	while IFS= read -r line; do
		case $line in
		'#@server '*)
			read -r _ ctl_cmd ctl_id <<<"$line"
			browser_server_ctl "$ctl_cmd" "$ctl_id" </dev/null ;;
		*) printf '%s\n' "$line" ;;
		esac
	done
	rc=${PIPESTATUS[0]}
	[ "$rc" -eq 0 ] || tap_failed=1
	return "$rc"
}
