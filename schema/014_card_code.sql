-- A card's own secret for the time-based code its customer's page shows
-- (60-second steps, lib/card_code.c): 160 random bits as 40
-- lowercase hex characters, made by the service for each new card and
-- never shown. With the owner's setting redeem_needs_card_code, a claim
-- or a redemption needs a current code (lib/card_code.c). The cards
-- issued before get theirs here.
ALTER TABLE cards ADD COLUMN code_secret TEXT
	CHECK (code_secret IS NULL OR (length(code_secret) = 40
	    AND code_secret NOT GLOB '*[^0-9a-f]*'));
UPDATE cards SET code_secret = lower(hex(randomblob(20)));

-- The time step of the last code a claim or a redemption took (0: none):
-- a code is good once, and never one older than the last used, so a
-- screenshot replayed within the window is refused.
ALTER TABLE cards ADD COLUMN code_step_used INTEGER NOT NULL DEFAULT 0;
