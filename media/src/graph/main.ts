/**
 * The graph view webview's entry (bundled into media/dist/graph.js): starts the view in the page
 * the panel serves (extension/graph-html.ts).
 */
import { GraphApp } from './app.js';
import { acquireHost } from './host.js';

const root = document.getElementById('graph-app');
if (!root) throw new Error('graph view: #graph-app is missing from the page');
new GraphApp(root, acquireHost()).start();
