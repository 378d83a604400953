/**
 * The agent as one script (scripts/build.mjs bundles from here): what the adapter injects into a
 * program it attaches to (connect.ts), which loads no modules. It installs the agent under its
 * versioned global key; a second run keeps the one there.
 */
import { installAgent } from './index.js';

installAgent(globalThis);
