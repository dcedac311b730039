-- schema/006_punch_cap.sql for PostgreSQL.
-- A punch program may cap the punches one purchase gives (a coffee shop:
-- 1; NULL: up to the API's 100), so a mistyped or forged punch_count
-- cannot fill a card.
ALTER TABLE programs ADD COLUMN max_punches BIGINT
	CHECK (max_punches IS NULL OR max_punches BETWEEN 1 AND 100);
