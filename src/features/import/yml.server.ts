// Yandex Market Language (YML) as plain offers: the feed's currencies, its category tree, then its offers in
// batches, each offer read and checked on its own — a broken one is one problem line, never the run. The
// field-by-field mapping is docs/import.md's table; the quirks it survives are SOURCES.md §1's.
import { safeDescription } from '../../lib/safe-html.server.ts';
import { t } from '../../lib/i18n/index.ts';
import { child, childrenNamed, childText, innerMarkup, rawText, readXml, textOf, type XmlElement } from './xml.server.ts';
import { measure, sourceParcel, type ImportProblem, type SourceCategory, type SourceOffer, type SourceParcel } from './import.ts';

export type YmlEvent = { kind: 'categories'; categories: SourceCategory[] } | { kind: 'offers'; offers: SourceOffer[] };

const SIZE_PARAM = /^(размер|size|размер обуви|размер одежды|shoe size)$/i;
const COLOR_PARAM = /^(цвет|color|colour)$/i;
const PICTURES_MAX = 20;

/** A price as feeds write it ('3650.00', '1 990', '41,5') in kopecks; null when it is not a positive amount. */
export function parseAmount(text: string): number | null {
  const normal = text.replace(/[\s\u00a0]/g, '').replace(',', '.');
  if (!/^\d+(\.\d+)?$/.test(normal)) return null;
  const kopecks = Math.round(Number(normal) * 100);
  return Number.isSafeInteger(kopecks) && kopecks > 0 && kopecks < 2 ** 31 ? kopecks : null;
}

function readCategory(element: XmlElement, problems: ImportProblem[]): SourceCategory | null {
  const id = (element.attrs['id'] ?? '').trim();
  const name = textOf(element);
  const parent = (element.attrs['parentId'] ?? '').trim();
  if (!id) {
    problems.push({ severity: 'error', id: 'category:', line: element.line, reason: 'a category without an id' });
    return null;
  }
  if (!name) {
    problems.push({ severity: 'warning', id: `category:${id}`, line: element.line, reason: 'a category without a name: named by its id' });
  }
  return { id, parentId: parent || null, name: name || t('ru', 'import.category', { id }), line: element.line };
}

/** Roubles per unit of each currency the feed declares with a number (RUB and RUR are 1). */
function readRate(element: XmlElement, rates: Map<string, number>): void {
  const id = (element.attrs['id'] ?? '').trim().toUpperCase();
  const rate = Number((element.attrs['rate'] ?? '').trim().replace(',', '.'));
  const plus = Number((element.attrs['plus'] ?? '0').trim().replace(',', '.')) || 0;
  if (id && Number.isFinite(rate) && rate > 0) rates.set(id, rate * (1 + plus / 100));
}

/** The offer's price and old price in kopecks, at the feed's rate for its currency; a string is why there is none. */
function readPrices(
  element: XmlElement,
  rates: ReadonlyMap<string, number>,
  warn: (reason: string) => void,
): { price: number; priceOld: number | null } | string {
  const currency = (childText(element, 'currencyId') || 'RUB').toUpperCase();
  const rate = currency === 'RUB' || currency === 'RUR' ? 1 : rates.get(currency);
  if (rate === undefined) return `the price is in ${currency}, and the feed gives no rate for it in roubles`;
  const priceText = childText(element, 'price');
  const amount = parseAmount(priceText);
  if (amount === null) return priceText ? `the price "${priceText}" is not a positive amount` : 'no <price>';
  const price = Math.round(amount * rate);
  const oldText = childText(element, 'oldprice');
  let priceOld: number | null = null;
  if (oldText) {
    const old = parseAmount(oldText);
    if (old === null) warn(`the old price "${oldText}" is not a positive amount: left out`);
    else if (Math.round(old * rate) > price) priceOld = Math.round(old * rate);
  }
  return { price, priceOld };
}

/** The offer's stock: its count, none when it is not available, null when only availability is said. */
function readStock(element: XmlElement, available: boolean, warn: (reason: string) => void): number | null {
  const countText = childText(element, 'count') || childText(element, 'quantity');
  let stock: number | null = null;
  if (countText) {
    const count = Number(countText);
    if (Number.isInteger(count) && count >= 0 && count < 1_000_000) stock = count;
    else warn(`the stock "${countText}" is not a whole number: availability used instead`);
  }
  return available ? stock : 0;
}

/** The offer's params: its size, its colour, and the rest as attributes (one per name, values joined). */
function readParams(element: XmlElement): Pick<SourceOffer, 'size' | 'color' | 'attributes'> {
  let size: string | null = null;
  let color: string | null = null;
  const attributes: { name: string; value: string }[] = [];
  for (const param of childrenNamed(element, 'param')) {
    const paramName = (param.attrs['name'] ?? '').replace(/\s+/g, ' ').trim();
    const value = textOf(param);
    if (!paramName || !value) continue;
    if (SIZE_PARAM.test(paramName)) size ??= value;
    else if (COLOR_PARAM.test(paramName)) color ??= value.charAt(0).toUpperCase() + value.slice(1);
    else {
      const unit = (param.attrs['unit'] ?? '').trim();
      const full = unit ? `${value} ${unit}` : value;
      const same = attributes.find((a) => a.name.toLowerCase() === paramName.toLowerCase());
      if (!same) attributes.push({ name: paramName, value: full });
      else if (!same.value.split(', ').includes(full)) same.value += `, ${full}`;
    }
  }
  return { size, color, attributes };
}

/** The distinct texts of the children with this name. */
const distinctTexts = (element: XmlElement, name: string) => [
  ...new Set(
    childrenNamed(element, name)
      .map((e) => textOf(e))
      .filter(Boolean),
  ),
];

/** The offer's name; vendor.model offers are named by their parts, artist.title ones (music, films) by artist and title. */
function offerName(element: XmlElement, vendor: string): string {
  const name = childText(element, 'name');
  if (name) return name;
  return (
    [childText(element, 'typePrefix'), vendor, childText(element, 'model')].filter(Boolean).join(' ') ||
    [childText(element, 'artist'), childText(element, 'title')].filter(Boolean).join(' — ')
  );
}

function readOffer(element: XmlElement, rates: ReadonlyMap<string, number>, problems: ImportProblem[], pricesOnly = false): SourceOffer | null {
  const id = (element.attrs['id'] ?? '').trim();
  const line = element.line;
  const fail = (reason: string) => {
    problems.push({ severity: 'error', id, line, reason });
    return null;
  };
  const warn = (reason: string) => problems.push({ severity: 'warning', id, line, reason });
  if (!id) return fail('an offer without an id');
  if (element.problem) return fail(element.problem);
  const group = (element.attrs['group_id'] ?? childText(element, 'group_id')).trim();
  const vendor = childText(element, 'vendor');
  const name = offerName(element, vendor);
  if (!name && !pricesOnly) return fail('no <name> (nor <model>, nor <title>)');
  const prices = readPrices(element, rates, warn);
  if (typeof prices === 'string') return fail(prices);
  const available = (element.attrs['available'] ?? 'true').trim().toLowerCase() !== 'false';
  const stock = readStock(element, available, warn);
  const descriptionElement = child(element, 'description');
  return {
    id,
    productKey: group ? `g:${group}` : `o:${id}`,
    line,
    name,
    vendor,
    categoryId: childText(element, 'categoryId') || null,
    ...prices,
    stock,
    available,
    pictures: distinctTexts(element, 'picture').slice(0, PICTURES_MAX),
    description: descriptionElement
      ? safeDescription(descriptionElement.children.length > 0 ? innerMarkup(descriptionElement) : rawText(descriptionElement))
      : '',
    ...readParams(element),
    vendorCode: childText(element, 'vendorCode'),
    barcodes: distinctTexts(element, 'barcode'),
    salesNotes: childText(element, 'sales_notes'),
    url: childText(element, 'url'),
    parcel: readParcel(element, id, line, problems),
  };
}

/** YML's <weight> (kilograms, with the packing) and <dimensions> ("length/width/height" in centimetres). */
function readParcel(element: XmlElement, id: string, line: number, problems: ImportProblem[]): SourceParcel {
  const warn = (reason: string) => problems.push({ severity: 'warning', id, line, reason });
  const weightText = childText(element, 'weight');
  const dimensionsText = childText(element, 'dimensions');
  const kg = weightText ? measure(weightText) : null;
  // A zero weight is a feed's "unknown"; anything else that is not a number is worth a line.
  if (weightText && kg === null && Number(weightText.replace(',', '.')) !== 0)
    warn(`the weight "${weightText}" is not a positive number of kilograms: left out`);
  const sides = dimensionsText ? dimensionsText.split('/').map(measure) : null;
  return sourceParcel(kg, sides, warn);
}

const CATEGORY = ['yml_catalog', 'shop', 'categories', 'category'];
const CURRENCY = ['yml_catalog', 'shop', 'currencies', 'currency'];
const OFFER = ['yml_catalog', 'shop', 'offers', 'offer'];
const at = (path: readonly string[], wanted: readonly string[]) => path.length === wanted.length && path.every((p, i) => p === wanted[i]);

/** Whether a path is an offer's opening (for counting offers in a first pass). */
export const isYmlOffer = (path: readonly string[]) => at(path, OFFER);

/** What `--prices-stock` does not read: the offers are built without it, about twice as fast. */
const NOT_PRICES = new Set([
  'description',
  'name',
  'model',
  'typePrefix',
  'artist',
  'title',
  'vendor',
  'picture',
  'param',
  'url',
  'sales_notes',
  'barcode',
  'vendorCode',
  'delivery-options',
  'pickup-options',
  'weight',
  'dimensions',
]);

/**
 * Reads a YML document: the categories once (before the first offers, or at the end of a feed without
 * any), then the offers, a batch per chunk of input. Problems are pushed onto `problems` as they are met.
 */
export async function* readYml(source: AsyncIterable<Uint8Array>, problems: ImportProblem[], options: { pricesOnly?: boolean } = {}): AsyncGenerator<YmlEvent> {
  const categories: SourceCategory[] = [];
  const rates = new Map<string, number>();
  let categoriesSent = false;
  let root: string | undefined;
  const wanted = (path: readonly string[]) => at(path, CATEGORY) || at(path, CURRENCY) || at(path, OFFER);
  for await (const batch of readXml(source, {
    wanted,
    ...(options.pricesOnly ? { skip: NOT_PRICES, emptyLongCData: true } : {}),
    onOpen: (path) => {
      if (path.length === 1) root = path[0];
    },
  })) {
    const offers: SourceOffer[] = [];
    for (const { path, element } of batch) {
      if (at(path, CATEGORY)) {
        const category = readCategory(element, problems);
        if (category) categories.push(category);
      } else if (at(path, CURRENCY)) readRate(element, rates);
      else {
        const offer = readOffer(element, rates, problems, options.pricesOnly);
        if (offer) offers.push(offer);
      }
    }
    if (offers.length > 0 && !categoriesSent) {
      categoriesSent = true;
      yield { kind: 'categories', categories };
    }
    if (offers.length > 0) yield { kind: 'offers', offers };
  }
  if (root !== 'yml_catalog')
    throw new YmlFormatError(root ? `the file is XML, but not YML: its root element is <${root}>, not <yml_catalog>` : 'the file holds no XML element');
  if (!categoriesSent) yield { kind: 'categories', categories };
}

export class YmlFormatError extends Error {
  override name = 'YmlFormatError';
}
