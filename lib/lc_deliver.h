/*
 * The deliverer (deliver.c, deliver_http.c, sign.c): webhooks sent
 * outside any till's request, signed by the Standard Webhooks
 * specification, retried, pruned.
 */
#ifndef LC_DELIVER_H
#define LC_DELIVER_H

#include "lc_dom.h"

#endif /* LC_DELIVER_H */
