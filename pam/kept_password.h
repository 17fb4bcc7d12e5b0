/* kept_password.h: the login password kept for a login by presence (issue 33; docs/pam.md, "The
 * keyring"): `keep_password` hands the password pam_unix accepted to the daemon, a `login` line's success
 * by finger or face gets it back as PAM_AUTHTOK for pam_gnome_keyring, and a password change drops it. */
#ifndef PAM_LOCALAUTHD_KEPT_PASSWORD_H
#define PAM_LOCALAUTHD_KEPT_PASSWORD_H
#include "daemon_link.h"
#include "json_reader.h"
#include "pam_localauthd.h"

/* The keep_password line: hands PAM_AUTHTOK (set by pam_unix before it) for PAM_USER to the daemon, which
 * checks it with its password helper before it keeps it. Always PAM_IGNORE: it never decides a login. */
int keep_password(pam_handle_t *pamh, const struct module_options *options);

/* After `login` evaluation `request_id` succeeded on `link`: asks for the password kept for its user and
 * sets it as PAM_AUTHTOK. Returns 1 when it was set, 0 when none was given (nothing kept, not a listed
 * service, the daemon's refusal); the copies are wiped. */
int release_password(pam_handle_t *pamh, struct daemon_link *link, const char *request_id, int timeout_ms);

/* pam_sm_chauthtok's keep_password: the password changed, so the kept one is dropped. PAM_IGNORE. */
int drop_password(pam_handle_t *pamh, const struct module_options *options);

/* Decodes the JSON string at token `index` into out (size > 1) as raw bytes (escapes decoded, UTF-8 kept);
 * returns its length, or -1 when it is not a string, holds a NUL or does not fit. */
long json_secret(const struct json_document *doc, int index, char *out, size_t size);
#endif
