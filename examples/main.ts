/**
 * `npm start`: the bundled examples, one after the other, on the default backend.
 * (Dynamic imports keep them in order: sibling static imports with top-level await interleave.)
 */
await import('./captioning-pipeline.js');
await import('./log-huber.js');
await import('./graph-model.js');
