// `--log json`: one JSON object a line on stderr for every HTTP request and every WebSocket frame
// answered, as a fleet's log collector reads them: when it came, the JSON-RPC method (`batch` with
// the number of calls for a batch, null for a body that is not a request, or a path other than
// POST /), the HTTP method (`WS` for a frame) and path, the status (null for a frame: it has none)
// and how long the answer took to make, in milliseconds (its sending not counted).

export interface RequestLogEntry {
  readonly http: string;
  readonly path: string;
  /** The HTTP status; null for a WebSocket frame. */
  readonly status: number | null;
  readonly ms: number;
  /** The request body of POST /, whose method is logged. */
  readonly body?: string | undefined;
}

/** The JSON-RPC method of a request body: its name, `batch` (with `calls`), or null. */
function methodOf(body: string | undefined): { method: string | null; calls?: number } {
  if (body === undefined) return { method: null };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { method: null };
  }
  if (Array.isArray(parsed)) return { method: 'batch', calls: parsed.length };
  const method = (parsed as { method?: unknown } | null)?.method;
  return { method: typeof method === 'string' ? method : null };
}

/** The line for one request (no newline). */
export function requestLogLine(entry: RequestLogEntry, now = new Date()): string {
  return JSON.stringify({ time: now.toISOString(), ...methodOf(entry.body), http: entry.http, path: entry.path, status: entry.status, ms: Math.round(entry.ms * 1000) / 1000 });
}
