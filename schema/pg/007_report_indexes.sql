-- schema/007_report_indexes.sql for PostgreSQL.
-- A period's figures per staff member and per location, read in order
-- with no sort: covering, so a report never touches the table itself
-- (a one-year report over a million purchases: tools/bench_reports).
CREATE INDEX report_buckets_staff ON report_buckets(merchant_id,
    staff_user_id, bucket, purchases, sales_amount, punches, rewards_earned,
    rewards_claimed, cashback_earned, cashback_redeemed, discounts_given);
CREATE INDEX report_buckets_location ON report_buckets(merchant_id,
    location_id, bucket, purchases, sales_amount, punches, rewards_earned,
    rewards_claimed, cashback_earned, cashback_redeemed, discounts_given);
