#!/usr/bin/env bash
# Reference grades of real clients (docs/clients.md): installs pinned
# versions of real agents and SDK-based clients (clients/real/package.json
# and its lock file, and the official SDKs of clients/node), and runs
# `faultbench grade` on each inside a loopback-only network namespace.
# Opt-in, not in CI: it takes tens of minutes of real time, and needs root
# (unshare -n) and npm.
#
#   bash clients/grade-real.sh              # every client, rewrites docs/clients.md
#   bash clients/grade-real.sh codex gemini # only those: their sections are
#                                           # replaced, the others kept
#
# npm installs outside the namespace (it needs the package registry). Each
# client then runs only as `unshare -n sh -c 'ip link set lo up; ...'`: the
# mock and the client share the namespace's loopback, and nothing else is
# reachable. Telemetry, error reporting, update checks and sign-in are
# switched off as well, in the environment and in each agent's own config
# (clients/real/config/), so that no agent waits on a network it cannot
# reach. The agents run in an empty folder with an empty HOME, so that
# they read no project or user settings but these.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/faultbench" ./cmd/faultbench
(cd clients/node && npm ci --no-audit --no-fund --loglevel=error)
# npm ci would refuse this lock file: it holds only the native packages of
# the platform it was made on (opencode-ai's optional dependencies), so
# npm install --no-save installs from it without rewriting it.
(cd clients/real && npm install --no-save --no-audit --no-fund --loglevel=error)

export HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" XDG_DATA_HOME="$work/home/.local/share" \
  XDG_CACHE_HOME="$work/home/.cache" XDG_STATE_HOME="$work/home/.local/state"
mkdir -p "$HOME/.codex" "$XDG_CONFIG_HOME/opencode" "$HOME/.gemini" "$work/cwd"
cp clients/real/config/codex.toml "$HOME/.codex/config.toml"
cp clients/real/config/opencode.json "$XDG_CONFIG_HOME/opencode/opencode.json"
cp clients/real/config/gemini.json "$HOME/.gemini/settings.json"
# Telemetry, error reporting and update checks off, for every client:
# Claude Code (DISABLE_*, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC),
# opencode (OPENCODE_DISABLE_*: no update, no models.dev catalogue, no
# share, no language-server download, no default plugins fetched from the
# registry), Gemini CLI (GEMINI_TELEMETRY_ENABLED; the empty folder is
# trusted so that it asks nothing).
export DISABLE_TELEMETRY=1 DISABLE_ERROR_REPORTING=1 DISABLE_AUTOUPDATER=1 \
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DO_NOT_TRACK=1 NO_UPDATE_NOTIFIER=1 \
  OPENCODE_DISABLE_AUTOUPDATE=1 OPENCODE_DISABLE_MODELS_FETCH=1 OPENCODE_DISABLE_SHARE=1 \
  OPENCODE_DISABLE_LSP_DOWNLOAD=1 OPENCODE_DISABLE_DEFAULT_PLUGINS=1 \
  GEMINI_TELEMETRY_ENABLED=false GEMINI_CLI_TRUST_WORKSPACE=true

real="$repo/clients/real/node_modules"
version() { node -e "console.log(require('$1/package.json').version)" 2>/dev/null || echo '?'; }

# Gemini CLI reads GOOGLE_GEMINI_BASE_URL and GEMINI_API_KEY, which grade
# sets, under the auth type gemini-api-key (clients/real/config/gemini.json;
# without it, a base URL selects the "gateway" type, which -p refuses as
# "Invalid auth method selected"). It speaks the Gemini API whatever the
# scenario's wire: the mock answers each request in the wire it came in.

# name|what and its versions|command. grade/clients_doc_test.go reads the
# names: every one must have its section in docs/clients.md.
clients=(
  "sdk|official TypeScript SDKs: @anthropic-ai/sdk $(version "$repo/clients/node/node_modules/@anthropic-ai/sdk"), openai $(version "$repo/clients/node/node_modules/openai") (clients/node/client.mjs)|node $repo/clients/node/client.mjs"
  "ai-sdk|AI SDK: ai $(version "$real/ai"), @ai-sdk/anthropic $(version "$real/@ai-sdk/anthropic") (clients/real/ai-sdk.mjs)|node $repo/clients/real/ai-sdk.mjs"
  "langchain|LangChain JS: @langchain/anthropic $(version "$real/@langchain/anthropic"), @langchain/core $(version "$real/@langchain/core") (clients/real/langchain.mjs)|node $repo/clients/real/langchain.mjs"
  "agents|OpenAI Agents SDK: @openai/agents $(version "$real/@openai/agents") (clients/real/agents.mjs; Responses API)|node $repo/clients/real/agents.mjs"
  "claude|Claude Code $(version "$real/@anthropic-ai/claude-code"): claude -p --model primary hello|$real/@anthropic-ai/claude-code/bin/claude.exe -p --model primary hello"
  "codex|Codex $(version "$real/@openai/codex"): codex exec -m primary hello (clients/real/codex.sh; Responses API)|$repo/clients/real/codex.sh"
  "opencode|opencode $(version "$real/opencode-ai"): opencode run --pure --title hello hello (Anthropic Messages)|$real/.bin/opencode run --pure --title hello hello"
  "gemini|Gemini CLI $(version "$real/@google/gemini-cli"): gemini -m primary -p hello (clients/real/gemini.sh; Gemini API)|$repo/clients/real/gemini.sh"
)

commit=$(git rev-parse --short HEAD)
git diff --quiet HEAD -- . ':!docs/clients.md' || commit="$commit with local changes"
started=$SECONDS
mkdir -p "$work/sections"
for c in "${clients[@]}"; do
  IFS='|' read -r name what cmd <<<"$c"
  if [ $# -gt 0 ] && [[ " $* " != *" $name "* ]]; then continue; fi
  echo "== $name: $what" >&2
  t0=$SECONDS
  card="$work/$name.card"
  # shellcheck disable=SC2086
  unshare -n sh -c "ip link set lo up; cd '$work/cwd'; timeout 1800 '$work/faultbench' grade --card-only --format markdown --parallel 2 -- $cmd" \
    >"$card" 2> >(tee "$work/$name.log" >&2) || echo "(faultbench grade exited $?)" >>"$card"
  took=$((SECONDS - t0))
  {
    echo "## $name: $what"
    echo
    echo "Measured $(date -u +%Y-%m-%d) on faultbench $commit in $((took / 60)) min $((took % 60)) s of real time."
    echo
    sed -e 's/^## Report card: /### Report card: /' -e "s|$repo|<repo>|g" "$card"
    echo
  } >"$work/sections/$name.md"
done

# A client not graded this time keeps its section of docs/clients.md.
keep() {
  awk -v head="## $1: " 'index($0, head) == 1 { on = 1 } on && /^## / && index($0, head) != 1 { on = 0 } on' docs/clients.md
}
{
  echo "# Reference grades of real clients"
  echo
  echo "Written by \`bash clients/grade-real.sh\`: each client run unmodified by"
  echo "\`faultbench grade\` over the built-in pack ([grade.md](grade.md)), one"
  echo "non-interactive prompt per scenario, inside a loopback-only network"
  echo "namespace, with its telemetry, update checks and sign-in off. Times are"
  echo "real; a scenario's process is killed after 120 s. Re-run the script to"
  echo "measure again: the figures move by tens of milliseconds from run to run,"
  echo "and jitter by chance. Each section says the date, the faultbench commit"
  echo "and the real time its client was measured in."
  echo
  for c in "${clients[@]}"; do
    name=${c%%|*}
    if [ -f "$work/sections/$name.md" ]; then cat "$work/sections/$name.md"; else keep "$name"; fi
  done
} | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' >"$work/clients.md"
mv "$work/clients.md" docs/clients.md
echo "wrote docs/clients.md in $(((SECONDS - started) / 60)) min $(((SECONDS - started) % 60)) s" >&2
