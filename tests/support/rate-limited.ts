// Which API operations can answer 429, read from the code rather than listed by hand: a handler is
// rate-limited when what it calls, followed through the shop's own functions (src/), reaches
// tooManyRequests — which every limit of rate-limit.server.ts throws through — or writes a 429 itself.
// The limit usually sits in a service (a reset link's in auth.server.ts), where the route file's source
// says nothing of it; the compiler's symbols follow the calls there.
import { readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { apiPathOf } from '../../src/lib/http/openapi.ts';

const API_DIR = 'src/pages/api';
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

function routeFiles(dir = API_DIR): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? routeFiles(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.startsWith('_') ? [join(dir, e.name)] : [],
  );
}

/** `METHOD path` of every operation whose handler can answer 429, as the OpenAPI document names them. */
export function rateLimitedOperations(root = process.cwd()): string[] {
  const config = ts.readConfigFile(join(root, 'tsconfig.json'), (path) => ts.sys.readFile(path));
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const files = routeFiles(join(root, API_DIR));
  // No ambient types: only the shop's own declarations are followed, and leaving Node's and Astro's out
  // halves the time the program takes.
  const program = ts.createProgram(files, { ...options, noEmit: true, types: [] });
  const checker = program.getTypeChecker();
  const src = resolve(root, 'src') + '/';
  const errorsFile = resolve(root, 'src/lib/http/errors.ts');

  // Per function (or initializer): whether it reaches a 429; false while being walked, which ends cycles.
  const reaches = new Map<ts.Node, boolean>();
  const bodyOf = (declaration: ts.Declaration): ts.Node | undefined => {
    if (ts.isFunctionDeclaration(declaration) || ts.isMethodDeclaration(declaration)) return declaration.body;
    if (ts.isVariableDeclaration(declaration) || ts.isPropertyAssignment(declaration)) return declaration.initializer;
    return undefined;
  };
  const isTooManyRequests = (declaration: ts.Declaration) =>
    resolve(declaration.getSourceFile().fileName) === errorsFile && ts.isVariableDeclaration(declaration) && declaration.name.getText() === 'tooManyRequests';
  const writes429 = (node: ts.Node) =>
    (ts.isCallExpression(node) || ts.isNewExpression(node)) &&
    node.arguments?.[0] !== undefined &&
    ts.isNumericLiteral(node.arguments[0]) &&
    node.arguments[0].text === '429';

  const walk = (node: ts.Node): boolean => {
    const known = reaches.get(node);
    if (known !== undefined) return known;
    reaches.set(node, false);
    let found = false;
    const visit = (child: ts.Node): void => {
      if (found) return;
      if (writes429(child)) {
        found = true;
        return;
      }
      if (ts.isIdentifier(child)) {
        let symbol = checker.getSymbolAtLocation(child);
        if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
        for (const declaration of symbol?.declarations ?? []) {
          if (isTooManyRequests(declaration)) found = true;
          const file = declaration.getSourceFile();
          const body = bodyOf(declaration);
          if (!found && body && !file.isDeclarationFile && resolve(file.fileName).startsWith(src) && walk(body)) found = true;
        }
        return;
      }
      ts.forEachChild(child, visit);
    };
    visit(node);
    reaches.set(node, found);
    return found;
  };

  const operations: string[] = [];
  for (const file of files) {
    const path = apiPathOf(`./${relative(join(root, API_DIR), file)}`);
    const source = program.getSourceFile(file);
    if (!path || !source) continue;
    for (const statement of source.statements) {
      if (!ts.isVariableStatement(statement) || !statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
      for (const declaration of statement.declarationList.declarations) {
        const method = declaration.name.getText();
        const made = declaration.initializer;
        if (!METHODS.includes(method) || !made) continue;
        // What the route gives endpoint() (its handler, its schemas), not the helper every route shares.
        const own = ts.isCallExpression(made) ? made.arguments : [made];
        if (own.some((node) => walk(node))) operations.push(`${method} ${path}`);
      }
    }
  }
  return operations.sort();
}
