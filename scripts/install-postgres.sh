#!/usr/bin/env bash
# Install Debian's PostgreSQL server for the web server's multi-process tests when it is missing.
# The tests start their own throw-away cluster in a temporary folder (tests/web/postgres.py);
# nothing here creates or starts a database.
set -euo pipefail

for candidate in /usr/lib/postgresql/*/bin/initdb /usr/local/bin/initdb; do
    if [ -x "$candidate" ]; then
        echo "postgresql already installed: $("$candidate" --version)"
        exit 0
    fi
done

if [ "$(id -u)" -eq 0 ]; then
    SUDO=()
elif command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo -n)
else
    echo "install-postgres: PostgreSQL is missing and this user cannot run apt-get" >&2
    echo "install-postgres: run 'apt-get install postgresql' as root, then retry" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -q
"${SUDO[@]}" apt-get install -y -q --no-install-recommends postgresql
ls /usr/lib/postgresql/*/bin/initdb
