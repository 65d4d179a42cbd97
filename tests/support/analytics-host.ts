// The analytics provider's host, which the e2e browser resolves to its stand-in (analytics-stub.ts).
export const ANALYTICS_HOST = 'mc.yandex.ru';
