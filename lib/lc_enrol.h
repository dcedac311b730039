/*
 * Enrolment at the counter (rule_enrol.c).
 */
#ifndef LC_ENROL_H
#define LC_ENROL_H

#include "lc_dom.h"

/* 1 when the caller may issue cards at the till: an owner, or staff
 * while the staff_enrolment setting is 1. */
int lc_enrol_allowed(struct lc_dom *);
/* Before the write, each 0 or -1 FORBIDDEN: the caller's right to enrol;
 * the scope of *location_id, which NULL makes the staff member's own
 * (none for an owner). */
int lc_enrol_check(struct lc_dom *);
int lc_enrol_scope(struct lc_dom *, const char **location_id);
struct lc_enrol {
	const char *program_id, *customer_name, *location_id;
};
/* Inside the write: issues the card (NOT_FOUND for a program not the
 * caller's merchant's) into c, whole. 0, or -1 with dom->err. */
int lc_enrol(struct lc_dom *, const struct lc_enrol *, struct lc_card *c);

#endif /* LC_ENROL_H */
