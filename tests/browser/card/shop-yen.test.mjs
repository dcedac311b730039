/* A yen shop in Tokyo read in Japanese (tests/browser/card/shop-money.mjs). */
import { shopSteps } from './shop-money.mjs';

await shopSteps({ name: 'yen-ja', currency: 'JPY', zone: 'Asia/Tokyo', lang: 'ja',
	/* 1235 yen at 2%: 24.7, kept in whole yen */
	paid: 1235, money: /^[¥￥]\s?25$/, hour: 20 });
