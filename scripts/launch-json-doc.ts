/**
 * Rewrites docs/launch-json.md's attribute table from package.json (scripts/lib/launch-json-doc.ts).
 *   npx tsx scripts/launch-json-doc.ts
 */
import { type DebuggerManifest, renderLaunchAttributes, withLaunchAttributes } from './lib/launch-json-doc.js';
import { readManifest, rewriteDoc } from './lib/rewrite-doc.js';

const block = renderLaunchAttributes(readManifest<DebuggerManifest>());
rewriteDoc('docs/launch-json.md', 'attribute table', (doc) => withLaunchAttributes(doc, block));
