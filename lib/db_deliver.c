/*
 * Storage: the deliverer's leases, attempts and pruning.
 */
#include "lc_core.h"
