/*
 * bench_floor: a lookup's database work and nothing else, for
 * tools/bench. It answers lookup's very request as the do-nothing
 * responder (bench_noop) does, and in between makes the reads no lookup
 * can do without, with the library's own functions, as lookup calls
 * them: one read snapshot, the bearer token's check (lc_auth_token), the
 * card by its QR code (lc_card_get) and its cashback's next expiry
 * (lc_expiry_fresh, which writes only when some is due), on the
 * connection of the process. No JSON is parsed (the QR code is cut out
 * of the body tools/bench.lua sends) and none is built (the answer is
 * the do-nothing responder's).
 *
 * Its requests a second over the do-nothing responder's are as far as
 * any lookup on this database can come: a lookup does all this and
 * more. Served like any responder (tools/bench adds it under
 * /api/v1/bench/floor); the database is LOYALTY_DB, as the service's.
 * An unknown token or card is answered 404, any other failure 500: the
 * run counts either as a bad answer. A database it cannot open ends the
 * process (lighttpd's log says so, which fails the run).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_http.h"
#include "bench_fcgi.h"

#define BODY_MAX 4096

static const char missing[] = "Status: 404 Not Found\r\n\r\n";
static const char failed[] = "Status: 500 Internal Server Error\r\n\r\n";

/* Reads the whole body, as any responder does, keeping its first
 * BODY_MAX - 1 bytes in buf, NUL-terminated. */
static void
body_read(FCGX_Stream *in, char *buf)
{
	char rest[1024];
	int len = 0, n;

	while (len < BODY_MAX - 1 &&
	    (n = FCGX_GetStr(buf + len, BODY_MAX - 1 - len, in)) > 0)
		len += n;
	buf[len] = '\0';
	while (FCGX_GetStr(rest, (int)sizeof(rest), in) > 0)
		;
}

/* The value of "qr_code_data" in the body bench.lua sends, or NULL. */
static const char *
qr_of(char *body)
{
	static const char key[] = "\"qr_code_data\":\"";
	char *v, *end;

	if ((v = strstr(body, key)) == NULL)
		return NULL;
	v += sizeof(key) - 1;
	if ((end = strchr(v, '"')) == NULL)
		return NULL;
	*end = '\0';
	return v;
}

/* A lookup's reads in one snapshot: 1 found, 0 not, -1 failed. */
static int
reads(struct lc_db *db, const char *auth, const char *qr)
{
	struct lc_dom dom;
	struct lc_card card;
	int rc = -1;

	memset(&dom, 0, sizeof(dom));
	dom.db = db;
	dom.now_ms = lc_now_ms();
	if (auth == NULL || strncmp(auth, "Bearer ", 7) != 0 || qr == NULL)
		return 0;
	if (lc_read_begin(&dom) == -1)
		goto out;
	if (lc_auth_token(&dom, auth + 7) == -1) {
		rc = dom.err.code == LC_E_UNAUTHORIZED ? 0 : -1;
		goto out;
	}
	if ((rc = lc_card_get(&dom, LC_CARDKEY_QR, qr, &card)) == 1 &&
	    lc_expiry_fresh(&dom, &card) == -1)
		rc = -1;
out:
	lc_db_idle(db);
	return rc;
}

int
main(void)
{
	FCGX_Request req;
	struct lc_db *db = NULL;
	char head[256], body[BODY_MAX];
	const char *path, *why;
	int n, rc;

	if ((n = bench_fcgi_start("bench_floor", &req, head, sizeof(head))) ==
	    -1)
		return 1;
	while (FCGX_Accept_r(&req) >= 0) {
		body_read(req.in, body);
		/* Once per process, as a responder's connection. */
		if (db == NULL) {
			if ((path = FCGX_GetParam("LOYALTY_DB", req.envp)) ==
			    NULL || *path == '\0')
				path = getenv("LOYALTY_DB");
			if (path == NULL || *path == '\0') {
				fputs("bench_floor: LOYALTY_DB is not set\n",
				    stderr);
				return 1;
			}
			if ((db = lc_db_open(path, 0, &why)) == NULL) {
				fprintf(stderr, "bench_floor: %s: %s\n", path,
				    why != NULL ? why : "cannot open it");
				return 1;
			}
		}
		rc = reads(db, FCGX_GetParam("HTTP_AUTHORIZATION", req.envp),
		    qr_of(body));
		if (rc == 1) {
			FCGX_PutStr(head, n, req.out);
			FCGX_PutStr(bench_answer, (int)sizeof(bench_answer) - 1,
			    req.out);
		} else
			FCGX_PutS(rc == 0 ? missing : failed, req.out);
		FCGX_Finish_r(&req);
	}
	lc_db_close(db);
	return 0;
}
