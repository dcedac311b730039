/*
 * The outbox: each write's events, added inside its transaction.
 */
#include "lc_core.h"
