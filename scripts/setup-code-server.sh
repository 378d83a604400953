#!/usr/bin/env bash
# Installs code-server 4.100.3 (VS Code 1.100.3 as a server, from the npm registry) for the
# end-to-end tests, idempotently, into a cache folder outside node_modules, with the workarounds
# an offline machine (npm registry only) needs:
#   - kerberos builds from source: needs libkrb5-dev;
#   - @vscode/ripgrep downloads rg from GitHub: we hand it Debian's rg in its download cache;
#   - node-pty runs `npx node-gyp`: needs npm_config_yes=true; as root, --unsafe-perm.
# Prints the code-server executable's path on its last line.
set -euo pipefail

VERSION=4.100.3
CACHE="${TFJS_CALLBACKS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tfjs-callback-debugger}"
PREFIX="$CACHE/code-server-$VERSION"
BIN="$PREFIX/node_modules/.bin/code-server"

if [ -x "$BIN" ] && [ -e "$PREFIX/.complete" ]; then
  echo "$BIN"
  exit 0
fi

need_apt=()
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
command -v rg >/dev/null 2>&1 || need_apt+=(ripgrep)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >&2
  else
    echo "setup-code-server: install these Debian packages first (as root): apt-get install -y ${need_apt[*]}" >&2
    exit 1
  fi
fi

mkdir -p "$PREFIX"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# @vscode/ripgrep's postinstall looks for its asset in $TMPDIR/vscode-ripgrep-cache-<version>/.
(cd "$work" && npm pack --silent "code-server@$VERSION" >/dev/null)
tar -xzf "$work"/code-server-*.tgz -C "$work" package/lib/vscode/npm-shrinkwrap.json
rg_pkg_version="$(node -e "const s=require('$work/package/lib/vscode/npm-shrinkwrap.json'); const p=s.packages||{}; const e=p['node_modules/@vscode/ripgrep']||(s.dependencies||{})['@vscode/ripgrep']; console.log(e.version)")"
(cd "$work" && npm pack --silent "@vscode/ripgrep@$rg_pkg_version" >/dev/null)
mkdir -p "$work/rgpkg" && tar -xzf "$work"/vscode-ripgrep-*.tgz -C "$work/rgpkg"
rg_version="$(node -e "const t=require('fs').readFileSync('$work/rgpkg/package/lib/postinstall.js','utf8'); console.log(/const VERSION = '([^']+)'/.exec(t)[1])")"
tmp="${TMPDIR:-/tmp}"
asset_dir="$tmp/vscode-ripgrep-cache-$rg_pkg_version"
asset="$asset_dir/ripgrep-$rg_version-x86_64-unknown-linux-musl.tar.gz"
if [ ! -f "$asset" ]; then
  mkdir -p "$asset_dir" "$work/rgbin"
  cp "$(command -v rg)" "$work/rgbin/rg"
  tar -czf "$asset" -C "$work/rgbin" rg
fi

echo "setup-code-server: installing code-server $VERSION into $PREFIX (about a minute)" >&2
# npm 11 runs dependency install scripts only when approved (allowScripts). code-server's own
# postinstall installs VS Code's dependencies in lib/vscode, whose native modules need theirs:
# install with scripts held back, approve them where they are, then run the postinstall.
export npm_config_yes=true npm_config_unsafe_perm=true
[ -f "$PREFIX/package.json" ] || echo '{ "private": true, "allowScripts": { "argon2": true, "code-server": true } }' > "$PREFIX/package.json"
(cd "$PREFIX" && npm install --no-audit --no-fund "code-server@$VERSION" >&2)
CS="$PREFIX/node_modules/code-server"
export npm_config_user_agent="npm/$(npm --version) node/$(node --version) linux x64 workspaces/false"
for dir in "$CS/lib/vscode" "$CS/lib/vscode/extensions"; do
  (cd "$dir" && npm install --omit=dev --no-audit --no-fund >&2 && npm install-scripts approve --all >&2)
done
(cd "$CS" && sh ./postinstall.sh >&2)
HOME="$work" "$BIN" --version >&2
touch "$PREFIX/.complete"
echo "$BIN"
