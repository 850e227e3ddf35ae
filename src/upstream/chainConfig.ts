// The upstream chain's fork schedule, as a go-ethereum genesis (the one shape replay/common.ts
// reads): from a genesis file, from ethereumjs's definitions of the well-known chains, from an
// anvil's own report of its hardfork (anvil_nodeInfo: every fork up to it at genesis), or inferred
// from what any other node answers (forkInference.ts).
import { readFileSync } from 'node:fs';
import { Holesky, Hoodi, Mainnet, Sepolia } from '@ethereumjs/common';
import { FixtureError } from '../errors/fixtureError.ts';
import { UpstreamError } from '../errors/upstreamError.ts';
import { asGethGenesis } from '../fixture/json.ts';
import type { GethGenesis } from '../fixture/types.ts';
import type { UpstreamClient } from './client.ts';
import { inferForks } from './forkInference.ts';
import { configUpTo, forkNamed } from './forkSchedule.ts';

/** ethereumjs hardfork name → go-ethereum config key (params/config.go ChainConfig). */
const GETH_KEY: Record<string, string> = {
  homestead: 'homesteadBlock', dao: 'daoForkBlock', tangerineWhistle: 'eip150Block', spuriousDragon: 'eip158Block',
  byzantium: 'byzantiumBlock', constantinople: 'constantinopleBlock', petersburg: 'petersburgBlock',
  istanbul: 'istanbulBlock', muirGlacier: 'muirGlacierBlock', berlin: 'berlinBlock', london: 'londonBlock',
  arrowGlacier: 'arrowGlacierBlock', grayGlacier: 'grayGlacierBlock', paris: 'mergeForkBlock',
  mergeNetsplitBlock: 'mergeNetsplitBlock', shanghai: 'shanghaiTime', cancun: 'cancunTime', prague: 'pragueTime',
  osaka: 'osakaTime', bpo1: 'bpo1Time', bpo2: 'bpo2Time',
};

const WELL_KNOWN = new Map([Mainnet, Sepolia, Holesky, Hoodi].map((chain) => [BigInt(chain.chainId), chain]));

/** A well-known chain's schedule as a go-ethereum config, or undefined. */
export function wellKnownConfig(chainId: bigint): Record<string, unknown> | undefined {
  const chain = WELL_KNOWN.get(chainId);
  if (chain === undefined) return undefined;
  const config: Record<string, unknown> = { chainId: Number(chainId) };
  for (const fork of chain.hardforks) {
    const key = GETH_KEY[fork.name];
    if (key === undefined) continue; // chainstart, and forks not scheduled here
    if (key.endsWith('Time') && fork.timestamp !== null && fork.timestamp !== undefined) config[key] = Number(fork.timestamp);
    else if (key.endsWith('Block') && fork.block !== null) config[key] = fork.block;
  }
  return config;
}

/** Every fork up to anvil's `hardFork` at genesis; undefined for a name not known here. */
export function anvilConfig(chainId: bigint, hardFork: string): Record<string, unknown> | undefined {
  const fork = forkNamed(hardFork);
  return fork === undefined ? undefined : configUpTo(chainId, fork);
}

/** A chain's fork schedule and what it rests on (for the log, and for the message of a replay that disagrees). */
export interface UpstreamForks {
  readonly genesis: GethGenesis;
  readonly source: string;
}

/**
 * The fork schedule of the upstream's chain: the genesis file given, a well-known chain's, anvil's
 * report, or what the node's answers show (forkInference.ts). Throws one line when none can be found.
 */
export async function upstreamGenesis(client: UpstreamClient, chainId: bigint, genesisFile: string | undefined): Promise<UpstreamForks> {
  if (genesisFile !== undefined) {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(genesisFile, 'utf8'));
    } catch (err) {
      throw new FixtureError(`${genesisFile}: cannot read the genesis (${(err as Error).message})`);
    }
    const genesis = asGethGenesis(genesisFile, json);
    const declared = genesis.config['chainId'];
    if (declared !== undefined && BigInt(declared as string | number) !== chainId) {
      throw new FixtureError(`${genesisFile}: chainId ${String(declared)}, but upstream ${client.url} is chain ${chainId}`);
    }
    return { genesis, source: `from --genesis ${genesisFile}` };
  }
  const known = wellKnownConfig(chainId);
  if (known !== undefined) return { genesis: { config: known, alloc: {} }, source: `chain ${chainId}'s published schedule` };
  const info = await client.call<{ hardFork?: string }>('anvil_nodeInfo', []).catch(() => undefined);
  if (info?.hardFork !== undefined) {
    const fromAnvil = anvilConfig(chainId, info.hardFork);
    if (fromAnvil === undefined) throw new UpstreamError(`upstream ${client.url}: anvil runs hardfork ${info.hardFork}, which this tool cannot replay`);
    return { genesis: { config: fromAnvil, alloc: {} }, source: `${info.hardFork} from genesis (anvil_nodeInfo)` };
  }
  const inferred = await inferForks(client, chainId);
  return { genesis: { config: inferred.config, alloc: {} }, source: inferred.source };
}
