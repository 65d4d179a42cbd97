import { existsSync } from 'node:fs';
import { MAX_BODY_BYTES } from './http/limits.ts';
import { z } from './zod.ts';

/** 32 bytes from 64 hex digits or from base64 (either alphabet, padded or not); undefined for anything else. */
export function parseKey32(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-f]{64}$/i.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) return undefined;
  const bytes = Buffer.from(trimmed, 'base64');
  return bytes.length === 32 ? bytes : undefined;
}
const key32 = z.string().refine((v) => parseKey32(v) !== undefined, { message: 'must be 32 bytes, as 64 hex digits or base64 (openssl rand -base64 32)' });

// Every environment variable is declared here once and checked at boot (DESIGN §4).
// A plain zod module rather than astro:env so the seed script, benchmarks and vitest read the same schema.
const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  HOST: z.string().min(1).default('localhost'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(4321),
  SEED_PRODUCTS: z.coerce.number().int().min(0).max(1_000_000).default(2000),
  SEED: z.coerce.number().int().default(20261122),
  AUTO_MIGRATE: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  SITE_URL: z.url().default('http://localhost:4321'),
  SMTP_URL: z.url().optional(),
  MAIL_FROM: z.string().default('Brandshop <noreply@brandshop.local>'),
  MANAGERS_EMAIL: z.email().default('managers@brandshop.local'),
  SUPPORT_CHAT_URL: z.url().default('https://t.me/brandshop_support'),
  METRIKA_ID: z.string().regex(/^\d+$/).optional(),
  // Seconds a rendered public page is reused by this process (0 turns the page cache off).
  PAGE_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(10),
  // How old the product feed (/feeds/yandex.yml) may be before it is written again in the background.
  FEED_REFRESH_MINUTES: z.coerce.number().int().min(1).max(10_080).default(60),
  // How long a token a refresh replaced keeps working, for calls other tabs sent just before (docs/decisions/011).
  SESSION_GRACE_SECONDS: z.coerce.number().int().min(0).max(600).default(60),
  // Signs the order result addresses (/order-success/{code}/{hash}); made once and kept in the database when unset.
  ORDER_SECRET: z.string().min(32).optional(),
  // How long an unpaid order holds its stock before it is cancelled and the stock returns (fractions for tests).
  PAYMENT_TIMEOUT_MINUTES: z.coerce.number().min(0.05).max(1440).default(30),
  // The operator command's key to the running shop (npm run order); made once and kept in DATA_DIR when unset.
  OPERATOR_TOKEN: z.string().min(32).optional(),
  // Seals the console's TOTP secrets in the database (AES-256-GCM, docs/decisions/022); kept out of the
  // database and of DATA_DIR, so neither a dump nor a backup opens them. Required in production once an
  // operator exists; off production the shop makes one in ./.ops-totp-key when unset.
  OPS_TOTP_KEY: key32.optional(),
  // The key being replaced, while rotating: what it sealed is opened, and sealed again with OPS_TOTP_KEY at start.
  OPS_TOTP_KEY_PREVIOUS: key32.optional(),
  // Who takes card and SBP payments: the built-in test provider (its own payment page), or YooKassa.
  PAYMENT_PROVIDER: z.enum(['test', 'yookassa']).default('test'),
  YOOKASSA_SHOP_ID: z.string().regex(/^\d+$/).optional(),
  YOOKASSA_SECRET_KEY: z.string().min(8).optional(),
  // The API's base; a stand-in's address in tests.
  YOOKASSA_API_URL: z.url().default('https://api.yookassa.ru/v3'),
  // 54-FZ receipt lines' VAT code (YooKassa's table: 1 without VAT, 4 is 20 %, …) and the tax system, when the shop's cash register needs it.
  YOOKASSA_VAT_CODE: z.coerce.number().int().min(1).max(12).default(1),
  YOOKASSA_TAX_SYSTEM_CODE: z.coerce.number().int().min(1).max(6).optional(),
  // Delivery by carriers (issue 38, docs/delivery.md). CDEK's API v2: its test host unless told; without the
  // account's client id and secret the shop offers its fixed methods only, as before.
  CDEK_API_URL: z.url().default('https://api.edu.cdek.ru/v2'),
  CDEK_CLIENT_ID: z.string().min(8).max(200).optional(),
  CDEK_CLIENT_SECRET: z.string().min(8).max(200).optional(),
  // Where parcels leave from: the carrier's own city code (CDEK: Moscow is 44).
  DELIVERY_SENDER_CITY_CODE: z.coerce.number().int().min(1).default(44),
  // Working days between an order and its hand-over to the carrier, and the daily cut-off (Moscow time)
  // after which an order is handed over a day later: both go into the arrival dates checkout shows.
  DELIVERY_HANDLING_DAYS: z.coerce.number().int().min(0).max(30).default(1),
  DELIVERY_CUTOFF: z
    .string()
    .regex(/^(?:[01]\d|2[0-3]):[0-5]\d$/)
    .default('14:00'),
  // Parcels' defaults per category (docs/delivery.md "Parcels"): `slug=grams:LxWxH` entries with commas
  // between, `*` in a slug for any letters (`*obuv=1500:34x22x13`); a category's parents' entries apply to
  // it. A product's own weight and size from the import come first; without either, 1 kg and 30×25×10 cm.
  DELIVERY_PARCELS: z
    .string()
    .max(4000)
    .regex(/^\s*(?:[a-z0-9*_-]{1,100}=\d{1,6}:\d{1,3}x\d{1,3}x\d{1,3}(?:\s*[,;]\s*[a-z0-9*_-]{1,100}=\d{1,6}:\d{1,3}x\d{1,3}x\d{1,3})*)?\s*$/)
    .default(''),
  // Marked goods (Честный знак, docs/marking.md): the categories whose products are marked unless a product
  // says otherwise — slugs with commas between, `*` for any letters (`*-obuv,*-odezhda`); a category's
  // parents' entries apply to it.
  MARKED_CATEGORIES: z
    .string()
    .max(2000)
    .regex(/^\s*(?:[a-z0-9*_-]{1,100}(?:\s*,\s*[a-z0-9*_-]{1,100})*)?\s*$/)
    .default(''),
  // When a prepaid order with marked goods is settled (its codes on the settlement receipt): at shipment —
  // handed to the carrier or a courier — or at delivery, where the shop's own register must wait for the
  // buyer (docs/marking.md).
  SETTLEMENT_RECEIPT_AT: z.enum(['shipment', 'delivery']).default('shipment'),
  // A carrier slower than this is not waited for: checkout shows the fixed methods with a note.
  CARRIER_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(2_000),
  // The pickup map's tiles ({z}/{x}/{y}) and their credit; `none`: the points on a plain ground. OpenStreetMap's
  // own servers are for light use only: a busy shop names its own tile provider.
  MAP_TILES_URL: z
    .union([z.literal('none'), z.url().regex(/^https?:\/\/[^/]+\/.*\{z\}.*\{x\}.*\{y\}/)])
    .default('https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
  MAP_TILES_ATTRIBUTION: z.string().max(300).default('© OpenStreetMap'),
  // Shipments (docs/delivery.md "Shipments"): the carrier's office where the shop hands parcels over (CDEK's
  // point code, the orders' shipment_point), and for a courier pickup the shop's address, contact and phone.
  DELIVERY_SENDER_POINT: z
    .string()
    .regex(/^[\w-]{1,50}$/)
    .optional(),
  DELIVERY_SENDER_ADDRESS: z.string().max(255).optional(),
  DELIVERY_SENDER_NAME: z.string().max(255).optional(),
  DELIVERY_SENDER_PHONE: z
    .string()
    .regex(/^\+?\d{10,15}$/)
    .optional(),
  // 1: paid orders delivered by a carrier are registered with it by the housekeeping job, without a manager.
  DELIVERY_AUTO_REGISTER: z
    .enum(['0', '1'])
    .default('0')
    .transform((v) => v === '1'),
  // Boxberry, the second carrier (docs/delivery.md): the cabinet's API token, the API's address, and the
  // point where the shop hands its parcels over (ParselCreate's shop.name1). Without the token, CDEK alone.
  BOXBERRY_TOKEN: z.string().min(8).max(200).optional(),
  BOXBERRY_API_URL: z.url().default('https://api.boxberry.ru/json.php'),
  BOXBERRY_SENDER_POINT: z
    .string()
    .regex(/^[\w-]{1,50}$/)
    .optional(),
  // Payment on delivery (issue 55, docs/payments.md): 1 offers «Оплата при получении» for carrier orders
  // where the carrier and the point take it — only for a shop whose carrier contract includes cash on
  // delivery. The largest order total paid so (roubles); a shopper with this many orders refused at the
  // door, or this share (%) of at least four, pays online only; the carrier's fee for collecting the
  // money, passed on to the buyer as a share (%) of what is collected (0: the shop bears it).
  PAY_ON_DELIVERY: z
    .enum(['0', '1'])
    .default('0')
    .transform((v) => v === '1'),
  COD_MAX_TOTAL: z.coerce.number().int().min(0).max(10_000_000).default(50_000),
  COD_REFUSALS_LIMIT: z.coerce.number().int().min(1).max(100).default(2),
  COD_REFUSALS_SHARE: z.coerce.number().min(1).max(100).default(50),
  COD_FEE_PERCENT: z.coerce.number().min(0).max(10).default(0),
  // Money taken at the door not in a carrier's register this many days after the delivery is overdue (the console says so).
  COD_TRANSFER_DAYS: z.coerce.number().int().min(1).max(90).default(10),
  // The seller the carrier's register names on the receipt for money it takes at the door (CDEK's `seller`:
  // the shop's legal name, its ИНН, phone and CDEK's code of its ownership form; docs/payments.md).
  SELLER_NAME: z.string().min(1).max(255).optional(),
  SELLER_INN: z
    .string()
    .regex(/^(\d{10}|\d{12})$/)
    .optional(),
  SELLER_PHONE: z
    .string()
    .regex(/^\+?\d{10,15}$/)
    .optional(),
  SELLER_OWNERSHIP_FORM: z.coerce.number().int().min(0).max(999).optional(),
  // The tariff of CDEK's client returns (a tariff of the shop's contract; 136, «Посылка склад-склад», by default).
  CDEK_RETURN_TARIFF: z.coerce.number().int().min(1).max(10_000).default(136),
  // A secret the carrier's webhook address carries (…/delivery/cdek/webhook?token=…): CDEK signs nothing.
  CDEK_WEBHOOK_TOKEN: z.string().min(16).max(200).optional(),
  // The largest catalogue file `npm run import` reads (bytes); a larger one is refused before anything is read.
  IMPORT_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 ** 3),
  // Lets an import fetch photos (and feeds) from loopback, private and link-local addresses: off, so that a
  // feed cannot reach the shop's own network (SSRF); on for a feed served inside the shop's network.
  IMPORT_ALLOW_PRIVATE: z
    .enum(['0', '1'])
    .default('0')
    .transform((v) => v === '1'),
  // The 1C / MoySklad exchange (docs/exchange-1c.md): off until both are set; 1C signs in with them (HTTP Basic).
  EXCHANGE_LOGIN: z.string().min(1).optional(),
  EXCHANGE_PASSWORD: z.string().min(8).optional(),
  // Where 1C calls the shop (1C's "Адрес сайта" of the exchange node points here).
  EXCHANGE_PATH: z
    .string()
    .regex(/^\/[A-Za-z0-9._~/-]+$/)
    .default('/exchange/1c'),
  // The largest part of a file 1C sends in one request (it cuts larger files into parts of this size);
  // no more than the API's body limit (MAX_BODY_BYTES, src/lib/http/limits.ts).
  EXCHANGE_FILE_LIMIT: z.coerce
    .number()
    .int()
    .min(64 * 1024)
    .max(MAX_BODY_BYTES)
    .default(MAX_BODY_BYTES),
  // How long one mode=import call waits for the run before answering "progress" (1C then calls again).
  EXCHANGE_STEP_SECONDS: z.coerce.number().min(0).max(30).default(3),
  // The price type the shop sells at, by its name in 1C; else the retail one, else the first declared.
  EXCHANGE_PRICE_TYPE: z.string().min(1).optional(),
  // A price type shown struck through above the price, when 1C keeps one.
  EXCHANGE_OLD_PRICE_TYPE: z.string().min(1).optional(),
  // How long a stopping process lets the requests it is answering finish before it closes them (docs/operations.md).
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(600).default(10),
  // Runs every housekeeping job this often instead of at its own pace (tests; docs/operations.md "Housekeeping jobs").
  JOBS_EVERY_SECONDS: z.coerce.number().min(0.1).max(86_400).optional(),
  // How long a stopping process keeps serving with readiness 503 before it closes its port: for balancers
  // that ask /api/ready (0 behind nginx, which only notices refused connections).
  SHUTDOWN_DELAY_SECONDS: z.coerce.number().min(0).max(60).default(0),
  // The bearer token Prometheus sends for /metrics; unset, /metrics does not exist (404).
  METRICS_TOKEN: z.string().min(16).optional(),
  // The proxies in front of the shop (nginx), by address: only from them is X-Forwarded-For believed, for
  // the client's address that throttles and the audit log use. Comma-separated IPv4 or IPv6 addresses.
  TRUST_PROXY: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((a) => a.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.union([z.ipv4(), z.ipv6()])))
    .optional(),
  // Where product photos are kept (docs/operations.md "Photos in S3-compatible storage"): DATA_DIR/media, or
  // a bucket of S3-compatible storage every machine shares.
  MEDIA_STORAGE: z.enum(['local', 's3']).default('local'),
  // The address pages give photos under (the bucket's, or a CDN's in front of it); unset: /media/ on the shop,
  // or the bucket's path-style address with MEDIA_STORAGE=s3.
  MEDIA_URL: z.url({ protocol: /^https?$/ }).optional(),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { message: 'must be a bucket name: 3–63 lower-case letters, digits, dots and hyphens' })
    .optional(),
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  S3_REGION: z.string().min(1).default('ru-central1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_PATH_STYLE: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  // A shared cache in front (docs/operations.md "A CDN in front"): how a change reaches it. 'xkey': an HTTP
  // PURGE with the tags in an xkey header to each address of CDN_PURGE_URLS (Varnish with varnish-modules);
  // 'cloudflare': its purge-by-tag API; 'none': nothing is told, and shared caches keep pages only briefly.
  CDN_PURGE: z.enum(['none', 'xkey', 'cloudflare']).default('none'),
  // The caches that take PURGE (xkey): comma-separated http(s) addresses, one per Varnish.
  CDN_PURGE_URLS: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((a) => a.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.url({ protocol: /^https?$/ })).min(1))
    .optional(),
  // How long a shared cache may keep a public page when changes purge it (seconds); without purges it is
  // CDN_SHORT_SECONDS.
  CDN_MAX_AGE_SECONDS: z.coerce.number().int().min(60).max(31_536_000).default(86_400),
  CDN_SHORT_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  CLOUDFLARE_ZONE_ID: z
    .string()
    .regex(/^[0-9a-f]{32}$/)
    .optional(),
  CLOUDFLARE_API_TOKEN: z.string().min(20).optional(),
  // The API's base; a stand-in's address in tests.
  CLOUDFLARE_API_URL: z.url().default('https://api.cloudflare.com/client/v4'),
  // Cloudflare's purge limit per account (its plan: Free 5 requests a minute, bucket 25; Pro 5 a second, 25;
  // Business 10, 50; Enterprise 50, 500), each request up to 100 tags.
  CLOUDFLARE_PURGES_PER_MINUTE: z.coerce.number().min(1).max(3000).default(5),
  CLOUDFLARE_PURGE_BURST: z.coerce.number().int().min(1).max(500).default(25),
  // pino's levels; 'silent' turns the request log off.
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Env = z.infer<typeof schema>;

export function parseEnv(source: Record<string, string | undefined>): Env {
  // Empty strings mean "not set" so `FOO= npm start` behaves like leaving FOO out.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const result = schema
    .refine((e) => e.PAYMENT_PROVIDER !== 'yookassa' || (e.YOOKASSA_SHOP_ID && e.YOOKASSA_SECRET_KEY), {
      message: 'PAYMENT_PROVIDER=yookassa needs YOOKASSA_SHOP_ID and YOOKASSA_SECRET_KEY',
      path: ['PAYMENT_PROVIDER'],
    })
    .refine((e) => !e.CDEK_CLIENT_ID === !e.CDEK_CLIENT_SECRET, {
      message: 'CDEK needs both CDEK_CLIENT_ID and CDEK_CLIENT_SECRET',
      path: ['CDEK_CLIENT_ID'],
    })
    .refine((e) => !e.EXCHANGE_LOGIN === !e.EXCHANGE_PASSWORD, {
      message: 'the 1C exchange needs both EXCHANGE_LOGIN and EXCHANGE_PASSWORD',
      path: ['EXCHANGE_LOGIN'],
    })
    .refine((e) => !e.OPS_TOTP_KEY_PREVIOUS || e.OPS_TOTP_KEY, {
      message: 'OPS_TOTP_KEY_PREVIOUS is the key being replaced: it needs the new one in OPS_TOTP_KEY',
      path: ['OPS_TOTP_KEY_PREVIOUS'],
    })
    .refine((e) => e.MEDIA_STORAGE !== 's3' || (e.S3_BUCKET && e.S3_ENDPOINT && e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY), {
      message: 'MEDIA_STORAGE=s3 needs S3_BUCKET, S3_ENDPOINT, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY',
      path: ['MEDIA_STORAGE'],
    })
    .refine((e) => e.CDN_PURGE !== 'xkey' || e.CDN_PURGE_URLS, {
      message: 'CDN_PURGE=xkey needs CDN_PURGE_URLS (the caches to purge)',
      path: ['CDN_PURGE_URLS'],
    })
    .refine((e) => e.CDN_PURGE !== 'cloudflare' || (e.CLOUDFLARE_ZONE_ID && e.CLOUDFLARE_API_TOKEN), {
      message: 'CDN_PURGE=cloudflare needs CLOUDFLARE_ZONE_ID and CLOUDFLARE_API_TOKEN',
      path: ['CDN_PURGE'],
    })
    .safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}

let cached: Env | undefined;
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Reads ./.env into process.env when present (variables already set win), for `npm start` and scripts. */
export function loadDotEnv(path = '.env'): void {
  if (existsSync(path)) process.loadEnvFile(path);
}
