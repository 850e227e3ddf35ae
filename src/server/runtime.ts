// Which JavaScript runtime runs blocktrace: the server's faces differ by it (server/listen.ts puts
// the app on a socket with the runtime's own server; server/answerBody.ts writes large answers with
// Bun's direct streams).

export type Runtime = 'bun' | 'deno' | 'node';

export function currentRuntime(): Runtime {
  if ((globalThis as { Bun?: unknown }).Bun !== undefined) return 'bun';
  if ((globalThis as { Deno?: unknown }).Deno !== undefined) return 'deno';
  return 'node';
}
