-- schema/008_card_share.sql for PostgreSQL.
-- A card's own page for its customer, read-only, at an unguessable link:
-- share_token is 128 random bits as 32 lowercase hex characters, made by
-- the service for each new card. The cards issued before get theirs here:
-- SQLite's lower(hex(randomblob(16))) needs pgcrypto here, so the 128 bits
-- are SHA-256 of two gen_random_uuid() (core since PostgreSQL 13, 244
-- bits from the strong random source), cut to 32 hex digits.
ALTER TABLE cards ADD COLUMN share_token TEXT
	CHECK (share_token IS NULL OR (length(share_token) = 32
	    AND share_token !~ '[^0-9a-f]'));
UPDATE cards SET share_token = substr(encode(sha256(convert_to(
    gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')), 'hex'), 1, 32);
CREATE UNIQUE INDEX cards_share_token ON cards(share_token);

-- Who issued a card at the counter, and where (NULL: the owner's tools).
ALTER TABLE cards ADD COLUMN issued_by TEXT REFERENCES users(id);
ALTER TABLE cards ADD COLUMN issued_location_id TEXT REFERENCES locations(id);

-- A program's cards counted from an index rather than every card: the
-- list a till chooses from at each enrolment counts them, as the owner's
-- list of programs does.
CREATE INDEX cards_program ON cards(program_id);
