// `npm run check`: strict TypeScript over the whole project, in two halves run side by side — TypeScript's
// own compiler over the .ts/.tsx files (pages' code, islands, scripts, tests) and Astro's checker over the
// .astro files only. `astro check` alone asks its language service for each of the 617 files' diagnostics
// one by one, 27 s; `tsc` checks the same .ts files as one program in 13 s and the .astro files take 10 s
// (docs/performance.md "Fourth look"). The same tsconfig, the same errors: an error in either half fails
// the run.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { AstroCheck } from '@astrojs/language-server';
import { commandLine } from './cli.ts';

commandLine('npm run check', { options: {} });

const started = Date.now();
// The content collections' types (.astro/types.d.ts), which both halves read: what `astro check` does first.
const sync = spawnSync('npx', ['astro', 'sync'], { encoding: 'utf8', env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' } });
if (sync.status !== 0) {
  process.stdout.write(sync.stdout + sync.stderr);
  process.exit(1);
}

const tsc = new Promise<{ status: number; output: string }>((resolve) => {
  const child = spawn(process.execPath, [createRequire(import.meta.url).resolve('typescript/bin/tsc'), '--noEmit', '--pretty', '-p', '.']);
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  child.on('close', (status) => resolve({ status: status ?? 1, output }));
});

const checker = new AstroCheck(process.cwd(), createRequire(import.meta.url).resolve('typescript'), undefined);
const astroFiles = checker.linter.getRootFileNames().filter((file) => file.endsWith('.astro'));
const astro = await checker.lint({ fileNames: astroFiles, logErrors: { level: 'warning' } });

const typescript = await tsc;
process.stdout.write(typescript.output);
const tsErrors = typescript.status === 0 ? 0 : Math.max(1, Number(/Found (\d+) errors?/.exec(typescript.output)?.[1] ?? 1));
console.log(
  `check: ${astroFiles.length} .astro files (${astro.errors} errors, ${astro.warnings} warnings), the .ts/.tsx files by tsc (${tsErrors} errors); ` +
    `${Math.round((Date.now() - started) / 1000)} s`,
);
process.exit(astro.errors > 0 || tsErrors > 0 ? 1 : 0);
