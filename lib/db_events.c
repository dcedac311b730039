/*
 * Storage: the outbox's rows.
 */
#include "lc_core.h"
