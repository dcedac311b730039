/* tests/browser/lib/https.mjs: the pages over plain http by a local
 * network's name, over https, and on localhost, for tests/https.sh's
 * browser checks (tests/browser/https/). The wrapper serves a NEW shop
 * (no set-up yet) with lighttpd on HTTP_PORT (plain http) and HTTPS_PORT
 * (a throwaway certificate for shop.example); the browser resolves
 * till.lan and shop.example to 127.0.0.1 and takes that certificate. */
import { openBrowser, env } from './browser.mjs';

export const LOCAL = 'http://127.0.0.1:' + env.HTTP_PORT + '/';
export const LAN = 'http://till.lan:' + env.HTTP_PORT + '/';
export const SECURE = 'https://shop.example:' + env.HTTPS_PORT + '/';

/* A browser of the file's own that finds till.lan and shop.example. */
export function httpsBrowser() {
	if (!env.HTTP_PORT || !env.HTTPS_PORT) throw new Error('no HTTP_PORT or HTTPS_PORT: run through tests/https.sh');
	return openBrowser({ args: ['--host-resolver-rules=MAP till.lan 127.0.0.1, MAP shop.example 127.0.0.1', '--ignore-certificate-errors'] });
}

/* The page at url, loaded, showing its login or its set-up form. */
export async function open(t, url) {
	await t.goto(url);
	await t.waitFor(`document.readyState === 'complete' && (vis('#login-form') || vis('#setup-form'))`);
}
