-- schema/003_user_disabled.sql for PostgreSQL.
-- A merchant can take a user's access away (a cashier who left) without
-- deleting the history that names them.
ALTER TABLE users ADD COLUMN disabled BIGINT NOT NULL DEFAULT 0
	CHECK (disabled IN (0, 1));
