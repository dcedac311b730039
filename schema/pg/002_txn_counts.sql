-- schema/002_txn_counts.sql for PostgreSQL.
-- Per-card, per-type transaction counts, kept by trigger, so the history's
-- total_count costs the same on a card with 100,000 transactions as on one
-- with 10. Backfilled from the transactions already there.

CREATE TABLE txn_counts (
	card_id TEXT NOT NULL,
	type TEXT NOT NULL,
	n BIGINT NOT NULL CHECK (n >= 0),
	PRIMARY KEY (card_id, type)
);

INSERT INTO txn_counts(card_id, type, n)
	SELECT card_id, type, count(*) FROM transactions GROUP BY card_id, type;

CREATE FUNCTION txn_counts_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO txn_counts(card_id, type, n) VALUES (NEW.card_id, NEW.type, 1)
		ON CONFLICT(card_id, type) DO UPDATE SET n = txn_counts.n + 1;
	RETURN NULL;
END;
$$;
CREATE TRIGGER txn_counts_add AFTER INSERT ON transactions
	FOR EACH ROW EXECUTE FUNCTION txn_counts_add();

CREATE FUNCTION txn_counts_del() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE txn_counts SET n = n - 1
		WHERE card_id = OLD.card_id AND type = OLD.type;
	RETURN NULL;
END;
$$;
CREATE TRIGGER txn_counts_del AFTER DELETE ON transactions
	FOR EACH ROW EXECUTE FUNCTION txn_counts_del();

-- Pruning expired tokens and old login attempts on every login must not
-- scan the tables.
CREATE INDEX tokens_expiry ON tokens(expires_at);
CREATE INDEX login_attempts_at ON login_attempts(at);
