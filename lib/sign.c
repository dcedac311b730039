/*
 * Standard Webhooks signatures (standardwebhooks.com): HMAC-SHA256 of
 * "msg_id.timestamp.body" keyed with the secret's bytes, the secret
 * written "whsec_" and base64. The timestamp in the signed text is what
 * stops a captured delivery from being replayed later: receivers refuse
 * one more than a few minutes old.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "lc_core.h"

#define SECRET_MAX 128	/* decoded key bytes: ours are 24 */

int
lc_sign(const char *secret, const char *id, int64_t timestamp,
    const char *body, size_t len, char out[LC_SIGN_MAX])
{
	unsigned char key[SECRET_MAX], mac[EVP_MAX_MD_SIZE];
	unsigned int maclen = 0;
	char ts[32];
	char *msg = NULL;
	size_t idlen, tslen, n;
	long keylen;
	int rc = -1;

	out[0] = '\0';
	if (strncmp(secret, "whsec_", 6) == 0)
		secret += 6;
	if (strlen(secret) > SECRET_MAX * 4 / 3 ||
	    (keylen = lc_b64_decode(secret, key, sizeof(key))) <= 0)
		goto out;
	idlen = strlen(id);
	tslen = (size_t)snprintf(ts, sizeof(ts), "%lld", (long long)timestamp);
	n = idlen + 1 + tslen + 1 + len;
	if ((msg = malloc(n)) == NULL)
		goto out;
	memcpy(msg, id, idlen);
	msg[idlen] = '.';
	memcpy(msg + idlen + 1, ts, tslen);
	msg[idlen + 1 + tslen] = '.';
	memcpy(msg + idlen + tslen + 2, body, len);
	if (HMAC(EVP_sha256(), key, (int)keylen, (const unsigned char *)msg, n,
	    mac, &maclen) == NULL || maclen != 32)
		goto out;
	memcpy(out, "v1,", 3);
	/* 32 bytes are 44 characters of base64: 48 in all with "v1,". */
	out[3 + lc_b64_encode(mac, maclen, out + 3, 0)] = '\0';
	rc = 0;
out:
	OPENSSL_cleanse(key, sizeof(key));
	free(msg);
	return rc;
}
