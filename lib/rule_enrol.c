/*
 * Enrolment at the counter: a cashier issues a new customer a card of one
 * of the shop's programs while they wait. Owners always may; staff while
 * the staff_enrolment setting is 1 (the default), so an owner who wants
 * every card to pass through them turns it off.
 */
#include <string.h>

#include "lc_core.h"

int
lc_enrol_allowed(struct lc_dom *dom)
{
	return dom->caller.is_owner ||
	    lc_setting(dom->db, LC_SET_STAFF_ENROLMENT) == 1;
}

int
lc_enrol_check(struct lc_dom *dom)
{
	return lc_enrol_allowed(dom) ? 0 : lc_dom_fail(dom, LC_E_FORBIDDEN,
	    NULL, "The shop's owner has turned off card issuing by staff.");
}

int
lc_enrol_scope(struct lc_dom *dom, const char **location_id)
{
	/* Staff enrol at their own location, an owner at any of theirs or
	 * none named. */
	if (*location_id == NULL) {
		if (dom->caller.is_owner)
			return 0;
		*location_id = dom->caller.location_id;
	}
	return lc_auth_scope(dom, *location_id, dom->caller.user_id, 1);
}

int
lc_enrol(struct lc_dom *dom, const struct lc_enrol *en, struct lc_card *c)
{
	char id[LC_ID_LEN + 1];
	int rc;

	if (lc_shop_card_issue_at(dom, en->program_id, en->customer_name,
	    en->location_id, c) == -1)
		return -1;
	/* Read back whole: its status and program as any card shows them. */
	memcpy(id, c->id, sizeof(id));
	if ((rc = lc_card_get(dom, LC_CARDKEY_ID, id, c)) == 1)
		return 0;
	return rc == -1 ? -1 : lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
}
