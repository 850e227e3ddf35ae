// Common (fork rules) from a go-ethereum genesis. go-ethereum reads config keys case-insensitively,
// accepts decimal strings and lets EIP-155 and EIP-158 activate apart; ethereumjs wants neither, so
// the config is normalised first. ethereumjs starts Common on the last configured fork: callers set
// the hardfork per block (runBlock's setHardfork).
import { type Common, type GethGenesis as EjsGethGenesis, createCommonFromGethGenesis } from '@ethereumjs/common';
import type { KZG } from '@ethereumjs/util';
import { FixtureError } from '../errors/fixtureError.ts';
import type { GethGenesis } from '../fixture/types.ts';

// Fork keys ethereumjs understands, by lowercase name (go-ethereum params/config.go ChainConfig).
const FORK_KEYS = [
  'homesteadBlock', 'daoForkBlock', 'eip150Block', 'eip155Block', 'eip158Block', 'byzantiumBlock',
  'constantinopleBlock', 'petersburgBlock', 'istanbulBlock', 'muirGlacierBlock', 'berlinBlock',
  'londonBlock', 'arrowGlacierBlock', 'grayGlacierBlock', 'mergeNetsplitBlock', 'shanghaiTime',
  'cancunTime', 'pragueTime', 'osakaTime', 'bpo1Time', 'bpo2Time', 'mergeForkBlock',
];
const OTHER_KEYS = ['chainId', 'terminalTotalDifficulty', 'terminalTotalDifficultyPassed', 'blobSchedule', 'depositContractAddress', 'ethash', 'clique'];
// go-ethereum keys with no effect on replay here (ignored as geth ignores unknown keys).
const BY_LOWER = new Map([...FORK_KEYS, ...OTHER_KEYS].map((k) => [k.toLowerCase(), k]));
// Blob schedules ethereumjs 10.1.3 can read from a genesis: bpo entries break its lookup, and its
// built-in bpo1/bpo2 values equal the published ones (those of golden/execution-apis/tests/genesis.json).
const BLOB_SCHEDULE_FORKS = new Set(['cancun', 'prague', 'osaka']);

export function normaliseConfig(path: string, raw: Record<string, unknown>): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    const known = BY_LOWER.get(key.toLowerCase());
    if (known === undefined) {
      // A fork this replayer does not implement cannot be replayed faithfully: refuse it.
      if (/(Block|Time)$/.test(key) && value !== null && value !== undefined) {
        throw new FixtureError(`${path}: genesis config names a fork this tool cannot replay: "${key}"`);
      }
      continue;
    }
    if (FORK_KEYS.includes(known) || known === 'chainId') {
      if (value === null || value === undefined) continue;
      config[known] = toNumber(path, known, value);
    } else {
      config[known] = value;
    }
  }
  if (config['chainId'] === undefined) throw new FixtureError(`${path}: genesis config has no chainId`);
  // ethereumjs activates EIP-155 and EIP-158 together (SpuriousDragon); EIP-158's state rules are what
  // replay needs, and unprotected signatures stay valid either way.
  if (config['eip158Block'] !== undefined) config['eip155Block'] = config['eip158Block'];
  else delete config['eip155Block'];
  const schedule = config['blobSchedule'];
  if (schedule !== null && typeof schedule === 'object') {
    config['blobSchedule'] = Object.fromEntries(
      Object.entries(schedule as Record<string, unknown>).filter(([fork]) => BLOB_SCHEDULE_FORKS.has(fork.toLowerCase())),
    );
  }
  return config;
}

function toNumber(path: string, key: string, value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (typeof value === 'string' && /^(0x[0-9a-fA-F]+|[0-9]+)$/.test(value)) return Number(BigInt(value));
  if (typeof value === 'bigint') return Number(value);
  throw new FixtureError(`${path}: genesis config "${key}" is not a number`);
}

/** `transactionsAlone`: a state test's chain (ChainSpec.transactionsAlone; withoutBlockDuties). */
export function makeCommon(path: string, genesis: GethGenesis, kzg: KZG, keccak256?: (data: Uint8Array) => Uint8Array, transactionsAlone = false): Common {
  const config = normaliseConfig(path, genesis.config);
  const json = {
    ...genesis,
    config,
    nonce: typeof genesis['nonce'] === 'string' ? genesis['nonce'] : '0x0',
    difficulty: genesis['difficulty'] ?? '0x0',
    gasLimit: genesis['gasLimit'] ?? '0x0',
    timestamp: genesis['timestamp'] ?? '0x0',
  } as unknown as EjsGethGenesis;
  try {
    // Left on the last configured fork: the EVM picks fork-dependent backends (BLS) at construction.
    const common = withForkOrder(withEipSet(withParamsMemo(createCommonFromGethGenesis(json, { chain: 'fixture', customCrypto: { kzg, ...(keccak256 ? { keccak256 } : {}) } }))));
    return transactionsAlone ? withoutBlockDuties(common) : common;
  } catch (error) {
    throw new FixtureError(`${path}: unsupported genesis config (${(error as Error).message})`);
  }
}

interface ParamsInternals {
  _params: object;
  _paramsCache: object;
  readonly _hardfork: string;
  readonly _eips: readonly number[];
  _buildParamsCache(): void;
}

/** Per parameter table (shared by a Common and its copies): what was merged into it last, and the caches built on it. */
interface ParamsState {
  version: number;
  last: object | undefined;
  readonly built: Map<string, object>;
}

const paramsStates = new WeakMap<object, ParamsState>();

function paramsState(params: object): ParamsState {
  let state = paramsStates.get(params);
  if (state === undefined) paramsStates.set(params, (state = { version: 0, last: undefined, built: new Map() }));
  return state;
}

/**
 * Every transaction ethereumjs constructs copies its Common and merges the transaction parameters
 * into the parameter table the copies share (two JSON round trips), then rebuilds the copy's
 * parameter cache by walking every fork, for every transaction of a load. Merging the same table that was merged last
 * changes nothing, and a cache built for the same table, fork and EIPs is the same, so both are
 * skipped. The two methods are set on the instance, where Common.copy (Object.assign) carries them
 * to every copy.
 */
function withParamsMemo(common: Common): Common {
  const proto = Object.getPrototypeOf(common) as { updateParams(this: Common, params: object): void; _buildParamsCache(this: unknown): void };
  const self = common as unknown as ParamsInternals & { updateParams(params: object): void };
  self.updateParams = function (this: Common, params: object): void {
    const state = paramsState((this as unknown as ParamsInternals)._params);
    if (state.last === params) return (this as unknown as ParamsInternals)._buildParamsCache();
    state.version++;
    state.last = params;
    proto.updateParams.call(this, params);
  };
  self._buildParamsCache = function (this: ParamsInternals): void {
    const state = paramsState(this._params);
    const key = `${state.version} ${this._hardfork} ${this._eips.join(',')}`;
    const built = state.built.get(key);
    if (built !== undefined) {
      this._paramsCache = built;
      return;
    }
    proto._buildParamsCache.call(this);
    if (state.built.size >= 256) state.built.clear();
    state.built.set(key, this._paramsCache);
  };
  return common;
}

/** The activated EIPs of each list ethereumjs builds (a new array whenever the fork changes), as a Set. */
const eipSets = new WeakMap<readonly number[], ReadonlySet<number>>();

/**
 * ethereumjs asks isActivatedEIP on every opcode (twice in the interpreter's step alone, for
 * EIP-6800 and EIP-7864) and answers with a scan of the activated list, to its end for an EIP that
 * is not there. The same answer from a Set of that list, set on the instance as withParamsMemo is.
 */
function withEipSet(common: Common): Common {
  const self = common as unknown as { isActivatedEIP(eip: number): boolean; _activatedEIPsCache: readonly number[] };
  self.isActivatedEIP = function (this: { _activatedEIPsCache: readonly number[] }, eip: number): boolean {
    const list = this._activatedEIPsCache;
    let set = eipSets.get(list);
    if (set === undefined) eipSets.set(list, (set = new Set(list)));
    return set.has(eip);
  };
  return common;
}

/** Each fork's position in a hardfork list, by the list's array. */
const forkPositions = new WeakMap<object, ReadonlyMap<string, number>>();

/**
 * gteHardfork (ethereumjs hardforkGteHardfork) builds the fork list anew for every question (with a
 * Set of names when the chain has custom forks) and scans it: some forty times per eth_call. The
 * list is fixed per chain's parameters, so each name's position is looked up once; the answer is
 * ethereumjs's (the last position of a name, false for an unknown second fork).
 */
function withForkOrder(common: Common): Common {
  const self = common as unknown as { hardforkGteHardfork(a: string | null | undefined, b: string): boolean; _chainParams: object; _hardfork: string; hardforks(): readonly { name: string }[] };
  self.hardforkGteHardfork = function (this: typeof self, hardfork1: string | null | undefined, hardfork2: string): boolean {
    let positions = forkPositions.get(this._chainParams);
    if (positions === undefined) {
      const map = new Map<string, number>();
      this.hardforks().forEach((hf, i) => map.set(hf.name, i));
      forkPositions.set(this._chainParams, (positions = map));
    }
    const second = positions.get(hardfork2);
    if (second === undefined) return false;
    return (positions.get(hardfork1 ?? this._hardfork) ?? -1) >= second;
  };
  return common;
}

/** The EIPs whose only work is runBlock's around the transactions: system calls and requests. */
const BLOCK_DUTY_EIPS: ReadonlySet<number> = new Set([2935, 4788, 7685]);

/**
 * A state test's chain: runBlock pays a proof-of-work block's reward (when block.common's consensus is
 * proof of work), makes the system calls of EIP-4788 and EIP-2935 and collects EIP-7685's requests
 * (when those EIPs are active); go-ethereum's state tests apply the message alone and then add 0 to
 * the coinbase (tests/state_test_util.go), which runTx's fee payment already does here (it writes the
 * coinbase, and the end of the transaction drops it if empty after EIP-158). So this Common answers a
 * consensus of its own, neither proof of work (no reward, not even 0, whose credit would leave an
 * empty coinbase after EIP-158) nor proof of stake or authority (whose header rules ethereumjs checks
 * when runBlock rebuilds the block), and those EIPs off; none of it changes how a transaction runs
 * (DIFFICULTY follows EIP-4399). Set on the instance, which Common.copy carries to every copy.
 */
function withoutBlockDuties(common: Common): Common {
  const self = common as unknown as { isActivatedEIP(eip: number): boolean; consensusType(): string };
  const isActivated = self.isActivatedEIP;
  self.isActivatedEIP = function (this: unknown, eip: number): boolean {
    return !BLOCK_DUTY_EIPS.has(eip) && isActivated.call(this, eip);
  };
  self.consensusType = (): string => STATE_TEST_CONSENSUS;
  return common;
}

/** The consensus a state test's Common answers (withoutBlockDuties): no block rules of any kind. */
const STATE_TEST_CONSENSUS = 'none (state test)';
