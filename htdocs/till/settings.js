/* The settings of this till: the scanner's prefix and suffix, kept on
 * the device (docs/scanner.md). */
import { t } from '../js/i18n.js';
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
	    t('till.scanner.framed', { prefix: f.prefix ? t('till.scanner.the_prefix', { prefix: f.prefix }) : t('till.scanner.no_prefix'),
		suffix: f.suffix ? t('till.scanner.the_suffix', { suffix: f.suffix }) : t('till.scanner.enter') }) :
	    t('till.scanner.unframed');
}
export function onScannerSave(ev) {
	ev.preventDefault();
	const f = frameSetting($('scanner-prefix').value, $('scanner-suffix').value);
	fieldError('scanner-prefix', typeof f === 'string' ? t(f) : null);
	if (typeof f === 'string') { $('scanner-prefix').focus(); return; }
	if (f.prefix || f.suffix) writeJSON(ls, SCANNER_KEY, f);
	else ls.removeItem(SCANNER_KEY);
	setFrame(f, true);
	renderScannerSetting();
}
