-- Events, integration tokens and webhooks (issue 28).
--
-- events: the outbox. Each write that changes a card, a reward or a
-- balance adds its events here inside its own write transaction, so an
-- event exists if and only if its change committed. seq is the order of
-- commits: writers take the database's write lock one at a time
-- (BEGIN IMMEDIATE here; PostgreSQL's writes take one advisory lock), and
-- AUTOINCREMENT never hands out a number again after the oldest rows are
-- pruned. The public id is 'evt_' and seq in 16 digits (sortable as
-- text); data is the event's JSON object.
CREATE TABLE events (
	seq INTEGER PRIMARY KEY AUTOINCREMENT,
	merchant_id TEXT NOT NULL REFERENCES merchants(id),
	type TEXT NOT NULL,
	created_at INTEGER NOT NULL,
	data TEXT NOT NULL
);
CREATE INDEX events_merchant ON events(merchant_id, seq);

-- The newest seq of a merchant's events pruned after the retention: a
-- feed asked for what follows an older one has lost events and says so.
CREATE TABLE events_pruned (
	merchant_id TEXT PRIMARY KEY REFERENCES merchants(id),
	through_seq INTEGER NOT NULL
);

-- Integration tokens: named API tokens an owner gives an integrator,
-- with scopes ('events:read', 'webhooks:manage', space separated).
-- Stored as the SHA-256 digest (hex) of the token, shown once; prefix is
-- the token's first characters, to tell tokens apart in a list.
CREATE TABLE api_tokens (
	id TEXT PRIMARY KEY,
	merchant_id TEXT NOT NULL REFERENCES merchants(id),
	name TEXT NOT NULL,
	scopes TEXT NOT NULL,
	digest TEXT NOT NULL UNIQUE,
	prefix TEXT NOT NULL,
	created_at INTEGER NOT NULL,
	created_by TEXT,
	last_used_at INTEGER,
	revoked_at INTEGER
);
CREATE INDEX api_tokens_merchant ON api_tokens(merchant_id, created_at);

-- Webhook endpoints. event_types: NULL for every type, else the types
-- one space apart. secret: 'whsec_' and base64; after a rotation the old
-- one signs alongside until old_secret_until (ms). Delivery is in order
-- per endpoint: cursor_seq is the last event handled (delivered, or not
-- of its types); attempts, next_attempt_at and failing_since describe
-- the tries of the event after it. A run of the deliverer holds an
-- endpoint by its lease (lease_owner until lease_until, ms), so two runs
-- never send one attempt twice. disabled_reason: NULL, 'owner',
-- 'gone' (the receiver answered 410) or 'failing' (5 days of failures).
CREATE TABLE webhooks (
	id TEXT PRIMARY KEY,
	merchant_id TEXT NOT NULL REFERENCES merchants(id),
	url TEXT NOT NULL,
	description TEXT NOT NULL DEFAULT '',
	event_types TEXT,
	enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
	disabled_reason TEXT,
	secret TEXT NOT NULL,
	old_secret TEXT,
	old_secret_until INTEGER,
	created_at INTEGER NOT NULL,
	updated_at INTEGER NOT NULL,
	cursor_seq INTEGER NOT NULL,
	attempts INTEGER NOT NULL DEFAULT 0,
	next_attempt_at INTEGER,
	failing_since INTEGER,
	last_success_at INTEGER,
	lease_owner TEXT,
	lease_until INTEGER
);
CREATE INDEX webhooks_merchant ON webhooks(merchant_id, created_at);

-- One-off deliveries beside the ordered stream: an owner's test event
-- and a re-send of one event. payload: the test's body (NULL for a
-- re-send, which sends event_seq's).
CREATE TABLE webhook_jobs (
	id TEXT PRIMARY KEY,
	webhook_id TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
	kind TEXT NOT NULL CHECK (kind IN ('test', 'resend')),
	event_seq INTEGER,
	payload TEXT,
	created_at INTEGER NOT NULL,
	attempts INTEGER NOT NULL DEFAULT 0,
	next_attempt_at INTEGER NOT NULL,
	done_at INTEGER,
	lease_owner TEXT,
	lease_until INTEGER
);
CREATE INDEX webhook_jobs_due ON webhook_jobs(webhook_id, done_at, next_attempt_at);
-- The deliverer's list of jobs due: the few not done, by time.
CREATE INDEX webhook_jobs_pending ON webhook_jobs(next_attempt_at) WHERE done_at IS NULL;

-- The delivery log: each attempt, its answer's status (NULL: none), its
-- time, and the first bytes of the answer or the reason it failed.
-- outcome: 'delivered' (2xx), 'failed', 'refused' (the address is one
-- the installation does not send to).
CREATE TABLE webhook_deliveries (
	id TEXT PRIMARY KEY,
	webhook_id TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
	event_id TEXT NOT NULL,
	event_type TEXT NOT NULL,
	attempt INTEGER NOT NULL,
	job_id TEXT,
	at INTEGER NOT NULL,
	status INTEGER,
	duration_ms INTEGER,
	outcome TEXT NOT NULL CHECK (outcome IN ('delivered', 'failed', 'refused')),
	error TEXT,
	response TEXT
);
CREATE INDEX webhook_deliveries_hook ON webhook_deliveries(webhook_id, at);
CREATE INDEX webhook_deliveries_at ON webhook_deliveries(at);

-- The deliverer's last runs (one row): when one last started and ended,
-- so the owner's page can say when none has run lately (no cron line);
-- pruned_at: when a run last pruned after the retention (at most once an
-- hour, not every minute's run).
CREATE TABLE deliverer (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	started_at INTEGER NOT NULL,
	ended_at INTEGER,
	pruned_at INTEGER
);
