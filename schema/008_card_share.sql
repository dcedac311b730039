-- A card's own page for its customer, read-only, at an unguessable link:
-- share_token is 128 random bits as 32 lowercase hex characters, made by
-- the service for each new card. The cards issued before get theirs here.
ALTER TABLE cards ADD COLUMN share_token TEXT
	CHECK (share_token IS NULL OR (length(share_token) = 32
	    AND share_token NOT GLOB '*[^0-9a-f]*'));
UPDATE cards SET share_token = lower(hex(randomblob(16)));
CREATE UNIQUE INDEX cards_share_token ON cards(share_token);

-- Who issued a card at the counter, and where (NULL: the owner's tools).
ALTER TABLE cards ADD COLUMN issued_by TEXT REFERENCES users(id);
ALTER TABLE cards ADD COLUMN issued_location_id TEXT REFERENCES locations(id);

-- A program's cards counted from an index rather than every card: the
-- list a till chooses from at each enrolment counts them, as the owner's
-- list of programs does.
CREATE INDEX cards_program ON cards(program_id);
