/* The loyalty API client of the pages: one JSON call, its errors as
 * types, and the session (access and refresh tokens) kept in a storage
 * the page gives. No DOM here, so node's test runner drives it with a
 * fake fetch. What a person may read (the notices, the messages of the
 * errors it makes itself) comes from the catalogs (api.*); a message the
 * server sent is kept as it came (English, for integrators: the pages
 * show js/errors.js's sentence of its code). */

import { uuid } from './store.js';
import { t } from './i18n.js';

/* The server answered with an error (or an unreadable answer). */
export class ApiError extends Error {
	constructor(status, code, message, details, retryAfter, served) {
		super(message);
		this.status = status;
		this.code = code;
		this.details = details || null;
		this.retryAfter = retryAfter === undefined ? null : retryAfter;
		/* The service answered (its answers carry X-Request-Id), not the
		 * web server in its place (a 500 of programs that did not run, a
		 * bare 413 of a host's body limit). */
		this.served = served !== false;
	}
}
/* fetch itself failed: no answer, the outcome is unknown. */
export class NetError extends Error {}
/* The session ended (refresh refused or never logged in). */
export class SessionEnded extends Error {}

/* Seconds of a Retry-After header: whole seconds or an HTTP date. */
export function retryAfterSecs(v, now = Date.now()) {
	if (!v) return null;
	if (/^\d+$/.test(v.trim())) return parseInt(v, 10);
	const t = Date.parse(v);
	return isNaN(t) ? null : Math.max(0, Math.ceil((t - now) / 1000));
}

/* UTF-8 length of a string: what a body costs against a host's limit. */
export function byteLength(s) {
	let n = 0;
	for (let i = 0; i < s.length; i++) {
		const c = s.charCodeAt(i);
		if (c < 0x80) n += 1;
		else if (c < 0x800) n += 2;
		else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) { n += 4; i++; }
		else n += 3;
	}
	return n;
}

const unreadable = (status) => new ApiError(status, 'INTERNAL_ERROR', t('api.unreadable'));

/* The data of an answer in the v1 envelope ({success, data}); an
 * ApiError when it has none. */
export function payload(r) {
	const d = r && r.data && r.data.data;
	if (!d || typeof d !== 'object') throw unreadable(r ? r.status : 0);
	return d;
}

/*
 * createApi({base, store, fetch, onNet, onSessionEnd}):
 *   base          URL prefix of the API ('api/v1/', relative: the pages
 *                 work from a subfolder)
 *   store         {getItem, setItem, removeItem} holding the tokens
 *   fetch         the fetch function (window.fetch in the page)
 *   onNet(on)     told whether the server answered at all
 *   onSessionEnd(notice)  the session is over: show the login form
 *   keys          {access, refresh}: the storage keys of the tokens
 *                 (default the till's, pos.access_token and
 *                 pos.refresh_token, which the back office shares)
 *   uuid          makes idempotency keys (create); default js/store.js's
 *
 * The client never calls page code but through onNet and onSessionEnd.
 * Returns {raw, call, login, logout, unreadable, hasSession, get, send,
 * create, setTokens, forget, endSession}:
 *   raw(method, path, body, token, opts)   one request, no session
 *   call(method, path, body, opts)         one request of the session
 *       opts.blob: a successful answer is read as a Blob ({status, blob,
 *       headers}: images, CSV, the backup); every answer has headers
 *   get(path), send(method, path, body)    call, and its payload
 *   create(kind, path, body, opts)         POST with an idempotency key
 *       kept for the same attempt (kind and body) after a lost answer or
 *       a server fault, so nothing is made twice; opts.raw: no session
 *   setTokens(access, refresh)   a session begun elsewhere (the owner's
 *       setup answers with tokens)
 *   forget()        the tokens dropped and answers in flight disowned,
 *       without onSessionEnd (the page ends the session itself)
 *   endSession(notice)   forget(), then onSessionEnd(notice)
 */
export function createApi(o) {
	const K = { access: o.keys ? o.keys.access : 'pos.access_token', refresh: o.keys ? o.keys.refresh : 'pos.refresh_token' };
	const store = o.store, onNet = o.onNet || (() => {}), onEnd = o.onSessionEnd || (() => {});
	const newKey = o.uuid || uuid;
	let refreshing = null;
	/* Counts logins and logouts: an answer that comes back after either
	 * belongs to a session that is over, and is dropped (a refresh in
	 * flight must not put a logged-out cashier's tokens back, nor a call
	 * go on under the next cashier's). */
	let epoch = 0;

	/* One request; a JSON answer with success or an ApiError. A body that
	 * is already a string is sent as it is (the queue measures it). */
	async function raw(method, path, body, token, opts) {
		const blobWanted = !!(opts && opts.blob);
		const headers = { Accept: blobWanted ? '*/*' : 'application/json' };
		if (body !== undefined) headers['Content-Type'] = 'application/json';
		if (token) headers.Authorization = 'Bearer ' + token;
		let res, text = '', blob = null;
		try {
			res = await o.fetch(o.base + path, {
				method, headers, cache: 'no-store', credentials: 'same-origin',
				body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body)
			});
			if (blobWanted && res.ok) blob = await res.blob();
			else text = await res.text();
		} catch (e) {
			onNet(false);
			throw new NetError(t('api.no_connection'));
		}
		onNet(true);
		if (blob) return { status: res.status, blob, headers: res.headers };
		let data = null;
		try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
		if (res.ok && data && typeof data === 'object') return { status: res.status, data, headers: res.headers };
		const err = data && data.error && typeof data.error === 'object' ? data.error : {};
		let code = typeof err.code === 'string' ? err.code : null;
		if (!code)
			code = res.status === 413 ? 'PAYLOAD_TOO_LARGE' : res.status >= 500 || res.ok ? 'INTERNAL_ERROR' :
			    res.status === 401 ? 'UNAUTHORIZED' : 'HTTP_' + res.status;
		const msg = typeof err.message === 'string' && err.message ? err.message :
		    res.ok ? t('api.unreadable') : t('api.answered', { status: res.status });
		const ae = new ApiError(res.status, code, msg, err.details, retryAfterSecs(res.headers.get('Retry-After')),
		    !!(data && res.headers.get('X-Request-Id')));
		/* The message is this client's (api.unreadable, api.answered), in
		 * the page's language: a page shows its sentence of the code
		 * instead, without matching the words. */
		ae.ownMessage = !(typeof err.message === 'string' && err.message);
		throw ae;
	}

	function end(notice, why) {
		store.removeItem(K.access);
		store.removeItem(K.refresh);
		onEnd(notice);
		return new SessionEnded(why || notice);
	}

	async function refreshTokens() {
		const rt = store.getItem(K.refresh), e0 = epoch;
		if (!rt) throw end(t('api.session_ended'), 'No refresh token.');
		let r;
		try {
			r = await raw('POST', 'auth/refresh', { refresh_token: rt });
		} catch (e) {
			if (epoch !== e0) throw new SessionEnded('Logged out meanwhile.');
			/* No connection or a server fault: keep the tokens, try later. */
			if (e instanceof NetError || (e instanceof ApiError && (e.status >= 500 || e.status === 429))) throw e;
			throw end(t('api.session_ended'), e.message);
		}
		if (epoch !== e0) throw new SessionEnded('Logged out meanwhile.');
		const d = r.data;
		if (typeof d.access_token !== 'string' || typeof d.refresh_token !== 'string') throw unreadable(r.status);
		store.setItem(K.access, d.access_token);
		store.setItem(K.refresh, d.refresh_token);
	}

	/* An authenticated call. On 401: refresh once (one refresh at a time:
	 * a refresh token is single-use, and reusing one revokes the session),
	 * then retry with the new access token; when the refresh is refused,
	 * the session ends (SessionEnded). */
	async function call(method, path, body, opts) {
		const token = store.getItem(K.access), e0 = epoch;
		if (!token) throw end(t('api.please_log_in'), 'Not logged in.');
		try {
			return await raw(method, path, body, token, opts);
		} catch (e) {
			if (!(e instanceof ApiError) || e.status !== 401) throw e;
		}
		if (epoch !== e0) throw new SessionEnded('Logged out meanwhile.');
		if (store.getItem(K.access) === token) {
			if (!refreshing) refreshing = refreshTokens().finally(() => { refreshing = null; });
			await refreshing;
		}
		if (epoch !== e0) throw new SessionEnded('Logged out meanwhile.');
		const fresh = store.getItem(K.access);
		if (!fresh) throw new SessionEnded('Session ended.');
		try {
			return await raw(method, path, body, fresh, opts);
		} catch (e) {
			if (e instanceof ApiError && e.status === 401)
				throw end(t('api.session_ended'), e.message);
			throw e;
		}
	}

	/* Logs in; the tokens are kept, the user object returned. */
	async function login(email, password) {
		const r = await raw('POST', 'auth/login', { email, password });
		const d = r.data;
		if (typeof d.access_token !== 'string' || typeof d.refresh_token !== 'string' || !d.user) throw unreadable(r.status);
		epoch++;
		store.setItem(K.access, d.access_token);
		store.setItem(K.refresh, d.refresh_token);
		return d.user;
	}

	/* Logs out: the tokens are forgotten at once, and the server is asked
	 * to end the login (else its refresh token would work on for its
	 * 30 days). Resolves 'ended' when the server ended it, 'unreachable'
	 * when it could not be told (no connection, a server fault), 'none'
	 * when there was no login or it had ended already. */
	async function logout() {
		const at = store.getItem(K.access), rt = store.getItem(K.refresh);
		epoch++;
		store.removeItem(K.access);
		store.removeItem(K.refresh);
		if (!at && !rt) return 'none';
		try {
			await raw('POST', 'auth/logout', rt ? { refresh_token: rt } : {}, at);
			return 'ended';
		} catch (e) {
			return e instanceof ApiError && e.status < 500 ? 'none' : 'unreachable';
		}
	}

	const get = async (path) => payload(await call('GET', path));
	const send = async (method, path, body) => payload(await call(method, path, body));

	const attempts = {};
	async function create(kind, path, body, opts) {
		const sig = JSON.stringify(body);
		let a = attempts[kind];
		if (!a || a.sig !== sig) a = attempts[kind] = { sig, key: newKey() };
		const b = Object.assign({}, body, { idempotency_key: a.key });
		try {
			const r = opts && opts.raw ? await raw('POST', path, b) : await call('POST', path, b);
			delete attempts[kind];
			return r;
		} catch (e) {
			if (!(e instanceof NetError) && !(e instanceof ApiError && e.status >= 500)) delete attempts[kind];
			throw e;
		}
	}

	function setTokens(access, refresh) {
		epoch++;
		store.setItem(K.access, access);
		store.setItem(K.refresh, refresh);
	}
	function forget() {
		epoch++;
		store.removeItem(K.access);
		store.removeItem(K.refresh);
	}
	function endSession(notice) {
		forget();
		onEnd(notice);
	}

	return { raw, call, login, logout, unreadable, hasSession: () => !!store.getItem(K.access),
		get, send, create, setTokens, forget, endSession };
}
