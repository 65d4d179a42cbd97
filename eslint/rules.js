// The shop's own lint rules (DESIGN §2, §9), run by `npm run lint` inside `npm test`.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const CYRILLIC = /[\u0400-\u04FF]/;

/** Every interface string lives in src/lib/i18n (ru.ts, en.ts); text in code is a string nobody can translate. */
const noCyrillicLiteral = {
  meta: {
    type: 'problem',
    docs: { description: 'Russian text belongs in the i18n modules (src/lib/i18n), not in code' },
    messages: { literal: 'Cyrillic text "{{text}}" in code: move it to src/lib/i18n/ru.ts (and en.ts) and use t().' },
    schema: [],
  },
  create(context) {
    const report = (node, raw) => {
      if (!CYRILLIC.test(raw)) return;
      const text = raw.trim().replace(/\s+/g, ' ');
      context.report({ node, messageId: 'literal', data: { text: text.length > 40 ? `${text.slice(0, 40)}…` : text } });
    };
    return {
      Literal(node) {
        if (typeof node.value === 'string') report(node, node.value);
      },
      TemplateLiteral(node) {
        report(node, node.quasis.map((q) => q.value.cooked ?? q.value.raw).join('…'));
      },
      JSXText(node) {
        report(node, node.value);
      },
      // Text between tags in .astro templates.
      AstroRawText(node) {
        report(node, node.value);
      },
    };
  },
};

const SRC = path.resolve('src');

function layerOf(file) {
  const rel = path.relative(SRC, file);
  if (rel.startsWith('..')) return { layer: 'outside' };
  const [top, second] = rel.split(path.sep);
  if (top === 'pages') return { layer: 'pages' };
  if (top === 'features') return { layer: 'features', feature: second };
  if (top === 'lib') return { layer: 'lib' };
  if (top === 'components' || top === 'layouts') return { layer: top };
  return { layer: 'other' };
}

/** Islands and browser modules: bundled for the browser, so they may never pull in server code. */
function isClientFile(file) {
  return /\.(tsx|client\.ts|store\.ts)$/.test(file);
}

/** What another feature may import from one: its own-named modules, its read model, its components. */
function isPublicFace(target, feature) {
  const base = path.basename(target);
  return base.startsWith(`${feature}.`) || base === 'read-model.server.ts' || /^[A-Z][\w-]*\.(astro|tsx)$/.test(base);
}

/**
 * Layers import downwards only: pages → features → lib (components and layouts beside features), no
 * client file imports a server file, and a feature reaches into another only through its public face.
 */
const importBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'pages → features → lib; client files never import server files; features meet through their public modules' },
    messages: {
      upwards: '{{from}} may not import from {{to}}: imports go pages → features → lib.',
      serverInClient: 'A browser file may not import server code ({{target}}): talk to the server through *.client.ts.',
      internal: '{{target}} is internal to features/{{feature}}: import its {{feature}}.*.ts, read-model.server.ts or a component instead.',
    },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const from = layerOf(file);
    return eachImport((node, source, typeOnly) => {
      const target = resolveSource(file, source);
      if (!target) return;
      const to = layerOf(target);
      const order = { lib: 0, components: 1, features: 2, layouts: 3, pages: 4 };
      if (from.layer in order && to.layer in order && order[to.layer] > order[from.layer]) {
        context.report({ node, messageId: 'upwards', data: { from: from.layer, to: to.layer } });
        return;
      }
      if (!typeOnly && isClientFile(file) && /\.server\.ts$|[\\/]lib[\\/]db[\\/]/.test(target)) {
        context.report({ node, messageId: 'serverInClient', data: { target: path.relative(SRC, target) } });
        return;
      }
      if (from.layer === 'features' && to.layer === 'features' && to.feature !== from.feature && !isPublicFace(target, to.feature)) {
        context.report({ node, messageId: 'internal', data: { target: path.relative(SRC, target), feature: to.feature } });
      }
    });
  },
};

/** Where an import specifier leads inside src/, as a file on disk; undefined for packages and virtual modules. */
function resolveSource(fromFile, source) {
  if (typeof source !== 'string') return undefined;
  const bare = source.replace(/\?.*$/, '');
  let target;
  if (bare.startsWith('~/')) target = path.join(SRC, bare.slice(2));
  else if (bare.startsWith('.')) target = path.resolve(path.dirname(fromFile), bare);
  else return undefined;
  for (const candidate of [target, `${target}.ts`, `${target}.tsx`, path.join(target, 'index.ts')])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return target;
}

const IMPORTED = /(?:^|[^\w.$])(?:import|export)\s*(?:type\s+)?(?:[\w*{}\s,$]*?\sfrom\s*)?['"]([^'"\n]+)['"]|import\(\s*['"]([^'"\n]+)['"]\s*\)/g;

/** What each file under src/ imports (type-only imports and re-exports included), read from disk once per lint run. */
let sourceGraph;
function graphOfSources() {
  if (sourceGraph) return sourceGraph;
  sourceGraph = new Map();
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(ts|tsx|astro|mjs|js)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) {
        const text = readFileSync(full, 'utf8');
        const targets = new Set();
        for (const m of text.matchAll(IMPORTED)) {
          const target = resolveSource(full, m[1] ?? m[2]);
          if (target) targets.add(target);
        }
        sourceGraph.set(full, targets);
      }
    }
  };
  walk(SRC);
  return sourceGraph;
}

/** The import chain from `start` back to `file`, if there is one (breadth first: the shortest). */
function chainBack(graph, start, file, ownTargets) {
  const edgesOf = (node) => (node === file ? ownTargets : (graph.get(node) ?? new Set()));
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    if (node === file) {
      const chain = [];
      for (let at = node; at !== null; at = previous.get(at)) chain.unshift(at);
      return chain;
    }
    for (const next of edgesOf(node))
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
  }
  return undefined;
}

/** Every import form an ESLint rule sees, with the specifier's text and whether it is type-only. */
function eachImport(check) {
  return {
    ImportDeclaration: (node) => check(node, node.source.value, node.importKind === 'type'),
    ExportNamedDeclaration: (node) => node.source && check(node, node.source.value, node.exportKind === 'type'),
    ExportAllDeclaration: (node) => check(node, node.source.value, node.exportKind === 'type'),
    ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value, false),
  };
}

/**
 * The domains of src/features stand in one order (the option, lowest first: docs/decisions/027): a domain
 * imports only from domains below it (and from lib/ and components/), type-only imports included, so no two
 * domains need each other. A domain missing from the order is reported until it is placed.
 */
const domainOrder = {
  meta: {
    type: 'problem',
    docs: { description: 'a feature imports only from features below it in the written order' },
    messages: {
      upwards: 'features/{{from}} may not import from features/{{to}}, which stands above it in the order of the domains (docs/decisions/027).',
      unplaced: 'features/{{domain}} is not in the order of the domains (eslint.config.js, docs/decisions/027): place it.',
    },
    schema: [{ type: 'object', properties: { order: { type: 'array', items: { type: 'string' } } }, required: ['order'], additionalProperties: false }],
  },
  create(context) {
    const order = context.options[0]?.order ?? [];
    const file = context.filename;
    const from = layerOf(file);
    if (from.layer !== 'features') return {};
    const rank = (domain) => order.indexOf(domain);
    if (rank(from.feature) < 0) {
      return { Program: (node) => context.report({ node, messageId: 'unplaced', data: { domain: from.feature } }) };
    }
    return eachImport((node, source) => {
      const target = resolveSource(file, source);
      if (!target) return;
      const to = layerOf(target);
      if (to.layer !== 'features' || to.feature === from.feature) return;
      if (rank(to.feature) < 0) context.report({ node, messageId: 'unplaced', data: { domain: to.feature } });
      else if (rank(to.feature) > rank(from.feature)) context.report({ node, messageId: 'upwards', data: { from: from.feature, to: to.feature } });
    });
  },
};

/**
 * No import circle under src/, type-only imports included: a module reached again from what it imports cannot
 * be read (or loaded) in one direction. The file's own imports come from the code being linted, the rest of
 * the graph from the files on disk.
 */
const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'no import circle under src/, type-only imports included' },
    messages: { cycle: 'This import closes a circle: {{chain}}.' },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    if (path.relative(SRC, file).startsWith('..')) return {};
    const imports = [];
    return {
      ...eachImport((node, source) => {
        const target = resolveSource(file, source);
        if (target) imports.push({ node, target });
      }),
      'Program:exit'() {
        const graph = graphOfSources();
        const own = new Set(imports.map((i) => i.target));
        for (const { node, target } of imports) {
          const chain = chainBack(graph, target, file, own);
          if (chain) context.report({ node, messageId: 'cycle', data: { chain: [file, ...chain].map((f) => path.relative(SRC, f)).join(' → ') } });
        }
      },
    };
  },
};

export default {
  rules: { 'no-cyrillic-literal': noCyrillicLiteral, 'import-boundaries': importBoundaries, 'domain-order': domainOrder, 'no-import-cycle': noImportCycle },
};
