import { $, dispositionName, ymd } from './dom.js';
import { shopToday } from './state.js';
import { download } from './ui.js';

/* ---- backup ----------------------------------------------------------- */

export function downloadBackup() {
	return download($('backup-button'), $('backup-msg'), 'admin/backup', {
		preparing: 'Preparing the backup…',
		name: (headers) => dispositionName(headers, 'loyalty-backup-' + ymd(shopToday()) + '.db'),
		after: 'Keep it somewhere safe.'
	});
}

