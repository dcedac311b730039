#!/usr/bin/env bash
# The same CGI fixtures, each request sent through FastCGI to one
# long-running process per responder (spawn-fcgi + cgi-fcgi): the
# connection and prepared statements are reused across every case.
FIXTURES_MODE=fcgi exec bash "$top_srcdir/tests/fixtures.sh" "$@"
