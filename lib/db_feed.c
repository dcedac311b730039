/*
 * Storage: the feed of events, integration tokens.
 */
#include "lc_core.h"
