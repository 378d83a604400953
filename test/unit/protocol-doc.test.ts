/**
 * debug-adapter/PROTOCOL.md holds together with the code that defines the custom messages: every
 * custom event and request name the adapter and extension exchange (the `…_EVENT` and `…_REQUEST`
 * constants of extension-protocol.ts and debuggee/terminal-protocol.ts) has its `## Event` or
 * `## Request` section, every such section names one of them, and the opening sentence counts them
 * right.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import * as terminalProtocol from '../../debug-adapter/debuggee/terminal-protocol.js';
import * as extensionProtocol from '../../debug-adapter/extension-protocol.js';
import { repoRoot } from '../fixtures/spawn.js';

const DOC = path.join(repoRoot, 'debug-adapter', 'PROTOCOL.md');
const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];

/** The names the code defines, by kind: the values of its exported `…_EVENT` / `…_REQUEST` constants. */
function namesInCode(kind: 'EVENT' | 'REQUEST'): string[] {
  const exported: Record<string, unknown> = { ...extensionProtocol, ...terminalProtocol };
  return Object.entries(exported)
    .filter(([key, value]) => key.endsWith(`_${kind}`) && typeof value === 'string')
    .map(([, value]) => value as string)
    .sort();
}

/** The names PROTOCOL.md gives a section: "## Event `graphRun`", "## Request `trainingVariables` and …". */
function namesInDoc(text: string, heading: 'Event' | 'Request'): string[] {
  return [...text.matchAll(new RegExp(`^## ${heading} \`([^\`]+)\``, 'gm'))].map((m) => m[1]!).sort();
}

test('PROTOCOL.md has a section for every custom event and request of the code, and no other', () => {
  const doc = readFileSync(DOC, 'utf8');
  const events = namesInCode('EVENT');
  const requests = namesInCode('REQUEST');
  assert.ok(events.length > 0 && requests.length > 0, 'the constants were found');
  assert.deepEqual(namesInDoc(doc, 'Event'), events, 'events: PROTOCOL.md against the code');
  assert.deepEqual(namesInDoc(doc, 'Request'), requests, 'requests: PROTOCOL.md against the code');
  const counted = /sends\s+(\w+)\s+custom\s+events\s+and\s+answers\s+(\w+)\s+custom\s+requests/.exec(doc);
  assert.ok(counted, 'the opening sentence counts the events and requests');
  assert.deepEqual([counted[1], counted[2]], [NUMBER_WORDS[events.length], NUMBER_WORDS[requests.length]]);
});
