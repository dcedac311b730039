/*
 * /api/v1/mycard/TOKEN: a customer's own card, read-only, for whoever
 * holds the link printed on it or handed over at enrolment; no login.
 * GET answers the card and its balance; /qr.svg and /barcode.svg below it
 * draw its codes to show at the till. An unknown or malformed token is
 * 404, the same answer after the same lookup. A deactivated card still
 * shows, with its status.
 */
#include <string.h>

#include "lc_int.h"

/* The images never change for a card: its holder's browser keeps them. */
#define IMAGE_CACHE "private, max-age=86400"

static int
image(struct lc_ctx *ctx, const struct lc_card *c, int qr)
{
	FILE *f;

	if ((f = lc_raw(ctx, "image/svg+xml")) == NULL)
		return -1;
	ctx->raw_cache = IMAGE_CACHE;
	if ((qr ? lc_qr_svg(f, c->qr) : lc_barcode_svg(f, c->barcode)) == -1)
		return lc_fail(ctx, LC_E_INTERNAL, NULL, NULL);
	return 0;
}

int
lc_h_mycard(struct lc_ctx *ctx)
{
	char token[LC_SHARE_LEN + 2], currency[LC_BYTES(LC_CURRENCY_MAX)];
	const char *p = ctx->subpath, *rest;
	struct lc_card c;
	int64_t updated;
	size_t n;

	if (!lc_method_is(ctx, "GET"))
		return lc_not_allowed(ctx, "GET");
	if (*p++ != '/')
		return lc_fail(ctx, LC_E_NOT_FOUND, NULL, NULL);
	n = strcspn(p, "/");
	rest = p + n;
	if (*rest != '\0' && strcmp(rest, "/qr.svg") != 0 &&
	    strcmp(rest, "/barcode.svg") != 0)
		return lc_fail(ctx, LC_E_NOT_FOUND, NULL, NULL);
	/* One character more than a token, so a longer one stays malformed
	 * rather than cut to a token's length. */
	if (n > LC_SHARE_LEN + 1)
		n = LC_SHARE_LEN + 1;
	memcpy(token, p, n);
	token[n] = '\0';
	if (lc_card_shared(&ctx->dom, token, &c, &updated) == -1)
		return -1;
	if (*rest != '\0')
		return image(ctx, &c, strcmp(rest, "/qr.svg") == 0);
	ctx->out = lc_fmt_mycard(&c, lc_setting_text(ctx->dom.db,
	    LC_SET_CURRENCY, currency, sizeof(currency)), updated);
	return 0;
}
