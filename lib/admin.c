/*
 * The admin tool's command line: everything a merchant sets up that the
 * API does not create. Options are read and checked first; then each
 * command runs as one write (write.c) through the shop rules (shop.c), so
 * a failure leaves nothing half-made, and its output is printed once it
 * is committed: an "add" prints the new id alone on stdout.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lc_http.h"
#include "lc_conf.h"

#define MAX_OPTS 32

struct opts {
	const char *key[MAX_OPTS];
	const char *val[MAX_OPTS];
	int n;
	const char *pos[4];	/* positional words after the command */
	int npos;
};

/* One command: what it was given and what it made. */
struct cmd {
	const char *noun, *verb;
	struct opts o;
	const char *a, *b;		/* its main arguments */
	struct lc_user user;
	struct lc_program prog;
	struct lc_card *cards;		/* card issue: ncards of them */
	size_t ncards;
	char hash[LC_HASH_MAX + 1];
	char id[LC_ID_LEN + 1];
	char shop[LC_ID_LEN + 1];	/* setting: the shop's; "" the
					 * installation's */
	char out[LC_ISSUE_MAX * 512];	/* printed after the commit */
	FILE *svg;			/* card issue --svg, opened first */
};

/* The usage on f; 2, the status of a command line it was shown for. */
static int
usage_on(FILE *f)
{
	fputs(
"usage: loyalty-admin [--db DATABASE] COMMAND ...   (a file, or PostgreSQL's URI)\n"
"  init                                 create or upgrade the database\n"
"  setup-code                           the back office's one-time setup code\n"
"                                       (made when there is none yet)\n"
"  migrate-to URI                       copy this SQLite shop into the empty\n"
"                                       PostgreSQL database URI, checked\n"
"  merchant add --name NAME [--currency CODE] [--time-zone ZONE]\n"
"           [--language LANG]    the shop's own settings (see setting)\n"
"  location add --merchant MID --name NAME\n"
"  user add --merchant MID --email EMAIL --type owner|system_user\n"
"           [--location LID] [--name DISPLAY_NAME]   (password: first line of stdin)\n"
"  user disable USER_ID | user enable USER_ID       (disable revokes its tokens)\n"
"  user passwd USER_ID                  new password from stdin; revokes tokens\n"
"  program add --merchant MID --type punch --title TITLE --punches N\n"
"           --reward-title TITLE [--reward-description TEXT]\n"
"           [--reward-amount AMOUNT] [--cooldown SECONDS]\n"
"           [--max-punches N]    punches one purchase may give (1-100)\n"
"  program add --merchant MID --type cashback|discount --title TITLE\n"
"           --tier NAME:MIN_SPEND:RATE [--tier ...]\n"
"           [--expiry-days N]    cashback: each earning expires N days\n"
"                                after it is earned (1-3650; default never)\n"
"  card issue --program PID --customer NAME [--svg FILE]\n"
"                                       FILE: the card to print, as SVG\n"
"  card issue --program PID --count N   N cards without a name (1-100), to\n"
"                                       hand out and name later\n"
"  card print --program PID [--page N]  an A4 sheet of its cards (HTML, 100\n"
"                                       a page, newest first) on stdout\n"
"  card deactivate CARD_ID | card activate CARD_ID\n"
"  setting set KEY VALUE | setting get KEY | setting list\n"
"           [--merchant MID | --installation]   a shop's own setting\n"
"                                       (currency, currency_symbol, time_zone,\n"
"                                       language, public_url) is that shop's;\n"
"                                       --installation: what shops without\n"
"                                       their own fall back to\n"
"  events deliver [--max-seconds N]     send the webhooks due, for N seconds\n"
"                                       at most (default 50; 1-3600)\n"
"  demo                                 demo merchant, users and cards\n"
"  --help                               this\n",
	    f);
	return 2;
}

static int
usage(void)
{
	return usage_on(stderr);
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
		/* The one option that takes no value. */
		if (strcmp(argv[i], "--installation") == 0 && o->n < MAX_OPTS) {
			o->key[o->n] = argv[i] + 2;
			o->val[o->n++] = "";
		} else if (strncmp(argv[i], "--", 2) == 0) {
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

/* Copies s into a struct's field, refusing what does not fit. */
static int
copy(const char *what, char *dst, size_t dstsz, const char *s)
{
	if (strlen(s) >= dstsz)
		return fail("%s is too long", what);
	memcpy(dst, s, strlen(s) + 1);
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

/* An amount the shop's currency cur cannot have: 1. A named currency's
 * rule is said ("with no decimals (JPY)"). */
static int
fail_amount(const char *what, const char *v, const struct lc_currency *cur)
{
	char msg[256], rule[48];

	if (cur->code[0] == '\0')
		snprintf(msg, sizeof(msg), "%s %s", what, v);
	else
		snprintf(msg, sizeof(msg), "%s %s: an amount %s", what, v,
		    lc_money_rule(cur, rule, sizeof(rule)));
	return fail("%s", msg);
}

/* "NAME:MIN_SPEND:RATE", e.g. "Gold:500.00:0.10", the spend in the
 * shop's currency cur. */
static int
tier_parse(const char *s, const struct lc_currency *cur, struct lc_tier *t)
{
	const char *c1 = strchr(s, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	char num[64];

	if (c1 == NULL || c2 == NULL || c1 == s ||
	    (size_t)(c1 - s) >= sizeof(t->name))
		return fail("bad --tier %s: want NAME:MIN_SPEND:RATE", s);
	memcpy(t->name, s, (size_t)(c1 - s));
	t->name[c1 - s] = '\0';
	if ((size_t)(c2 - c1 - 1) >= sizeof(num))
		return fail("bad --tier %s", s);
	memcpy(num, c1 + 1, (size_t)(c2 - c1 - 1));
	num[c2 - c1 - 1] = '\0';
	if (lc_money_parse(num, lc_currency_exp(cur), LC_SPEND_MAX,
	    &t->min_spend) == -1)
		return fail_amount("bad minimum spend in --tier", s, cur);
	if (lc_decimal_parse(c2 + 1, 4, LC_RATE_MAX, &t->rate_bp) == -1)
		return fail("bad rate in --tier %s: a fraction from 0 to 1 "
		    "with at most 4 decimals, such as 0.05", s);
	return 0;
}

/* program add: the options into c->prog, its amounts in the currency
 * of the shop --merchant. */
static int
program_args(struct lc_db *db, struct cmd *c)
{
	const struct opts *o = &c->o;
	struct lc_program *p = &c->prog;
	const char *mid = need(o, "merchant"), *type = need(o, "type"),
	    *title = need(o, "title"), *v;
	char tname[16];		/* as long as a type's name may be */
	struct lc_currency cur;
	unsigned cols;
	int i;

	memset(p, 0, sizeof(*p));
	if (mid == NULL || type == NULL || title == NULL ||
	    copy("--merchant", p->merchant_id, sizeof(p->merchant_id), mid) ||
	    copy("--type", tname, sizeof(tname), type) ||
	    copy("--title", p->title, sizeof(p->title), title))
		return 1;
	/* An unknown merchant reads as unnamed: the rule refuses it. */
	if (lc_currency_of(db, p->merchant_id, &cur) == -1)
		return fail("%s", "cannot read the shop's currency");
	/* An unknown type is the rule's to refuse (c->a names it then). */
	p->type = lc_cardtype_id(type);
	c->a = type;
	/* The options of the field groups its type uses (LC_CT_*). */
	cols = lc_cardtype_cols(p->type);
	if (cols & LC_CT_REWARD) {
		const char *rt = need(o, "reward-title");

		p->cooldown_seconds = LC_COOLDOWN_DEFAULT;
		if (opts_only(o, "merchant,type,title,punches,reward-title,"
		    "reward-description,reward-amount,cooldown,max-punches") != 0 ||
		    (v = need(o, "punches")) == NULL || rt == NULL ||
		    int_arg("--punches", v, 1, LC_PUNCHES_MAX,
		    &p->punch_requirement) != 0 ||
		    copy("--reward-title", p->reward_title,
		    sizeof(p->reward_title), rt) != 0)
			return 1;
		if ((v = opt(o, "reward-amount")) != NULL &&
		    lc_money_parse(v, lc_currency_exp(&cur), LC_MONEY_MAX,
		    &p->reward_amount) == -1)
			return fail_amount("bad --reward-amount", v, &cur);
		if ((v = opt(o, "cooldown")) != NULL &&
		    int_arg("--cooldown", v, 0, LC_COOLDOWN_MAX,
		    &p->cooldown_seconds) != 0)
			return 1;
		if ((v = opt(o, "max-punches")) != NULL &&
		    int_arg("--max-punches", v, 1, LC_PUNCH_COUNT_MAX,
		    &p->max_punches) != 0)
			return 1;
		if ((v = opt(o, "reward-description")) != NULL &&
		    copy("--reward-description", p->reward_description,
		    sizeof(p->reward_description), v) != 0)
			return 1;
		return 0;
	}
	if (opts_only(o, cols & LC_CT_EXPIRES ?
	    "merchant,type,title,tier,expiry-days" :
	    "merchant,type,title,tier") != 0)
		return 1;
	if ((v = opt(o, "expiry-days")) != NULL &&
	    int_arg("--expiry-days", v, 1, LC_EXPIRY_DAYS_MAX,
	    &p->expiry_days) != 0)
		return 1;
	for (i = 0; i < o->n; i++) {
		if (strcmp(o->key[i], "tier") != 0)
			continue;
		if (p->ntiers >= LC_TIERS_MAX)
			return fail("%s", "too many tiers");
		if (tier_parse(o->val[i], &cur, &p->tiers[p->ntiers++]) != 0)
			return 1;
	}
	return 0;
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

/* Reads and hashes the password from stdin into c->hash. */
static int
password_arg(struct cmd *c)
{
	char pw[LC_PASSWORD_MAX + 64];
	int rc = 0;

	if (read_password(pw, sizeof(pw)) == -1)
		rc = fail("%s", "the password must be the first line of stdin");
	else if (!lc_password_ok(pw))
		rc = fail("the password (first line of stdin) must be 1 to %s "
		    "characters", "1024");
	else if (lc_auth_hash_password(pw, c->hash, sizeof(c->hash)) == -1)
		rc = fail("%s", "cannot hash the password");
	memset(pw, 0, sizeof(pw));
	return rc;
}

/* Each card issued, one JSON object a line. */
static void
card_lines(struct cmd *c)
{
	json_object *o;
	size_t i, n = 0;

	for (i = 0; i < c->ncards && n < sizeof(c->out); i++) {
		o = lc_fmt_issued(&c->cards[i]);
		n += (size_t)snprintf(c->out + n, sizeof(c->out) - n, "%s\n",
		    lc_json_text(o));
		json_object_put(o);
	}
}

/* The demo shop, in the one write of its command. */
static int
demo(struct lc_dom *dom, struct cmd *c)
{
	static const struct {
		enum lc_ctype type;
		const char *title;
		struct { const char *name; int64_t min_spend, rate_bp; } t[3];
	} progs[] = {
		{ LC_CT_PUNCH, "Coffee Card", { { NULL, 0, 0 } } },
		{ LC_CT_CASHBACK, "Cashback Club", { { "Bronze", 0, 200 },
		    { "Silver", 10000, 500 }, { "Gold", 50000, 1000 } } },
		{ LC_CT_DISCOUNT, "Member Discount", { { "Member", 0, 500 },
		    { "VIP", 25000, 1000 } } },
	};
	char mid[LC_ID_LEN + 1], l1[LC_ID_LEN + 1], l2[LC_ID_LEN + 1],
	    uid[LC_ID_LEN + 1], pid[LC_ID_LEN + 1];
	struct lc_user u;
	struct lc_program p;
	struct lc_card card;
	size_t i, n, t;

	if (lc_shop_merchant_add(dom, "Demo Coffee", mid) == -1 ||
	    lc_shop_location_add(dom, mid, "Main Street", l1) == -1 ||
	    lc_shop_location_add(dom, mid, "Harbour Kiosk", l2) == -1)
		return -1;
	memset(&u, 0, sizeof(u));
	memcpy(u.merchant_id, mid, sizeof(u.merchant_id));
	snprintf(u.email, sizeof(u.email), "owner@demo.example");
	snprintf(u.display_name, sizeof(u.display_name), "Olivia Owner");
	u.is_owner = 1;
	if (lc_auth_hash_password("demo-owner-pass", u.password_hash,
	    sizeof(u.password_hash)) == -1)
		return lc_dom_fail(dom, LC_E_INTERNAL, NULL,
		    "cannot hash the password");
	if (lc_shop_user_add(dom, &u, uid) == -1)
		return -1;
	snprintf(u.email, sizeof(u.email), "staff@demo.example");
	snprintf(u.display_name, sizeof(u.display_name), "Sam Staff");
	memcpy(u.location_id, l1, sizeof(u.location_id));
	u.is_owner = 0;
	if (lc_auth_hash_password("demo-staff-pass", u.password_hash,
	    sizeof(u.password_hash)) == -1)
		return lc_dom_fail(dom, LC_E_INTERNAL, NULL,
		    "cannot hash the password");
	if (lc_shop_user_add(dom, &u, uid) == -1)
		return -1;
	n = (size_t)snprintf(c->out, sizeof(c->out),
	    "merchant   %s  Demo Coffee\n"
	    "location   %s  Main Street\nlocation   %s  Harbour Kiosk\n"
	    "owner      owner@demo.example / demo-owner-pass\n"
	    "staff      staff@demo.example / demo-staff-pass  (Main Street)\n",
	    mid, l1, l2);
	for (i = 0; i < sizeof(progs) / sizeof(progs[0]); i++) {
		memset(&p, 0, sizeof(p));
		memcpy(p.merchant_id, mid, sizeof(p.merchant_id));
		p.type = progs[i].type;
		snprintf(p.title, sizeof(p.title), "%s", progs[i].title);
		p.punch_requirement = 10;
		snprintf(p.reward_title, sizeof(p.reward_title), "Free coffee");
		snprintf(p.reward_description, sizeof(p.reward_description),
		    "Any hot drink");
		p.reward_amount = 350;
		p.cooldown_seconds = LC_COOLDOWN_DEFAULT;
		for (t = 0; t < 3 && progs[i].t[t].name != NULL; t++) {
			snprintf(p.tiers[t].name, sizeof(p.tiers[t].name), "%s",
			    progs[i].t[t].name);
			p.tiers[t].min_spend = progs[i].t[t].min_spend;
			p.tiers[t].rate_bp = progs[i].t[t].rate_bp;
			p.ntiers++;
		}
		if (lc_shop_program_add(dom, &p, pid) == -1 ||
		    lc_shop_card_issue(dom, pid, "Demo Customer", &card) == -1)
			return -1;
		if (n < sizeof(c->out))
			n += (size_t)snprintf(c->out + n, sizeof(c->out) - n,
			    "%-10s card %s  barcode %s  qr %s\n",
			    lc_cardtype_name(progs[i].type),
			    card.id, card.barcode, card.qr);
	}
	return 0;
}

struct sheet {
	struct lc_card cards[100];
	size_t n;
};

static int
sheet_add(void *arg, const struct lc_card *c)
{
	struct sheet *sh = arg;

	if (sh->n < sizeof(sh->cards) / sizeof(sh->cards[0]))
		sh->cards[sh->n++] = *c;
	return 0;
}

/* The address printed on the cards of a shop (its public_url), with a
 * word on stderr when there is none: the customers' cards then carry no
 * link. */
static const char *
print_base(struct lc_db *db, const char *merchant_id, char *buf, size_t size)
{
	if (*lc_setting_shop_text(db, merchant_id, LC_SET_PUBLIC_URL, buf,
	    size) == '\0')
		fprintf(stderr, "loyalty-admin: public_url is not set: the cards "
		    "carry no link to their page (setting set public_url "
		    "https://shop.example/loyalty/ --merchant %s)\n",
		    merchant_id);
	return buf;
}

/* card print: a page of a program's cards as a printable sheet. */
static int
card_print(struct lc_db *db, const struct opts *o)
{
	char shop[LC_BYTES(LC_NAME_MAX)], base[LC_BYTES(LC_URL_MAX)];
	struct lc_program p;
	struct lc_card_query q;
	struct sheet *sh;
	const char *pid, *v;
	int64_t page = 1;
	int rc = 1;

	if (opts_only(o, "program,page") != 0 ||
	    (pid = need(o, "program")) == NULL ||
	    ((v = opt(o, "page")) != NULL &&
	    int_arg("--page", v, 1, 1000000000, &page) != 0))
		return 1;
	if (lc_db_program_get(db, pid, &p) != 1)
		return fail("no program %s", pid);
	if (lc_db_merchant_name(db, p.merchant_id, shop, sizeof(shop)) != 1 ||
	    (sh = calloc(1, sizeof(*sh))) == NULL)
		return fail("%s", "cannot read the shop");
	memset(&q, 0, sizeof(q));
	q.merchant_id = p.merchant_id;
	q.program_id = p.id;
	q.limit = 100;
	q.offset = (page - 1) * 100;
	if (lc_db_cards(db, &q, sheet_add, sh) != 0)
		rc = fail("%s", "cannot read the cards");
	else if (lc_image_sheet(stdout, shop, sh->cards, sh->n,
	    print_base(db, p.merchant_id, base, sizeof(base))) == -1)
		rc = fail("%s", "cannot write the sheet");
	else
		rc = 0;
	free(sh);
	return rc;
}

/* card issue --svg FILE: the card just issued, ready to print. */
static int
card_svg(struct lc_db *db, struct cmd *c)
{
	char shop[LC_BYTES(LC_NAME_MAX)], base[LC_BYTES(LC_URL_MAX)];
	int rc;

	if (lc_db_merchant_name(db, c->cards[0].merchant_id, shop,
	    sizeof(shop)) != 1)
		return fail("%s", "cannot read the shop's name");
	rc = lc_image_card(c->svg, shop, &c->cards[0], print_base(db,
	    c->cards[0].merchant_id, base, sizeof(base)));
	if (fclose(c->svg) != 0 || rc == -1)
		rc = fail("cannot write %s", opt(&c->o, "svg"));
	c->svg = NULL;
	return rc == -1 ? 1 : rc;
}

/* merchant add: the shop, and the settings it was given, in one write. */
static int
merchant_add(struct lc_dom *dom, struct cmd *c)
{
	static const char *const set[][2] = { { "currency", "currency" },
	    { "time-zone", "time_zone" }, { "language", "language" } };
	const char *v;
	size_t i;

	if (lc_shop_merchant_add(dom, c->a, c->id) == -1)
		return -1;
	for (i = 0; i < sizeof(set) / sizeof(set[0]); i++)
		if ((v = opt(&c->o, set[i][0])) != NULL &&
		    lc_setting_set_shop(dom, c->id, set[i][1], v) == -1) {
			snprintf(dom->err.field, sizeof(dom->err.field), "--%s",
			    set[i][0]);
			return -1;
		}
	return 0;
}

/* The rule of every command: runs inside its write. */
static int
command_rule(struct lc_dom *dom, void *arg)
{
	struct cmd *c = arg;
	const char *n = c->noun, *v = c->verb;
	size_t len;
	int rc;

	if (strcmp(n, "merchant") == 0)
		rc = merchant_add(dom, c);
	else if (strcmp(n, "location") == 0)
		rc = lc_shop_location_add(dom, c->a, c->b, c->id);
	else if (strcmp(n, "user") == 0 && strcmp(v, "add") == 0)
		rc = lc_shop_user_add(dom, &c->user, c->id);
	else if (strcmp(n, "user") == 0) {
		if (strcmp(v, "passwd") == 0)
			lc_audit_note_str(dom, "password", "changed");
		return lc_shop_user_change(dom, v, c->a, c->hash);
	}
	else if (strcmp(n, "program") == 0) {
		rc = lc_shop_program_add(dom, &c->prog, c->id);
		/* The rule cannot name a type it does not know. */
		if (rc == -1 && strcmp(dom->err.field, "type") == 0) {
			len = strlen(dom->err.msg);
			snprintf(dom->err.msg + len, sizeof(dom->err.msg) - len,
			    ", not %s", c->a);
		}
	}
	else if (strcmp(n, "card") == 0 && strcmp(v, "issue") == 0) {
		/* --customer NAME (c->b: an array of one, ncards 1), or
		 * --count N without a name (no array: NULL, not &c->b, which
		 * holds one pointer, not N). */
		if (lc_shop_cards_issue(dom, c->a, c->b != NULL ? &c->b : NULL,
		    c->ncards, c->cards) == -1)
			return -1;
		card_lines(c);
		return 0;
	} else if (strcmp(n, "card") == 0)
		return lc_shop_card_status(dom, c->a, strcmp(v, "activate") == 0);
	else if (strcmp(n, "setting") == 0)
		return lc_setting_set_shop(dom, c->shop, c->a, c->b);
	else
		return demo(dom, c);
	if (rc == 0)
		snprintf(c->out, sizeof(c->out), "%s\n", c->id);
	return rc;
}

/* What the command's write is, for the audit trail (whose actor is
 * loyalty-admin: the tool has no caller). */
static void
command_audit(const struct cmd *c, struct lc_write *w)
{
	const char *n = c->noun, *v = c->verb;

	w->object_type = n;
	w->object_id = NULL;
	if (strcmp(n, "merchant") == 0)
		w->action = "merchant.create";
	else if (strcmp(n, "location") == 0)
		w->action = "location.create";
	else if (strcmp(n, "user") == 0 && strcmp(v, "add") == 0)
		w->action = "user.create";
	else if (strcmp(n, "user") == 0) {
		w->action = "user.update";
		w->object_id = c->a;
	} else if (strcmp(n, "program") == 0)
		w->action = "program.create";
	else if (strcmp(n, "card") == 0 && strcmp(v, "issue") == 0)
		w->action = "card.issue";
	else if (strcmp(n, "card") == 0) {
		w->action = "card.update";
		w->object_id = c->a;
	} else if (strcmp(n, "setting") == 0) {
		w->action = "settings.update";
		w->object_type = "settings";
		/* A shop's setting: its row of the trail, its values. */
		w->object_id = c->shop[0] != '\0' ? c->shop : NULL;
	} else if (strcmp(n, "demo") == 0) {
		w->action = "demo.create";
		w->object_type = "merchant";
	} else
		w->action = NULL;	/* a command not declared: refused */
}

/*
 * A setting's value on a line of its own, as the shop mid sees it ("":
 * the installation's); setting list puts its name and its scope first:
 * "installation", "shop" (the shop's view) or "fallback" (a shop's
 * setting, the installation's value that shops without their own take).
 */
static void
setting_print(struct lc_db *db, const char *mid, int s, int list)
{
	char text[LC_BYTES(LC_URL_MAX)];

	if (list)
		printf("%s %s ", lc_setting_name(s),
		    !lc_setting_per_shop(s) ? "installation" :
		    mid[0] != '\0' ? "shop" : "fallback");
	if (lc_setting_info((enum lc_setting)s)->kind == LC_SETTING_TEXT)
		printf("%s\n", lc_setting_shop_text(db, mid, (enum lc_setting)s,
		    text, sizeof(text)));
	else
		printf("%lld\n", (long long)lc_setting_shop(db, mid,
		    (enum lc_setting)s));
}

/*
 * Whose setting a setting command reads or sets, into c->shop: the shop
 * of --merchant; the installation's with --installation; else, for a
 * shop's own setting (s; -1 for setting list), the one shop when there
 * is exactly one. 0, or the exit status after saying why not.
 */
static int
setting_whose(struct lc_db *db, struct cmd *c, int s)
{
	const char *mid = opt(&c->o, "merchant");
	int inst = opt(&c->o, "installation") != NULL, rc;
	int64_t shops;

	c->shop[0] = '\0';
	if (opts_only(&c->o, "merchant,installation") != 0)
		return 1;
	if (mid != NULL && inst)
		return fail("%s", "give --merchant MID or --installation, not "
		    "both");
	if (mid != NULL) {
		if (strlen(mid) >= sizeof(c->shop) ||
		    (rc = lc_db_merchant_exists(db, mid)) == 0)
			return fail("no merchant %s", mid);
		if (rc == -1)
			return fail("%s", "cannot read the merchants");
		if (s != -1 && !lc_setting_per_shop(s))
			return fail("%s is the installation's, the same for "
			    "every shop: give it without --merchant",
			    lc_setting_name(s));
		memcpy(c->shop, mid, strlen(mid) + 1);
		return 0;
	}
	if (s == LC_SET_CURRENCY_CODE && inst)
		return fail("%s", "currency has no installation value: money "
		    "is counted in each shop's own (--merchant MID)");
	if (inst || (s != -1 && !lc_setting_per_shop(s)))
		return 0;
	if (lc_db_merchant_count(db, &shops) == -1)
		return fail("%s", "cannot read the merchants");
	/* A list shows the one shop's view, else the installation's. */
	if (s == -1 && shops != 1)
		return 0;
	if (shops == 0)
		return fail("%s is each shop's own and there is no shop yet "
		    "(merchant add); --installation sets the value every shop "
		    "starts from", lc_setting_name(s));
	if (shops > 1)
		return fail("%s is each shop's own and this installation serves "
		    "several: give --merchant MID (or --installation for the "
		    "value shops without their own fall back to)",
		    lc_setting_name(s));
	if (lc_db_merchant_first(db, c->shop, sizeof(c->shop)) != 1)
		return fail("%s", "cannot read the merchants");
	return 0;
}

/* Reads a command's arguments into c: 0 to run it, else the exit status
 * (a read-only command has run already: -1 for success). */
static int
command_args(struct lc_db *db, struct cmd *c)
{
	const struct opts *o = &c->o;
	const char *n = c->noun, *v = c->verb, *e;
	int i, s;

	if (strcmp(n, "merchant") == 0 && strcmp(v, "add") == 0 && o->npos == 1)
		return opts_only(o, "name,currency,time-zone,language") != 0 ||
		    (c->a = need(o, "name")) == NULL;
	if (strcmp(n, "location") == 0 && strcmp(v, "add") == 0 && o->npos == 1)
		return opts_only(o, "merchant,name") != 0 ||
		    (c->a = need(o, "merchant")) == NULL ||
		    (c->b = need(o, "name")) == NULL;
	if (strcmp(n, "user") == 0 && strcmp(v, "add") == 0 && o->npos == 1) {
		struct lc_user *u = &c->user;
		const char *type;

		if (opts_only(o, "merchant,email,type,location,name") != 0 ||
		    (c->a = need(o, "merchant")) == NULL ||
		    (e = need(o, "email")) == NULL ||
		    (type = need(o, "type")) == NULL)
			return 1;
		if (strcmp(type, "owner") != 0 && strcmp(type, "system_user") != 0)
			return fail("--type must be owner or system_user, not %s",
			    type);
		if (opt(o, "name") != NULL && *opt(o, "name") == '\0')
			return fail("%s", "--name must not be empty");
		u->is_owner = strcmp(type, "owner") == 0;
		if (!u->is_owner && opt(o, "location") == NULL)
			return fail("%s", "a system_user needs --location");
		if (copy("--merchant", u->merchant_id, sizeof(u->merchant_id),
		    c->a) || copy("--email", u->email, sizeof(u->email), e) ||
		    copy("--location", u->location_id, sizeof(u->location_id),
		    opt(o, "location") ? opt(o, "location") : "") ||
		    copy("--name", u->display_name, sizeof(u->display_name),
		    opt(o, "name") ? opt(o, "name") : "") ||
		    password_arg(c) != 0)
			return 1;
		memcpy(u->password_hash, c->hash, sizeof(u->password_hash));
		return 0;
	}
	if (strcmp(n, "user") == 0 && o->npos == 2 && o->n == 0 &&
	    (strcmp(v, "disable") == 0 || strcmp(v, "enable") == 0 ||
	    strcmp(v, "passwd") == 0)) {
		c->a = o->pos[1];
		return strcmp(v, "passwd") == 0 ? password_arg(c) : 0;
	}
	if (strcmp(n, "program") == 0 && strcmp(v, "add") == 0 && o->npos == 1)
		return program_args(db, c);
	if (strcmp(n, "card") == 0 && strcmp(v, "issue") == 0 && o->npos == 1) {
		const char *count_arg = opt(o, "count");
		int64_t count = 1;

		if (opts_only(o, "program,customer,count,svg") != 0 ||
		    (c->a = need(o, "program")) == NULL)
			return 1;
		if (count_arg == NULL) {
			if ((c->b = need(o, "customer")) == NULL)
				return 1;
		} else if (opt(o, "customer") != NULL)
			return fail("%s", "--count makes cards without a name: "
			    "give --count or --customer, not both");
		else if (int_arg("--count", count_arg, 1, LC_ISSUE_MAX, &count) != 0)
			return 1;
		else if (count > 1 && opt(o, "svg") != NULL)
			return fail("%s", "--svg draws one card; card print "
			    "--program PID prints a sheet of them");
		c->ncards = (size_t)count;
		if ((c->cards = calloc(c->ncards, sizeof(*c->cards))) == NULL)
			return fail("%s", "out of memory");
		/* A file that cannot be written stops the command before
		 * a card is issued. */
		if (opt(o, "svg") != NULL &&
		    (c->svg = fopen(opt(o, "svg"), "w")) == NULL)
			return fail("cannot write %s", opt(o, "svg"));
		return 0;
	}
	if (strcmp(n, "card") == 0 && strcmp(v, "print") == 0 && o->npos == 1)
		return card_print(db, o) == 0 ? -1 : 1;
	if (strcmp(n, "card") == 0 && o->npos == 2 && o->n == 0 &&
	    (strcmp(v, "activate") == 0 || strcmp(v, "deactivate") == 0)) {
		c->a = o->pos[1];
		return 0;
	}
	if (strcmp(n, "setting") == 0) {
		if ((o->npos == 3 && strcmp(v, "set") == 0) ||
		    (o->npos == 2 && strcmp(v, "get") == 0)) {
			if ((s = lc_setting_lookup(o->pos[1])) == -1)
				return fail("unknown setting %s", o->pos[1]);
			if ((i = setting_whose(db, c, s)) != 0)
				return i;
			if (strcmp(v, "get") == 0) {
				setting_print(db, c->shop, s, 0);
				return -1;
			}
			c->a = o->pos[1];
			c->b = o->pos[2];
			return 0;
		}
		if (o->npos == 1 && strcmp(v, "list") == 0) {
			if ((i = setting_whose(db, c, -1)) != 0)
				return i;
			for (i = 0; i < LC_SET__MAX; i++)
				setting_print(db, c->shop, i, 1);
			return -1;
		}
	}
	if (strcmp(n, "demo") == 0 && o->npos == 0 && o->n == 0)
		return 0;
	return usage();
}

/* A rule's error as the tool's user knows the field: by its option. */
static int
fail_err(const struct lc_error *e)
{
	static const char *const map[][2] = { { "name", "--name" },
	    { "title", "--title" }, { "reward_title", "--reward-title" },
	    { "reward_description", "--reward-description" },
	    { "reward_amount", "--reward-amount" },
	    { "cooldown_seconds", "--cooldown" },
	    { "max_punches_per_purchase", "--max-punches" },
	    { "punch_requirement", "--punches" }, { "tiers", "--tier" },
	    { "customer_name", "--customer" }, { "email", "--email" },
	    { "location_id", "--location" }, { "program_id", "--program" },
	    { "merchant_id", "--merchant" }, { "type", "--type" } };
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(e->field, map[i][0]) == 0) {
			fprintf(stderr, "loyalty-admin: %s: %s\n", map[i][1],
			    lc_error_msg(e));
			return 1;
		}
	return fail("%s", lc_error_msg(e));
}

/*
 * The database: --db, else LOYALTY_DB, else loyalty.conf beside this
 * program (where a bundle puts the tool with the responders), else the
 * build's default; *from says which, for the errors. NULL after telling
 * why when loyalty.conf is bad.
 */
static const char *
db_path(const char *given, const char **from)
{
	static struct lc_conf conf;
	const char *env = getenv("LOYALTY_DB");

	if (given != NULL && *given != '\0') {
		*from = "--db";
		return given;
	}
	if (env != NULL && *env != '\0') {
		*from = "LOYALTY_DB";
		return env;
	}
	if (lc_conf_load(&conf) == -1) {
		fail("%s", conf.err);
		return NULL;
	}
	if (conf.db[0] != '\0') {
		*from = conf.file;
		return conf.db;
	}
	*from = "the build's default; --db or LOYALTY_DB names another";
	return lc_db_default_path(NULL);
}

/* The database opened (made when create is set), or NULL after saying
 * why, naming it (without a password) and where its name came from. */
static struct lc_db *
db_open(const char *name, const char *from, int create)
{
	struct lc_db *db = NULL;
	struct stat st;
	const char *why;
	char shown[1024];
	int unusable;

	if ((why = lc_conf_db_problem(name, create)) == NULL &&
	    (db = lc_db_open_ex(name, create, &why, &unusable)) != NULL)
		return db;
	/* Missing where init could make it: say so. */
	fprintf(stderr, "loyalty-admin: %s (%s): %s%s\n",
	    lc_db_name_shown(name, shown, sizeof(shown)), from, why,
	    !create && !lc_db_name_is_pg(name) && access(name, F_OK) == -1 &&
	    lc_conf_db_problem(name, 1) == NULL ?
	    " (loyalty-admin init creates it)" : "");
	/* A shared web user's database, seen over SSH as the account. */
	if (!lc_db_name_is_pg(name) && geteuid() != 0 && stat(name, &st) == 0 &&
	    st.st_uid != geteuid())
		fprintf(stderr, "loyalty-admin: the database belongs to uid %ld, "
		    "not to you (uid %ld): the user the web server runs the "
		    "shop as, where it is not your account. Make changes in the "
		    "back office, or run loyalty-admin as that user.\n",
		    (long)st.st_uid, (long)geteuid());
	return NULL;
}

/* migrate-to URI: the SQLite shop at name into the PostgreSQL database
 * uri, which it sets up when it is empty (admin_migrate.c). */
static int
migrate_to(const char *name, const char *from, const char *uri)
{
#ifdef LC_WITH_POSTGRESQL
	struct lc_db *src, *dst = NULL;
	int rc = 1;

	if (!lc_db_name_is_pg(uri))
		return fail("migrate-to: %s is not a PostgreSQL database (a "
		    "postgresql:// URI, or postgres: and a conninfo)", uri);
	if ((src = db_open(name, from, 0)) == NULL ||
	    (dst = db_open(uri, "migrate-to", 1)) == NULL)
		goto out;
	rc = lc_admin_migrate_to(src, dst) == 0 ? 0 : 1;
out:
	lc_db_close(dst);
	lc_db_close(src);
	return rc;
#else
	(void)name;
	(void)from;
	(void)uri;
	return fail("%s", "migrate-to: this build has no PostgreSQL support "
	    "(it is built with ./configure --with-postgresql)");
#endif
}

/* events deliver [--max-seconds N]: one run of the deliverer
 * (deliver.c), for a cron line or a timer each minute. */
static int
events(struct lc_dom *dom, struct cmd *c, const char *dbpath,
    const char *from)
{
	const char *v;
	char shown[1024];
	int64_t max = 50;
	long sent = 0;

	if (c->o.npos != 1 || strcmp(c->verb, "deliver") != 0)
		return usage();
	if (opts_only(&c->o, "max-seconds") != 0 ||
	    ((v = opt(&c->o, "max-seconds")) != NULL &&
	    int_arg("--max-seconds", v, 1, 3600, &max) != 0))
		return 1;
	if (lc_deliver_run(dom, max * 1000, &sent) == -1) {
		if (lc_err_info(dom->err.code)->status >= 500)
			fprintf(stderr, "loyalty-admin: %s (%s):\n",
			    lc_db_name_shown(dbpath, shown, sizeof(shown)), from);
		return fail_err(&dom->err);
	}
	printf("%ld\n", sent);
	return 0;
}

int
lc_admin_main(int argc, char *argv[])
{
	const char *dbpath = NULL, *from = NULL;
	struct lc_write w = { NULL, NULL, command_rule, NULL, NULL, NULL, NULL,
	    NULL };
	struct lc_dom dom;
	struct cmd *c = NULL;
	char shown[1024];
	int i = 1, rc = 1, create;

	memset(&dom, 0, sizeof(dom));
#ifdef LC_TEST_CLOCK
	/* Test builds: the clock the tests set, as the responders take it
	 * from a request (the deliverer's backoff, its 5 days). */
	lc_test_clock_set(getenv("LOYALTY_TEST_NOW"));
#endif
	/* A database made here is the service's user's and group's only. */
	umask(027);
	if (argc > 2 && strcmp(argv[1], "--db") == 0) {
		dbpath = argv[2];
		i = 3;
	}
	if (i >= argc)
		return usage();
	/* Asked for: on stdout, and a success. */
	if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0 ||
	    strcmp(argv[i], "help") == 0) {
		(void)usage_on(stdout);
		return 0;
	}
	if ((dbpath = db_path(dbpath, &from)) == NULL)
		return 1;
	if ((c = calloc(1, sizeof(*c))) == NULL)
		return fail("%s", "out of memory");
	c->noun = argv[i];
	if (strcmp(c->noun, "migrate-to") == 0) {
		rc = argc - i != 2 ? usage() : migrate_to(dbpath, from,
		    argv[i + 1]);
		goto out;
	}
	if (strcmp(c->noun, "init") == 0 ? argc - i != 1 :
	    opts_parse(argc - i - 1, argv + i + 1, &c->o) == -1) {
		rc = usage();
		goto out;
	}
	c->verb = c->o.npos > 0 ? c->o.pos[0] : "";
	/* Only init and demo create a file: a mistyped path must not start
	 * an empty database that the API then serves from. */
	create = strcmp(c->noun, "init") == 0 || strcmp(c->noun, "demo") == 0;
	if ((dom.db = db_open(dbpath, from, create)) == NULL)
		goto out;
	if (strcmp(c->noun, "init") == 0) {
		rc = 0;
		goto out;
	}
	if (strcmp(c->noun, "setup-code") == 0) {
		char code[LC_SETUP_CODE_LEN + 1];

		dom.now_ms = lc_now_ms();
		if (c->o.npos != 0 || c->o.n != 0)
			rc = usage();
		else if (lc_setup_code(&dom, dbpath, code) == -1 &&
		    lc_dom_settle(&dom) == -1)
			rc = fail("%s", lc_error_msg(&dom.err));
		else {
			printf("%s\n", code);
			rc = 0;
		}
		goto out;
	}
	if (strcmp(c->noun, "events") == 0) {
		rc = events(&dom, c, dbpath, from);
		goto out;
	}
	if ((rc = command_args(dom.db, c)) != 0) {
		rc = rc == -1 ? 0 : rc;
		goto out;
	}
	dom.now_ms = lc_now_ms();
	w.arg = c;
	command_audit(c, &w);
	if (lc_write(&dom, &w, NULL) == -1) {
		/* A database that failed names its file. */
		if (lc_err_info(dom.err.code)->status >= 500)
			fprintf(stderr, "loyalty-admin: %s (%s):\n",
			    lc_db_name_shown(dbpath, shown, sizeof(shown)), from);
		rc = fail_err(&dom.err);
		goto out;
	}
	fputs(c->out, stdout);
	if (c->svg != NULL)
		rc = card_svg(dom.db, c);
out:
	if (c != NULL && c->svg != NULL) {
		/* Nothing was issued: no empty file stays behind. */
		(void)fclose(c->svg);
		(void)unlink(opt(&c->o, "svg"));
	}
	fflush(stdout);
	lc_db_close(dom.db);
	if (c != NULL)
		free(c->cards);
	free(c);
	return rc;
}
