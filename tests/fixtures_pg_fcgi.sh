#!/usr/bin/env bash
# The CGI fixtures on PostgreSQL through FastCGI: one long-running process
# per responder keeps its connection and prepared statements from case to
# case, each case's database its own (tests/fixtures_pg.sh says when it
# is skipped).
FIXTURES_MODE=fcgi exec bash "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/fixtures_pg.sh" "$@"
