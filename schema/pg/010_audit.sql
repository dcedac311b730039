-- schema/010_audit.sql for PostgreSQL.
-- The audit trail: one row for every committed write (v1, admin, setup,
-- the admin tool), written by the write path (lib/write.c) inside the
-- write's own transaction, so a write that rolls back leaves none. The
-- service only ever appends: the triggers refuse to change or remove a
-- row, TRUNCATE too (SQLite has none; here it would pass row triggers).
CREATE TABLE audit_log (
	seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,	-- the order of writing
	at BIGINT NOT NULL,		-- ms since 1970, UTC: when it was written
	merchant_id TEXT,		-- NULL: the installation's (no shop's)
	-- 'service': what the service does by itself (an expiry found due)
	actor_type TEXT NOT NULL CHECK (actor_type IN ('owner', 'system_user',
	    'loyalty-admin', 'setup', 'service')),
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

CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'the audit trail is append-only';
END;
$$;
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
	FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
	FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
	FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();

-- The owner's filters, newest first within each: the period alone, or a
-- user, an action, an object or a location within it.
CREATE INDEX audit_log_time ON audit_log(merchant_id, at);
CREATE INDEX audit_log_user ON audit_log(merchant_id, user_id, at);
CREATE INDEX audit_log_action ON audit_log(merchant_id, action, at);
CREATE INDEX audit_log_object ON audit_log(merchant_id, object_type, object_id,
    at);
CREATE INDEX audit_log_location ON audit_log(merchant_id, location_id, at);
