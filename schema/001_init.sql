-- Initial schema: the whole v1 contract. Money is integer cents, rates are
-- basis points (0.05 = 500), times are integer milliseconds since the epoch (UTC).

CREATE TABLE settings (
	key TEXT PRIMARY KEY,
	value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE merchants (
	id TEXT PRIMARY KEY,
	name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
	created_at INTEGER NOT NULL
);

-- rowid keeps creation order: an owner's "first location" is the lowest rowid.
CREATE TABLE locations (
	id TEXT PRIMARY KEY,
	merchant_id TEXT NOT NULL REFERENCES merchants(id),
	name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
	created_at INTEGER NOT NULL
);
CREATE INDEX locations_merchant ON locations(merchant_id);

CREATE TABLE users (
	id TEXT PRIMARY KEY,
	merchant_id TEXT NOT NULL REFERENCES merchants(id),
	email TEXT NOT NULL UNIQUE COLLATE NOCASE,
	display_name TEXT,
	user_type TEXT NOT NULL CHECK (user_type IN ('owner', 'system_user')),
	location_id TEXT REFERENCES locations(id),
	password_hash TEXT NOT NULL,
	created_at INTEGER NOT NULL,
	CHECK (user_type = 'owner' OR location_id IS NOT NULL)
);
CREATE INDEX users_merchant ON users(merchant_id);

CREATE TABLE programs (
	id TEXT PRIMARY KEY,
	merchant_id TEXT NOT NULL REFERENCES merchants(id),
	type TEXT NOT NULL CHECK (type IN ('punch', 'cashback', 'discount')),
	title TEXT NOT NULL,
	punch_requirement INTEGER CHECK (punch_requirement IS NULL OR punch_requirement BETWEEN 1 AND 1000),
	reward_title TEXT,
	reward_description TEXT NOT NULL DEFAULT '',
	reward_amount INTEGER NOT NULL DEFAULT 0 CHECK (reward_amount >= 0),
	cooldown_seconds INTEGER NOT NULL DEFAULT 60 CHECK (cooldown_seconds >= 0),
	created_at INTEGER NOT NULL,
	CHECK (type <> 'punch' OR (punch_requirement IS NOT NULL AND reward_title IS NOT NULL))
);

-- Cashback and discount tiers, by minimum lifetime spend; the first starts at 0.
CREATE TABLE tiers (
	program_id TEXT NOT NULL REFERENCES programs(id),
	name TEXT NOT NULL,
	min_spend INTEGER NOT NULL CHECK (min_spend >= 0),
	rate_bp INTEGER NOT NULL CHECK (rate_bp BETWEEN 0 AND 10000),
	PRIMARY KEY (program_id, min_spend)
) WITHOUT ROWID;

CREATE TABLE cards (
	id TEXT PRIMARY KEY,
	merchant_id TEXT NOT NULL REFERENCES merchants(id),
	program_id TEXT NOT NULL REFERENCES programs(id),
	customer_name TEXT NOT NULL,
	barcode TEXT NOT NULL UNIQUE,
	qr_code TEXT NOT NULL UNIQUE,
	status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
	current_punches INTEGER NOT NULL DEFAULT 0 CHECK (current_punches >= 0),
	pending_rewards INTEGER NOT NULL DEFAULT 0 CHECK (pending_rewards >= 0),
	lifetime_punches INTEGER NOT NULL DEFAULT 0 CHECK (lifetime_punches >= 0),
	cashback_balance INTEGER NOT NULL DEFAULT 0 CHECK (cashback_balance >= 0),
	lifetime_cashback INTEGER NOT NULL DEFAULT 0 CHECK (lifetime_cashback >= 0),
	lifetime_spend INTEGER NOT NULL DEFAULT 0 CHECK (lifetime_spend >= 0),
	created_at INTEGER NOT NULL
);
CREATE INDEX cards_merchant ON cards(merchant_id);

-- Every purchase, claim and redemption. rowid is the insertion order that
-- breaks ties between equal created_at values.
CREATE TABLE transactions (
	id TEXT NOT NULL UNIQUE,
	merchant_id TEXT NOT NULL REFERENCES merchants(id),
	card_id TEXT NOT NULL REFERENCES cards(id),
	location_id TEXT NOT NULL REFERENCES locations(id),
	staff_user_id TEXT NOT NULL REFERENCES users(id),
	type TEXT NOT NULL CHECK (type IN ('punch', 'cashback', 'discount', 'reward_claim', 'cashback_redeem')),
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
	created_at INTEGER NOT NULL
);
CREATE INDEX transactions_card_time ON transactions(card_id, created_at);
CREATE INDEX transactions_card_type_time ON transactions(card_id, type, created_at);

-- One namespace of idempotency keys per merchant, kept forever. kind is
-- 'purchase' (record and sync), 'claim' or 'redeem'; response is the JSON
-- that a replay returns.
CREATE TABLE idempotency_keys (
	merchant_id TEXT NOT NULL,
	key TEXT NOT NULL,
	kind TEXT NOT NULL CHECK (kind IN ('purchase', 'claim', 'redeem')),
	transaction_id TEXT NOT NULL,
	response TEXT NOT NULL,
	created_at INTEGER NOT NULL,
	PRIMARY KEY (merchant_id, key)
) WITHOUT ROWID;

CREATE TABLE rewards (
	id TEXT PRIMARY KEY,
	card_id TEXT NOT NULL REFERENCES cards(id),
	earned_transaction_id TEXT NOT NULL,
	title TEXT NOT NULL,
	description TEXT NOT NULL DEFAULT '',
	amount INTEGER NOT NULL DEFAULT 0,
	status TEXT NOT NULL DEFAULT 'pending_claim' CHECK (status IN ('pending_claim', 'claimed')),
	earned_at INTEGER NOT NULL,
	claimed_at INTEGER,
	claim_transaction_id TEXT
);
CREATE INDEX rewards_pending ON rewards(card_id, earned_at) WHERE status = 'pending_claim';

-- The cashback ledger: one row per earning, with what is left of it for
-- FIFO redemption. A card's balance is the sum of remaining.
CREATE TABLE cashback_earnings (
	transaction_id TEXT PRIMARY KEY,
	card_id TEXT NOT NULL REFERENCES cards(id),
	amount INTEGER NOT NULL CHECK (amount >= 0),
	remaining INTEGER NOT NULL CHECK (remaining >= 0 AND remaining <= amount),
	earned_at INTEGER NOT NULL
);
CREATE INDEX cashback_open ON cashback_earnings(card_id, earned_at) WHERE remaining > 0;

CREATE TABLE redemption_entries (
	redeem_transaction_id TEXT NOT NULL,
	earning_transaction_id TEXT NOT NULL,
	amount_used INTEGER NOT NULL CHECK (amount_used > 0),
	PRIMARY KEY (redeem_transaction_id, earning_transaction_id)
) WITHOUT ROWID;

-- Access and refresh tokens, stored only as a digest. family ties every
-- token descended from one login, so reuse of a rotated refresh token can
-- revoke them all.
CREATE TABLE tokens (
	digest BLOB PRIMARY KEY,
	kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
	user_id TEXT NOT NULL REFERENCES users(id),
	family TEXT NOT NULL,
	expires_at INTEGER NOT NULL,
	rotated_at INTEGER,
	revoked INTEGER NOT NULL DEFAULT 0,
	created_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX tokens_family ON tokens(family);

-- Login attempts that count against the throttle (failures, and attempts in
-- progress), by normalised e-mail.
CREATE TABLE login_attempts (
	email TEXT NOT NULL,
	at INTEGER NOT NULL
);
CREATE INDEX login_attempts_email ON login_attempts(email, at);
