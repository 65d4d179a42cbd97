// A CommerceML file (1C's or MoySklad's export) uploaded in the managers' console (issue 24): applied by the
// same reader and rules as the 1C exchange's catalogue files, as a run of the console's import history.
import { resolve } from 'node:path';
import { getDatabase } from '~/lib/db/index.ts';
import { env } from '~/lib/env.ts';
import { ImportInputError, type ImportResult } from '~/features/import/import.server.ts';
import { applyCatalogueFile, ExchangeFileError } from './catalogue.server.ts';

export async function applyCommerceMl(path: string, onProgress: (done: number, total: number) => void): Promise<ImportResult> {
  const e = env();
  try {
    const result = await applyCatalogueFile(await getDatabase(), path, {
      maxBytes: e.IMPORT_MAX_BYTES,
      priceTypeName: e.EXCHANGE_PRICE_TYPE,
      oldPriceTypeName: e.EXCHANGE_OLD_PRICE_TYPE,
      photos: { dir: resolve(e.DATA_DIR, 'media'), allowPrivate: e.IMPORT_ALLOW_PRIVATE },
      onProgress,
    });
    return { summary: result.summary, problems: result.problems, offers: result.records };
  } catch (error) {
    // The run's failure says what is wrong with the file, as the import's own refusals do.
    if (error instanceof ExchangeFileError) throw new ImportInputError(error.message);
    throw error;
  }
}
