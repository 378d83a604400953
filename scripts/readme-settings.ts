/**
 * Rewrites README.md's settings table from package.json (scripts/lib/readme-settings.ts).
 *   npx tsx scripts/readme-settings.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Manifest, renderSettings, withSettings } from './lib/readme-settings.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;
const readmePath = path.join(root, 'README.md');
const readme = readFileSync(readmePath, 'utf8');
const updated = withSettings(readme, renderSettings(manifest));
if (updated === readme) console.log('README.md: settings table up to date');
else {
  writeFileSync(readmePath, updated);
  console.log('README.md: settings table rewritten from package.json');
}
