/* Fakes for the page modules: a Storage and a fetch answering from a
 * function, recording what was asked. */

export function memStore(init) {
	const m = new Map(Object.entries(init || {}));
	return {
		getItem: (k) => (m.has(k) ? m.get(k) : null),
		setItem: (k, v) => { m.set(k, String(v)); },
		removeItem: (k) => { m.delete(k); },
		map: m
	};
}

/* answer(req) returns {status, body (object or string), headers} or
 * throws (a network failure). */
export function fakeFetch(answer) {
	const calls = [];
	const f = async (url, o) => {
		const req = { url, method: o.method, headers: o.headers, body: o.body, json: o.body ? JSON.parse(o.body) : undefined };
		calls.push(req);
		const a = await answer(req, calls.length);
		const hdr = new Map(Object.entries(a.headers || {}).map(([k, v]) => [k.toLowerCase(), v]));
		const text = typeof a.body === 'string' ? a.body : a.body === undefined ? '' : JSON.stringify(a.body);
		return {
			ok: a.status >= 200 && a.status < 300, status: a.status,
			headers: { get: (k) => (hdr.has(k.toLowerCase()) ? hdr.get(k.toLowerCase()) : null) },
			text: async () => text
		};
	};
	f.calls = calls;
	return f;
}
