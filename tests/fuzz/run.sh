#!/usr/bin/env bash
#
# Builds the fuzz targets (tests/fuzz/fuzz_*.c) with clang's libFuzzer,
# AddressSanitizer (with LeakSanitizer) and UBSan, and runs each for
# SECONDS (default 30) from a copy of its corpus, tests/fuzz/corpus/NAME/,
# so a run adds no file to the repository. Prints the executions of each
# target and exits non-zero on a build failure or on any crash, leak,
# timeout (an input running over 20 s) or sanitizer report, printing the
# path of the input that did it. The last line is "fuzz: N passed, N
# failed", N counting targets.
#
#   tests/fuzz/run.sh [SECONDS]
#
# The build does not need ./configure: it compiles lib/*.c and
# lib/lc_schema.c (generated from the migrations Makefile.am lists, with
# tools/sql2c.sh) straight into a folder of its own, on SQLite: the
# PostgreSQL backend's files (built with --with-postgresql) are left out.
#
# It installs nothing. On Debian 12 it needs:
#
#   apt-get update
#   apt-get install -y clang libclang-rt-14-dev pkg-config libsqlite3-dev \
#       libjson-c-dev libfcgi-dev libscrypt-dev libqrencode-dev libssl-dev \
#       libcurl4-openssl-dev
#
# (libFuzzer's runtime, libclang_rt.fuzzer-x86_64.a, is in libclang-rt-14-dev,
# which clang only recommends: an install with --no-install-recommends
# leaves it out.)
#
# Environment:
#   CC             the compiler (default clang)
#   FUZZ_OUT       the folder for the build, the logs and crashing inputs,
#                  kept (default a new one under ${TMPDIR:-/tmp}, removed
#                  after a clean run unless FUZZ_KEEP=1)
#   FUZZ_TARGETS   the targets to run, by name (default: all), e.g. "json util"
#   FUZZ_FLAGS     more libFuzzer flags for every run
#   ASAN_OPTIONS, UBSAN_OPTIONS   override the defaults below
#
# Targets (one C file each; the file's comment says what it feeds and
# checks):
#   request   lc_req_read on a fake CGI environment and body
#   json      lc_json_check, lc_json_parse_ex and the lc_in_* readers
#   util      decimals, times, query strings, base64 and UTF-8
#   handler   a whole request through the server's own lc_serve_one and
#             an endpoint's handler, on a throwaway database
#
# tests/fuzz/seed-corpus.sh makes the corpora from tests/fixtures/.
set -u
export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
secs=${1:-30}
CC=${CC:-clang}
PACKAGES="clang libclang-rt-14-dev pkg-config libsqlite3-dev libjson-c-dev \
libfcgi-dev libscrypt-dev libqrencode-dev libssl-dev libcurl4-openssl-dev"

say()
{
	printf 'fuzz: %s\n' "$*" >&2
}

die()
{
	say "$*"
	exit 1
}

need_packages()
{
	say "$*"
	say "on Debian 12: apt-get update && apt-get install -y $PACKAGES"
	exit 1
}

# The most each target's inputs may grow to.
max_len()
{
	case $1 in
	util) echo 256 ;;
	json) echo 32768 ;;
	*) echo 8192 ;;
	esac
}

case $secs in
'' | *[!0-9]* | 0) die "usage: tests/fuzz/run.sh [SECONDS] (a whole number above 0)" ;;
esac
[ $# -le 1 ] || die "usage: tests/fuzz/run.sh [SECONDS]"

command -v "$CC" >/dev/null 2>&1 || need_packages "no $CC"
command -v pkg-config >/dev/null 2>&1 || need_packages "no pkg-config"
PKGS="sqlite3 json-c fcgi libqrencode libcurl libcrypto"
# shellcheck disable=SC2086 # a list of names
pkg-config --exists $PKGS ||
    need_packages "pkg-config does not find all of: $PKGS"
# libscrypt has no pkg-config file.
printf '#include <libscrypt.h>\n' | "$CC" -E -x c - >/dev/null 2>&1 ||
    need_packages "no libscrypt.h"

if [ -n "${FUZZ_OUT:-}" ]; then
	out=$FUZZ_OUT
	mkdir -p "$out" || die "cannot make $out"
else
	out=$(mktemp -d "${TMPDIR:-/tmp}/lc-fuzz.XXXXXX") ||
	    die "cannot make a folder under ${TMPDIR:-/tmp}"
fi
out=$(cd "$out" && pwd)
mkdir -p "$out/obj" "$out/bin" "$out/log" "$out/corpus" "$out/artifacts" \
    "$out/tmp" || die "cannot make the folders in $out"

# libFuzzer's runtime is a package of its own on Debian.
printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
    'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)' \
    '{ (void)d; (void)n; return 0; }' >"$out/obj/probe.c"
"$CC" -fsanitize=fuzzer,address,undefined "$out/obj/probe.c" \
    -o "$out/obj/probe" >"$out/log/probe.log" 2>&1 || {
	cat "$out/log/probe.log" >&2
	need_packages "$CC cannot link a libFuzzer target (libclang_rt.fuzzer missing?)"
}

# pkg-config's words are meant to split; the commas are -fsanitize's.
# shellcheck disable=SC2054,SC2086,SC2207
cflags=(-std=c11 -Wall -Wextra -g -O1 -fno-omit-frame-pointer
    -fsanitize=address,undefined -fno-sanitize-recover=undefined
    -D_GNU_SOURCE "-I$src/lib" '-DLC_DEFAULT_DB="/nonexistent/loyalty.db"'
    '-DLC_SBINDIR="/nonexistent/sbin"'
    $(pkg-config --cflags $PKGS))
# shellcheck disable=SC2086,SC2207
libs=($(pkg-config --libs $PKGS) -lscrypt -lm)

# lib/lc_schema.c, as Makefile.am makes it.
schema=$(sed -n '/^SCHEMA_FILES =/,/(NULL)/p' "$src/Makefile.am" |
    grep -o 'schema/[^ ]*\.sql')
[ -n "$schema" ] || die "no SCHEMA_FILES in Makefile.am"
# shellcheck disable=SC2086 # a list of paths without blanks
(cd "$src" && sh tools/sql2c.sh $schema) >"$out/obj/lc_schema.c" ||
    die "tools/sql2c.sh failed"

# The library, instrumented for coverage: lib/*.c, one file a processor
# at a time.
say "building in $out"
jobs=$(nproc 2>/dev/null || echo 2)
fail=0
objs=()
n=0
for f in "$src"/lib/*.c "$out/obj/lc_schema.c"; do
	b=$(basename "$f" .c)
	# A stale in-tree lib/lc_schema.c: the one made above is used.
	[ "$f" = "$src/lib/lc_schema.c" ] && continue
	# The PostgreSQL backend (./configure --with-postgresql): without
	# LC_WITH_POSTGRESQL, lib/db.c never calls it.
	case $b in db_pg* | admin_migrate | lc_schema_pg) continue ;; esac
	objs+=("$out/obj/$b.o")
	"$CC" "${cflags[@]}" -fsanitize=fuzzer-no-link -c "$f" -o "$out/obj/$b.o" \
	    >"$out/log/build-$b.log" 2>&1 &
	n=$((n + 1))
	if [ "$n" -ge "$jobs" ]; then
		wait -n || fail=1
		n=$((n - 1))
	fi
done
while [ "$n" -gt 0 ]; do
	wait -n || fail=1
	n=$((n - 1))
done
if [ "$fail" -ne 0 ]; then
	cat "$out"/log/build-*.log >&2
	die "the library did not build (logs in $out/log)"
fi
rm -f "$out/obj/liblcard.a"
ar cr "$out/obj/liblcard.a" "${objs[@]}" || die "ar failed"

targets=${FUZZ_TARGETS:-$(cd "$here" && printf '%s\n' fuzz_*.c |
    sed 's/^fuzz_//; s/\.c$//')}
for t in $targets; do
	[ -f "$here/fuzz_$t.c" ] || die "no target $t (tests/fuzz/fuzz_$t.c)"
	"$CC" "${cflags[@]}" -fsanitize=fuzzer "$here/fuzz_$t.c" \
	    "$out/obj/liblcard.a" "${libs[@]}" -o "$out/bin/fuzz_$t" \
	    >"$out/log/build-fuzz_$t.log" 2>&1 || {
		cat "$out/log/build-fuzz_$t.log" >&2
		die "fuzz_$t did not build"
	}
	if [ -s "$out/log/build-fuzz_$t.log" ]; then
		cat "$out/log/build-fuzz_$t.log" >&2
	fi
done

# As tools/check sets them.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:strict_string_checks=1:\
detect_stack_use_after_return=1:check_initialization_order=1:\
disable_coredump=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# The handler target's databases, removed with this folder.
export TMPDIR=$out/tmp

# A sanitizer's or libFuzzer's report in a log.
REPORT='runtime error:|ERROR: (Address|Leak|Undefined)Sanitizer|ERROR: libFuzzer'
passed=0
failed=0
for t in $targets; do
	log=$out/log/fuzz_$t.log
	corpus=$out/corpus/$t
	mkdir -p "$corpus" || die "cannot make $corpus"
	if [ -d "$here/corpus/$t" ]; then
		cp -R "$here/corpus/$t/." "$corpus/" || die "cannot copy the corpus of $t"
	else
		say "note: no corpus for $t (tests/fuzz/corpus/$t/)"
	fi
	say "running fuzz_$t for $secs s"
	# shellcheck disable=SC2086
	"$out/bin/fuzz_$t" -max_total_time="$secs" -max_len="$(max_len "$t")" \
	    -timeout=20 -print_final_stats=1 -artifact_prefix="$out/artifacts/$t-" \
	    ${FUZZ_FLAGS:-} "$corpus" >"$log" 2>&1 </dev/null
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1)
	if [ "$rc" -eq 0 ] && ! grep -qE "$REPORT" "$log"; then
		passed=$((passed + 1))
		printf 'fuzz_%s: ok, %s executions in %s s (%s)\n' "$t" \
		    "${execs:-?}" "$secs" "$(printf '%s' "$done_line" | tr -s '\t ' ' ')"
		continue
	fi
	failed=$((failed + 1))
	printf 'fuzz_%s: FAILED (exit status %s) after %s executions\n' "$t" "$rc" \
	    "${execs:-?}"
	grep -E "^fuzz_[a-z]+: |^SUMMARY: |$REPORT|Test unit written|^Base64: " \
	    "$log" |
	    head -20 | sed 's/^/    /'
	sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" |
	    while IFS= read -r a; do
		printf '    crashing input: %s (replay: %s %s)\n' "$a" \
		    "$out/bin/fuzz_$t" "$a"
	done
	printf '    log: %s\n' "$log"
done

printf 'fuzz: %d passed, %d failed\n' "$passed" "$failed"
if [ "$failed" -gt 0 ]; then
	say "kept $out (logs, inputs, binaries)"
	exit 1
fi
if [ "${FUZZ_KEEP:-0}" = 1 ] || [ -n "${FUZZ_OUT:-}" ]; then
	say "kept $out"
else
	rm -rf "$out"
fi
exit 0
