#!/usr/bin/env bash
# A fresh Debian 12, as a shopkeeper gets it. TAP.
#
# Bootstraps Debian 12 (bookworm, minbase, plus git and ca-certificates:
# nothing else) into a folder of its own, copies the files git tracks here
# (with their uncommitted changes) into it as clones, and there
#   - as root, from /root/p: tools/serve installs what it needs, builds,
#     makes the demo database and listens; a purchase through it; Ctrl-C
#     (SIGINT) stops it and everything it started; the system lighttpd the
#     package brought is stopped and disabled (nothing on port 80);
#   - as a normal user, in a login shell (Debian's PATH, no /usr/sbin):
#     with a package missing tools/serve says how to install it with
#     `su - -c` (there is no sudo), then with everything installed it
#     serves, and a purchase through it;
#   - as root again, on the build/ tools/serve made (without PostgreSQL):
#     tools/check --quick with LC_CHECK_TESTS, fixtures_pg.sh and hosting.sh
#     (/root is 0700), installs what those need and passes.
# The folder is unmounted and removed on exit, whatever happens.
#
# Root only, with debootstrap; skipped otherwise (LC_REQUIRE_FRESH=1: fails
# instead). Needs the Debian mirror (LC_DEBIAN_MIRROR, else the one this
# machine's apt uses, else deb.debian.org; LC_DEBIAN_SECURITY likewise),
# curl and jq here. The chroot shares this machine's network: its servers
# listen on ports of LC_TEST_PORTS, and the system lighttpd, if it comes
# back, on port 80. Takes 5 to 15 minutes (two builds, apt), at most
# LC_FRESH_TIMEOUT seconds (2100) and the cleanup. LC_FRESH_REUSE=0: no
# package of this machine's apt cache is reused (to measure what it saves).
set -u
. "${top_srcdir:=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}/tests/lib.sh"

U=shopkeeper			# the normal user
PKG=lighttpd-mod-deflate	# removed for the user's first tools/serve
# Bounds, in seconds, generous: CI machines are slow and shared. The
# whole run's, LC_FRESH_TIMEOUT, leaves tools/check --fresh (2400 s) time
# to see the cleanup through; each step gets its own or what is left.
LIM_ALL=${LC_FRESH_TIMEOUT:-2100}
LIM_BOOT=1200			# debootstrap
LIM_SERVE=1800			# a tools/serve, its apt-get and build included
LIM_CHECK=1800			# tools/check, its apt-get and build included
LIM_STOP=90			# from SIGINT to tools/serve's exit

t_start=$(date +%s)
# lim N: N seconds, or what is left of the whole run's (1 at least).
lim() {
	local left=$((t_start + LIM_ALL - $(date +%s)))
	[ "$left" -lt "$1" ] && set -- "$left"
	[ "$1" -lt 1 ] && set -- 1
	echo "$1"
}

# Skipped unless it can run; a failure with LC_REQUIRE_FRESH=1.
cannot() {
	[ "${LC_REQUIRE_FRESH:-0}" = 1 ] && bail "LC_REQUIRE_FRESH=1, but $1"
	echo "1..0 # SKIP $1"
	exit 0
}
[ "$(id -u)" -eq 0 ] || cannot "needs root (debootstrap, chroot, mount)"
command -v debootstrap >/dev/null || cannot "debootstrap is not installed"
for c in git curl jq chroot mount timeout; do
	command -v "$c" >/dev/null || cannot "$c is not installed"
done
git -c safe.directory='*' -C "$top_srcdir" rev-parse --is-inside-work-tree \
    >/dev/null 2>&1 || cannot "$top_srcdir is not a git checkout"

# The URI of the first deb source of this machine for a Debian suite
# matching the regular expression $1 (one-line and deb822 files).
host_uri() {
	local f
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		awk -v re="$1" '$1 == "deb" { i = 2
			if ($2 ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
			if ($(i + 1) ~ re) { print $i; exit } }' "$f"
	done
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk -v re="$1" 'BEGIN { RS = ""; FS = "\n" } {
			t = u = s = ""; on = 1
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^#/) continue
				k = tolower($i); sub(/:.*/, "", k); v = $i; sub(/^[^:]*:[ \t]*/, "", v)
				if (k == "types") t = v; else if (k == "uris") u = v
				else if (k == "suites") s = v; else if (k == "enabled" && v ~ /^no/) on = 0
			}
			n = split(s, ss, /[ \t]+/)
			for (i = 1; i <= n; i++)
				if (on && (" " t " ") ~ / deb / && ss[i] ~ re) { split(u, uu, /[ \t]+/); print uu[1]; exit }
		}' "$f"
	done
}
CODENAMES='^(buster|bullseye|bookworm|trixie|forky|sid|oldstable|stable|testing|unstable)$'
MIRROR=${LC_DEBIAN_MIRROR:-$(host_uri "$CODENAMES" | head -n 1)}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
SECURITY=${LC_DEBIAN_SECURITY:-$(host_uri '-security$' | head -n 1)}
SECURITY=${SECURITY:-http://deb.debian.org/debian-security}

# The folder: TMPDIR or /var/tmp (/tmp is often a small tmpfs), with room
# for the system, two builds and the test packages, and mounted so that
# programs, devices and set-user-ID (suEXEC in hosting.sh) work in it.
NEED_KB=$((5 * 1024 * 1024))
base=
for d in "${TMPDIR:-/var/tmp}" /var/tmp; do
	[ -d "$d" ] || continue
	avail=$(df -Pk "$d" | awk 'NR == 2 { print $4 }')
	opts=$(findmnt -n -o OPTIONS -T "$d" 2>/dev/null)
	if [ "${avail:-0}" -lt "$NEED_KB" ]; then
		diag "not in $d: $((avail / 1024)) MB free, want $((NEED_KB / 1024))"
	elif [[ ,$opts, =~ ,no(exec|dev|suid), ]]; then
		diag "not in $d: mounted $opts"
	else
		base=$d
		break
	fi
done
[ -n "$base" ] || cannot "no folder with $((NEED_KB / 1024 / 1024)) GB free (TMPDIR, /var/tmp)"

WD=$(mktemp -d "$base/fresh-debian.XXXXXX") || bail "mktemp in $base"
# As /proc/PID/root and mountinfo spell it.
WD=$(cd "$WD" && pwd -P)
R=$WD/root			# the chroot; logs beside it, in WD
mkdir -m 755 "$R"
JOBS=''				# background jobs (timeout's pids) to stop
jobs_del() {
	local j n=''
	for j in $JOBS; do [ "$j" = "$1" ] || n="$n $j"; done
	JOBS=$n
}
LT_DIR=$WD			# lt_req's answers

# The pids of the processes whose root is the chroot.
chroot_pids() {
	local p r
	for p in /proc/[0-9]*; do
		r=$(readlink "$p/root" 2>/dev/null) || continue
		[ "$r" = "$R" ] || [[ $r == "$R"/* ]] && echo "${p#/proc/}"
	done
	return 0
}

# "PID USER ARGS" of each process in the chroot, one a line.
chroot_ps() {
	local p
	for p in $(chroot_pids); do
		printf '%s %s %s\n' "$p" "$(stat -c %U "/proc/$p" 2>/dev/null)" \
		    "$(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null)"
	done
}

# The mount points in and of the folder, deepest first.
mounts_under() {
	awk -v w="$WD" '$5 == w || index($5, w "/") == 1 { print length($5), $5 }' \
	    /proc/self/mountinfo | sort -rn | cut -d' ' -f2-
}

# Stops every job and every process of the chroot, unmounts everything
# and removes the folder; keeps it (and says so) only when something
# could not be unmounted, for rm must never reach a mounted /dev or /proc.
cleanup() {
	local rc=$? p m i t0
	trap '' INT TERM HUP
	t0=$(date +%s)
	diag "cleaning up $WD"
	for p in $JOBS; do kill -TERM "$p" 2>/dev/null; done
	for i in 1 2 3 4 5 6 7 8 9 10; do
		p=$(chroot_pids)
		[ -z "$p" ] && break
		# shellcheck disable=SC2086
		if [ "$i" -le 3 ]; then kill -TERM $p 2>/dev/null; else kill -KILL $p 2>/dev/null; fi
		sleep 1
	done
	for p in $JOBS; do wait "$p" 2>/dev/null; done
	[ -n "$(chroot_pids)" ] && diag "still running in the chroot: $(chroot_ps | tr '\n' ';')"
	for m in $(mounts_under); do
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null ||
		    diag "cannot unmount $m"
	done
	if [ -n "$(mounts_under)" ]; then
		diag "kept $WD: still mounted: $(mounts_under | tr '\n' ' ')"
	else
		i=$(date +%s)
		rm -rf --one-file-system "$WD"
		diag "cleanup: $(($(date +%s) - t0)) s, the removal $(($(date +%s) - i)) s of it"
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# run LIMIT LOG CMD...: CMD bounded by LIMIT seconds, output to LOG. In
# the background, so that a signal to this script ends it at once.
run() {
	local limit=$1 log=$2 pid rc
	shift 2
	timeout -k 30 "$limit" "$@" >"$log" 2>&1 </dev/null &
	pid=$!
	JOBS="$JOBS $pid"
	wait "$pid"
	rc=$?
	jobs_del "$pid"
	[ "$rc" -eq 124 ] && diag "timed out after $limit s: $*"
	return "$rc"
}

# "${IN[@]}" WHO -c CMD, or inside WHO CMD: CMD in a login shell of WHO
# (root or the user) in the chroot, as `su -` gives it: that user's PATH
# and HOME, nothing of this script's environment.
IN=(env -i TERM=dumb PATH=/usr/sbin:/usr/bin:/sbin:/bin chroot "$R" su -)
inside() { "${IN[@]}" "$1" -c "$2"; }

# The last N lines (default 30) of a file, as TAP comments.
diag_tail() {
	[ -f "$1" ] || { diag "(no $1)"; return 0; }
	diag "--- last lines of ${1#"$WD"/}:"
	tail -n "${2:-30}" "$1" | while IFS= read -r l; do diag "  $l"; done
}

# Phases' times, reported at the end.
TIMES=''
phase_t0=0
phase() { phase_t0=$(date +%s); }
phase_done() { TIMES="$TIMES$1 $(($(date +%s) - phase_t0)) s; "; }

# 0 when something answers on port 80 of this machine (the chroot's too).
port80() { timeout 5 bash -c 'exec 3<>/dev/tcp/127.0.0.1/80' 2>/dev/null; }

# The bytes of "Need to get FETCH/TOTAL" (or "Need to get TOTAL") of
# apt-get in the logs: "FETCHED TOTAL".
apt_bytes() {
	cat "$@" 2>/dev/null | awk '
	function b(s,  n, u) { n = s; u = s; gsub(/[^0-9.]/, "", n); gsub(/[0-9., ]/, "", u)
		return n * (u == "kB" ? 1e3 : u == "MB" ? 1e6 : u == "GB" ? 1e9 : 1) }
	/^Need to get / { sub(/^Need to get /, ""); sub(/ of archives.*/, ""); gsub(/,/, "")
		if (split($0, p, "/") == 2) { f += b(p[1]); t += b(p[2]) } else { f += b($0); t += b($0) } }
	END { printf "%d %d\n", f, t }'
}
mb() { echo "$(($1 / 1000000)) MB"; }

# --- the system -------------------------------------------------------------

phase
# This machine's downloaded packages, hard links in the chroot's apt
# cache: debootstrap and apt use a file there only when its checksum is
# the index's, so a stale or foreign one is fetched again, and no
# program changes a .deb in place. Same file system only (no copying).
cache=/var/cache/apt/archives
mkdir -p "$R$cache/partial"
reuse=0
if [ "${LC_FRESH_REUSE:-1}" = 1 ] && [ -d "$cache" ] &&
    [ "$(stat -c %d "$cache")" = "$(stat -c %d "$R")" ]; then
	find "$cache" -maxdepth 1 -name '*.deb' -type f -exec ln -t "$R$cache" {} + 2>/dev/null
	reuse=$(find "$R$cache" -maxdepth 1 -name '*.deb' | wc -l)
fi
diag "debootstrap bookworm from $MIRROR into $R ($reuse packages of this machine's apt cache at hand)"
run "$(lim "$LIM_BOOT")" "$WD/debootstrap.log" debootstrap --variant=minbase \
    --include=git,ca-certificates bookworm "$R" "$MIRROR"
rc=$?
ok "debootstrap makes a Debian 12 minbase root with git and ca-certificates" \
    test "$rc" -eq 0 -a -x "$R/usr/bin/git" -a -d "$R/etc/ssl/certs"
[ "$rc" -eq 0 ] || { diag_tail "$WD/debootstrap.log"; bail "no system to test in"; }
diag "Debian $(cat "$R/etc/debian_version")"
# Packages fetched (Retrieving, then Validating) or found in the cache
# (Validating only), and their bytes.
awk 'NF < 4 { next } $1 == "I:" && $2 == "Retrieving" { got[$3 " " $4] = 1 }
    $1 == "I:" && $2 == "Validating" { seen[$3 " " $4] = 1 }
    END { for (k in seen) print (k in got ? "fetched" : "reused"), k }' \
    "$WD/debootstrap.log" | while read -r how p v; do
	echo "$how $(stat -c %s "$R$cache/${p}_${v/:/%3a}"_*.deb 2>/dev/null | head -n 1)"
done | awk '{ n[$1]++; s[$1] += $2 } END {
    printf "# debootstrap: %d packages (%d MB) from this machine'\''s cache, %d (%d MB) fetched\n",
    n["reused"], s["reused"] / 1e6, n["fetched"], s["fetched"] / 1e6 }'
phase_done debootstrap

phase
# What a chroot needs. The folder is a private mount first, so that none
# of these reaches this machine's mounts (a bind of a shared /dev would
# pass the mounts on it back to the real /dev).
mount --bind "$WD" "$WD" && mount --make-private "$WD" &&
    mount -t proc proc "$R/proc" &&
    mount -t sysfs sysfs "$R/sys" &&
    mount --bind /dev "$R/dev" && mount --make-private "$R/dev" &&
    mount --bind /dev/pts "$R/dev/pts" && mount --make-private "$R/dev/pts" &&
    mount -t tmpfs -o mode=1777,nosuid,nodev shm "$R/dev/shm" &&
    # A file of its own, not a symbolic link the mount would follow.
    rm -f "$R/etc/resolv.conf" && touch "$R/etc/resolv.conf" &&
    mount --bind /etc/resolv.conf "$R/etc/resolv.conf" &&
    mount -o remount,bind,ro "$R/etc/resolv.conf"
ok "proc, sysfs, /dev, devpts, /dev/shm and resolv.conf are mounted in it" test $? -eq 0 ||
    bail "cannot mount what the chroot needs"

# Debian's sources, with the updates and security updates a Debian 12
# installed today gets.
cat >"$R/etc/apt/sources.list" <<EOF
deb $MIRROR bookworm main
deb $MIRROR bookworm-updates main
deb $SECURITY bookworm-security main
EOF

# Services. A booted Debian starts the ones its packages bring (lighttpd
# on port 80); a chroot without /sbin/init blocks them (invoke-rc.d), so a
# policy-rc.d lets them start, as a booted machine would: tools/serve is
# to stop and disable the system lighttpd it brings. Not when port 80
# is taken already: lighttpd could not start, and its package would not
# install.
policy() {
	printf '#!/bin/sh\n# tests/fresh_debian.sh: %s\nexit %s\n' "$2" "$1" \
	    >"$R/usr/sbin/policy-rc.d"
	chmod 755 "$R/usr/sbin/policy-rc.d"
}
port80_free=1
if port80; then
	port80_free=0
	diag "port 80 of this machine is taken already: services stay blocked, the port 80 points are skipped"
	policy 101 "no service starts"
else
	policy 0 "services start, as on a booted machine"
fi

# The normal user, made as Debian makes one (adduser: a home of 0700).
inside root "adduser --disabled-password --gecos '' $U" >"$WD/adduser.log" 2>&1
ok "a normal user, $U, with a home of mode $(stat -c %a "$R/home/$U" 2>/dev/null)" \
    test -d "$R/home/$U"
# What the user's steps rely on, as on a fresh Debian whose root has a
# password: no sudo, and a login PATH without the sbin folders.
ok "the chroot has no sudo" test ! -e "$R/usr/bin/sudo"
upath=$(inside "$U" 'echo "$PATH"' 2>&1)
ok "$U's login PATH has no sbin folder: $upath" test -n "$upath" -a "${upath/sbin/}" = "$upath"

# The source: the files git tracks here, as they are in the work tree
# (uncommitted changes included, deleted files left out), committed into a
# repository of the chroot that root and the user clone, as a shopkeeper
# clones: a clone's times are the checkout's, not the work tree's.
src=/srv/loyalty-pos
mkdir -p "$R$src"
(cd "$top_srcdir" && git -c safe.directory='*' ls-files -z |
    while IFS= read -r -d '' f; do
	[ -e "$f" ] || [ -L "$f" ] && printf '%s\0' "$f"
    done) >"$WD/files"
nfiles=$(tr -cd '\0' <"$WD/files" | wc -c)
tar -C "$top_srcdir" --null --no-recursion -T "$WD/files" -cf - | tar -C "$R$src" -xf -
inside root "cd $src && git init -q && git add -A -f &&
    git -c user.name=fresh_debian -c user.email=fresh@localhost commit -q -m 'the tree under test' &&
    git clone -q $src /root/p && chown -R $U: $src" >"$WD/git.log" 2>&1 &&
    inside "$U" "git clone -q $src ~/p" >>"$WD/git.log" 2>&1
rc=$?
got=$(inside root 'git -C /root/p ls-files | wc -l' 2>/dev/null)
is "$rc $got" "0 $nfiles" "/root/p and ~$U/p are clones of the $nfiles files git tracks here" ||
    { diag_tail "$WD/git.log"; bail "no checkout"; }
phase_done setup

# --- tools/serve --------------------------------------------------------------

# serve_start WHO DIR NAME: tools/serve as WHO from DIR in the background,
# on a free port of LC_TEST_PORTS (PORT, LT_URL), its output in WD/NAME.log;
# waits until it listens or exits. SV_JOB: the job; the pid of serve's
# shell goes to /tmp/NAME.pid in the chroot. 0 when it listens.
SV_JOB=
serve_start() {
	local i limit
	limit=$(lim "$LIM_SERVE")
	PORT=$(lt_free_port) || bail "no free port"
	LT_URL=http://127.0.0.1:$PORT
	rm -f "$R/tmp/$3.pid"
	# lighttpd opens /dev/stderr, the log: it must be the user's to open,
	# as the user's own terminal is.
	: >"$WD/$3.log"
	chown "$(stat -c %u "$R/home/$1" 2>/dev/null || echo 0)" "$WD/$3.log"
	timeout -k 30 "$limit" "${IN[@]}" "$1" \
	    -c "cd $2 && echo \$\$ >/tmp/$3.pid && PORT=$PORT exec tools/serve" \
	    >"$WD/$3.log" 2>&1 </dev/null &
	SV_JOB=$!
	JOBS="$JOBS $SV_JOB"
	for i in $(seq 1 $((limit / 2 + 1))); do
		grep -q '^listening on http://' "$WD/$3.log" && return 0
		lc_alive "$SV_JOB" || return 1
		sleep 2
	done
	return 1
}

# serve_stop NAME: SIGINT to tools/serve, as Ctrl-C; SV_RC: its status.
serve_stop() {
	local pid i
	pid=$(cat "$R/tmp/$1.pid" 2>/dev/null)
	# Still serve's, not a pid used again since.
	[ -n "$pid" ] && [ "$(readlink "/proc/$pid/root" 2>/dev/null)" = "$R" ] &&
	    kill -INT "$pid" 2>/dev/null
	for i in $(seq 1 "$LIM_STOP"); do
		lc_alive "$SV_JOB" || break
		sleep 1
	done
	kill -TERM "$SV_JOB" 2>/dev/null
	wait "$SV_JOB"
	SV_RC=$?
	jobs_del "$SV_JOB"
}

# The processes tools/serve starts: its lighttpd (-D) and the responders.
serve_leftovers() { chroot_ps | grep -E 'lighttpd -D|\.fcgi' || true; }

# purchase WHO LOG: the demo's staff (as LOG, the output of tools/serve,
# printed it) logs in, finds the staff's location and id, looks the demo
# punch card up and records a purchase on it through LT_URL. 6 points.
purchase() {
	local who=$1 before staff loc
	DEMO_STAFF_EMAIL='' DEMO_PUNCH_BARCODE=''
	lt_parse_demo "$2"
	ok "$who: tools/serve printed the demo's logins and cards" \
	    test -n "$DEMO_STAFF_EMAIL" -a -n "$DEMO_STAFF_PASSWORD" -a -n "$DEMO_PUNCH_BARCODE"
	if ! ok "$who: the demo staff $DEMO_STAFF_EMAIL logs in" \
	    lt_login "$DEMO_STAFF_EMAIL" "$DEMO_STAFF_PASSWORD"; then
		diag "  $LT_STATUS $LT_BODY"
		skip 4 "no login"
		return
	fi
	lt_req GET /api/v1/auth/me
	staff=$(lt_jq .id) loc=$(lt_jq .location.id)
	[ "$staff" = null ] && staff=''
	is "$LT_STATUS $loc ${staff:+id}" "200 $DEMO_LOCATION_ID id" \
	    "$who: /auth/me gives the staff's id and location" ||
	    diag "  $LT_BODY"
	lt_req POST /api/v1/cards/lookup "$(jq -cn --arg b "$DEMO_PUNCH_BARCODE" '{barcode_value: $b}')"
	before=$(lt_jq .data.current_punches)
	[[ $before =~ ^[0-9]+$ ]] || before=''
	is "$LT_STATUS $(lt_jq .data.card_instance_id) ${before:+n}" "200 $DEMO_PUNCH_CARD n" \
	    "$who: lookup of the demo punch card by its barcode" || diag "  $LT_BODY"
	lt_req POST /api/v1/transactions/record "$(jq -cn --arg c "$DEMO_PUNCH_CARD" \
	    --arg l "$loc" --arg s "$staff" --arg k "fresh-$who-1" '{card_instance_id: $c,
	    location_id: $l, staff_user_id: $s, purchase_amount: 4.5, punch_count: 1,
	    idempotency_key: $k}')"
	is "$LT_STATUS $(lt_jq .success) $(lt_jq .data.new_punch_count)" "200 true $((${before:-0} + 1))" \
	    "$who: a purchase is recorded, one punch more" || diag "  $LT_BODY"
	lt_req POST /api/v1/cards/lookup "$(jq -cn --arg b "$DEMO_PUNCH_BARCODE" '{barcode_value: $b}')"
	is "$LT_STATUS $(lt_jq .data.current_punches)" "200 $((${before:-0} + 1))" \
	    "$who: the card keeps the punch" || diag "  $LT_BODY"
}

# After a tools/serve of WHO stopped: nothing of it left, nothing on port 80.
after_serve() {
	local left
	left=$(serve_leftovers)
	is "$left" "" "$1: neither its lighttpd nor a responder is left running"
	if [ "$port80_free" = 1 ]; then
		left=$(chroot_ps | grep lighttpd)
		port80 && left="$left (port 80 answers)"
		is "$left" "" "$1: no system lighttpd runs, nothing listens on port 80"
	else
		skip 1 "port 80 was taken before the test"
	fi
}

phase
if serve_start root /root/p serve-root; then
	ok "root: tools/serve installs what it needs, builds and listens on port $PORT (nothing but git and ca-certificates before)" true
	phase_done "root: tools/serve up"
	phase
	label="root: purchase, stop"
	purchase root "$WD/serve-root.log"
	serve_stop serve-root
	is "$SV_RC" 130 "root: tools/serve exits (130) on SIGINT"
	after_serve root
else
	ok "root: tools/serve installs what it needs, builds and listens on port $PORT (nothing but git and ca-certificates before)" false
	diag_tail "$WD/serve-root.log" 40
	serve_stop serve-root
	skip 9 "tools/serve did not start"
	label="root: tools/serve (failed)"
fi
# The system's lighttpd service: tools/serve installed lighttpd, so it
# must have stopped and disabled the service, and said so.
links=$(cd "$R/etc" && ls -d rc[2-5].d/S*lighttpd 2>/dev/null | tr '\n' ' ')
[ -e "$R/etc/init.d/lighttpd" ] || links="(lighttpd is not installed)"
is "$links" "" "root: the system lighttpd service is disabled (no rc[2-5].d/S*lighttpd)"
said=$(grep -i lighttpd "$WD/serve-root.log" | grep -i disabl)
ok "root: tools/serve says it disabled the system lighttpd it installed" test -n "$said"
phase_done "$label"

# --- the normal user ----------------------------------------------------------

phase
# A package missing: tools/serve must say how to get it, and there is no
# sudo here: su - -c (a login shell: plain su keeps the user's PATH,
# without the sbin folders dpkg needs).
run "$(lim 600)" "$WD/remove.log" "${IN[@]}" root \
    -c "DEBIAN_FRONTEND=noninteractive apt-get remove -y -q $PKG" ||
    diag_tail "$WD/remove.log"
listened=0
serve_start "$U" "/home/$U/p" serve-missing && listened=1
serve_stop serve-missing
out=$(cat "$WD/serve-missing.log")
ok "$U, $PKG removed: tools/serve exits non-zero, serving nothing" \
    test "$listened" = 0 -a "$SV_RC" -ne 0 || diag "  listened: $listened, exit status $SV_RC"
like "$out" "$PKG" "$U: ... and names $PKG"
like "$out" "su - -c 'apt-get" "$U: ... with a command for su - -c"
ok "$U: ... and no sudo, which a fresh Debian lacks" test -z "$(grep -w sudo "$WD/serve-missing.log")" ||
    diag_tail "$WD/serve-missing.log" 10
# Its command, run as root (root's su asks no password) from the user's
# PATH, as the user would run it, installs it back.
cmd=$(sed -n 's/.*\(su - -c .*\)/\1/p' "$WD/serve-missing.log" | head -n 1)
if [ -n "$cmd" ]; then
	run "$(lim 900)" "$WD/reinstall.log" "${IN[@]}" root \
	    -c "export DEBIAN_FRONTEND=noninteractive PATH=/usr/local/bin:/usr/bin:/bin; $cmd"
else
	run "$(lim 900)" "$WD/reinstall.log" "${IN[@]}" root \
	    -c "DEBIAN_FRONTEND=noninteractive apt-get install -y -q $PKG"
fi
st=$(inside root "dpkg-query -W -f='\${Status}' $PKG" 2>/dev/null)
ok "$U: the su - -c command it printed, run as root, installs $PKG" \
    test -n "$cmd" -a "$st" = "install ok installed" || {
	diag "  the command: ${cmd:-(none)}"
	diag_tail "$WD/reinstall.log" 10
}
phase_done "$U: missing package"

phase
if serve_start "$U" "/home/$U/p" serve-user; then
	ok "$U: tools/serve builds in ~/p and listens on port $PORT" true
	phase_done "$U: tools/serve up"
	phase
	label="$U: purchase, stop"
	purchase "$U" "$WD/serve-user.log"
	serve_stop serve-user
	is "$SV_RC" 130 "$U: tools/serve exits (130) on SIGINT"
	after_serve "$U"
else
	ok "$U: tools/serve builds in ~/p and listens on port $PORT" false
	diag_tail "$WD/serve-user.log" 40
	serve_stop serve-user
	skip 9 "tools/serve did not start"
	label="$U: tools/serve (failed)"
fi
phase_done "$label"

# --- tools/check after tools/serve --------------------------------------------

phase
# The suites start servers of their own; the services of apache2 and
# postgresql would take ports 80 and 5432 of this machine.
policy 101 "no service starts"
tests="tests/fixtures_pg.sh tests/hosting.sh"
# Its make check ends first, so that tools/check names what did not end.
limit=$(lim "$LIM_CHECK")
env="LC_CHECK_TESTS='$tests' LC_CHECK_TIMEOUT=$((limit > 900 ? limit - 300 : limit * 2 / 3 + 1))"
[ -n "${LC_TEST_PORTS:-}" ] && env="$env LC_TEST_PORTS=$LC_TEST_PORTS"
# A tools/check that does not know LC_CHECK_TESTS would run every suite:
# make gets the list from MAKEFLAGS then (a point fails all the same).
if grep -q LC_CHECK_TESTS "$R/root/p/tools/check"; then
	ok "tools/check takes LC_CHECK_TESTS" true
else
	ok "tools/check takes LC_CHECK_TESTS" false
	diag "  it does not: the tests are given to make in MAKEFLAGS instead"
	env="$env MAKEFLAGS='TESTS=${tests// /\\ }'"
fi
diag "as root: $env tools/check --quick (in /root/p, after tools/serve built build/ without PostgreSQL)"
run "$limit" "$WD/check.log" "${IN[@]}" root -c "cd /root/p && $env tools/check --quick"
rc=$?
last=$(tail -n 1 "$WD/check.log")
ok "tools/check exits 0 and ends with 'N passed, 0 failed', N > 0" \
    test "$rc" -eq 0 -a -n "$(printf '%s\n' "$last" | grep -E '^[1-9][0-9]* passed, 0 failed$')" ||
    { diag "  exit status $rc, last line '$last'"; diag_tail "$WD/check.log" 40; }
b=$R/root/p/build
ran=$(cd "$b" 2>/dev/null && ls tests/*.trs 2>/dev/null | sed 's/\.trs$//' | tr '\n' ' ')
is "${ran% }" "$tests" "tools/check ran just the tests of LC_CHECK_TESTS"
for t in $tests; do
	res=$(sed -n 's/^:global-test-result: //p' "$b/$t.trs" 2>/dev/null)
	is "$res" PASS "$t passes in /root/p, after tools/serve's build" || {
		grep -h 'no PostgreSQL backend' "$b/$t.log" 2>/dev/null | head -n 3 |
		    while IFS= read -r l; do diag "  $l"; done
		grep -hE '^not ok|^Bail out|^# ' "$b/$t.log" 2>/dev/null | head -n 15 |
		    while IFS= read -r l; do diag "  $l"; done
	}
done
# tools/check installed Apache and PostgreSQL for those tests: the
# services Debian's packages start with them are stopped and disabled.
links=$(cd "$R/etc" && ls -d rc[2-5].d/S*apache2 rc[2-5].d/S*postgresql rc[2-5].d/S*pgbouncer 2>/dev/null | tr '\n' ' ')
is "${links% }" "" "tools/check disabled the system Apache, PostgreSQL and pgbouncer services it installed"
said=$(grep -i 'apache2.*disabled\|disabled.*apache2' "$WD/check.log" | head -n 1)
ok "tools/check says it stopped and disabled them" test -n "$said"
extra=$(inside root 'for p in chromium nodejs gcc-aarch64-linux-gnu qemu-user clang; do
	dpkg-query -W -f="\${Status} \${Package}\n" $p 2>/dev/null; done' | awk '/ installed /{ print $4 }' | tr '\n' ' ')
is "${extra% }" "" "tools/check installed none of the packages those two do not need"
phase_done "tools/check"
# Where tools/check's time went (its summary).
grep -E '^[a-z]+: .*\([0-9]+ s\)$|^total time' "$WD/check.log" |
    while IFS= read -r l; do diag "tools/check: $l"; done

# Nothing of the steps may outlive them (a test's server, a responder).
# A few seconds' grace for what is on its way out.
for _ in 1 2 3 4 5; do
	[ -z "$(chroot_pids)" ] && break
	sleep 1
done
is "$(chroot_ps)" "" "nothing runs in the chroot any more"

read -r fetched total <<<"$(apt_bytes "$WD"/serve-*.log "$WD"/reinstall.log "$WD/check.log")"
diag "apt in the chroot: $(mb "$total") of packages, $(mb $((total - fetched))) of them from this machine's cache"
diag "times: $TIMES"
diag "total: $(($(date +%s) - t_start)) s"
done_testing
