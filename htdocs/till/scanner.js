/* The scanner always wins: the key bursts and the frame (prefix and
 * suffix) that tell a scan from typing, in any field. */
import { FRAME_PAUSE_MS, frameSetting, KeyBursts, readsKey, ScanFrame } from '../js/keys.js';
import { readJSON } from '../js/store.js';
import { held, lookupPending, startLookup } from './card.js';
import { $ } from './dom.js';
import { ls, SCANNER_KEY, user } from './state.js';

/*
 * Every key goes through here first (capture phase). A burst of
 * characters ending in Enter is a scan: whatever field it landed in
 * gets its old text back and the code is looked up as a new card. While
 * a lookup runs, keys meant for the amount are held (not typed into
 * the card field) and land in the amount when the card is shown.
 */
const bursts = new KeyBursts();
let burstAt = null;   /* {el, value} where the current burst began */
/* The scanner's prefix and suffix, when the till has them (js/keys.js,
 * ScanFrame): a framed scan is a scan whatever its timing. */
let frame = new ScanFrame(savedFrame());
let frameAt = null;   /* {el, value} where the current frame began */

export function savedFrame() {
	const v = readJSON(ls, SCANNER_KEY, null);
	const f = v && typeof v === 'object' ? frameSetting(String(v.prefix || ''), String(v.suffix || '')) : null;
	return f && typeof f === 'object' ? f : { prefix: '', suffix: '' };
}

/* Puts back what a field held before a scan landed in it. */
function putBack(at) {
	if (at && at.el && at.el !== $('lookup-code') && 'value' in at.el && at.el.value !== at.value) {
		at.el.value = at.value;
		at.el.dispatchEvent(new Event('input', { bubbles: true }));
	}
}

/* Types text into the focused field at its cursor: the start of a
 * prefix that turned out to be typing. */
function typeInto(el, text) {
	if (!isField(el) || !('value' in el) || el.tagName === 'SELECT') return;
	try {
		el.setRangeText(text, el.selectionStart, el.selectionEnd, 'end');
	} catch (e) {
		el.value += text;	/* e-mail and number fields have no selection */
	}
	el.dispatchEvent(new Event('input', { bubbles: true }));
}

/* A frame begun by mistake (a ~ typed in a note): once the keys stop
 * for FRAME_PAUSE_MS, what it held is given back into the field. */
let frameTimer = null;
function frameIdle() {
	frameTimer = null;
	const r = frame.idle(performance.now());
	if (r && r.replay) { typeInto(document.activeElement, r.replay); frameAt = null; }
}

/* A key seen by the frame; true when it was the frame's (swallowed). */
function frameKey(e, t) {
	if (!frame.active || (t && t.closest && t.closest('#scanner-settings'))) return false;
	const r = e.key === 'Enter' ? frame.enter(e.timeStamp) : [...e.key].length === 1 ? frame.key(e.key, e.timeStamp) :
	    e.key === 'Tab' || e.key === 'Escape' ? frame.other(e.key, e.timeStamp) : null;
	if (!r) return false;
	if (r.replay) typeInto(t, r.replay);
	if (r.begun) frameAt = { el: t, value: t && 'value' in t ? t.value : '' };
	clearTimeout(frameTimer);
	frameTimer = r.hold && r.code === undefined ? setTimeout(frameIdle, FRAME_PAUSE_MS + 50) : null;
	if (!r.hold) return false;
	e.preventDefault();
	e.stopPropagation();
	if (r.code !== undefined) {
		putBack(frameAt);
		frameAt = null;
		bursts.reset();
		burstAt = null;
		startLookup(r.code);
	}
	return true;
}

function isField(t) {
	return t && (/^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName) || t.isContentEditable);
}

export function onKeyCapture(e) {
	/* Shortcuts are not typing; AltGr (Ctrl+Alt on Windows) is: it
	 * types a prefix such as ~ on German or French layouts. */
	if (!user || !readsKey(e)) return;
	/* The camera's dialog keeps its keys (Escape closes it). */
	if (document.querySelector('dialog[open]')) return;
	const t = document.activeElement, lookupField = $('lookup-code');
	const holding = lookupPending && (t === lookupField || !isField(t) || t === document.body);
	if (frameKey(e, t)) return;
	if (e.key === 'Enter') {
		const code = bursts.enter(e.timeStamp);
		if (code !== null) {
			e.preventDefault();
			e.stopPropagation();
			if (burstAt && burstAt.el && burstAt.el !== lookupField && 'value' in burstAt.el) {
				burstAt.el.value = burstAt.value;
				burstAt.el.dispatchEvent(new Event('input', { bubbles: true }));
			}
			burstAt = null;
			startLookup(code);
			return;
		}
		if (holding) {
			e.preventDefault();
			e.stopPropagation();
			/* Enter alone (a scanner's CR LF, a double press) is no sale. */
			if (held.text) held.enter = true;
		}
		return;
	}
	if (e.key.length !== 1) return;
	if (bursts.key(e.key, e.timeStamp))
		burstAt = { el: t, value: t && 'value' in t ? t.value : '' };
	if (holding) {
		e.preventDefault();
		held.text += e.key;
		return;
	}
	if (e.key === ' ' || isField(t)) return;
	/* No field has focus: with a card ready for a sale the keys are the
	 * amount; else a new code in the card field. A scan is caught at its
	 * Enter either way. */
	const f = !$('purchase-panel').hidden ? $('purchase-amount') : lookupField;
	if (f === lookupField) lookupField.value = '';
	burstAt = { el: f, value: f.value };
	if (frameAt && frameAt.el === t) frameAt = { el: f, value: f.value };
	f.focus();
}

/* A new frame (saved here, or by another tab of the till); asked to,
 * a frame begun under the old one is dropped. */
export function setFrame(f, restart) {
	frame = new ScanFrame(f);
	if (restart) frameAt = null;
}

/* A click ends what was being typed: a suffix alone frames what came after it. */
export function onFrameClick(e) {
	const r = frame.other('click', e.timeStamp);
	if (r.replay) typeInto(document.activeElement, r.replay);
}
