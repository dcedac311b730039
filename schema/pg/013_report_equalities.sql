-- schema/013_report_equalities.sql for PostgreSQL: nothing to change.
-- SQLite's migration rewrites report_txn's IN lists, for which SQLite
-- builds a temporary b-tree each time; PostgreSQL evaluates such a list
-- in place. The migration keeps the two chains at the same numbers.
SELECT 1;
