/* Web storage for the pages (the till, the back office, the card page):
 * a storage that keeps working in memory when the browser refuses one (a
 * private window, storage turned off), JSON in and out that never throws,
 * and ids. No DOM here: node's test runner drives it with fakes. */

/* A storage in memory: {getItem, setItem, removeItem}. */
export function memStorage() {
	const m = new Map();
	return {
		getItem: (k) => (m.has(k) ? m.get(k) : null),
		setItem: (k, v) => { m.set(k, String(v)); },
		removeItem: (k) => { m.delete(k); }
	};
}

/* window.sessionStorage or window.localStorage (kind) when it can be
 * written, else one in memory for this page's life. */
export function storage(kind, win = globalThis) {
	try {
		const s = win[kind], t = '__lc_store_test__';
		s.setItem(t, t);
		s.removeItem(t);
		return s;
	} catch (e) {
		return memStorage();
	}
}

/* The JSON kept at k, or def when there is none or it does not parse. */
export function readJSON(s, k, def) {
	try {
		const v = s.getItem(k);
		return v === null ? def : JSON.parse(v);
	} catch (e) { return def; }
}

/* Keeps v as JSON at k; false when the storage refused it (full). */
export function writeJSON(s, k, v) {
	try { s.setItem(k, JSON.stringify(v)); return true; } catch (e) { return false; }
}

/* A UUID v4 (idempotency keys). crypto.randomUUID exists only on https
 * and localhost, and a till on the LAN is often plain http, so it falls
 * back to getRandomValues. */
export function uuid(c = globalThis.crypto) {
	if (c && typeof c.randomUUID === 'function') {
		try { return c.randomUUID(); } catch (e) { /* insecure context */ }
	}
	const b = new Uint8Array(16);
	if (c && typeof c.getRandomValues === 'function') c.getRandomValues(b);
	else for (let i = 0; i < 16; i++) b[i] = Math.floor(Math.random() * 256);
	b[6] = (b[6] & 0x0f) | 0x40;
	b[8] = (b[8] & 0x3f) | 0x80;
	const x = Array.from(b, (v) => v.toString(16).padStart(2, '0')).join('');
	return x.slice(0, 8) + '-' + x.slice(8, 12) + '-' + x.slice(12, 16) + '-' +
	    x.slice(16, 20) + '-' + x.slice(20);
}
