/*
 * Integration tokens (apitoken.c): named API tokens with scopes that
 * an owner gives integrators; the feed of events they read.
 */
#ifndef LC_APITOKEN_H
#define LC_APITOKEN_H

#include "lc_dom.h"

#endif /* LC_APITOKEN_H */
