-- The shop's own settings (issue 29): its currency, currency symbol, time
-- zone, language and public address, per merchant, also on an
-- installation serving several shops. A shop without its own row reads
-- the installation's (settings), so a database from before keeps its
-- symbol and address with nothing copied.
CREATE TABLE shop_settings (
	merchant_id TEXT NOT NULL REFERENCES merchants(id),
	key TEXT NOT NULL,
	value TEXT NOT NULL,
	PRIMARY KEY (merchant_id, key)
) WITHOUT ROWID;
