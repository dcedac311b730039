/*
 * The core of the library, one header per room: utilities, JSON, the
 * rules with their write path and audit trail, storage, the schema, the
 * owner's objects as JSON and card images. What the HTTP side adds is in
 * lc_http.h, which the core cannot include.
 */
#ifndef LC_CORE_H
#define LC_CORE_H

#include "lcard.h"
#include "lc_limits.h"
#include "lc_util.h"
#include "lc_json.h"
#include "lc_rules.h"
#include "lc_schema.h"
#include "lc_view.h"
#include "lc_image.h"
#include "lc_event.h"
#include "lc_apitoken.h"
#include "lc_webhook.h"
#include "lc_deliver.h"
#include "lc_currency.h"
#include "lc_tz.h"

#endif /* LC_CORE_H */
