/* The API through js/api.js's client, the offline queue's store
 * (js/queue.js, with its durable copy in IndexedDB), and the connection
 * state in the header. */
import { createApi } from '../js/api.js';
import { t } from '../js/i18n.js';
import { createQueue } from '../js/queue.js';
import { $ } from './dom.js';
import { endSession } from './session.js';
import { K, ls, ss } from './state.js';

export const api = createApi({
	base: 'api/v1/', store: ss, keys: K, fetch: (u, o) => window.fetch(u, o),
	onNet: (on) => setNet(on), onSessionEnd: (notice) => endSession(notice)
});
/* The queue's durable copy (js/queue.js, createQueue): one record in
 * IndexedDB, on disk when its transaction completes ('strict': flushed,
 * a power cut included), where localStorage's writes may wait minutes
 * in the browser's memory. Null without IndexedDB: the queue then lives
 * in localStorage alone. */
function idbCopy(name) {
	let idb = null;
	try { idb = window.indexedDB || null; } catch (e) { idb = null; }
	if (!idb) return null;
	/* Refused for good (a private window of some browsers): no copy, at
	 * once, rather than the waits restore() gives a copy not yet open. */
	const REFUSED = ['InvalidStateError', 'SecurityError', 'NotSupportedError', 'NotAllowedError'];
	let conn = null, refused = null;
	function open() {
		if (refused) return Promise.reject(refused);
		if (!conn)
			conn = new Promise((resolve, reject) => {
				const r = idb.open(name, 1);
				r.onupgradeneeded = () => r.result.createObjectStore('state');
				r.onsuccess = () => {
					const db = r.result;
					db.onversionchange = () => { db.close(); conn = null; };
					db.onclose = () => { conn = null; };
					resolve(db);
				};
				r.onerror = () => reject(r.error);
				r.onblocked = () => reject(new Error('IndexedDB blocked'));
			}).catch((e) => {
				conn = null;
				if (e && REFUSED.includes(e.name)) refused = e;
				throw e;
			});
		return conn;
	}
	async function run(mode, fn) {
		const db = await open();
		return new Promise((resolve, reject) => {
			const t = db.transaction('state', mode, { durability: 'strict' });
			let out = null;
			fn(t.objectStore('state'), (v) => { out = v; });
			t.oncomplete = () => resolve(out);
			t.onerror = t.onabort = () => reject(t.error || new Error('IndexedDB transaction aborted'));
		});
	}
	return {
		load: () => run('readonly', (st, set) => { const g = st.get('queue'); g.onsuccess = () => set(g.result || null); })
			.catch((e) => { if (refused) return null; throw e; }),
		/* Never over a newer copy: another tab of the till may have saved it. */
		save: (snap) => run('readwrite', (st) => {
			const g = st.get('queue');
			g.onsuccess = () => { if (!g.result || !(g.result.seq > snap.seq)) st.put(snap, 'queue'); };
		})
	};
}
export const queue = createQueue({ store: ls, keys: K, durable: idbCopy('loyalty-pos.queue') });
/* The queue as the till last had it, before anything reads or sends it:
 * after the browser was killed, localStorage may hold an older one. */
export let restoredNote = '';
export const ready = queue.restore().then((back) => {
	if (back) restoredNote = t('till.queue.restored');
	return back;
}, () => false);
/* Waits (2 s at most) until what was just queued is in the durable copy. */
export const keptSoon = () => Promise.race([queue.flush(), new Promise((resolve) => setTimeout(resolve, 2000))]);

let online = true;
export function setNet(on) {
	if (on === online) return;
	online = on;
	$('net-status').classList.toggle('off', !on);
	/* Kept as the element's key, so the page worded again keeps it. */
	$('net-text').dataset.i18n = on ? 'till.bar.online' : 'till.bar.offline';
	$('net-text').textContent = t($('net-text').dataset.i18n);
}
