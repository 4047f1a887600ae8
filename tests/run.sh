#!/usr/bin/env bash
# Runs nightkeep's whole test suite on a fresh Debian or Ubuntu machine: installs what the tests need from
# the distribution's packages where it is missing, checks it is all there before the first test, then
# makes .venv (when missing), installs nightkeep with its test extras and runs pytest with any arguments
# given (e.g. `bash tests/run.sh -m "not slow"`).
#
# What it installs, only when missing: dovecot-core and dovecot-imapd (the mail tests' IMAP server),
# postgresql (the store tests' second store), chromium (the web viewer's tests), libcairo2 and
# fonts-dejavu-core (board pictures), sqlite3 (the club guide's backup commands), and Citus, built from
# the vendored source named by NIGHTKEEP_CITUS_SOURCE (default ../shared/vendor/citus, beside the clone)
# into the distribution's PostgreSQL 15 (the store tests' third store).
#
# Needs root, or sudo, to install packages; the mail tests also need root, since Dovecot starts as root
# and drops to its own user. Idempotent: a second run installs nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"
    elif command -v sudo >/dev/null; then sudo "$@"
    else echo "tests/run.sh: installing $* needs root (run it as root or install sudo)" >&2; exit 2
    fi
}

missing=()
{ command -v dovecot >/dev/null || [ -x /usr/sbin/dovecot ]; } || missing+=(dovecot-core dovecot-imapd)
ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || missing+=(postgresql)
command -v chromium >/dev/null || missing+=(chromium)
ldconfig -p | grep -q libcairo.so.2 || missing+=(libcairo2)
[ -d /usr/share/fonts/truetype/dejavu ] || missing+=(fonts-dejavu-core)
command -v sqlite3 >/dev/null || missing+=(sqlite3)
if [ ${#missing[@]} -gt 0 ]; then
    echo "tests/run.sh: installing ${missing[*]}" >&2
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if [ ! -f /usr/lib/postgresql/15/lib/citus.so ]; then
    citus=${NIGHTKEEP_CITUS_SOURCE:-../shared/vendor/citus}
    if [ ! -f "$citus/build.sh" ]; then
        echo "tests/run.sh: Citus is not installed and $citus/build.sh is missing: set NIGHTKEEP_CITUS_SOURCE to the folder of the Citus 13.2 source and its build.sh, or install the citusdata package for PostgreSQL 15" >&2
        exit 2
    fi
    echo "tests/run.sh: building Citus from $citus (a few minutes)" >&2
    as_root bash "$citus/build.sh"
fi

# The Dovecot package may start the system's own server; the tests start theirs on free ports.
if [ -d /run/systemd/system ] && systemctl is-active --quiet dovecot.service dovecot.socket; then
    as_root systemctl stop dovecot.socket dovecot.service || true
fi
if [ -s /run/dovecot/master.pid ] && kill -0 "$(cat /run/dovecot/master.pid)" 2>/dev/null; then
    as_root kill "$(cat /run/dovecot/master.pid)" || true
fi

# Everything the tests need, checked before the first test rather than found missing at the end.
for tool in dovecot chromium sqlite3; do
    command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] || {
        echo "tests/run.sh: $tool is still missing after the install" >&2
        exit 2
    }
done

[ -d .venv ] || python3 -m venv .venv
# shellcheck disable=SC1091
. .venv/bin/activate
pip install -q '.[test]'
exec python -m pytest "$@"
