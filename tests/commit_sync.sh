#!/usr/bin/env bash
# A write's answer is written only once its commit is durable. The write
# path syncs the log (the database's -wal file) itself after COMMIT, out
# of the write lock (lib/db_sqlite.c, sq_commit); this watches, with
# strace, the system calls of the record responder run as plain CGI, and
# checks their order for a purchase, its replay under the same key, and
# a sync batch's items:
#
# - the transaction's frames are written to the -wal file, then the
#   -wal file is synced, then the first byte of the answer is written;
# - the write turn (byte 1 of the -queue file) is given back before that
#   sync (a writer never holds the others up while it syncs);
# - a replay of the key writes no frame and still syncs before answering
#   (the write it repeats may be another process's, not yet synced);
# - each sync item's commit is synced before the batch's answer.
. "$top_srcdir/tests/lib.sh"

command -v strace >/dev/null || bail "strace is not installed (tools/check installs it)"
command -v jq >/dev/null || bail "jq is not installed"
ADMIN="$top_builddir/tools/loyalty-admin"
W=$(mktemp -d "${TMPDIR:-/tmp}/loyalty-commit-sync.XXXXXX") || bail mktemp
trap '[ -n "${KEEP:-}" ] || rm -rf "$W"' EXIT
DB=$W/l.db
"$ADMIN" --db "$DB" demo >"$W/demo" 2>&1 || bail "loyalty-admin demo failed"
lt_parse_demo "$W/demo"

# cgi NAME PATH BODY [TOKEN]: the answer's body on stdout.
cgi() {
	printf '%s' "$3" | env -i LOYALTY_DB="$DB" REQUEST_METHOD=POST \
	    REQUEST_URI="$2" CONTENT_TYPE=application/json \
	    CONTENT_LENGTH=${#3} ${4:+HTTP_AUTHORIZATION="Bearer $4"} \
	    "$top_builddir/cgi-bin/$1.fcgi" | sed '1,/^\r\{0,1\}$/d'
}
# traced NAME PATH BODY TOKEN: as cgi, the system calls in $W/trace.
traced() {
	printf '%s' "$3" | env -i LOYALTY_DB="$DB" REQUEST_METHOD=POST \
	    REQUEST_URI="$2" CONTENT_TYPE=application/json \
	    CONTENT_LENGTH=${#3} HTTP_AUTHORIZATION="Bearer $4" \
	    strace -q -y -e trace=pwrite64,write,fsync,fdatasync,fcntl \
	    -o "$W/trace" "$top_builddir/cgi-bin/$1.fcgi" | sed '1,/^\r\{0,1\}$/d'
}
# The line numbers in the trace, before the answer, of: the last frame
# written to the log, the last sync of the log, the last release of the
# write turn; and of the first write of the answer (fd 1); then how many
# writes to the log there were. (After it, the process's exit: its
# checkpoint syncs the log again.)
marks() {
	awk -v db="$DB" '
	    /^write\(1</ { answer = NR; exit }
	    /^pwrite64\(/ && index($0, db "-wal>") { frame = NR; writes++ }
	    /^f(data)?sync\(/ && index($0, db "-wal>") { sync = NR }
	    /^fcntl\(/ && index($0, db "-queue>") && /F_UNLCK/ && /l_start=1,/ {
		    turn = NR }
	    END { printf "%d %d %d %d %d\n", frame, sync, answer, turn,
		writes }' "$W/trace"
}

tok=$(cgi login /api/v1/auth/login "$(jq -cn --arg e "$DEMO_STAFF_EMAIL" \
    --arg p "$DEMO_STAFF_PASSWORD" '{email: $e, password: $p}')" |
    jq -r .access_token)
[ -n "$tok" ] && [ "$tok" != null ] || bail "no token for the demo's till"
user=$(cgi login /api/v1/auth/login "$(jq -cn --arg e "$DEMO_STAFF_EMAIL" \
    --arg p "$DEMO_STAFF_PASSWORD" '{email: $e, password: $p}')" |
    jq -r .user.id)
sale=$(jq -cn --arg c "$DEMO_CASHBACK_BARCODE" --arg l "$DEMO_LOCATION_ID" \
    --arg u "$user" '{barcode_value: $c, location_id: $l,
    staff_user_id: $u, purchase_amount: 4.20, idempotency_key: "cs-1"}')

# A first write on a fresh connection (the log made, the connection set up).
out=$(traced record /api/v1/transactions/record "$sale" "$tok")
is "$(jq -r .success <<<"$out")" true "record: the purchase is answered 200"
read -r frame sync answer turn writes < <(marks)
ok "record: the log is synced after the commit's frames are written (lines $frame, $sync)" \
    test "$frame" -gt 0 -a "$sync" -gt "$frame"
# About 25 frames of 4 KiB, two pwrite calls each in SQLite's own VFS:
# db_walbuf.c writes them in one or two (64 KiB each), after the log's
# header on a fresh log.
ok "record: the commit's frames go in a few writes, not two a frame ($writes)" \
    test "$writes" -ge 1 -a "$writes" -le 4
ok "record: all are written before the write turn is given back (lines $frame, $turn)" \
    test "$frame" -lt "$turn"
ok "record: the answer is written after the sync of the log (lines $sync, $answer)" \
    test "$answer" -gt "$sync"
ok "record: the write turn is given back before the sync (lines $turn, $sync)" \
    test "$turn" -gt 0 -a "$turn" -lt "$sync"

out=$(traced record /api/v1/transactions/record "$sale" "$tok")
is "$(jq -r .data.idempotent <<<"$out")" true "replay: the same key is answered as a replay"
read -r frame sync answer turn writes < <(marks)
is "$frame" 0 "replay: no frame is written"
ok "replay: the log is synced before the answer (lines $sync, $answer)" \
    test "$sync" -gt 0 -a "$answer" -gt "$sync"

batch=$(jq -cn --arg c "$DEMO_CASHBACK_BARCODE" --arg l "$DEMO_LOCATION_ID" \
    --arg u "$user" '{transactions: [range(3) | {barcode_value: $c,
    location_id: $l, staff_user_id: $u, purchase_amount: 1.00,
    idempotency_key: "cs-sync-\(.)"}]}')
out=$(traced sync /api/v1/transactions/sync "$batch" "$tok")
is "$(jq -r .data.success_count <<<"$out")" 3 "sync: the 3 items are recorded"
n=$(awk -v db="$DB" '
    /^pwrite64\(/ && index($0, db "-wal>") { dirty = 1 }
    /^f(data)?sync\(/ && index($0, db "-wal>") && dirty { n++; dirty = 0 }
    /^write\(1</ { exit }
    END { print (dirty ? "unsynced" : n >= 3 ? "synced" : n) }' "$W/trace")
is "$n" synced "sync: each item's frames are synced before the batch's answer"

done_testing
