/* The back office's way to the API: the one client of js/api.js (its
 * token refresh, its error types), the v1 envelope, idempotency keys for
 * what makes something, and files (images, the sheet, CSV, the backup)
 * fetched with the token. The session's end is the page's business: the
 * client tells it through onSessionEnd, never the other way round. */
import { createApi, ApiError, NetError, SessionEnded } from '../js/api.js';
import { ss, uuid } from './dom.js';

export { ApiError, NetError, SessionEnded };

export const API = 'api/v1/';
/* The session is the till's: the same sessionStorage keys, so an owner
 * going from the till to the back office in the same tab stays logged
 * in, and logging out of one logs out of the other. */
export const K = {
	access: 'pos.access_token', refresh: 'pos.refresh_token',
	user: 'pos.user', location: 'pos.location_id'
};

/* A mistake found in the page before sending: the message and the field. */
export class FormError extends Error {
	constructor(message, input) { super(message); this.field = input || null; }
}

let sessionEnded = () => {};
/* fn(notice): the client ended the session (a refused refresh). */
export function onSessionEnd(fn) { sessionEnded = fn; }

export const client = createApi({
	base: API, store: ss, keys: K, fetch: (u, i) => fetch(u, i),
	onSessionEnd: (notice) => sessionEnded(notice)
});

/* The web server answered in the service's place (its own 500 page, no
 * JSON error of the service's, whose errors always say something). */
export const notServed = (e) => e instanceof ApiError && !e.details && e.message === 'The server answered ' + e.status + '.';

/* The data of an answer in the v1 envelope. */
export function payload(r) {
	const d = r && r.data && r.data.data;
	if (!d || typeof d !== 'object') throw client.unreadable(r ? r.status : 0);
	return d;
}
export const apiGet = async (path) => payload(await client.call('GET', path));
export const apiPatch = async (path, body) => payload(await client.call('PATCH', path, body));

/* Idempotency keys: the same attempt (same kind and body) after a lost
 * answer or a server fault reuses its key, so nothing is made twice;
 * anything else gets a new key. raw: without a login (the setup). */
const attempts = {};
export async function apiCreate(kind, path, body, raw) {
	const sig = JSON.stringify(body);
	let a = attempts[kind];
	if (!a || a.sig !== sig) a = attempts[kind] = { sig, key: uuid() };
	const b = Object.assign({}, body, { idempotency_key: a.key });
	try {
		const r = raw ? await client.raw('POST', path, b) : await client.call('POST', path, b);
		delete attempts[kind];
		return r;
	} catch (e) {
		if (!(e instanceof NetError) && !(e instanceof ApiError && e.status >= 500)) delete attempts[kind];
		throw e;
	}
}

/* A file the API makes (GET path): {blob, headers}. A refused token is
 * renewed by the client's own refresh (through a call of auth/me), then
 * the file asked for again; errors as the client's. */
export async function apiBlob(path) {
	const get = async () => {
		const token = ss.getItem(K.access);
		if (!token) await client.call('GET', 'auth/me');
		try {
			return await fetch(API + path, {
				headers: { Accept: '*/*', Authorization: 'Bearer ' + ss.getItem(K.access) },
				cache: 'no-store', credentials: 'same-origin'
			});
		} catch (e) {
			throw new NetError('No connection to the server.');
		}
	};
	let res = await get();
	if (res.status === 401) {
		await client.call('GET', 'auth/me');
		res = await get();
	}
	if (res.ok) return { blob: await res.blob(), headers: res.headers };
	let err = {};
	try { const d = JSON.parse(await res.text()); if (d && d.error && typeof d.error === 'object') err = d.error; } catch (e) { /* not JSON */ }
	throw new ApiError(res.status, typeof err.code === 'string' ? err.code : res.status === 413 ? 'PAYLOAD_TOO_LARGE' :
	    res.status >= 500 ? 'INTERNAL_ERROR' : 'HTTP_' + res.status,
	    typeof err.message === 'string' ? err.message : 'The server answered ' + res.status + '.', err.details);
}
