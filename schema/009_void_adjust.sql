-- Correcting mistakes: a void undoes a transaction by a compensating one
-- linked to it (the original stays as it was), an adjustment is the
-- owner's signed correction of a card, an expiry takes expired cashback
-- off (migration 011). SQLite changes a CHECK only by rebuilding the
-- table: done once, here, for all three types.
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

-- report_reward reads transactions: dropped while the table is replaced
-- (a rename checks every trigger), made again below.
DROP TRIGGER report_reward;

CREATE TABLE transactions_new (
	id TEXT NOT NULL UNIQUE,
	merchant_id TEXT NOT NULL REFERENCES merchants(id),
	card_id TEXT NOT NULL REFERENCES cards(id),
	location_id TEXT NOT NULL REFERENCES locations(id),
	staff_user_id TEXT NOT NULL REFERENCES users(id),
	type TEXT NOT NULL CHECK (type IN ('punch', 'cashback', 'discount',
	    'reward_claim', 'cashback_redeem', 'void', 'adjustment', 'expiry')),
	purchase_amount INTEGER NOT NULL DEFAULT 0 CHECK (purchase_amount >= 0),
	punches_added INTEGER,
	rate_bp INTEGER,
	cashback_earned INTEGER,
	discount_amount INTEGER,
	redeemed_amount INTEGER,
	reward_id TEXT,
	transaction_notes TEXT,
	pos_reference_id TEXT,
	pos_terminal_id TEXT,
	client_timestamp TEXT,
	created_at INTEGER NOT NULL,
	voided_transaction_id TEXT,
	parent_transaction_id TEXT,
	reason TEXT,
	CHECK ((type = 'void') = (voided_transaction_id IS NOT NULL))
);
-- rowid too: it breaks ties between equal created_at values.
INSERT INTO transactions_new(rowid, id, merchant_id, card_id, location_id,
    staff_user_id, type, purchase_amount, punches_added, rate_bp,
    cashback_earned, discount_amount, redeemed_amount, reward_id,
    transaction_notes, pos_reference_id, pos_terminal_id, client_timestamp,
    created_at)
SELECT rowid, id, merchant_id, card_id, location_id, staff_user_id, type,
    purchase_amount, punches_added, rate_bp, cashback_earned,
    discount_amount, redeemed_amount, reward_id, transaction_notes,
    pos_reference_id, pos_terminal_id, client_timestamp, created_at
FROM transactions;
DROP TABLE transactions;
ALTER TABLE transactions_new RENAME TO transactions;

-- The indexes of 001 and 005, as they were.
CREATE INDEX transactions_card_time ON transactions(card_id, created_at);
CREATE INDEX transactions_card_type_time ON transactions(card_id, type,
    created_at);
CREATE INDEX transactions_merchant_time ON transactions(merchant_id,
    created_at);
CREATE UNIQUE INDEX transactions_voided ON transactions(voided_transaction_id)
    WHERE voided_transaction_id IS NOT NULL;
CREATE INDEX transactions_parent ON transactions(parent_transaction_id)
    WHERE parent_transaction_id IS NOT NULL;

-- An earn-on-remainder purchase is the row written right after its
-- redemption, in the same write: same card, time, place and person.
UPDATE transactions SET parent_transaction_id = (
	SELECT r.id FROM transactions r WHERE r.rowid = transactions.rowid - 1
	    AND r.type = 'cashback_redeem' AND r.card_id = transactions.card_id
	    AND r.created_at = transactions.created_at
	    AND r.location_id = transactions.location_id
	    AND r.staff_user_id = transactions.staff_user_id)
WHERE type = 'cashback';

-- The triggers of 002 and 005, which went with the old table.
CREATE TRIGGER txn_counts_add AFTER INSERT ON transactions BEGIN
	INSERT INTO txn_counts(card_id, type, n) VALUES (NEW.card_id, NEW.type, 1)
		ON CONFLICT(card_id, type) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER txn_counts_del AFTER DELETE ON transactions BEGIN
	UPDATE txn_counts SET n = n - 1
		WHERE card_id = OLD.card_id AND type = OLD.type;
END;

-- As in 005, but a void takes its original out of the figures of the
-- original's own quarter hour, location and staff member, as if it had
-- not happened (a sale less, its punches, cashback and discount back; a
-- claim less), so no figure goes below 0. An adjustment counts where and
-- when it is made: punches given, cashback given (earned) or taken
-- (redeemed, as a redemption takes it).
CREATE TRIGGER report_txn AFTER INSERT ON transactions BEGIN
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
	        THEN max(coalesce(NEW.punches_added, 0), 0)
	        ELSE coalesce(NEW.punches_added, 0) END,
	    CASE WHEN NEW.type = 'reward_claim' THEN 1
	        WHEN o.type = 'reward_claim' THEN -1 ELSE 0 END,
	    CASE WHEN NEW.type = 'adjustment'
	        THEN max(coalesce(NEW.cashback_earned, 0), 0)
	        ELSE coalesce(NEW.cashback_earned, 0) END,
	    CASE WHEN NEW.type = 'adjustment'
	        THEN max(-coalesce(NEW.cashback_earned, 0), 0)
	        ELSE coalesce(NEW.redeemed_amount, 0) END,
	    coalesce(NEW.discount_amount, 0)
	FROM (SELECT 1) LEFT JOIN transactions o
	    ON o.id = NEW.voided_transaction_id
	WHERE true
	ON CONFLICT(merchant_id, bucket, location_id, staff_user_id) DO UPDATE SET
	    purchases = purchases + excluded.purchases,
	    sales_amount = sales_amount + excluded.sales_amount,
	    punches = punches + excluded.punches,
	    rewards_claimed = rewards_claimed + excluded.rewards_claimed,
	    cashback_earned = cashback_earned + excluded.cashback_earned,
	    cashback_redeemed = cashback_redeemed + excluded.cashback_redeemed,
	    discounts_given = discounts_given + excluded.discounts_given;
END;

-- As in 005: a reward counts where and when the purchase that earned it
-- was made ...
CREATE TRIGGER report_reward AFTER INSERT ON rewards BEGIN
	INSERT INTO report_buckets(merchant_id, bucket, location_id,
	    staff_user_id, rewards_earned)
	SELECT t.merchant_id,
	    (t.created_at - ((t.created_at % 900000) + 900000) % 900000) / 900000,
	    t.location_id, t.staff_user_id, 1
	FROM transactions t WHERE t.id = NEW.earned_transaction_id
	ON CONFLICT(merchant_id, bucket, location_id, staff_user_id) DO UPDATE SET
	    rewards_earned = rewards_earned + 1;
END;

-- ... and a pending reward a void withdraws (deletes) counts there no more.
CREATE TRIGGER report_reward_withdrawn AFTER DELETE ON rewards BEGIN
	UPDATE report_buckets SET rewards_earned = rewards_earned - 1
	WHERE (merchant_id, bucket, location_id, staff_user_id) = (
	    SELECT t.merchant_id,
	    (t.created_at - ((t.created_at % 900000) + 900000) % 900000) / 900000,
	    t.location_id, t.staff_user_id
	    FROM transactions t WHERE t.id = OLD.earned_transaction_id);
END;
