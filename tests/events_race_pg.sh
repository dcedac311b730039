#!/usr/bin/env bash
# tests/events_race.sh on PostgreSQL (tests/pg_wrap.sh says when it is skipped).
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/pg_wrap.sh" events_race.sh
