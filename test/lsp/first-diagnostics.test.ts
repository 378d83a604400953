/**
 * A program just opened (issue 27 point 7), over the real server process with
 * quickFirstDiagnostics on, as the extension starts it: the first publish comes from the file
 * alone (a fresh project's first program parses some 6 MB of declarations: the Tout diagnostic
 * came 7 s after the open in code-server on 2 cores), the next from its project. The first says
 * nothing the second does not: a call whose facts come from the file's imports is left to the
 * second. An edit of an open program gets one publish, its project's.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, test } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { tempDir } from '../fixtures/callback-models.js';
import { MAIN_TS, makeFreshProject, REVIEWS_JS, STARS_CALL_LINE } from '../fixtures/lsp/fresh-project.js';
import { LspClient, lspFixture, messages, WAIT_MS } from '../helpers/lsp.js';
import { ProgramAnalyzer } from '../../extension/server/program-analysis.js';
import { TsProjects } from '../../extension/server/ts-projects.js';
import { WARMED_UP, warmUp } from '../../extension/server/warm-up.js';

const { dir, cleanup } = tempDir('lsp-first-diagnostics-');
after(cleanup);

/** `body` with a fresh server started with the extension's options. */
async function withFreshServer(body: (client: LspClient) => Promise<void>, workspaceFolder?: string): Promise<void> {
  const client = await LspClient.start({ ...(workspaceFolder ? { workspaceFolder } : {}), initializationOptions: { quickFirstDiagnostics: true } });
  try {
    await body(client);
  } finally {
    await client.stop();
  }
}

/** The first two publishes for the file just opened. */
async function twoPublishes(client: LspClient, uri: string): Promise<[Diagnostic[], Diagnostic[]]> {
  const first = await client.diagnostics(uri);
  const index = client.published.findIndex((p) => p.uri === uri);
  return [first, await client.diagnostics(uri, { after: index + 1 })];
}

const key = (d: Diagnostic) => JSON.stringify([d.code, d.range, d.message, d.severity]);

describe('the first diagnostics of a program opened in a fresh server', { timeout: WAIT_MS * 4 }, () => {
  test('reviews.js in a fresh project: the Tout diagnostic from the file alone, then the same from the project; main.ts in another folder the same; an edit one publish', async () => {
    const folders = ['reviews', 'main'].map((name) => path.join(dir, name));
    for (const folder of folders) makeFreshProject(folder, { withRuntime: true });
    const reviews = path.join(folders[0]!, 'reviews.js');
    fs.writeFileSync(reviews, REVIEWS_JS);
    const main = path.join(folders[1]!, 'main.ts');
    fs.writeFileSync(main, MAIN_TS);
    await withFreshServer(async (client) => {
      const uri = await client.open(reviews);
      const [first, second] = await twoPublishes(client, uri);
      assert.deepEqual(
        first.map((d) => [d.code, d.range.start.line + 1, messages([d])[0]!.split('\n')[0]]),
        [['tout-dtype', STARS_CALL_LINE, '0-th value returned by stars is int32, but expects float']],
      );
      assert.deepEqual(second.map(key), first.map(key), "the project's analysis says the same");

      // Another folder (no tsconfig either: the same project): its file first from itself again.
      const mainUri = await client.open(main);
      const [mainFirst, mainSecond] = await twoPublishes(client, mainUri);
      assert.deepEqual(
        mainFirst.map((d) => [d.code, messages([d])[0]!.split('\n')[0]]),
        [['tout-dtype', '0-th value returned by stars is int32, but expects float']],
      );
      assert.deepEqual(mainSecond.map(key), mainFirst.map(key));

      // An edit of a program its project holds: one publish, its project's.
      const mark = client.mark();
      const version = await client.change(uri, REVIEWS_JS.replace("{ name: 'stars' }", "{ name: 'whole_stars' }"));
      const edited = await client.diagnostics(uri, { version, after: mark });
      assert.deepEqual(
        edited.map((d) => messages([d])[0]!.split('\n')[0]),
        ['0-th value returned by whole_stars is int32, but expects float'],
      );
      // The edit's own publish (its version): a re-validation of the earlier version that opening
      // main.ts scheduled (its dependents, a moment later) may land after the mark too.
      const index = client.published.findIndex((p, i) => i >= mark && p.uri === uri && p.version === version);
      // A hover is answered after a validation already due: a second publish would be in by then.
      await client.hover(uri, 0, 0);
      assert.equal(client.published.filter((p, i) => i > index && p.uri === uri).length, 0, 'one publish for the edit');
    }, folders[0]);
  });

  test("a server started before any file opens (a TF.js project's window) warms up on a program of its own, publishes nothing for it, and the first file opened gets its diagnostics as before", async () => {
    const folder = path.join(dir, 'window');
    makeFreshProject(folder, { withRuntime: true });
    const reviews = path.join(folder, 'reviews.js');
    fs.writeFileSync(reviews, REVIEWS_JS);
    await withFreshServer(async (client) => {
      const deadline = Date.now() + WAIT_MS;
      while (!client.logs.some((l) => l.includes(WARMED_UP)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.ok(
        client.logs.some((l) => l.includes(WARMED_UP)),
        `the server's log: ${client.logs.join('\n')}\n${client.stderr}`,
      );
      const uri = await client.open(reviews);
      const [first, second] = await twoPublishes(client, uri);
      assert.deepEqual(
        first.map((d) => [d.code, d.range.start.line + 1]),
        [['tout-dtype', STARS_CALL_LINE]],
      );
      assert.deepEqual(second.map(key), first.map(key));
      assert.deepEqual([...new Set(client.published.map((p) => p.uri))], [uri], 'no publish for the warm-up program');
    }, folder);
  });

  test('the warm-up analyses its program and leaves nothing open: no root added to the project, no analysis cached', () => {
    const folder = path.join(dir, 'warm-up-unit');
    fs.mkdirSync(folder, { recursive: true });
    const projects = new TsProjects([folder]);
    try {
      const analyzer = new ProgramAnalyzer(projects, true);
      assert.ok(warmUp(analyzer, folder) > 0, 'its call is checked (a diagnostic: the callback takes one input, given none)');
      const file = path.join(folder, '.tfjs-callbacks-warm-up.js');
      assert.equal(analyzer.cached(pathToFileURL(file).href), undefined);
      assert.equal(projects.program(file)?.getSourceFile(file), undefined, 'not a root of its project');
    } finally {
      projects.dispose();
    }
  });

  for (const [fixture, note] of [
    ['pair-for-one.ts', "nothing first: the count messages list the values' types (NdArray), which the file alone does not know"],
    ['more-cases.ts', 'the arity of a callback imported from correct.ts only from the project'],
    ['wrong-arity.ts', "a function declared to return NdArray (the runtime's type): its arity only from the project"],
    ['float64-for-float32.ts', 'all of it first: typed arrays are in the ES libs'],
  ] as const) {
    test(`${fixture}: the first publish is a part of the project's, in the same words (${note})`, async () => {
      await withFreshServer(async (client) => {
        const uri = await client.open(lspFixture(fixture));
        const [first, second] = await twoPublishes(client, uri);
        assert.ok(second.length > 0, `the project's analysis finds ${fixture}'s problems`);
        const final = new Set(second.map(key));
        for (const d of first) assert.ok(final.has(key(d)), `the first publish's ${JSON.stringify(d)} is in the project's: ${[...final].join('\n')}`);
        if (fixture === 'pair-for-one.ts') assert.deepEqual(first, []);
        if (fixture === 'float64-for-float32.ts') assert.deepEqual(first.map(key), second.map(key));
        if (fixture === 'more-cases.ts') assert.ok(first.length > 0 && first.length < second.length, `some first: ${first.length} of ${second.length}`);
      });
    });
  }
});
