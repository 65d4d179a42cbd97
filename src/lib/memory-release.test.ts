import { describe, expect, it } from 'vitest';
import { releaseMemoryWhenIdle } from './memory-release.ts';

describe('releaseMemoryWhenIdle', () => {
  // The machines the shop is built and deployed on are Linux with glibc: there the server must be able
  // to return its freed heap (koffi's prebuilt binary loaded), or resident memory stays at its peak.
  it.runIf(process.platform === 'linux' && Boolean((process.report?.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime))(
    'can trim glibc heap on Linux with glibc',
    () => {
      const memory = releaseMemoryWhenIdle(60_000);
      try {
        expect(memory.trims).toBe(true);
        expect(memory.release()).toBeGreaterThanOrEqual(0);
      } finally {
        memory.stop();
      }
    },
  );
});
