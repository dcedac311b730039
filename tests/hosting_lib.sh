# shellcheck shell=bash
# tests/hosting_lib.sh: Apache 2.4 set up as shared web hosts are, for
# tests/hosting.sh and tests/install_walk.sh. Sourced after tests/lib.sh;
# every name here starts with hl_ / HL_.
#
#   hl_preflight POINTS      root and Apache with mod_fcgid and mod_cgi, or
#                            POINTS skipped points and exit; sets
#                            HL_HAVE_SUEXEC (1 when suEXEC can run)
#   hl_lock                  one such test at a time (/tmp/lc-hosting.lock)
#   hl_tree PREFIX           HL_H, a new folder under /var/www (suEXEC's
#                            document root), 755
#   hl_user NAME HOME        a local account of its own, no shell, removed
#                            by hl_cleanup
#   hl_fcgid_conf ROOT       the head of a server's httpd.conf: mod_fcgid
#   hl_cgi_conf ROOT         ... mod_cgi (prefork), userdir, suEXEC
#   hl_site_conf PORT DOCROOT OVERRIDE [EXTRA]   a <VirtualHost> of it
#   hl_ports VAR...          a distinct free port into each variable
#   hl_servers CONFIGURE     Apache twice (HL_AP_F, HL_AP_C: the pids, or
#                            empty): CONFIGURE writes $HL_H/apache-f/ and
#                            apache-c/httpd.conf and sets HL_F_PORTS and
#                            HL_C_PORTS; tried again with other ports
#                            when another test took one meanwhile
#   hl_cleanup               the EXIT trap: servers, responders, accounts,
#                            the tree (kept when a point failed, or
#                            LT_KEEP); the logs when something failed
#
# Root only: suEXEC needs Apache started as root, and a site a user of its
# own. Both servers run User www-data: the web server's own user, as on a
# host that runs every site as one user.

HL_MODS=/usr/lib/apache2/modules
HL_SUEXEC=/usr/lib/apache2/suexec
HL_HAVE_SUEXEC=0
HL_H=
HL_USERS=
HL_AP_F=
HL_AP_C=
HL_F_PORTS=
HL_C_PORTS=

# hl_preflight POINTS
hl_preflight() {
	command -v jq >/dev/null || bail "jq is not installed (tools/check installs it)"
	command -v curl >/dev/null || bail "curl is not installed (tools/check installs it)"
	if [ "$(id -u)" -ne 0 ]; then
		skip "$1" "not root: suEXEC and the site's own user need root (CI runs as root)"
		done_testing
		exit
	fi
	if ! ap_available || [ ! -e "$HL_MODS/mod_cgi.so" ]; then
		skip "$1" "apache2 with mod_fcgid and mod_cgi is not installed (tools/check installs them)"
		done_testing
		exit
	fi
	HL_HAVE_SUEXEC=0
	[ -u "$(readlink -f "$HL_SUEXEC" 2>/dev/null)" ] && [ -e "$HL_MODS/mod_suexec.so" ] &&
	    HL_HAVE_SUEXEC=1
	return 0
}

# hl_lock: one run at a time (make check runs these tests, and
# tests/bundle.sh runs tests/hosting.sh on the bundle, maybe at once): they
# share suEXEC's log and /var/www, and would lose servers to each other's
# ports.
hl_lock() {
	exec 9>/tmp/lc-hosting.lock || bail "cannot open /tmp/lc-hosting.lock"
	flock -w 900 9 || bail "another hosting test held /tmp/lc-hosting.lock for 15 minutes"
}

# hl_tree PREFIX
hl_tree() {
	mkdir -p /var/www
	HL_H=$(mktemp -d "/var/www/$1.XXXXXX") || bail "mktemp under /var/www"
	chmod 755 "$HL_H"
}

# hl_user NAME HOME: a local account (and its group), its home not made.
hl_user() {
	useradd -M -d "$2" -s /usr/sbin/nologin -U "$1" || bail "useradd $1 failed"
	HL_USERS="$HL_USERS $1"
}

# What every shared host has, and Debian's ScriptAlias of /cgi-bin/.
hl_common_conf() {	# SERVERROOT
	cat <<CONF
ServerRoot "$1"
ServerName 127.0.0.1
PidFile "$1/httpd.pid"
DefaultRuntimeDir "$1"
ErrorLog "$1/error.log"
LogLevel warn
User www-data
Group www-data
LoadModule authz_core_module $HL_MODS/mod_authz_core.so
LoadModule mime_module $HL_MODS/mod_mime.so
LoadModule alias_module $HL_MODS/mod_alias.so
LoadModule dir_module $HL_MODS/mod_dir.so
LoadModule env_module $HL_MODS/mod_env.so
LoadModule rewrite_module $HL_MODS/mod_rewrite.so
LoadModule headers_module $HL_MODS/mod_headers.so
LoadModule filter_module $HL_MODS/mod_filter.so
LoadModule deflate_module $HL_MODS/mod_deflate.so
TypesConfig /etc/mime.types
DirectoryIndex index.html
<Directory />
	AllowOverride None
	Require all denied
</Directory>
ScriptAlias /cgi-bin/ /usr/lib/cgi-bin/
<Directory "/usr/lib/cgi-bin">
	AllowOverride None
	Options +ExecCGI
	Require all granted
</Directory>
CONF
}

# hl_fcgid_conf SERVERROOT: mod_fcgid with the event MPM. The folder of
# its sockets is made here, the web server's.
hl_fcgid_conf() {
	mkdir -p "$1/fcgid"
	chown www-data:www-data "$1/fcgid"
	hl_common_conf "$1"
	cat <<CONF
LoadModule mpm_event_module $HL_MODS/mod_mpm_event.so
LoadModule fcgid_module $HL_MODS/mod_fcgid.so
FcgidIPCDir "$1/fcgid"
FcgidProcessTableFile "$1/fcgid/shm"
CONF
}

# hl_cgi_conf SERVERROOT: plain CGI with prefork, mod_userdir (disabled
# but for the users a site names) and suEXEC where it can run.
hl_cgi_conf() {
	mkdir -p "$1"
	hl_common_conf "$1"
	cat <<CONF
LoadModule mpm_prefork_module $HL_MODS/mod_mpm_prefork.so
LoadModule cgi_module $HL_MODS/mod_cgi.so
LoadModule userdir_module $HL_MODS/mod_userdir.so
UserDir disabled
CONF
	[ "$HL_HAVE_SUEXEC" -eq 1 ] && echo "LoadModule suexec_module $HL_MODS/mod_suexec.so"
	return 0
}

hl_site_conf() {	# PORT DOCROOT OVERRIDE [EXTRA LINES]
	cat <<CONF
Listen 127.0.0.1:$1
<VirtualHost 127.0.0.1:$1>
	DocumentRoot "$2"
	${4:-}
	<Directory "$2">
		AllowOverride $3
		Require all granted
	</Directory>
</VirtualHost>
CONF
}

# hl_ports VAR...: a different free port into each (of LC_TEST_PORTS), on
# which no socket is either: a client's connection that ended lately (in
# TIME-WAIT) on one of them keeps Apache from binding it.
hl_ports() {
	local v p taken=' ' i
	for v in "$@"; do
		p=
		for i in $(seq 1 50); do
			p=$(lt_free_port) || bail "no free port"
			[[ $taken == *" $p "* ]] && { p=; continue; }
			[ -z "$(ss -Htan "( sport = :$p )" 2>/dev/null)" ] && break
		done
		[ -n "$p" ] || bail "no free port for $v"
		taken="$taken$p "
		printf -v "$v" '%s' "$p"
	done
}

# hl_ap_run CONF PORT...: Apache in the foreground of a job; its pid on
# stdout once every port answers, or nothing (its log as TAP comments).
hl_ap_run() {
	local conf=$1 dir pid i port up l
	shift
	dir=$(dirname "$conf")
	# A session of its own: prefork's Apache signals its whole process
	# group as it stops, which must not be this script.
	# Without the lock's descriptor: a server outliving this script
	# must not hold the next run up.
	setsid apache2 -f "$conf" -DFOREGROUND </dev/null >>"$dir/error.log" 2>&1 9>&- &
	pid=$!
	for i in $(seq 1 100); do
		lc_alive "$pid" || break
		up=1
		for port in "$@"; do
			curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$port/" || up=0
		done
		# Another server may answer on a port this one could not
		# bind: each port must be this one's.
		for port in "$@"; do
			ss -Hltnp "sport = :$port" 2>/dev/null |
			    grep -q "pid=$pid," || up=0
		done
		[ "$up" -eq 1 ] && { echo "$pid"; return 0; }
		grep -q 'could not bind' "$dir/error.log" && break
		sleep 0.1
	done
	kill -KILL -- "-$pid" "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	# On stderr: stdout is the pid the caller takes (a line of this log
	# taken for a pid once made a server that could not bind look up).
	while IFS= read -r l; do diag "$l"; done <"$dir/error.log" >&2
	return 1
}

# hl_ap_stop PID...: each server and what its session left.
hl_ap_stop() {
	local pid p
	for pid in "$@"; do
		kill -TERM "$pid" 2>/dev/null
		for p in $(seq 1 50); do lc_alive "$pid" || break; sleep 0.1; done
		# Its session (setsid): children a killed parent left too.
		kill -KILL -- "-$pid" "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	return 0
}

# hl_servers CONFIGURE: see the top of this file.
hl_servers() {
	local try
	HL_AP_F= HL_AP_C=
	for try in 1 2 3 4 5; do
		"$1"
		: >"$HL_H/apache-f/error.log"
		: >"$HL_H/apache-c/error.log"
		# shellcheck disable=SC2086
		HL_AP_F=$(hl_ap_run "$HL_H/apache-f/httpd.conf" $HL_F_PORTS)
		# shellcheck disable=SC2086
		HL_AP_C=$(hl_ap_run "$HL_H/apache-c/httpd.conf" $HL_C_PORTS)
		[[ $HL_AP_F =~ ^[0-9]+$ && $HL_AP_C =~ ^[0-9]+$ ]] && return 0
		grep -q 'could not bind' "$HL_H/apache-f/error.log" "$HL_H/apache-c/error.log" ||
		    break
		diag "a port was taken meanwhile (try $try): again with others"
		# shellcheck disable=SC2086
		hl_ap_stop $HL_AP_F $HL_AP_C
		HL_AP_F= HL_AP_C=
	done
	[[ $HL_AP_F =~ ^[0-9]+$ ]] || HL_AP_F=
	[[ $HL_AP_C =~ ^[0-9]+$ ]] || HL_AP_C=
	return 0
}

# hl_log_count RE: the lines of both servers' logs matching RE.
hl_log_count() {
	cat "$HL_H"/apache-?/error.log 2>/dev/null | grep -cE "$1"
}

# hl_cleanup: see the top of this file. Keeps the script's exit status.
hl_cleanup() {
	local rc=$? p f l u
	# The servers' logs when a point failed or the script died.
	if [ -n "$HL_H" ] && { [ "$rc" -ne 0 ] || [ "$tap_failed" -gt 0 ]; }; then
		for f in "$HL_H/apache-f/error.log" "$HL_H/apache-c/error.log" /var/log/apache2/suexec.log; do
			[ -f "$f" ] || continue
			diag "--- $f"
			tail -n 15 "$f" | while IFS= read -r l; do diag "$l"; done
		done
	fi
	# shellcheck disable=SC2086
	hl_ap_stop $HL_AP_F $HL_AP_C
	HL_AP_F= HL_AP_C=
	# Responders mod_fcgid or a CGI left, all run from the tree.
	if [ -n "$HL_H" ]; then
		for p in $(pgrep -f "^$HL_H/" 2>/dev/null); do kill -KILL "$p" 2>/dev/null; done
	fi
	for u in $HL_USERS; do
		# Whatever still runs as the account (a responder under
		# suEXEC) first: userdel refuses a logged-in user.
		for p in $(pgrep -u "$u" 2>/dev/null); do kill -KILL "$p" 2>/dev/null; done
		userdel "$u" >/dev/null 2>&1
	done
	HL_USERS=
	[ -n "$HL_H" ] || return "$rc"
	if [ -n "$LT_KEEP" ] || [ "$tap_failed" -gt 0 ]; then
		diag "kept $HL_H"
	else
		rm -rf "$HL_H"
	fi
	HL_H=
	return "$rc"
}

# hl_userdir_conf PORT: the site of the suEXEC user's folder (~U/public_html,
# /~U/) on PORT, as Apache's configuration (both tests' suexec-userdir).
hl_userdir_conf() {
	hl_site_conf "$1" "$H/apache-c" None "UserDir public_html
	UserDir enabled $U"
	cat <<CONF
<Directory "$H/home/*/public_html">
	AllowOverride All
	Require all granted
</Directory>
CONF
}
