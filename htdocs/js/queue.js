/* The till's offline queue: purchases that could not be recorded at the
 * counter (no connection, a server fault, the session ended mid-sale),
 * kept in the browser's localStorage and sent later through
 * POST transactions/sync, each exactly once (its idempotency key).
 * No DOM here: node's test runner drives it with a fake storage and API. */

import { ApiError, byteLength } from './api.js';
import { LIMITS } from './server-tables.js';
import { typeOf } from './cardtypes.js';

/* The service's sync batch limit (lib/lc_limits.h, docs/integrators.md,
 * Offline: sync), and a body size that stays below the smallest
 * request limit of a shared host (mod_fcgid's 128 KiB, see README). */
export const SYNC_MAX_ITEMS = LIMITS.BATCH_MAX;
export const SYNC_MAX_BYTES = 96 * 1024;
/* Sync item errors worth sending again as they are (docs/integrators.md,
 * the table of item errors). */
export const TRANSIENT = ['INTERNAL_ERROR', 'DATABASE_ERROR', 'SERVICE_UNAVAILABLE'];
/* A punch program's default cooldown (docs/integrators.md, Cards), for a
 * card not looked up. */
export const DEFAULT_COOLDOWN_S = LIMITS.COOLDOWN_DEFAULT_S;
/* A purchase the server fails on this many runs in a row (alone, so not
 * for its batch's size) is set aside for review: it must not hold back
 * the purchases queued after it. */
export const MAX_TRIES = 3;
/* Answers to a whole sync request that say "not now", whatever the
 * purchases: the run stops and they stay queued (401 has been through a
 * refresh already). 414 and 431 are the web server's refusals of any
 * request from here (its headers): setting the purchases aside one by
 * one would empty the queue into review for nothing. */
/* Why the queue set a purchase aside, in English as kept in the review
 * list (message); pages show their catalog's text of the note's key.
 * i18n-keys: till.queue.note_too_large till.queue.note_failed */
const QUEUE_NOTES = {
	too_large: 'This purchase is too large for the server to take.',
	failed: (n) => 'The server failed on this purchase ' + n + ' times while it recorded others.'
};
const BUSY = [401, 408, 414, 429, 431, 503];

const WRAP = byteLength('{"transactions":[]}');

/* Cuts items (queue entries) into batches of at most maxItems whose sync
 * body stays within maxBytes. An entry too big alone still gets a batch
 * of its own: the server's answer decides. */
export function planBatches(entries, maxBytes = SYNC_MAX_BYTES, maxItems = SYNC_MAX_ITEMS) {
	const out = [];
	let cur = [], size = WRAP;
	for (const x of entries) {
		const n = byteLength(JSON.stringify(x.item)) + 1;
		if (cur.length && (cur.length >= maxItems || size + n > maxBytes)) {
			out.push(cur);
			cur = [];
			size = WRAP;
		}
		cur.push(x);
		size += n;
	}
	if (cur.length) out.push(cur);
	return out;
}

/* Whether two sync items name the same card, however each named it. */
export function sameCard(a, b) {
	return ['card_instance_id', 'barcode_value', 'qr_code_data'].some((k) =>
		typeof a[k] === 'string' && a[k] !== '' && a[k] === b[k]);
}

/*
 * createQueue({store, keys: {queue, review, seq}, now, durable}): the
 * queue and the "needs review" list in store (localStorage). An entry is
 * {item: the sync item as sent, label, card_type, merchant_id,
 * queued_at}; a review entry adds {error, message, reviewed_at}.
 *
 * localStorage is the working copy (synchronous, shared by the till's
 * tabs) but not a durable one: Chromium keeps its writes in memory and
 * writes them to disk 5 s later at the soonest, and once a page has
 * written a few times about once a minute (60 commits an hour). A
 * browser killed meanwhile (a crash, a power cut, a close that hangs)
 * comes back with the queue of minutes before: the sales queued since
 * are gone, and purchases sent, set aside or dismissed since come back
 * (and one refused before is refused again: "1 need review"). So every
 * change is numbered (keys.seq, written with it) and saved whole to
 * durable ({load(), save(snapshot)}: IndexedDB in the page), which
 * restore() reads at start, taking it when it is newer than what
 * localStorage kept.
 */
export function createQueue(o) {
	const store = o.store, K = Object.assign({ queue: 'pos.queue.v1', review: 'pos.review.v1', seq: 'pos.queue.seq.v1' }, o.keys);
	const now = o.now || (() => Date.now());
	const durable = o.durable || null;

	function read(k) {
		try {
			const v = JSON.parse(store.getItem(k) || '[]');
			return Array.isArray(v) ? v.filter((x) => x && x.item && typeof x.item.idempotency_key === 'string') : [];
		} catch (e) { return []; }
	}
	function write(k, v) {
		try { store.setItem(k, JSON.stringify(v)); } catch (e) { return false; }
		changed();
		return true;
	}
	const load = () => read(K.queue);
	const loadReview = () => read(K.review);

	/* ---- the durable copy ---- */
	function seqOf() {
		const n = Number(store.getItem(K.seq));
		return Number.isSafeInteger(n) && n > 0 ? n : 0;
	}
	const snapshot = () => ({ seq: seqOf(), queue: store.getItem(K.queue), review: store.getItem(K.review) });
	let dirty = false, saving = null, savedOk = true;
	/* Saves the state as it is now, after the save under way: saves
	 * never overlap, and a burst of changes costs two. */
	function persist() {
		if (!durable) return Promise.resolve(true);
		dirty = true;
		if (!saving)
			saving = (async () => {
				while (dirty) {
					dirty = false;
					try { await durable.save(snapshot()); savedOk = true; } catch (e) { savedOk = false; }
				}
				saving = null;
				return savedOk;
			})();
		return saving;
	}
	function changed() {
		/* The number goes to disk with the change it counts (localStorage
		 * commits a page's pending writes together). */
		try { store.setItem(K.seq, String(seqOf() + 1)); } catch (e) { /* the next change counts it */ }
		persist();
	}
	/* Resolves (true when saved) once every change made so far is in the
	 * durable copy; at once without one. */
	const flush = () => (saving || Promise.resolve(savedOk));
	function put(k, v) {
		if (typeof v === 'string') store.setItem(k, v);
		else store.removeItem(k);
	}
	/* At start, before the queue is used: the durable copy replaces what
	 * localStorage kept when it is newer (the browser was killed before
	 * localStorage wrote the last changes); else it is brought up to
	 * date. A copy that cannot be read is asked again (a browser just
	 * started after a crash may find its files still held by the old
	 * one's processes, or open them slowly on a loaded machine) for
	 * waitMs at most; an answer after that is ignored, as is one that
	 * comes after the page changed the queue. Resolves true when the
	 * queue was brought back. */
	async function restore(waitMs = 15000) {
		if (!durable) return false;
		const before = seqOf(), end = Date.now() + waitMs, LATE = {};
		let d = LATE;
		while (d === LATE && Date.now() < end) {
			let timer;
			try {
				d = await Promise.race([durable.load(), new Promise((resolve) => { timer = setTimeout(resolve, end - Date.now(), LATE); })]);
			} catch (e) {
				await new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.min(250, end - Date.now()))));
			} finally { clearTimeout(timer); }
		}
		if (d === LATE || seqOf() !== before) return false;
		const local = snapshot();
		if (d && Number.isSafeInteger(d.seq) && d.seq > local.seq) {
			try {
				put(K.queue, d.queue);
				put(K.review, d.review);
				store.setItem(K.seq, String(d.seq));
			} catch (e) { return false; }
			return true;
		}
		if (!d || d.seq !== local.seq || d.queue !== local.queue || d.review !== local.review) persist();
		return false;
	}

	/* Adds a purchase once (by its key); false when storage refused it. */
	function add(item, meta) {
		const q = load();
		if (q.some((x) => x.item.idempotency_key === item.idempotency_key)) return true;
		q.push(Object.assign({ item: Object.assign({}, item), queued_at: new Date(now()).toISOString() }, meta));
		return write(K.queue, q);
	}
	function remove(keys) {
		const q = load(), left = q.filter((x) => !keys.includes(x.item.idempotency_key));
		return left.length === q.length || write(K.queue, left);
	}
	/* The purchases this user may send: a staff member his own, an
	 * owner all of his merchant's. */
	function forUser(u) {
		if (!u) return [];
		return load().filter((x) => x.item.staff_user_id === u.id ||
		    (u.user_type === 'owner' && x.merchant_id === u.merchant_id));
	}
	/* The newest queued punch on this card within cooldownS seconds of
	 * at (ms), or null: the till refuses a second offline punch as the
	 * server would, instead of sending one that can only be refused.
	 * Only purchases known to be on a punch card count: a card the till
	 * could not look up may be a cashback card, whose sales have no
	 * cooldown and must never be turned away. */
	function punchWithin(item, cooldownS, at) {
		let best = null;
		for (const x of load()) {
			if (!typeOf(x).punches) continue;
			if (!sameCard(x.item, item)) continue;
			const t = Date.parse(x.item.client_timestamp);
			if (isNaN(t) || Math.abs(at - t) >= cooldownS * 1000) continue;
			if (!best || t > Date.parse(best.item.client_timestamp)) best = x;
		}
		return best;
	}

	/* A review entry back into the queue as it was (Retry), or, with
	 * fresh = true, as a new purchase at the present time with a new key
	 * (Record now: for a refusal its old time can never pass, such as
	 * the cooldown of a punch captured offline). */
	function requeue(key, fresh, newKey) {
		const r = loadReview(), x = r.find((e) => e.item.idempotency_key === key);
		if (!x) return false;
		const entry = Object.assign({}, x, { item: Object.assign({}, x.item) });
		delete entry.error; delete entry.message; delete entry.reviewed_at; delete entry.last_error;
		if (fresh) {
			entry.item.idempotency_key = newKey;
			entry.item.client_timestamp = new Date(now()).toISOString();
			entry.requeued_from = key;
		}
		/* Out of review first: were the queue write to fail after it, a
		 * second press would queue a second copy with another key. */
		if (!write(K.review, r.filter((e) => e !== x))) return false;
		const q = load();
		if (!q.some((e) => e.item.idempotency_key === entry.item.idempotency_key)) q.push(entry);
		if (write(K.queue, q)) return true;
		write(K.review, r);
		return false;
	}
	function dismiss(key) {
		return write(K.review, loadReview().filter((e) => e.item.idempotency_key !== key));
	}

	/* Notes on a queued purchase (tries, last error), kept with it. */
	function mark(key, fields) {
		const q = load(), x = q.find((e) => e.item.idempotency_key === key);
		if (x) { Object.assign(x, fields); write(K.queue, q); }
	}

	/* Files the answer of one batch: successes and replays leave the
	 * queue, transient errors stay (marked) unless final, the rest go to
	 * review. */
	function settle(batch, results, final) {
		const byKey = new Map();
		for (const res of results) if (res && typeof res.idempotency_key === 'string') byKey.set(res.idempotency_key, res);
		const done = [], review = [], soft = new Map();
		batch.forEach((x, n) => {
			const key = x.item.idempotency_key;
			const res = byKey.get(key) || (results[n] && !results[n].idempotency_key ? results[n] : null);
			const out = res && res.result;
			if (!out) return;
			if (out.success === true) { done.push(key); return; }
			const code = typeof out.error === 'string' ? out.error : 'INTERNAL_ERROR';
			if (TRANSIENT.includes(code) && !final) { soft.set(key, code); return; }
			const r = Object.assign({}, x, { error: code, message: typeof out.message === 'string' ? out.message : '',
				reviewed_at: new Date(now()).toISOString() });
			/* The queue's own words for why (QUEUE_NOTES): a page shows
			 * them in its language by this key; message keeps English. */
			if (typeof out.note === 'string') r.note = out.note;
			if (Number.isInteger(out.note_n)) r.note_n = out.note_n;
			review.push(r);
		});
		/* A refusal leaves the queue only once it is kept for review:
		 * with storage full it stays queued rather than vanish. */
		const filed = review.length && !write(K.review, loadReview().concat(review)) ? [] : review;
		const gone = new Set(done.concat(filed.map((x) => x.item.idempotency_key)));
		const q = load().filter((x) => !gone.has(x.item.idempotency_key));
		for (const x of q) if (soft.has(x.item.idempotency_key)) x.last_error = soft.get(x.item.idempotency_key);
		write(K.queue, q);
		return { sent: done.length, flagged: filed.length };
	}

	/*
	 * Sends this user's queue: batches within the host's body limit; a
	 * batch the host refuses whole (413, or a 500 such as mod_fcgid's own
	 * for a body above its limit) is split in two and each half sent, so
	 * one refusal never blocks the queue; a single purchase refused as too
	 * large goes to review. No connection, 429 or 503 (busy), or a session
	 * that ended stop the run; what is left is sent next time.
	 * Returns {sent, flagged, kept, failure, requests}.
	 */
	async function sync(api, user, onProgress) {
		const st = { sent: 0, flagged: 0, kept: 0, failure: null, requests: 0 };
		const todo = forUser(user);
		const stack = planBatches(todo).reverse();
		/* Purchases a fault refused alone, and how many in a row. */
		const failedAlone = [];
		let alone = 0;
		while (stack.length) {
			const batch = stack.pop();
			const body = JSON.stringify({ transactions: batch.map((x) => x.item) });
			let r;
			st.requests++;
			try {
				r = await api.call('POST', 'transactions/sync', body);
			} catch (e) {
				/* Refused whole: by the host for its size (413, or a 500
				 * of its own), a server fault, or a 4xx of a filter in
				 * front of the service. Busy (429, 503), a server or
				 * proxy that tired of waiting for the request (408, on a
				 * loaded machine: it says nothing of the purchases), no
				 * connection or the session's end stop the run instead. */
				const whole = e instanceof ApiError && e.status >= 400 && !BUSY.includes(e.status);
				if (whole && batch.length > 1) {
					const half = Math.ceil(batch.length / 2);
					stack.push(batch.slice(half), batch.slice(0, half));
					continue;
				}
				if (whole) {
					/* One purchase alone: a 4xx will not change, so it
					 * goes to review; a fault may pass, so it stays. The
					 * rest of the queue goes on either way, unless the
					 * next one fails too: then the server is in trouble. */
					const x = batch[0];
					if (e.status < 500) {
						const s = settle(batch, [{ idempotency_key: x.item.idempotency_key,
							result: Object.assign({ success: false, error: e.code, message: e.status === 413 ? QUEUE_NOTES.too_large : e.message },
							    e.status === 413 ? { note: 'till.queue.note_too_large' } : {}) }]);
						st.flagged += s.flagged;
						alone = 0;
						continue;
					}
					failedAlone.push({ x, code: e.code });
					if (++alone < 2) continue;
				}
				st.failure = e;
				break;
			}
			alone = 0;
			const d = (r.data && r.data.data) || {};
			const s = settle(batch, Array.isArray(d.results) ? d.results : []);
			st.sent += s.sent;
			st.flagged += s.flagged;
			if (onProgress) onProgress(st);
			if (!s.sent && !s.flagged) break; /* the server is in trouble: stop here */
		}
		/* A purchase the server failed on alone while it recorded others
		 * counts a try; its third goes to review. When nothing went
		 * through, the fault was the server's: no try is counted. */
		if (st.sent > 0)
			for (const { x, code } of failedAlone) {
				const tries = (x.tries || 0) + 1;
				if (tries < MAX_TRIES) { mark(x.item.idempotency_key, { tries, last_error: code }); continue; }
				st.flagged += settle([x], [{ idempotency_key: x.item.idempotency_key,
					result: { success: false, error: code, message: QUEUE_NOTES.failed(tries), note: 'till.queue.note_failed', note_n: tries } }], true).flagged;
			}
		/* Whatever was neither recorded nor set aside is still queued. */
		st.kept = todo.length - st.sent - st.flagged;
		return st;
	}

	return { load, loadReview, add, remove, forUser, punchWithin, requeue, dismiss, settle, sync, restore, flush };
}

