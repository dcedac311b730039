/*
 * The CA certificates that verify a webhook endpoint's https server.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lc_cafile.h"

#ifdef LC_CA_BUNDLED
/* lc_ca_pem_text: tools/bundle writes it from Debian's ca-certificates. */
#include <lc_ca_pem.h>
#endif

/* The hosts' own bundles, kept up to date by their packages: these come
 * before the built-in copy, which ages with the download. */
static const char *const ca_files[] = {
	"/etc/ssl/certs/ca-certificates.crt",	/* Debian, Ubuntu, Arch */
	"/etc/pki/tls/certs/ca-bundle.crt",	/* CentOS, RHEL, AlmaLinux, CloudLinux */
	"/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",	/* the same, newer */
	"/etc/ssl/ca-bundle.pem",		/* openSUSE, SLES */
	"/etc/ssl/cert.pem",			/* Alpine */
};

const char *
lc_ca_file(void)
{
	const char *env = getenv("SSL_CERT_FILE");
	struct stat st;
	size_t i;

	if (env != NULL && env[0] != '\0')
		return env;
	for (i = 0; i < sizeof ca_files / sizeof ca_files[0]; i++) {
		/* A jail (CageFS) may show the name but not let it be read. */
		if (stat(ca_files[i], &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
		    access(ca_files[i], R_OK) == 0)
			return ca_files[i];
	}
	return NULL;
}

int
lc_ca_curl(CURL *curl)
{
	const char *file = lc_ca_file();
#ifdef LC_CA_BUNDLED
	struct curl_blob blob;
#endif

	if (file != NULL)
		return curl_easy_setopt(curl, CURLOPT_CAINFO, file) == CURLE_OK ? 0 : -1;
#ifdef LC_CA_BUNDLED
	/* curl copies the blob (CURL_BLOB_COPY): nothing to keep alive. */
	blob.data = (void *)lc_ca_pem_text;
	blob.len = sizeof lc_ca_pem_text - 1;
	blob.flags = CURL_BLOB_COPY;
	return curl_easy_setopt(curl, CURLOPT_CAINFO_BLOB, &blob) == CURLE_OK ? 0 : -1;
#else
	return 0;
#endif
}
