// The upstream chain's fork schedule, as a go-ethereum genesis (the one shape replay/common.ts
// reads): from a genesis file, from ethereumjs's definitions of the well-known chains, or from an
// anvil's own report of its hardfork (anvil_nodeInfo: every fork up to it at genesis).
import { readFileSync } from 'node:fs';
import { Holesky, Hoodi, Mainnet, Sepolia } from '@ethereumjs/common';
import { FixtureError } from '../errors/fixtureError.ts';
import { UpstreamError } from '../errors/upstreamError.ts';
import { asGethGenesis } from '../fixture/json.ts';
import type { GethGenesis } from '../fixture/types.ts';
import type { UpstreamClient } from './client.ts';

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

/** Forks in order, as anvil names them (lowercase), with the config keys they set at genesis. */
const ANVIL_FORKS: readonly (readonly [string, Record<string, unknown>])[] = [
  ['homestead', { homesteadBlock: 0 }],
  ['tangerine', { eip150Block: 0 }],
  ['spuriousdragon', { eip155Block: 0, eip158Block: 0 }],
  ['byzantium', { byzantiumBlock: 0 }],
  ['constantinople', { constantinopleBlock: 0 }],
  ['petersburg', { petersburgBlock: 0 }],
  ['istanbul', { istanbulBlock: 0 }],
  ['muirglacier', { muirGlacierBlock: 0 }],
  ['berlin', { berlinBlock: 0 }],
  ['london', { londonBlock: 0 }],
  ['arrowglacier', { arrowGlacierBlock: 0 }],
  ['grayglacier', { grayGlacierBlock: 0 }],
  ['paris', { terminalTotalDifficulty: 0, terminalTotalDifficultyPassed: true, mergeNetsplitBlock: 0 }],
  ['shanghai', { shanghaiTime: 0 }],
  ['cancun', { cancunTime: 0 }],
  ['prague', { pragueTime: 0 }],
  ['osaka', { osakaTime: 0 }],
  ['bpo1', { bpo1Time: 0 }],
  ['bpo2', { bpo2Time: 0 }],
];
const ANVIL_ALIASES: Record<string, string> = { merge: 'paris', tangerinewhistle: 'tangerine' };

/** Every fork up to anvil's `hardFork` at genesis; undefined for a name not known here. */
export function anvilConfig(chainId: bigint, hardFork: string): Record<string, unknown> | undefined {
  const plain = hardFork.toLowerCase().replace(/[^a-z0-9]/g, '');
  const name = ANVIL_ALIASES[plain] ?? plain;
  const last = ANVIL_FORKS.findIndex(([fork]) => fork === name);
  if (last === -1) return undefined;
  return Object.assign({ chainId: Number(chainId) }, ...ANVIL_FORKS.slice(0, last + 1).map(([, keys]) => keys));
}

/** The fork schedule of the upstream's chain; throws one line when none can be found. */
export async function upstreamGenesis(client: UpstreamClient, chainId: bigint, genesisFile: string | undefined): Promise<GethGenesis> {
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
    return genesis;
  }
  const known = wellKnownConfig(chainId);
  if (known !== undefined) return { config: known, alloc: {} };
  const info = await client.call<{ hardFork?: string }>('anvil_nodeInfo', []).catch(() => undefined);
  const fromAnvil = info?.hardFork === undefined ? undefined : anvilConfig(chainId, info.hardFork);
  if (fromAnvil !== undefined) return { config: fromAnvil, alloc: {} };
  throw new UpstreamError(`upstream ${client.url}: chain ${chainId} is not a well-known chain and the node does not report its forks; give its genesis.json with --genesis`);
}
