/*
 * Cards to print and scan (card_image.c).
 */
#ifndef LC_IMAGE_H
#define LC_IMAGE_H

#include <stddef.h>
#include <stdio.h>

struct lc_card;

/* card_image.c: a card to scan, as SVG (QR code by libqrencode, EAN-13
 * barcode with its digits), and a printable A4 sheet of cards as HTML.
 * 0, or -1 (logged) on a code that cannot be drawn or a write error. */
int lc_image_qr(FILE *, const char *text);
int lc_image_barcode(FILE *, const char *digits);
/* base: the public_url setting; when not "", each card carries the link
 * to its own page. */
int lc_image_card(FILE *, const char *shop, const struct lc_card *,
    const char *base);
int lc_image_sheet(FILE *, const char *shop, const struct lc_card *, size_t n,
    const char *base);

#endif /* LC_IMAGE_H */
