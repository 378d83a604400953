// Lists the import circles in product code: every relative import counts, type-only ones and
// `import("…")` types included, because a type circle ties two modules as tightly as a value one.
// Then lists the arrows back up from runtime/'s and debug-adapter/'s sub-folders (arrowsBackUp below)
// and the pairs of their sub-folders that import each other (mutualFolders).
// Usage: npx tsx scripts/import-circles.ts [--runtime-only]
//   --runtime-only leaves out `import type`, `import { type … }` and `typeof import(…)`.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const PRODUCT_FOLDERS = ['runtime', 'debug-adapter', 'extension', 'media/src'];

function sourceFiles(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The relative specifiers a file imports; type-only ones left out when `typesToo` is false. */
export function importedSpecifiers(path: string, typesToo: boolean): string[] {
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((element) => element.isTypeOnly)));
      if (typesToo || !typeOnly) found.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      if (typesToo || !node.isTypeOnly) found.push(node.moduleSpecifier.text);
    } else if (ts.isImportTypeNode(node) && typesToo) {
      const argument = node.argument;
      if (ts.isLiteralTypeNode(argument) && ts.isStringLiteral(argument.literal)) found.push(argument.literal.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((specifier) => specifier.startsWith('.'));
}

function resolveSpecifier(from: string, specifier: string, known: Set<string>): string | undefined {
  const base = resolve(dirname(from), specifier);
  const candidates = [base, base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((candidate) => known.has(candidate));
}

/** Strongly connected components of more than one file (or a file importing itself). */
function circles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) connect(node);
  return found;
}

/** Each product file (relative to root) with the product files it imports. */
function importGraph(root: string, typesToo: boolean): Map<string, string[]> {
  const files = PRODUCT_FOLDERS.flatMap((folder) => sourceFiles(join(root, folder)));
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = importedSpecifiers(file, typesToo)
      .map((specifier) => resolveSpecifier(file, specifier, known))
      .filter((target): target is string => target !== undefined)
      .map((target) => relative(root, target));
    graph.set(relative(root, file), [...new Set(targets)]);
  }
  return graph;
}

export function importCircles(root: string, typesToo: boolean): string[][] {
  return circles(importGraph(root, typesToo));
}

/** The files `start` leads to, itself included. */
function reachable(graph: Map<string, string[]>, start: string): Set<string> {
  const seen = new Set<string>([start]);
  const queue = [start];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    for (const next of graph.get(file) ?? []) {
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return seen;
}

/** Programs in runtime/'s sub-folders: they stand above every module, so they may import the top level. */
export const RUNTIME_PROGRAMS: readonly string[] = [
  'runtime/cli/main.ts', // package.json "bin"
  'runtime/loader/register.ts', // package.json "exports" ./runtime/register, the launch's --import
  'runtime/native/check.ts', // setup-native's check, run as a child process
];

/**
 * Arrows back up in runtime/: a module in a sub-folder (runtime/tout/…) that imports a top-level
 * runtime module which leads, through its own imports, back into that sub-folder. Sub-folders sit
 * below the top level; a top-level module they use must not need them. Type-only imports count;
 * `programs` are left out.
 */
export function arrowsBackUp(root: string, programs: readonly string[] = RUNTIME_PROGRAMS, top = 'runtime'): string[] {
  const graph = importGraph(root, true);
  const topLevel = (file: string) => new RegExp(`^${top}/[^/]+\\.tsx?$`).test(file);
  const found: string[] = [];
  for (const [file, targets] of graph) {
    const folder = new RegExp(`^${top}/[^/]+/`).exec(file)?.[0];
    if (!folder || programs.includes(file)) continue;
    for (const target of targets.filter(topLevel)) {
      const back = [...reachable(graph, target)].find((reached) => reached.startsWith(folder));
      if (back) found.push(`${file} -> ${target}, which leads back to ${back}`);
    }
  }
  return found.sort();
}

/**
 * Sub-folders of `top` that import each other, type-only imports included: the folders of a stack
 * import one way only, lower ones never the ones above. One example import each way per pair.
 */
export function mutualFolders(root: string, top: string): string[] {
  const folderOf = (file: string) => new RegExp(`^${top}/([^/]+)/`).exec(file)?.[1];
  const arrows = new Map<string, string>();
  for (const [file, targets] of importGraph(root, true)) {
    const from = folderOf(file);
    for (const target of targets) {
      const to = folderOf(target);
      if (from && to && from !== to && !arrows.has(`${from}>${to}`)) arrows.set(`${from}>${to}`, `${file} -> ${target}`);
    }
  }
  const found: string[] = [];
  for (const [key, example] of arrows) {
    const [from = '', to = ''] = key.split('>');
    const back = arrows.get(`${to}>${from}`);
    if (from < to && back) found.push(`${top}/${from} <-> ${top}/${to}: ${example}; ${back}`);
  }
  return found.sort();
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const typesToo = !process.argv.includes('--runtime-only');
  const found = importCircles(process.cwd(), typesToo);
  for (const component of found) console.log(component.join(' <-> '));
  console.log(`${found.length} import circle(s)${typesToo ? ' (type-only imports included)' : ' (run-time imports only)'}`);
  const backUp = arrowsBackUp(process.cwd());
  for (const arrow of backUp) console.log(arrow);
  console.log(`${backUp.length} arrow(s) back up from a runtime/ sub-folder`);
  const adapterBackUp = arrowsBackUp(process.cwd(), [], 'debug-adapter');
  for (const arrow of adapterBackUp) console.log(arrow);
  console.log(`${adapterBackUp.length} arrow(s) back up from a debug-adapter/ sub-folder`);
  for (const top of ['runtime', 'debug-adapter']) {
    const mutual = mutualFolders(process.cwd(), top);
    for (const pair of mutual) console.log(pair);
    console.log(`${mutual.length} pair(s) of ${top}/ sub-folders importing each other`);
  }
}
