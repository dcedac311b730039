/* POST /api/v1/cards/lookup: a card and its balance, by QR or barcode. */
#include "lc_http.h"

int
lc_h_lookup(struct lc_ctx *ctx)
{
	struct lc_error *e = &ctx->dom.err;
	const char *qr, *barcode;
	struct lc_card card;
	int rc;

	if (lc_in_str(e, ctx->in, "qr_code_data", 0, LC_REF_MAX, &qr) == -1 ||
	    lc_in_str(e, ctx->in, "barcode_value", 0, LC_REF_MAX, &barcode) == -1)
		return -1;
	if ((qr == NULL) == (barcode == NULL))
		return lc_fail(ctx, LC_E_VALIDATION, qr ? "barcode_value" :
		    "qr_code_data", "Send exactly one of qr_code_data and "
		    "barcode_value.");
	rc = qr != NULL ? lc_card_get(&ctx->dom, LC_CARDKEY_QR, qr, &card) :
	    lc_card_get(&ctx->dom, LC_CARDKEY_BARCODE, barcode, &card);
	if (rc == -1)
		return -1;
	if (rc == 0)
		return lc_fail(ctx, LC_E_CARD_NOT_FOUND, NULL, NULL);
	if (lc_expiry_fresh(&ctx->dom, &card) == -1)
		return -1;
	ctx->out = lc_fmt_card(&card, &ctx->dom.cur);
	return 0;
}
