-- schema/009_void_adjust.sql for PostgreSQL.
-- Correcting mistakes: a void undoes a transaction by a compensating one
-- linked to it (the original stays as it was), an adjustment is the
-- owner's signed correction of a card, an expiry takes expired cashback
-- off (migration 011). SQLite rebuilds the table to change its CHECK;
-- here the table is altered in place, to the same end: the columns below
-- after created_at, the same constraints, indexes and triggers, and rowid
-- (a column here) as it was.
--
-- New columns:
--   voided_transaction_id  on a void: the transaction it undoes; unique,
--                          so a transaction is voided at most once even
--                          by two tills at the same moment
--   parent_transaction_id  on the purchase a redemption earned on its
--                          remainder: that redemption (voided with it)
--   reason                 why, for a void or an adjustment
--
-- On a void or an adjustment the amounts are signed changes of the card:
-- punches_added, cashback_earned and redeemed_amount below 0 take back
-- what the original gave (a void of a redemption returns cashback as a
-- negative redeemed_amount), so the reports' sums stay the ledger's.
ALTER TABLE transactions DROP CONSTRAINT transactions_type_check,
	ADD CONSTRAINT transactions_type_check CHECK (type IN ('punch',
	    'cashback', 'discount', 'reward_claim', 'cashback_redeem', 'void',
	    'adjustment', 'expiry')),
	ADD COLUMN voided_transaction_id TEXT,
	ADD COLUMN parent_transaction_id TEXT,
	ADD COLUMN reason TEXT,
	ADD CONSTRAINT transactions_void_check
	    CHECK ((type = 'void') = (voided_transaction_id IS NOT NULL));

-- The indexes of 001 and 005 stay as they are.
CREATE UNIQUE INDEX transactions_voided ON transactions(voided_transaction_id)
    WHERE voided_transaction_id IS NOT NULL;
CREATE INDEX transactions_parent ON transactions(parent_transaction_id)
    WHERE parent_transaction_id IS NOT NULL;

-- An earn-on-remainder purchase is the row written right after its
-- redemption, in the same write: same card, time, place and person. Right
-- after: the next rowid in SQLite; here the next one present, since an
-- identity leaves a gap where an insert rolled back.
UPDATE transactions SET parent_transaction_id = (
	SELECT r.id FROM transactions r WHERE r.rowid = (SELECT max(p.rowid)
	    FROM transactions p WHERE p.rowid < transactions.rowid)
	    AND r.type = 'cashback_redeem' AND r.card_id = transactions.card_id
	    AND r.created_at = transactions.created_at
	    AND r.location_id = transactions.location_id
	    AND r.staff_user_id = transactions.staff_user_id)
WHERE type = 'cashback';

-- The triggers of 002 stay as they are. As in 005, but a void takes its
-- original out of the figures of the original's own quarter hour,
-- location and staff member, as if it had not happened (a sale less, its
-- punches, cashback and discount back; a claim less), so no figure goes
-- below 0. An adjustment counts where and when it is made: punches given,
-- cashback given (earned) or taken (redeemed, as a redemption takes it).
-- SQLite's two-argument max() is greatest() here.
CREATE OR REPLACE FUNCTION report_txn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO report_buckets(merchant_id, bucket, location_id,
	    staff_user_id, purchases, sales_amount, punches, rewards_claimed,
	    cashback_earned, cashback_redeemed, discounts_given)
	SELECT NEW.merchant_id,
	    (coalesce(o.created_at, NEW.created_at) -
	    ((coalesce(o.created_at, NEW.created_at) % 900000) + 900000) % 900000)
	    / 900000,
	    coalesce(o.location_id, NEW.location_id),
	    coalesce(o.staff_user_id, NEW.staff_user_id),
	    CASE WHEN NEW.type IN ('punch', 'cashback', 'discount') THEN 1
	        WHEN o.type IN ('punch', 'cashback', 'discount') THEN -1
	        ELSE 0 END,
	    CASE WHEN NEW.type IN ('punch', 'cashback', 'discount')
	        THEN NEW.purchase_amount
	        WHEN o.type IN ('punch', 'cashback', 'discount')
	        THEN -NEW.purchase_amount ELSE 0 END,
	    CASE WHEN NEW.type = 'adjustment'
	        THEN greatest(coalesce(NEW.punches_added, 0), 0)
	        ELSE coalesce(NEW.punches_added, 0) END,
	    CASE WHEN NEW.type = 'reward_claim' THEN 1
	        WHEN o.type = 'reward_claim' THEN -1 ELSE 0 END,
	    CASE WHEN NEW.type = 'adjustment'
	        THEN greatest(coalesce(NEW.cashback_earned, 0), 0)
	        ELSE coalesce(NEW.cashback_earned, 0) END,
	    CASE WHEN NEW.type = 'adjustment'
	        THEN greatest(-coalesce(NEW.cashback_earned, 0), 0)
	        ELSE coalesce(NEW.redeemed_amount, 0) END,
	    coalesce(NEW.discount_amount, 0)
	FROM (SELECT 1) one LEFT JOIN transactions o
	    ON o.id = NEW.voided_transaction_id
	ON CONFLICT(merchant_id, bucket, location_id, staff_user_id) DO UPDATE SET
	    purchases = report_buckets.purchases + excluded.purchases,
	    sales_amount = report_buckets.sales_amount + excluded.sales_amount,
	    punches = report_buckets.punches + excluded.punches,
	    rewards_claimed = report_buckets.rewards_claimed + excluded.rewards_claimed,
	    cashback_earned = report_buckets.cashback_earned + excluded.cashback_earned,
	    cashback_redeemed = report_buckets.cashback_redeemed + excluded.cashback_redeemed,
	    discounts_given = report_buckets.discounts_given + excluded.discounts_given;
	RETURN NULL;
END;
$$;

-- As in 005, report_reward: a reward counts where and when the purchase
-- that earned it was made ... and a pending reward a void withdraws
-- (deletes) counts there no more.
CREATE FUNCTION report_reward_withdrawn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE report_buckets SET rewards_earned = rewards_earned - 1
	WHERE (merchant_id, bucket, location_id, staff_user_id) = (
	    SELECT t.merchant_id,
	    (t.created_at - ((t.created_at % 900000) + 900000) % 900000) / 900000,
	    t.location_id, t.staff_user_id
	    FROM transactions t WHERE t.id = OLD.earned_transaction_id);
	RETURN NULL;
END;
$$;
CREATE TRIGGER report_reward_withdrawn AFTER DELETE ON rewards
	FOR EACH ROW EXECUTE FUNCTION report_reward_withdrawn();
