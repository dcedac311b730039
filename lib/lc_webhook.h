/*
 * Webhook endpoints (webhook.c): the owner's endpoints, their secrets,
 * test events and re-sends.
 */
#ifndef LC_WEBHOOK_H
#define LC_WEBHOOK_H

#include "lc_dom.h"

#endif /* LC_WEBHOOK_H */
