// Preloaded into every Node process of a test run (NODE_OPTIONS in scripts/test.mjs): resolves the
// relative imports inside drizzle-orm itself, so that Node does not look up their format. Node 24 finds a
// `.js` file's format from its package's package.json, and with each lookup it parses that package's
// `exports` again — drizzle-orm's is 178 KB and it has ~200 modules: 0.6 s of CPU in every process that
// imports it (each test file's worker, each command a test runs; the built server bundles it instead:
// astro.config.mjs). The package is ESM throughout ("type": "module", no nested package.json), so the
// answer is known. Anything else goes to Node's own resolution. Plain JS: loaded before any TypeScript.
import * as module from 'node:module';
import { existsSync } from 'node:fs';

const PACKAGE = '/node_modules/drizzle-orm/';

// Node 20 (the system's, running npm itself) has no synchronous hooks: nothing to do there.
if (typeof module.registerHooks === 'function') {
  module.registerHooks({
    resolve(specifier, context, nextResolve) {
      const parent = context.parentURL;
      if (parent?.includes(PACKAGE) && parent.endsWith('.js') && specifier.endsWith('.js') && (specifier.startsWith('./') || specifier.startsWith('../'))) {
        const url = new URL(specifier, parent);
        if (url.href.includes(PACKAGE) && existsSync(url)) return { url: url.href, format: 'module', shortCircuit: true };
      }
      return nextResolve(specifier, context);
    },
  });
}
