/* Installs the English catalog (htdocs/i18n/en.json) for the tests of
 * modules whose sentences come from js/i18n.js: without a page there is
 * no fetch of it, and t() would answer keys. Import it for its effect
 * before the module under test. */
import { readFileSync } from 'node:fs';
import { useCatalog } from '../../htdocs/js/i18n.js';

export const catalog = (lang) => JSON.parse(readFileSync(new URL('../../htdocs/i18n/' + lang + '.json', import.meta.url), 'utf8'));
useCatalog('en', catalog('en'));
