// Why `serve` could not listen, when the cause is the host rather than the port: a name that does not
// resolve, or an address that is not this machine's. Runtimes report both as a failed listen (Bun:
// "Failed to start server. Is port N in use?"), which sends a person to look for another process.
import { lookup } from 'node:dns/promises';
import { networkInterfaces } from 'node:os';

const ANY = new Set(['0.0.0.0', '::', '::0']);

/** The addresses this machine listens on: its interfaces', the loopback range and the wildcards. */
function isLocal(address: string): boolean {
  if (ANY.has(address) || address === '::1' || address.startsWith('127.')) return true;
  return Object.values(networkInterfaces()).some((list) => (list ?? []).some((i) => i.address === address));
}

/** A sentence naming what is wrong with `host`, or undefined when the host is fine (so the port was the problem). */
export async function hostProblem(host: string): Promise<string | undefined> {
  let addresses: { address: string }[];
  try {
    addresses = await lookup(host, { all: true });
  } catch (err) {
    return `${host} does not resolve to an address (${(err as NodeJS.ErrnoException).code ?? String(err)})`;
  }
  if (addresses.some((a) => isLocal(a.address))) return undefined;
  const resolved = addresses.map((a) => a.address).filter((a) => a !== host);
  return `${host}${resolved.length === 0 ? '' : ` (${resolved.join(', ')})`} is not an address of this machine`;
}
