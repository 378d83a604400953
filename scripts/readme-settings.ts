/**
 * Rewrites README.md's settings table from package.json (scripts/lib/readme-settings.ts).
 *   npx tsx scripts/readme-settings.ts
 */
import { type Manifest, renderSettings, withSettings } from './lib/readme-settings.js';
import { readManifest, rewriteDoc } from './lib/rewrite-doc.js';

const block = renderSettings(readManifest<Manifest>());
rewriteDoc('README.md', 'settings table', (readme) => withSettings(readme, block));
