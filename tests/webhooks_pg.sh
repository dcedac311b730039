#!/usr/bin/env bash
# tests/webhooks.sh on PostgreSQL (tests/pg_wrap.sh says when it is skipped).
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/pg_wrap.sh" webhooks.sh
