/*
 * CSV for spreadsheets (RFC 4180: comma, CRLF, quotes doubled). A text
 * that a spreadsheet would run as a formula (starting with = + - @, a
 * tab or a CR) is written with a ' before it: a customer named
 * "=HYPERLINK(...)" stays a name. A spreadsheet of a country whose lists
 * are separated by ";" splits the file at every ";" instead, quotes or
 * not (a quote is only one at the start of its field): a text holding ";"
 * is quoted, and a formula character or a quote right after a ";" gets
 * its ' too, so "Bob;=cmd" never starts a cell at "=".
 */
#include <string.h>

#include "lc_http.h"

#define FORMULA_START "=+-@\t\r"

static int
formula_start(char c)
{
	return c != '\0' && strchr(FORMULA_START, c) != NULL;
}

void
lc_csv_text(FILE *f, const char *s, int last)
{
	const char *p;

	if (s == NULL)
		s = "";
	if (formula_start(*s)) {
		fputs("\"'", f);
		goto quoted;
	}
	if (strpbrk(s, ",;\"\r\n") == NULL) {
		fputs(s, f);
		goto end;
	}
	fputc('"', f);
quoted:
	for (p = s; *p != '\0'; p++) {
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
		/* A quote there would open a quoted cell, whose text
		 * could start a formula in turn. */
		if (*p == ';' && (formula_start(p[1]) || p[1] == '"'))
			fputc('\'', f);
	}
	fputc('"', f);
end:
	fputs(last ? "\r\n" : ",", f);
}

void
lc_csv_money(FILE *f, int64_t minor, int exp, int last)
{
	char buf[32];

	if (minor < 0)
		buf[0] = '\0';
	else
		lc_money_fmt(minor, exp, buf);
	lc_csv_text(f, buf, last);
}

void
lc_csv_signed(FILE *f, int64_t minor, int exp, int last)
{
	char buf[32];
	uint64_t a;

	if (minor == LC_TXN_NONE) {
		fputs(last ? "\r\n" : ",", f);
		return;
	}
	a = minor < 0 ? (uint64_t)0 - (uint64_t)minor : (uint64_t)minor;
	lc_money_fmt((int64_t)a, exp, buf);
	fprintf(f, "%s%s%s", minor < 0 ? "-" : "", buf, last ? "\r\n" : ",");
}

void
lc_csv_int(FILE *f, int64_t v, int last)
{
	fprintf(f, "%lld%s", (long long)v, last ? "\r\n" : ",");
}

void
lc_csv_head(FILE *f, const struct lc_csv_form *form,
    const char *const *names)
{
	char cell[80];

	fputs(LC_CSV_BOM, f);
	for (; *names != NULL; names++) {
		/* The one column of times says whose they are. */
		if (strcmp(*names, "Time") == 0) {
			snprintf(cell, sizeof(cell), "Time (%s)", form->zone);
			lc_csv_text(f, cell, names[1] == NULL);
		} else
			lc_csv_text(f, *names, names[1] == NULL);
	}
}

void
lc_csv_when(FILE *f, const struct lc_csv_form *form, int64_t ms, int last)
{
	char t[32];

	/* YYYY-MM-DD and HH:MM:SS of the shop's clock at that instant:
	 * cells a spreadsheet reads as a date and a time. */
	lc_time_fmt(ms + lc_tz_offset_ms(&form->tz, ms), t);
	t[10] = '\0';
	t[19] = '\0';
	lc_csv_text(f, t, 0);
	lc_csv_text(f, t + 11, last);
}
