#!/usr/bin/env bash
# Fetch the two real Scorpion programs that the suite judges, versions pinned,
# into a cache folder (default: .real-programs/ in the repository; set
# SCORPION_REAL_PROGRAMS to use another). Idempotent: a second run finds
# everything in place and changes nothing.
#
#   GNOME Aisleriot 3.22.23, Debian package `aisleriot`: downloaded with
#     `apt-get download` and unpacked with `dpkg -x` (the desktop it depends on
#     is not installed); Guile 3.0 (`guile-3.0`) is installed with apt-get,
#     since it runs the game's compiled .go files.
#   soliterm 1.2.0 from PyPI: installed into its own venv inside the cache
#     folder, never into the project's venv.
#
# Needs root for apt-get (as on CI and the developers' machines). Runs
# `apt-get update` once, only when a package is not found without it.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${SCORPION_REAL_PROGRAMS:-$ROOT/.real-programs}
AISLERIOT_VERSION=1:3.22.23-1
SOLITERM_VERSION=1.2.0

mkdir -p "$CACHE"
CACHE=$(cd "$CACHE" && pwd)
updated=no

apt_update_once() {
    if [ "$updated" = no ]; then
        echo "install-real: running apt-get update" >&2
        apt-get update -qq
        updated=yes
    fi
}

# --- Guile 3.0 (the adapter runs guile-3.0, whatever `guile` points to) ---
if ! command -v guile-3.0 >/dev/null 2>&1; then
    echo "install-real: installing guile-3.0" >&2
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq guile-3.0 >&2; then
        apt_update_once
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq guile-3.0 >&2
    fi
fi
GUILE_VERSION=$(guile-3.0 -c '(display (version))')
case "$GUILE_VERSION" in
    3.0.*) ;;
    *) echo "install-real: guile-3.0 is version $GUILE_VERSION; Aisleriot's .go files need 3.0" >&2; exit 1 ;;
esac

# --- Aisleriot --------------------------------------------------------------
AR_DIR=$CACHE/aisleriot
AR_STAMP=$AR_DIR/installed-$AISLERIOT_VERSION
if [ ! -f "$AR_STAMP" ]; then
    echo "install-real: fetching aisleriot $AISLERIOT_VERSION" >&2
    rm -rf "$AR_DIR"
    mkdir -p "$AR_DIR/root"
    # apt-get download writes into the working directory; its sandbox user
    # cannot write there, which apt notes and then works around as root.
    if ! (cd "$AR_DIR" && apt-get download -qq "aisleriot=$AISLERIOT_VERSION" >&2 2>/dev/null); then
        apt_update_once
        (cd "$AR_DIR" && apt-get download -qq "aisleriot=$AISLERIOT_VERSION" >&2)
    fi
    deb=$(ls "$AR_DIR"/aisleriot_*.deb)
    dpkg -x "$deb" "$AR_DIR/root"
    if [ -z "$(find "$AR_DIR/root" -name scorpion.go -path '*guile/3.0*' -print -quit)" ]; then
        echo "install-real: $deb has no guile/3.0/scorpion.go" >&2
        exit 1
    fi
    touch "$AR_STAMP"
fi
AR_GUILE=$(dirname "$(find "$AR_DIR/root" -name scorpion.go -path '*guile/3.0*' -print -quit)")

# --- soliterm ---------------------------------------------------------------
ST_DIR=$CACHE/soliterm
ST_STAMP=$ST_DIR/installed-$SOLITERM_VERSION
if [ ! -f "$ST_STAMP" ]; then
    echo "install-real: installing soliterm $SOLITERM_VERSION" >&2
    rm -rf "$ST_DIR"
    python3 -m venv "$ST_DIR/venv"
    "$ST_DIR/venv/bin/pip" install -q --disable-pip-version-check "soliterm==$SOLITERM_VERSION" >&2
    touch "$ST_STAMP"
fi
ST_PKG=$("$ST_DIR/venv/bin/python" -c 'import os, soliterm; print(os.path.dirname(soliterm.__file__))')

echo "cache:      $CACHE"
echo "guile:      $(command -v guile-3.0) ($GUILE_VERSION)"
echo "aisleriot:  $AR_GUILE (scorpion.go, aisleriot/api.go)"
echo "soliterm:   $ST_PKG (python: $ST_DIR/venv/bin/python)"
echo "adapters:   python3 adapters/aisleriot/adapter.py   python3 adapters/soliterm/adapter.py"
