// The HTTP body of a JSON-RPC answer. An answer of some size, in pieces (rpc/dispatch.ts
// AnswerPieces: a result between the text before and after it), goes out on Bun as a direct stream
// that writes the pieces one after the other: the answer's text joined would be a new copy of the
// result for every answer (the id differs), made by the engine flattening the string, which costs
// more than sending a large cached result (docs/performance.md, "Large answers"). Such
// an answer is sent chunked, as go-ethereum sends one: it writes its JSON to net/http's
// ResponseWriter, which sets a Content-Length only for an answer within its 2,048-byte buffer
// (net/http server.go bufferBeforeChunkingSize).
import type { AnswerPieces } from '../rpc/dispatch.ts';
import { currentRuntime } from './runtime.ts';

/** Answers in pieces at least this long (UTF-16 units) go out as a stream on Bun: net/http's buffer. */
export const STREAMED_ANSWER = 2048;

/** Bun's ReadableStream of `type: 'direct'`: its pull gets a controller that writes strings as they are. */
interface DirectController {
  write(chunk: string): void;
  close(): void;
}

const onBun = currentRuntime() === 'bun';

/** The body for `new Response(...)`: the answer's text, or on Bun a direct stream of its pieces when large. */
export function answerBody(pieces: AnswerPieces | undefined): string | ReadableStream<Uint8Array> {
  if (pieces === undefined) return '';
  if (!onBun || pieces.length === 1 || pieces.reduce((n, p) => n + p.length, 0) < STREAMED_ANSWER) return pieces.join('');
  const source = {
    type: 'direct',
    pull(controller: DirectController) {
      for (const piece of pieces) controller.write(piece);
      controller.close();
    },
  };
  return new ReadableStream(source as unknown as ConstructorParameters<typeof ReadableStream<Uint8Array>>[0]);
}
