-- schema/011_cashback_expiry.sql for PostgreSQL.
-- Cashback expiry. A cashback program may give its earnings a term in
-- days (NULL: they never expire). Each earning's expiry instant is fixed
-- when it is earned (expires_at, NULL: never), so changing the program's
-- term later touches new earnings only. An expired remainder leaves the
-- balance as an 'expiry' transaction, recorded lazily at the next read or
-- write of the card, one for each earning, dated when it expired.
ALTER TABLE programs ADD COLUMN expiry_days BIGINT
	CHECK (expiry_days IS NULL OR expiry_days BETWEEN 1 AND 3650);
ALTER TABLE cashback_earnings ADD COLUMN expires_at BIGINT;
ALTER TABLE transactions ADD COLUMN expired_amount BIGINT
	CHECK (expired_amount IS NULL OR expired_amount > 0);

-- A lookup asks one question: the card's soonest expiry and how much
-- expires then (due already, or the next to come).
CREATE INDEX cashback_expiring ON cashback_earnings(card_id, expires_at)
	WHERE remaining > 0 AND expires_at IS NOT NULL;
-- A report asks which of a merchant's cards have something due: only the
-- earnings due and not yet recorded are read.
CREATE INDEX cashback_due ON cashback_earnings(expires_at)
	WHERE remaining > 0 AND expires_at IS NOT NULL;

-- Reports: expired cashback beside earned and redeemed, in the quarter
-- hour it expired in, at the location and staff of the sale that earned
-- it; the covering indexes of 007 cover it too.
ALTER TABLE report_buckets ADD COLUMN cashback_expired BIGINT NOT NULL
	DEFAULT 0;
CREATE FUNCTION report_expiry() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO report_buckets(merchant_id, bucket, location_id,
	    staff_user_id, cashback_expired)
	VALUES (NEW.merchant_id,
	    (NEW.created_at - ((NEW.created_at % 900000) + 900000) % 900000) / 900000,
	    NEW.location_id, NEW.staff_user_id, NEW.expired_amount)
	ON CONFLICT(merchant_id, bucket, location_id, staff_user_id) DO UPDATE SET
	    cashback_expired = report_buckets.cashback_expired + excluded.cashback_expired;
	RETURN NULL;
END;
$$;
CREATE TRIGGER report_expiry AFTER INSERT ON transactions
	FOR EACH ROW WHEN (NEW.type = 'expiry')
	EXECUTE FUNCTION report_expiry();
DROP INDEX report_buckets_staff;
DROP INDEX report_buckets_location;
CREATE INDEX report_buckets_staff ON report_buckets(merchant_id,
    staff_user_id, bucket, purchases, sales_amount, punches, rewards_earned,
    rewards_claimed, cashback_earned, cashback_redeemed, discounts_given,
    cashback_expired);
CREATE INDEX report_buckets_location ON report_buckets(merchant_id,
    location_id, bucket, purchases, sales_amount, punches, rewards_earned,
    rewards_claimed, cashback_earned, cashback_redeemed, discounts_given,
    cashback_expired);
