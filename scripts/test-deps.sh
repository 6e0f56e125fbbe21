#!/usr/bin/env bash
# System packages the test suite needs beyond the venv: Debian's Chromium for the
# browser tests, PostgreSQL for the store tests, nginx for the deploy example, fonts for Hindi and Thai.  Installs only what is
# missing, with one `apt-get update` at most.  Needs root to install; without
# root it only reports (the tests then skip locally, and fail under CI=true).
set -euo pipefail

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
# nginx for the tested example configuration of docs/deploy.md (not started as a service by the tests).
command -v nginx >/dev/null 2>&1 || missing+=(nginx-light)
# Fonts so the Hindi and Thai pages render (and screenshot) as real text.
fc-list :lang=hi 2>/dev/null | grep -q . || missing+=(fonts-lohit-deva)
fc-list :lang=th 2>/dev/null | grep -q . || missing+=(fonts-thai-tlwg)

if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
if [ "$(id -u)" != "0" ]; then
    echo "test-deps: missing ${missing[*]} (not root, so not installing)" >&2
    exit 0
fi
echo "test-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
