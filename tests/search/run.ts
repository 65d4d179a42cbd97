// One run of the judged query set against a shop: every query's top 20, then the measures per class.
import { readFileSync } from 'node:fs';
import type { TestServer } from '../support/server.ts';
import { score, type ClassScore, type JudgmentFile, type QueryClass } from './evaluate.ts';
import { rankingOf } from './shop.ts';

export const JUDGMENTS = 'tests/search/judgments.json';
export const BASELINE = 'tests/search/baseline.json';

export const judgments = (): JudgmentFile => JSON.parse(readFileSync(JUDGMENTS, 'utf8')) as JudgmentFile;

export async function evaluateShop(
  shop: TestServer,
  file = judgments(),
  rankings = new Map<string, number[]>(),
): Promise<Record<QueryClass | 'all', ClassScore>> {
  // A few at a time: the measure is of the answers, not of the server under load.
  const queue = [...file.queries];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let q = queue.shift(); q; q = queue.shift()) rankings.set(q.id, await rankingOf(shop, q.text));
    }),
  );
  return score(file.queries, rankings);
}
