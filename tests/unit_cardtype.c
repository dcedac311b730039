/*
 * Unit tests of the card types' table (lib/card.c, lc_card.h): every
 * enum lc_ctype value has its row, every required slot is set, and the
 * names round-trip, so a new type that forgets a slot fails here rather
 * than in an answer.
 */
#include <string.h>

#include "lc_http.h"
#include "tap.h"

/* A sink of fields that only counts them. */
struct count {
	struct lc_fields f;
	int n;
};

static void
c_num(struct lc_fields *f, const char *k, int64_t v)
{
	(void)k;
	(void)v;
	((struct count *)(void *)f)->n++;
}

static void
c_str(struct lc_fields *f, const char *k, const char *v)
{
	(void)k;
	(void)v;
	((struct count *)(void *)f)->n++;
}

static void
c_flag(struct lc_fields *f, const char *k, int v)
{
	(void)k;
	(void)v;
	((struct count *)(void *)f)->n++;
}

static void
c_key(struct lc_fields *f, const char *k)
{
	(void)k;
	((struct count *)(void *)f)->n++;
}

static void
c_close(struct lc_fields *f)
{
	(void)f;
}

static struct lc_fields *
counter(struct count *c)
{
	static const struct lc_fields ops = { c_num, c_num, c_num, c_num,
	    c_str, c_flag, c_key, c_key, c_close };

	c->f = ops;
	c->n = 0;
	return &c->f;
}

int
main(void)
{
	const struct lc_cardtype *ct;
	struct lc_card card;
	struct lc_purchase_result pr;
	struct count cnt;
	int i, j;

	memset(&card, 0, sizeof(card));
	memset(&pr, 0, sizeof(pr));
	for (i = 0; i < LC_CT__MAX; i++) {
		ct = lc_cardtype((enum lc_ctype)i);
		ok(ct != NULL, "type %d has a row", i);
		if (ct == NULL)
			continue;
		is_int(ct->id, i, "%s: its row is its enum value", ct->name);
		ok(ct->name != NULL && ct->name[0] != '\0' &&
		    strlen(ct->name) < 16, "%s: a name of 1 to 15 bytes "
		    "(the API's and the admin tool's buffers)", ct->name);
		is_int(lc_cardtype_id(ct->name), i, "%s: the name round-trips",
		    ct->name);
		is_string(lc_cardtype_name((enum lc_ctype)i), ct->name,
		    "%s: lc_cardtype_name", ct->name);
		is_int(lc_cardtype_cols((enum lc_ctype)i), ct->cols,
		    "%s: lc_cardtype_cols", ct->name);
		ok(ct->purchase != NULL, "%s: purchase is set", ct->name);
		ok(ct->void_purchase != NULL, "%s: void_purchase is set",
		    ct->name);
		ok(ct->balance != NULL, "%s: balance is set", ct->name);
		ok(ct->purchased != NULL, "%s: purchased is set", ct->name);
		ok(ct->audit != NULL, "%s: audit is set", ct->name);
		ok((ct->adjust == NULL) == (ct->adjust_field == NULL),
		    "%s: adjust and adjust_field set together", ct->name);
		ok((ct->cols & ~(unsigned)(LC_CT_REWARD | LC_CT_TIERS |
		    LC_CT_EXPIRES)) == 0, "%s: cols holds LC_CT_* only",
		    ct->name);
		card.program.type = (enum lc_ctype)i;
		card.ops = ct;
		cnt.n = 0;
		if (ct->balance != NULL)
			ct->balance(&card, counter(&cnt));
		ok(cnt.n > 0, "%s: a balance has fields", ct->name);
		cnt.n = 0;
		pr.card_type = ct->name;
		if (ct->purchased != NULL)
			ct->purchased(&pr, counter(&cnt));
		ok(cnt.n > 0, "%s: a purchase's result has fields", ct->name);
		for (j = 0; j < i; j++)
			ok(strcmp(lc_cardtype_name((enum lc_ctype)j),
			    ct->name) != 0, "%s: a name of its own (not %d's)",
			    ct->name, j);
	}
	ok(lc_cardtype(LC_CT__MAX) == NULL, "LC_CT__MAX has no row");
	ok(lc_cardtype((enum lc_ctype)-1) == NULL, "-1 has no row");
	is_int(lc_cardtype_id("no-such-type"), LC_CT__MAX,
	    "an unknown name is LC_CT__MAX");
	is_int(lc_cardtype_id(""), LC_CT__MAX, "an empty name is LC_CT__MAX");
	is_string(lc_cardtype_name(LC_CT__MAX), "", "no type has no name");
	is_int(lc_cardtype_cols(LC_CT__MAX), 0, "no type uses no fields");
	/* The messages that list the types (API and admin tool) keep
	 * their words; a new type changes them, here and in the
	 * fixtures. */
	is_string(lc_cardtype_names(), "punch, cashback or discount",
	    "the names for a message");
	return done_testing();
}
