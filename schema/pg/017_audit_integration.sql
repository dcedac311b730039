-- schema/017_audit_integration.sql for PostgreSQL: the audit trail names
-- a write by an integration token as actor 'integration' (the token's id
-- in user_id). A CHECK is replaced in place here (validated, no row
-- changed, so the append-only triggers do not fire).
ALTER TABLE audit_log DROP CONSTRAINT audit_log_actor_type_check;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_actor_type_check
	CHECK (actor_type IN ('owner', 'system_user', 'loyalty-admin', 'setup',
	    'service', 'integration'));
