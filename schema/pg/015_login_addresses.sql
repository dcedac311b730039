-- schema/015_login_addresses.sql for PostgreSQL.
-- The throttle of guesses counts them per client address and key (an
-- account's e-mail, the setup code), so that guesses from one address do
-- not lock others out (issue 33; lib/rule_auth.c, the guard, says how).
-- addr: the client's address as the web server gave it ('' unknown, and
-- the rows made before this migration); shared: the check counted in the
-- key's limit shared by all addresses not known to it (1), or against
-- its address's own limit alone (0).
ALTER TABLE login_attempts ADD COLUMN addr TEXT NOT NULL DEFAULT '';
ALTER TABLE login_attempts ADD COLUMN shared BIGINT NOT NULL DEFAULT 1
	CHECK (shared IN (0, 1));
CREATE INDEX login_attempts_addr ON login_attempts(email, addr, at);

-- The addresses an account logged in from (or refreshed a session
-- from), and when last: one within the refresh token's lifetime is
-- known to the account (its own till, its office) and counts its wrong
-- passwords apart from strangers'.
CREATE TABLE login_known (
	email TEXT NOT NULL,		-- the guard's key ('login:' e-mail)
	addr TEXT NOT NULL,
	at BIGINT NOT NULL,
	PRIMARY KEY (email, addr)
);
CREATE INDEX login_known_at ON login_known(at);
