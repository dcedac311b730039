/*
 * Storage: webhook endpoints, their jobs and delivery log.
 */
#include "lc_core.h"
