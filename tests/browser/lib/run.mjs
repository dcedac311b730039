/* tests/browser/lib/run.mjs: runs the test files named on the command
 * line with Node's test runner, one file at a time (the pages share one
 * server, and a test's timing must not depend on another's load), and
 * prints TAP. Node 18 has no --test-concurrency; run() takes it on both.
 *
 *   node tests/browser/lib/run.mjs tests/browser/till/*.test.mjs
 */
import { run } from 'node:test';
import { tap } from 'node:test/reporters';

const files = process.argv.slice(2);
const stream = run({ files, concurrency: 1, timeout: Number(process.env.BROWSER_FILE_TIMEOUT || 600000) });
stream.on('test:fail', () => { process.exitCode = 1; });
stream.compose(tap).pipe(process.stdout);
