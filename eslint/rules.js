// The shop's own lint rules (DESIGN §2, §9), run by `npm run lint` inside `npm test`.
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
    const check = (node, source, typeOnly) => {
      if (typeof source !== 'string') return;
      let target;
      if (source.startsWith('~/')) target = path.join(SRC, source.slice(2));
      else if (source.startsWith('.')) target = path.resolve(path.dirname(file), source);
      else return;
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
    };
    return {
      ImportDeclaration(node) {
        check(node, node.source.value, node.importKind === 'type');
      },
      ExportNamedDeclaration(node) {
        if (node.source) check(node, node.source.value, node.exportKind === 'type');
      },
      ExportAllDeclaration(node) {
        check(node, node.source.value, node.exportKind === 'type');
      },
      ImportExpression(node) {
        if (node.source.type === 'Literal') check(node, node.source.value, false);
      },
    };
  },
};

export default { rules: { 'no-cyrillic-literal': noCyrillicLiteral, 'import-boundaries': importBoundaries } };
