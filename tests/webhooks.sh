#!/usr/bin/env bash
# Webhooks end to end: lighttpd and a real database, endpoints pointing at
# a real receiver on 127.0.0.1 (tests/webhooks/receiver.mjs) that checks
# every delivery with the Standard Webhooks reference library from npm,
# never with the project's code, and runs of `loyalty-admin events
# deliver` under the test clock (LOYALTY_TEST_NOW: backoff and the 5-day
# rule without waiting; the HTTP timeout stays real). LT_BACKEND=postgresql
# runs it on PostgreSQL (tests/webhooks_pg.sh).
#
# Purchases and endpoints go through the API (the outbox writes the
# events): a build without them fails here. SQL adds only what the API
# cannot make (many events at once, an event whose data is broken).
. "$top_srcdir/tests/lib.sh"

command -v node >/dev/null 2>&1 || { echo "1..0 # SKIP no node"; exit 0; }
# The library from npm (once, into ~/.cache/loyalty-pos/): without it
# the test is skipped, unless CI's LC_REQUIRE_OPENAPI_LINT=1 says the
# npm tools must be there (as the page tests do with playwright-core).
if ! lc_install_standardwebhooks >/dev/null 2>&1 </dev/null; then
	[ "${LC_REQUIRE_OPENAPI_LINT:-0}" = 1 ] &&
	    bail "the standardwebhooks npm library cannot be installed (tools/lib.sh lc_install_standardwebhooks)"
	echo "1..0 # SKIP the standardwebhooks npm library is not installed and cannot be (tools/lib.sh lc_install_standardwebhooks)"
	exit 0
fi
RECEIVER=$top_srcdir/tests/webhooks/receiver.mjs

lt_start
admin() { "$LT_ADMIN" --db "$LT_DB" "$@"; }
W=$LT_DIR/work
mkdir -p "$W"
RLOG=$W/received.jsonl
: >"$RLOG"

# The receiver, stopped with the server; another port when one is taken
# between the look and the listen.
RPID=
trap 'kill "$RPID" 2>/dev/null; lt_stop; lt_backend_stop' EXIT
for _ in 1 2 3 4 5; do
	RPORT=$(lt_free_port) || bail "no free port"
	node "$RECEIVER" serve "$RPORT" "$RLOG" >"$W/receiver.out" 2>&1 &
	RPID=$!
	for _ in $(seq 1 100); do
		grep -q listening "$W/receiver.out" && break
		kill -0 "$RPID" 2>/dev/null || break
		sleep 0.1
	done
	grep -q listening "$W/receiver.out" && break
done
grep -q listening "$W/receiver.out" || bail "the receiver did not start: $(cat "$W/receiver.out")"
RURL=http://127.0.0.1:$RPORT
control() { curl -s -S --max-time 5 -d "$1" "$RURL/control" >/dev/null; }

# The test clock, ms: the deliverer's now. It starts at the real time
# (the events' times are real) and only moves forward.
CLOCK=$(($(date +%s) * 1000 + 1000))
# A run that fails (or a sanitizer's report) is counted, and said at the
# end: every run here is to succeed.
bad_runs=0
deliver() {
	local rc=0
	LOYALTY_TEST_NOW=$CLOCK admin events deliver --max-seconds "${1:-30}" \
	    2>>"$W/deliver.err" || rc=$?
	[ $rc -eq 0 ] || { bad_runs=$((bad_runs + 1)); diag "a deliverer run exited $rc"; }
	return $rc
}
deliver_q() { deliver "$@" >/dev/null; }
later() { CLOCK=$((CLOCK + $1)); }

admin setting set webhook_allow_private 1 >/dev/null || bail "setting set"
lt_login "$DEMO_OWNER_EMAIL" "$DEMO_OWNER_PASSWORD" || bail "owner login"
OWNER=$LT_TOKEN
lt_login "$DEMO_STAFF_EMAIL" "$DEMO_STAFF_PASSWORD" || bail "staff login"
STAFF_TOKEN=$LT_TOKEN STAFF=$LT_USER_ID LOC=$LT_LOCATION_ID
MID=$DEMO_MERCHANT_ID

# --- endpoints and changes ----------------------------------------------------

LT_TOKEN=$OWNER lt_req GET /api/v1/admin/webhooks
[ "$LT_STATUS" = 200 ] || bail "GET /api/v1/admin/webhooks: $LT_STATUS $LT_BODY"

# new_hook NAME [TYPES_JSON]: an endpoint at the receiver's /h/NAME, told
# its secret; sets HOOK (its id) and SECRET.
new_hook() {
	local name=$1 types=${2:-null} body
	body=$(jq -cn --arg u "$RURL/h/$name" --argjson t "$types" \
	    '{url: $u, description: "test"} + (if $t == null then {} else {event_types: $t} end)')
	LT_TOKEN=$OWNER lt_req POST /api/v1/admin/webhooks "$body"
	[ "$LT_STATUS" = 201 ] || bail "webhook create: $LT_STATUS $LT_BODY"
	HOOK=$(lt_jq .data.webhook.id) SECRET=$(lt_jq .data.webhook.secret)
	control "$(jq -cn --arg p "/h/$name" --arg s "$SECRET" '{path: $p, secrets: [$s]}')"
}

# hook_off ID: disabled by the owner (its later events are not its test's).
hook_off() {
	LT_TOKEN=$OWNER lt_req PATCH "/api/v1/admin/webhooks/$1" '{"enabled":false}'
	[ "$LT_STATUS" = 200 ] || bail "webhook disable: $LT_STATUS $LT_BODY"
}

# purchase: one purchase through the API (a cashback card: no cooldown),
# which the outbox gives an event.
purchase() {
	local before after
	before=$(lt_sql "SELECT count(*) FROM events")
	LT_TOKEN=$STAFF_TOKEN lt_req POST /api/v1/transactions/record \
	    "{\"card_instance_id\":\"$DEMO_CASHBACK_CARD\",\"location_id\":\"$LOC\",\"staff_user_id\":\"$STAFF\",\"purchase_amount\":1.00}"
	[ "$LT_STATUS" = 200 ] || bail "purchase: $LT_STATUS $LT_BODY"
	after=$(lt_sql "SELECT count(*) FROM events")
	[ "$after" -gt "$before" ] || bail "a purchase added no event"
}

# The ids of the merchant's events after seq $1 (of types $2, a regex),
# in order.
event_ids() {
	lt_sql "SELECT seq, type FROM events WHERE merchant_id = '$MID' AND seq > $1 ORDER BY seq" |
	    awk -F'|' -v t="${2:-.}" '$2 ~ t { printf "evt_%016d\n", $1 }'
}
max_seq() { lt_sql "SELECT coalesce(max(seq), 0) FROM events"; }
# What the receiver got at /h/NAME: field $2 (jq) a line.
got() { jq -r --arg p "/h/$1" "select(.path == \$p) | $2" "$RLOG"; }
hook_col() { lt_sql "SELECT $2 FROM webhooks WHERE id = '$1'"; }

# --- every change once, in order, verified ----------------------------------

new_hook all
A=$HOOK ASECRET=$SECRET
from=$(max_seq)
for _ in 1 2 3 4 5; do purchase; done
admin card deactivate "$DEMO_CASHBACK_CARD" >/dev/null || bail "deactivate"
admin card activate "$DEMO_CASHBACK_CARD" >/dev/null || bail "activate"
want=$(event_ids "$from")
ok "a deliverer run succeeds" deliver_q
is "$(got all .id)" "$want" "every committed change's event arrived once, in order ($(wc -l <<<"$want") events)"
is "$(got all '.verified[0]' | sort -u)" true "... each verified by the standardwebhooks library"
is "$(got all .content_type | sort -u)" application/json "... as application/json"
like "$(got all .user_agent | sort -u)" '^loyalty-pos-webhooks/' "... from loyalty-pos-webhooks/VERSION"
is "$(got all '.body | fromjson | .id == (.id | tostring) and (.type | length > 0) and (.merchant_id == "'"$MID"'")' | sort -u)" true \
    "... each body the event's object (id, type, merchant_id)"
is "$(got all '[.id, (.body | fromjson | .id)] | .[0] == .[1]' | sort -u)" true "... its webhook-id the event's id"
after=
[ "$from" -gt 0 ] && after=$(printf '&after=evt_%016d' "$from")
LT_TOKEN=$OWNER lt_req GET "/api/v1/admin/events?limit=500$after"
[ "$LT_STATUS" = 200 ] || bail "the feed: $LT_STATUS $LT_BODY"
is "$(jq -cS '.data.events[]' <<<"$LT_BODY")" "$(got all .body | jq -cS .)" \
    "... each body exactly the feed's object for its event"
is "$(hook_col "$A" cursor_seq)" "$(max_seq)" "the endpoint's cursor is at the newest event"
is "$(lt_sql "SELECT count(*), min(outcome), max(outcome), min(attempt), max(attempt) FROM webhook_deliveries WHERE webhook_id = '$A'")" \
    "$(wc -l <<<"$want")|delivered|delivered|1|1" "one delivery row an attempt, each delivered on its first"
n=$(wc -l <"$RLOG")
ok "a second run" deliver_q
is "$(wc -l <"$RLOG")" "$n" "... sends nothing again"
like "$(lt_sql "SELECT started_at, ended_at FROM deliverer")" "^$CLOCK\|$CLOCK$" "the deliverer's row has the run's start and end"

# --- the answer's first bytes, as text ---------------------------------------

new_hook talk
T=$HOOK
reply=$( { printf 'ok\377\000\001'; for _ in $(seq 1 300); do printf '\303\251'; done; } | base64 -w0)
control "{\"path\":\"/h/talk\",\"reply\":\"$reply\"}"
purchase
deliver_q
resp=$(lt_sql "SELECT response FROM webhook_deliveries WHERE webhook_id = '$T'")
is "${resp:0:8}" "ok???ééé" "the log keeps the answer's first bytes, control bytes and what is not UTF-8 as '?'"
is "$(printf '%s' "$resp" | wc -c)" 511 "... at most 512 bytes of it, a character the limit cut left off"
ok "... valid UTF-8" bash -c 'printf "%s" "$1" | iconv -f UTF-8 -t UTF-8 >/dev/null' _ "$resp"
hook_off "$T"

# --- event_types: only its types, past any number of others -----------------

new_hook picky '["card.adjusted"]'
P=$HOOK
from=$(max_seq)
# 1200 events of another type (inserted: 1200 purchases through the API
# would be slow), then one of its type: a run scans past them all.
lt_sql "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1200)
    INSERT INTO events(merchant_id, type, created_at, data)
    SELECT '$MID', 'transaction.recorded', $(($(date +%s) * 1000)), '{}' FROM n" >/dev/null ||
    bail "events insert"
lt_sql "INSERT INTO events(merchant_id, type, created_at, data) VALUES ('$MID',
    'card.adjusted', $(($(date +%s) * 1000)), '{\"card_instance_id\":\"x\"}')" >/dev/null
deliver_q
is "$(got picky '.body | fromjson | .type')" card.adjusted "an endpoint of one type gets that type's event alone, in one run past 1200 others"
is "$(hook_col "$P" cursor_seq)" "$(max_seq)" "... its cursor past them all"
hook_off "$P"

# --- a captured delivery: the library refuses it changed or late ---------------

jq -c 'select(.path == "/h/all")' "$RLOG" | head -n 1 >"$W/captured.json"
node "$RECEIVER" check "$W/captured.json" "$ASECRET" >"$W/check.out" 2>&1
is "$(grep as-sent "$W/check.out")" "as-sent accepted" "the library accepts a captured delivery as it came"
is "$(grep tampered "$W/check.out")" "tampered refused" "... refuses it with its body changed"
is "$(grep replayed "$W/check.out")" "replayed-10-minutes-later refused" "... refuses it replayed ten minutes later"
is "$(grep timestamp-10 "$W/check.out")" "timestamp-10-minutes-old refused" "... refuses it signed with a timestamp ten minutes old"
hook_off "$A"

# --- an unreadable event holds up its endpoint alone ----------------------------

# An endpoint of card.updated whose next event's data is not JSON (its
# body cannot be built), beside one of purchases: the run goes on.
new_hook bad '["card.updated"]'
BAD=$HOOK
new_hook good '["transaction.recorded"]'
GOOD=$HOOK
from=$(max_seq)
lt_sql "INSERT INTO events(merchant_id, type, created_at, data) VALUES ('$MID',
    'card.updated', $(($(date +%s) * 1000)), 'not json {')" >/dev/null || bail "event insert"
purchase
purchase
want=$(event_ids "$from" '^transaction[.]recorded$')
LOYALTY_TEST_NOW=$CLOCK admin events deliver --max-seconds 30 >/dev/null 2>"$W/bad.err"
is "$?" 0 "a run meeting an event whose data is not JSON succeeds"
like "$(cat "$W/bad.err")" "its data is not JSON" "... saying so"
is "$(got good .id)" "$want" "... the endpoint beside it gets its events"
is "$(got bad .id)" "" "... nothing is sent to the one whose event it is"
is "$(lt_sql "SELECT attempt || ' ' || outcome || ' ' || CASE WHEN error LIKE '%not JSON%' THEN 1 ELSE 0 END FROM webhook_deliveries WHERE webhook_id = '$BAD'")" \
    "1 failed 1" "... whose attempt is logged as failed, saying why"
is "$(hook_col "$BAD" "attempts || ' ' || coalesce(lease_owner, 'free') || ' ' || CASE WHEN next_attempt_at > $CLOCK THEN 1 ELSE 0 END")" "1 free 1" \
    "... its lease given back, its next try after a backoff"
hook_off "$BAD"
hook_off "$GOOD"

# --- the owner's change during an attempt stands --------------------------------

new_hook flip
FL=$HOOK
control '{"path":"/h/flip","fail":1000,"hold":true}'
purchase
LOYALTY_TEST_NOW=$CLOCK admin events deliver --max-seconds 30 >/dev/null 2>"$W/flip.err" &
fpid=$!
for _ in $(seq 1 100); do
	[ "$(got flip .id | wc -l)" -ge 1 ] && break
	sleep 0.1
done
# Disabled by the owner while the receiver holds the attempt (it fails
# once let go).
hook_off "$FL"
control '{"path":"/h/flip","release":true}'
wait "$fpid"
is "$?" 0 "a run whose endpoint the owner disabled during its failing attempt succeeds"
is "$(hook_col "$FL" "enabled || ' ' || disabled_reason || ' ' || attempts || ' ' || coalesce(CAST(next_attempt_at AS text), 'none') || ' ' || coalesce(lease_owner, 'free')")" \
    "0 owner 0 none free" "... the owner's change stands (the failure does not overwrite it), its lease given back"
is "$(lt_sql "SELECT outcome FROM webhook_deliveries WHERE webhook_id = '$FL'")" failed "... the attempt is logged"

# --- fail 3 times, then succeed on the 4th try ----------------------------------

new_hook flaky
B=$HOOK
control '{"path":"/h/flaky","fail":3}'
from=$(max_seq)
purchase
want=$(event_ids "$from" | head -n 1)
deliver >/dev/null
is "$(got flaky .answered | tr '\n' ' ')" "500 " "a failing receiver: one attempt"
deliver >/dev/null
is "$(got flaky .answered | tr '\n' ' ')" "500 " "... none again before its backoff"
ok_back=1
for i in 1 2 3; do
	at=$(lt_sql "SELECT at FROM webhook_deliveries WHERE webhook_id = '$B' AND attempt = $i")
	next=$(hook_col "$B" next_attempt_at)
	lo=$((10000 * (1 << (i - 1)) * 8 / 10)) hi=$((10000 * (1 << (i - 1)) * 12 / 10))
	d=$((next - at))
	[ "$d" -ge "$lo" ] && [ "$d" -le "$hi" ] || { ok_back=0; diag "backoff after attempt $i: $d ms, want $lo-$hi"; }
	CLOCK=$((next - 1))
	deliver >/dev/null
	[ "$(got flaky .id | wc -l)" = "$i" ] || { ok_back=0; diag "sent before its backoff ran out (attempt $i)"; }
	CLOCK=$next
	deliver >/dev/null
done
ok "each retry waits its backoff (10 s doubling, +-20 %), not a moment less" test $ok_back = 1
is "$(got flaky .answered | tr '\n' ' ')" "500 500 500 200 " "... and the 4th try is delivered"
is "$(got flaky .id | sort -u)" "$want" "... all four the same event"
is "$(lt_sql "SELECT attempt || outcome FROM webhook_deliveries WHERE webhook_id = '$B' ORDER BY attempt" | tr '\n' ' ')" \
    "1failed 2failed 3failed 4delivered " "the log: attempts 1-3 failed, 4 delivered"
is "$(hook_col "$B" "attempts || '|' || coalesce(CAST(failing_since AS text), 'none') || '|' || CASE WHEN last_success_at = $CLOCK THEN 1 ELSE 0 END")" "0|none|1" \
    "the endpoint's tries are cleared by the success"
hook_off "$B"

# --- 410 disables it ---------------------------------------------------------------

new_hook gone
C=$HOOK
control '{"path":"/h/gone","status":410}'
purchase
deliver >/dev/null
is "$(hook_col "$C" "enabled || disabled_reason")" "0gone" "a receiver answering 410 disables its endpoint ('gone')"
LT_TOKEN=$OWNER lt_req GET "/api/v1/admin/webhooks/$C"
is "$(lt_jq '.data.webhook | [.enabled, .disabled_reason] | @csv')" 'false,"gone"' "... the API shows disabled_reason gone"
is "$(lt_sql "SELECT action || ' ' || object_id FROM audit_log WHERE actor_type = 'service' AND object_type = 'webhook'")" \
    "webhook.update $C" "... audited as the service's change of the endpoint"
is "$(lt_sql "SELECT after FROM audit_log WHERE actor_type = 'service' AND object_type = 'webhook'" | jq -c '[.enabled, .disabled_reason]')" \
    '[false,"gone"]' "... its row showing it disabled, gone"
purchase
deliver >/dev/null
is "$(got gone .id | wc -l)" 1 "... and nothing more is sent to it"

# --- kill -9 mid-run: nothing lost; only the event in flight sent again ----------

new_hook slow
D=$HOOK
control '{"path":"/h/slow","hold":true}'
from=$(max_seq)
for _ in 1 2 3; do purchase; done
want=$(event_ids "$from")
# In a subshell of its own, whose stderr takes the shell's "Killed".
rm -f "$W/dpid"
(LOYALTY_TEST_NOW=$CLOCK "$LT_ADMIN" --db "$LT_DB" events deliver >/dev/null 2>&1 &
    echo $! >"$W/dpid"; wait) 2>/dev/null &
spid=$!
for _ in $(seq 1 50); do [ -s "$W/dpid" ] && break; sleep 0.1; done
dpid=$(cat "$W/dpid")
for _ in $(seq 1 100); do
	[ "$(got slow .id | wc -l)" -ge 1 ] && break
	sleep 0.1
done
kill -9 "$dpid"
wait "$spid"
inflight=$(got slow .id)
is "$(wc -l <<<"$inflight")" 1 "a deliverer killed (kill -9) while the receiver holds its first event"
is "$(lt_sql "SELECT count(*) FROM webhook_deliveries WHERE webhook_id = '$D'")" 0 "... recorded nothing of that attempt"
control '{"path":"/h/slow","release":true}'
deliver >/dev/null
is "$(got slow .id | wc -l)" 1 "... its lease holds the endpoint from the next run until it runs out"
later $((60 * 1000))
deliver >/dev/null
is "$(got slow .id | awk '!seen[$0]++')" "$want" "after the lease: every event arrived, in order (nothing lost)"
is "$(got slow .id | sort | uniq -d)" "$inflight" "... the one event in flight at the kill arrived twice (at least once), no other"
is "$(hook_col "$D" cursor_seq)" "$(max_seq)" "... and the cursor is at the newest"
hook_off "$D"

# --- two runs at once never send one attempt twice ----------------------------

new_hook twin1
E1=$HOOK
new_hook twin2
E2=$HOOK
control '{"path":"/h/twin1","delay_ms":150}'
control '{"path":"/h/twin2","delay_ms":150}'
from=$(max_seq)
for _ in 1 2 3 4 5 6 7 8; do purchase; done
want=$(event_ids "$from")
deliver >"$W/run1" 2>&1 &
p1=$!
deliver >"$W/run2" 2>&1 &
p2=$!
wait "$p1"; r1=$?
wait "$p2"; r2=$?
is "$r1 $r2" "0 0" "two runs at once both succeed"
is "$(got twin1 .id)" "$want" "... endpoint 1 got each event once, in order"
is "$(got twin2 .id)" "$want" "... endpoint 2 too"
is "$(($(cat "$W/run1") + $(cat "$W/run2")))" 16 "... 16 attempts between the two runs"
is "$(lt_sql "SELECT count(*), count(DISTINCT webhook_id || event_id) FROM webhook_deliveries WHERE webhook_id IN ('$E1', '$E2')")" \
    "16|16" "... one log row each"
hook_off "$E1"
hook_off "$E2"

# --- webhook_allow_private 0: loopback refused, by address and by name ----------

new_hook byaddr
F=$HOOK
new_hook byname
G=$HOOK
lt_sql "UPDATE webhooks SET url = 'http://localhost:$RPORT/h/byname' WHERE id = '$G'" >/dev/null
admin setting set webhook_allow_private 0 >/dev/null || bail "setting set"
purchase
deliver >/dev/null
is "$(lt_sql "SELECT outcome FROM webhook_deliveries WHERE webhook_id = '$F'")" refused \
    "webhook_allow_private 0: a delivery to 127.0.0.1 is 'refused'"
is "$(lt_sql "SELECT outcome FROM webhook_deliveries WHERE webhook_id = '$G'")" refused \
    "... and one to a name resolving to it (localhost)"
is "$(got byaddr .id; got byname .id)" "" "... the receiver got neither"
admin setting set webhook_allow_private 1 >/dev/null || bail "setting set"
later $((10 * 60 * 1000))
deliver >/dev/null
is "$(got byname .id | wc -l)" 1 "allowed again: the name's delivery goes through"
hook_off "$F"
hook_off "$G"

# --- rotation: both signatures, either secret ------------------------------------

new_hook rot
I=$HOOK OLD=$SECRET
LT_TOKEN=$OWNER lt_req POST "/api/v1/admin/webhooks/$I/rotate" "{}"
[ "$LT_STATUS" = 200 ] || bail "rotate: $LT_STATUS $LT_BODY"
NEW=$(lt_jq .data.webhook.secret)
until_ms=$(hook_col "$I" old_secret_until)
control "$(jq -cn --arg o "$OLD" --arg n "$NEW" '{path: "/h/rot", secrets: [$o, $n]}')"
purchase
deliver >/dev/null
is "$(got rot '.signature | split(" ") | length')" 2 "during a rotation two signatures are sent"
is "$(got rot '.verified | map(tostring) | join(" ")')" "true true" "... the library accepts the delivery with either secret"
CLOCK=$until_ms
purchase
deliver >/dev/null
is "$(got rot '.signature | split(" ") | length' | tail -n 1)" 1 "after the 24 h, one signature"
is "$(got rot '.verified | map(tostring) | join(" ")' | tail -n 1)" "No matching signature found true" "... the new secret's alone (the old one's refused)"
hook_off "$I"

# --- a test delivery and a re-send, beside the stream -------------------------------

new_hook jobs
J=$HOOK
seq1=$(lt_sql "SELECT min(seq) FROM events WHERE merchant_id = '$MID'")
LT_TOKEN=$OWNER lt_req POST "/api/v1/admin/webhooks/$J/test" "{}"
[ "$LT_STATUS" = 202 ] || bail "test: $LT_STATUS $LT_BODY"
LT_TOKEN=$OWNER lt_req POST "/api/v1/admin/webhooks/$J/resend" \
    "$(printf '{"event_id":"evt_%016d"}' "$seq1")"
[ "$LT_STATUS" = 202 ] || bail "resend: $LT_STATUS $LT_BODY"
deliver >/dev/null
like "$(got jobs .id | grep msg_test_)" '^msg_test_[0-9a-f-]{36}$' "a test delivery arrives, its webhook-id msg_test_ and the job"
is "$(got jobs '.body | fromjson | .type' | grep -c webhook.test)" 1 "... of type webhook.test"
is "$(got jobs .id | grep evt_)" "$(printf 'evt_%016d' "$seq1")" "a re-send arrives with its event's id"
is "$(got jobs '.verified[0]' | sort -u)" true "... both verified by the library"
is "$(lt_sql "SELECT count(*) FROM webhook_jobs WHERE webhook_id = '$J' AND done_at IS NULL")" 0 "... their jobs are done"
is "$(hook_col "$J" cursor_seq)" "$(max_seq)" "... beside the stream, whose cursor is unchanged by them"

# --- a database failure at each step of a run ---------------------------------
# LC_TEST_DB_FAIL=N (test builds) fails the run's Nth statement: each
# step in turn. A run that fails says so and exits 1; what it sent and
# could not record is sent again by a later run (its lease runs out:
# the clock moves a minute), never lost, never out of order.

new_hook walk
K=$HOOK
from=$(max_seq)
for _ in 1 2 3; do purchase; done
want=$(event_ids "$from")
walk_ok=1 n=0
for n in $(seq 1 80); do
	out=$(LOYALTY_TEST_NOW=$CLOCK LC_TEST_DB_FAIL=$n "$LT_ADMIN" --db "$LT_DB" \
	    events deliver --max-seconds 30 2>"$W/walk.err")
	rc=$?
	later 61000
	if [ $rc -ne 0 ]; then
		[ $rc -eq 1 ] && grep -q 'loyalty-admin: ' "$W/walk.err" ||
		    { walk_ok=0; diag "step $n: exit $rc: $(head -c 300 "$W/walk.err")"; }
		continue
	fi
	# A run that reached its end without meeting its Nth statement.
	grep -q 'failed on purpose' "$W/walk.err" || break
done
ok "each of the $((n - 1)) steps of a run failed in turn: exit 1 with a message" test $walk_ok = 1
deliver >/dev/null
is "$(got walk .id | awk '!seen[$0]++')" "$want" "... then every event arrived, in order"
is "$(got walk .id | sort -u | wc -l) $(hook_col "$K" cursor_seq)" "3 $(max_seq)" "... nothing lost, the cursor at the newest"
is "$(lt_sql "SELECT count(*) FROM webhook_deliveries WHERE webhook_id = '$K' AND outcome = 'delivered'")" 3 \
    "... one delivered row an event (what could not be recorded was sent again)"
is "$(lt_integrity)" ok "... and the database is sound"
hook_off "$K"

# --- failing for 5 days disables it ('failing') --------------------------------

new_hook down
H=$HOOK
control '{"path":"/h/down","fail":1000000}'
purchase
deliver >/dev/null
since=$(hook_col "$H" failing_since)
is "$since" "$CLOCK" "a failing endpoint: failing since its first failure"
CLOCK=$((since + 3 * 86400000))
deliver >/dev/null
is "$(hook_col "$H" enabled)" 1 "... still tried after 3 days"
CLOCK=$((since + 5 * 86400000 - 60000))
deliver >/dev/null
is "$(hook_col "$H" "enabled || coalesce(disabled_reason, '')")" 1 "... still enabled a minute before 5 days"
CLOCK=$((since + 5 * 86400000))
deliver >/dev/null
is "$(hook_col "$H" "enabled || disabled_reason")" 0failing "... disabled ('failing') at 5 days of failures"

# --- pruning after the retention -------------------------------------------------

newest=$(max_seq)
later $((31 * 86400000))
deliver >/dev/null
is "$(lt_sql "SELECT count(*) FROM events")" 0 "31 days later, the events older than the retention (30 days) are pruned"
is "$(lt_sql "SELECT through_seq FROM events_pruned WHERE merchant_id = '$MID'")" "$newest" "... events_pruned says through which"
is "$(lt_sql "SELECT count(*) FROM webhook_deliveries")" 0 "... the delivery log too"
is "$(lt_sql "SELECT count(*) FROM webhook_jobs")" 0 "... and the done jobs"
purchase
newest=$(max_seq)
lt_sql "UPDATE events SET created_at = 0" >/dev/null
later 60000
deliver_q
is "$(lt_sql "SELECT count(*) FROM events")" 1 "a run within the hour after a prune prunes nothing"
later 3600000
deliver_q
is "$(lt_sql "SELECT count(*) FROM events") $(lt_sql "SELECT through_seq FROM events_pruned WHERE merchant_id = '$MID'")" \
    "0 $newest" "... the first run an hour later does"

# A retention that cannot be read is not taken as the default (30 days).
admin setting set event_retention_days 365 >/dev/null || bail "setting set"
purchase
lt_sql "UPDATE events SET created_at = $((CLOCK - 40 * 86400000))" >/dev/null
later 3600000
rcs=
for n in 1 2; do
	LOYALTY_TEST_NOW=$CLOCK LC_TEST_DB_FAIL=$n "$LT_ADMIN" --db "$LT_DB" \
	    events deliver --max-seconds 30 >/dev/null 2>"$W/set.err"
	rcs="$rcs $?"
done
is "$rcs" " 1 1" "a run whose settings cannot be read fails (exit 1)"
is "$(lt_sql "SELECT count(*) FROM events")" 1 "... pruning nothing at the default retention"
deliver_q
is "$(lt_sql "SELECT count(*) FROM events")" 1 "a retention of 365 days keeps an event 40 days old"
is "$(lt_integrity)" ok "the database is sound"
is "$bad_runs $(cat "$W/deliver.err")" "0 " "every run of the deliverer exited 0, saying nothing on stderr"

done_testing
