/* A dinar shop in Kuwait read in Arabic (tests/browser/card/shop-money.mjs). */
import { shopSteps } from './shop-money.mjs';

await shopSteps({ name: 'dinar-ar', currency: 'KWD', zone: 'Asia/Kuwait', lang: 'ar',
	/* 12.345 dinars at 2%: 0.2469, kept in fils */
	paid: 12.345, money: /^\u200f?0\.247\s?د\.ك\.\u200f?$/, hour: 22 });
