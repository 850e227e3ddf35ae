// eth_config (EIP-7910) and eth_capabilities as go-ethereum answers them (internal/ethapi/api.go
// Config, capabilities.go), from the fixture's go-ethereum chain config. Upstream mode forwards both.
import { bytesToHex } from '@ethereumjs/util';
import { crc32 } from 'hash-wasm/dist/crc32.umd.min.js';
import { hexBytes, hexQuantity } from '../../encoding/hex.ts';
import { ServerError } from '../../errors/rpcErrors.ts';
import type { ChainView } from '../../replay/chainView.ts';
import type { RpcContext } from '../context.ts';

/** params/forks/forks.go from Paris on, in order, with the config key of each time-based fork. */
const TIME_FORKS = [
  ['paris', undefined],
  ['shanghai', 'shanghaiTime'],
  ['cancun', 'cancunTime'],
  ['prague', 'pragueTime'],
  ['osaka', 'osakaTime'],
  ['bpo1', 'bpo1Time'],
  ['bpo2', 'bpo2Time'],
  ['bpo3', 'bpo3Time'],
  ['bpo4', 'bpo4Time'],
  ['bpo5', 'bpo5Time'],
  ['amsterdam', 'amsterdamTime'],
  ['bogota', 'bogotaTime'],
] as const;
type Fork = (typeof TIME_FORKS)[number][0];
const forkIndex = (fork: Fork): number => TIME_FORKS.findIndex(([name]) => name === fork);

/** params/config.go ChainConfig: the fields forkid.gatherForks reads (names ending in Block or Time). */
const BLOCK_KEYS = [
  'homesteadBlock', 'daoForkBlock', 'eip150Block', 'eip155Block', 'eip158Block', 'byzantiumBlock', 'constantinopleBlock',
  'petersburgBlock', 'istanbulBlock', 'muirGlacierBlock', 'berlinBlock', 'londonBlock', 'arrowGlacierBlock',
  'grayGlacierBlock', 'mergeNetsplitBlock',
];
const TIME_KEYS = [...TIME_FORKS.flatMap(([, key]) => (key === undefined ? [] : [key])), 'ubtTime'];

/** core/vm/contracts.go: each precompile's Name(), address and the fork that adds it. */
const PRECOMPILES: readonly (readonly [name: string, address: number, from: 'homestead' | 'byzantium' | 'istanbul' | Fork])[] = [
  ['ECREC', 1, 'homestead'], ['SHA256', 2, 'homestead'], ['RIPEMD160', 3, 'homestead'], ['ID', 4, 'homestead'],
  ['MODEXP', 5, 'byzantium'], ['BN254_ADD', 6, 'byzantium'], ['BN254_MUL', 7, 'byzantium'], ['BN254_PAIRING', 8, 'byzantium'],
  ['BLAKE2F', 9, 'istanbul'], ['KZG_POINT_EVALUATION', 0x0a, 'cancun'],
  ['BLS12_G1ADD', 0x0b, 'prague'], ['BLS12_G1MSM', 0x0c, 'prague'], ['BLS12_G2ADD', 0x0d, 'prague'], ['BLS12_G2MSM', 0x0e, 'prague'],
  ['BLS12_PAIRING_CHECK', 0x0f, 'prague'], ['BLS12_MAP_FP_TO_G1', 0x10, 'prague'], ['BLS12_MAP_FP2_TO_G2', 0x11, 'prague'],
  ['P256VERIFY', 0x100, 'osaka'],
];

/** params/protocol_params.go system contract addresses. */
const BEACON_ROOTS = '0x000f3df6d732807ef1319fb7b8bb8522d0beac02';
const HISTORY_STORAGE = '0x0000f90827f1c53a10cb7a02335b175320002935';
const WITHDRAWAL_QUEUE = '0x00000961ef480eb55e80d19ad83579a64c007002';
const CONSOLIDATION_QUEUE = '0x0000bbddc7ce488642fb579f8b00f3a590007251';

/** A config value as go-ethereum reads it: key case-insensitive, a number or a numeric string. */
function configNumber(config: Readonly<Record<string, unknown>>, key: string): bigint | undefined {
  const lower = key.toLowerCase();
  const found = Object.entries(config).find(([k]) => k.toLowerCase() === lower)?.[1];
  if (typeof found === 'number' && Number.isSafeInteger(found)) return BigInt(found);
  if (typeof found === 'string' && /^(0x[0-9a-fA-F]+|[0-9]+)$/.test(found)) return BigInt(found);
  return undefined;
}

function configObject(config: Readonly<Record<string, unknown>>, key: string): Record<string, unknown> | undefined {
  const lower = key.toLowerCase();
  const found = Object.entries(config).find(([k]) => k.toLowerCase() === lower)?.[1];
  return found !== null && typeof found === 'object' && !Array.isArray(found) ? (found as Record<string, unknown>) : undefined;
}

const u64 = (value: bigint): Uint8Array => {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, value);
  return out;
};

class ForkSchedule {
  constructor(private readonly config: Readonly<Record<string, unknown>>) {}

  time(fork: Fork): bigint | undefined {
    const key = TIME_FORKS[forkIndex(fork)]![1];
    return key === undefined ? undefined : configNumber(this.config, key);
  }

  /** params/config.go LatestFork: the last time-based fork active at `time` (London's block assumed passed). */
  latest(time: bigint): Fork {
    if (configNumber(this.config, 'londonBlock') !== undefined) {
      for (let i = TIME_FORKS.length - 1; i > 0; i--) {
        const at = this.time(TIME_FORKS[i]![0]);
        if (at !== undefined && at <= time) return TIME_FORKS[i]![0];
      }
    }
    return 'paris';
  }

  /** Whether a fork (block forks by London's block, as Rules(c.LondonBlock, true, t) does) is active. */
  active(fork: (typeof PRECOMPILES)[number][2], time: bigint): boolean {
    const london = configNumber(this.config, 'londonBlock');
    if (fork === 'homestead' || fork === 'byzantium' || fork === 'istanbul') {
      const at = configNumber(this.config, `${fork}Block`);
      return at !== undefined && london !== undefined && at <= london;
    }
    return forkIndex(this.latest(time)) >= forkIndex(fork);
  }

  /** params/config.go BlobConfig: the first schedule entry at or below the fork, BPO5 down to Cancun. */
  blobConfig(fork: Fork): Record<string, number> | null {
    const schedule = configObject(this.config, 'blobSchedule');
    if (schedule === undefined) return null;
    for (const name of ['bpo5', 'bpo4', 'bpo3', 'bpo2', 'bpo1', 'prague', 'cancun'] as const) {
      const entry = configObject(schedule, name);
      if (forkIndex(name) <= forkIndex(fork) && entry !== undefined) {
        return { target: Number(entry['target'] ?? 0), max: Number(entry['max'] ?? 0), baseFeeUpdateFraction: Number(entry['baseFeeUpdateFraction'] ?? 0) };
      }
    }
    return null;
  }
}

/** core/forkid/forkid.go NewID(config, genesis, head = 2^64-1, time): the CRC32 of the genesis hash and every passed fork. */
async function forkId(config: Readonly<Record<string, unknown>>, genesisHash: Uint8Array, genesisTime: bigint, time: bigint): Promise<string> {
  const dedupe = (values: bigint[]): bigint[] => [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const byBlock = dedupe(BLOCK_KEYS.flatMap((k) => configNumber(config, k) ?? [])).filter((b) => b !== 0n);
  const byTime = dedupe(TIME_KEYS.flatMap((k) => configNumber(config, k) ?? [])).filter((t) => t > genesisTime && t <= time);
  const parts = [genesisHash, ...byBlock.map(u64), ...byTime.map(u64)];
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return `0x${await crc32(all)}`;
}

async function assemble(chain: ChainView, config: Readonly<Record<string, unknown>>, at: bigint | undefined) {
  if (at === undefined) return null;
  const schedule = new ForkSchedule(config);
  const genesisTime = chain.genesis.block.header.timestamp;
  const precompiles = PRECOMPILES.filter(([, , from]) => schedule.active(from, at))
    .map(([name, address]) => [name, `0x${address.toString(16).padStart(40, '0')}`] as const)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  const fork = schedule.latest(at);
  const system: [string, string][] = [];
  // params/config.go ActiveSystemContracts
  if (forkIndex(fork) >= forkIndex('prague')) {
    const deposit = Object.entries(config).find(([k]) => k.toLowerCase() === 'depositcontractaddress')?.[1];
    system.push(
      ['CONSOLIDATION_REQUEST_PREDEPLOY_ADDRESS', CONSOLIDATION_QUEUE],
      ['DEPOSIT_CONTRACT_ADDRESS', typeof deposit === 'string' ? deposit.toLowerCase() : bytesToHex(new Uint8Array(20))],
      ['HISTORY_STORAGE_ADDRESS', HISTORY_STORAGE],
      ['WITHDRAWAL_REQUEST_PREDEPLOY_ADDRESS', WITHDRAWAL_QUEUE],
    );
  }
  if (forkIndex(fork) >= forkIndex('cancun')) system.push(['BEACON_ROOTS_ADDRESS', BEACON_ROOTS]);
  system.sort(([a], [b]) => (a < b ? -1 : 1));
  return {
    // "If a fork is activated at genesis the value 0 is used"
    activationTime: genesisTime >= at ? 0 : Number(at),
    blobSchedule: schedule.blobConfig(fork),
    chainId: hexQuantity(chain.chainId),
    forkId: await forkId(config, chain.genesis.hash, genesisTime, at),
    precompiles: Object.fromEntries(precompiles),
    systemContracts: Object.fromEntries(system),
  };
}

/** internal/ethapi/api.go Config: the current fork, the next and the last scheduled (null when none). */
export async function ethConfig(_args: [], ctx: RpcContext) {
  const config = ctx.chain.forkConfig;
  if (config === undefined) throw new ServerError('eth_config is not available here');
  const schedule = new ForkSchedule(config);
  const time = ctx.chain.head.block.header.timestamp;
  const current = schedule.latest(time);
  const following = TIME_FORKS[forkIndex(current) + 1]?.[0];
  const next = following === undefined ? null : await assemble(ctx.chain, config, schedule.time(following));
  const last = next === null ? null : await assemble(ctx.chain, config, schedule.time(schedule.latest(2n ** 64n - 1n)));
  return { current: await assemble(ctx.chain, config, schedule.time(current)), next, last };
}

/**
 * internal/ethapi/capabilities.go buildCapabilities for an archive node that keeps every block from
 * 0, with go-ethereum's default log index window (--history.logs 2350000, a window whose oldest
 * block is 0 on any chain shorter than it): what a fixture chain can serve.
 */
export function ethCapabilities(_args: [], ctx: RpcContext) {
  const head = ctx.chain.head;
  const all = { disabled: false, oldestBlock: '0x0' };
  const window = 2_350_000n;
  const oldestLog = head.number + 1n <= window ? 0n : head.number + 1n - window;
  return {
    head: { number: hexQuantity(head.number), hash: hexBytes(head.hash) },
    state: all,
    tx: all,
    logs: { disabled: false, oldestBlock: hexQuantity(oldestLog), deleteStrategy: { type: 'window', retentionBlocks: hexQuantity(window) } },
    receipts: all,
    blocks: all,
    stateproofs: all,
  };
}
