/**
 * TensorFlow's startup lines, kept out of a program's stderr by the process that reads it (the
 * debug adapter, the CLI's parent). On CPUs where oneDNN is on by default, TensorFlow 2.21 prints
 * this pair when tfjs-node loads it, before its logging reads TF_CPP_MIN_LOG_LEVEL (levels 0–3 and
 * TF_ENABLE_ONEDNN_OPTS=1 tried; only TF_ENABLE_ONEDNN_OPTS=0 removes it, and turns oneDNN off).
 * A program cannot drop them itself: they are written to fd 2 from C++. TF_CPP_MIN_LOG_LEVEL=0
 * shows them, with TensorFlow's other INFO lines (runtime/backend.ts).
 */

/** Set in a program's environment when its stderr is already filtered: the CLI does not filter again. */
export const STDERR_FILTERED_ENV = 'TFJS_CALLBACKS_STDERR_FILTERED';

/** The lines, whole (each is dropped once, the first time it comes). */
export const TF_STARTUP_LINES: readonly RegExp[] = [
  /^WARNING: All log messages before absl::InitializeLog\(\) is called are written to STDERR$/,
  /^I\d{4} \d\d:\d\d:[\d.]+ +\d+ port\.cc:\d+\] oneDNN custom operations are on\. .*`TF_ENABLE_ONEDNN_OPTS=0`\.$/,
];

/** A partial line that may still become one of the lines: held until its end comes. */
const WARNING_START = 'WARNING: All log messages before absl';
const LOG_LINE_START = /^I(\d{0,4}|\d{4} .*)$/;

/** Whether TensorFlow's startup lines are dropped for a program with `env`: unless it asked for INFO logs. */
export function dropsTfStartupLines(env: Record<string, string | undefined>): boolean {
  return env.TF_CPP_MIN_LOG_LEVEL !== '0';
}

/**
 * Drops TensorFlow's startup lines from a stream of text and passes the rest through unchanged
 * and at once, except a partial line that may become one of them, which waits for its end (or
 * for `flush`).
 */
export class TfStartupFilter {
  private held = '';
  private readonly waiting = new Set(TF_STARTUP_LINES);

  /** The text to pass on now. */
  push(chunk: string): string {
    if (this.waiting.size === 0) return this.release() + chunk;
    const text = this.held + chunk;
    this.held = '';
    let out = '';
    let start = 0;
    for (let end = text.indexOf('\n', start); end >= 0; end = text.indexOf('\n', start)) {
      const line = text.slice(start, end);
      if (!this.drop(line)) out += `${line}\n`;
      start = end + 1;
    }
    const rest = text.slice(start);
    if (this.mayBecome(rest)) this.held = rest;
    else out += rest;
    return out;
  }

  /** A held partial line, for when the stream ends or has been quiet a while. */
  flush(): string {
    return this.release();
  }

  /** Whether a partial line is waiting for its end. */
  get holding(): boolean {
    return this.held !== '';
  }

  private release(): string {
    const held = this.held;
    this.held = '';
    return held;
  }

  private drop(line: string): boolean {
    const bare = line.endsWith('\r') ? line.slice(0, -1) : line;
    for (const pattern of this.waiting) {
      if (pattern.test(bare)) {
        this.waiting.delete(pattern);
        return true;
      }
    }
    return false;
  }

  private mayBecome(partial: string): boolean {
    if (partial === '') return false;
    if (partial.startsWith('W')) return WARNING_START.startsWith(partial) || partial.startsWith(WARNING_START);
    return LOG_LINE_START.test(partial);
  }
}

/** How long a held partial line may wait for its end before it is passed on as it is. */
const HOLD_MS = 100;

/**
 * Reads `source` (a program's stderr) and writes it to `write` without TensorFlow's startup
 * lines; `onEnd` after the last text. `encoding` 'latin1' passes bytes through unchanged (one
 * character per byte: the CLI writes them back as they came, whatever their encoding); 'utf8' is
 * for text shown in an editor.
 */
export function filterTfStartupLines(
  source: NodeJS.ReadableStream,
  write: (text: string) => void,
  onEnd?: () => void,
  encoding: 'utf8' | 'latin1' = 'utf8',
): void {
  const filter = new TfStartupFilter();
  let timer: NodeJS.Timeout | undefined;
  source.setEncoding?.(encoding);
  source.on('data', (chunk: string | Buffer) => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const out = filter.push(chunk.toString());
    if (out) write(out);
    if (filter.holding) {
      timer = setTimeout(() => {
        const held = filter.flush();
        if (held) write(held);
      }, HOLD_MS);
      timer.unref();
    }
  });
  source.on('end', () => {
    if (timer) clearTimeout(timer);
    const held = filter.flush();
    if (held) write(held);
    onEnd?.();
  });
}
