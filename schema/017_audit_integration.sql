-- The audit trail names a write by an integration token (issue 28: an
-- integrator managing its webhooks) as actor 'integration', the token's
-- id in user_id. SQLite cannot change a CHECK in place: the table is
-- made again with the same rows (seq kept), triggers and indexes.
CREATE TABLE audit_log_new (
	seq INTEGER PRIMARY KEY,	-- the order of writing
	at INTEGER NOT NULL,		-- ms since 1970, UTC: when it was written
	merchant_id TEXT,		-- NULL: the installation's (no shop's)
	-- 'service': what the service does by itself (an expiry found due);
	-- 'integration': an integration token (user_id: the token's id)
	actor_type TEXT NOT NULL CHECK (actor_type IN ('owner', 'system_user',
	    'loyalty-admin', 'setup', 'service', 'integration')),
	user_id TEXT,			-- NULL for loyalty-admin
	location_id TEXT,
	terminal_id TEXT CHECK (terminal_id IS NULL OR length(terminal_id) <= 64),
	request_id TEXT,
	action TEXT NOT NULL CHECK (length(action) BETWEEN 1 AND 64),
	object_type TEXT NOT NULL CHECK (length(object_type) BETWEEN 1 AND 32),
	object_id TEXT,
	before TEXT,			-- JSON of an admin change, NULL none
	after TEXT
);
INSERT INTO audit_log_new SELECT seq, at, merchant_id, actor_type, user_id,
    location_id, terminal_id, request_id, action, object_type, object_id,
    before, after FROM audit_log;
DROP TABLE audit_log;
ALTER TABLE audit_log_new RENAME TO audit_log;

CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN
	SELECT RAISE(ABORT, 'the audit trail is append-only');
END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN
	SELECT RAISE(ABORT, 'the audit trail is append-only');
END;

CREATE INDEX audit_log_time ON audit_log(merchant_id, at);
CREATE INDEX audit_log_user ON audit_log(merchant_id, user_id, at);
CREATE INDEX audit_log_action ON audit_log(merchant_id, action, at);
CREATE INDEX audit_log_object ON audit_log(merchant_id, object_type, object_id,
    at);
CREATE INDEX audit_log_location ON audit_log(merchant_id, location_id, at);
