/*
 * A card a customer can scan: its QR code (encoded by libqrencode), its
 * EAN-13 barcode and digits, on a business-card face (85 x 55 mm) as SVG,
 * and a printable A4 sheet of such faces as HTML. All drawn as vectors,
 * so a cheap printer prints them sharp at any size.
 */
#include <string.h>

#include <qrencode.h>

#include "lc_core.h"

#define QUIET 4			/* modules of white around a QR code */

/* Text for SVG and HTML: the five characters that mean markup. */
static int
put_text(FILE *f, const char *s)
{
	for (; *s != '\0'; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc(*s, f);
		}
	}
	return ferror(f) ? -1 : 0;
}

/* The QR code of text as an <svg> of one path, a unit per module, placed
 * at x, y with the given size (0 size: a standalone document). */
static int
qr_svg(FILE *f, const char *text, int x, int y, int size)
{
	QRcode *qr;
	int w, r, c, run, dim;

	if ((qr = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1)) ==
	    NULL) {
		lc_log("qrencode: cannot encode %zu bytes", strlen(text));
		return -1;
	}
	w = qr->width;
	dim = w + 2 * QUIET;
	if (size > 0)
		fprintf(f, "<svg x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" ",
		    x, y, size, size);
	else
		fputs("<svg xmlns=\"http://www.w3.org/2000/svg\" "
		    "width=\"50mm\" height=\"50mm\" ", f);
	fprintf(f, "viewBox=\"0 0 %d %d\" shape-rendering=\"crispEdges\">"
	    "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/><path d=\"",
	    dim, dim, dim, dim);
	/* Dark modules, a horizontal run a rectangle. */
	for (r = 0; r < w; r++)
		for (c = 0; c < w; c += run) {
			for (run = 0; c + run < w &&
			    (qr->data[r * w + c + run] & 1); run++)
				continue;
			if (run == 0) {
				run = 1;
				continue;
			}
			fprintf(f, "M%d %dh%dv1h-%dz", c + QUIET, r + QUIET, run,
			    run);
		}
	fputs("\" fill=\"#000\"/></svg>", f);
	QRcode_free(qr);
	return ferror(f) ? -1 : 0;
}

/* EAN-13: the modules of a digit in sets L, G and R, and which of L and
 * G the first digit chooses for the six of the left half. */
static const char *const ean_l[10] = { "0001101", "0011001", "0010011",
    "0111101", "0100011", "0110001", "0101111", "0111011", "0110111",
    "0001011" };
static const char *const ean_parity[10] = { "LLLLLL", "LLGLGG", "LLGGLG",
    "LLGGGL", "LGLLGG", "LGGLLG", "LGGGLL", "LGLGLG", "LGLGGL", "LGGLGL" };

/* 1 when d is 13 digits with a right check digit. */
static int
ean13_ok(const char *d)
{
	int i, sum = 0;

	if (strlen(d) != 13 || strspn(d, "0123456789") != 13)
		return 0;
	for (i = 0; i < 12; i++)
		sum += (d[i] - '0') * (i % 2 ? 3 : 1);
	return (10 - sum % 10) % 10 == d[12] - '0';
}

/* The 95 modules of an EAN-13 into m ('1' bar, '0' space). */
static void
ean13_modules(const char *d, char m[96])
{
	int i, j, k = 0, v;
	char code[8];

	memcpy(m + k, "101", 3), k += 3;
	for (i = 1; i <= 6; i++) {
		v = d[i] - '0';
		for (j = 0; j < 7; j++)
			/* G is R reversed; R is L inverted. */
			code[j] = ean_parity[d[0] - '0'][i - 1] == 'L' ?
			    ean_l[v][j] : (ean_l[v][6 - j] == '1' ? '0' : '1');
		memcpy(m + k, code, 7), k += 7;
	}
	memcpy(m + k, "01010", 5), k += 5;
	for (i = 7; i <= 12; i++) {
		v = d[i] - '0';
		for (j = 0; j < 7; j++)
			code[j] = ean_l[v][j] == '1' ? '0' : '1';
		memcpy(m + k, code, 7), k += 7;
	}
	memcpy(m + k, "101", 3), k += 3;
	m[k] = '\0';
}

/* The barcode of d with its digits under it, in a box of 113 x 80 units
 * (11 modules of quiet zone before, 7 after), placed at x, y, w wide. */
static int
ean13_svg(FILE *f, const char *d, int x, int y, int w)
{
	char m[96];
	int i, run, guard;

	if (!ean13_ok(d)) {
		lc_log("barcode %s is not an EAN-13", d);
		return -1;
	}
	ean13_modules(d, m);
	if (w > 0)
		fprintf(f, "<svg x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" ",
		    x, y, w, w * 80 / 113);
	else
		fputs("<svg xmlns=\"http://www.w3.org/2000/svg\" "
		    "width=\"56.5mm\" height=\"40mm\" ", f);
	fputs("viewBox=\"0 0 113 80\" shape-rendering=\"crispEdges\">"
	    "<rect width=\"113\" height=\"80\" fill=\"#fff\"/><path d=\"", f);
	for (i = 0; i < 95; i += run) {
		for (run = 0; i + run < 95 && m[i + run] == m[i]; run++)
			continue;
		if (m[i] == '0')
			continue;
		/* The guard bars reach down past the digits' top. */
		guard = i < 3 || (i >= 45 && i < 50) || i >= 92;
		fprintf(f, "M%d 4h%dv%dh-%dz", i + 11, run, guard ? 66 : 60, run);
	}
	fputs("\" fill=\"#000\"/><g font-family=\"monospace\" font-size=\"10\" "
	    "text-anchor=\"middle\" fill=\"#000\">", f);
	fprintf(f, "<text x=\"6\" y=\"74\">%c</text>", d[0]);
	for (i = 1; i <= 6; i++)
		fprintf(f, "<text x=\"%d\" y=\"74\">%c</text>",
		    11 + 3 + (i - 1) * 7 + 4, d[i]);
	for (i = 7; i <= 12; i++)
		fprintf(f, "<text x=\"%d\" y=\"74\">%c</text>",
		    11 + 50 + (i - 7) * 7 + 4, d[i]);
	fputs("</g></svg>", f);
	return ferror(f) ? -1 : 0;
}

int
lc_image_qr(FILE *f, const char *text)
{
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	return qr_svg(f, text, 0, 0, 0);
}

int
lc_image_barcode(FILE *f, const char *digits)
{
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	return ean13_svg(f, digits, 0, 0, 0);
}

/* The band at the foot of a card that holds its link: x, width, the
 * first baseline, and the lines it takes. */
#define LINK_X 30
#define LINK_W 790
#define LINK_Y 505
#define LINK_LINES 2
#define LINK_FONT_MAX 22
#define LINK_FONT_MIN 8
/* A monospace glyph's advance, in hundredths of the font size (DejaVu
 * Sans Mono is 60; a little more for other fonts a browser may pick). */
#define MONO_ADVANCE 62

/* Where to end the first line of text (len characters) so that both
 * lines take at most cap characters: after the last '/', '#' or blank
 * that allows it, else at cap; 0 when two lines cannot hold it. */
static size_t
link_break(const char *text, size_t len, size_t cap)
{
	size_t i;

	if (len <= cap)
		return len;
	if (len > 2 * cap)
		return 0;
	for (i = cap; i > 0; i--)
		if (strchr("/# ", text[i - 1]) != NULL && len - i <= cap)
			return i;
	return cap;
}

/*
 * "Your card online: <public_url>card.html#<token>" in the band at the
 * card's foot, in the largest monospace size that fits two lines: the
 * link the customer types to see their card. Broken after a '/' or '#'
 * where it can be, so no line ends inside a word of the address.
 */
static int
link_text(FILE *f, const char *base, const struct lc_card *c)
{
	char text[LC_URL_MAX + LC_SHARE_LEN + 64], first[sizeof(text)];
	size_t len, cap, cut = 0;
	int fs;

	len = (size_t)snprintf(text, sizeof(text),
	    "Your card online: %scard.html#%s", base, c->share_token);
	if (len >= sizeof(text)) {
		lc_log("card %s: the link is too long to print", c->id);
		return -1;
	}
	for (fs = LINK_FONT_MAX; fs >= LINK_FONT_MIN; fs--) {
		cap = (size_t)(LINK_W * 100 / (fs * MONO_ADVANCE));
		if ((cut = link_break(text, len, cap)) != 0)
			break;
	}
	if (cut == 0) {
		lc_log("card %s: the link does not fit the card", c->id);
		return -1;
	}
	fputs("<g font-family=\"monospace\" fill=\"#111\"><title>", f);
	put_text(f, text);
	fprintf(f, "</title><text x=\"%d\" y=\"%d\" font-size=\"%d\">",
	    LINK_X, LINK_Y, fs);
	/* The first line up to the break, the second from it. */
	memcpy(first, text, cut);
	first[cut] = '\0';
	put_text(f, first);
	if (text[cut] != '\0') {
		fprintf(f, "</text><text x=\"%d\" y=\"%d\" font-size=\"%d\">",
		    LINK_X, LINK_Y + fs * 6 / 5, fs);
		put_text(f, text + cut);
	}
	fputs("</text></g>", f);
	return ferror(f) ? -1 : 0;
}

/* One card's face, 850 x 550 units for 85 x 55 mm. With a link to print
 * (base, the public_url setting, not ""), the names and the barcode move
 * up to leave the foot of the card to it. */
static int
face(FILE *f, const char *shop, const struct lc_card *c, const char *base,
    int standalone)
{
	int link = base[0] != '\0' && c->share_token[0] != '\0';

	if (standalone)
		fputs("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"85mm\" "
		    "height=\"55mm\" ", f);
	else
		fputs("<svg class=\"card\" ", f);
	fputs("viewBox=\"0 0 850 550\"><rect x=\"1\" y=\"1\" width=\"848\" "
	    "height=\"548\" rx=\"24\" fill=\"#fff\" stroke=\"#999\" "
	    "stroke-width=\"2\"/>", f);
	/* Long names are cut at the QR code's edge, never over it. */
	fprintf(f, "<svg width=\"520\" height=\"%d\" overflow=\"hidden\">"
	    "<g font-family=\"sans-serif\" fill=\"#111\">"
	    "<text x=\"40\" y=\"%d\" font-size=\"44\" font-weight=\"bold\">",
	    link ? 180 : 230, link ? 70 : 80);
	put_text(f, shop);
	fprintf(f, "</text><text x=\"40\" y=\"%d\" font-size=\"30\">",
	    link ? 112 : 130);
	put_text(f, c->program.title);
	/* A card without a name (one of a box to hand out) has no line
	 * for it: the owner names it later, the customer writes on it. */
	if (c->customer_name[0] != '\0') {
		fprintf(f, "</text><text x=\"40\" y=\"%d\" font-size=\"34\">",
		    link ? 162 : 200);
		put_text(f, c->customer_name);
	}
	fputs("</text></g></svg>", f);
	if (qr_svg(f, c->qr, 540, 30, 290) == -1 ||
	    ean13_svg(f, c->barcode, 30, link ? 180 : 230, 420) == -1 ||
	    (link && link_text(f, base, c) == -1))
		return -1;
	fputs("</svg>", f);
	return ferror(f) ? -1 : 0;
}

int
lc_image_card(FILE *f, const char *shop, const struct lc_card *c,
    const char *base)
{
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	return face(f, shop, c, base, 1);
}

int
lc_image_sheet(FILE *f, const char *shop, const struct lc_card *cards, size_t n,
    const char *base)
{
	size_t i;

	/* Ten to an A4 page, two by five, each the size of a business card;
	 * the cut marks are the cards' own borders. */
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	    "<title>Loyalty cards: ", f);
	put_text(f, shop);
	fputs("</title><style>"
	    "@page{size:A4;margin:10mm}"
	    "body{margin:0;font-family:sans-serif}"
	    ".page{display:grid;grid-template-columns:85mm 85mm;"
	    "grid-auto-rows:55mm;gap:0 5mm;justify-content:center;"
	    "break-after:page}"
	    ".page:last-child{break-after:auto}"
	    ".card{width:85mm;height:55mm;display:block}"
	    "@media screen{body{background:#eee}.page{background:#fff;"
	    "width:210mm;min-height:277mm;margin:5mm auto;padding:10mm 0}}"
	    "</style></head><body>\n", f);
	for (i = 0; i < n; i++) {
		if (i % 10 == 0)
			fputs(i == 0 ? "<div class=\"page\">" :
			    "</div>\n<div class=\"page\">", f);
		if (face(f, shop, &cards[i], base, 0) == -1)
			return -1;
		fputc('\n', f);
	}
	fputs(n > 0 ? "</div>\n</body></html>\n" : "</body></html>\n", f);
	return ferror(f) ? -1 : 0;
}
