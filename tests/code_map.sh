#!/usr/bin/env bash
# docs/code-map.md names every source file of the repository once, each
# under the heading of its folder, and names nothing that is not there.
#
# What counts: every file `git ls-files` lists, except images (.png, .svg,
# .jpg, .jpeg, .gif, .ico, .webp: the pages' icons). The files of these
# folders are named by the folder alone, one entry ending in "/":
#   tests/fixtures/      the API's cases, one folder each
#   tests/fuzz/corpus/   the fuzzers' seed inputs
#   htdocs/vendor/       a third party's browser library and its licences
#   tools/bundle-patches/  patches to third parties' sources
# An entry is a line "- `PATH`: what it is for" (only the first backticked
# word of a list line counts); a heading "## DIR/" holds the entries of
# the files directly in DIR/ ("## ./" the repository's top folder), and a
# folder entry sits under its parent's heading.
#
# Outside a git checkout (the tree `make distcheck` unpacks) there is no
# list of tracked files: the points are skipped.
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
map=docs/code-map.md
whole='tests/fixtures/ tests/fuzz/corpus/ htdocs/vendor/ tools/bundle-patches/'

n=0 failed=0
point() {	# STATUS DESC [DIAG LINES]
	local st=$1 d=$2
	shift 2
	n=$((n + 1))
	if [ "$st" -eq 0 ]; then
		echo "ok $n - $d"
	else
		echo "not ok $n - $d"
		failed=$((failed + 1))
		[ $# -gt 0 ] && printf '%s\n' "$@" | sed 's/^/# /'
	fi
}

cd "$top_srcdir" || exit 1
root=$(git rev-parse --show-toplevel 2>/dev/null || :)
if [ -z "$root" ] || [ "$(cd "$root" && pwd -P)" != "$(pwd -P)" ]; then
	echo "1..0 # SKIP not a git checkout: no list of tracked files"
	exit 0
fi
if [ ! -r "$map" ]; then
	echo "1..1"
	echo "not ok 1 - $map exists"
	exit 1
fi

# The map's entries, as "LINE HEADING PATH".
entries=$(awk '
	/^## / { h = substr($0, 4); gsub(/`/, "", h); sub(/[ \t]+$/, "", h); next }
	/^- `[^`]+`/ {
		p = $0; sub(/^- `/, "", p); sub(/`.*/, "", p)
		printf "%d %s %s\n", NR, (h == "" ? "(none)" : h), p
	}' "$map")
headings=$(awk '/^## / { h = substr($0, 4); gsub(/`/, "", h); print h }' "$map")

# The heading a path belongs under: its folder, "./" at the top.
heading_of() {
	local p=${1%/} d
	case $p in */*) d=${p%/*}/ ;; *) d=./ ;; esac
	echo "$d"
}

# Where to add a missing name, as a sentence.
where() {
	local h
	h=$(heading_of "$1")
	if printf '%s\n' "$headings" | grep -qxF -- "$h"; then
		echo "under the heading \"## $h\""
	else
		echo "under a new heading \"## $h\" (the map has none yet; headings are folders, in the order of the tree)"
	fi
}

# --- every tracked file is named --------------------------------------------
named=$(printf '%s\n' "$entries" | awk 'NF >= 3 { print $3 }')
missing=()
while IFS= read -r f; do
	case $f in
	*.png | *.svg | *.jpg | *.jpeg | *.gif | *.ico | *.webp) continue ;;
	esac
	cover=$f
	for w in $whole; do
		case $f in "$w"*) cover=$w ;; esac
	done
	printf '%s\n' "$named" | grep -qxF -- "$cover" && continue
	# One line per folder named whole, not one per file in it.
	case " ${missing[*]-} " in *" $cover "*) continue ;; esac
	missing+=("$cover")
done < <(git ls-files)
msgs=()
for f in ${missing[@]+"${missing[@]}"}; do
	msgs+=("$f is not named in $map: add a line \"- \`$f\`: what it is for\" $(where "$f")")
done
point "${#missing[@]}" "every tracked source file is named in $map" \
    ${msgs[@]+"${msgs[@]}"}

# --- named once ---------------------------------------------------------------
dups=$(printf '%s\n' "$named" | sort | uniq -d)
msgs=()
for f in $dups; do
	msgs+=("$f is named more than once in $map (lines $(printf '%s\n' "$entries" | awk -v f="$f" '$3 == f { printf "%s%s", s, $1; s = ", " }')): keep one")
done
point "${#msgs[@]}" "no file is named twice" ${msgs[@]+"${msgs[@]}"}

# --- every name is there ------------------------------------------------------
msgs=()
while read -r line h p; do
	[ -n "${p:-}" ] || continue
	case $p in
	*/) [ -d "$p" ] || msgs+=("$map:$line names $p, and there is no such folder: remove the line or correct the name") ;;
	*) [ -f "$p" ] || msgs+=("$map:$line names $p, and there is no such file: remove the line or correct the name") ;;
	esac
done <<<"$entries"
point "${#msgs[@]}" "every named file exists" ${msgs[@]+"${msgs[@]}"}

# --- under its folder's heading, folders only where allowed --------------------
msgs=()
while read -r line h p; do
	[ -n "${p:-}" ] || continue
	want=$(heading_of "$p")
	[ "$h" = "$want" ] ||
	    msgs+=("$map:$line names $p under \"## $h\": move it $(where "$p")")
	case $p in */)
		case " $whole " in *" $p "*) ;; *)
			msgs+=("$map:$line names the folder $p whole: name its files one by one (only $whole are named whole; see tests/code_map.sh)") ;;
		esac ;;
	esac
done <<<"$entries"
point "${#msgs[@]}" "each entry sits under its folder's heading; only the listed folders are named whole" \
    ${msgs[@]+"${msgs[@]}"}

echo "1..$n"
[ "$failed" -eq 0 ]
