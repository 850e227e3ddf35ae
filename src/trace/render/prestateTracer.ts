// prestateTracer as go-ethereum v1.17.5 answers debug_trace*: eth/tracers/native/prestate.go
// (lookupAccount, processDiffState, OnTxEnd) and gen_account_json.go (key order, omitempty).
// Input is the recorder's StateLog: which accounts and slots were looked up, their values at first
// touch and at transaction end. Output is an ordered JSON value for encoding/json.ts, its accounts
// rendered as they are written (encoding/lazyJson.ts).
import { EMPTY_CODE_HASH, sameBytes } from '../bytes.ts';
import { type Static, Type } from '@sinclair/typebox';
import { hexBytes, hexQuantity, hexWord } from '../../encoding/hex.ts';
import { LazyObject } from '../../encoding/lazyJson.ts';
import { ARENA_AND_STATE, type RecordedTracer } from '../tracerEntry.ts';
import type { StateLog, TouchedAccount, TxRecording } from '../types.ts';

export const PrestateConfigSchema = Type.Object(
  {
    diffMode: Type.Optional(Type.Boolean()),
    disableCode: Type.Optional(Type.Boolean()),
    disableStorage: Type.Optional(Type.Boolean()),
    includeEmpty: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type PrestateConfig = Static<typeof PrestateConfigSchema>;

/** One account, keys in go-ethereum's order; every key is omitempty. */
export interface PrestateAccount {
  balance?: string;
  code?: string;
  codeHash?: string;
  /** A JSON number (a raw JSON number above 2^53). */
  nonce?: unknown;
  storage?: Record<string, string>;
}
/** Address (`0x` lowercase) → account, addresses ascending. */
export type PrestateMap = LazyObject<PrestateAccount>;
/** diffMode output: `post` before `pre`. */
export interface PrestateDiff {
  post: PrestateMap;
  pre: PrestateMap;
}

// go-ethereum's `account` before marshalling: undefined is a nil field (omitted).
interface Account {
  balance: bigint | undefined;
  /** undefined: omitted; empty: `"0x"` (code cleared, diff post only). */
  code: Uint8Array | undefined;
  codeHash: Uint8Array | undefined;
  nonce: bigint;
  storage: Map<string, bigint> | undefined;
}

const ZERO_HASH = new Uint8Array(32);
const NO_CODE = new Uint8Array(0);

/** go-ethereum lookupAccount: the account as first seen, with its slots as first read. */
function lookedUp(t: TouchedAccount, config: PrestateConfig): Account {
  const { pre } = t;
  const hash = pre.codeHash;
  return {
    balance: pre.balance,
    code: !config.disableCode && pre.code.length > 0 ? pre.code : undefined,
    // Kept even with disableCode; empty-code and missing-account hashes are left out.
    codeHash: sameBytes(hash, ZERO_HASH) || sameBytes(hash, EMPTY_CODE_HASH) ? undefined : hash,
    nonce: pre.nonce,
    storage: config.disableStorage ? undefined : new Map(t.preStorage),
  };
}

/** The state at tx end as go-ethereum's StateDB reads it after Finalise: a missing account reads as zero. */
interface EndState {
  readonly balance: bigint;
  readonly nonce: bigint;
  readonly code: Uint8Array;
  /** Zero hash for a missing account (StateDB.GetCodeHash), keccak('') for an existing codeless one. */
  readonly codeHash: Uint8Array;
  slot(key: string): bigint;
}

function endState(address: string, t: TouchedAccount): EndState {
  const post = t.existsAfter ? t.post : undefined;
  if (post === undefined) {
    if (t.existsAfter) throw new Error(`prestateTracer: no post state recorded for existing account 0x${address}`);
    return { balance: 0n, nonce: 0n, code: NO_CODE, codeHash: ZERO_HASH, slot: () => 0n };
  }
  return {
    balance: post.balance,
    nonce: post.nonce,
    code: post.code,
    codeHash: post.code.length === 0 ? EMPTY_CODE_HASH : post.codeHash,
    slot(key) {
      const value = t.postStorage.get(key);
      if (value === undefined) throw new Error(`prestateTracer: no post value recorded for slot 0x${key} of 0x${address}`);
      return value;
    },
  };
}

/** go-ethereum processDiffState for one account: the post entry, or undefined if nothing changed. Trims `pre.storage`. */
function diffAccount(address: string, t: TouchedAccount, pre: Account, config: PrestateConfig): Account | undefined {
  const end = endState(address, t);
  const storage = new Map<string, bigint>();
  const post: Account = { balance: undefined, code: undefined, codeHash: undefined, nonce: 0n, storage };
  let modified = false;
  if (end.balance !== pre.balance) {
    modified = true;
    post.balance = end.balance;
  }
  if (end.nonce !== pre.nonce) {
    modified = true;
    post.nonce = end.nonce; // a nonce back to 0 counts as a change but marshals as nothing (omitempty)
  }
  if (!sameBytes(end.codeHash, pre.codeHash ?? EMPTY_CODE_HASH)) {
    modified = true;
    post.codeHash = end.codeHash;
  }
  if (!config.disableCode && !sameBytes(end.code, pre.code ?? NO_CODE)) {
    modified = true;
    post.code = end.code;
  }
  if (pre.storage !== undefined) {
    for (const [key, value] of t.preStorage) {
      if (value === 0n) pre.storage.delete(key);
      const now = end.slot(key);
      if (now === value) {
        pre.storage.delete(key);
      } else {
        modified = true;
        if (now !== 0n) storage.set(key, now);
      }
    }
  }
  return modified ? post : undefined;
}

/**
 * go-ethereum's deleted set: pre-Cancun every SELFDESTRUCT deletes; with EIP-6780 only a contract
 * created in the same transaction (prestate.go OnOpcode).
 */
function isDeleted(log: StateLog, address: string): boolean {
  return log.selfDestructed.has(address) && (!log.eip6780 || log.created.has(address));
}

export function renderPrestate(tx: TxRecording, config: PrestateConfig): PrestateMap | PrestateDiff {
  const log = tx.state;
  if (!config.diffMode) return new LazyObject(() => lookedUpAccounts(log, config));
  return { post: new LazyObject(() => diffSide(log, config, 'post')), pre: new LazyObject(() => diffSide(log, config, 'pre')) };
}

function* lookedUpAccounts(log: StateLog, config: PrestateConfig): Generator<[string, PrestateAccount]> {
  for (const address of [...log.accounts.keys()].sort()) {
    const t = log.accounts.get(address)!;
    // Accounts empty when looked up are dropped (OnTxEnd) unless includeEmpty.
    if (t.pre.empty && !config.includeEmpty) continue;
    yield ['0x' + address, marshal(lookedUp(t, config))];
  }
}

/** One side of diff mode; each side works out every account's diff again (nothing is kept between them). */
function* diffSide(log: StateLog, config: PrestateConfig, side: keyof PrestateDiff): Generator<[string, PrestateAccount]> {
  for (const address of [...log.accounts.keys()].sort()) {
    const t = log.accounts.get(address)!;
    const before = lookedUp(t, config);
    // A deleted account stays in `pre` whole (zero slots included) and is left out of `post`.
    const after = isDeleted(log, address) ? undefined : diffAccount(address, t, before, config);
    const changed = isDeleted(log, address) || after !== undefined;
    if (side === 'post' && after !== undefined) yield ['0x' + address, marshal(after)];
    if (side === 'pre' && changed && !t.pre.empty) yield ['0x' + address, marshal(before)];
  }
}

/** gen_account_json.go MarshalJSON: keys `balance, code, codeHash, nonce, storage`, all omitempty. */
function marshal(account: Account): PrestateAccount {
  const out: PrestateAccount = {};
  if (account.balance !== undefined) out.balance = hexQuantity(account.balance);
  if (account.code !== undefined) out.code = hexBytes(account.code);
  if (account.codeHash !== undefined) out.codeHash = hexBytes(account.codeHash);
  if (account.nonce !== 0n) out.nonce = jsonUint(account.nonce);
  if (account.storage !== undefined && account.storage.size > 0) {
    const slots = [...account.storage].map(([key, value]) => ['0x' + key.padStart(64, '0'), value] as const);
    slots.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const storage: Record<string, string> = {};
    for (const [key, value] of slots) storage[key] = hexWord(value);
    out.storage = storage;
  }
  return out;
}

// Go writes a uint64 as a JSON number; beyond 2^53 a JS number would round, so emit it raw.
const rawJson = (JSON as unknown as { rawJSON?: (text: string) => unknown }).rawJSON;
function jsonUint(value: bigint): unknown {
  if (value <= BigInt(Number.MAX_SAFE_INTEGER) || rawJson === undefined) return Number(value);
  return rawJson(value.toString());
}

export const prestateTracer: RecordedTracer<PrestateConfig> = {
  name: 'prestateTracer',
  configSchema: PrestateConfigSchema,
  // prestate.go newPrestateTracer
  check: (config) => (config.diffMode && config.includeEmpty ? 'cannot use diffMode with includeEmpty' : undefined),
  needs: () => ARENA_AND_STATE,
  render: (tx, config) => renderPrestate(tx, config),
};
