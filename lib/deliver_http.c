/*
 * The deliverer's HTTP: one POST with libcurl, to allowed addresses only.
 */
#include "lc_core.h"
