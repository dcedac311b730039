-- schema/014_card_code.sql for PostgreSQL.
-- A card's own secret for the time-based code its customer's page shows
-- (60-second steps, lib/card_code.c): 160 random bits as 40
-- lowercase hex characters, made by the service for each new card and
-- never shown. The cards issued before get theirs here: 160 bits of
-- SHA-256 of two gen_random_uuid(), as 008 makes share tokens.
ALTER TABLE cards ADD COLUMN code_secret TEXT
	CHECK (code_secret IS NULL OR (length(code_secret) = 40
	    AND code_secret !~ '[^0-9a-f]'));
UPDATE cards SET code_secret = substr(encode(sha256(convert_to(
    gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')), 'hex'), 1, 40);

-- The time step of the last code a claim or a redemption took (0: none):
-- a code is good once, and never one older than the last used, so a
-- screenshot replayed within the window is refused.
ALTER TABLE cards ADD COLUMN code_step_used BIGINT NOT NULL DEFAULT 0;
