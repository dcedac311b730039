-- report_txn of 009 again, with each list of types written as equalities
-- joined by OR instead of IN (...): the same test (NULL matches neither),
-- but SQLite builds a temporary b-tree for every IN list of more than two
-- constants, each time the trigger runs, four per transaction written.
-- That was a quarter of a purchase's time inside the write turn.
DROP TRIGGER report_txn;
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
	    CASE WHEN (NEW.type = 'punch' OR NEW.type = 'cashback' OR
	        NEW.type = 'discount') THEN 1
	        WHEN (o.type = 'punch' OR o.type = 'cashback' OR
	            o.type = 'discount') THEN -1
	        ELSE 0 END,
	    CASE WHEN (NEW.type = 'punch' OR NEW.type = 'cashback' OR
	        NEW.type = 'discount')
	        THEN NEW.purchase_amount
	        WHEN (o.type = 'punch' OR o.type = 'cashback' OR
	            o.type = 'discount')
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
