// The house's sizes: files per folder, the longest files and functions of product code (runtime/,
// debug-adapter/, extension/, media/src/, ts-plugin/: .ts, .cts, .mts and plain .js/.cjs), and the
// test and bench files long enough to split. test/unit/house-sizes.test.ts holds them to the limits
// below; run it to see where the house stands: npx tsx scripts/house-sizes.ts
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const PRODUCT_FOLDERS = ['runtime', 'debug-adapter', 'extension', 'media/src', 'ts-plugin'] as const;
/** Lines a product file may have. */
export const FILE_LINES_LIMIT = 400;
/** Lines a function may span (its signature to its closing brace). */
export const FUNCTION_LINES_LIMIT = 80;

export interface Measured {
  /** Repository-relative path, with `:line` and the function's name for a function. */
  readonly where: string;
  readonly lines: number;
}

/** The product's TypeScript sources under `root`, repository-relative. */
export function productFiles(root: string): string[] {
  const walk = (folder: string): string[] =>
    readdirSync(join(root, folder)).flatMap((name) => {
      const path = join(folder, name);
      if (statSync(join(root, path)).isDirectory()) return name === 'node_modules' || name === 'dist' ? [] : walk(path);
      return /\.[cm]?[tj]sx?$/.test(name) && !/\.d\.[cm]?ts$/.test(name) ? [path] : [];
    });
  return PRODUCT_FOLDERS.flatMap((folder) => walk(folder)).sort();
}

/** Test and bench files past this many lines are listed by the script: candidates for a split. */
export const TEST_FILE_LINES_REPORTED = 600;

/** test/ and bench/ TypeScript files by their lines. */
export function testFileSizes(root: string): Measured[] {
  const walk = (folder: string): string[] =>
    readdirSync(join(root, folder)).flatMap((name) => {
      const path = join(folder, name);
      if (statSync(join(root, path)).isDirectory()) return name === 'node_modules' ? [] : walk(path);
      return /\.[cm]?tsx?$/.test(name) ? [path] : [];
    });
  return ['test', 'bench'].flatMap((folder) => walk(folder)).map((where) => ({ where, lines: readFileSync(join(root, where), 'utf8').split('\n').length }));
}

export function fileSizes(root: string): Measured[] {
  return productFiles(root).map((where) => ({ where, lines: readFileSync(join(root, where), 'utf8').split('\n').length }));
}

/** Every function, method, arrow and accessor with a body, by the lines it spans. */
export function functionSizes(root: string): Measured[] {
  return productFiles(root).flatMap((file) => {
    const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
    const found: Measured[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const last = source.getLineAndCharacterOfPosition(node.end).line;
        const name = node.name && !ts.isComputedPropertyName(node.name) ? node.name.getText(source) : ts.SyntaxKind[node.kind];
        found.push({ where: `${file}:${first + 1} ${name}`, lines: last - first + 1 });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    return found;
  });
}

/** Files per folder (a folder's own files, not its sub-folders'). */
export function filesPerFolder(root: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const file of productFiles(root)) counts.set(dirname(file), (counts.get(dirname(file)) ?? 0) + 1);
  return counts;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const top = (items: Measured[], n: number) => [...items].sort((a, b) => b.lines - a.lines).slice(0, n);
  console.log('files per folder:');
  for (const [folder, count] of [...filesPerFolder(root)].sort()) console.log(`  ${String(count).padStart(3)} ${relative(root, join(root, folder))}`);
  console.log(`longest files (limit ${FILE_LINES_LIMIT}):`);
  for (const f of top(fileSizes(root), 8)) console.log(`  ${String(f.lines).padStart(4)} ${f.where}`);
  console.log(`longest functions (limit ${FUNCTION_LINES_LIMIT}):`);
  for (const f of top(functionSizes(root), 8)) console.log(`  ${String(f.lines).padStart(4)} ${f.where}`);
  const long = top(testFileSizes(root), 100).filter((f) => f.lines > TEST_FILE_LINES_REPORTED);
  console.log(`test and bench files over ${TEST_FILE_LINES_REPORTED} lines (reported, not held to a limit): ${long.length}`);
  for (const f of long) console.log(`  ${String(f.lines).padStart(4)} ${f.where}`);
}
