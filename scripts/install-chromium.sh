#!/usr/bin/env bash
# Install Debian's chromium for the real-browser tests when /usr/bin/chromium is missing (with the
# DejaVu and Noto fonts (Noto CJK for Japanese and Chinese) bench/phone_screenshots.py draws docs/img's phone pictures in).
# Playwright drives this system browser; it never downloads a browser of its own.
set -euo pipefail

# Noto CJK: Japanese and Simplified Chinese pages (issue 39) in the browser tests and screenshots.
PACKAGES=(chromium fonts-dejavu-core fonts-noto-core fonts-noto-cjk)
missing=()
for package in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ -x /usr/bin/chromium ] && [ ${#missing[@]} -eq 0 ]; then
    echo "chromium already installed: $(/usr/bin/chromium --version 2>/dev/null || echo /usr/bin/chromium)"
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    SUDO=()
elif command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo -n)
else
    echo "install-chromium: /usr/bin/chromium is missing and this user cannot run apt-get" >&2
    echo "install-chromium: run 'apt-get install chromium' as root, then retry" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -q
"${SUDO[@]}" apt-get install -y -q --no-install-recommends "${PACKAGES[@]}"
/usr/bin/chromium --version
