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
