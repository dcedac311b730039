/*
 * Integration tokens: made, checked, revoked; their scopes.
 */
#include "lc_core.h"
