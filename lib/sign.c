/*
 * Standard Webhooks signatures (HMAC-SHA256 with OpenSSL).
 */
#include "lc_core.h"
