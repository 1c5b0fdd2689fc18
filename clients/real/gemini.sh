#!/bin/sh
# Gemini CLI (@google/gemini-cli), non-interactive (-p): one prompt. It
# sends the Gemini API to GOOGLE_GEMINI_BASE_URL with the key of
# GEMINI_API_KEY (packages/core/src/core/contentGenerator.ts), under the
# auth type that config/gemini.json selects (gemini-api-key: with a base
# URL and no type selected it takes the "gateway" type, which -p refuses
# as "Invalid auth method selected"). faultbench grade sets both
# variables; a grade older than that gives only FAULTBENCH_BASE_URL and
# ANTHROPIC_API_KEY, which stand in.
base=${GOOGLE_GEMINI_BASE_URL:-${FAULTBENCH_BASE_URL%/}}
GOOGLE_GEMINI_BASE_URL=$base GEMINI_API_KEY=${GEMINI_API_KEY:-$ANTHROPIC_API_KEY} \
  exec "$(dirname "$0")/node_modules/.bin/gemini" -m "${FAULTBENCH_MODEL:-primary}" -p hello
