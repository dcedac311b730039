/* The loyalty API client of the pages: one JSON call, its errors as
 * types, and the session (access and refresh tokens) kept in a storage
 * the page gives. No DOM here, so node's test runner drives it with a
 * fake fetch. */

/* The server answered with an error (or an unreadable answer). */
export class ApiError extends Error {
	constructor(status, code, message, details, retryAfter) {
		super(message);
		this.status = status;
		this.code = code;
		this.details = details || null;
		this.retryAfter = retryAfter === undefined ? null : retryAfter;
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

const unreadable = (status) => new ApiError(status, 'INTERNAL_ERROR', 'The server sent an unreadable answer.');

/*
 * createApi({base, store, fetch, onNet, onSessionEnd}):
 *   base          URL prefix of the API ('api/v1/', relative: the pages
 *                 work from a subfolder)
 *   store         {getItem, setItem, removeItem} holding the tokens
 *   fetch         the fetch function (window.fetch in the page)
 *   onNet(on)     told whether the server answered at all
 *   onSessionEnd(notice)  the session is over: show the login form
 */
export function createApi(o) {
	const K = { access: o.keys ? o.keys.access : 'pos.access_token', refresh: o.keys ? o.keys.refresh : 'pos.refresh_token' };
	const store = o.store, onNet = o.onNet || (() => {}), onEnd = o.onSessionEnd || (() => {});
	let refreshing = null;
	/* Counts logins and logouts: an answer that comes back after either
	 * belongs to a session that is over, and is dropped (a refresh in
	 * flight must not put a logged-out cashier's tokens back, nor a call
	 * go on under the next cashier's). */
	let epoch = 0;

	/* One request; a JSON answer with success or an ApiError. A body that
	 * is already a string is sent as it is (the queue measures it). */
	async function raw(method, path, body, token) {
		const headers = { Accept: 'application/json' };
		if (body !== undefined) headers['Content-Type'] = 'application/json';
		if (token) headers.Authorization = 'Bearer ' + token;
		let res, text;
		try {
			res = await o.fetch(o.base + path, {
				method, headers, cache: 'no-store', credentials: 'same-origin',
				body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body)
			});
			text = await res.text();
		} catch (e) {
			onNet(false);
			throw new NetError('No connection to the server.');
		}
		onNet(true);
		let data = null;
		try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
		if (res.ok && data && typeof data === 'object') return { status: res.status, data };
		const err = data && data.error && typeof data.error === 'object' ? data.error : {};
		let code = typeof err.code === 'string' ? err.code : null;
		if (!code)
			code = res.status === 413 ? 'PAYLOAD_TOO_LARGE' : res.status >= 500 || res.ok ? 'INTERNAL_ERROR' :
			    res.status === 401 ? 'UNAUTHORIZED' : 'HTTP_' + res.status;
		const msg = typeof err.message === 'string' ? err.message :
		    res.ok ? 'The server sent an unreadable answer.' : 'The server answered ' + res.status + '.';
		throw new ApiError(res.status, code, msg, err.details, retryAfterSecs(res.headers.get('Retry-After')));
	}

	function end(notice, why) {
		store.removeItem(K.access);
		store.removeItem(K.refresh);
		onEnd(notice);
		return new SessionEnded(why || notice);
	}

	async function refreshTokens() {
		const rt = store.getItem(K.refresh), e0 = epoch;
		if (!rt) throw end('Your session has ended. Please log in again.', 'No refresh token.');
		let r;
		try {
			r = await raw('POST', 'auth/refresh', { refresh_token: rt });
		} catch (e) {
			if (epoch !== e0) throw new SessionEnded('Logged out meanwhile.');
			/* No connection or a server fault: keep the tokens, try later. */
			if (e instanceof NetError || (e instanceof ApiError && (e.status >= 500 || e.status === 429))) throw e;
			throw end('Your session has ended. Please log in again.', e.message);
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
	async function call(method, path, body) {
		const token = store.getItem(K.access), e0 = epoch;
		if (!token) throw end('Please log in.', 'Not logged in.');
		try {
			return await raw(method, path, body, token);
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
			return await raw(method, path, body, fresh);
		} catch (e) {
			if (e instanceof ApiError && e.status === 401)
				throw end('Your session has ended. Please log in again.', e.message);
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

	return { raw, call, login, logout, unreadable, hasSession: () => !!store.getItem(K.access) };
}
