/*
 * The deliverer: one bounded run over the due deliveries.
 */
#include "lc_core.h"
