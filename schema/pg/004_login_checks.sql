-- schema/004_login_checks.sql for PostgreSQL.
-- A password check in flight is recorded before it starts (pending = 1)
-- and settled after: kept as a failure, or forgotten on success. Counting
-- the checks in flight keeps the failure limit under any concurrency.
ALTER TABLE login_attempts ADD COLUMN pending BIGINT NOT NULL DEFAULT 0
	CHECK (pending IN (0, 1));
