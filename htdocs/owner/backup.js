import { $, bytes, dispositionName, saveBlob, setKids, show, ymd } from './dom.js';
import { SessionEnded, apiBlob } from './net.js';
import { shopToday } from './state.js';
import { busy, setMsg } from './ui.js';

/* ---- backup ----------------------------------------------------------- */

export async function downloadBackup() {
	const btn = $('backup-button'), msg = $('backup-msg');
	busy(btn, true);
	msg.className = 'msg notice';
	setKids(msg, 'Preparing the backup…');
	show(msg, true);
	try {
		const r = await apiBlob('admin/backup');
		const name = dispositionName(r.headers, 'loyalty-backup-' + ymd(shopToday()) + '.db');
		saveBlob(r.blob, name);
		setKids(msg, 'Downloaded ' + name + ' (' + bytes(r.blob.size) + '). Keep it somewhere safe.');
	} catch (e) {
		if (e instanceof SessionEnded) return;
		msg.className = 'msg msg-error';
		setMsg(msg, e);
	} finally {
		busy(btn, false);
	}
}

