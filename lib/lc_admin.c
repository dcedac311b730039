/*
 * The admin tool's commands: everything a merchant sets up that the API
 * does not create. Each command runs in one write transaction, so a failure
 * leaves nothing half-made; an "add" prints the new id alone on stdout.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lc_int.h"

#define MAX_OPTS 32
#define MAX_TIERS 16

struct opts {
	const char *key[MAX_OPTS];
	const char *val[MAX_OPTS];
	int n;
	const char *pos[4];	/* positional words after the command */
	int npos;
};

struct tier {
	char name[128];
	int64_t min_spend;	/* cents */
	int64_t rate_bp;
};

static int
usage(void)
{
	fputs(
"usage: loyalty-admin [--db PATH] COMMAND ...\n"
"  init                                 create or upgrade the database\n"
"  merchant add --name NAME\n"
"  location add --merchant MID --name NAME\n"
"  user add --merchant MID --email EMAIL --type owner|system_user\n"
"           [--location LID] [--name DISPLAY_NAME]   (password: first line of stdin)\n"
"  user disable USER_ID | user enable USER_ID       (disable revokes its tokens)\n"
"  user passwd USER_ID                  new password from stdin; revokes tokens\n"
"  program add --merchant MID --type punch --title TITLE --punches N\n"
"           --reward-title TITLE [--reward-description TEXT]\n"
"           [--reward-amount AMOUNT] [--cooldown SECONDS]\n"
"  program add --merchant MID --type cashback|discount --title TITLE\n"
"           --tier NAME:MIN_SPEND:RATE [--tier ...]\n"
"  card issue --program PID --customer NAME\n"
"  card deactivate CARD_ID | card activate CARD_ID\n"
"  setting set KEY VALUE | setting get KEY | setting list\n"
"  demo                                 demo merchant, users and cards\n",
	    stderr);
	return 2;
}

static int
fail(const char *fmt, const char *arg)
{
	fputs("loyalty-admin: ", stderr);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return 1;
}

/* Splits "--key value" pairs from positional words. -1 on a dangling key. */
static int
opts_parse(int argc, char *argv[], struct opts *o)
{
	int i;

	memset(o, 0, sizeof(*o));
	for (i = 0; i < argc; i++) {
		if (strncmp(argv[i], "--", 2) == 0) {
			if (i + 1 >= argc || o->n >= MAX_OPTS)
				return -1;
			o->key[o->n] = argv[i] + 2;
			o->val[o->n++] = argv[++i];
		} else {
			if (o->npos >= 4)
				return -1;
			o->pos[o->npos++] = argv[i];
		}
	}
	return 0;
}

static const char *
opt(const struct opts *o, const char *key)
{
	int i;

	for (i = 0; i < o->n; i++)
		if (strcmp(o->key[i], key) == 0)
			return o->val[i];
	return NULL;
}

/* Every option given must be one of the allowed, comma-separated. */
static int
opts_only(const struct opts *o, const char *allowed)
{
	int i;
	size_t kl;
	const char *p;

	for (i = 0; i < o->n; i++) {
		kl = strlen(o->key[i]);
		for (p = allowed; p != NULL; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
			if (strncmp(p, o->key[i], kl) == 0 &&
			    (p[kl] == ',' || p[kl] == '\0'))
				break;
		if (p == NULL)
			return fail("unknown option --%s", o->key[i]);
	}
	return 0;
}

static const char *
need(const struct opts *o, const char *key)
{
	const char *v = opt(o, key);

	if (v == NULL || *v == '\0') {
		fail("--%s is required", key);
		return NULL;
	}
	return v;
}

/* Text the API will send: UTF-8 (or every JSON answer carrying it would
 * be invalid), no control characters, within max bytes (empty_ok: may be
 * empty). */
static int
text_check(const char *what, const char *s, size_t max, int empty_ok)
{
	const unsigned char *p;

	if ((!empty_ok && *s == '\0') || strlen(s) > max) {
		fputs("loyalty-admin: ", stderr);
		fprintf(stderr, "%s must be %d to %zu bytes\n", what,
		    empty_ok ? 0 : 1, max);
		return 1;
	}
	if (!lc_utf8_valid(s))
		return fail("%s must be UTF-8 text", what);
	for (p = (const unsigned char *)s; *p != '\0'; p++)
		if (*p < 0x20 || *p == 0x7f)
			return fail("%s must not hold control characters", what);
	return 0;
}

static int
text_ok(const char *what, const char *s, size_t max)
{
	return text_check(what, s, max, 0);
}

static int
exists(struct lc_db *db, enum lc_sql which, const char *id)
{
	sqlite3_stmt *st = lc_db_prep(db, which, "s", id);
	int rc;

	if (st == NULL)
		return -1;
	rc = lc_db_step(db, st);
	lc_db_reset(st);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

/* Runs one write and reports a database failure. */
static int
run(struct lc_db *db, sqlite3_stmt *st)
{
	if (st == NULL || lc_db_exec(db, st) == -1)
		return fail("database error: %s", lc_db_errmsg(db));
	return 0;
}

static int
merchant_add(struct lc_db *db, const char *name, char id[LC_ID_LEN + 1])
{
	if (text_ok("--name", name, 200) != 0)
		return 1;
	if (lc_uuid(id) == -1)
		return fail("%s", "no randomness");
	return run(db, lc_db_prep(db, LC_SQL_MERCHANT_ADD, "ssi", id, name,
	    lc_now_ms()));
}

static int
location_add(struct lc_db *db, const char *mid, const char *name,
    char id[LC_ID_LEN + 1])
{
	if (text_ok("--name", name, 200) != 0)
		return 1;
	if (exists(db, LC_SQL_MERCHANT_EXISTS, mid) != 1)
		return fail("no merchant %s", mid);
	if (lc_uuid(id) == -1)
		return fail("%s", "no randomness");
	return run(db, lc_db_prep(db, LC_SQL_LOCATION_ADD, "sssi", id, mid,
	    name, lc_now_ms()));
}

static int
user_add(struct lc_db *db, const char *mid, const char *email,
    const char *type, const char *lid, const char *name,
    const char *password, char id[LC_ID_LEN + 1])
{
	char hash[256];
	sqlite3_stmt *st;
	int rc;

	if (exists(db, LC_SQL_MERCHANT_EXISTS, mid) != 1)
		return fail("no merchant %s", mid);
	if (name != NULL && text_ok("--name", name, 200) != 0)
		return 1;
	if (strlen(email) > 254 || strchr(email, '@') == NULL ||
	    strchr(email, ' ') != NULL || !lc_is_printable_ascii(email))
		return fail("not an e-mail address: %s", email);
	if (exists(db, LC_SQL_USER_EMAIL_EXISTS, email) != 0)
		return fail("a user with e-mail %s exists already", email);
	if (strcmp(type, "owner") != 0 && strcmp(type, "system_user") != 0)
		return fail("--type must be owner or system_user, not %s", type);
	if (strcmp(type, "system_user") == 0 && lid == NULL)
		return fail("%s", "a system_user needs --location");
	if (lid != NULL) {
		if ((st = lc_db_prep(db, LC_SQL_LOCATION_BY_ID, "s", lid)) == NULL)
			return fail("database error: %s", lc_db_errmsg(db));
		rc = lc_db_step(db, st);
		if (rc != SQLITE_ROW || strcmp((const char *)
		    sqlite3_column_text(st, 2), mid) != 0) {
			lc_db_reset(st);
			return fail("no location %s at this merchant", lid);
		}
		lc_db_reset(st);
	}
	if (password == NULL || *password == '\0' || strlen(password) > 1024)
		return fail("%s", "the password (first line of stdin) must be "
		    "1 to 1024 characters");
	if (lc_auth_hash_password(password, hash, sizeof(hash)) == -1)
		return fail("%s", "cannot hash the password");
	if (lc_uuid(id) == -1)
		return fail("%s", "no randomness");
	return run(db, lc_db_prep(db, LC_SQL_USER_ADD, "sssssssi", id, mid,
	    email, name, type, strcmp(type, "owner") == 0 ? NULL : lid,
	    hash, lc_now_ms()));
}

/*
 * Takes a user's access away (disable), gives it back (enable) or sets a
 * new password (passwd, from stdin). Disabling and a new password both
 * revoke every token the user holds, so a till logged in as them is out
 * at its next request.
 */
static int
user_change(struct lc_db *db, const char *verb, const char *uid,
    const char *password)
{
	char hash[256];
	sqlite3_stmt *st;

	if (strcmp(verb, "passwd") == 0) {
		if (password == NULL || *password == '\0' || strlen(password) > 1024)
			return fail("%s", "the password (first line of stdin) "
			    "must be 1 to 1024 characters");
		if (lc_auth_hash_password(password, hash, sizeof(hash)) == -1)
			return fail("%s", "cannot hash the password");
		st = lc_db_prep(db, LC_SQL_USER_SET_PASSWORD, "ss", hash, uid);
	} else
		st = lc_db_prep(db, LC_SQL_USER_SET_DISABLED, "is",
		    (int64_t)(strcmp(verb, "disable") == 0), uid);
	if (run(db, st) != 0)
		return 1;
	if (sqlite3_changes(lc_db_handle(db)) != 1)
		return fail("no user %s", uid);
	if (strcmp(verb, "enable") != 0)
		return run(db, lc_db_prep(db, LC_SQL_TOKENS_REVOKE_USER, "s", uid));
	return 0;
}

/* "NAME:MIN_SPEND:RATE", e.g. "Gold:500.00:0.10". */
static int
tier_parse(const char *s, struct tier *t)
{
	const char *c1 = strchr(s, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	char num[64];

	if (c1 == NULL || c2 == NULL || c1 == s || (size_t)(c1 - s) >= sizeof(t->name))
		return fail("bad --tier %s: want NAME:MIN_SPEND:RATE", s);
	memcpy(t->name, s, (size_t)(c1 - s));
	t->name[c1 - s] = '\0';
	if (text_ok("a tier's NAME", t->name, 100) != 0)
		return 1;
	if ((size_t)(c2 - c1 - 1) >= sizeof(num))
		return fail("bad --tier %s", s);
	memcpy(num, c1 + 1, (size_t)(c2 - c1 - 1));
	num[c2 - c1 - 1] = '\0';
	if (lc_decimal_parse(num, 2, LC_MONEY_MAX * 1000, &t->min_spend) == -1)
		return fail("bad minimum spend in --tier %s", s);
	if (lc_decimal_parse(c2 + 1, 4, 10000, &t->rate_bp) == -1)
		return fail("bad rate in --tier %s: a fraction from 0 to 1 "
		    "with at most 4 decimals, such as 0.05", s);
	return 0;
}

static int
int_arg(const char *what, const char *s, int64_t min, int64_t max, int64_t *v)
{
	char *end;
	long long n;

	errno = 0;
	n = strtoll(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || n < min || n > max)
		return fail("%s is out of range", what);
	*v = n;
	return 0;
}

static int
program_add(struct lc_db *db, const struct opts *o, char id[LC_ID_LEN + 1])
{
	const char *mid = need(o, "merchant"), *type = need(o, "type"),
	    *title = need(o, "title"), *v;
	struct tier tiers[MAX_TIERS];
	int64_t punches = 0, amount = 0, cooldown = 60;
	int i, nt = 0;

	if (mid == NULL || type == NULL || title == NULL ||
	    text_ok("--title", title, 200) != 0)
		return 1;
	if (exists(db, LC_SQL_MERCHANT_EXISTS, mid) != 1)
		return fail("no merchant %s", mid);
	if (lc_uuid(id) == -1)
		return fail("%s", "no randomness");
	if (strcmp(type, "punch") == 0) {
		const char *rt = need(o, "reward-title"), *rd;

		if (opts_only(o, "merchant,type,title,punches,reward-title,"
		    "reward-description,reward-amount,cooldown") != 0 ||
		    (v = need(o, "punches")) == NULL || rt == NULL ||
		    int_arg("--punches", v, 1, 1000, &punches) != 0 ||
		    text_ok("--reward-title", rt, 200) != 0)
			return 1;
		if ((v = opt(o, "reward-amount")) != NULL &&
		    lc_decimal_parse(v, 2, LC_MONEY_MAX, &amount) == -1)
			return fail("bad --reward-amount %s", v);
		if ((v = opt(o, "cooldown")) != NULL &&
		    int_arg("--cooldown", v, 0, 86400, &cooldown) != 0)
			return 1;
		rd = opt(o, "reward-description");
		if (rd != NULL && text_check("--reward-description", rd, 500, 1) != 0)
			return 1;
		return run(db, lc_db_prep(db, LC_SQL_PROGRAM_ADD, "ssssissiii",
		    id, mid, type, title, punches, rt, rd ? rd : "", amount,
		    cooldown, lc_now_ms()));
	}
	if (strcmp(type, "cashback") != 0 && strcmp(type, "discount") != 0)
		return fail("--type must be punch, cashback or discount, not %s",
		    type);
	if (opts_only(o, "merchant,type,title,tier") != 0)
		return 1;
	for (i = 0; i < o->n; i++) {
		if (strcmp(o->key[i], "tier") != 0)
			continue;
		if (nt >= MAX_TIERS)
			return fail("%s", "too many tiers");
		if (tier_parse(o->val[i], &tiers[nt]) != 0)
			return 1;
		if (nt == 0 && tiers[nt].min_spend != 0)
			return fail("%s", "the first tier's MIN_SPEND must be 0");
		if (nt > 0 && tiers[nt].min_spend <= tiers[nt - 1].min_spend)
			return fail("%s", "tiers must be given in increasing "
			    "MIN_SPEND");
		nt++;
	}
	if (nt == 0)
		return fail("%s", "a cashback or discount program needs --tier");
	/* No punch requirement, reward or cooldown on these programs. */
	if (run(db, lc_db_prep(db, LC_SQL_PROGRAM_ADD, "ssssNssiii", id, mid,
	    type, title, NULL, "", (int64_t)0, (int64_t)0, lc_now_ms())) != 0)
		return 1;
	for (i = 0; i < nt; i++)
		if (run(db, lc_db_prep(db, LC_SQL_TIER_ADD, "ssii", id,
		    tiers[i].name, tiers[i].min_spend, tiers[i].rate_bp)) != 0)
			return 1;
	return 0;
}

/* EAN-13 check digit of 12 digits. */
static char
ean13_check(const char *d)
{
	int i, sum = 0;

	for (i = 0; i < 12; i++)
		sum += (d[i] - '0') * (i % 2 ? 3 : 1);
	return (char)('0' + (10 - sum % 10) % 10);
}

/*
 * Issues a card: a random EAN-13 barcode in the in-store range (prefix 2)
 * and an unguessable QR payload (192 random bits, base64). Retries on the
 * unlikely collision. Fills the three out strings.
 */
static int
card_issue(struct lc_db *db, const char *pid, const char *customer,
    char id[LC_ID_LEN + 1], char barcode[14], char qr[64])
{
	unsigned char rnd[24];
	char mid[LC_ID_LEN + 1];
	sqlite3_stmt *st;
	int i, tries, rc;

	if (text_ok("--customer", customer, 200) != 0)
		return 1;
	if ((st = lc_db_prep(db, LC_SQL_PROGRAM_MERCHANT, "s", pid)) == NULL)
		return fail("database error: %s", lc_db_errmsg(db));
	rc = lc_db_step(db, st);
	if (rc == SQLITE_ROW)
		lc_db_col(st, 0, mid, sizeof(mid));
	lc_db_reset(st);
	if (rc != SQLITE_ROW)
		return fail("no program %s", pid);
	if (lc_uuid(id) == -1)
		return fail("%s", "no randomness");
	for (tries = 0; tries < 8; tries++) {
		if (lc_random(rnd, sizeof(rnd)) == -1)
			return fail("%s", "no randomness");
		barcode[0] = '2';
		for (i = 1; i < 12; i++)
			barcode[i] = (char)('0' + rnd[i] % 10);
		barcode[12] = ean13_check(barcode);
		barcode[13] = '\0';
		if (lc_random(rnd, sizeof(rnd)) == -1)
			return fail("%s", "no randomness");
		lc_b64_encode(rnd, sizeof(rnd), qr, 0);
		if ((st = lc_db_prep(db, LC_SQL_CARD_ADD, "ssssssi", id, mid,
		    pid, customer, barcode, qr, lc_now_ms())) == NULL)
			return fail("database error: %s", lc_db_errmsg(db));
		rc = lc_db_step(db, st);
		lc_db_reset(st);
		if (rc == SQLITE_DONE)
			return 0;
		if ((rc & 0xff) != SQLITE_CONSTRAINT)
			break;
	}
	return fail("cannot issue the card: %s", lc_db_errmsg(db));
}

static void
print_card(const char *id, const char *barcode, const char *qr)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "card_instance_id", json_object_new_string(id));
	json_object_object_add(o, "barcode_value", json_object_new_string(barcode));
	json_object_object_add(o, "qr_code_data", json_object_new_string(qr));
	puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
	    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

static int
card_status(struct lc_db *db, const char *id, const char *status)
{
	sqlite3_stmt *st = lc_db_prep(db, LC_SQL_CARD_SET_STATUS, "ss", status, id);

	if (run(db, st) != 0)
		return 1;
	if (sqlite3_changes(lc_db_handle(db)) != 1)
		return fail("no card %s", id);
	return 0;
}

static int
settings_cmd(struct lc_db *db, const struct opts *o)
{
	const char *why = NULL;
	int i, s;

	if (o->npos == 3 && strcmp(o->pos[0], "set") == 0) {
		if (lc_setting_set(db, o->pos[1], o->pos[2], &why) == -1)
			return fail("%s", why);
		return 0;
	}
	if (o->npos == 2 && strcmp(o->pos[0], "get") == 0) {
		if ((s = lc_setting_lookup(o->pos[1])) == -1)
			return fail("unknown setting %s", o->pos[1]);
		printf("%lld\n", (long long)lc_setting(db, s));
		return 0;
	}
	if (o->npos == 1 && strcmp(o->pos[0], "list") == 0) {
		for (i = 0; i < LC_SET__MAX; i++)
			printf("%s %lld\n", lc_setting_name(i),
			    (long long)lc_setting(db, i));
		return 0;
	}
	return usage();
}

/* The first line of stdin, without its newline. */
static int
read_password(char *buf, size_t sz)
{
	size_t n;

	if (fgets(buf, (int)sz, stdin) == NULL)
		return -1;
	n = strcspn(buf, "\r\n");
	buf[n] = '\0';
	return 0;
}

static int
demo(struct lc_db *db)
{
	char mid[LC_ID_LEN + 1], l1[LC_ID_LEN + 1], l2[LC_ID_LEN + 1],
	    uid[LC_ID_LEN + 1], pid[LC_ID_LEN + 1], cid[LC_ID_LEN + 1],
	    bc[14], qr[64];
	static const char *const punch[] = { "--merchant", NULL, "--type",
	    "punch", "--title", "Coffee Card", "--punches", "10",
	    "--reward-title", "Free coffee", "--reward-description",
	    "Any hot drink", "--reward-amount", "3.50" };
	static const char *const cash[] = { "--merchant", NULL, "--type",
	    "cashback", "--title", "Cashback Club", "--tier", "Bronze:0:0.02",
	    "--tier", "Silver:100:0.05", "--tier", "Gold:500:0.10" };
	static const char *const disc[] = { "--merchant", NULL, "--type",
	    "discount", "--title", "Member Discount", "--tier", "Member:0:0.05",
	    "--tier", "VIP:250:0.10" };
	const char *const *progs[] = { punch, cash, disc };
	const size_t nargs[] = { 14, 12, 10 };
	char *argv[16];
	struct opts o;
	size_t p, k;

	if (merchant_add(db, "Demo Coffee", mid) != 0 ||
	    location_add(db, mid, "Main Street", l1) != 0 ||
	    location_add(db, mid, "Harbour Kiosk", l2) != 0 ||
	    user_add(db, mid, "owner@demo.example", "owner", NULL, "Olivia Owner",
	    "demo-owner-pass", uid) != 0 ||
	    user_add(db, mid, "staff@demo.example", "system_user", l1,
	    "Sam Staff", "demo-staff-pass", uid) != 0)
		return 1;
	printf("merchant   %s  Demo Coffee\n", mid);
	printf("location   %s  Main Street\nlocation   %s  Harbour Kiosk\n", l1, l2);
	printf("owner      owner@demo.example / demo-owner-pass\n");
	printf("staff      staff@demo.example / demo-staff-pass  (Main Street)\n");
	for (p = 0; p < 3; p++) {
		for (k = 0; k < nargs[p]; k++)
			argv[k] = (char *)(k == 1 ? mid : progs[p][k]);
		if (opts_parse((int)nargs[p], argv, &o) != 0 ||
		    program_add(db, &o, pid) != 0 ||
		    card_issue(db, pid, "Demo Customer", cid, bc, qr) != 0)
			return 1;
		printf("%-10s card %s  barcode %s  qr %s\n", progs[p][3], cid,
		    bc, qr);
	}
	return 0;
}

/* Dispatches one command inside the open transaction. */
static int
command(struct lc_db *db, const char *noun, const struct opts *o)
{
	char id[LC_ID_LEN + 1], bc[14], qr[64], pw[1100];
	const char *verb = o->npos > 0 ? o->pos[0] : "";
	const char *a, *b, *c;
	int rc;

	if (strcmp(noun, "merchant") == 0 && strcmp(verb, "add") == 0) {
		if (opts_only(o, "name") != 0 || (a = need(o, "name")) == NULL ||
		    merchant_add(db, a, id) != 0)
			return 1;
	} else if (strcmp(noun, "location") == 0 && strcmp(verb, "add") == 0) {
		if (opts_only(o, "merchant,name") != 0 ||
		    (a = need(o, "merchant")) == NULL ||
		    (b = need(o, "name")) == NULL || location_add(db, a, b, id) != 0)
			return 1;
	} else if (strcmp(noun, "user") == 0 && strcmp(verb, "add") == 0) {
		if (opts_only(o, "merchant,email,type,location,name") != 0 ||
		    (a = need(o, "merchant")) == NULL ||
		    (b = need(o, "email")) == NULL || (c = need(o, "type")) == NULL)
			return 1;
		if (read_password(pw, sizeof(pw)) == -1)
			return fail("%s", "the password must be the first line of stdin");
		rc = user_add(db, a, b, c, opt(o, "location"), opt(o, "name"),
		    pw, id);
		memset(pw, 0, sizeof(pw));
		if (rc != 0)
			return 1;
	} else if (strcmp(noun, "user") == 0 && o->npos == 2 && o->n == 0 &&
	    (strcmp(verb, "disable") == 0 || strcmp(verb, "enable") == 0 ||
	    strcmp(verb, "passwd") == 0)) {
		if (strcmp(verb, "passwd") == 0 &&
		    read_password(pw, sizeof(pw)) == -1)
			return fail("%s", "the password must be the first line of stdin");
		rc = user_change(db, verb, o->pos[1],
		    strcmp(verb, "passwd") == 0 ? pw : NULL);
		memset(pw, 0, sizeof(pw));
		return rc;
	} else if (strcmp(noun, "program") == 0 && strcmp(verb, "add") == 0) {
		if (program_add(db, o, id) != 0)
			return 1;
	} else if (strcmp(noun, "card") == 0 && strcmp(verb, "issue") == 0) {
		if (opts_only(o, "program,customer") != 0 ||
		    (a = need(o, "program")) == NULL ||
		    (b = need(o, "customer")) == NULL ||
		    card_issue(db, a, b, id, bc, qr) != 0)
			return 1;
		print_card(id, bc, qr);
		return 0;
	} else if (strcmp(noun, "card") == 0 && o->npos == 2 && o->n == 0 &&
	    (strcmp(verb, "activate") == 0 || strcmp(verb, "deactivate") == 0)) {
		return card_status(db, o->pos[1],
		    strcmp(verb, "activate") == 0 ? "active" : "inactive");
	} else if (strcmp(noun, "setting") == 0) {
		return settings_cmd(db, o);
	} else if (strcmp(noun, "demo") == 0 && o->npos == 0 && o->n == 0) {
		return demo(db);
	} else
		return usage();
	if (o->npos != 1)
		return usage();
	puts(id);
	return 0;
}

int
lc_admin_main(int argc, char *argv[])
{
	const char *dbpath = NULL, *why = NULL;
	struct lc_db *db = NULL;
	struct opts o;
	int i = 1, rc = 1;

	if (argc > 2 && strcmp(argv[1], "--db") == 0) {
		dbpath = argv[2];
		i = 3;
	}
	if (i >= argc)
		return usage();
	dbpath = lc_db_default_path(dbpath);
	if (strcmp(argv[i], "init") != 0 && opts_parse(argc - i - 1,
	    argv + i + 1, &o) == -1)
		return usage();
	/* Only init creates a file: a mistyped path must not start an empty
	 * database that the API then serves from. */
	if ((db = lc_db_open(dbpath, strcmp(argv[i], "init") == 0 ||
	    strcmp(argv[i], "demo") == 0, &why)) == NULL)
		return fail("%s", why);
	if (strcmp(argv[i], "init") == 0) {
		rc = argc - i == 1 ? 0 : usage();
		goto out;
	}
	if (lc_db_begin(db) == -1) {
		rc = fail("database busy: %s", lc_db_errmsg(db));
		goto out;
	}
	rc = command(db, argv[i], &o);
	if (rc == 0 && lc_db_commit(db) == -1)
		rc = fail("cannot commit: %s", lc_db_errmsg(db));
	if (rc != 0)
		lc_db_rollback(db);
out:
	fflush(stdout);
	lc_db_close(db);
	return rc;
}
