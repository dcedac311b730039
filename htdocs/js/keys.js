/* Telling a barcode scanner from a person. A keyboard-wedge scanner
 * "types" a whole code in a few milliseconds per character and ends it
 * with Enter; a person, even a fast one, leaves 60 ms or more between
 * most keys. The till uses this so that a scan is always a new card,
 * wherever the focus is (the scanner always wins). No DOM here. */

/* Keys closer than this belong to one burst. */
export const SCAN_GAP_MS = 45;
/* The shortest code a scan can be (an EAN-8 is 8 digits; QR payloads
 * are longer): shorter bursts are a person's rolled keys. */
export const SCAN_MIN_LEN = 6;

/*
 * new KeyBursts({gap, minLen}):
 *   key(ch, t)   a printable character at time t (ms); returns true when
 *                it starts a new burst (the caller then notes where the
 *                focus was and what that field held)
 *   enter(t)     Enter at time t: the scanned code when the characters
 *                just before it came as one burst, else null; either way
 *                the burst ends
 *   reset()
 */
export class KeyBursts {
	constructor(o) {
		this.gap = (o && o.gap) || SCAN_GAP_MS;
		this.minLen = (o && o.minLen) || SCAN_MIN_LEN;
		this.reset();
	}
	reset() {
		this.chars = '';
		this.last = -Infinity;
	}
	key(ch, t) {
		const fresh = t - this.last > this.gap;
		if (fresh) this.chars = '';
		this.chars += ch;
		this.last = t;
		return fresh;
	}
	enter(t) {
		const code = this.chars.length >= this.minLen && t - this.last <= this.gap * 2 ? this.chars : null;
		this.reset();
		return code;
	}
}

/*
 * A scan told by its frame, whatever its timing: most scanners can be
 * set to send characters of their own before a code (a prefix) and after
 * it (a suffix); docs/scanner.md says how. With the same characters set
 * here (a till setting), a code between them is a scan even from a slow
 * Bluetooth scanner or a loaded tablet, and the frame never reaches a
 * field. The timing (KeyBursts) still tells an unframed scan.
 *
 * new ScanFrame({prefix, suffix}): strings of characters (either may be
 * empty; with neither, every key passes). Each key is one of:
 *   key(ch)  a printable character
 *   enter()  Enter
 *   other(key)  anything else that ends what was being typed: 'Tab'
 *            (which ends a framed code as Enter does: some scanners end
 *            with Tab), 'Escape' or a click (which give a frame begun by
 *            mistake back as typing: a ~ typed in a note)
 * and each returns what the page does with it:
 *   {pass: true}              the key goes on as usual
 *   {hold: true}              the key is swallowed (part of a frame)
 *   {hold: true, code}        swallowed, and code was scanned: the page
 *                             puts back what the field held at the start
 *                             of the frame (see begun), looks code up
 *   {replay: 'ab', ...}       characters swallowed as a prefix's start
 *                             turned out to be typing: the page types
 *                             them into the field, then applies the rest
 *                             of the answer to this key
 *   begun: true  (with hold or pass) this key began a frame or, with a
 *                suffix only, may have: the page notes where the focus is
 *                and what that field holds, to put back on a code
 * A suffix alone (no prefix) frames the characters typed since the last
 * pause (Enter, other(), or FRAME_PAUSE_MS without a key when key() is
 * given the times), and only when they look like a code (looksLikeCode:
 * a "#" ending "Table #" is typing): they reached the field, and the
 * page puts back what it held before them. A prefix is surer: it marks
 * where a code begins.
 *
 * A frame begun by mistake (a ~ typed in a note) never holds keys for
 * long: key(), enter() and other() take the time (ms) as a second
 * argument, and a key more than FRAME_PAUSE_MS after the one before
 * gives the held keys back ({replay}) before it is read afresh; so does
 * idle(t), which the page calls from a timer once the keys stop, so the
 * held text shows without waiting for a key. The prefix again inside a
 * frame gives back what came before it and begins a new frame.
 */
/* Keys further apart than this are not one scan (a suffix alone): a
 * scanner, even a slow Bluetooth one, never pauses that long inside a
 * code, and a cashier takes longer than that to pick up the scanner
 * after typing. */
export const FRAME_PAUSE_MS = 500;

export class ScanFrame {
	constructor(o) {
		this.prefix = (o && typeof o.prefix === 'string') ? o.prefix : '';
		this.suffix = (o && typeof o.suffix === 'string') ? o.suffix : '';
		this.reset();
	}
	get active() { return !!(this.prefix || this.suffix); }
	reset() {
		this.state = 'idle';	/* idle, prefix (part matched), in */
		this.held = '';
		this.buf = '';
		this.run = '';		/* suffix only: typed since the last pause */
		this.afterCode = false;	/* the key before was a frame's end */
		this.lastT = -Infinity;	/* the time of the last key */
	}
	/* The keys held by a frame that turned out to be typing, given
	 * back; the frame ends (the time of the last key is kept). */
	giveBack() {
		const replay = this.state === 'in' ? this.prefix + this.buf : this.state === 'prefix' ? this.held : '';
		this.state = 'idle';
		this.held = '';
		this.buf = '';
		return replay;
	}
	/* True when keys are held and the time t (ms) is more than
	 * FRAME_PAUSE_MS after the last key. */
	stale(t) {
		return (this.state === 'in' || this.state === 'prefix') && typeof t === 'number' && t - this.lastT > FRAME_PAUSE_MS;
	}
	/* The page's timer, at time t: {replay} when held keys are given
	 * back as typing after a pause, else null. */
	idle(t) {
		return this.stale(t) ? { replay: this.giveBack() } : null;
	}
	key(ch, t) {
		if (this.stale(t)) {
			const replay = this.giveBack();
			return Object.assign({ replay }, this.key(ch, t));
		}
		const after = this.afterCode;
		const paused = typeof t === 'number' && t - this.lastT > FRAME_PAUSE_MS;
		if (typeof t === 'number') this.lastT = t;
		this.afterCode = false;
		if (!this.active) return { pass: true };
		if (this.state === 'in') {
			this.buf += ch;
			if (this.suffix && this.buf.endsWith(this.suffix)) {
				const code = this.buf.slice(0, -this.suffix.length);
				this.reset();
				this.afterCode = true;
				return { hold: true, code };
			}
			if (this.prefix && this.buf.endsWith(this.prefix)) {
				/* The prefix again: what came before it was typing. */
				const replay = this.prefix + this.buf.slice(0, -this.prefix.length);
				this.buf = '';
				return { hold: true, replay, begun: true };
			}
			return { hold: true };
		}
		if (this.state === 'prefix') {
			if (ch === this.prefix[this.held.length]) {
				this.held += ch;
				if (this.held === this.prefix) { this.state = 'in'; this.held = ''; this.buf = ''; }
				return { hold: true };
			}
			const replay = this.held;
			this.state = 'idle';
			this.held = '';
			return Object.assign({ replay }, this.key(ch));
		}
		if (this.prefix && ch === this.prefix[0]) {
			if (this.prefix.length === 1) { this.state = 'in'; this.buf = ''; } else { this.state = 'prefix'; this.held = ch; }
			return { hold: true, begun: true };
		}
		if (this.prefix) return { pass: true };
		/* A suffix alone. */
		if (paused) this.run = '';
		const begun = this.run === '' && (!after || paused);
		this.run += ch;
		if (this.run.endsWith(this.suffix)) {
			const code = this.run.slice(0, -this.suffix.length);
			/* Only a run that looks like a code: "Table #" is typing,
			 * and the suffix goes on into the field with it. */
			this.run = '';
			if (!looksLikeCode(code)) return { pass: true };
			this.reset();
			this.afterCode = true;
			return { hold: true, code, begun };
		}
		return { pass: true, begun };
	}
	enter(t) {
		if (this.stale(t)) return { replay: this.giveBack(), pass: true };
		const after = this.afterCode;
		if (!this.active) return { pass: true };
		if (this.state === 'in') {
			const code = this.buf;
			this.reset();
			return code ? { hold: true, code } : { hold: true };
		}
		if (this.state === 'prefix') {
			const replay = this.held;
			this.reset();
			return { replay, pass: true };
		}
		this.reset();
		/* A scanner's Enter after its suffix: part of the scan. */
		return after ? { hold: true } : { pass: true };
	}
	other(key, t) {
		if (this.stale(t)) {
			const replay = this.giveBack();
			this.run = '';
			return { replay, pass: true };
		}
		if (this.state === 'in' && key === 'Tab') return this.enter();
		if (this.state === 'prefix' || this.state === 'in') {
			const replay = this.state === 'in' ? this.prefix + this.buf : this.held;
			this.reset();
			return { replay, pass: true };
		}
		this.run = '';
		this.afterCode = false;
		return { pass: true };
	}
}

/* Whether text may be a card's code as a scanner sends it: at least
 * SCAN_MIN_LEN of the characters card numbers and the cards' QR texts
 * use (letters, digits, + / = . -), no spaces. With a suffix alone
 * only such a run ended by the suffix is taken for a scan. */
export function looksLikeCode(text) {
	return typeof text === 'string' && text.length >= SCAN_MIN_LEN && /^[0-9A-Za-z+/=.-]+$/.test(text);
}

/* Whether a keydown is one the till reads (typing, a scanner's keys)
 * rather than a shortcut: no Meta, not composing, and Ctrl or Alt only
 * as AltGr, which Chrome on Windows reports as Ctrl+Alt and which types
 * ~ and § on German or French layouts (a scanner's prefix). e is a
 * KeyboardEvent or anything with its fields. */
export function readsKey(e) {
	if (!e || e.metaKey || e.isComposing) return false;
	if (!e.ctrlKey && !e.altKey) return true;
	if (typeof e.key !== 'string' || [...e.key].length !== 1) return false;
	const altGr = typeof e.getModifierState === 'function' && e.getModifierState('AltGraph');
	return !!(altGr || (e.ctrlKey && e.altKey));
}

/* A frame as the till setting keeps it, checked: at most 8 printable
 * characters each, and none that typing or a card number would match
 * (spaces alone, one letter or digit). Returns {prefix, suffix}, or the
 * catalog key (js/i18n.js, till.scanner.error_*) of the sentence that
 * says what is wrong. */
/* The keys returned here:
 * i18n-keys: till.scanner.error_length till.scanner.error_spaces till.scanner.error_single */
export function frameSetting(prefix, suffix) {
	const ok = (s) => typeof s === 'string' && s.length <= 8 && !/[\u0000-\u001f\u007f]/.test(s);
	if (!ok(prefix) || !ok(suffix)) return 'till.scanner.error_length';
	if (/^\s+$/.test(prefix) || /^\s+$/.test(suffix)) return 'till.scanner.error_spaces';
	if (/^[0-9A-Za-z]$/.test(prefix) || /^[0-9A-Za-z]$/.test(suffix))
		return 'till.scanner.error_single';
	return { prefix, suffix };
}
