-- schema/012_punches_removed.sql for PostgreSQL.
-- Reports: punches an owner's adjustment took off a card, beside the
-- punches given, where and when the adjustment was made. The figure of
-- punches given never goes below 0 (a quarter hour may hold no punch to
-- take from), so what was taken is a figure of its own. A void still
-- takes its original's punches out of the original's own figures (009).
ALTER TABLE report_buckets ADD COLUMN punches_removed BIGINT NOT NULL
	DEFAULT 0;
CREATE FUNCTION report_punches_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO report_buckets(merchant_id, bucket, location_id,
	    staff_user_id, punches_removed)
	VALUES (NEW.merchant_id,
	    (NEW.created_at - ((NEW.created_at % 900000) + 900000) % 900000) / 900000,
	    NEW.location_id, NEW.staff_user_id, -NEW.punches_added)
	ON CONFLICT(merchant_id, bucket, location_id, staff_user_id) DO UPDATE SET
	    punches_removed = report_buckets.punches_removed + excluded.punches_removed;
	RETURN NULL;
END;
$$;
CREATE TRIGGER report_punches_removed AFTER INSERT ON transactions
	FOR EACH ROW WHEN (NEW.type = 'adjustment' AND NEW.punches_added < 0)
	EXECUTE FUNCTION report_punches_removed();
-- Adjustments made before this column: counted now.
INSERT INTO report_buckets(merchant_id, bucket, location_id, staff_user_id,
    punches_removed)
SELECT merchant_id,
    (created_at - ((created_at % 900000) + 900000) % 900000) / 900000,
    location_id, staff_user_id, sum(-punches_added)
FROM transactions WHERE type = 'adjustment' AND punches_added < 0
GROUP BY 1, 2, 3, 4
ON CONFLICT(merchant_id, bucket, location_id, staff_user_id) DO UPDATE SET
    punches_removed = report_buckets.punches_removed + excluded.punches_removed;
DROP INDEX report_buckets_staff;
DROP INDEX report_buckets_location;
CREATE INDEX report_buckets_staff ON report_buckets(merchant_id,
    staff_user_id, bucket, purchases, sales_amount, punches, rewards_earned,
    rewards_claimed, cashback_earned, cashback_redeemed, discounts_given,
    cashback_expired, punches_removed);
CREATE INDEX report_buckets_location ON report_buckets(merchant_id,
    location_id, bucket, purchases, sales_amount, punches, rewards_earned,
    rewards_claimed, cashback_earned, cashback_redeemed, discounts_given,
    cashback_expired, punches_removed);
