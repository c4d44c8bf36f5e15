#!/usr/bin/env bash
# Installs the Debian packages scorekeeper needs beyond Python, and nothing when
# they are present already.
#   scripts/system-packages.sh run    WeasyPrint's text stack and fonts (the PDF export)
#   scripts/system-packages.sh test   the same, plus poppler (tests read PDFs back), chromium (browser tests)
#                                     and zbar (a browser test reads the share link's QR code back)
set -euo pipefail
packages=(libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core)
[ "${1:-test}" = "test" ] && packages+=(poppler-utils chromium zbar-tools)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null; then
  echo "Please install these Debian packages or their equivalents: ${missing[*]}" >&2
  exit 1
fi
echo "Installing Debian packages: ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
