// The fork schedule of a node that does not report it (Hardhat says its chain and client in
// hardhat_metadata but not its hardfork): what its answers show. A header field proves its fork was
// active for that block (Prague adds requestsHash, Cancun the blob fields, Shanghai withdrawalsRoot,
// London baseFeePerGas, Paris a zero difficulty); eth_config (EIP-7910), where the node answers it,
// names precompiles and system contracts and the times of the next forks; a fork that adds no header
// field (Osaka) or forks before London are told by probes, init code run through eth_call at the
// latest block. Every fork up to the one found is stated at genesis unless eth_config gives a time.
// This is a guess about the node's rules: a wrong one shows in the first block whose gas or receipts
// differ from the node's header (replayCheck.ts), and capture's load checks the same.
import { UpstreamError } from '../errors/upstreamError.ts';
import type { UpstreamClient } from './client.ts';
import { configUpTo, forkAt, forkIndex, type ForkName, laterFork, timedFork } from './forkSchedule.ts';

export interface InferredForks {
  /** A go-ethereum chain config. */
  readonly config: Record<string, unknown>;
  /** What the schedule rests on, for the log and for a mismatch's message. */
  readonly source: string;
}

/** Returns the 32-byte word 1 (MSTORE and RETURN): run after the opcode probed, which an older fork lacks. */
const RETURN_ONE = '600160005260206000f3';

/** Probes, newest fork first: init code and what its one-word result must be for the fork to be active. */
const PROBES: readonly { fork: ForkName; what: string; code: string; holds: (word: bigint) => boolean }[] = [
  { fork: 'osaka', what: 'CLZ (EIP-7939)', code: `60001e50${RETURN_ONE}`, holds: (w) => w === 1n },
  { fork: 'cancun', what: 'TLOAD (EIP-1153)', code: `60005c50${RETURN_ONE}`, holds: (w) => w === 1n },
  { fork: 'shanghai', what: 'PUSH0 (EIP-3855)', code: `5f50${RETURN_ONE}`, holds: (w) => w === 1n },
  { fork: 'london', what: 'BASEFEE (EIP-3198)', code: `4850${RETURN_ONE}`, holds: (w) => w === 1n },
  // GAS, SLOAD of a cold slot, GAS: the difference is 2,107 from Berlin on, 807 in Istanbul
  { fork: 'berlin', what: 'a cold SLOAD costs 2,100 (EIP-2929)', code: '5a600054505a900360005260206000f3', holds: (w) => w >= 2100n },
  { fork: 'istanbul', what: 'CHAINID (EIP-1344)', code: `4650${RETURN_ONE}`, holds: (w) => w === 1n },
  // SHL came with Constantinople; Petersburg is the same fork without EIP-1283, which no devnet runs
  { fork: 'petersburg', what: 'SHL (EIP-145)', code: `600160001b50${RETURN_ONE}`, holds: (w) => w === 1n },
  { fork: 'byzantium', what: 'RETURNDATASIZE (EIP-211)', code: `3d50${RETURN_ONE}`, holds: (w) => w === 1n },
];

/** The fork a block's header fields prove active for it (a lower bound: Osaka adds no field). */
export function headerFork(header: Readonly<Record<string, unknown>>): ForkName | undefined {
  const has = (field: string): boolean => header[field] !== undefined && header[field] !== null;
  if (has('requestsHash')) return 'prague';
  if (has('parentBeaconBlockRoot') || has('excessBlobGas')) return 'cancun';
  if (has('withdrawalsRoot')) return 'shanghai';
  if (!has('baseFeePerGas')) return undefined;
  return typeof header['difficulty'] === 'string' && BigInt(header['difficulty']) === 0n ? 'paris' : 'london';
}

/** One fork's entry of an eth_config answer, as far as it is read here. */
export interface EthConfigFork {
  readonly activationTime: number;
  readonly blobSchedule?: { readonly target?: number; readonly max?: number; readonly baseFeeUpdateFraction?: number } | null;
  readonly precompiles?: Readonly<Record<string, string>>;
  readonly systemContracts?: Readonly<Record<string, string>>;
}

/** The blob parameters of bpo1 and bpo2 (EIP-7892), as ethereumjs 10.1.3 defines those forks. */
const BPO: readonly (readonly [ForkName, number, number, number])[] = [
  ['bpo2', 14, 21, 11684671],
  ['bpo1', 10, 15, 8346193],
];

/** The fork an eth_config entry describes, as far as its precompiles, system contracts and blob schedule tell. */
export function ethConfigFork(entry: EthConfigFork): ForkName {
  const precompiles = Object.keys(entry.precompiles ?? {});
  const system = Object.keys(entry.systemContracts ?? {});
  if (precompiles.includes('P256VERIFY')) {
    const blobs = entry.blobSchedule;
    const bpo = BPO.find(([, target, max, fraction]) => blobs?.target === target && blobs.max === max && blobs.baseFeeUpdateFraction === fraction);
    return bpo?.[0] ?? 'osaka';
  }
  if (precompiles.some((name) => name.startsWith('BLS12_')) || system.includes('HISTORY_STORAGE_ADDRESS')) return 'prague';
  if (precompiles.includes('KZG_POINT_EVALUATION') || system.includes('BEACON_ROOTS_ADDRESS')) return 'cancun';
  if (precompiles.includes('BLAKE2F')) return 'istanbul';
  return precompiles.includes('MODEXP') ? 'byzantium' : 'homestead';
}

interface EthConfig {
  readonly current: EthConfigFork;
  readonly next: EthConfigFork | null;
  readonly last: EthConfigFork | null;
}

/**
 * The activation times an eth_config answer gives, for `current` (the fork found at the head) and
 * the forks scheduled after it; and the last fork scheduled. A fork between `next` and `last` is
 * given `last`'s time (eth_config does not name it).
 */
export function scheduleFrom(answer: EthConfig, current: ForkName): { last: ForkName; times: Map<ForkName, bigint> } {
  const times = new Map<ForkName, bigint>();
  if (timedFork(current) && answer.current.activationTime > 0) times.set(current, BigInt(answer.current.activationTime));
  const after = forkAt(forkIndex(current) + 1);
  if (answer.next === null || after === undefined) return { last: current, times };
  // a fork whose precompiles are its predecessor's is at least the one after `current`
  const next = laterFork(ethConfigFork(answer.next), after)!;
  times.set(next, BigInt(answer.next.activationTime));
  const last = answer.last === null ? next : laterFork(ethConfigFork(answer.last), next)!;
  for (let i = forkIndex(next) + 1; i <= forkIndex(last); i++) times.set(forkAt(i)!, BigInt(answer.last!.activationTime));
  return { last, times };
}

/** The fork schedule of a node that does not report it; throws one line when nothing tells it. */
export async function inferForks(client: UpstreamClient, chainId: bigint): Promise<InferredForks> {
  const [genesis, latest, ethConfig] = await Promise.all([
    client.call<Record<string, unknown> | null>('eth_getBlockByNumber', ['0x0', false]),
    client.call<Record<string, unknown> | null>('eth_getBlockByNumber', ['latest', false]),
    client.call<EthConfig | null>('eth_config', []).catch(() => null),
  ]);
  const evidence: string[] = [];
  const fromHeaders = laterFork(genesis === null ? undefined : headerFork(genesis), latest === null ? undefined : headerFork(latest));
  if (fromHeaders !== undefined) evidence.push(`the headers (${fromHeaders} fields)`);
  const fromConfig = ethConfig?.current === undefined ? undefined : ethConfigFork(ethConfig.current);
  if (fromConfig !== undefined) evidence.push(`eth_config (${fromConfig} or later)`);
  let fork = laterFork(fromHeaders, fromConfig);
  for (const probe of PROBES) {
    if (fork !== undefined && forkIndex(probe.fork) <= forkIndex(fork)) break;
    if (await probeHolds(client, probe.code, probe.holds)) {
      evidence.push(`eth_call: ${probe.what}`);
      fork = probe.fork;
      break;
    }
  }
  if (fork === undefined || forkIndex(fork) < forkIndex('byzantium')) {
    throw new UpstreamError(
      `upstream ${client.url}: chain ${chainId}: the node does not report its forks and its answers do not tell them (a fork before Byzantium, or eth_call does not run code); give its genesis.json with --genesis`,
    );
  }
  const { last, times } = ethConfig?.current === undefined ? { last: fork, times: new Map<ForkName, bigint>() } : scheduleFrom(ethConfig, fork);
  const when = [...times].map(([name, time]) => `${name} at time ${time}`);
  const source = `${last}${when.length === 0 ? ' from genesis' : ` (${when.join(', ')})`}, inferred from ${evidence.join(', ')}`;
  return { config: configUpTo(chainId, last, times), source };
}

/** Runs `code` as a call's init code at the latest block; whether its one-word result holds. */
async function probeHolds(client: UpstreamClient, code: string, holds: (word: bigint) => boolean): Promise<boolean> {
  try {
    const result = await client.call<string>('eth_call', [{ data: `0x${code}` }, 'latest']);
    return /^0x[0-9a-fA-F]{64}$/.test(result) && holds(BigInt(result));
  } catch {
    return false; // an opcode the node's fork lacks: the call fails
  }
}
