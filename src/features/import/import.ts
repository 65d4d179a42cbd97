import { t } from '../../lib/i18n/index.ts';

// What an import reads and reports, whatever the format: the plain offers a reader yields (yml.server.ts),
// the summary the CLI prints and the error lines it writes (docs/import.md).

/** One category of the feed, by the feed's own ids. */
export interface SourceCategory {
  id: string;
  parentId: string | null;
  name: string;
  line: number;
}

/** One offer, read and checked: one size of one product. Prices in kopecks. */
export interface SourceOffer {
  /** The feed's offer id (unique in a feed). */
  id: string;
  /** The product it is a size of: the offer's group, or the offer itself. */
  productKey: string;
  line: number;
  name: string;
  vendor: string;
  categoryId: string | null;
  price: number;
  priceOld: number | null;
  /** Null when the feed says only "available" (the importer's default applies). */
  stock: number | null;
  available: boolean;
  pictures: string[];
  /** Safe HTML (sanitised). */
  description: string;
  size: string | null;
  color: string | null;
  /** Other parameters, in the feed's order: name (with its unit) and value. */
  attributes: { name: string; value: string }[];
  vendorCode: string;
  barcodes: string[];
  salesNotes: string;
  url: string;
  /** The product's own parcel when the source gives it (YML <weight>/<dimensions>, 1C's "Вес"/"Габарит_*"). */
  parcel: SourceParcel;
}

/** A product's own weight (grams) and size (whole centimetres, all three sides or none); null where unknown. */
export interface SourceParcel {
  weight: number | null;
  length: number | null;
  width: number | null;
  height: number | null;
}

export const NO_PARCEL: SourceParcel = { weight: null, length: null, width: null, height: null };

/** The largest item a product may declare; beyond it the source's figure is taken for a typo and left out. */
const MAX_ITEM_KG = 100;
const MAX_ITEM_CM = 300;

/** A positive measure as feeds write it ("1.03", "1,4", " 20.800 "); null for anything else. */
export function measure(text: string): number | null {
  const value = Number(text.trim().replace(',', '.'));
  return text.trim() !== '' && Number.isFinite(value) && value > 0 ? value : null;
}

/**
 * A product's parcel from a weight in kilograms and three sides in centimetres, as read (null: not given).
 * A zero weight is "not given" (1C writes 0 for goods nobody weighed); a figure past the limits, or sides
 * that are not all three, cost a warning and are left out.
 */
export function sourceParcel(kg: number | null, sides: readonly (number | null)[] | null, warn: (reason: string) => void): SourceParcel {
  const parcel = { ...NO_PARCEL };
  if (kg !== null) {
    if (kg > MAX_ITEM_KG) warn(`the weight ${kg} kg is over ${MAX_ITEM_KG} kg: left out`);
    else parcel.weight = Math.max(1, Math.round(kg * 1000));
  }
  if (sides !== null) {
    const [length, width, height] = sides;
    if (sides.length !== 3 || length == null || width == null || height == null) warn('the dimensions are not three positive lengths: left out');
    else if (Math.max(length, width, height) > MAX_ITEM_CM) warn(`a side is over ${MAX_ITEM_CM} cm: the dimensions are left out`);
    else Object.assign(parcel, { length: Math.ceil(length), width: Math.ceil(width), height: Math.ceil(height) });
  }
  return parcel;
}

export type Severity = 'error' | 'warning';

/** One line of the error report: an offer (or category) that cost one line, never the run. */
export interface ImportProblem {
  severity: Severity;
  /** The offer's id, `category:<id>`, or '' for the file as a whole. */
  id: string;
  line: number;
  reason: string;
}

export interface ImportSummary {
  new: number;
  changed: number;
  unchanged: number;
  hidden: number;
  images: number;
  errors: number;
}

export const emptySummary = (): ImportSummary => ({ new: 0, changed: 0, unchanged: 0, hidden: 0, images: 0, errors: 0 });

/** The label of a product's only size when the feed gives none (as the generated catalogue writes it). */
export const ONE_SIZE = t('ru', 'import.oneSize');

/** The report as CSV (RFC 4180): a header, then one row per problem. */
export function problemsCsv(problems: readonly ImportProblem[]): string {
  const cell = (value: string | number) => {
    const text = String(value);
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  return ['severity,offer_id,line,reason', ...problems.map((p) => [p.severity, p.id, p.line, p.reason].map(cell).join(','))].join('\r\n') + '\r\n';
}
