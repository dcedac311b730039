-- schema/005_back_office.sql for PostgreSQL. The owner's back office.
--
-- Report figures kept per merchant, quarter hour (UTC), location and staff
-- member by triggers, in the same transaction as each write: a summary of
-- a year reads at most a few tens of thousands of rows, however many
-- transactions there were. Quarter hours let the report cut days at any
-- shop's UTC offset. The bucket is SQLite's expression as it is: % and /
-- on BIGINT truncate as SQLite's do, so it floors negative times alike.
CREATE TABLE report_buckets (
	merchant_id TEXT NOT NULL,
	bucket BIGINT NOT NULL,	-- floor(created_at / 900000)
	location_id TEXT NOT NULL,
	staff_user_id TEXT NOT NULL,
	purchases BIGINT NOT NULL DEFAULT 0,
	sales_amount BIGINT NOT NULL DEFAULT 0,
	punches BIGINT NOT NULL DEFAULT 0,
	rewards_earned BIGINT NOT NULL DEFAULT 0,
	rewards_claimed BIGINT NOT NULL DEFAULT 0,
	cashback_earned BIGINT NOT NULL DEFAULT 0,
	cashback_redeemed BIGINT NOT NULL DEFAULT 0,
	discounts_given BIGINT NOT NULL DEFAULT 0,
	PRIMARY KEY (merchant_id, bucket, location_id, staff_user_id)
);

-- SQLite's truth values are the integers 0 and 1; here ::int says so.
CREATE FUNCTION report_txn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO report_buckets(merchant_id, bucket, location_id,
	    staff_user_id, purchases, sales_amount, punches, rewards_claimed,
	    cashback_earned, cashback_redeemed, discounts_given)
	VALUES (NEW.merchant_id,
	    (NEW.created_at - ((NEW.created_at % 900000) + 900000) % 900000) / 900000,
	    NEW.location_id, NEW.staff_user_id,
	    (NEW.type IN ('punch', 'cashback', 'discount'))::int,
	    CASE WHEN NEW.type IN ('punch', 'cashback', 'discount')
	        THEN NEW.purchase_amount ELSE 0 END,
	    coalesce(NEW.punches_added, 0), (NEW.type = 'reward_claim')::int,
	    coalesce(NEW.cashback_earned, 0), coalesce(NEW.redeemed_amount, 0),
	    coalesce(NEW.discount_amount, 0))
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
CREATE TRIGGER report_txn AFTER INSERT ON transactions
	FOR EACH ROW EXECUTE FUNCTION report_txn();

-- A reward counts where and when the purchase that earned it was made.
CREATE FUNCTION report_reward() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO report_buckets(merchant_id, bucket, location_id,
	    staff_user_id, rewards_earned)
	SELECT t.merchant_id,
	    (t.created_at - ((t.created_at % 900000) + 900000) % 900000) / 900000,
	    t.location_id, t.staff_user_id, 1
	FROM transactions t WHERE t.id = NEW.earned_transaction_id
	ON CONFLICT(merchant_id, bucket, location_id, staff_user_id) DO UPDATE SET
	    rewards_earned = report_buckets.rewards_earned + 1;
	RETURN NULL;
END;
$$;
CREATE TRIGGER report_reward AFTER INSERT ON rewards
	FOR EACH ROW EXECUTE FUNCTION report_reward();

-- What was recorded before this migration.
INSERT INTO report_buckets(merchant_id, bucket, location_id, staff_user_id,
    purchases, sales_amount, punches, rewards_claimed, cashback_earned,
    cashback_redeemed, discounts_given)
SELECT merchant_id,
    (created_at - ((created_at % 900000) + 900000) % 900000) / 900000 AS b,
    location_id, staff_user_id,
    sum((type IN ('punch', 'cashback', 'discount'))::int),
    sum(CASE WHEN type IN ('punch', 'cashback', 'discount')
        THEN purchase_amount ELSE 0 END),
    sum(coalesce(punches_added, 0)), sum((type = 'reward_claim')::int),
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
-- kind no longer limited to the three of the till (SQLite rebuilds the
-- table to change a CHECK; here the constraint is replaced).
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_kind_check,
	ADD CONSTRAINT idempotency_keys_kind_check
	CHECK (length(kind) BETWEEN 1 AND 32);
