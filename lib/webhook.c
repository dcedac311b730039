/*
 * Webhook endpoints: their rules.
 */
#include "lc_core.h"
