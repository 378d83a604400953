// A node:test reporter that prints nothing until the run ends, then every failed test with its
// file and error, so the last lines of a long CI log say what failed (the TAP above runs to tens of
// thousands of lines, and a CI page shows only its end).
export default async function* failuresReporter(source) {
  const failed = [];
  for await (const event of source) {
    if (event.type !== 'test:fail') continue;
    const { name, file, line, details } = event.data;
    const error = details?.error;
    // A suite fails when a test in it fails; the test itself is listed.
    if (error?.failureType === 'subtestsFailed') continue;
    failed.push({ name, where: file ? `${file}${line ? `:${line}` : ''}` : '(no file)', error });
  }
  if (failed.length === 0) return;
  yield `\n# failed tests: ${failed.length}\n`;
  for (const { name, where, error } of failed) {
    const cause = error?.cause ?? error;
    const message = String(cause?.message ?? cause ?? 'no error message')
      .split('\n')
      .slice(0, 12);
    yield `# not ok: ${name}\n#   at ${where}\n${message.map((text) => `#   ${text}\n`).join('')}`;
  }
}
