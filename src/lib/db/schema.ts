// The whole domain of DESIGN §5 in one PostgreSQL schema, shared by PGlite and a real server.
// Money is always integer kopecks: integer holds up to 21 million roubles per value, far above any
// single price or order here, and keeps JS numbers exact.
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

// ---------------------------------------------------------------- customers and sessions

export const customers = pgTable(
  'customers',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    phone: text('phone').notNull().default(''),
    name: text('name').notNull().default(''),
    surname: text('surname').notNull().default(''),
    patronymic: text('patronymic').notNull().default(''),
    passwordHash: text('password_hash').notNull(),
    referredByPartnerId: integer('referred_by_partner_id'),
    // Set by an admin in the console (issue 24): the login is refused and the sessions ended.
    blockedAt: timestamp('blocked_at', { withTimezone: true }),
    // The customer deleted the account (152-ФЗ, issue 54): nothing personal is left in the row (migration 0029).
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    // What the console's customer search reads: the names, e-mail and the phone's digits (migration 0017).
    searchText: text('search_text').generatedAlwaysAs(
      sql`lower(name || ' ' || surname || ' ' || patronymic || ' ' || email || ' ' || regexp_replace(phone, '\\D', '', 'g'))`,
    ),
  },
  (t) => [uniqueIndex('customers_email_lower_uq').on(sql`lower(${t.email})`)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    // Only the SHA-256 of the token is stored (DESIGN §4).
    tokenHash: text('token_hash').notNull(),
    // Every token a refresh rotates out of one login shares the family: a logout revokes them all, so a
    // predecessor still in its grace period cannot outlive the logout.
    familyId: text('family_id').notNull(),
    createdAt: createdAt(),
    // Idle expiry: moved forward by each refresh.
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    // Absolute expiry of the family: no refresh extends a login past it (ASVS 5.0 7.3.2).
    familyExpiresAt: timestamp('family_expires_at', { withTimezone: true }).notNull(),
    // Set when a refresh rotates the token; the old token stays valid until grace_until for other tabs.
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    graceUntil: timestamp('grace_until', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    userAgent: text('user_agent').notNull().default(''),
    ip: text('ip').notNull().default(''),
  },
  (t) => [uniqueIndex('sessions_token_hash_uq').on(t.tokenHash), index('sessions_customer_idx').on(t.customerId), index('sessions_family_idx').on(t.familyId)],
);

export const passwordResets = pgTable(
  'password_resets',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('password_resets_token_hash_uq').on(t.tokenHash)],
);

export const customerAddresses = pgTable(
  'customer_addresses',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    recipient: text('recipient').notNull(),
    phone: text('phone').notNull(),
    city: text('city').notNull(),
    street: text('street').notNull(),
    house: text('house').notNull(),
    apartment: text('apartment').notNull().default(''),
    postcode: text('postcode').notNull().default(''),
    comment: text('comment').notNull().default(''),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('customer_addresses_customer_idx').on(t.customerId)],
);

// ---------------------------------------------------------------- catalogue

export const brands = pgTable(
  'brands',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    // The Cyrillic spelling shoppers type ('Гуччи'), used by search.
    nameRu: text('name_ru').notNull().default(''),
    country: text('country').notNull().default(''),
    description: text('description').notNull().default(''),
    isPopular: boolean('is_popular').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('brands_slug_uq').on(t.slug)],
);

export const categories = pgTable(
  'categories',
  {
    id: serial('id').primaryKey(),
    parentId: integer('parent_id'),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    icon: text('icon'),
    level: smallint('level').notNull().default(0),
    sort: integer('sort').notNull().default(0),
    // The category's id in the feed it was imported from ('yml:12'), matched on re-import (docs/import.md).
    externalId: text('external_id'),
  },
  (t) => [index('categories_parent_idx').on(t.parentId), uniqueIndex('categories_external_uq').on(t.externalId)],
);

export const colors = pgTable(
  'colors',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    hex: text('hex').notNull(),
  },
  (t) => [uniqueIndex('colors_slug_uq').on(t.slug)],
);

export const products = pgTable(
  'products',
  {
    id: serial('id').primaryKey(),
    brandId: integer('brand_id')
      .notNull()
      .references(() => brands.id),
    categoryId: integer('category_id')
      .notNull()
      .references(() => categories.id),
    colorId: integer('color_id').references(() => colors.id),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    description: text('description').notNull().default(''),
    price: integer('price').notNull(),
    priceOld: integer('price_old'),
    // spec §3: the rounded percent between old and current price, 0 when there is no positive old price.
    discountPercent: smallint('discount_percent').generatedAlwaysAs(
      sql`CASE WHEN price_old IS NOT NULL AND price_old > 0 AND price_old > price THEN round((price_old - price) * 100.0 / price_old)::smallint ELSE 0::smallint END`,
    ),
    // The approved reviews' average and count, and their fit answers (issue 57): kept by migration 0038's
    // triggers on reviews, never written by the catalogue's own code.
    rating: real('rating').notNull().default(0),
    reviewsCount: integer('reviews_count').notNull().default(0),
    fitSmall: integer('fit_small').notNull().default(0),
    fitTrue: integer('fit_true').notNull().default(0),
    fitLarge: integer('fit_large').notNull().default(0),
    popularity: integer('popularity').notNull().default(0),
    freeDelivery: boolean('free_delivery').notNull().default(false),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
    // Kept by triggers (migration 0004): any change of the product or of its variants (price, stock) moves
    // it, so sitemaps' lastmod and the product feed say when a product last changed.
    updatedAt: updatedAt(),
    // Name, brand (Latin and Cyrillic), category and colour in one line, kept by a trigger (migration 0003):
    // what search matches against, with full text (Russian stemming) and trigrams (typos, transliteration).
    searchText: text('search_text').notNull().default(''),
    // The search vectors below are kept by the trigger that keeps search_text (migration 0030), on writes of
    // what they are made of only — stored generated columns were computed again on every update of the row.
    searchVector: tsvector('search_vector'),
    // The name's own stems (a word in the name weighs more) and its words and the article's as typed, whole
    // and without separators ('SL-4567/B' is 'sl', '4567', 'b' and 'sl4567b'): kept by the database on
    // write, so that building the search index reads them instead of computing them for every product.
    nameVector: tsvector('name_vector'),
    // The description's stems (its first 4,000 characters; the parser skips HTML tags and entities): found
    // at the lowest weight, below the name, brand, category and colour (issue 40).
    descriptionVector: tsvector('description_vector'),
    tokenVector: tsvector('token_vector'),
    // Imported products (docs/import.md): the feed's key ('yml:g:<group_id>', 'yml:o:<offer id>'), the
    // seller's article and sales notes, and a hash of what the import last wrote, so that an unchanged
    // offer costs no write and the catalogue version stays where it is.
    externalId: text('external_id'),
    vendorCode: text('vendor_code').notNull().default(''),
    salesNotes: text('sales_notes').notNull().default(''),
    importHash: text('import_hash'),
    // The product's own parcel when the import brings one (issue 38, docs/delivery.md "Parcels"): grams and
    // whole centimetres; null where the feed says nothing, and the category's default applies.
    weightG: integer('weight_g'),
    lengthCm: smallint('length_cm'),
    widthCm: smallint('width_cm'),
    heightCm: smallint('height_cm'),
    // Marked goods (Честный знак, issue 39): true or false set for the product; null follows its category
    // (MARKED_CATEGORIES). A marked product's units each get their code at packing.
    marked: boolean('marked'),
  },
  (t) => [
    uniqueIndex('products_external_uq').on(t.externalId),
    index('products_category_idx').on(t.categoryId),
    index('products_brand_idx').on(t.brandId),
    check('products_price_positive', sql`${t.price} > 0`),
    // Listings, facets, search and the home sections are ordered by the catalogue index in each process
    // (docs/decisions/007), so no per-sort or per-filter indexes are kept here.
  ],
);

// Every word shoppers can find products by (kept by a trigger, migration 0003): the vocabulary that
// misspelt query words are corrected against with pg_trgm ('кросовки' → 'кроссовки', 'гучи' → 'гуччи').
export const searchWords = pgTable('search_words', { word: text('word').primaryKey() }, (t) => [
  index('search_words_trgm_idx').using('gin', t.word.op('gin_trgm_ops')),
]);

// The managers' words for search (issue 40, the console's /ops/search): synonym groups ('кеды, кроссовки'),
// each word finding the others, or only the first the rest (one_way); and shoppers' names of a brand
// ('гуччи' → Gucci), kept folded (lower case, ё as е). Read with the catalogue index: saving one moves the
// catalogue version, so every process searches with it within its poll.
export const searchSynonyms = pgTable('search_synonyms', {
  id: serial('id').primaryKey(),
  terms: text('terms').array().notNull(),
  oneWay: boolean('one_way').notNull().default(false),
  createdAt: createdAt(),
});

export const brandAliases = pgTable('brand_aliases', {
  id: serial('id').primaryKey(),
  alias: text('alias').notNull().unique(),
  brandId: integer('brand_id')
    .notNull()
    .references(() => brands.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
});

export const productImages = pgTable(
  'product_images',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    position: smallint('position').notNull().default(0),
    // URL with a {w} placeholder for the width, e.g. /img/p/dress-3-w{w}.webp
    urlTemplate: text('url_template').notNull(),
    widths: integer('widths').array().notNull(),
    // Intrinsic size of the largest rendition; every width keeps the same aspect ratio.
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    alt: text('alt').notNull().default(''),
    // Imported photos (src/features/media): the average colour to paint first, and the address the photo
    // came from, so that a re-import reuses it instead of fetching it again.
    color: text('color'),
    sourceUrl: text('source_url'),
  },
  (t) => [index('product_images_product_idx').on(t.productId, t.position), index('product_images_source_idx').on(t.sourceUrl)],
);

export const productAttributes = pgTable(
  'product_attributes',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    value: text('value').notNull(),
    position: smallint('position').notNull().default(0),
  },
  (t) => [index('product_attributes_product_idx').on(t.productId)],
);

export const productVariants = pgTable(
  'product_variants',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    // spec §3 variant_code: what carts and orders refer to.
    code: text('code').notNull(),
    label: text('label').notNull(),
    sort: smallint('sort').notNull().default(0),
    stock: integer('stock').notNull().default(0),
    minItem: integer('min_item').notNull().default(1),
    maxItem: integer('max_item').notNull().default(5),
    // The feed's offer id ('yml:123') and barcodes, for imported sizes.
    externalId: text('external_id'),
    barcode: text('barcode').notNull().default(''),
  },
  (t) => [
    uniqueIndex('product_variants_code_uq').on(t.code),
    uniqueIndex('product_variants_external_uq').on(t.externalId),
    index('product_variants_product_idx').on(t.productId),
    check('product_variants_stock_nonneg', sql`${t.stock} >= 0`),
    check('product_variants_min_max', sql`${t.minItem} >= 1 AND ${t.maxItem} >= ${t.minItem}`),
  ],
);

// ---------------------------------------------------------------- cart and wishlist

export const carts = pgTable(
  'carts',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('carts_customer_uq').on(t.customerId)],
);

export const cartLines = pgTable(
  'cart_lines',
  {
    id: serial('id').primaryKey(),
    cartId: integer('cart_id')
      .notNull()
      .references(() => carts.id, { onDelete: 'cascade' }),
    uid: text('uid').notNull(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    variantId: integer('variant_id').references(() => productVariants.id),
    quantity: integer('quantity').notNull(),
    isSelected: boolean('is_selected').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('cart_lines_cart_uid_uq').on(t.cartId, t.uid), check('cart_lines_quantity_positive', sql`${t.quantity} > 0`)],
);

export const wishlistItems = pgTable(
  'wishlist_items',
  {
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.productId] })],
);

// ---------------------------------------------------------------- orders and payments

export const orders = pgTable(
  'orders',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    // Null for a guest's order (the guest is known by the contact e-mail).
    customerId: integer('customer_id').references(() => customers.id),
    // pending | processing | purchased | ready_to_ship | shipped | in_transit | at_pickup_point | delivered | cancelled | returned (spec §4, issue 38)
    status: text('status').notNull().default('pending'),
    contactName: text('contact_name').notNull(),
    contactPhone: text('contact_phone').notNull(),
    contactEmail: text('contact_email').notNull(),
    deliveryAddress: jsonb('delivery_address').notNull(),
    itemsTotal: integer('items_total').notNull(),
    discountTotal: integer('discount_total').notNull().default(0),
    // Kopecks promotions took off the goods (issue 56); each promotion in order_promotions.
    promoDiscount: integer('promo_discount').notNull().default(0),
    deliveryPrice: integer('delivery_price').notNull().default(0),
    bonusUsed: integer('bonus_used').notNull().default(0),
    balanceUsed: integer('balance_used').notNull().default(0),
    // The carrier's fee for taking the money at the door, passed on to the buyer (issue 55, migration 0031).
    codFee: integer('cod_fee').notNull().default(0),
    // Paid at the door: the carrier's delivery result — { collected, payments: [{ type, sum }], at } (migration 0032).
    deliveryResult: jsonb('delivery_result'),
    total: integer('total').notNull(),
    // goods, or certificate: a gift certificate's purchase (issue 56, migration 0037) — no goods, nothing to ship.
    kind: text('kind').notNull().default('goods'),
    // Kopecks gift certificates paid (gift_certificate_uses holds each); the card pays `total`.
    certificateUsed: integer('certificate_used').notNull().default(0),
    paymentStatus: text('payment_status').notNull().default('unpaid'),
    // courier | pickup | post
    deliveryMethod: text('delivery_method').notNull().default('courier'),
    // Delivery by a carrier (issue 38), as quoted at checkout: { carrier, city: { code, name }, tariff, mode,
    // price, arrival: { from, to }, point: { code, name, address, hours } | null }; null for the fixed methods.
    deliveryCarrier: jsonb('delivery_carrier'),
    // card | sbp | on_delivery (issue 55)
    paymentMethod: text('payment_method').notNull().default('card'),
    // An unpaid order holds its stock until then; afterwards it is cancelled and the stock returns.
    reservedUntil: timestamp('reserved_until', { withTimezone: true }),
    idempotencyKey: text('idempotency_key'),
    // The carrier's parcel number, set by the operator (npm run order -- track).
    trackingId: text('tracking_id'),
    // When it was delivered: the return window counts from here.
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    // The version (updated_at) of the order 1C confirmed it took (type=sale&mode=success); a newer one is sent again.
    exchangedAt: timestamp('exchanged_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    // What the console's search reads (issue 24): the name, e-mail and the phone's digits, stored so that a
    // search matching thousands of orders rechecks a column, not the expression per row (migration 0015).
    searchText: text('search_text').generatedAlwaysAs(sql`lower(contact_name || ' ' || contact_email || ' ' || regexp_replace(contact_phone, '\\D', '', 'g'))`),
  },
  (t) => [
    uniqueIndex('orders_code_uq').on(t.code),
    index('orders_customer_idx').on(t.customerId, t.createdAt),
    // Keys are random (the client makes one per checkout): one key, one order, whoever sends it.
    uniqueIndex('orders_idempotency_uq').on(t.idempotencyKey),
    index('orders_reserved_idx')
      .on(t.reservedUntil)
      .where(sql`${t.paymentStatus} = 'unpaid' AND ${t.status} = 'pending'`),
    index('orders_on_delivery_email_idx')
      .on(sql`lower(${t.contactEmail})`)
      .where(sql`${t.paymentMethod} = 'on_delivery'`),
    check('orders_kind_ck', sql`${t.kind} IN ('goods', 'certificate')`),
  ],
);

export const orderLines = pgTable(
  'order_lines',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    variantId: integer('variant_id').references(() => productVariants.id),
    // Snapshot of what was bought, so later catalogue edits don't rewrite history.
    name: text('name').notNull(),
    brand: text('brand').notNull(),
    variantLabel: text('variant_label').notNull().default(''),
    image: text('image').notNull().default(''),
    unitPrice: integer('unit_price').notNull(),
    unitPriceOld: integer('unit_price_old'),
    quantity: integer('quantity').notNull(),
    // How many the buyer kept when paying at the door with a partial buy-out (issue 55); null: all of them.
    kept: integer('kept'),
    deliveryStatus: text('delivery_status').notNull().default('pending'),
    trackingId: text('tracking_id'),
    canCancel: boolean('can_cancel').notNull().default(true),
    canReturn: boolean('can_return').notNull().default(false),
    // The kopecks promotions took off the line (issue 56), each promotion's share in order_promotions.
    promoDiscount: integer('promo_discount').notNull().default(0),
  },
  (t) => [index('order_lines_order_idx').on(t.orderId), check('order_lines_quantity_positive', sql`${t.quantity} > 0`)],
);

export const orderStatusHistory = pgTable(
  'order_status_history',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    orderLineId: integer('order_line_id').references(() => orderLines.id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    note: text('note').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [index('order_status_history_order_idx').on(t.orderId, t.createdAt)],
);

export const payments = pgTable(
  'payments',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id),
    provider: text('provider').notNull(),
    providerRef: text('provider_ref'),
    amount: integer('amount').notNull(),
    // pending | succeeded | canceled — only ever moves forward (src/features/payments/payments.server.ts)
    status: text('status').notNull().default('pending'),
    // Sent to the provider with the creation request: a retried creation is the same payment.
    idempotenceKey: text('idempotence_key').notNull(),
    confirmationUrl: text('confirmation_url'),
    payload: jsonb('payload'),
    // The payment's own receipt: full_payment, or full_prepayment when the order holds marked goods, whose
    // codes go on a settlement receipt when they are handed over (issue 39, docs/marking.md).
    receiptMode: text('receipt_mode').notNull().default('full_payment'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('payments_order_idx').on(t.orderId),
    uniqueIndex('payments_idempotence_uq').on(t.idempotenceKey),
    uniqueIndex('payments_provider_ref_uq').on(t.provider, t.providerRef),
  ],
);

// The parcel's way as the carrier reports it (the operator records it with the tracking id).
export const trackingEvents = pgTable(
  'tracking_events',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    place: text('place').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [index('tracking_events_order_idx').on(t.orderId, t.createdAt)],
);

// The built-in test provider's own side (what a real provider keeps on its servers): the payment page at
// /test-payment/{id} reads and settles these rows; the shop reads them only through the provider interface.
export const testPayments = pgTable('test_payments', {
  id: text('id').primaryKey(),
  idempotenceKey: text('idempotence_key').notNull().unique(),
  amount: integer('amount').notNull(),
  description: text('description').notNull(),
  returnUrl: text('return_url').notNull(),
  // pending | challenge (3-D Secure code asked) | succeeded | canceled
  status: text('status').notNull().default('pending'),
  cardLast4: text('card_last4'),
  reason: text('reason'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

// What the test provider keeps of the receipts sent to it (a settlement, a refund's): the test payment page
// lists them, as a real provider's cabinet would.
export const testReceipts = pgTable('test_receipts', {
  id: text('id').primaryKey(),
  paymentId: text('payment_id').notNull(),
  idempotenceKey: text('idempotence_key').notNull().unique(),
  // settlement | refund
  kind: text('kind').notNull(),
  amount: integer('amount').notNull(),
  items: jsonb('items').notNull(),
  createdAt: createdAt(),
});

// Ledgers: the balance is the sum of entries, never a mutable counter.
export const balanceLedger = pgTable(
  'balance_ledger',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    amount: integer('amount').notNull(),
    reason: text('reason').notNull(),
    // An admin's own words for a credit or debit from the console (reason 'manual' or 'correction').
    note: text('note').notNull().default(''),
    orderId: integer('order_id').references(() => orders.id),
    createdAt: createdAt(),
  },
  (t) => [index('balance_ledger_customer_idx').on(t.customerId, t.createdAt)],
);

export const bonusLedger = pgTable(
  'bonus_ledger',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    amount: integer('amount').notNull(),
    reason: text('reason').notNull(),
    // An admin's own words for a credit or debit from the console (reason 'manual' or 'correction').
    note: text('note').notNull().default(''),
    orderId: integer('order_id').references(() => orders.id),
    availableUntil: timestamp('available_until', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('bonus_ledger_customer_idx').on(t.customerId, t.createdAt)],
);

// ---------------------------------------------------------------- buyout, newsletter, partners

export const buyoutRequests = pgTable(
  'buyout_requests',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    phone: text('phone').notNull(),
    // telegram | whatsApp | viber (spec §3)
    messenger: text('messenger').notNull(),
    description: text('description').notNull().default(''),
    productUrl: text('product_url').notNull().default(''),
    images: jsonb('images')
      .notNull()
      .default(sql`'[]'::jsonb`),
    agreementPersonal: boolean('agreement_personal').notNull(),
    agreementPromo: boolean('agreement_promo').notNull(),
    customerId: integer('customer_id').references(() => customers.id),
    ip: text('ip').notNull().default(''),
    // new | in_progress | offer_sent | bought | declined (issue 24: the console's inbox)
    status: text('status').notNull().default('new'),
    // The operator working on it ("who took it").
    takenBy: integer('taken_by').references(() => operators.id),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('buyout_requests_created_idx').on(t.createdAt), index('buyout_requests_status_idx').on(t.status, t.id)],
);

export const newsletterSubscribers = pgTable(
  'newsletter_subscribers',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    source: text('source').notNull().default('footer'),
    ip: text('ip').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('newsletter_subscribers_email_uq').on(sql`lower(${t.email})`)],
);

export const partners = pgTable(
  'partners',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    // Commission in basis points of the order total (500 = 5 %).
    commissionBp: integer('commission_bp').notNull().default(500),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('partners_customer_uq').on(t.customerId), uniqueIndex('partners_code_uq').on(t.code)],
);

export const partnerVisits = pgTable(
  'partner_visits',
  {
    id: serial('id').primaryKey(),
    partnerId: integer('partner_id')
      .notNull()
      .references(() => partners.id, { onDelete: 'cascade' }),
    ipHash: text('ip_hash').notNull().default(''),
    landing: text('landing').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [index('partner_visits_partner_idx').on(t.partnerId, t.createdAt)],
);

export const partnerCommissions = pgTable(
  'partner_commissions',
  {
    id: serial('id').primaryKey(),
    partnerId: integer('partner_id')
      .notNull()
      .references(() => partners.id, { onDelete: 'cascade' }),
    orderId: integer('order_id').references(() => orders.id),
    amount: integer('amount').notNull(),
    // earned | withdrawn
    kind: text('kind').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('partner_commissions_partner_idx').on(t.partnerId, t.createdAt)],
);

// ---------------------------------------------------------------- infrastructure

// Throttle counters shared by every server instance (DESIGN §4, §10).
export const throttles = pgTable('throttles', {
  key: text('key').primaryKey(),
  count: integer('count').notNull().default(0),
  resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
  blockedUntil: timestamp('blocked_until', { withTimezone: true }),
});

// Every outgoing mail is recorded; the sender (SMTP or .eml files) marks it sent.
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: serial('id').primaryKey(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    error: text('error'),
    // Deliveries tried; a failed one is tried again by the housekeeping job after next_attempt_at, with a
    // back-off (src/lib/mail.server.ts).
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
  },
  (t) => [
    index('mail_outbox_unsent_idx')
      .on(t.createdAt)
      .where(sql`${t.sentAt} IS NULL`),
  ],
);

// Bookkeeping for the seed so a second start never reseeds.
export const appMeta = pgTable('app_meta', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: updatedAt(),
});

// The 1C exchange's own copy of what 1C sent (src/features/exchange): products from import.xml and offers
// from offers/prices/rests files arrive apart and in parts; the catalogue is written from both together.
export const exchangeProducts = pgTable('exchange_products', {
  id: text('id').primaryKey(),
  data: jsonb('data').notNull(),
  updatedAt: updatedAt(),
});

export const exchangeOffers = pgTable(
  'exchange_offers',
  {
    id: text('id').primaryKey(),
    productId: text('product_id').notNull(),
    data: jsonb('data').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [index('exchange_offers_product_idx').on(t.productId)],
);

// The exchange's state shared by every process: the classifier's properties and price types, import runs
// and their progress, the orders sent by the last mode=query.
export const exchangeState = pgTable('exchange_state', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: updatedAt(),
});

// Catalogue imports the running shop did (npm run import handed to it; later the managers' console):
// their progress while they run, then the summary and the per-offer report (CSV).
export const importRuns = pgTable('import_runs', {
  id: serial('id').primaryKey(),
  // Where the feed came from, as the operator gave it (a path on the shop's machine or an address).
  input: text('input').notNull(),
  options: jsonb('options').notNull(),
  // running | done | failed
  status: text('status').notNull().default('running'),
  done: integer('done').notNull().default(0),
  total: integer('total').notNull().default(0),
  summary: jsonb('summary'),
  report: text('report'),
  message: text('message').notNull().default(''),
  createdAt: createdAt(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
});

// ---------------------------------------------------------------- the managers' console (issue 24)
// Operators are the shop's own staff, apart from customers: their own accounts, password, TOTP and sessions
// (docs/decisions/019). Never deleted: the audit log names them.
export const operators = pgTable('operators', {
  id: serial('id').primaryKey(),
  email: text('email').notNull().unique(),
  // manager | admin
  role: text('role').notNull(),
  // Null until the operator sets one through the link `npm run operator -- add` printed.
  passwordHash: text('password_hash'),
  // Base32, as the authenticator app has it; confirmed when the first code from the app was accepted.
  totpSecret: text('totp_secret').notNull(),
  totpConfirmedAt: timestamp('totp_confirmed_at', { withTimezone: true }),
  // The last time step whose code was accepted: a code works once.
  totpLastStep: integer('totp_last_step').notNull().default(0),
  // SHA-256 of each unused recovery code; a code is removed when used.
  recoveryCodes: text('recovery_codes')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  disabledAt: timestamp('disabled_at', { withTimezone: true }),
  createdAt: createdAt(),
});

// One-time links to set a password (after `add` or `reset-2fa`): only the hash is kept.
export const operatorSetupTokens = pgTable('operator_setup_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  operatorId: integer('operator_id')
    .notNull()
    .references(() => operators.id),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: createdAt(),
});

export const operatorSessions = pgTable(
  'operator_sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    operatorId: integer('operator_id')
      .notNull()
      .references(() => operators.id),
    // The CSRF token every changing request of this session carries.
    csrf: text('csrf').notNull(),
    ip: text('ip').notNull().default(''),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [index('operator_sessions_operator_idx').on(t.operatorId)],
);

// Append-only (a trigger refuses UPDATE, DELETE and TRUNCATE): who did what, from where, with the values
// before and after. The operator's e-mail is copied so the line reads the same whatever happens later.
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    operatorId: integer('operator_id').references(() => operators.id),
    // The operator's e-mail, or 'operator-token' / 'cli' for the command line and the token's calls.
    actor: text('actor').notNull(),
    ip: text('ip').notNull().default(''),
    action: text('action').notNull(),
    objectType: text('object_type').notNull(),
    objectId: text('object_id').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audit_log_object_idx').on(t.objectType, t.objectId), index('audit_log_at_idx').on(t.at)],
);

// What carriers answered, shared by every process of the shop (issue 38, src/features/delivery/delivery.server.ts):
// a city's pickup points for 24 hours, a route's tariffs for 10 minutes. One row per question; the
// housekeeping job deletes rows past their time.
export const carrierCache = pgTable(
  'carrier_cache',
  {
    key: text('key').primaryKey(),
    value: jsonb('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('carrier_cache_expires_idx').on(t.expiresAt)],
);

// An order registered with its carrier (issue 38, docs/delivery.md "Shipments"): one per order, so a retry,
// a double click or two managers never make a second one. `state` is `registering` while the carrier is
// asked (a crash between asking and recording is settled by asking the carrier for the shop's number),
// `registered` once it holds the order. `number` is the carrier's own (CDEK's cdek_number), known once the
// carrier has processed the order. `seen` lists the carrier's statuses already applied (code@time).
export const shipments = pgTable(
  'shipments',
  {
    orderId: integer('order_id')
      .primaryKey()
      .references(() => orders.id, { onDelete: 'cascade' }),
    carrier: text('carrier').notNull(),
    state: text('state').notNull().default('registering'),
    carrierUuid: text('carrier_uuid'),
    number: text('number'),
    status: text('status'),
    seen: jsonb('seen')
      .notNull()
      .default(sql`'[]'::jsonb`),
    intakeDate: date('intake_date', { mode: 'string' }),
    polledAt: timestamp('polled_at', { withTimezone: true }),
    // A client return made with the carrier, and the shop's refusal before handing over (issue 55, migration 0034).
    returnRequestedAt: timestamp('return_requested_at', { withTimezone: true }),
    refusedAt: timestamp('refused_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('shipments_carrier_uuid_idx').on(t.carrierUuid), index('shipments_polled_idx').on(t.polledAt)],
);

// A courier pickup asked of the carrier (CDEK's intakes): one per day, for that day's shipments.
export const carrierIntakes = pgTable('carrier_intakes', {
  intakeDate: date('intake_date', { mode: 'string' }).primaryKey(),
  carrier: text('carrier').notNull(),
  carrierUuid: text('carrier_uuid'),
  shipments: integer('shipments').notNull(),
  createdAt: createdAt(),
});

// A marked unit's code (Честный знак, issue 39, docs/marking.md): one row per unit of an order's marked line,
// scanned at packing. A code is sold once: while its row is 'sold' no other unit may take it; a return
// makes it 'returned', and it may be sold again.
export const orderMarks = pgTable(
  'order_marks',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    lineId: integer('line_id')
      .notNull()
      .references(() => orderLines.id, { onDelete: 'cascade' }),
    unit: smallint('unit').notNull(),
    gtin: text('gtin').notNull(),
    serial: text('serial').notNull(),
    code: text('code').notNull(),
    status: text('status').notNull().default('sold'),
    createdAt: createdAt(),
    returnedAt: timestamp('returned_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('order_marks_unit_uq').on(t.lineId, t.unit),
    // 'returning' while its refund is asked: still not free to sell.
    uniqueIndex('order_marks_sold_uq')
      .on(t.gtin, t.serial)
      .where(sql`status <> 'returned'`),
    index('order_marks_order_idx').on(t.orderId),
  ],
);

// A receipt the shop sends after the payment's own (issue 39, docs/marking.md): the settlement of a prepaid
// order with its marked units' codes when the goods are handed over, and a return's refund receipt. One
// row per idempotence key, so a retry or a restart sends the same receipt, never a second one.
export const receipts = pgTable(
  'receipts',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    // settlement | refund
    kind: text('kind').notNull(),
    provider: text('provider').notNull(),
    providerRef: text('provider_ref'),
    idempotenceKey: text('idempotence_key').notNull().unique(),
    amount: integer('amount').notNull(),
    lines: jsonb('lines').notNull(),
    // queued (not yet accepted by the provider) | pending | succeeded | canceled
    status: text('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('receipts_order_idx').on(t.orderId), index('receipts_status_idx').on(t.status)],
);

// A return of some of a delivered order's units (issue 39): the units (a marked one by its code), the card
// money refunded for them, and the refund's state. 'refunding' while the provider is asked; a row left so
// by a crash is finished by the housekeeping job with the same idempotence key.
export const orderReturns = pgTable(
  'order_returns',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    idempotenceKey: text('idempotence_key').notNull().unique(),
    amount: integer('amount').notNull(),
    units: jsonb('units').notNull(),
    // The refund receipt's lines, made once with the return so a finish after a crash sends the same.
    lines: jsonb('lines').notNull(),
    // refunding | refunded
    status: text('status').notNull().default('refunding'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('order_returns_order_idx').on(t.orderId)],
);

// ---------------------------------------------------------------- shared caches (issue 41)

// The purges a CDN in front owes (docs/operations.md "A CDN in front"): one row per cache tag a change
// touched, written by the catalogue's triggers (migration 0027) in the transaction of the change itself,
// so a change from the console, an import, 1C or an order is never without its purge, and a restart loses
// none. Rows are only appended (no unique tag): concurrent orders never wait on each other's tag rows. The
// purge job (src/features/cdn) reads them oldest first, sends each tag once, and deletes what it sent.
// `version`: the catalogue version (the `catalog_version` sequence) before the change's own move of it: a
// tag is purged only once every live process answers from a newer catalogue, so the CDN's next fetch never
// meets an origin still showing the old page.
export const cdnPurges = pgTable('cdn_purges', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  tag: text('tag').notNull(),
  version: bigint('version', { mode: 'number' }).notNull(),
  queuedAt: timestamp('queued_at', { withTimezone: true }).notNull().defaultNow(),
});

// Each running server process and the catalogue version its index (and so its pages) answers from,
// written after each build and every few seconds; a row not refreshed for 15 s belongs to a stopped process.
export const cdnOrigins = pgTable('cdn_origins', {
  process: text('process').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull(),
  seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
});

// Consents given and withdrawn (152-ФЗ, issue 54, migration 0029): one row per event, never changed.
export const consents = pgTable(
  'consents',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    customerId: integer('customer_id').references(() => customers.id, { onDelete: 'set null' }),
    email: text('email'),
    phone: text('phone'),
    // personal_data | marketing
    purpose: text('purpose').notNull(),
    // registration | checkout | buyout | newsletter | dashboard | mail | console
    source: text('source').notNull(),
    policyVersion: text('policy_version').notNull(),
    given: boolean('given').notNull(),
    orderId: integer('order_id').references(() => orders.id, { onDelete: 'set null' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('consents_customer_idx').on(t.customerId, t.at), index('consents_email_idx').on(sql`lower(${t.email})`, t.at)],
);

// Money taken at the door, as the carriers' registers say they transferred it (issue 55, migration 0033).
export const codTransfers = pgTable('cod_transfers', {
  id: serial('id').primaryKey(),
  orderId: integer('order_id')
    .notNull()
    .unique('cod_transfers_order_uq')
    .references(() => orders.id, { onDelete: 'cascade' }),
  carrier: text('carrier').notNull(),
  registry: text('registry').notNull(),
  paidOn: date('paid_on', { mode: 'string' }),
  paymentOrder: text('payment_order'),
  collected: integer('collected').notNull(),
  commission: integer('commission').notNull(),
  transferred: integer('transferred').notNull(),
  createdAt: createdAt(),
});

// Promotions and their codes (issue 56, migration 0035, docs/promotions.md).
export const promotions = pgTable(
  'promotions',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    rule: jsonb('rule').notNull(),
    target: jsonb('target').notNull(),
    cap: integer('cap'),
    needsCode: boolean('needs_code').notNull().default(false),
    status: text('status').notNull().default('active'),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    limitTotal: integer('limit_total'),
    limitPerCustomer: integer('limit_per_customer'),
    uses: integer('uses').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('promotions_status_ck', sql`${t.status} IN ('active', 'paused', 'archived')`),
    check('promotions_cap_ck', sql`${t.cap} IS NULL OR ${t.cap} > 0`),
    check('promotions_uses_ck', sql`${t.uses} >= 0 AND (${t.limitTotal} IS NULL OR ${t.uses} <= ${t.limitTotal})`),
  ],
);

export const promotionCodes = pgTable(
  'promotion_codes',
  {
    id: serial('id').primaryKey(),
    promotionId: integer('promotion_id')
      .notNull()
      .references(() => promotions.id, { onDelete: 'cascade' }),
    code: text('code').notNull().unique('promotion_codes_code_uq'),
    limitTotal: integer('limit_total'),
    uses: integer('uses').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index('promotion_codes_promotion_idx').on(t.promotionId),
    check('promotion_codes_uses_ck', sql`${t.uses} >= 0 AND (${t.limitTotal} IS NULL OR ${t.uses} <= ${t.limitTotal})`),
  ],
);

export const promotionUses = pgTable(
  'promotion_uses',
  {
    id: serial('id').primaryKey(),
    promotionId: integer('promotion_id')
      .notNull()
      .references(() => promotions.id, { onDelete: 'cascade' }),
    codeId: integer('code_id').references(() => promotionCodes.id, { onDelete: 'set null' }),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    customerKeys: text('customer_keys').array().notNull(),
    releasedAt: timestamp('released_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('promotion_uses_customer_idx')
      .using('gin', t.customerKeys)
      .where(sql`${t.releasedAt} IS NULL`),
    index('promotion_uses_order_idx').on(t.orderId),
  ],
);

export const orderPromotions = pgTable(
  'order_promotions',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    promotionId: integer('promotion_id').references(() => promotions.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    cls: text('class').notNull(),
    code: text('code'),
    amount: integer('amount').notNull(),
    lines: jsonb('lines')
      .notNull()
      .default(sql`'[]'::jsonb`),
  },
  (t) => [index('order_promotions_order_idx').on(t.orderId)],
);

// When the promotions' starts and ends were last looked at (migration 0036): one row, moved forward by
// promotions_tick() from the housekeeping job; a start or end passed since moves the catalogue's version.
export const promotionClock = pgTable('promotion_clock', {
  id: integer('id').primaryKey().default(1),
  checkedAt: timestamp('checked_at', { withTimezone: true }).notNull().defaultNow(),
});

// Gift certificates (issue 56, migration 0037): the nominal values the console offers, each certificate
// (bought as an order of kind 'certificate'), and each order's use of one — `returned` of it given back.
export const giftNominals = pgTable(
  'gift_nominals',
  {
    amount: integer('amount').primaryKey(),
    createdAt: createdAt(),
  },
  (t) => [check('gift_nominals_amount_ck', sql`${t.amount} >= 10000 AND ${t.amount} <= 50000000`)],
);

export const giftCertificates = pgTable(
  'gift_certificates',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull().unique('gift_certificates_code_uq'),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    nominal: integer('nominal').notNull(),
    balance: integer('balance').notNull(),
    status: text('status').notNull().default('pending'),
    recipientEmail: text('recipient_email').notNull(),
    recipientName: text('recipient_name').notNull().default(''),
    senderName: text('sender_name').notNull().default(''),
    message: text('message').notNull().default(''),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    activatedAt: timestamp('activated_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('gift_certificates_order_idx').on(t.orderId),
    check('gift_certificates_status_ck', sql`${t.status} IN ('pending', 'active', 'void')`),
    check('gift_certificates_balance_ck', sql`${t.balance} >= 0 AND ${t.balance} <= ${t.nominal}`),
  ],
);

export const giftCertificateUses = pgTable(
  'gift_certificate_uses',
  {
    id: serial('id').primaryKey(),
    certificateId: integer('certificate_id')
      .notNull()
      .references(() => giftCertificates.id, { onDelete: 'cascade' }),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    amount: integer('amount').notNull(),
    returned: integer('returned').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('gift_certificate_uses_certificate_idx').on(t.certificateId),
    index('gift_certificate_uses_order_idx').on(t.orderId),
    check('gift_certificate_uses_amount_ck', sql`${t.amount} > 0 AND ${t.returned} >= 0 AND ${t.returned} <= ${t.amount}`),
  ],
);

// Reviews with size fit (issue 57, migration 0038): one a bought line (the demo's have none), shown once
// approved; the votes that make one "useful", once per visitor.
export const reviews = pgTable(
  'reviews',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    orderLineId: integer('order_line_id')
      .references(() => orderLines.id, { onDelete: 'set null' })
      .unique('reviews_line_uq'),
    customerId: integer('customer_id').references(() => customers.id, { onDelete: 'set null' }),
    source: text('source').notNull().default('customer'),
    author: text('author').notNull(),
    email: text('email').notNull().default(''),
    rating: smallint('rating').notNull(),
    fit: text('fit'),
    sizeLabel: text('size_label').notNull().default(''),
    liked: text('liked').notNull().default(''),
    disliked: text('disliked').notNull().default(''),
    comment: text('comment').notNull().default(''),
    photos: jsonb('photos')
      .notNull()
      .default(sql`'[]'::jsonb`),
    status: text('status').notNull().default('pending'),
    rejectReason: text('reject_reason').notNull().default(''),
    reply: text('reply').notNull().default(''),
    useful: integer('useful').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    publishedAt: timestamp('published_at', { withTimezone: true }),
  },
  (t) => [
    index('reviews_product_idx')
      .on(t.productId, t.publishedAt.desc())
      .where(sql`${t.status} = 'approved'`),
    index('reviews_queue_idx').on(t.status, t.createdAt.desc()),
    index('reviews_customer_idx').on(t.customerId),
    check('reviews_rating_ck', sql`${t.rating} BETWEEN 1 AND 5`),
    check('reviews_fit_ck', sql`${t.fit} IS NULL OR ${t.fit} IN ('small', 'true', 'large')`),
    check('reviews_status_ck', sql`${t.status} IN ('pending', 'approved', 'rejected', 'hidden')`),
    check('reviews_source_ck', sql`${t.source} IN ('customer', 'demo')`),
    check('reviews_useful_ck', sql`${t.useful} >= 0`),
  ],
);

export const reviewVotes = pgTable(
  'review_votes',
  {
    reviewId: integer('review_id')
      .notNull()
      .references(() => reviews.id, { onDelete: 'cascade' }),
    voter: text('voter').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ name: 'review_votes_pk', columns: [t.reviewId, t.voter] })],
);
