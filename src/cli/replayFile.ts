// The harness face: requests (arguments, or stdin lines) → dispatch → one stdout line each.
// A request with no answer (notification) gets an empty line, so line i answers request i.
import type { Readable, Writable } from 'node:stream';
import type { RpcContext } from '../rpc/context.ts';
import { dispatch } from '../rpc/dispatch.ts';

export interface ReplayIo {
  readonly stdin: Readable;
  readonly stdout: Writable;
}

const isBlank = (text: string): boolean => text.trim() === '';

async function* stdinLines(stdin: Readable): AsyncGenerator<string> {
  // imported when stdin is read: not every command that loads this file does
  const { createInterface } = await import('node:readline');
  const lines = createInterface({ input: stdin, crlfDelay: Infinity });
  for await (const line of lines) yield line;
}

function write(out: Writable, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    out.write(text, (err) => (err ? reject(err) : resolve()));
  });
}

/** Answers every request in order; resolves when the last line is written. */
export async function replayRequests(ctx: RpcContext, requests: readonly string[] | undefined, io: ReplayIo): Promise<void> {
  const source: AsyncIterable<string> | Iterable<string> = requests ?? stdinLines(io.stdin);
  for await (const request of source) {
    if (isBlank(request)) continue;
    const answer = await dispatch(request, ctx);
    await write(io.stdout, `${answer ?? ''}\n`);
  }
}
