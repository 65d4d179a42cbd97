// CommerceML 2 (2.03–2.10) as 1C and MoySklad write it, read as plain records: the classifier's groups,
// properties and price types, the catalogue's products (import.xml), the offers' sizes, prices and stock
// (offers.xml, or the split prices/rests files of 2.08+), and order documents (the sale exchange). Each
// record is read on its own: a broken one is one problem line, never the file. The quirks it survives are
// SOURCES.md §2's; the mapping is docs/exchange-1c.md's table.
import { escapeHtml } from '../../lib/html.ts';
import { safeDescription } from '../../lib/safe-html.server.ts';
import { child, childrenNamed, childText, parseAmount, rawText, readXml, textOf, type XmlElement } from '../import/import.parts.server.ts';
import { measure, sourceParcel, type ImportProblem, type SourceCategory, type SourceParcel } from '../import/import.ts';
import {
  BRAND_PROPERTY,
  COLOR_PROPERTY,
  DELETED,
  E,
  GABARIT_METRES_MAX,
  GABARIT,
  RETAIL_PRICE_TYPE,
  ROUBLES,
  SIZE_PROPERTY,
  VERSION_SETTING,
  WEIGHT_REQUISITE,
} from './cml-words.ts';

export interface CmlProperty {
  name: string;
  /** A dictionary property's values by their ids. */
  values: Record<string, string>;
}

export interface CmlPriceType {
  name: string;
  currency: string;
  /** The order 1C declared it in (jsonb keeps no key order). */
  order: number;
}

/** What the classifier and earlier files taught: kept between files and exchanges (exchange_state). */
export interface CmlContext {
  properties: Record<string, CmlProperty>;
  priceTypes: Record<string, CmlPriceType>;
  /** The price type the shop sells at, by name (EXCHANGE_PRICE_TYPE); else the retail one, else the first. */
  priceTypeName?: string | undefined;
  /** The price type shown struck through, by name (EXCHANGE_OLD_PRICE_TYPE). */
  oldPriceTypeName?: string | undefined;
}

export interface CmlProduct {
  id: string;
  line: number;
  name: string;
  article: string;
  groupId: string | null;
  /** Safe HTML. */
  description: string;
  pictures: string[];
  barcodes: string[];
  vendor: string;
  color: string | null;
  size: string | null;
  attributes: { name: string; value: string }[];
  /** Its own weight and size (1C's "Вес" or "Габарит_*"); absent in products stored before parcels were read. */
  parcel?: SourceParcel;
  deleted: boolean;
}

/** What one file says of an offer; a field left out is left as an earlier file set it. */
export interface CmlOffer {
  id: string;
  productId: string;
  line: number;
  name?: string;
  size?: string | null;
  color?: string | null;
  /** Kopecks; null when the file's price could not be used (see priceProblem). */
  price?: number | null;
  priceOld?: number | null;
  priceProblem?: string;
  stock?: number;
  deleted?: boolean;
}

export interface CmlDocument {
  id: string;
  number: string;
  line: number;
  requisites: { name: string; value: string }[];
}

export type CmlEvent =
  | { kind: 'groups'; categories: SourceCategory[] }
  | { kind: 'products'; products: CmlProduct[] }
  | { kind: 'offers'; offers: CmlOffer[] }
  | { kind: 'documents'; documents: CmlDocument[] };

/** What the file is, known from its root and sections once reading has begun. */
export interface CmlHeader {
  version: string;
  /** `Каталог СодержитТолькоИзменения="false"`: the file lists the whole catalogue. */
  fullCatalogue: boolean;
  /** `ПакетПредложений СодержитТолькоИзменения="false"`: the file lists every offer. */
  fullOffers: boolean;
  hasCatalogue: boolean;
  hasOffers: boolean;
}

export class CmlFormatError extends Error {
  override name = 'CmlFormatError';
}

const PICTURES_MAX = 20;
const EMPTY_ID = /^0{8}-0{4}-0{4}-0{4}-0{12}$/;

/** Whether a schema version is one this exchange reads: 2.03 to 2.10. */
export function supportedVersion(version: string): boolean {
  const match = /^2\.(\d\d)/.exec(version.trim());
  return match !== null && Number(match[1]) >= 3 && Number(match[1]) <= 10;
}

/** Refuses a file that is not CommerceML 2.03–2.10, before anything of it is used. */
export function checkRoot(root: string | undefined, version: string): void {
  if (root !== E.root) throw new CmlFormatError(`not a CommerceML file: its root element is <${root ?? '?'}>, not <${E.root}>`);
  if (!version) throw new CmlFormatError(`the file does not say its schema version (${E.version})`);
  if (!supportedVersion(version))
    throw new CmlFormatError(
      `CommerceML ${version} is not supported: set the exchange in 1C (or MoySklad) to schema version 2.03–2.10 (in 1C: "${VERSION_SETTING}" of the exchange node)`,
    );
}

const truthy = (text: string) => /^(true|да|1)$/i.test(text.trim());

/** 1C's plain-text description as paragraphs; an HTML one (ФорматHTML="true") sanitised. */
function description(element: XmlElement | undefined): string {
  if (!element) return '';
  const text = rawText(element).trim();
  if (!text) return '';
  if (truthy(element.attrs[E.htmlFormat] ?? '')) return safeDescription(text);
  return text
    .split(/\r?\n\s*\r?\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${escapeHtml(p).replace(/\r?\n/g, '<br>')}</p>`)
    .join('');
}

function readGroups(element: XmlElement, parentId: string | null, out: SourceCategory[], problems: ImportProblem[]): void {
  for (const group of childrenNamed(element, E.group)) {
    const id = childText(group, E.id);
    if (!id) {
      problems.push({ severity: 'error', id: 'category:', line: group.line, reason: 'a group without an id' });
      continue;
    }
    if (truthy(childText(group, E.deletionMark))) continue;
    out.push({ id, parentId, name: childText(group, E.name) || id, line: group.line });
    const nested = child(group, E.groups);
    if (nested) readGroups(nested, id, out, problems);
  }
}

function readProperty(element: XmlElement, context: CmlContext): void {
  const id = childText(element, E.id);
  if (!id) return;
  const values: Record<string, string> = { ...context.properties[id]?.values };
  for (const entry of child(element, E.variants)?.children ?? []) {
    const valueId = childText(entry, E.valueId);
    const value = childText(entry, E.value);
    if (valueId && value) values[valueId] = value;
  }
  context.properties[id] = { name: childText(element, E.name) || context.properties[id]?.name || id, values };
}

function readPriceType(element: XmlElement, context: CmlContext): void {
  const id = childText(element, E.id);
  if (!id) return;
  const order = context.priceTypes[id]?.order ?? Object.keys(context.priceTypes).length;
  context.priceTypes[id] = { name: childText(element, E.name), currency: childText(element, E.currency), order };
}

/** A property value by its id in the classifier's dictionary, or as written. */
function propertyValue(context: CmlContext, propertyId: string, raw: string): string {
  if (!raw || EMPTY_ID.test(raw)) return '';
  return context.properties[propertyId]?.values[raw] ?? raw;
}

/** A record's id, or null (and one problem line) when it has none or could not be read whole. */
function recordId(element: XmlElement, what: string, problems: ImportProblem[]): string | null {
  const id = childText(element, E.id);
  if (!id) problems.push({ severity: 'error', id: '', line: element.line, reason: `${what} without an id` });
  else if (element.problem) problems.push({ severity: 'error', id, line: element.line, reason: element.problem });
  return id && !element.problem ? id : null;
}

function readProduct(element: XmlElement, context: CmlContext, problems: ImportProblem[]): CmlProduct | null {
  const id = recordId(element, 'a product', problems);
  const line = element.line;
  if (id === null) return null;
  const deleted = (element.attrs[E.status] ?? '').trim() === DELETED || truthy(childText(element, E.deletionMark));
  const name = childText(element, E.name);
  if (!name && !deleted) {
    problems.push({ severity: 'error', id, line, reason: `no <${E.name}>` });
    return null;
  }
  const maker = child(element, E.maker);
  let vendor = maker ? childText(maker, E.name) : '';
  let color: string | null = null;
  let size: string | null = null;
  const attributes: { name: string; value: string }[] = [];
  const gabarit = new Map<Gabarit, number | null>();
  for (const entry of childrenNamed(child(element, E.propertyValues) ?? element, E.propertyValue)) {
    const propertyId = childText(entry, E.id);
    const values = childrenNamed(entry, E.value)
      .map((v) => propertyValue(context, propertyId, textOf(v)))
      .filter(Boolean);
    const propertyName = context.properties[propertyId]?.name ?? childText(entry, E.name);
    if (values.length === 0 || !propertyName) continue;
    const value = values.join(', ');
    if (BRAND_PROPERTY.test(propertyName)) vendor ||= value;
    else if (COLOR_PROPERTY.test(propertyName)) color ??= value.charAt(0).toUpperCase() + value.slice(1);
    else if (SIZE_PROPERTY.test(propertyName)) size ??= value;
    else if (gabaritOf(propertyName)) gabarit.set(gabaritOf(propertyName) as Gabarit, measure(value));
    else if (!attributes.some((a) => a.name.toLowerCase() === propertyName.toLowerCase())) attributes.push({ name: propertyName, value });
  }
  for (const characteristic of childrenNamed(child(element, E.characteristics) ?? element, E.characteristic)) {
    const label = childText(characteristic, E.name);
    const value = childText(characteristic, E.value);
    if (SIZE_PROPERTY.test(label)) size ??= value || null;
    else if (COLOR_PROPERTY.test(label)) color ??= value || null;
  }
  const groups = child(element, E.groups);
  return {
    id,
    line,
    name,
    article: childText(element, E.article),
    groupId: (groups && childText(groups, E.id)) || null,
    description: description(child(element, E.description)),
    pictures: [
      ...new Set(
        childrenNamed(element, E.picture)
          .map((p) => textOf(p))
          .filter(Boolean),
      ),
    ].slice(0, PICTURES_MAX),
    barcodes: [
      ...new Set(
        childrenNamed(element, E.barcode)
          .map((b) => textOf(b))
          .filter(Boolean),
      ),
    ],
    vendor,
    color,
    size,
    attributes,
    parcel: readParcel(element, gabarit, (reason) => problems.push({ severity: 'warning', id, line, reason })),
    deleted,
  };
}

type Gabarit = keyof typeof GABARIT;
const gabaritOf = (name: string) => (Object.keys(GABARIT) as Gabarit[]).find((key) => GABARIT[key].test(name));
const SIDES = ['length', 'width', 'height'] as const;

/** The product's weight and size: the requisite "Вес", else "Габарит_Вес"; the sides from "Габарит_*" (cml-words.ts). */
function readParcel(element: XmlElement, gabarit: ReadonlyMap<Gabarit, number | null>, warn: (reason: string) => void): SourceParcel {
  const requisite = childrenNamed(child(element, E.requisites) ?? element, E.requisite).find((r) => WEIGHT_REQUISITE.test(childText(r, E.name)));
  const kg = (requisite && measure(childText(requisite, E.value))) ?? gabarit.get('weight') ?? null;
  if (!SIDES.some((side) => gabarit.has(side))) return sourceParcel(kg, null, warn);
  const sides = SIDES.map((side) => gabarit.get(side) ?? null);
  const metres = sides.every((v) => v === null || v <= GABARIT_METRES_MAX);
  return sourceParcel(
    kg,
    sides.map((v) => (v !== null && metres ? v * 100 : v)),
    warn,
  );
}

/** The id of the price type the shop sells at among an offer's: by name when told, else the retail one, else the first declared. */
function chosenPriceType(context: CmlContext, name: string | undefined, offered: readonly string[]): string | undefined {
  const types = Object.entries(context.priceTypes)
    .filter(([id]) => offered.includes(id))
    .sort(([, a], [, b]) => a.order - b.order);
  if (name) return types.find(([, type]) => type.name.trim().toLowerCase() === name.trim().toLowerCase())?.[0];
  return (types.find(([, type]) => RETAIL_PRICE_TYPE.test(type.name)) ?? types[0])?.[0];
}

/** An offer's stock: <Количество>, else the warehouses' amounts (attributes, or the nested 2.08+ form). */
function readStock(element: XmlElement): number | undefined {
  const amount = (text: string) => {
    const value = Number(text.replace(',', '.').replace(/\s/g, ''));
    return Number.isFinite(value) ? Math.max(0, Math.floor(value)) : undefined;
  };
  const direct = child(element, E.quantity);
  if (direct) return amount(textOf(direct));
  let total: number | undefined;
  const add = (value: number | undefined) => {
    if (value !== undefined) total = Math.min(999_999, (total ?? 0) + value);
  };
  for (const warehouse of childrenNamed(element, E.warehouse)) add(amount(warehouse.attrs[E.warehouseQuantity] ?? ''));
  for (const rest of childrenNamed(child(element, E.rests) ?? element, E.rest)) {
    const warehouses = childrenNamed(rest, E.warehouse);
    if (warehouses.length === 0) add(amount(childText(rest, E.quantity)));
    for (const warehouse of warehouses) add(amount(childText(warehouse, E.quantity)));
  }
  return total;
}

function readOffer(element: XmlElement, context: CmlContext, problems: ImportProblem[]): CmlOffer | null {
  const id = recordId(element, 'an offer', problems);
  const line = element.line;
  if (id === null) return null;
  const offer: CmlOffer = { id, productId: id.split('#')[0] || id, line };
  const name = childText(element, E.name);
  if (name) offer.name = name;
  if ((element.attrs[E.status] ?? '').trim() === DELETED || truthy(childText(element, E.deletionMark))) offer.deleted = true;
  const characteristics = child(element, E.characteristics);
  if (characteristics) {
    offer.size = null;
    offer.color = null;
    for (const characteristic of childrenNamed(characteristics, E.characteristic)) {
      const label = childText(characteristic, E.name);
      const value = childText(characteristic, E.value);
      if (SIZE_PROPERTY.test(label)) offer.size ??= value || null;
      else if (COLOR_PROPERTY.test(label)) offer.color ??= value ? value.charAt(0).toUpperCase() + value.slice(1) : null;
    }
  }
  const prices = child(element, E.prices);
  if (prices) {
    const all = childrenNamed(prices, E.price);
    const pick = (typeId: string | undefined) => (typeId === undefined ? undefined : all.find((p) => childText(p, E.priceTypeId) === typeId));
    const offered = all.map((p) => childText(p, E.priceTypeId));
    const wanted = chosenPriceType(context, context.priceTypeName, offered);
    const price = context.priceTypeName ? pick(wanted) : (pick(wanted) ?? all[0]);
    const amountOf = (entry: XmlElement): { kopecks: number | null; problem?: string } => {
      const typeId = childText(entry, E.priceTypeId);
      const currency = childText(entry, E.currency) || context.priceTypes[typeId]?.currency || 'RUB';
      if (!ROUBLES.test(currency.trim())) return { kopecks: null, problem: `the price is in ${currency}; the exchange takes prices in roubles (RUB)` };
      const text = childText(entry, E.unitPrice);
      const kopecks = parseAmount(text);
      return kopecks === null ? { kopecks, problem: `the price "${text}" is not a positive amount` } : { kopecks };
    };
    if (!price) {
      offer.price = null;
      offer.priceProblem = context.priceTypeName
        ? `no price of the type «${context.priceTypeName}» (EXCHANGE_PRICE_TYPE)`
        : 'no price of a type the classifier declares';
    } else {
      const { kopecks, problem } = amountOf(price);
      offer.price = kopecks;
      if (problem) offer.priceProblem = problem;
    }
    const old = context.oldPriceTypeName ? pick(chosenPriceType(context, context.oldPriceTypeName, offered)) : undefined;
    if (old) offer.priceOld = amountOf(old).kopecks;
  }
  const stock = readStock(element);
  if (stock !== undefined) offer.stock = stock;
  return offer;
}

function readDocument(element: XmlElement): CmlDocument {
  return {
    id: childText(element, E.id),
    number: childText(element, E.number),
    line: element.line,
    requisites: childrenNamed(child(element, E.requisites) ?? element, E.requisite).map((r) => ({
      name: childText(r, E.name),
      value: childText(r, E.value),
    })),
  };
}

const at = (path: readonly string[], ...wanted: string[]) => path.length === wanted.length && path.every((p, i) => p === wanted[i]);

/** The sections a CommerceML file has, by the path of their elements. */
const SECTIONS = {
  groups: [E.root, E.classifier, E.groups],
  property: [E.root, E.classifier, E.properties, E.property],
  propertyOld: [E.root, E.classifier, E.properties, E.propertyOld],
  product: [E.root, E.catalogue, E.products, E.product],
  priceType: [E.root, E.offersPackage, E.priceTypes, E.priceType],
  offer: [E.root, E.offersPackage, E.offers, E.offer],
  document: [E.root, E.document],
} as const;
const matches = (path: readonly string[], section: keyof typeof SECTIONS) => at(path, ...SECTIONS[section]);

/** Whether a path opens a record a progress bar counts (a product, an offer or a document). */
export const isCmlRecord = (path: readonly string[]) => matches(path, 'product') || matches(path, 'offer') || matches(path, 'document');

/**
 * Reads a CommerceML document: records in batches as the input arrives. The header is filled from the
 * root and the sections' attributes before the first record; a file of another format or version is
 * refused (CmlFormatError) before anything is yielded. `context` learns the classifier's properties and
 * price types as they are met.
 */
export async function* readCommerceMl(
  source: AsyncIterable<Uint8Array>,
  context: CmlContext,
  problems: ImportProblem[],
  header: CmlHeader,
): AsyncGenerator<CmlEvent> {
  let root: string | undefined;
  const wanted = (path: readonly string[]) => (Object.keys(SECTIONS) as (keyof typeof SECTIONS)[]).some((section) => matches(path, section));
  for await (const batch of readXml(source, {
    wanted,
    onOpen: (path, attributes) => {
      if (path.length === 1) {
        root = path[0];
        header.version = (attributes()[E.version] ?? '').trim();
      } else if (path.length === 2 && path[1] === E.catalogue) {
        header.hasCatalogue = true;
        header.fullCatalogue = (attributes()[E.onlyChanges] ?? '').trim() === 'false';
      } else if (path.length === 2 && path[1] === E.offersPackage) {
        header.hasOffers = true;
        header.fullOffers = (attributes()[E.onlyChanges] ?? '').trim() === 'false';
      }
    },
  })) {
    checkRoot(root, header.version);
    const products: CmlProduct[] = [];
    const offers: CmlOffer[] = [];
    const documents: CmlDocument[] = [];
    for (const { path, element } of batch) {
      if (matches(path, 'groups')) {
        const categories: SourceCategory[] = [];
        readGroups(element, null, categories, problems);
        yield { kind: 'groups', categories };
      } else if (matches(path, 'property') || matches(path, 'propertyOld')) readProperty(element, context);
      else if (matches(path, 'priceType')) readPriceType(element, context);
      else if (matches(path, 'product')) {
        const product = readProduct(element, context, problems);
        if (product) products.push(product);
      } else if (matches(path, 'offer')) {
        const offer = readOffer(element, context, problems);
        if (offer) offers.push(offer);
      } else documents.push(readDocument(element));
    }
    if (products.length > 0) yield { kind: 'products', products };
    if (offers.length > 0) yield { kind: 'offers', offers };
    if (documents.length > 0) yield { kind: 'documents', documents };
  }
  checkRoot(root, header.version);
}

export const emptyHeader = (): CmlHeader => ({ version: '', fullCatalogue: false, fullOffers: false, hasCatalogue: false, hasOffers: false });
