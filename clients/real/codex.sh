#!/bin/sh
# Codex (@openai/codex) in exec mode: one prompt, no terminal. Its provider
# "faultbench" (config/codex.toml, copied into CODEX_HOME by
# clients/grade-real.sh) speaks the Responses API over HTTP with the key of
# OPENAI_API_KEY; its base URL is the scenario's, which Codex cannot read
# from the environment for a custom provider, so it is given here with -c.
# Codex's own retries are as shipped (request_max_retries and
# stream_max_retries unset).
exec "$(dirname "$0")/node_modules/.bin/codex" exec --skip-git-repo-check --strict-config \
  -c "model_providers.faultbench.base_url=\"$OPENAI_BASE_URL\"" \
  -m "${FAULTBENCH_MODEL:-primary}" hello
