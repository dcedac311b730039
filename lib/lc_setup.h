/*
 * The first run (rule_setup.c): the shop, its first location and its
 * owner, made by whoever shows the installation is theirs.
 */
#ifndef LC_SETUP_H
#define LC_SETUP_H

#include <stddef.h>

#include "lc_dom.h"

struct lc_setup {
	const char *code, *merchant_name, *location_name, *owner_name;
	const char *owner_email;
	/* The new shop's own settings, checked already; NULL: not given. */
	const char *currency, *time_zone, *language;
	const char *proof;		/* instead of the code: a proof's secret */
	const char *prog_dir;		/* where its file is to be */
	int code_ok;			/* the code may serve (lc_setup_needed
					 * made one) */
	char hash[LC_HASH_MAX + 1];	/* of the owner's password */
};
struct lc_setup_result {
	char merchant_id[LC_ID_LEN + 1];
	char location_id[LC_ID_LEN + 1];
	char user_id[LC_ID_LEN + 1];
};
/* The file of the setup code beside the database. 0 or -1. */
int lc_setup_file(const char *db_path, char *out, size_t outsz);
/* 1 when there is no owner yet, 0 when there is one, -1 with dom->err.
 * On SQLite, with make_code the code's file then exists; without (a host
 * where every site could read it) there is none, an old one deleted. */
int lc_setup_needed(struct lc_dom *, const char *db_path, int make_code);
/* loyalty-admin setup-code: the code, made when there is none yet (in
 * the database on PostgreSQL, in the file on SQLite); NOT_FOUND once an
 * owner exists. 0, or -1 with dom->err. */
#define LC_SETUP_CODE_LEN 20
int lc_setup_code(struct lc_dom *, const char *db_path,
    char out[LC_SETUP_CODE_LEN + 1]);
/*
 * The other way to show the installation is one's own, where the code's
 * file cannot be read over FTP (a shared web user writes it): a file
 * named after a secret, put into the programs' folder, which only the
 * account that owns them may write (lc_conf_prog_trust).
 */
#define LC_PROOF_SECRET_LEN 26
struct lc_setup_proof {
	char secret[LC_PROOF_SECRET_LEN + 1];
	char file[64];			/* loyalty-setup-....txt */
	char round[9];			/* names the database it is for */
};
/* 1 with a new proof in p, 0 when the folder is not private, -1 with
 * dom->err. The name rests on the database too (a nonce it keeps). */
int lc_setup_proof_new(struct lc_dom *, const char *prog_dir,
    struct lc_setup_proof *p);
/* Why no proof file can be offered, as a word for the page
 * ("programs_folder_unknown", "_open", "_shared"), or NULL when it can. */
const char *lc_setup_proof_unavailable(const char *prog_dir);
/* Guarded like a login; NOT_FOUND once an owner exists. in->proof set:
 * its file must be in in->prog_dir, else FORBIDDEN on setup_proof. */
int lc_setup(struct lc_dom *, const char *db_path, const struct lc_setup *,
    struct lc_setup_result *);

#endif /* LC_SETUP_H */
