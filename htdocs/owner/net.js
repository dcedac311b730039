/* The back office's way to the API: the one client of js/api.js (its
 * token refresh, idempotency keys, files read as Blobs, its error
 * types) on the till's session keys. The session's end is the page's
 * business: the client tells it through onSessionEnd, never the other
 * way round. */
import { createApi, payload, ApiError, NetError, SessionEnded } from '../js/api.js';
import { ss } from './dom.js';

export { payload, ApiError, NetError, SessionEnded };

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

export const apiGet = (path) => client.get(path);
export const apiPatch = (path, body) => client.send('PATCH', path, body);
export const apiDelete = (path) => client.send('DELETE', path);
/* A POST that makes something, with an idempotency key kept for the
 * same attempt (kind and body); raw: without a login (the setup). */
export const apiCreate = (kind, path, body, raw) => client.create(kind, path, body, raw ? { raw: true } : undefined);
/* A file the API makes (images, the sheet, CSV, the backup): {blob, headers}. */
export const apiBlob = (path) => client.call('GET', path, undefined, { blob: true });
