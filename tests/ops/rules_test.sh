#!/usr/bin/env bash
# The Prometheus rules parse, and their unit tests (alerts that must fire and must not) pass.
set -eu
promtool=${PROMTOOL:-promtool}
cd "$(dirname "$0")/../../ops/prometheus"
timeout 60 "$promtool" check rules sfcl-rules.yml
timeout 60 "$promtool" test rules sfcl-rules.test.yml
