/*
 * The CA certificates that verify a webhook endpoint's https server,
 * chosen at run time (lib/cafile.c): the static bundle (tools/bundle)
 * runs on hosts of every kind, which keep them in different places.
 */
#ifndef LC_CAFILE_H
#define LC_CAFILE_H

#include <curl/curl.h>

/*
 * The CA file to verify with: $SSL_CERT_FILE when set (an override for
 * a host with its own place, or an installation's own CA; used as it
 * is, so that a wrong one fails loudly), else the first readable one of
 * the usual places (Debian and Ubuntu, then CentOS, AlmaLinux and
 * CloudLinux as cPanel hosts run, then the others). NULL when there is
 * none. The string is static: never freed.
 */
const char *lc_ca_file(void);

/*
 * Sets CURL's CA certificates: lc_ca_file() as CURLOPT_CAINFO; where the
 * host has none, the certificates built into the program (the static
 * bundle's: Debian's ca-certificates, CURLOPT_CAINFO_BLOB); else, in a
 * build against the system's libcurl, its own default is left. Returns
 * 0, or -1 when curl refused the option (nothing to verify with: the
 * caller must not send).
 */
int lc_ca_curl(CURL *curl);

#endif /* LC_CAFILE_H */
