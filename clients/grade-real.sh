#!/usr/bin/env bash
# Reference grades of real clients (docs/clients.md): installs pinned
# versions of real agents and SDK-based clients (clients/real/package.json,
# and the official SDKs of clients/node), and runs `faultbench grade` on
# each inside a loopback-only network namespace. Opt-in, not in CI: it
# takes minutes of real time, and needs root (unshare -n) and npm.
#
#   bash clients/grade-real.sh            # every client, writes docs/clients.md
#   bash clients/grade-real.sh sdk claude # only those
#
# Each client runs as `unshare -n sh -c 'ip link set lo up; ...'`: the mock
# and the client share the namespace's loopback, and nothing else is
# reachable. Telemetry and update checks are switched off in the
# environment as well.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/faultbench" ./cmd/faultbench
(cd clients/node && npm ci --no-audit --no-fund --loglevel=error)
(cd clients/real && npm install --no-audit --no-fund --loglevel=error --no-package-lock)

# Telemetry, error reporting and update checks off, for every client.
export DISABLE_TELEMETRY=1 DISABLE_ERROR_REPORTING=1 DISABLE_AUTOUPDATER=1 \
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DO_NOT_TRACK=1 \
  OPENCODE_DISABLE_AUTOUPDATE=1 NO_UPDATE_NOTIFIER=1 HOME="$work/home"
mkdir -p "$HOME"

real="$repo/clients/real/node_modules"
version() { node -e "console.log(require('$1/package.json').version)" 2>/dev/null || echo '?'; }

# Gemini CLI (@google/gemini-cli) can be pointed at the mock: its
# packages/core/src/core/contentGenerator.ts takes GOOGLE_GEMINI_BASE_URL
# as the base URL (auth type GATEWAY) and sends the key of GEMINI_API_KEY,
# so `GOOGLE_GEMINI_BASE_URL=<base> GEMINI_API_KEY=t gemini -p hello`
# reaches <base>v1beta/models/{model}:streamGenerateContent. It is not in
# the list below yet: grade's pack speaks the Anthropic and OpenAI wires,
# and the mock's Gemini wire (recovery/gemini is the engine's side) has not
# landed. Its telemetry is off with GEMINI_TELEMETRY_ENABLED=false and
# usage statistics with privacy.usageStatisticsEnabled: false in
# $HOME/.gemini/settings.json.

# name | what and its versions | command
clients=(
  "sdk|official TypeScript SDKs: @anthropic-ai/sdk $(version "$repo/clients/node/node_modules/@anthropic-ai/sdk"), openai $(version "$repo/clients/node/node_modules/openai") (clients/node/client.mjs)|node $repo/clients/node/client.mjs"
  "ai-sdk|AI SDK: ai $(version "$real/ai"), @ai-sdk/anthropic $(version "$real/@ai-sdk/anthropic") (clients/real/ai-sdk.mjs)|node $repo/clients/real/ai-sdk.mjs"
  "langchain|LangChain JS: @langchain/anthropic $(version "$real/@langchain/anthropic"), @langchain/core $(version "$real/@langchain/core") (clients/real/langchain.mjs)|node $repo/clients/real/langchain.mjs"
  "agents|OpenAI Agents SDK: @openai/agents $(version "$real/@openai/agents") (clients/real/agents.mjs; Responses API)|node $repo/clients/real/agents.mjs"
  "claude|Claude Code $(version "$real/@anthropic-ai/claude-code"): claude -p --model primary hello|$real/@anthropic-ai/claude-code/bin/claude.exe -p --model primary hello"
)

out="$work/clients.md"
{
  echo "# Reference grades of real clients"
  echo
  echo "Measured $(date -u +%Y-%m-%d) with \`bash clients/grade-real.sh\` on faultbench $(git rev-parse --short HEAD):"
  echo "each client run unmodified by \`faultbench grade\` over the built-in pack"
  echo "([grade.md](grade.md)), inside a loopback-only network namespace, with its"
  echo "telemetry and update checks off. Times are real; a scenario's process is"
  echo "killed after 120 s. Re-run the script to measure again: the figures"
  echo "move by tens of milliseconds from run to run, and jitter by chance."
  echo
} > "$out"
for c in "${clients[@]}"; do
  IFS='|' read -r name what cmd <<<"$c"
  if [ $# -gt 0 ] && [[ " $* " != *" $name "* ]]; then continue; fi
  echo "== $name: $what" >&2
  {
    echo "## $what"
    echo
    # shellcheck disable=SC2086
    unshare -n sh -c "ip link set lo up; timeout 1200 '$work/faultbench' grade --card-only --format markdown --parallel 6 -- $cmd" ||
      echo "(faultbench grade exited $?)"
    echo
  } >> "$out" 2> >(tee -a "$work/$name.log" >&2)
done
# The cards name the client's command with the checkout's path as <repo>.
sed -e 's/^## Report card: /### Report card: /' -e "s|$repo|<repo>|g" "$out" > docs/clients.md
echo "wrote docs/clients.md" >&2
