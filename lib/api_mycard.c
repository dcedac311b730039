/*
 * /api/v1/mycard/TOKEN: a customer's own card, read-only, for whoever
 * holds the link printed on it or handed over at enrolment; no login.
 * GET answers the card and its balance; /qr.svg and /barcode.svg below it
 * draw its codes to show at the till, /link.svg the QR code of this very
 * page's link, for the customer's phone to open at enrolment. An unknown or malformed token is
 * 404, the same answer after the same lookup. A deactivated card still
 * shows, with its status. POST /redraw gives the card a new link, for a
 * customer whose link went astray: the old one is 404 at once.
 *
 * With the owner's redeem_needs_card_code, /qr.svg shows the card's
 * payload and its current time-based code (card_code.c), a new one each
 * minute, never stored by a cache; the answer says when it changes.
 */
#include <string.h>

#include "lc_http.h"

/* The images never change for a card: its holder's browser keeps them. */
#define IMAGE_CACHE "private, max-age=86400"

enum image { IMG_QR, IMG_BARCODE, IMG_LINK };

/*
 * The card page's address: the public_url setting of the card's shop
 * when its owner set one, else the address this request came to
 * (scheme, Host, and the folder above api/), as the till that shows it
 * was opened. 0, or -1 when neither gives a sound one.
 */
static int
card_link(struct lc_ctx *ctx, const char *merchant_id, const char *token,
    char *out, size_t size)
{
	char base[LC_BYTES(LC_URL_MAX)];
	const char *host = ctx->req.host, *path = ctx->req.path, *api;
	int n;

	if (*lc_setting_shop_text(ctx->dom.db, merchant_id, LC_SET_PUBLIC_URL,
	    base, sizeof(base)) != '\0')
		n = snprintf(out, size, "%scard.html#%s", base, token);
	else {
		/* Only what a host name and a path may hold: the link is
		 * printed as the browser sent it, never interpreted. */
		if (host == NULL || *host == '\0' || strlen(host) > 255 ||
		    strspn(host, "abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]") != strlen(host) ||
		    (api = strstr(path, "/api/v1/mycard/")) == NULL ||
		    strspn(path, "abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/%") < (size_t)(api - path))
			return -1;
		n = snprintf(out, size, "%s://%s%.*scard.html#%s",
		    ctx->req.https ? "https" : "http", host,
		    (int)(api - path + 1), path, token);
	}
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

static int
image(struct lc_ctx *ctx, const struct lc_card *c, enum image what)
{
	char link[LC_URL_MAX + 600];
	int coded = what == IMG_QR &&
	    lc_setting(ctx->dom.db, LC_SET_CARD_CODE) == 1;
	FILE *f;
	int rc;

	if (what == IMG_LINK && card_link(ctx, c->merchant_id, c->share_token,
	    link, sizeof(link)) == -1)
		return lc_fail(ctx, LC_E_NOT_FOUND, NULL,
		    "no address to link to: set public_url");
	if (coded && lc_card_code_qr(c, ctx->dom.now_ms, link,
	    sizeof(link)) == -1)
		return lc_fail(ctx, LC_E_INTERNAL, NULL, NULL);
	if ((f = lc_raw(ctx, "image/svg+xml")) == NULL)
		return -1;
	/* The link follows public_url, which the owner may set any day;
	 * a coded QR is good for minutes. */
	ctx->raw_cache = what == IMG_LINK || coded ? "no-store" : IMAGE_CACHE;
	rc = coded ? lc_image_qr(f, link) :
	    what == IMG_QR ? lc_image_qr(f, c->qr) : what == IMG_BARCODE ?
	    lc_image_barcode(f, c->barcode) : lc_image_qr(f, link);
	if (rc == -1)
		return lc_fail(ctx, LC_E_INTERNAL, NULL, NULL);
	return 0;
}

/*
 * What the card page formats by: the card's shop's currency (null: none
 * named, two decimals), time zone (null: the installation's fixed
 * utc_offset_minutes) and default language.
 */
static int
shop_format(struct lc_ctx *ctx, const struct lc_card *c, json_object *d)
{
	char zone[64], lang[8];

	/* currency and currency_decimals: lc_fmt_mycard's, as every card's. */
	lc_setting_shop_text(ctx->dom.db, c->merchant_id, LC_SET_TIME_ZONE,
	    zone, sizeof(zone));
	lc_setting_shop_text(ctx->dom.db, c->merchant_id, LC_SET_LANGUAGE,
	    lang, sizeof(lang));
	json_object_object_add(d, "time_zone", zone[0] != '\0' ?
	    json_object_new_string(zone) : NULL);
	json_object_object_add(d, "utc_offset_minutes", json_object_new_int64(
	    lc_setting(ctx->dom.db, LC_SET_UTC_OFFSET)));
	json_object_object_add(d, "language", json_object_new_string(lang));
	return 0;
}

struct redraw_write {
	const char *token;
	struct lc_card card;
	char link[LC_URL_MAX + 600];
	int has_link;
};

static int
redraw_rule(struct lc_dom *dom, void *arg)
{
	struct redraw_write *rw = arg;

	return lc_card_redraw_shared(dom, rw->token, &rw->card);
}

static json_object *
redraw_answer(void *arg)
{
	struct redraw_write *rw = arg;

	return lc_fmt_redrawn(&rw->card, rw->has_link ? rw->link : NULL);
}

/* POST /TOKEN/redraw: a new link for the card; no body needed, one sent
 * must be a JSON object (its members are not read). */
static int
redraw(struct lc_ctx *ctx, const char *token)
{
	struct redraw_write rw;
	struct lc_write w = { NULL, NULL, redraw_rule, NULL, &rw,
	    "card.redraw", "card", NULL };
	json_object *a;

	if (ctx->req.body != NULL && ctx->req.bodylen > 0 && lc_body(ctx) == -1)
		return -1;
	memset(&rw, 0, sizeof(rw));
	rw.token = token;
	if (lc_write(&ctx->dom, &w, NULL) == -1)
		return -1;
	rw.has_link = card_link(ctx, rw.card.merchant_id, rw.card.share_token,
	    rw.link, sizeof(rw.link)) == 0;
	if ((a = redraw_answer(&rw)) == NULL)
		return lc_fail(ctx, LC_E_INTERNAL, NULL, NULL);
	ctx->out = a;
	return 0;
}

int
lc_h_mycard(struct lc_ctx *ctx)
{
	char token[LC_SHARE_LEN + 2], currency[LC_BYTES(LC_CURRENCY_MAX)];
	const char *p = ctx->subpath, *rest;
	struct lc_card c;
	int64_t updated, changes = 0;
	size_t n;
	int rc;

	if (*p++ != '/')
		return lc_fail(ctx, LC_E_NOT_FOUND, NULL, NULL);
	n = strcspn(p, "/");
	rest = p + n;
	if (*rest != '\0' && strcmp(rest, "/qr.svg") != 0 &&
	    strcmp(rest, "/barcode.svg") != 0 && strcmp(rest, "/link.svg") != 0 &&
	    strcmp(rest, "/redraw") != 0)
		return lc_fail(ctx, LC_E_NOT_FOUND, NULL, NULL);
	if (strcmp(rest, "/redraw") == 0 ? !lc_method_is(ctx, "POST") :
	    !lc_method_is(ctx, "GET"))
		return lc_not_allowed(ctx, strcmp(rest, "/redraw") == 0 ?
		    "POST" : "GET");
	/* One character more than a token, so a longer one stays malformed
	 * rather than cut to a token's length. */
	if (n > LC_SHARE_LEN + 1)
		n = LC_SHARE_LEN + 1;
	memcpy(token, p, n);
	token[n] = '\0';
	if (strcmp(rest, "/redraw") == 0)
		return redraw(ctx, token);
	if (lc_card_shared(&ctx->dom, token, &c, &updated) == -1)
		return -1;
	/* No caller: the card's shop's currency is its amounts'. */
	if (lc_currency_of(ctx->dom.db, c.merchant_id, &ctx->dom.cur) == -1)
		return lc_dom_settle(&ctx->dom);
	/* The page shows the balance after what has expired, and when the
	 * next amount expires; an image shows none of it. */
	if (*rest == '\0' && (rc = lc_expiry_fresh(&ctx->dom, &c)) != 0) {
		if (rc == -1 || lc_card_shared(&ctx->dom, token, &c,
		    &updated) == -1 || lc_expiry_fresh(&ctx->dom, &c) == -1)
			return -1;
	}
	if (*rest != '\0')
		return image(ctx, &c, strcmp(rest, "/qr.svg") == 0 ? IMG_QR :
		    strcmp(rest, "/barcode.svg") == 0 ? IMG_BARCODE : IMG_LINK);
	if (lc_setting(ctx->dom.db, LC_SET_CARD_CODE) == 1)
		changes = (lc_card_code_step(ctx->dom.now_ms) + 1) *
		    LC_CODE_STEP_SECONDS * 1000;
	ctx->out = lc_fmt_mycard(&c, &ctx->dom.cur, lc_setting_shop_text(
	    ctx->dom.db, c.merchant_id, LC_SET_CURRENCY, currency,
	    sizeof(currency)), updated, changes);
	return shop_format(ctx, &c, ctx->out);
}
