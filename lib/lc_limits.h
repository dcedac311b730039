/*
 * Every limit of the service in one block: the request validators, the
 * admin tool, the storage buffers, the schema checks (tests/unit_db checks
 * the migrations against these numbers) and the error messages all read
 * them from here, so a limit changes in one place.
 */
#ifndef LC_LIMITS_H
#define LC_LIMITS_H

/* Requests. */
#define LC_BODY_MAX (1024 * 1024)	/* bytes of a request body */
#define LC_BATCH_MAX 100		/* purchases in one sync batch */
#define LC_ISSUE_MAX 100		/* cards issued by one request */
#define LC_SHEET_MAX 100		/* cards on one printed sheet */
/* Rows of one page of a list, at most. */
#define LC_CARDS_PAGE_MAX 100		/* the owner's card list */
#define LC_HISTORY_PAGE_MAX 100		/* a card's history */
#define LC_AUDIT_PAGE_MAX 500		/* the audit trail */
/* Ids of one list of an audit entry (a batch's card_ids) given names
 * (the entry still lists them all): a page of batches stays a page. */
#define LC_AUDIT_NAMED_MAX 10
#define LC_TXN_PAGE_MAX 500		/* the report's transactions */
#define LC_EVENTS_PAGE_MAX 500		/* the feed of events */
#define LC_EVENTS_PAGE_DEFAULT 100	/* the feed's page without limit */
#define LC_REQUEST_ID_MAX 64		/* X-Request-Id, [A-Za-z0-9._-] */
/* Values in one JSON body (a full sync batch holds about 1,600). */
#define LC_JSON_VALUES_MAX 10000
/* After a request with a body this large, the process gives its freed
 * memory back to the system, so one outsized request does not leave a
 * responder big for good. A sync batch of 100 purchases (about 19 KiB)
 * grows the heap by some 3 MiB: it is one of them. */
#define LC_TRIM_AFTER (8 * 1024)

/* Identifiers. */
#define LC_ID_LEN 36			/* a UUID in text form */
/* Longest id or card code read from a request. Nothing the service issues
 * is that long, so a longer one is a VALIDATION_ERROR naming the field: a
 * client's bug, not an unknown card. */
#define LC_REF_MAX 255
#define LC_KEY_MAX 255			/* idempotency_key, printable ASCII */
#define LC_QR_MAX 340			/* base64 text of a QR payload */
/* A card's share token: the unguessable name of its public page, 128
 * random bits as lowercase hex. */
#define LC_SHARE_LEN 32
/* A card's secret of its time-based codes: 160 random bits as lowercase
 * hex. */
#define LC_CODE_SECRET_LEN 40
/* A time-based code: its digits, its step, and how many steps before
 * the current one a till still takes (a code shown up to 5 minutes ago). */
#define LC_CODE_DIGITS 6
#define LC_CODE_STEP_SECONDS 60
#define LC_CODE_PAST_STEPS 4

/* Text, in characters (UTF-8); buffers hold LC_BYTES(n). */
#define LC_NAME_MAX 200			/* names and titles */
#define LC_DESC_MAX 500			/* a reward's description */
#define LC_TIER_NAME_MAX 100
#define LC_NOTES_MAX 500		/* transaction_notes */
#define LC_POSREF_MAX 64		/* pos_reference_id, pos_terminal_id,
					 * client_timestamp */
#define LC_EMAIL_MAX 254		/* bytes, printable ASCII */
#define LC_CURRENCY_MAX 8		/* currency_symbol setting */
#define LC_URL_MAX 200			/* public_url setting, bytes of ASCII */
#define LC_PASSWORD_MAX 1024		/* bytes */
/* A password set through the owner's API or setup: a shop's accounts
 * face the internet. (The admin tool, run on the server, takes any.) */
#define LC_PASSWORD_MIN 8
#define LC_BYTES(chars) ((chars) * 4 + 1)

/* Money and programs. */
/* In the currency's minor units: 1,000,000.00 of a two-decimal currency,
 * 100,000,000 yen, 100,000.000 dinars. */
#define LC_MONEY_MAX 100000000LL
#define LC_SPEND_MAX (LC_MONEY_MAX * 1000)	/* a tier's minimum spend */
#define LC_RATE_MAX 10000		/* basis points: a rate of 1 */
#define LC_TIERS_MAX 16			/* tiers of one program */
#define LC_PUNCH_ADJUST_MAX 1000	/* punches either way in one adjustment */
#define LC_PUNCH_COUNT_MAX 100		/* punches in one purchase */
#define LC_PUNCHES_MAX 1000		/* a punch card's requirement */
#define LC_COOLDOWN_MAX 86400		/* seconds between punches */
#define LC_EXPIRY_DAYS_MAX 3650		/* a cashback earning's term, days */
#define LC_COOLDOWN_DEFAULT 60

/* Auth. */
/* A login's password check reserved but not settled after this long
 * (its process died) counts as a failure. */
#define LC_LOGIN_STALE_MS 30000
/* How long a login waits for other checks of the same e-mail to settle
 * when they could reach the failure limit. */
#define LC_LOGIN_WAIT_MS 10000
/* A client's address as the throttle keeps it (REMOTE_ADDR; an IPv6
 * address with its zone fits), bytes: longer ones are cut. */
#define LC_ADDR_MAX 64
/* The guesses of a secret of no account (the setup code, a card's
 * time-based code) of all addresses together, in the window: this many
 * times one address's limit (login_max_failures). */
#define LC_SETUP_CODE_CAP 4
/* Integration tokens: live ones a merchant may hold; the token's text
 * ("lci_" and 24 random bytes in base64url), the characters of it a
 * list shows to tell tokens apart, and how often its last use is
 * written at most (each request would otherwise be a write). */
#define LC_APITOKEN_MAX 50
#define LC_APITOKEN_LEN 36
#define LC_APITOKEN_PREFIX_LEN 8
#define LC_APITOKEN_TOUCH_MS 60000

/* Storage. */
/* Long enough to ride out another process's write transaction, short
 * enough that a till gets DATABASE_ERROR rather than hanging. */
#define LC_BUSY_TIMEOUT_MS 5000
/* Past this much time in one sync batch the remaining items are not tried
 * but answered DATABASE_ERROR (transient: the till resends them), so the
 * till gets its answer before any web server timeout. */
#define LC_SYNC_DEADLINE_MS 15000

/* Webhooks. */
#define LC_WEBHOOK_MAX 20		/* endpoints of one merchant */
#define LC_WEBHOOK_URL_MAX 2000		/* an endpoint's URL, bytes of ASCII */
#define LC_WEBHOOK_DESC_MAX 200		/* its description, characters */
#define LC_WEBHOOK_PAGE_MAX 100		/* rows of a page of its delivery log */

#endif /* LC_LIMITS_H */
