#!/bin/sh
# Gemini CLI (@google/gemini-cli), non-interactive (-p): one prompt. It
# sends the Gemini API to GOOGLE_GEMINI_BASE_URL with the key of
# GEMINI_API_KEY (packages/core/src/core/contentGenerator.ts), under the
# auth type that config/gemini.json selects (gemini-api-key). Where grade's
# environment has no Gemini variables, the scenario's base URL and dummy
# key are taken from FAULTBENCH_BASE_URL and ANTHROPIC_API_KEY.
base=${GOOGLE_GEMINI_BASE_URL:-${FAULTBENCH_BASE_URL%/}}
GOOGLE_GEMINI_BASE_URL=$base GEMINI_API_KEY=${GEMINI_API_KEY:-$ANTHROPIC_API_KEY} \
  exec "$(dirname "$0")/node_modules/.bin/gemini" -m "${FAULTBENCH_MODEL:-primary}" -p hello
