/* The server's limits on the pages' fields: every element with
 * data-limit="NAME" (a key of LIMITS in js/server-tables.js, which
 * tools/gen_tables writes from lib/lc_limits.h) gets that maxlength, so
 * no page restates a number the server keeps. */

import { LIMITS } from './server-tables.js';

export { LIMITS };

/* The limit NAME; throws on a name the server has not, so a typo in a
 * page shows at once instead of leaving a field unbounded. */
export function limit(name) {
	if (!Object.prototype.hasOwnProperty.call(LIMITS, name))
		throw new Error('no such limit: ' + name);
	return LIMITS[name];
}

/* Sets maxlength (max on a number field) on root itself and on every
 * element under it that has data-limit; returns how many it set. */
export function applyLimits(root) {
	const els = [];
	if (root && root.dataset && root.dataset.limit) els.push(root);
	if (root && root.querySelectorAll) els.push(...root.querySelectorAll('[data-limit]'));
	for (const el of els)
		el.setAttribute(el.type === 'number' ? 'max' : 'maxlength', String(limit(el.dataset.limit)));
	return els.length;
}
