#!/bin/sh
# pam_exec's expose_authtok hands PAM_AUTHTOK on stdin: says whether one came and its SHA-256 (never
# the password itself), for the keyring rows (Tests/pam/keyring_rows.py).
token=$(tr -d '\000')
if [ -n "$token" ]; then
    printf 'authtok: set sha256=%s\n' "$(printf '%s' "$token" | sha256sum | cut -c1-64)"
else
    echo "authtok: none"
fi
