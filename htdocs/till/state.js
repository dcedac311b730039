/* What the till's parts share: the storage keys, the logged-in user,
 * the retry keys of operations, the location the till works at. */
import { storage, uuid } from '../js/store.js';

export const K = {
	access: 'pos.access_token', refresh: 'pos.refresh_token',
	user: 'pos.user', location: 'pos.location_id',
	queue: 'pos.queue.v1', review: 'pos.review.v1', seq: 'pos.queue.seq.v1'
};
/* This till's scanner frame ({prefix, suffix}), kept on the till: a
 * setting of the device, not of a login. */
export const SCANNER_KEY = 'pos.scanner.v1';

export const ss = storage('sessionStorage');
export const ls = storage('localStorage');

export let user = null;          /* user object of login / me */
export function setUser(u) { user = u; }
/* Idempotency keys per kind of operation: the same attempt (same
 * signature) after a network error reuses its key, anything else gets a
 * new one. */
export const attempts = {};

export function attempt(kind, sig) {
	let a = attempts[kind];
	if (!a || a.sig !== sig) a = attempts[kind] = { sig, key: uuid(), at: new Date().toISOString() };
	return a;
}

export function currentLocation() {
	if (!user) return null;
	const id = ss.getItem(K.location);
	const list = Array.isArray(user.locations) ? user.locations : [];
	return list.find((l) => l && l.id === id) || user.location || list[0] || null;
}

export function canEnrol() {
	return !!(user && user.shop && user.shop.can_enrol === true);
}
export const isOwner = () => !!(user && user.user_type === 'owner');
