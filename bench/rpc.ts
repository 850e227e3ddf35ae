// JSON-RPC over HTTP for the benchmark: one timed POST, and a call that wants a result.

export interface Timed {
  readonly ms: number;
  readonly status: number;
  readonly text: string;
}

export const body = (method: string, params: readonly unknown[]): string =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });

/** POSTs `text` and reads the whole response; `ms` is wall time from send to the last byte. */
export async function post(url: string, text: string, timeoutMs = 60_000): Promise<Timed> {
  const start = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: text,
    signal: AbortSignal.timeout(timeoutMs),
  });
  const answer = await response.text();
  return { ms: performance.now() - start, status: response.status, text: answer };
}

/** The `result` of a call; throws with the server's error otherwise. */
export async function call<T>(url: string, method: string, params: readonly unknown[] = []): Promise<T> {
  const answer = await post(url, body(method, params));
  const json = JSON.parse(answer.text) as { result?: T; error?: unknown };
  if (answer.status !== 200 || !('result' in json)) {
    throw new Error(`${method} at ${url}: HTTP ${answer.status} ${answer.text.slice(0, 300)}`);
  }
  return json.result as T;
}

/** A timed POST that must come back as HTTP 200 with a `result` (not an error). */
export async function timedResult(url: string, text: string): Promise<Timed> {
  const answer = await post(url, text);
  if (answer.status !== 200 || !answer.text.includes('"result"')) {
    throw new Error(`${url} ${text}: HTTP ${answer.status} ${answer.text.slice(0, 300)}`);
  }
  return answer;
}

/** Polls `method` until the server answers or `timeoutMs` passes. */
export async function waitReady(url: string, timeoutMs: number, exited: () => boolean): Promise<void> {
  const until = performance.now() + timeoutMs;
  for (;;) {
    if (exited()) throw new Error(`${url}: the server exited before answering`);
    try {
      await call(url, 'eth_chainId');
      return;
    } catch (error) {
      if (performance.now() > until) throw new Error(`${url}: not ready within ${timeoutMs} ms (${(error as Error).message})`);
      await Bun.sleep(100);
    }
  }
}
