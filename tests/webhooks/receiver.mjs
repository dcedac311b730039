// The webhooks' receiver of tests/webhooks.sh: a real HTTP server on
// 127.0.0.1 that checks every delivery with the Standard Webhooks
// reference library from npm (standardwebhooks), never with the
// project's own code, and records what it got.
//
//   node receiver.mjs serve PORT LOG     listen; one JSON line a delivery
//                                        into LOG; "listening" on stdout
//   node receiver.mjs check LINE SECRET  the library on one captured
//                                        delivery (a line of LOG): prints
//                                        one word a case (below)
//
// Each path (/h/NAME) is an endpoint of its own; POST /control sets one:
// {"path": "/h/a", "secrets": ["whsec_..."], "fail": N (answer 500 to the
// next N), "status": 410 (answer it to every one), "delay_ms": N (answer
// after N ms), "hold": true (answer none until a control of
// "release": true, which answers those held and stops holding: a test
// acts while the sender waits, however slow the machine), "reply": base64
// (the answer's body)}. A delivery's line: {path, id, timestamp, signature, body,
// verified: [one boolean a secret], answered, at}.
import { createServer } from 'node:http';
import { appendFileSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { homedir } from 'node:os';

const dir = process.env.STANDARDWEBHOOKS_DIR ||
    join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'),
	'loyalty-pos', 'standardwebhooks');
const require = createRequire(join(dir, 'node_modules', 'x.js'));
const { Webhook } = require('standardwebhooks');

// true when the library accepts the delivery with secret, else its error.
function verify(secret, body, headers) {
	try {
		new Webhook(secret).verify(body, headers);
		return true;
	} catch (e) {
		return String(e.message || e);
	}
}

function serve(port, log) {
	const ends = new Map();
	const end = (path) => {
		if (!ends.has(path))
			ends.set(path, { secrets: [], fail: 0, status: 0, delay_ms: 0,
			    hold: false, held: [] });
		return ends.get(path);
	};
	const server = createServer((req, res) => {
		const chunks = [];
		req.on('data', (c) => chunks.push(c));
		req.on('end', () => {
			const body = Buffer.concat(chunks).toString('utf8');
			if (req.url === '/control') {
				const c = JSON.parse(body);
				const e = end(c.path);
				Object.assign(e, c);
				if (c.release) {
					e.hold = e.release = false;
					e.held.splice(0).forEach((f) => f());
				}
				res.end('{}');
				return;
			}
			const e = end(req.url);
			const headers = {
				'webhook-id': req.headers['webhook-id'],
				'webhook-timestamp': req.headers['webhook-timestamp'],
				'webhook-signature': req.headers['webhook-signature'],
			};
			const results = e.secrets.map((s) => verify(s, body, headers));
			let status = 200;
			if (!results.some((r) => r === true))
				status = 400;
			else if (e.status)
				status = e.status;
			else if (e.fail > 0) {
				e.fail--;
				status = 500;
			}
			// Recorded on receipt: what the receiver got, whether or
			// not the sender lives to read the answer.
			appendFileSync(log, JSON.stringify({
				path: req.url, id: headers['webhook-id'],
				timestamp: headers['webhook-timestamp'],
				signature: headers['webhook-signature'],
				content_type: req.headers['content-type'],
				user_agent: req.headers['user-agent'],
				body, verified: results, answered: status,
				at: Date.now(),
			}) + '\n');
			const answer = () => {
				res.statusCode = status;
				if (e.reply)
					res.end(Buffer.from(e.reply, 'base64'));
				else
					res.end(status === 200 ? 'thanks' : 'no: ' + status);
			};
			if (e.hold)
				e.held.push(answer);
			else if (e.delay_ms > 0)
				setTimeout(answer, e.delay_ms);
			else
				answer();
		});
	});
	server.listen(port, '127.0.0.1', () => console.log('listening'));
}

// The library on a captured delivery: the delivery as it came (now,
// "accepted"), its body changed by one byte, the same delivery replayed
// ten minutes later, and the same body signed by the library itself with
// a timestamp ten minutes old. A case the library refuses prints
// "refused", else "accepted".
function check(line, secret) {
	const d = JSON.parse(line);
	const headers = {
		'webhook-id': d.id, 'webhook-timestamp': d.timestamp,
		'webhook-signature': d.signature,
	};
	const word = (r) => (r === true ? 'accepted' : 'refused');
	const out = [];
	out.push('as-sent ' + word(verify(secret, d.body, headers)));
	const tampered = d.body.replace(/"data":\{/, '"data":{"x":1,');
	out.push('tampered ' + word(verify(secret,
	    tampered === d.body ? d.body + ' ' : tampered, headers)));
	const realNow = Date.now;
	Date.now = () => realNow() + 10 * 60 * 1000;
	out.push('replayed-10-minutes-later ' +
	    word(verify(secret, d.body, headers)));
	Date.now = realNow;
	const wh = new Webhook(secret);
	const old = new Date(Date.now() - 10 * 60 * 1000);
	const oldHeaders = {
		'webhook-id': d.id,
		'webhook-timestamp': String(Math.floor(old.getTime() / 1000)),
		'webhook-signature': wh.sign(d.id, old, d.body),
	};
	out.push('timestamp-10-minutes-old ' +
	    word(verify(secret, d.body, oldHeaders)));
	console.log(out.join('\n'));
}

const [mode, a, b] = process.argv.slice(2);
if (mode === 'serve')
	serve(Number(a), b);
else if (mode === 'check')
	check(readFileSync(a, 'utf8').trim(), b);
else {
	console.error('usage: receiver.mjs serve PORT LOG | check FILE SECRET');
	process.exit(2);
}
