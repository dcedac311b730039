/*
 * GET /api/v1/admin/audit: the owner's audit trail, newest first: every
 * write of their shop (lib/audit.c), filtered by period (the shop's
 * days, as reports), user, action, object and location, a page at a
 * time, or all of it with format=csv.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_http.h"

#define DAY_MS 86400000LL

static const char lc_audit_csv_head[] = "seq,at,actor_type,user_id,"
    "user_name,location_id,location_name,terminal_id,request_id,action,"
    "object_type,object_id,before,after\r\n";

/* A date (the shop's) as the first or last ms of its day, UTC. */
static int
day_bound(struct lc_ctx *ctx, const char *name, int end,
    const struct lc_tz *tz, int64_t *v)
{
	char buf[32];
	int64_t ms;
	int rc, date_only;

	if ((rc = lc_q_str(ctx, name, buf, sizeof(buf))) <= 0)
		return rc;
	if (lc_time_parse(buf, &ms, &date_only) == -1 || !date_only || ms < 0)
		return lc_fail(ctx, LC_E_VALIDATION, name,
		    "%s must be a date such as 2026-11-01", name);
	/* A day of 23 or 25 hours when the clocks change. */
	*v = end ? lc_tz_day_start(tz, ms / DAY_MS + 1) - 1 :
	    lc_tz_day_start(tz, ms / DAY_MS);
	return 0;
}

/* A text filter: NULL when absent. */
static int
filter(struct lc_ctx *ctx, const char *name, char *buf, size_t size,
    const char **out)
{
	int rc;

	*out = NULL;
	if ((rc = lc_q_str(ctx, name, buf, size)) == -1)
		return -1;
	if (rc == 1)
		*out = buf;
	return 0;
}

static json_object *
json_or_null(const char *text)
{
	return text != NULL ? lc_json_parse(text, strlen(text)) : NULL;
}

static int
entry_json(void *arg, const struct lc_audit_row *r)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "seq", json_object_new_int64(r->seq));
	json_object_object_add(o, "at", lc_json_time(r->at));
	json_object_object_add(o, "actor_type",
	    lc_json_str_or_null(r->actor_type));
	json_object_object_add(o, "user_id", lc_json_str_or_null(r->user_id));
	json_object_object_add(o, "user_name",
	    lc_json_str_or_null(r->user_name));
	json_object_object_add(o, "location_id",
	    lc_json_str_or_null(r->location_id));
	json_object_object_add(o, "location_name",
	    lc_json_str_or_null(r->location_name));
	json_object_object_add(o, "terminal_id",
	    lc_json_str_or_null(r->terminal_id));
	json_object_object_add(o, "request_id",
	    lc_json_str_or_null(r->request_id));
	json_object_object_add(o, "action", lc_json_str_or_null(r->action));
	json_object_object_add(o, "object_type",
	    lc_json_str_or_null(r->object_type));
	json_object_object_add(o, "object_id",
	    lc_json_str_or_null(r->object_id));
	json_object_object_add(o, "before", json_or_null(r->before));
	json_object_object_add(o, "after", json_or_null(r->after));
	json_object_array_add(arg, o);
	return 0;
}

/* The spreadsheet's columns, as the back office's table. */
static const char *const lc_audit_csv_names[] = { "Date", "Time", "Who",
    "Where", "Terminal", "What", "Object", "Change", "Object ID",
    "Request", NULL };

struct audit_csv {
	FILE *f;
	const struct lc_csv_form *form;
	char *buf;			/* a row's change, as text */
	size_t size;
};

/* A value of a snapshot as a person reads it: text as it is, null as
 * "—", a number or list as JSON. Borrowed; valid until the next call
 * on v. */
static const char *
value_text(json_object *v)
{
	if (v == NULL)
		return "\xe2\x80\x94";
	if (json_object_is_type(v, json_type_string))
		return json_object_get_string(v);
	return json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
}

/* "key: before → after" for each value of after that is not the same
 * before (a new object: "key: value"), "; " between them; "—" for none.
 * As the back office's Change column. */
static void
change_text(FILE *f, const char *before, const char *after)
{
	json_object *b = json_or_null(before), *a = json_or_null(after), *bv;
	int n = 0;

	if (a != NULL && json_object_is_type(a, json_type_object)) {
		json_object_object_foreach(a, k, v) {
			bv = NULL;
			if (b != NULL && json_object_object_get_ex(b, k, &bv) &&
			    strcmp(value_text(bv), value_text(v)) == 0)
				continue;
			fprintf(f, "%s%s: ", n++ > 0 ? "; " : "", k);
			if (b != NULL)
				fprintf(f, "%s \xe2\x86\x92 ", value_text(bv));
			fputs(value_text(v), f);
		}
	}
	if (n == 0)
		fputs("\xe2\x80\x94", f);
	json_object_put(a);
	json_object_put(b);
}

/* Who made the change, as the back office names them. */
static void
who_csv(FILE *f, const struct lc_audit_row *r)
{
	char who[LC_BYTES(LC_NAME_MAX) + 16];
	const char *t = r->actor_type != NULL ? r->actor_type : "";

	if (strcmp(t, "loyalty-admin") == 0)
		snprintf(who, sizeof(who), "loyalty-admin (server)");
	else if (strcmp(t, "service") == 0)
		/* The service acts by itself for two things: cashback that
		 * expires, and a webhook the deliverer turns off. */
		snprintf(who, sizeof(who), "Automatic (%s)",
		    r->action != NULL && strncmp(r->action, "webhook.", 8) == 0 ?
		    "deliverer" : "expiry");
	else if (strcmp(t, "integration") == 0)
		snprintf(who, sizeof(who), "API token %s",
		    r->user_id != NULL ? r->user_id : "");
	else
		snprintf(who, sizeof(who), "%s%s", r->user_name != NULL ?
		    r->user_name : r->user_id != NULL ? r->user_id : "",
		    strcmp(t, "owner") == 0 ? " (owner)" : "");
	lc_csv_text(f, who, 0);
}

static int
entry_csv_names(void *arg, const struct lc_audit_row *r)
{
	struct audit_csv *ac = arg;
	const char *what = lc_audit_action_words(r->action);
	FILE *f = ac->f, *mem;

	lc_csv_when(f, ac->form, r->at, 0);
	who_csv(f, r);
	lc_csv_text(f, r->location_name, 0);
	lc_csv_text(f, r->terminal_id, 0);
	lc_csv_text(f, what != NULL ? what : r->action, 0);
	lc_csv_text(f, r->object_type, 0);
	/* The text first, then one cell of it (quoted, guarded). */
	if ((mem = open_memstream(&ac->buf, &ac->size)) == NULL)
		return -2;
	change_text(mem, r->before, r->after);
	if (fclose(mem) != 0)
		return -2;
	lc_csv_text(f, ac->buf, 0);
	free(ac->buf);
	ac->buf = NULL;
	lc_csv_text(f, r->object_id, 0);
	lc_csv_text(f, r->request_id, 1);
	return ferror(f) ? -2 : 0;
}

static int
entry_csv(void *arg, const struct lc_audit_row *r)
{
	FILE *f = ((struct audit_csv *)arg)->f;
	char when[32];

	lc_time_fmt(r->at, when);
	lc_csv_int(f, r->seq, 0);
	lc_csv_text(f, when, 0);
	lc_csv_text(f, r->actor_type, 0);
	lc_csv_text(f, r->user_id, 0);
	lc_csv_text(f, r->user_name, 0);
	lc_csv_text(f, r->location_id, 0);
	lc_csv_text(f, r->location_name, 0);
	lc_csv_text(f, r->terminal_id, 0);
	lc_csv_text(f, r->request_id, 0);
	lc_csv_text(f, r->action, 0);
	lc_csv_text(f, r->object_type, 0);
	lc_csv_text(f, r->object_id, 0);
	lc_csv_text(f, r->before, 0);
	lc_csv_text(f, r->after, 1);
	return ferror(f) ? -2 : 0;
}

/*
 * names: what a person calls each id an entry holds (its object, and in
 * before and after a program_id, location_id, *user_id, card_id or the
 * card_ids of a batch), so a page can say "Coffee Card" or "Ann Lee"
 * where the row has a UUID: { id: { "type", "name" } }, a card's name
 * its customer's ("" for a card without a name) with its
 * "barcode_value". Of the caller's merchant only; an id not found is
 * left out. Looked up once a page, after the rows are read: an id met
 * again (in another entry too) is not looked up again, and of a list
 * only the first LC_AUDIT_NAMED_MAX ids are named, so a page of 100-card
 * batches is not thousands of statements (the list itself stays whole).
 */
struct names {
	struct lc_ctx *ctx;
	json_object *seen;		/* id: its entry, or null when none */
};

/* 0, or -1 when storage failed. */
static int
name_of(struct names *nm, const char *type, const char *id, json_object **out)
{
	const char *mid = nm->ctx->dom.caller.merchant_id;
	struct lc_db *db = nm->ctx->dom.db;
	struct lc_program p;
	struct lc_location l;
	struct lc_user u;
	struct lc_card c;
	json_object *o = NULL;
	int rc = 0;

	*out = NULL;
	if (strcmp(type, "program") == 0) {
		if ((rc = lc_db_program_get(db, id, &p)) == 1 &&
		    strcmp(p.merchant_id, mid) == 0)
			o = lc_view_one("name", json_object_new_string(p.title));
	} else if (strcmp(type, "location") == 0) {
		if ((rc = lc_db_location_get(db, id, &l)) == 1 &&
		    strcmp(l.merchant_id, mid) == 0)
			o = lc_view_one("name", json_object_new_string(l.name));
	} else if (strcmp(type, "user") == 0) {
		if ((rc = lc_db_user_get(db, id, &u)) == 1 &&
		    strcmp(u.merchant_id, mid) == 0)
			o = lc_view_one("name", json_object_new_string(
			    u.display_name[0] != '\0' ? u.display_name :
			    u.email));
	} else if (strcmp(type, "card") == 0) {
		if ((rc = lc_db_card_any(db, id, &c)) == 1 &&
		    strcmp(c.merchant_id, mid) == 0) {
			o = lc_view_one("name",
			    json_object_new_string(c.customer_name));
			json_object_object_add(o, "barcode_value",
			    json_object_new_string(c.barcode));
		}
	} else
		return 0;
	if (rc == -1)
		return -1;
	if (o != NULL) {
		json_object_object_add(o, "type", json_object_new_string(type));
		*out = o;
	}
	return 0;
}

/* Adds id (of type) to the entry's names, looked up once a page. */
static int
name_add(struct names *nm, json_object *names, const char *type,
    json_object *idv)
{
	json_object *o;
	const char *id;

	if (idv == NULL || !json_object_is_type(idv, json_type_string))
		return 0;
	id = json_object_get_string(idv);
	if (*id == '\0' || json_object_object_get_ex(names, id, NULL))
		return 0;
	if (!json_object_object_get_ex(nm->seen, id, &o)) {
		if (name_of(nm, type, id, &o) == -1)
			return -1;
		json_object_object_add(nm->seen, id, o);
	}
	if (o != NULL)
		json_object_object_add(names, id, json_object_get(o));
	return 0;
}

/* The type of object an id of a snapshot's key names; NULL: none. */
static const char *
key_type(const char *k)
{
	size_t n = strlen(k);

	if (strcmp(k, "program_id") == 0)
		return "program";
	if (strcmp(k, "location_id") == 0)
		return "location";
	if (strcmp(k, "card_id") == 0 || strcmp(k, "card_instance_id") == 0 ||
	    strcmp(k, "card_ids") == 0)
		return "card";
	if (n >= 7 && strcmp(k + n - 7, "user_id") == 0)
		return "user";
	return NULL;
}

static int
names_of_snap(struct names *nm, json_object *names, json_object *snap)
{
	const char *type;
	size_t i;

	if (snap == NULL || !json_object_is_type(snap, json_type_object))
		return 0;
	json_object_object_foreach(snap, k, v) {
		if ((type = key_type(k)) == NULL)
			continue;
		if (json_object_is_type(v, json_type_array)) {
			for (i = 0; i < json_object_array_length(v) &&
			    i < LC_AUDIT_NAMED_MAX; i++)
				if (name_add(nm, names, type,
				    json_object_array_get_idx(v, i)) == -1)
					return -1;
		} else if (name_add(nm, names, type, v) == -1)
			return -1;
	}
	return 0;
}

/* Each entry of a gets its names. 0, or -1 (storage failed). */
static int
entries_named(struct lc_ctx *ctx, json_object *a)
{
	struct names nm = { ctx, json_object_new_object() };
	json_object *e, *names, *v, *ot;
	size_t i;
	int rc = 0;

	for (i = 0; rc == 0 && i < json_object_array_length(a); i++) {
		e = json_object_array_get_idx(a, i);
		names = json_object_new_object();
		json_object_object_add(e, "names", names);
		if (json_object_object_get_ex(e, "object_type", &ot) &&
		    json_object_object_get_ex(e, "object_id", &v) &&
		    json_object_is_type(ot, json_type_string))
			rc = name_add(&nm, names, json_object_get_string(ot), v);
		if (rc == 0 && json_object_object_get_ex(e, "before", &v))
			rc = names_of_snap(&nm, names, v);
		if (rc == 0 && json_object_object_get_ex(e, "after", &v))
			rc = names_of_snap(&nm, names, v);
	}
	json_object_put(nm.seen);
	return rc;
}

int
lc_h_admin_audit(struct lc_ctx *ctx)
{
	char user[LC_ID_LEN + 1], action[65], otype[33], oid[LC_ID_LEN + 1];
	char loc[LC_ID_LEN + 1], fmt[8];
	struct lc_audit_query q;
	struct lc_csv_form form;
	struct audit_csv ac = { NULL, &form, NULL, 0 };
	struct lc_tz tz;
	int64_t page = 1, size = 50, total;
	json_object *a;
	int rc;

	if (ctx->subpath[0] != '\0')
		return lc_fail(ctx, LC_E_NOT_FOUND, NULL, NULL);
	memset(&q, 0, sizeof(q));
	q.merchant_id = ctx->dom.caller.merchant_id;
	q.from = INT64_MIN;
	q.to = INT64_MAX;
	/* Days are the shop's, as in reports. */
	if (lc_tz_of(ctx->dom.db, q.merchant_id, &tz) == -1)
		return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	if (day_bound(ctx, "from", 0, &tz, &q.from) == -1 ||
	    day_bound(ctx, "to", 1, &tz, &q.to) == -1)
		return -1;
	if (q.from > q.to)
		return lc_fail(ctx, LC_E_VALIDATION, "from",
		    "from must not be after to");
	if (filter(ctx, "user_id", user, sizeof(user), &q.user_id) == -1 ||
	    filter(ctx, "action", action, sizeof(action), &q.action) == -1 ||
	    filter(ctx, "object_type", otype, sizeof(otype),
	    &q.object_type) == -1 ||
	    filter(ctx, "object_id", oid, sizeof(oid), &q.object_id) == -1 ||
	    filter(ctx, "location_id", loc, sizeof(loc), &q.location_id) == -1)
		return -1;
	if (q.action != NULL && !lc_audit_action_known(q.action))
		return lc_fail(ctx, LC_E_VALIDATION, "action",
		    "No such action in the audit log (see the documentation "
		    "for the list).");
	if (q.object_type != NULL && !lc_audit_object_type_known(q.object_type))
		return lc_fail(ctx, LC_E_VALIDATION, "object_type",
		    "No such type of object in the audit log (see the "
		    "documentation for the list).");
	if (q.object_id != NULL && q.object_type == NULL)
		return lc_fail(ctx, LC_E_VALIDATION, "object_type",
		    "object_id needs its object_type");
	if ((rc = lc_q_str(ctx, "format", fmt, sizeof(fmt))) == -1 ||
	    lc_q_int(ctx, "page", 1, 1000000000, &page) == -1 ||
	    lc_q_int(ctx, "page_size", 1, LC_AUDIT_PAGE_MAX, &size) == -1)
		return -1;
	if (rc == 1 && strcmp(fmt, "csv") != 0 && strcmp(fmt, "json") != 0)
		return lc_fail(ctx, LC_E_VALIDATION, "format",
		    "format must be json or csv");
	if (rc == 1 && strcmp(fmt, "csv") == 0) {
		/* Everything the filters select, row by row. */
		if (lc_q_csv_form(ctx, &tz, &form) == -1 ||
		    (ac.f = lc_raw(ctx, "text/csv; charset=utf-8")) == NULL)
			return -1;
		snprintf(ctx->raw_name, sizeof(ctx->raw_name), "audit.csv");
		if (form.keys)
			fputs(lc_audit_csv_head, ac.f);
		else
			lc_csv_head(ac.f, &form, lc_audit_csv_names);
		q.limit = -1;
		rc = lc_db_audit(ctx->dom.db, &q, form.keys ? entry_csv :
		    entry_csv_names, &ac);
		free(ac.buf);
		return rc != 0 ? lc_fail(ctx, LC_E_DATABASE, NULL, NULL) : 0;
	}
	if (lc_db_audit_count(ctx->dom.db, &q, &total) == -1)
		return -1;
	q.limit = size;
	q.offset = (page - 1) * size;
	a = json_object_new_array();
	if ((q.offset < total && lc_db_audit(ctx->dom.db, &q, entry_json,
	    a) != 0) || entries_named(ctx, a) == -1) {
		json_object_put(a);
		return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	}
	ctx->out = lc_view_one("entries", a);
	json_object_object_add(ctx->out, "pagination",
	    lc_fmt_pagination(page, size, total));
	return 0;
}
