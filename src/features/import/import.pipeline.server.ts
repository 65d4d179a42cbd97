// Read → map → write (docs/import.md): the one way records reach the catalogue, for the CLI import (YML,
// import.server.ts) and the 1C exchange (CommerceML, src/features/exchange/catalogue.server.ts) alike. A
// reader yields SourceCategory and SourceOffer records; the mapper (mapper.server.ts) makes them the shop's
// rows; the photo step (photos.server.ts) fetches their pictures; the writer (writer.server.ts) writes them
// and counts what changed. One instance is one run over one source.
import type { Database } from '../../lib/db/client.ts';
import type { ImportProblem, ImportSummary, SourceCategory, SourceOffer } from './import.ts';
import { CatalogueMapper, newRunState } from './mapper.server.ts';
import { PhotoStep, type PhotoOptions } from './photos.server.ts';
import { CatalogueWriter, type WriteOptions } from './writer.server.ts';

export type { PhotoOptions } from './photos.server.ts';

export interface CatalogueImportOptions extends WriteOptions {
  /** Where photos go, and where a feed's relative picture paths are read from; none: pictures are not imported. */
  photos?: PhotoOptions;
}

export class CatalogueImport {
  private readonly mapper: CatalogueMapper;
  private readonly writer: CatalogueWriter;
  private readonly photos: PhotoStep | undefined;

  /** `source` tags the external ids the run writes: `yml` for feeds, `cml` for 1C. */
  constructor(database: Database, options: CatalogueImportOptions, problems: ImportProblem[], source = 'yml') {
    const run = newRunState();
    this.mapper = new CatalogueMapper(database, source, options.dryRun, problems, run);
    this.writer = new CatalogueWriter(database, { dryRun: options.dryRun, defaultStock: options.defaultStock }, problems, source, run);
    this.photos = options.photos ? new PhotoStep(database, options.photos, problems, this.writer.summary) : undefined;
  }

  /** What the run has written and found so far. */
  get summary(): ImportSummary {
    return this.writer.summary;
  }

  /** Loads what the mapping matches against: brands, colours, the categories imported before. */
  load(): Promise<void> {
    return this.mapper.load();
  }

  /** The source's category tree. */
  applyCategories(categories: readonly SourceCategory[]): Promise<void> {
    return this.writer.writeCategories(this.mapper.mapCategories(categories), this.mapper.categories);
  }

  /** One batch of offers, in one transaction. */
  async applyOffers(offers: readonly SourceOffer[]): Promise<void> {
    const batch = this.mapper.group(offers);
    await this.writer.writeOffers(batch, await this.mapper.products(batch), this.photos);
  }

  /** `--prices-stock`: prices and stock of offers the catalogue has, staged until commitPricesStock. */
  applyPricesStock(offers: readonly SourceOffer[]): Promise<void> {
    return this.writer.applyPricesStock(offers);
  }

  commitPricesStock(): Promise<void> {
    return this.writer.commitPricesStock();
  }

  /** After a whole source: what it no longer lists hidden or sold out. */
  hideMissing(): Promise<number> {
    return this.writer.hideMissing();
  }

  tidy(): Promise<void> {
    return this.writer.tidy();
  }
}
