// `npm run search:eval [-- --update] [--worst N]`: the judged query set (tests/search) against the built shop over its
// judged catalogue — nDCG@10, MRR, relevant in the top 3 and zero results, per class — compared with the
// committed baseline (tests/search/baseline.json). --update writes the run as the new baseline. Exits 1
// when overall nDCG@10 fell by 0.01 or more (the suite's own check: tests/integration/search-eval.test.ts).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { ClassScore, QueryClass } from '../tests/search/evaluate.ts';
import { commandLine, wholeNumber } from './cli.ts';

const cli = commandLine('npm run search:eval -- [--update] [--worst N]', {
  options: { update: { type: 'boolean', default: false }, worst: { type: 'string', default: '0' } },
});
const worst = wholeNumber(cli, '--worst', cli.values.worst ?? '0', { min: 0 });
// The arguments first, then the modules that start a shop: a wrong one is answered at once (scripts/cli-usage.test.ts).
const { ndcgAt, table } = await import('../tests/search/evaluate.ts');
const { BASELINE, evaluateShop, judgments } = await import('../tests/search/run.ts');
const { searchShop } = await import('../tests/search/shop.ts');
const shop = await searchShop('search-eval');
let status = 0;
try {
  const rankings = new Map<string, number[]>();
  const scores = await evaluateShop(shop, judgments(), rankings);
  console.log(table(scores));
  // The queries that score worst, with what came first and how it was graded: where to look next.
  if (worst > 0) {
    const scored = judgments()
      .queries.filter((q) => Object.values(q.labels).some((g) => g >= 2))
      .map((q) => ({ q, ndcg: ndcgAt(rankings.get(q.id) ?? [], q.labels) }))
      .sort((a, b) => a.ndcg - b.ndcg)
      .slice(0, worst);
    for (const { q, ndcg } of scored)
      console.log(
        `${ndcg.toFixed(2)} ${q.class} «${q.text}» → ${
          (rankings.get(q.id) ?? [])
            .slice(0, 5)
            .map((id) => `${id}:${q.labels[String(id)] ?? 0}`)
            .join(' ') || 'nothing'
        }`,
      );
  }
  if (existsSync(BASELINE)) {
    const base = JSON.parse(readFileSync(BASELINE, 'utf8')) as Record<QueryClass | 'all', ClassScore>;
    const drop = base.all.ndcg10 - scores.all.ndcg10;
    console.log(
      `\nnDCG@10 ${scores.all.ndcg10.toFixed(3)} against the baseline's ${base.all.ndcg10.toFixed(3)} (${drop > 0 ? '−' : '+'}${Math.abs(drop).toFixed(3)})`,
    );
    if (drop >= 0.01 && !cli.values.update) status = 1;
  }
  if (cli.values.update) {
    writeFileSync(BASELINE, `${JSON.stringify(scores, null, 1)}\n`);
    console.log(`baseline written to ${BASELINE}`);
  }
} finally {
  await shop.stop();
}
process.exit(status);
