/*
 * The outbox (event.c): the events each write adds inside its own
 * transaction, their types and ids.
 */
#ifndef LC_EVENT_H
#define LC_EVENT_H

#include "lc_dom.h"

#endif /* LC_EVENT_H */
