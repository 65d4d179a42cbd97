// The CommerceML reader's last step (docs/import.md, "Read → map → write"): a product 1C sent and its offers,
// as kept across files (packages.server.ts), read as the SourceOffer records every reader yields — one a
// size, the product's fields on each — for the import's mapper, as a YML feed's offers are.
import { NO_PARCEL, type ImportProblem, type SourceOffer } from '../import/import.ts';
import type { CmlProduct } from './commerceml.server.ts';
import type { StoredOffer } from './packages.server.ts';

/** A size's label from the offer's name when 1C gives no characteristic: "Ботинки (39)" → "39". */
function sizeFromName(offerName: string | undefined, productName: string): string | null {
  if (!offerName || offerName === productName) return null;
  const bracket = /\(([^()]+)\)\s*$/.exec(offerName);
  if (bracket?.[1]) return bracket[1].split(',')[0]?.trim() || null;
  return offerName.startsWith(productName) ? offerName.slice(productName.length).trim() || null : null;
}

/** The price a product sells at (its sizes' lowest, with a line when they differ) and its old price, if any. */
function productPrices(product: CmlProduct, priced: readonly { data: StoredOffer }[], problems: ImportProblem[]): { price: number; priceOld: number | null } {
  const prices = priced.map((o) => o.data.price as number);
  const price = Math.min(...prices);
  if (Math.max(...prices) !== price)
    problems.push({
      severity: 'warning',
      id: product.id,
      line: product.line,
      reason: `its sizes have different prices (${price / 100}–${Math.max(...prices) / 100} RUB): the product is sold at the lowest`,
    });
  const olds = priced.map((o) => o.data.priceOld).filter((p): p is number => typeof p === 'number' && p > price);
  return { price, priceOld: olds.length > 0 ? Math.min(...olds) : null };
}

/** A product and its offers as SourceOffer records; none while it has no priced offer. */
export function cmlSourceOffers(product: CmlProduct, offers: readonly { id: string; data: StoredOffer }[], problems: ImportProblem[]): SourceOffer[] {
  const priced = offers.filter((o) => !o.data.deleted && typeof o.data.price === 'number');
  for (const o of offers)
    if (!o.data.deleted && o.data.priceProblem) problems.push({ severity: 'error', id: o.id, line: o.data.line, reason: o.data.priceProblem });
  if (priced.length === 0) return [];
  const { price, priceOld } = productPrices(product, priced, problems);
  const labels = new Set<string>();
  return priced.map((o, index) => {
    // Sizes from the characteristic, else from the name; offers that differ by colour alone are told apart by it.
    let size = o.data.size ?? sizeFromName(o.data.name, product.name) ?? (priced.length === 1 ? product.size : (o.data.color ?? null));
    if (priced.length > 1 && (size === null || labels.has(size))) size = `${size ?? o.data.name ?? product.name} #${index + 1}`;
    if (size !== null) labels.add(size);
    return {
      id: o.id,
      productKey: product.id,
      line: o.data.line,
      name: product.name,
      vendor: product.vendor,
      categoryId: product.groupId,
      price,
      priceOld,
      stock: o.data.stock ?? 0,
      available: (o.data.stock ?? 0) > 0,
      pictures: product.pictures,
      description: product.description,
      size,
      color: product.color ?? o.data.color ?? null,
      attributes: product.attributes,
      vendorCode: product.article,
      barcodes: priced.length === 1 ? product.barcodes : [],
      salesNotes: '',
      url: '',
      parcel: product.parcel ?? NO_PARCEL,
    };
  });
}
