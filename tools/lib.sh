# tools/lib.sh: shell functions shared by tools/serve, tools/check and
# tests/lib.sh. Source it from bash; it defines functions and variables
# prefixed lc_ / LC_ and changes no shell option.
#
#   lc_need_packages build|run|test|apache|browser|bundle|bench|... install what is missing
#   lc_build BUILDDIR [CONFIGURE_ARGS...]        out-of-tree build
#   lc_server_start / lc_server_stop            lighttpd + responders

# Debian gives a normal user a PATH without the sbin folders, where
# lighttpd, apache2ctl and runuser live.
case ":$PATH:" in
*:/usr/sbin:*) ;;
*) PATH=$PATH:/usr/local/sbin:/usr/sbin:/sbin ;;
esac

# The source tree: the folder above this file.
LC_SRCDIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# The folder of the responders in the site's URL space: the web root's
# rewrite rules (htdocs/.htaccess, the lighttpd ones rendered here) send
# /api/v1/... to RESPONDER_DIR/NAME.fcgi, and a bundle puts them there.
# Not cgi-bin: many hosts map /cgi-bin/ to a folder of their own
# (Debian's ScriptAlias, Plesk), and every request then fails. The
# source folder and the build's are cgi-bin/, installed $libexecdir's too.
LC_RESPONDER_DIR=api-bin

# Every endpoint: the path under /api/v1 and the responder in cgi-bin/
# serving it. conf/lighttpd.conf.in gets its rewrite rules and FastCGI
# servers from this table (PATH/* : a tree, the path and all below it).
# Written by tools/gen-endpoints from lib/endpoints.def, as are
# htdocs/.htaccess's rules: not by hand.
# Anything else under /api/ goes to notfound.fcgi.
LC_ENDPOINTS="
auth/login login
auth/me me
auth/refresh refresh
auth/logout logout
cards/lookup lookup
transactions/record record
transactions/history history
transactions/sync sync
rewards/claim claim
cashback/redeem redeem
transactions/void void
cards/enrol enrol
mycard/* mycard
setup setup
admin/locations/* admin_locations
admin/users/* admin_users
admin/programs/* admin_programs
admin/cards/* admin_cards
admin/reports/* admin_reports
admin/backup admin_backup
admin/settings admin_settings
admin/audit admin_audit
admin/events admin_events
admin/tokens/* admin_tokens
admin/webhooks/* admin_webhooks
"

# https by default (htdocs/.htaccess spells the same out; tests/https.sh
# checks that it does): a visit over plain http by a public domain name
# on the default port goes on to https; a name of a local network, which
# no public certificate is made for, does not (LOCAL: matched first,
# refused); PUBLIC's first group is the name to send on to. An answer
# over https carries HSTS.
LC_HTTPS_LOCAL_RE='(^localhost|\.(local|localdomain|lan|home|internal|intranet|corp|private|box|localhost|test|invalid|arpa))\.?(:[0-9]+)?$'
LC_HTTPS_PUBLIC_RE='^([a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z][a-z0-9-]*)\.?(:80)?$'
LC_HSTS='max-age=31536000'

# Debian packages by purpose.
LC_PKGS_BUILD="gcc make autoconf automake libtool pkg-config libfcgi-dev libjson-c-dev libsqlite3-dev libscrypt-dev libqrencode-dev libssl-dev libcurl4-openssl-dev"
LC_PKGS_RUN="lighttpd lighttpd-mod-deflate sqlite3 curl procps util-linux"
LC_PKGS_TEST="jq curl procps iproute2 spawn-fcgi libfcgi-bin zbar-tools librsvg2-bin python3 python3-yaml wrk strace openssl lighttpd-mod-openssl"
# suexec-pristine: tests/hosting.sh runs the responders under suEXEC, as
# shared hosts do.
LC_PKGS_APACHE="apache2 libapache2-mod-fcgid apache2-suexec-pristine"
# Fonts for the pages in every language they speak: DejaVu for Latin,
# Noto's UI set for Arabic (fonts-noto-ui-core, 5 MB, against 42 MB for
# fonts-noto-core), VL Gothic for Japanese (8 MB, against 90 MB for
# fonts-noto-cjk); without them Chromium draws boxes in the screenshots.
LC_PKGS_BROWSER="chromium nodejs fonts-dejavu-core fonts-noto-ui-core fonts-vlgothic"
# libFuzzer's runtime is in libclang-rt-14-dev on Debian 12, which clang
# only recommends.
LC_PKGS_FUZZ="clang libclang-rt-14-dev"
# Building and checking the Debian package (tools/build-deb).
LC_PKGS_DEB="dpkg-dev debhelper fakeroot lintian"
# tools/bench: the load generator and the seed's reader.
LC_PKGS_BENCH="wrk jq"
# npm, for the OpenAPI linter (lc_install_redocly); Debian's, unless node
# came with one of its own.
LC_PKGS_NPM="npm"
# The static shared-hosting bundles (tools/bundle, tests/bundle.sh): Debian
# source packages unpacked and built (dpkg-source, cmake, tclsh for
# SQLite's single file), the aarch64 cross compiler (for an amd64
# machine) and qemu-user to run its programs in the test; perl for
# OpenSSL's Configure, python3-cryptography for ca-certificates' script.
LC_PKGS_BUNDLE="dpkg-dev cmake tcl xz-utils bzip2 file zip unzip gcc-aarch64-linux-gnu qemu-user perl python3-cryptography"
# tests/fresh_debian.sh: a Debian 12 root bootstrapped into a folder.
LC_PKGS_FRESH="debootstrap"
# The PostgreSQL backend (./configure --with-postgresql): libpq to build,
# the server for the tests' throwaway clusters (tests/pg_lib.sh), and
# PgBouncer for tests/pg_pooler.sh (its own instance on a test port).
LC_PKGS_PG="libpq-dev postgresql pgbouncer"

lc_say() { printf '%s\n' "$*" >&2; }
lc_die() { printf '%s: %s\n' "${0##*/}" "$*" >&2; exit 1; }

# The Debian packages among $@ that are not installed.
lc_missing_packages() {
	local p missing=''
	for p in "$@"; do
		if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
		    grep -q 'install ok installed'; then
			missing="$missing $p"
		fi
	done
	printf '%s\n' "${missing# }"
}

# Installs the missing packages of the named groups (build, run, test,
# apache, browser, fuzz, deb, npm, bench, bundle, pg, fresh): with apt-get as
# root (apt-get update first), else prints the sudo command and exits 1.
# Without dpkg it only warns.
lc_need_packages() {
	local g want='' missing svc
	for g in "$@"; do
		case $g in
		build) want="$want $LC_PKGS_BUILD" ;;
		run) want="$want $LC_PKGS_RUN" ;;
		test) want="$want $LC_PKGS_TEST" ;;
		apache) want="$want $LC_PKGS_APACHE" ;;
		browser) want="$want $LC_PKGS_BROWSER" ;;
		fuzz) want="$want $LC_PKGS_FUZZ" ;;
		deb) want="$want $LC_PKGS_DEB" ;;
		npm) want="$want $LC_PKGS_NPM" ;;
		bench) want="$want $LC_PKGS_BENCH" ;;
		bundle) want="$want $LC_PKGS_BUNDLE" ;;
		pg) want="$want $LC_PKGS_PG" ;;
		fresh) want="$want $LC_PKGS_FRESH" ;;
		*) lc_die "lc_need_packages: unknown group $g" ;;
		esac
	done
	if ! command -v dpkg-query >/dev/null 2>&1; then
		for g in gcc make autoreconf pkg-config lighttpd curl jq; do
			command -v "$g" >/dev/null 2>&1 ||
			    lc_say "warning: $g not found; install it with your package manager"
		done
		return 0
	fi
	# shellcheck disable=SC2086
	missing=$(lc_missing_packages $want)
	[ -z "$missing" ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		lc_say "Missing Debian packages: $missing"
		# A Debian installed with a root password has no sudo.
		if command -v sudo >/dev/null 2>&1; then
			lc_say "Install them with:"
			lc_say "  sudo apt-get update && sudo apt-get install -y $missing"
		else
			# su -, a login shell: plain su keeps this user's PATH,
			# without the sbin folders dpkg needs.
			lc_say "Install them as root (su asks for root's password):"
			lc_say "  su - -c 'apt-get update && apt-get install -y $missing'"
		fi
		svc=$(lc_system_services $missing)
		[ -n "$svc" ] &&
		    lc_say "(Those packages also start system services ($svc)" \
			"that ${0##*/} does not need; as root," \
			"systemctl disable --now $svc stops them.)"
		lc_say "then run ${0##*/} again."
		exit 1
	fi
	lc_say "Installing missing packages: $missing"
	export DEBIAN_FRONTEND=noninteractive
	if [ -z "${LC_APT_UPDATED:-}" ]; then
		apt-get update -q >&2 || lc_die "apt-get update failed"
		export LC_APT_UPDATED=1
	fi
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $missing </dev/null >&2 ||
	    lc_die "apt-get install $missing failed"
	# shellcheck disable=SC2046
	lc_quiet_system_services $(lc_system_services $missing)
}

# The services Debian's packages start as they install and enable at
# boot, which tools/serve and tools/check do not use: they run a lighttpd
# and an Apache of their own on their own ports, and a throwaway
# PostgreSQL cluster (tests/pg_lib.sh). Printed by lc_system_services.
LC_SYSTEM_SERVICES="lighttpd apache2 postgresql pgbouncer"

# lc_system_services PACKAGE...: those of the packages that are services.
lc_system_services() {
	local p s out=''
	for p in "$@"; do
		for s in $LC_SYSTEM_SERVICES; do
			[ "$p" = "$s" ] && out="$out $s"
		done
	done
	printf '%s\n' "${out# }"
}

# lc_quiet_system_services SERVICE...: each service just installed is
# stopped and disabled, and the user is told (lighttpd and Apache would
# hold port 80, PostgreSQL and pgbouncer memory, all for nothing). The
# Debian package of this service, which is served by the system's
# lighttpd, does not come through here.
lc_quiet_system_services() {
	local s
	[ $# -eq 0 ] && return 0
	for s in "$@"; do
		# Best effort, under the callers' set -e.
		if [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then
			systemctl disable --now "$s.service" >/dev/null 2>&1 || true
		else
			invoke-rc.d "$s" stop >/dev/null 2>&1 ||
			    "/etc/init.d/$s" stop >/dev/null 2>&1 || true
			update-rc.d "$s" disable >/dev/null 2>&1 || true
		fi
	done
	lc_say "note: Debian's packages of $* start system services (lighttpd" \
	    "and Apache on port 80) and start them at boot; ${0##*/} runs its" \
	    "own, so those services are stopped and disabled. To have one" \
	    "back: systemctl enable --now NAME (without systemd: update-rc.d" \
	    "NAME enable && service NAME start)."
}

# Like lc_need_packages, but returns 1 instead of exiting when the
# packages cannot be had (for optional extras such as Apache).
lc_want_packages() {
	( lc_need_packages "$@" ) >&2 2>&1 || return 1
	# The subshell may have run apt-get update; a second one is cheap.
	return 0
}

# The npm tools of the tests, each pinned, installed once from npm into
# ~/.cache/loyalty-pos/ (a folder each): Redocly CLI, the OpenAPI linter
# of tests/openapi.sh (1.34 is the last series that runs on Debian 12's
# Node.js 18; 2.x wants 20.19 or later); Prism, the validating proxy of
# tests/prism.sh (5.14.2 is the newest whose engines take Node 18), and
# Portman, its request generator (it needs tslib, which it does not
# declare). Without them those points are skipped, unless
# LC_REQUIRE_OPENAPI_LINT=1 (CI) makes them fail. playwright-core, the
# driver of the page tests (tests/browser/): 1.61.1 is the newest whose
# engines take Node 18 (1.62 wants 20); it drives Debian's Chromium
# (package chromium) and never downloads a browser.
LC_REDOCLY_VERSION=1.34.20
LC_PRISM_VERSION=5.14.2
LC_PORTMAN_VERSION=1.33.0
LC_TSLIB_VERSION=2.9.1
LC_PLAYWRIGHT_VERSION=1.61.1
# axe-core, the accessibility checker the pages' right-to-left test
# (tests/browser/i18n/) runs in the page, installed beside playwright-core.
LC_AXE_VERSION=4.14.1
# standardwebhooks, the Standard Webhooks reference library: the tests'
# receiver (tests/webhooks/receiver.mjs) checks every delivery with it,
# never with the project's own signing code.
LC_STANDARDWEBHOOKS_VERSION=1.1.1

# lc_npm_install DIR NAME PACKAGE@VERSION...: the packages into DIR
# unless it has them at those versions. Installs npm first when node has
# none. Returns 1 (and says why) when it cannot.
lc_npm_install() {
	local dir=$1 name=$2 npm p have ok=1
	shift 2
	for p in "$@"; do
		have=$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' \
		    "$dir/node_modules/${p%@*}/package.json" 2>/dev/null | head -n 1)
		[ "$have" = "${p##*@}" ] || ok=0
	done
	[ $ok = 1 ] && return 0
	command -v node >/dev/null 2>&1 || { lc_say "no node: $name not installed"; return 1; }
	if command -v npm >/dev/null 2>&1; then
		npm=(npm)
	elif [ -f /usr/lib/node_modules/npm/bin/npm-cli.js ]; then
		npm=(node /usr/lib/node_modules/npm/bin/npm-cli.js)
	else
		lc_want_packages npm || { lc_say "no npm: $name not installed"; return 1; }
		npm=(npm)
	fi
	lc_say "npm install $* into $dir"
	mkdir -p "$dir" &&
	    "${npm[@]}" install --prefix "$dir" --no-audit --no-fund --no-save \
	    --loglevel=error "$@" </dev/null >&2 || {
		lc_say "npm install $* failed"
		return 1
	}
}

# Redocly CLI into OPENAPI_LINT_DIR (default ~/.cache/loyalty-pos/redocly-cli).
lc_install_redocly() {
	lc_npm_install "${OPENAPI_LINT_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/loyalty-pos/redocly-cli}" \
	    "Redocly CLI" "@redocly/cli@$LC_REDOCLY_VERSION"
}

# Prism into PRISM_DIR, Portman into PORTMAN_DIR (default
# ~/.cache/loyalty-pos/prism-cli and .../portman).
lc_install_prism() {
	local c=${XDG_CACHE_HOME:-$HOME/.cache}/loyalty-pos
	lc_npm_install "${PRISM_DIR:-$c/prism-cli}" Prism \
	    "@stoplight/prism-cli@$LC_PRISM_VERSION" &&
	    lc_npm_install "${PORTMAN_DIR:-$c/portman}" Portman \
	    "@apideck/portman@$LC_PORTMAN_VERSION" "tslib@$LC_TSLIB_VERSION"
}

# playwright-core into PLAYWRIGHT_DIR (default
# ~/.cache/loyalty-pos/playwright), with its browser download switched off.
lc_install_playwright() {
	PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 \
	    lc_npm_install "${PLAYWRIGHT_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/loyalty-pos/playwright}" \
	    playwright-core "playwright-core@$LC_PLAYWRIGHT_VERSION" "axe-core@$LC_AXE_VERSION"
}

# standardwebhooks into STANDARDWEBHOOKS_DIR (default
# ~/.cache/loyalty-pos/standardwebhooks), for tests/webhooks*.sh.
lc_install_standardwebhooks() {
	lc_npm_install "${STANDARDWEBHOOKS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/loyalty-pos/standardwebhooks}" \
	    standardwebhooks "standardwebhooks@$LC_STANDARDWEBHOOKS_VERSION"
}

# 0 when file $1 is missing or older than any of the others.
lc_stale() {
	local t=$1 f
	shift
	[ -e "$t" ] || return 0
	for f in "$@"; do
		[ -e "$f" ] && [ "$f" -nt "$t" ] && return 0
	done
	return 1
}

# Builds the tree out of the source folder, in BUILDDIR (created), with
# the given configure arguments. Reconfigures when the arguments change.
lc_build() {
	local b=$1 args stamp
	shift
	# In any order: the same options are the same build.
	args=$(printf '%s\n' "$@" | LC_ALL=C sort | tr '\n' ' ')
	args=${args% }
	[ -e "$LC_SRCDIR/config.status" ] &&
	    lc_die "the source folder $LC_SRCDIR is configured in place, which" \
	    "rules out out-of-tree builds: run 'make distclean' there first"
	if lc_stale "$LC_SRCDIR/configure" "$LC_SRCDIR/configure.ac" \
	    "$LC_SRCDIR/Makefile.am"; then
		lc_say "autoreconf -fi in $LC_SRCDIR"
		(cd "$LC_SRCDIR" && mkdir -p m4 && autoreconf -fi) >&2 ||
		    lc_die "autoreconf failed"
	fi
	mkdir -p "$b" || lc_die "cannot create $b"
	stamp="$b/.configure-args"
	if [ ! -e "$b/Makefile" ] || [ ! -e "$stamp" ] ||
	    [ "$(cat "$stamp")" != "$args" ] ||
	    lc_stale "$b/config.status" "$LC_SRCDIR/configure"; then
		lc_say "configure $args (in $b)"
		(cd "$b" && "$LC_SRCDIR/configure" -q "$@") >&2 ||
		    lc_die "configure failed; see $b/config.log"
		# Other arguments may change compiler flags (sanitizers, the
		# default database), which make does not track: built anew.
		if [ -e "$stamp" ] && [ "$(cat "$stamp")" != "$args" ]; then
			lc_say "other configure arguments than before: make clean (in $b)"
			make -C "$b" -s clean >&2 || lc_die "make clean failed in $b"
		fi
		printf '%s' "$args" >"$stamp"
	fi
	lc_say "make (in $b)"
	make -C "$b" -s -j"$(nproc 2>/dev/null || echo 2)" >&2 ||
	    lc_die "make failed in $b"
}

# --- lighttpd ---------------------------------------------------------------

# Settings read by lc_render_lighttpd and lc_server_start; set them first.
LC_BIND=${LC_BIND:-127.0.0.1}
LC_PORT=${LC_PORT:-8080}
LC_BUILDDIR=${LC_BUILDDIR:-$LC_SRCDIR/build}
LC_DOCROOT=${LC_DOCROOT:-$LC_SRCDIR/htdocs}
LC_PROCS=${LC_PROCS:-2}		# FastCGI processes per responder
LC_DB=${LC_DB:-}		# absolute path of the database
LC_RUNDIR=${LC_RUNDIR:-}		# config, sockets, uploads; made by the caller
LC_ERRORLOG=${LC_ERRORLOG:-}	# file for lighttpd's log; empty: stderr
# For an installed configuration (make: conf/lighttpd-site.conf.in):
LC_CONF_TEMPLATE=${LC_CONF_TEMPLATE:-$LC_SRCDIR/conf/lighttpd.conf.in}
LC_URL_PREFIX=${LC_URL_PREFIX:-}	# the service's URL path, /loyalty; empty: /
LC_CGI_BINDIR=${LC_CGI_BINDIR:-}	# where lighttpd runs the responders
				# from; empty: LC_BUILDDIR/cgi-bin
LC_LIGHTTPD_PID=

# Writes the lighttpd configuration for the current settings to stdout:
# conf/lighttpd.conf.in (LC_CONF_TEMPLATE) with @NAME@ replaced, and the rewrite rules and
# FastCGI servers made from LC_ENDPOINTS for the responders that are built
# (a missing one leaves its path to notfound.fcgi, which answers 404 JSON)
# where a line holds just @REWRITE_RULES@ or @FASTCGI_SERVERS@.
lc_render_lighttpd() {
	local cgi="$LC_BUILDDIR/cgi-bin" v path name rw='' fc='' line nl='
'
	for v in "$LC_DB" "$LC_RUNDIR" "$LC_DOCROOT" "$cgi" "$LC_ERRORLOG" \
	    "$LC_CGI_BINDIR"; do
		case $v in *'"'* | *'\'* | *"$nl"*)
			lc_die "unusable character in path: $v" ;;
		esac
	done
	# Part of regular expressions too: plain characters only.
	case $LC_URL_PREFIX in
	'' | /*[A-Za-z0-9_-]) ;;
	*) lc_die "LC_URL_PREFIX: want a path such as /loyalty, not $LC_URL_PREFIX" ;;
	esac
	case $LC_URL_PREFIX in *[!A-Za-z0-9/_-]* | *//*)
		lc_die "LC_URL_PREFIX: want a path such as /loyalty, not $LC_URL_PREFIX" ;;
	esac
	[ -x "$cgi/notfound.fcgi" ] || lc_die "$cgi/notfound.fcgi is not built"
	while read -r path name; do
		[ -n "$path" ] || continue
		if [ ! -x "$cgi/$name.fcgi" ]; then
			lc_say "warning: cgi-bin/$name.fcgi is not built:" \
			    "/api/v1/$path answers 404"
			continue
		fi
		case $path in
		*/\*)	# a tree: the path and every path below it
			rw="$rw	\"^$LC_URL_PREFIX/api/v1/${path%/\*}(/[^?]*)?(\\?.*)?\$\" => \"$LC_URL_PREFIX/$LC_RESPONDER_DIR/$name.fcgi\$2\",$nl" ;;
		*)	rw="$rw	\"^$LC_URL_PREFIX/api/v1/$path(\\?.*)?\$\" => \"$LC_URL_PREFIX/$LC_RESPONDER_DIR/$name.fcgi\$1\",$nl" ;;
		esac
		fc="$fc$(lc_fastcgi_entry "$name")$nl"
	done <<EOF
$LC_ENDPOINTS
EOF
	fc="$fc$(lc_fastcgi_entry notfound)$nl"
	while IFS= read -r line; do
		case $line in
		@REWRITE_RULES@) printf '%s' "$rw" ;;
		@FASTCGI_SERVERS@) printf '%s' "$fc" ;;
		server.errorlog*@ERRORLOG@*)
			# No log file: lighttpd keeps the stderr it was given,
			# which it may not open again as /dev/stderr (a
			# terminal of root's, after su - USER).
			if [ -n "$LC_ERRORLOG" ]; then
				printf '%s\n' "${line//@ERRORLOG@/"$LC_ERRORLOG"}"
			else
				printf '# server.errorlog: stderr as it was given\n'
			fi ;;
		*)
			# Quoted: bash 5.2 puts the match in place of an
			# unquoted & (a postgresql:// URI's ?a=1&b=2).
			line=${line//@BIND@/"$LC_BIND"}
			line=${line//@PORT@/"$LC_PORT"}
			line=${line//@DOCROOT@/"$LC_DOCROOT"}
			line=${line//@RUNDIR@/"$LC_RUNDIR"}
			line=${line//@LOYALTY_DB@/"$LC_DB"}
			line=${line//@ERRORLOG@/"${LC_ERRORLOG:-/dev/stderr}"}
			line=${line//@URL@/"$LC_URL_PREFIX"}
			line=${line//@CGIDIR@/"${LC_CGI_BINDIR:-$cgi}"}
			line=${line//@RESPONDERS@/"$LC_RESPONDER_DIR"}
			line=${line//@HTTPS_LOCAL_RE@/"$LC_HTTPS_LOCAL_RE"}
			line=${line//@HTTPS_PUBLIC_RE@/"$LC_HTTPS_PUBLIC_RE"}
			line=${line//@HSTS@/"$LC_HSTS"}
			printf '%s\n' "$line"
			;;
		esac
	done <"$LC_CONF_TEMPLATE"
}

lc_fastcgi_entry() {
	printf '\t"%s/%s/%s.fcgi" => ((\n' "$LC_URL_PREFIX" "$LC_RESPONDER_DIR" "$1"
	printf '\t\t"bin-path" => "%s",\n' "${LC_CGI_BINDIR:-$LC_BUILDDIR/cgi-bin}/$1.fcgi"
	printf '\t\t"socket" => "%s",\n' "$LC_RUNDIR/$1.sock"
	printf '\t\t"max-procs" => %d,\n' "$LC_PROCS"
	printf '\t\t"check-local" => "disable",\n'
	printf '\t)),'
}

# The address to probe: the bind address, or loopback for a wildcard.
lc_probe_host() {
	case $LC_BIND in
	0.0.0.0 | '' | '*') echo 127.0.0.1 ;;
	*:*) echo "[$LC_BIND]" ;;
	*) echo "$LC_BIND" ;;
	esac
}

# Starts lighttpd in the background (foreground mode, -D, as a child of
# this shell) and waits until the port answers. Needs LC_DB, LC_RUNDIR
# and the others above. Sets LC_LIGHTTPD_PID. Returns 1 when lighttpd
# exits early (say, the port is taken), 2 when it never answers.
lc_server_start() {
	local conf="$LC_RUNDIR/lighttpd.conf" i host
	[ -n "$LC_DB" ] && [ -n "$LC_RUNDIR" ] ||
	    lc_die "lc_server_start: set LC_DB and LC_RUNDIR"
	mkdir -p "$LC_RUNDIR/uploads"
	lc_render_lighttpd >"$conf" || return 1
	lighttpd -tt -f "$conf" >&2 || lc_die "bad lighttpd config $conf"
	# In a session of its own, so a Ctrl-C in the terminal reaches only
	# the caller, which then stops lighttpd and the responders in order
	# (setsid does not fork here: a background job is no group leader).
	if [ -n "$LC_ERRORLOG" ]; then
		setsid lighttpd -D -f "$conf" </dev/null >>"$LC_ERRORLOG" 2>&1 &
	else
		setsid lighttpd -D -f "$conf" </dev/null &
	fi
	LC_LIGHTTPD_PID=$!
	host=$(lc_probe_host)
	for i in $(seq 1 300); do
		if ! lc_alive "$LC_LIGHTTPD_PID"; then
			wait "$LC_LIGHTTPD_PID" 2>/dev/null
			LC_LIGHTTPD_PID=
			return 1
		fi
		if curl -s -o /dev/null --max-time 2 \
		    "http://$host:$LC_PORT/api/v1/"; then
			# Not another server on a taken port: lighttpd, which
			# fails at once when it cannot bind, still runs.
			sleep 0.2
			lc_alive "$LC_LIGHTTPD_PID" && return 0
			continue
		fi
		sleep 0.1
	done
	lc_server_stop
	return 2
}

# 0 when process $1 runs (a zombie no longer counts).
lc_alive() {
	local st
	kill -0 "$1" 2>/dev/null || return 1
	st=$(sed -n 's/^[0-9]* (.*) \([A-Za-z]\).*/\1/p' "/proc/$1/stat" 2>/dev/null)
	[ "$st" != Z ]
}

# The pids of the processes lighttpd started (its responders).
lc_server_children() {
	[ -n "$LC_LIGHTTPD_PID" ] || return 0
	pgrep -P "$LC_LIGHTTPD_PID" 2>/dev/null || true
}

# Stops lighttpd and every responder it started: lighttpd sends them
# SIGTERM as it exits (libfcgi then lets each finish its request and exit
# normally); whatever still runs a few seconds later gets SIGKILL. Waits
# until the responders are reaped too. Safe to call twice.
lc_server_stop() {
	local pid=$LC_LIGHTTPD_PID kids p i alive exists
	[ -n "$pid" ] || return 0
	LC_LIGHTTPD_PID=
	kids=$(pgrep -P "$pid" 2>/dev/null || true)
	kill -TERM "$pid" 2>/dev/null || true
	for i in $(seq 1 50); do
		lc_alive "$pid" || break
		sleep 0.1
	done
	kill -KILL "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	for i in $(seq 1 40); do
		alive='' exists=''
		for p in $kids; do
			kill -0 "$p" 2>/dev/null || continue
			exists=1
			lc_alive "$p" && alive="$alive $p"
		done
		# Orphans go to init, which reaps them at its own pace.
		[ -z "$exists" ] && return 0
		[ -z "$alive" ] && [ "$i" -ge 15 ] && return 0
		# shellcheck disable=SC2086
		[ -n "$alive" ] && [ "$i" -eq 20 ] && kill -KILL $alive 2>/dev/null
		sleep 0.1
	done
	return 0
}
