-- schema/018_shop_settings.sql for PostgreSQL: the shop's own settings.
CREATE TABLE shop_settings (
	merchant_id TEXT NOT NULL REFERENCES merchants(id),
	key TEXT NOT NULL,
	value TEXT NOT NULL,
	PRIMARY KEY (merchant_id, key)
);
