#!/usr/bin/env bash
#
# Makes the fuzz targets' seed corpora, tests/fuzz/corpus/NAME/, from the
# requests of the CGI fixtures (tests/fixtures/**/*.case, grammar in the
# header of tests/fixtures.sh), in each target's input layout (the header
# of tests/fuzz/fuzz_NAME.c):
#
#   request   a request's CGI variables and body (large bodies as the
#             stretched body of byte 0)
#   json      the request bodies
#   handler   the endpoint's row, the "as USER" token, the request's
#             variables and body; ${VAR} stays for the target to replace
#   util      the numbers, client timestamps and query strings of the
#             requests, base64 texts, and the string values and bodies
#             for UTF-8
#
# Each corpus is a few dozen small files, picked evenly over the sorted
# fixtures of each folder (of each endpoint for the handler), named by the
# SHA-1 of their content as libFuzzer names them; the same fixtures give
# the same files. The folders are replaced whole. It takes a minute or two.
#
#   tests/fuzz/seed-corpus.sh
set -u
export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
out=$here/corpus
PER_DIR=5		# seeds of a kind per fixture folder
MAX_SIZE=8192		# the largest seed but json's (run.sh's -max_len)
JSON_MAX_SIZE=32768
BODY_MAX=1048576	# LC_BODY_MAX

die()
{
	printf 'seed-corpus: %s\n' "$*" >&2
	exit 1
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/lc-seed.XXXXXX") || die "no temporary folder"
trap 'rm -rf "$tmp"' EXIT

# The endpoint rows in lc_endpoints[] order: the handler's byte 0.
# lib/endpoints.def's rows as its generator reads them, then notfound,
# endpoints.c's last row.
mapfile -t endpoints < <(sh "$src/tools/gen-endpoints" -l | cut -d' ' -f1 &&
    echo notfound)
[ "${#endpoints[@]}" -gt 1 ] || die "no endpoint rows in lib/endpoints.def"

endpoint_index()
{
	local i

	for i in "${!endpoints[@]}"; do
		if [ "${endpoints[$i]}" = "$1" ]; then
			echo "$i"
			return 0
		fi
	done
	return 1
}

# One candidate: stdin into $tmp/cand/KIND/GROUP/N (KIND a target or a
# util kind, GROUP the fixture folder), deduplicated by content later.
ncand=0
candidate()
{
	local d=$tmp/cand/$1/$2

	mkdir -p "$d" || die "cannot make $d"
	ncand=$((ncand + 1))
	cat >"$d/$(printf '%06d' "$ncand")" || die "cannot write a candidate"
}

byte()
{
	printf "\\$(printf '%03o' "$1")"
}

# The request being read (globals, reset by new_request).
new_request()
{
	r_name=$1
	r_method=POST
	r_uri=
	r_has_uri=0
	r_vars=()
	r_unset=()
	r_as=
	r_body=
	r_has_body=0
	r_body_file=
	r_big=0
}

# The request's CGI variables, one NAME=VALUE a line. For the request
# target (handler 0) with the defaults of a body of length $2 written out
# and an unset variable left out; for the handler (1), which makes the
# defaults itself, with an unset variable as NAME alone.
request_env()
{
	local handler=$1 len=$2 v u

	printf 'REQUEST_METHOD=%s\n' "$r_method"
	if [ "$r_has_uri" = 1 ]; then
		printf 'REQUEST_URI=%s\n' "$r_uri"
		case $r_uri in
		*\?*) printf 'QUERY_STRING=%s\n' "${r_uri#*\?}" ;;
		*) printf 'QUERY_STRING=\n' ;;
		esac
	elif [ "$handler" = 1 ]; then
		printf 'REQUEST_URI\n'
	fi
	if [ "$handler" = 0 ]; then
		[ -z "$r_as" ] ||
		    printf 'HTTP_AUTHORIZATION=Bearer ${%s_TOKEN}\n' \
		    "$(printf '%s' "$r_as" | tr 'a-z' 'A-Z')"
		if [ "$r_has_body" = 1 ]; then
			for v in "CONTENT_LENGTH=$len" \
			    "CONTENT_TYPE=application/json"; do
				for u in "${r_unset[@]}"; do
					[ "${v%%=*}" != "$u" ] || continue 2
				done
				printf '%s\n' "$v"
			done
		fi
	fi
	for v in "${r_vars[@]}"; do
		printf '%s\n' "$v"
	done
	if [ "$handler" = 1 ]; then
		for v in "${r_unset[@]}"; do
			printf '%s\n' "$v"
		done
	fi
}

# The body's bytes into $tmp/body (r_big: its full length when it was cut
# to a repeated head for being over MAX_SIZE).
request_body()
{
	: >"$tmp/body"
	if [ -n "$r_body_file" ]; then
		cat "$r_body_file" >"$tmp/body" || die "cannot read $r_body_file"
	else
		printf '%s' "$r_body" >"$tmp/body"
	fi
}

# Ends the request read: its candidates.
flush_request()
{
	local group=$1 idx as=0 size b0 rgroup

	[ -n "${r_name:-}" ] || return 0
	request_body
	size=$(wc -c <"$tmp/body")
	# The request target: byte 0, the variables, the body; the few large
	# bodies kept apart, so that they are all seeds.
	b0=0
	rgroup=$group
	if [ "$r_big" -gt 0 ]; then
		rgroup=extra
		b0=$((r_big >= BODY_MAX + 1 ? 240 : 112))
	fi
	{
		byte "$b0"
		request_env 0 "$([ "$r_big" -gt 0 ] && echo "$r_big" || echo "$size")"
		if [ "$r_has_body" = 1 ]; then
			printf '\n'
			cat "$tmp/body"
		fi
	} | candidate request "$rgroup"
	# The JSON target: the body alone.
	if [ "$r_has_body" = 1 ] && [ "$r_big" -eq 0 ] && [ "$size" -gt 0 ]; then
		candidate json "$group" <"$tmp/body"
	fi
	# The handler target.
	if idx=$(endpoint_index "$r_name") && [ "$r_big" -eq 0 ]; then
		case $r_as in
		staff) as=1 ;;
		staff2) as=2 ;;
		owner) as=3 ;;
		owner2) as=4 ;;
		esac
		{
			byte "$idx"
			byte "$as"
			request_env 1 "$size"
			if [ "$r_has_body" = 1 ]; then
				printf '\n'
				cat "$tmp/body"
			fi
		} | candidate handler "$r_name"
	fi
	util_values "$group"
	r_name=
}

# The util target's texts, one a line, into $tmp/vals/KIND/GROUP.
util_values()
{
	local group=$1 q v d=$tmp/vals

	mkdir -p "$d/decimal" "$d/time" "$d/query" "$d/b64" "$d/utf8" ||
	    die "cannot make $d"
	if [ "$r_has_body" = 1 ] && [ "$r_big" -eq 0 ]; then
		grep -aoE ':-?[0-9][0-9.eE+-]*' "$tmp/body" | cut -c2- \
		    >>"$d/decimal/$group"
		grep -aoE '"client_timestamp": *"[^"]*"' "$tmp/body" |
		    sed 's/.*: *"//; s/"$//' >>"$d/time/$group"
		grep -aoE '"qr_code_data": *"[A-Za-z0-9+/=]*"' "$tmp/body" |
		    sed 's/.*: *"//; s/"$//' >>"$d/b64/$group"
		grep -aoE '"[^"\\]+"' "$tmp/body" | tr -d '"' \
		    >>"$d/utf8/$group"
	fi
	case $r_uri in
	*\?*)
		q=${r_uri#*\?}
		printf '%s\n' "$q" >>"$d/query/$group"
		for v in from to; do
			case $q in
			*"$v="*)
				v=${q#*"$v="}
				printf '%s\n' "${v%%&*}" >>"$d/time/$group"
				;;
			esac
		done
		;;
	esac
}

# The util candidates from the texts: up to k distinct ones a group.
util_candidates()
{
	local k=$1 kind sel par f v name

	for kind in decimal time query b64 utf8; do
		case $kind in
		decimal) sel=0 par=2 ;;
		time) sel=1 par=0 ;;
		query) sel=2 par=64 ;;
		b64) sel=3 par=255 ;;
		utf8) sel=4 par=0 ;;
		esac
		for f in "$tmp/vals/$kind"/*; do
			[ -s "$f" ] || continue
			sort -u "$f" | awk -v k="$k" '
			    { v[NR] = $0 }
			    END { n = NR < k ? NR : k
				for (i = 0; i < n; i++) print v[1 + int(i * NR / n)] }' |
			    while IFS= read -r v; do
				if [ "$kind" = query ]; then
					name=${v%%=*}
					name=${name%%&*}
					v=$name$'\n'$v
				fi
				{ byte "$sel"; byte "$par"; printf '%s' "$v"; } |
				    candidate "$kind" "$(basename "$f")"
				# Money and rates both.
				[ "$kind" != decimal ] ||
				    { byte 0; byte 9; printf '%s' "$v"; } |
				    candidate "$kind" "$(basename "$f")"
			done
		done
	done
}

# Reads one case file.
read_case()
{
	local f=$1 group=$2 line kw arg n c name

	new_request ""
	r_name=
	while IFS= read -r line || [ -n "$line" ]; do
		line=${line%$'\r'}
		line=${line#"${line%%[![:blank:]]*}"}
		kw=${line%%[[:blank:]]*}
		arg=
		[ "$kw" = "$line" ] || arg=${line#"$kw"}
		arg=${arg#"${arg%%[![:blank:]]*}"}
		case $kw in
		request)
			flush_request "$group"
			new_request "$arg"
			;;
		method) r_method=$arg ;;
		uri)
			r_uri=$arg
			r_has_uri=1
			;;
		header)
			name=${arg%%:*}
			c=${arg#*:}
			c=${c#"${c%%[![:blank:]]*}"}
			name=$(printf '%s' "$name" | tr 'a-z-' 'A-Z_')
			case $name in
			CONTENT_TYPE | CONTENT_LENGTH) ;;
			*) name=HTTP_$name ;;
			esac
			r_vars+=("$name=$c")
			;;
		env) r_vars+=("$arg") ;;
		unset) r_unset+=("$arg") ;;
		as) r_as=$arg ;;
		body)
			r_has_body=1
			r_body=$arg
			;;
		body-bytes)
			r_has_body=1
			n=${arg%%[[:blank:]]*}
			c=${arg#*[[:blank:]]}
			if [ "$n" -gt "$MAX_SIZE" ]; then
				r_big=$n
				n=64
			fi
			r_body=$(printf "%${n}s" "" | tr ' ' "${c:0:1}")
			;;
		body-pad)
			r_has_body=1
			n=${arg%%[[:blank:]]*}
			c=${arg#*[[:blank:]]}
			if [ "$n" -gt "$MAX_SIZE" ]; then
				r_big=$n
				r_body=$c
			else
				r_body=$(printf "%$((n - ${#c}))s%s" "" "$c")
			fi
			;;
		body-file)
			r_has_body=1
			r_body_file=$(dirname "$f")/$arg
			;;
		esac
	done <"$f"
	flush_request "$group"
}

# Picks up to k files of $tmp/cand/KIND/* (extra_k of the folder "extra",
# default 12), evenly over each folder's sorted candidates, distinct and
# at most max bytes, into dest (named by SHA-1).
pick()
{
	local kind=$1 k=$2 max=$3 dest=$4 extra_k=${5:-12}
	local g n i j kk sum f size
	local -a sums files

	mkdir -p "$dest" || die "cannot make $dest"
	[ -d "$tmp/cand/$kind" ] || return 0
	for g in "$tmp/cand/$kind"/*; do
		# Distinct contents, in order.
		sums=()
		files=()
		while read -r sum f; do
			size=$(stat -c %s "$f") || die "cannot read $f"
			[ "$size" -le "$max" ] || continue
			[ ! -e "$dest/$sum" ] || continue
			case " ${sums[*]} " in *" $sum "*) continue ;; esac
			sums+=("$sum")
			files+=("$f")
		done < <(sha1sum "$g"/*)
		n=${#files[@]}
		[ "$n" -gt 0 ] || continue
		kk=$k
		[ "$(basename "$g")" != extra ] || kk=$extra_k
		for ((i = 0; i < kk && i < n; i++)); do
			j=$((i * n / (kk < n ? kk : n)))
			cp "${files[$j]}" "$dest/${sums[$j]}" ||
			    die "cannot write $dest"
		done
	done
}

found=0
while IFS= read -r f; do
	g=$(basename "$(dirname "$f")")
	read_case "$f" "$g"
	found=$((found + 1))
done < <(find "$src/tests/fixtures" -name '*.case' -type f | sort)
[ "$found" -gt 0 ] || die "no fixtures in tests/fixtures"
util_candidates 2

# Base64 and UTF-8 beyond the fixtures' bodies.
for v in "" f fo foo foob fooba foobar "$(printf '\001\377\376')"; do
	{ byte 3; byte 255; printf '%s' "$v" | base64 -w0; } |
	    candidate b64 extra
done
for v in "QQ==" "QR==" "QUI=" "QUJ=" "====" "A===" "AA=A" "Zm9v" "Zm9v===="; do
	{ byte 3; byte 8; printf '%s' "$v"; } | candidate b64 extra
done
for f in "$src"/tests/fixtures/http/*.body "$src"/tests/fixtures/http/*.json; do
	[ -f "$f" ] || continue
	case $f in
	*.body) { byte 4; byte 0; cat "$f"; } | candidate utf8 extra ;;
	esac
	candidate json extra <"$f"
done
for v in "12.50" "0.05" "1e2" "1E-2" "-0" "-0.00" "0.001" "1000000.00" \
    "9223372036854775807" "1.5e999"; do
	{ byte 0; byte 2; printf '%s' "$v"; } | candidate decimal extra
	{ byte 0; byte 19; printf '%s' "$v"; } | candidate decimal extra
done
for v in "2026-03-01" "2026-03-01T10:00:00Z" "2026-03-01T10:00:00.123Z" \
    "2026-03-01T10:00:00.123456+05:30" "0001-01-01T00:00:00-01:00" \
    "9999-12-31T23:59:59.999+00:00" "2024-02-29"; do
	{ byte 1; byte 0; printf '%s' "$v"; } | candidate time extra
done

rm -rf "$out/request" "$out/json" "$out/handler" "$out/util"
# Two stretched bodies: a megabyte each run is slow, and the fuzzer
# stretches others by itself.
pick request 4 "$MAX_SIZE" "$out/request" 2
pick json "$PER_DIR" "$JSON_MAX_SIZE" "$out/json"
pick handler 3 "$MAX_SIZE" "$out/handler"	# 3 an endpoint
for k in decimal time query b64 utf8; do
	pick "$k" 2 256 "$out/util"
done
for t in request json handler util; do
	printf 'seed-corpus: %s: %d files\n' "$t" \
	    "$(find "$out/$t" -type f | wc -l)"
done
