// The order of the domains that shop/domain-order keeps (eslint.config.js); the README's "Layout" lists it too, and
// eslint/domains.test.ts checks both against the folders of src/features.

/**
 * The domains of src/features, lowest first: each imports only from those before it (docs/decisions/027 says
 * why each stands where it does; README "Layout").
 */
export const DOMAIN_ORDER = [
  // What everything shows or counts on: texts and pages, the shoppers' analytics, photos, the frame's state.
  'content',
  'analytics',
  'media',
  'frame',
  // Who is asking: sessions and accounts' keys, the console's operators and audit, referral codes.
  'auth',
  'ops',
  'partners',
  'newsletter',
  // What is sold and found.
  'promotions',
  'catalog',
  'wishlist',
  'search',
  'discovery',
  // Buying and what follows it.
  'cart',
  'orders',
  'account',
  'marking',
  'payments',
  'fulfilment',
  'delivery',
  'checkout',
  // The console's screens that join several domains, and what comes after an order.
  'console',
  'reviews',
  'buyout',
  // The shop's machinery: the CDN, the catalogue coming in, 1C, the jobs.
  'cdn',
  'import',
  'exchange',
  'housekeeping',
  // The page frame, which shows all of the above.
  'layout',
];
