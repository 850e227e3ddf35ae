// The viewer's one way to the chain: JSON-RPC over POST / (so it works in upstream mode too).
let id = 0;

export async function rpc<T>(method: string, params: unknown[]): Promise<T> {
  const res = await fetch('/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) });
  const json = (await res.json()) as { result?: T; error?: { message: string } };
  if (json.error !== undefined) throw new Error(`${method}: ${json.error.message}`);
  return json.result as T;
}
