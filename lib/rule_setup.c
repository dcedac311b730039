/*
 * First run. A new installation has no owner; the service then writes a
 * one-time setup code to a file beside the database, readable only by the
 * service's user (never by others, whatever the umask), which the
 * merchant reads over FTP or the host's file manager. Where the service
 * runs as a user the merchant is not (a shared web user), the merchant
 * proves the installation theirs with a file put into the programs'
 * folder instead (lc_setup_proof_new). Setup with either creates the
 * merchant, its first location and the owner, and deletes the code's
 * file; with an owner in place there is
 * no setup any more. Finding a fresh install first is not enough to take
 * it: the code is on the server only.
 *
 * On PostgreSQL, whose database is on no web server's disk (and is shared
 * by several), the code is kept in the database instead (the setting
 * "setup_code", which no API reads out), made and shown by loyalty-admin
 * setup-code on a machine that reaches the database, and emptied by the
 * setup's own write.
 */
#include <sys/stat.h>

#include <ctype.h>
#include <libscrypt.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lc_conf.h"
#include "lc_core.h"

#define CODE_LEN LC_SETUP_CODE_LEN	/* 20 of 31 symbols: 99 bits */
/* Not e-mails: the throttle keys of logins never meet them. The proof
 * file's way has a guard of its own, so that guesses of the code, which
 * may reach the cap of all addresses together, never block it (and a
 * proof not found is no guess: it never fills that guard). */
#define GUARD_KEY "setup:code"
#define GUARD_KEY_PROOF "setup:proof"
#define CODE_SETTING "setup_code"
/* The proof file: loyalty-setup-<24 symbols>.txt, the symbols 120 bits of
 * scrypt of the secret (cheap: 1 MiB, a few ms), so that seeing the file
 * does not give away the secret that goes with it. */
#define PROOF_PREFIX "loyalty-setup-"
#define PROOF_SUFFIX ".txt"
#define PROOF_HASH_LEN 15
#define PROOF_SALT "loyalty-pos setup proof"
/* The database's own part of every proof file's name, drawn once per
 * database: a proof file left from a shop deleted to start over (which
 * the service may not be able to delete) names nothing in the new one. */
#define NONCE_SETTING "setup_proof_nonce"
#define NONCE_LEN 26
static const char b32[] = "abcdefghijklmnopqrstuvwxyz234567";

/* 1 when the code is kept in the database (not in a file beside it). */
static int
code_in_db(const char *db_path)
{
	return lc_db_name_is_pg(db_path);
}

int
lc_setup_file(const char *db_path, char *out, size_t outsz)
{
	return snprintf(out, outsz, "%s.setup-code", db_path) >= (int)outsz ?
	    -1 : 0;
}

/*
 * Reads the code in file into code: 1 read, 0 no file (or one that is not
 * ours, now deleted), -1 error. Only the service's own private file is
 * the code: in a folder others may write (a shared host's data/ of 777),
 * anyone could put a code of theirs in its place, or link one.
 */
static int
code_read(const char *file, char code[CODE_LEN + 1])
{
	char buf[CODE_LEN + 8];
	struct stat st;
	ssize_t n = -1;
	int fd, rc = -1;

	if ((fd = open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) == -1) {
		if (errno == ENOENT)
			return 0;
		if (errno != ELOOP)
			return -1;
		/* A link: no file of ours. */
	} else if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_uid == geteuid() && (st.st_mode & 077) == 0 &&
	    st.st_nlink == 1) {
		n = read(fd, buf, sizeof(buf) - 1);
		rc = n < CODE_LEN ? -1 : 1;
		goto out;
	}
	lc_log("%s is not the service's own private file: a new setup code "
	    "replaces it", file);
	if (unlink(file) == -1 && errno != ENOENT)
		goto out;
	rc = 0;
out:
	if (fd != -1 && close(fd) == -1)
		rc = -1;
	if (rc == 1) {
		memcpy(code, buf, CODE_LEN);
		code[CODE_LEN] = '\0';
	}
	return rc;
}

/* A new code: 0 or -1. */
static int
code_draw(char code[CODE_LEN + 1])
{
	/* No 0/O, 1/I/L: a code read off a screen is typed back right. */
	static const char sym[] = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
	const unsigned n = sizeof(sym) - 1;
	unsigned char rnd[CODE_LEN * 2];
	size_t i, k = sizeof(rnd);
	int got = 0;

	/* Bytes of 248 and above are dropped: 256 is no multiple of 31, and
	 * the first symbols would come up more often than the others. */
	while (got < CODE_LEN) {
		if (k == sizeof(rnd)) {
			if (lc_random(rnd, sizeof(rnd)) == -1)
				return -1;
			k = 0;
		}
		i = rnd[k++];
		if (i < 256 - 256 % n)
			code[got++] = sym[i % n];
	}
	code[CODE_LEN] = '\0';
	return 0;
}

/* Writes a new code into file, unless one is there: made under another
 * name and linked into place, so two processes never see half a code. */
static int
code_make(const char *file)
{
	char code[CODE_LEN + 2], tmp[4200];
	int fd, rc = -1;

	if (code_draw(code) == -1 ||
	    snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", file, (long)getpid()) >=
	    (int)sizeof(tmp))
		return -1;
	code[CODE_LEN] = '\n';
	code[CODE_LEN + 1] = '\0';
	(void)unlink(tmp);
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
	    0600)) == -1)
		return -1;
	if (write(fd, code, CODE_LEN + 1) == CODE_LEN + 1 && fsync(fd) == 0)
		rc = 0;
	if (close(fd) == -1)
		rc = -1;
	if (rc == 0 && link(tmp, file) == -1 && errno != EEXIST)
		rc = -1;
	(void)unlink(tmp);
	return rc;
}

/* The code kept in the database: 1 read, 0 none (or emptied), -1. */
static int
code_get(struct lc_dom *dom, char code[CODE_LEN + 1])
{
	char v[64];
	int rc;

	if ((rc = lc_db_setting_get(dom->db, CODE_SETTING, v, sizeof(v))) != 1)
		return rc;
	if (strlen(v) != CODE_LEN)
		return 0;
	memcpy(code, v, CODE_LEN + 1);
	return 1;
}

/* The proof file's name for secret (checked: the length and symbols a
 * new one has) and the database's nonce into out: 0, or -1. */
static int
proof_name(const char *secret, const char *nonce, char *out, size_t outsz)
{
	uint8_t h[PROOF_HASH_LEN];
	char sym[PROOF_HASH_LEN * 8 / 5 + 1], salt[sizeof(PROOF_SALT) + NONCE_LEN];
	size_t i, bit;

	if (strlen(secret) != LC_PROOF_SECRET_LEN ||
	    strspn(secret, b32) != LC_PROOF_SECRET_LEN ||
	    strlen(nonce) != NONCE_LEN)
		return -1;
	memcpy(salt, PROOF_SALT, sizeof(PROOF_SALT) - 1);
	memcpy(salt + sizeof(PROOF_SALT) - 1, nonce, NONCE_LEN);
	if (libscrypt_scrypt((const uint8_t *)secret, LC_PROOF_SECRET_LEN,
	    (const uint8_t *)salt, sizeof(salt) - 1, 1024, 8, 1, h,
	    sizeof(h)) != 0)
		return -1;
	for (i = 0; i < sizeof(sym) - 1; i++) {
		bit = i * 5;
		sym[i] = b32[((h[bit / 8] << 8 | (bit / 8 + 1 < sizeof(h) ?
		    h[bit / 8 + 1] : 0)) >> (11 - bit % 8)) & 31];
	}
	sym[sizeof(sym) - 1] = '\0';
	return snprintf(out, outsz, PROOF_PREFIX "%s" PROOF_SUFFIX, sym) >=
	    (int)outsz ? -1 : 0;
}

/* symbols of b32, drawn: 0 or -1. */
static int
draw_b32(char *out, size_t n)
{
	unsigned char rnd[32];
	size_t i;

	if (n > sizeof(rnd) || lc_random(rnd, n) == -1)
		return -1;
	for (i = 0; i < n; i++)
		out[i] = b32[rnd[i] & 31];
	out[n] = '\0';
	return 0;
}

/* The database's nonce into arg (NONCE_LEN + 1), made if there is none:
 * in a write, so that two first visits at once agree on it. */
static int
nonce_rule(struct lc_dom *dom, void *arg)
{
	char *nonce = arg;
	int rc;

	if ((rc = lc_db_setting_get(dom->db, NONCE_SETTING, nonce,
	    NONCE_LEN + 1)) == -1)
		return -1;
	if (rc == 1 && strlen(nonce) == NONCE_LEN)
		return 0;
	if (draw_b32(nonce, NONCE_LEN) == -1)
		return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
	return lc_db_setting_set(dom->db, NONCE_SETTING, nonce) == -1 ?
	    lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL) : 0;
}

int
lc_setup_proof_new(struct lc_dom *dom, const char *prog_dir,
    struct lc_setup_proof *p)
{
	struct lc_write w = { NULL, NULL, nonce_rule, NULL, NULL,
	    LC_AUDIT_NONE, NULL, NULL };
	char nonce[NONCE_LEN + 1];

	if (lc_conf_prog_trust(prog_dir) != LC_PROG_PRIVATE)
		return 0;
	w.arg = nonce;
	if (lc_write(dom, &w, NULL) == -1 ||
	    draw_b32(p->secret, LC_PROOF_SECRET_LEN) == -1 ||
	    proof_name(p->secret, nonce, p->file, sizeof(p->file)) == -1)
		return dom->err.code != LC_OK ? -1 :
		    lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
	/* A public token of the nonce: a page that kept an older proof sees
	 * it belongs to another database. */
	memcpy(p->round, nonce, sizeof(p->round) - 1);
	p->round[sizeof(p->round) - 1] = '\0';
	return 1;
}

/*
 * 1 when the proof file of secret is in prog_dir, a plain file of the
 * folder's owner, and the folder private; 0 otherwise. path gets the
 * file's path (for the error and its removal).
 */
static int
proof_present(struct lc_dom *dom, const char *prog_dir, const char *secret,
    char *path, size_t pathsz)
{
	char name[128], nonce[NONCE_LEN + 1];
	struct stat dir, st;
	int dfd, rc = 0;

	path[0] = '\0';
	/* No nonce yet: no proof was ever offered for this database. */
	if (lc_db_setting_get(dom->db, NONCE_SETTING, nonce, sizeof(nonce)) != 1 ||
	    proof_name(secret, nonce, name, sizeof(name)) == -1 ||
	    snprintf(path, pathsz, "%s/%s", prog_dir, name) >= (int)pathsz ||
	    lc_conf_prog_trust(prog_dir) != LC_PROG_PRIVATE)
		return 0;
	/* The folder once opened, and the file in it: no link followed. */
	if ((dfd = open(prog_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		return 0;
	if (fstat(dfd, &dir) == 0 &&
	    fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISREG(st.st_mode) && st.st_uid == dir.st_uid)
		rc = 1;
	(void)close(dfd);
	return rc;
}

/* Why no proof file is offered, for the page: NULL when one is. */
const char *
lc_setup_proof_unavailable(const char *prog_dir)
{
	switch (lc_conf_prog_trust(prog_dir)) {
	case LC_PROG_PRIVATE:
		return NULL;
	case LC_PROG_UNKNOWN:
		return "programs_folder_unknown";
	case LC_PROG_OPEN:
		return "programs_folder_open";
	case LC_PROG_SHARED:
		break;
	}
	return "programs_folder_shared";
}

int
lc_setup_needed(struct lc_dom *dom, const char *db_path, int make_code)
{
	char file[4200], code[CODE_LEN + 1];
	int rc;

	if ((rc = lc_db_owner_exists(dom->db)) == -1)
		return -1;
	if (rc == 1)
		return 0;
	/* Made by loyalty-admin setup-code, which the page names. */
	if (code_in_db(db_path))
		return 1;
	if (lc_setup_file(db_path, file, sizeof(file)) == -1) {
		lc_log("the setup code's path is too long");
		return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
	}
	/* Where every site reads what the service writes, a code of ours
	 * would be theirs too: none, and none left from before. */
	if (!make_code) {
		if (unlink(file) == -1 && errno != ENOENT)
			lc_log("cannot delete %s: %s", file, strerror(errno));
		return 1;
	}
	if (((rc = code_read(file, code)) == 0 && code_make(file) == -1) ||
	    rc == -1) {
		lc_log("cannot write the setup code to %s: %s", file,
		    strerror(errno));
		return lc_dom_fail(dom, LC_E_INTERNAL, NULL,
		    "The setup code cannot be written beside the database: "
		    "the service needs to write in that folder.");
	}
	return 1;
}

/* loyalty-admin setup-code, in its write: the code kept, else a new one
 * (none once the shop has an owner). */
static int
code_keep_rule(struct lc_dom *dom, void *arg)
{
	char *code = arg;
	int rc;

	if ((rc = lc_db_owner_exists(dom->db)) == -1)
		return -1;
	if (rc == 1)
		return lc_dom_fail(dom, LC_E_NOT_FOUND, NULL, "This shop is set "
		    "up already: its owner signs in to the back office.");
	if ((rc = code_get(dom, code)) == -1)
		return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	if (rc == 1)
		return 0;
	if (code_draw(code) == -1)
		return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
	return lc_db_setting_set(dom->db, CODE_SETTING, code) == -1 ?
	    lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL) : 0;
}

int
lc_setup_code(struct lc_dom *dom, const char *db_path,
    char out[LC_SETUP_CODE_LEN + 1])
{
	struct lc_write w = { NULL, NULL, code_keep_rule, NULL, out,
	    LC_AUDIT_NONE, NULL, NULL };
	char file[4200];
	int rc;

	if (code_in_db(db_path))
		return lc_write(dom, &w, NULL);
	if ((rc = lc_setup_needed(dom, db_path, 1)) == -1)
		return -1;
	if (rc == 0)
		return lc_dom_fail(dom, LC_E_NOT_FOUND, NULL, "This shop is set "
		    "up already: its owner signs in to the back office.");
	if (lc_setup_file(db_path, file, sizeof(file)) == -1 ||
	    code_read(file, out) != 1)
		return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
	return 0;
}

struct setup {
	const struct lc_setup *in;
	struct lc_guard g;
	int right;
	int taken;			/* an owner came first */
	int in_db;			/* the code is the database's */
	int by_proof;			/* a proof file, not the code */
	struct lc_setup_result *r;
};

static int
setup_rule(struct lc_dom *dom, void *arg)
{
	struct setup *su = arg;
	const struct lc_setup *in = su->in;
	struct lc_user u;
	int rc;

	/* Checked first, in the write: of two setups at once, one makes
	 * the owner and the other finds one (and the deleted code file
	 * then makes no wrong guess of it). */
	if ((rc = lc_db_owner_exists(dom->db)) == -1)
		return -1;
	/* Only a setup that makes the shop is the shop's to see: a wrong
	 * code or a lost race has no shop to show it to. */
	if (rc == 1 || !su->right)
		lc_audit_skip(dom);
	if (rc == 1) {
		su->taken = 1;
		return lc_db_attempt_settle(dom->db, su->g.attempt, 0, 0) == -1 ?
		    lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL) : 0;
	}
	/* A proof file not (yet) there is no guess: a 130-bit secret is
	 * not guessed, and a merchant whose upload is under way, or went
	 * to the wrong folder, must not lock the setup for everyone. */
	if (!su->right && su->by_proof)
		return lc_db_attempt_settle(dom->db, su->g.attempt, 0, 0) == -1 ?
		    lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL) : 0;
	if (!su->right)
		return lc_guard_settle(dom, &su->g, 1);
	if (lc_guard_settle(dom, &su->g, 0) == -1)
		return -1;
	memset(&u, 0, sizeof(u));
	if (lc_shop_merchant_add(dom, in->merchant_name, su->r->merchant_id) == -1)
		return -1;
	/* The merchant's own fields, named as the setup body names them. */
	if (lc_shop_location_add(dom, su->r->merchant_id, in->location_name,
	    su->r->location_id) == -1) {
		snprintf(dom->err.field, sizeof(dom->err.field), "location_name");
		return -1;
	}
	/* The shop's own settings, chosen with it (checked before). */
	if ((in->currency != NULL && lc_setting_set_shop(dom,
	    su->r->merchant_id, "currency", in->currency) == -1) ||
	    (in->time_zone != NULL && lc_setting_set_shop(dom,
	    su->r->merchant_id, "time_zone", in->time_zone) == -1) ||
	    (in->language != NULL && lc_setting_set_shop(dom,
	    su->r->merchant_id, "language", in->language) == -1))
		return -1;
	memcpy(u.merchant_id, su->r->merchant_id, sizeof(u.merchant_id));
	snprintf(u.email, sizeof(u.email), "%s", in->owner_email);
	snprintf(u.display_name, sizeof(u.display_name), "%s", in->owner_name);
	memcpy(u.password_hash, in->hash, sizeof(u.password_hash));
	u.is_owner = 1;
	if (lc_shop_user_add(dom, &u, su->r->user_id) == -1)
		return -1;
	memcpy(dom->txn_id, su->r->user_id, sizeof(dom->txn_id));
	/* Used once: emptied in the write that used it. */
	if (su->in_db && lc_db_setting_set(dom->db, CODE_SETTING, "") == -1)
		return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	/* Done by the holder of the setup code, who is now the owner. */
	lc_audit_who(dom, "setup", su->r->user_id, su->r->merchant_id);
	lc_audit_object(dom, su->r->merchant_id);
	return 0;
}

/* The programs' folder's own name, for messages. */
static const char *
prog_base(const struct lc_setup *in)
{
	const char *d = in->prog_dir != NULL ? in->prog_dir : "";

	return strrchr(d, '/') != NULL ? strrchr(d, '/') + 1 : d;
}

int
lc_setup(struct lc_dom *dom, const char *db_path, const struct lc_setup *in,
    struct lc_setup_result *r)
{
	struct setup su;
	struct lc_write w = { NULL, NULL, setup_rule, NULL, &su, "setup",
	    "merchant", NULL };
	char file[4200], code[CODE_LEN + 1], proof[4200];
	size_t i, n;
	int rc, diff;

	proof[0] = '\0';
	memset(r, 0, sizeof(*r));
	memset(&su, 0, sizeof(su));
	su.in = in;
	su.r = r;
	su.in_db = code_in_db(db_path);
	if ((rc = lc_db_owner_exists(dom->db)) == -1)
		return -1;
	if (rc == 1 || lc_setup_file(db_path, file, sizeof(file)) == -1)
		return lc_dom_fail(dom, LC_E_NOT_FOUND, NULL, NULL);
	su.by_proof = in->proof != NULL && *in->proof != '\0';
	/* No guess either: there is no code to guess (lc_setup_needed). */
	if (!su.by_proof && !in->code_ok)
		return lc_dom_fail(dom, LC_E_FORBIDDEN, "setup_code",
		    "On this host every website runs as the same user and "
		    "could read the setup code's file, so there is none: show "
		    "that the installation is yours with the proof file the "
		    "setup page offers instead.");
	if (lc_guard_reserve(dom, su.by_proof ? GUARD_KEY_PROOF : GUARD_KEY,
	    LC_GUARD_SECRET, &su.g) == -1) {
		if (su.g.capped)
			return lc_dom_fail(dom, LC_E_RATE_LIMITED, NULL,
			    "Too many wrong setup codes have been tried lately, "
			    "from many addresses: the code is refused from "
			    "everywhere for now. Setting up with the proof file "
			    "(GET /api/v1/setup offers one where the programs' "
			    "folder is yours) still works.");
		return -1;
	}
	if (su.by_proof) {
		su.right = proof_present(dom, in->prog_dir, in->proof, proof,
		    sizeof(proof));
	} else if ((rc = su.in_db ? code_get(dom, code) :
	    code_read(file, code)) == -1) {
		lc_log("cannot read the setup code in %s", su.in_db ?
		    "the database" : file);
		lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
		lc_guard_abandon(dom, &su.g, 0);
		return -1;
	} else {
		/* Compared in constant time; letter case forgiven. */
		n = strlen(in->code);
		diff = rc == 0;
		for (i = 0; i < CODE_LEN; i++)
			diff |= (i < n ? toupper((unsigned char)in->code[i]) :
			    0) ^ (rc == 1 ? code[i] : 1);
		su.right = !diff && n == CODE_LEN;
	}
	if (lc_write(dom, &w, NULL) == -1) {
		lc_guard_abandon(dom, &su.g, !su.right);
		return -1;
	}
	if (su.taken)
		return lc_dom_fail(dom, LC_E_NOT_FOUND, NULL, NULL);
	if (!su.right && su.by_proof)
		return lc_dom_fail(dom, LC_E_FORBIDDEN, "setup_proof",
		    "There is no file %s in the programs' folder (%s/) yet, or "
		    "it is not your account's: upload it there, then press "
		    "Create my shop again.", strrchr(proof, '/') != NULL ?
		    strrchr(proof, '/') + 1 : "for this proof", prog_base(in));
	if (!su.right && su.in_db)
		return lc_dom_fail(dom, LC_E_FORBIDDEN, "setup_code",
		    "The setup code is wrong. loyalty-admin setup-code shows "
		    "it.");
	if (!su.right)
		return lc_dom_fail(dom, LC_E_FORBIDDEN, "setup_code",
		    "The setup code is wrong. It is in the file %s beside the "
		    "database.", strrchr(file, '/') ? strrchr(file, '/') + 1 :
		    file);
	if (!su.in_db && unlink(file) == -1 && errno != ENOENT)
		lc_log("setup done, but %s stays: %s", file, strerror(errno));
	/* Used up; where the folder is not this user's to write (a shared
	 * web user), the owner deletes it (the back office says so). */
	if (proof[0] != '\0' && su.right)
		(void)unlink(proof);
	return 0;
}
