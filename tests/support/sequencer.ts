// The order test files start in: the longest first, so that two workers end together instead of one
// running the last long file alone while the other waits (on a fresh clone vitest knows no durations and
// falls back on file sizes, and it puts every integration file before every unit file). A duration
// vitest remembers from an earlier run on this machine wins; otherwise the figures below, seconds of one
// run on two cores (docs/performance.md, "The suite in 8 minutes, again"); a file named in neither
// counts as short. Only the order changes: every file still runs.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const SECONDS: Record<string, number> = {
  'tests/integration/lifecycle.test.ts': 110,
  'tests/integration/import-yml.test.ts': 90,
  'tests/integration/fuzz.test.ts': 80,
  'tests/integration/backup.test.ts': 45,
  'tests/integration/ops-totp-at-rest.test.ts': 43,
  'tests/integration/seed-cli.test.ts': 38,
  'tests/integration/delivery-carriers.test.ts': 36,
  'scripts/cli-usage.test.ts': 32,
  'tests/integration/import-photos.test.ts': 32,
  'tests/integration/migrations.test.ts': 22,
  'tests/integration/checkout.test.ts': 20,
  'tests/integration/payments.test.ts': 19,
  'tests/integration/accounts.test.ts': 18,
  'tests/integration/housekeeping.test.ts': 16,
  'tests/integration/openapi.test.ts': 15,
  'tests/integration/exchange-1c.test.ts': 14,
  'tests/integration/marking.test.ts': 12,
  'tests/integration/glued-words.test.ts': 11,
  'tests/integration/ops-catalogue.test.ts': 10,
  'tests/integration/ops-hostile.test.ts': 10,
  'tests/integration/search-eval.test.ts': 9,
  'tests/integration/marking-receipts.test.ts': 9,
  'tests/integration/ops-accounts.test.ts': 9,
  'tests/integration/discovery.test.ts': 8,
  'tests/integration/orders.test.ts': 8,
};

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const seconds = (spec: TestSpecification) => {
      const remembered = this.ctx.cache.getTestSpecificationResult(spec);
      if (remembered) return remembered.duration / 1000;
      return SECONDS[spec.moduleId.slice(root.length + 1)] ?? 0;
    };
    return [...files].sort((a, b) => seconds(b) - seconds(a));
  }
}
