/**
 * Source lines by marker, not by number: a fixture line ends with a comment naming it, e.g.
 *   const scaled = x.map((v) => v * factor); // @scale-rows-body
 * and a test asks `lineOf(file, '@scale-rows-body')`, so editing a fixture moves no test.
 */
import fs from 'node:fs';

/** 1-based line of the one line of `file` whose `//` comment carries `@name` (given with or without `@`). */
export function lineOf(file: string, marker: string): number {
  return lineOfMarker(fs.readFileSync(file, 'utf8'), marker, file);
}

/** As `lineOf`, in source text the test holds (`where` names it in errors). */
export function lineOfMarker(source: string, marker: string, where: string): number {
  const name = markerName(marker);
  // The name is letters, digits, _ and - (checked): nothing to escape.
  const pattern = new RegExp(`//.*(?<![\\w@-])@${name}(?![\\w-])`);
  const lines = source.split(/\r?\n/);
  const found = lines.flatMap((line, i) => (pattern.test(line) ? [i + 1] : []));
  if (found.length === 0) throw new Error(`No line of ${where} carries the marker "// @${name}": add it at the end of the line the test means.`);
  if (found.length > 1) {
    throw new Error(`Lines ${found.join(', ')} of ${where} all carry the marker "// @${name}": a marker names one line; rename the others.`);
  }
  return found[0]!;
}

/**
 * 1-based line of the one line of `file` that contains `text`: for files a marker comment would
 * clutter (the examples users read).
 */
export function lineWith(file: string, text: string): number {
  const found = fs
    .readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .flatMap((line, i) => (line.includes(text) ? [i + 1] : []));
  if (found.length === 0) throw new Error(`No line of ${file} contains ${JSON.stringify(text)}: the file changed; update the test's text.`);
  if (found.length > 1) throw new Error(`Lines ${found.join(', ')} of ${file} all contain ${JSON.stringify(text)}: give text found on one line only.`);
  return found[0]!;
}

/**
 * The line just above the marker's, which must be blank (a comment cannot mark a blank line): for
 * tests of breakpoints set on blank lines.
 */
export function blankLineAbove(file: string, marker: string): number {
  const line = lineOf(file, marker) - 1;
  const text = fs.readFileSync(file, 'utf8').split(/\r?\n/)[line - 1];
  if (text === undefined || text.trim() !== '') {
    throw new Error(`Line ${line} of ${file}, above the marker "// @${markerName(marker)}", should be blank but is ${JSON.stringify(text)}.`);
  }
  return line;
}

function markerName(marker: string): string {
  const name = marker.startsWith('@') ? marker.slice(1) : marker;
  if (!/^[A-Za-z][\w-]*$/.test(name)) throw new Error(`"${marker}" is not a marker name: expected @ and a letter, then letters, digits, _ or -.`);
  return name;
}
