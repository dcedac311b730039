/* The settings of this till: the scanner's prefix and suffix, kept on
 * the device (docs/scanner.md). */
import { frameSetting } from '../js/keys.js';
import { writeJSON } from '../js/store.js';
import { $ } from './dom.js';
import { savedFrame, setFrame } from './scanner.js';
import { ls, SCANNER_KEY } from './state.js';
import { fieldError } from './ui.js';

/* The till's scanner setting: the prefix and suffix its scanner sends
 * (docs/scanner.md says how to set them on the scanner). */
export function renderScannerSetting() {
	const f = savedFrame();
	$('scanner-prefix').value = f.prefix;
	$('scanner-suffix').value = f.suffix;
	$('scanner-state').textContent = f.prefix || f.suffix ?
	    'This till takes a scan framed by ' + (f.prefix ? 'the prefix ' + f.prefix : 'no prefix') + ' and ' + (f.suffix ? 'the suffix ' + f.suffix : 'Enter') + ', however slowly it comes.' :
	    'No prefix or suffix: this till tells a scan from typing by its speed alone.';
}
export function onScannerSave(ev) {
	ev.preventDefault();
	const f = frameSetting($('scanner-prefix').value, $('scanner-suffix').value);
	fieldError('scanner-prefix', typeof f === 'string' ? f : null);
	if (typeof f === 'string') { $('scanner-prefix').focus(); return; }
	if (f.prefix || f.suffix) writeJSON(ls, SCANNER_KEY, f);
	else ls.removeItem(SCANNER_KEY);
	setFrame(f, true);
	renderScannerSetting();
}
