#!/usr/bin/env bash
# Everything the project's tests need, installed where it is missing; then nothing
# else. The README's test command is
#
#     bash tests/setup.sh && .venv/bin/python -m pytest
#
# and .ci/run runs that line verbatim. What this script may install, one line
# printed for each thing it does install:
#
#   .venv/            a venv with the project in editable mode and its [test] extra
#                     (again only when pyproject.toml, setup.py or the solver's C
#                     core changed since the last install)
#   chromium-headless-shell
#                     Debian's Chromium built for headless use alone, for the site's
#                     browser tests (Playwright drives /usr/bin/chromium-headless-shell;
#                     no browser is ever downloaded)
#   nodejs            Debian's, for the JavaScript adapter
#   guile-3.0         Debian's, which runs GNOME Aisleriot's compiled games
#   the real programs Aisleriot and soliterm, by adapters/install-real.sh
#
# Debian's packages need root (as on CI): without it, or without a registry, the
# script stops before any test with one message naming what to install and how.
# A second run finds everything in place, installs nothing and prints one line.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { echo "setup: $*"; }
stop() { echo "setup: $*" >&2; exit 1; }
installed_something=no

# --- Python 3.11 or newer --------------------------------------------------------
PYTHON=${PYTHON:-python3}
command -v "$PYTHON" >/dev/null 2>&1 || stop "no $PYTHON on PATH; install Python 3.11 or newer"
"$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
    || stop "$("$PYTHON" -V 2>&1) is too old; the project needs Python 3.11 or newer"

# --- Debian's packages -----------------------------------------------------------
CHROMIUM=${SCORPION_CHROMIUM:-/usr/bin/chromium-headless-shell}
need=()
[ -x "$CHROMIUM" ] || need+=(chromium-headless-shell)
command -v node >/dev/null 2>&1 || need+=(nodejs)
command -v guile-3.0 >/dev/null 2>&1 || need+=(guile-3.0)
if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
        stop "the tests need ${need[*]}, which this script installs only as root on Debian;" \
             "install them with: sudo apt-get install -y ${need[*]}" \
             "(or run this script as root), then run it again"
    fi
    say "installing ${need[*]} (Debian, apt-get)"
    apt-get update -qq >/dev/null \
        || stop "apt-get update failed: Debian's package registry is not reachable; install ${need[*]} by hand"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null \
        || stop "apt-get install ${need[*]} failed; install them by hand"
    for package in "${need[@]}"; do say "installed $package"; done
    installed_something=yes
fi

# --- The real programs the suite judges ------------------------------------------
# install-real.sh is idempotent and says on stderr what it fetches.
real_log=$(mktemp)
trap 'rm -f "$real_log"' EXIT
if ! bash adapters/install-real.sh >/dev/null 2>"$real_log"; then
    cat "$real_log" >&2
    stop "adapters/install-real.sh could not install the real programs (Aisleriot, soliterm); see above"
fi
if grep -q "^install-real: \(fetching\|installing\)" "$real_log"; then
    sed -n 's/^install-real: \(fetching\|installing\) /setup: installed /p' "$real_log"
    installed_something=yes
fi

# --- The project's venv ----------------------------------------------------------
# The stamp is the content of what decides the install: a change to the
# dependencies or to the compiled core installs again.
stamp_of() { cat pyproject.toml setup.py scorpion_ref/solver/_core.c | "$PYTHON" -c \
    'import hashlib, sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())'; }
STAMP=.venv/.scorpion-test-install
want=$(stamp_of)
if [ ! -x .venv/bin/python ] || [ "$(cat "$STAMP" 2>/dev/null)" != "$want" ]; then
    [ -x .venv/bin/python ] || "$PYTHON" -m venv .venv || stop "$PYTHON -m venv .venv failed"
    say "installing the project and its [test] extra into .venv (pip install -e '.[test]')"
    pip_log=$(mktemp)
    if ! .venv/bin/pip install -q --disable-pip-version-check -e '.[test]' >"$pip_log" 2>&1; then
        grep -v '^WARNING: Location' "$pip_log" >&2 || true
        rm -f "$pip_log"
        stop "pip could not install the project into .venv; see above (is PyPI reachable?)"
    fi
    rm -f "$pip_log"
    echo "$want" > "$STAMP"
    installed_something=yes
fi

[ "$installed_something" = yes ] || say "everything the tests need is in place"
