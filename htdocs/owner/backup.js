import { t } from '../js/i18n.js';
import { $, dispositionName, ymd } from './dom.js';
import { shopToday } from './state.js';
import { download } from './ui.js';

/* ---- backup ----------------------------------------------------------- */

export function downloadBackup() {
	return download($('backup-button'), $('backup-msg'), 'admin/backup', {
		preparing: t('owner.backup.preparing'),
		name: (headers) => dispositionName(headers, 'loyalty-backup-' + ymd(shopToday()) + '.db'),
		after: t('owner.backup.keep_safe')
	});
}

