// The judged query set's measures (tests/search/README.md): nDCG@10 with the graded labels, MRR (the first
// result graded 3, "exact"), the share of queries with a relevant result (graded 2 or 3) in the top 3, and
// the share of queries that have an answer in the catalogue yet found nothing. Pure functions: the shop is
// asked elsewhere (tests/search/shop.ts).

export const CLASSES = ['brand', 'layout', 'typo', 'attributes', 'article', 'audience', 'price', 'no-answer'] as const;
export type QueryClass = (typeof CLASSES)[number];

export interface JudgedQuery {
  id: string;
  class: QueryClass;
  text: string;
  /** What the query asks for, as the judge read it (kept for whoever extends the set). */
  intent: Record<string, string | number | boolean>;
  /** Product id → grade: 3 exact, 2 partial (most of what was asked), 1 partial (some), 0 irrelevant. Unlisted: 0. */
  labels: Record<string, number>;
}

export interface JudgmentFile {
  made: string;
  catalogue: { seedProducts: number; fixtures: string[] };
  queries: JudgedQuery[];
}

export interface ClassScore {
  queries: number;
  ndcg10: number;
  mrr: number;
  top3: number;
  zero: number;
}

const gain = (grade: number) => 2 ** grade - 1;

/** nDCG@k of a ranking against the query's labels; 1 for a query with nothing relevant that found nothing. */
export function ndcgAt(ranking: readonly number[], labels: Record<string, number>, k = 10): number {
  const ideal = Object.values(labels)
    .sort((a, b) => b - a)
    .slice(0, k);
  const idcg = ideal.reduce((s, g, i) => s + gain(g) / Math.log2(i + 2), 0);
  // Nothing to find: not counted (score() leaves such queries out of nDCG).
  if (idcg === 0) return 1;
  const dcg = ranking.slice(0, k).reduce((s, id, i) => s + gain(labels[String(id)] ?? 0) / Math.log2(i + 2), 0);
  return dcg / idcg;
}

/** 1 / the rank of the first exact result (grade 3), 0 when none is in the ranking. */
export function reciprocalRank(ranking: readonly number[], labels: Record<string, number>): number {
  const at = ranking.findIndex((id) => (labels[String(id)] ?? 0) >= 3);
  return at < 0 ? 0 : 1 / (at + 1);
}

const hasAnswer = (labels: Record<string, number>) => Object.values(labels).some((g) => g >= 2);

export function score(queries: readonly JudgedQuery[], rankings: ReadonlyMap<string, readonly number[]>): Record<QueryClass | 'all', ClassScore> {
  const out = {} as Record<QueryClass | 'all', ClassScore>;
  for (const cls of [...CLASSES, 'all'] as const) {
    const mine = queries.filter((q) => cls === 'all' || q.class === cls);
    const answerable = mine.filter((q) => hasAnswer(q.labels));
    // NaN where a class has nothing to measure (no-answer queries have no relevant product).
    const mean = (values: number[]) => (values.length === 0 ? Number.NaN : values.reduce((s, v) => s + v, 0) / values.length);
    const ranked = (q: JudgedQuery) => rankings.get(q.id) ?? [];
    const exactOnes = answerable.filter((q) => Object.values(q.labels).some((g) => g >= 3));
    out[cls] = {
      queries: mine.length,
      ndcg10: mean(answerable.map((q) => ndcgAt(ranked(q), q.labels))),
      mrr: mean(exactOnes.map((q) => reciprocalRank(ranked(q), q.labels))),
      top3: mean(
        answerable.map((q) =>
          ranked(q)
            .slice(0, 3)
            .some((id) => (q.labels[String(id)] ?? 0) >= 2)
            ? 1
            : 0,
        ),
      ),
      zero: mean(answerable.map((q) => (ranked(q).length === 0 ? 1 : 0))),
    };
  }
  return out;
}

/** The measures as a Markdown table, one row per class and one for all. */
export function table(scores: Record<QueryClass | 'all', ClassScore>): string {
  const f = (x: number) => (Number.isNaN(x) ? '—' : x.toFixed(3));
  const pct = (x: number) => (Number.isNaN(x) ? '—' : `${(x * 100).toFixed(1)} %`);
  const rows = ([...CLASSES, 'all'] as const).map((c) => {
    const s = scores[c];
    return `| ${c} | ${s.queries} | ${f(s.ndcg10)} | ${f(s.mrr)} | ${pct(s.top3)} | ${pct(s.zero)} |`;
  });
  return ['| class | queries | nDCG@10 | MRR | relevant in top 3 | zero results |', '|---|---|---|---|---|---|', ...rows].join('\n');
}
