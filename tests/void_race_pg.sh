#!/usr/bin/env bash
# tests/void_race.sh on PostgreSQL (tests/pg_wrap.sh says when it is skipped).
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/pg_wrap.sh" void_race.sh
