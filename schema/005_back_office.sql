-- The owner's back office.
--
-- Report figures kept per merchant, quarter hour (UTC), location and staff
-- member by triggers, in the same transaction as each write: a summary of
-- a year reads at most a few tens of thousands of rows, however many
-- transactions there were. Quarter hours let the report cut days at any
-- shop's UTC offset.
CREATE TABLE report_buckets (
	merchant_id TEXT NOT NULL,
	bucket INTEGER NOT NULL,	-- floor(created_at / 900000)
	location_id TEXT NOT NULL,
	staff_user_id TEXT NOT NULL,
	purchases INTEGER NOT NULL DEFAULT 0,
	sales_amount INTEGER NOT NULL DEFAULT 0,
	punches INTEGER NOT NULL DEFAULT 0,
	rewards_earned INTEGER NOT NULL DEFAULT 0,
	rewards_claimed INTEGER NOT NULL DEFAULT 0,
	cashback_earned INTEGER NOT NULL DEFAULT 0,
	cashback_redeemed INTEGER NOT NULL DEFAULT 0,
	discounts_given INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (merchant_id, bucket, location_id, staff_user_id)
) WITHOUT ROWID;

CREATE TRIGGER report_txn AFTER INSERT ON transactions BEGIN
	INSERT INTO report_buckets(merchant_id, bucket, location_id,
	    staff_user_id, purchases, sales_amount, punches, rewards_claimed,
	    cashback_earned, cashback_redeemed, discounts_given)
	VALUES (NEW.merchant_id,
	    (NEW.created_at - ((NEW.created_at % 900000) + 900000) % 900000) / 900000,
	    NEW.location_id, NEW.staff_user_id,
	    NEW.type IN ('punch', 'cashback', 'discount'),
	    CASE WHEN NEW.type IN ('punch', 'cashback', 'discount')
	        THEN NEW.purchase_amount ELSE 0 END,
	    coalesce(NEW.punches_added, 0), NEW.type = 'reward_claim',
	    coalesce(NEW.cashback_earned, 0), coalesce(NEW.redeemed_amount, 0),
	    coalesce(NEW.discount_amount, 0))
	ON CONFLICT(merchant_id, bucket, location_id, staff_user_id) DO UPDATE SET
	    purchases = purchases + excluded.purchases,
	    sales_amount = sales_amount + excluded.sales_amount,
	    punches = punches + excluded.punches,
	    rewards_claimed = rewards_claimed + excluded.rewards_claimed,
	    cashback_earned = cashback_earned + excluded.cashback_earned,
	    cashback_redeemed = cashback_redeemed + excluded.cashback_redeemed,
	    discounts_given = discounts_given + excluded.discounts_given;
END;

-- A reward counts where and when the purchase that earned it was made.
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

-- What was recorded before this migration.
INSERT INTO report_buckets(merchant_id, bucket, location_id, staff_user_id,
    purchases, sales_amount, punches, rewards_claimed, cashback_earned,
    cashback_redeemed, discounts_given)
SELECT merchant_id,
    (created_at - ((created_at % 900000) + 900000) % 900000) / 900000 AS b,
    location_id, staff_user_id,
    sum(type IN ('punch', 'cashback', 'discount')),
    sum(CASE WHEN type IN ('punch', 'cashback', 'discount')
        THEN purchase_amount ELSE 0 END),
    sum(coalesce(punches_added, 0)), sum(type = 'reward_claim'),
    sum(coalesce(cashback_earned, 0)), sum(coalesce(redeemed_amount, 0)),
    sum(coalesce(discount_amount, 0))
FROM transactions GROUP BY merchant_id, b, location_id, staff_user_id;
UPDATE report_buckets SET rewards_earned = (
	SELECT count(*) FROM rewards r JOIN transactions t
	    ON t.id = r.earned_transaction_id
	WHERE t.merchant_id = report_buckets.merchant_id
	    AND t.location_id = report_buckets.location_id
	    AND t.staff_user_id = report_buckets.staff_user_id
	    AND (t.created_at - ((t.created_at % 900000) + 900000) % 900000)
	        / 900000 = report_buckets.bucket);

-- A period's transactions of a merchant, newest first.
CREATE INDEX transactions_merchant_time ON transactions(merchant_id, created_at);

-- Idempotency keys for the owner's writes too: the same table, with the
-- kind no longer limited to the three of the till (a table is rebuilt to
-- change a CHECK in SQLite).
CREATE TABLE idempotency_keys_new (
	merchant_id TEXT NOT NULL,
	key TEXT NOT NULL,
	kind TEXT NOT NULL CHECK (length(kind) BETWEEN 1 AND 32),
	transaction_id TEXT NOT NULL,
	response TEXT NOT NULL,
	created_at INTEGER NOT NULL,
	PRIMARY KEY (merchant_id, key)
) WITHOUT ROWID;
INSERT INTO idempotency_keys_new SELECT * FROM idempotency_keys;
DROP TABLE idempotency_keys;
ALTER TABLE idempotency_keys_new RENAME TO idempotency_keys;
