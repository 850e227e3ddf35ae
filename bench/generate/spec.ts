// What the generated chain is (bench/generate.ts): its genesis, its senders and their keys, and the
// fields of its transaction `n`, which depend on `n` alone (so transactions can be signed apart
// from the state, in workers). Transaction n is sent by sender n % 100 with nonce n / 100; an even
// n sends 1 gwei to a fresh account, an odd n calls the token's transfer(fresh holder, 1).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { keccakNow } from '../../src/replay/keccak.ts';
import type { GethGenesis } from '../../src/fixture/types.ts';

const ROOT = resolve(import.meta.dir, '../..');
export const CHAIN_ID = 7100042n;
export const SENDERS = 100;
export const TOKEN = hexBytes('70'.repeat(20));
export const COINBASE = hexBytes('c0'.repeat(20));
/** Token storage: totalSupply at slot 2, balanceOf at slot 3 (read off the shipped Token's code). */
const BALANCES_SLOT = 3n;
export const SENDER_TOKENS = 10n ** 30n;
export const SENDER_ETHER = 10n ** 24n;
export const MAX_FEE = 100n * 10n ** 9n;
export const PRIORITY_FEE = 10n ** 9n;
export const ETHER_VALUE = 10n ** 9n;

const text = new TextEncoder();

export function hexBytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex.startsWith('0x') ? hex.slice(2) : hex, 'hex'));
}

export function toHex(bytes: Uint8Array): string {
  return '0x' + Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

export function word(n: bigint): Uint8Array {
  return hexBytes(n.toString(16).padStart(64, '0'));
}

export function senderKey(i: number): Uint8Array {
  return keccakNow(text.encode(`blocktrace bench sender ${i}`));
}

/** A fresh account for transaction `n`: never a sender, never the token. */
export function recipient(n: number): Uint8Array {
  return keccakNow(text.encode(`blocktrace bench recipient ${n}`)).subarray(12);
}

/** The token's storage slot of `holder`'s balance: keccak(holder ‖ 3). */
export function balanceSlot(holder: Uint8Array): Uint8Array {
  const preimage = new Uint8Array(64);
  preimage.set(holder, 12);
  preimage.set(word(BALANCES_SLOT), 32);
  return keccakNow(preimage);
}

/** transfer(address,uint256) calldata. */
export function transferData(to: Uint8Array, amount: bigint): Uint8Array {
  const data = new Uint8Array(68);
  data.set(hexBytes('a9059cbb'));
  data.set(to, 16);
  data.set(word(amount), 36);
  return data;
}

export interface TxFields {
  readonly sender: number;
  readonly nonce: bigint;
  readonly token: boolean;
  readonly to: Uint8Array;
  readonly value: bigint;
  readonly gasLimit: bigint;
  readonly data: Uint8Array;
  /** The fresh account (ether) or token holder (token) this transaction pays. */
  readonly payee: Uint8Array;
}

export function txFields(n: number): TxFields {
  const token = n % 2 === 1;
  const payee = recipient(n);
  return {
    sender: n % SENDERS,
    nonce: BigInt(Math.floor(n / SENDERS)),
    token,
    to: token ? TOKEN : payee,
    value: token ? 0n : ETHER_VALUE,
    gasLimit: token ? 80_000n : 21_000n,
    data: token ? transferData(payee, 1n) : new Uint8Array(),
    payee,
  };
}

export function genesisOf(senders: readonly string[]): GethGenesis {
  const tokenCode = (JSON.parse(readFileSync(join(ROOT, 'golden/fixtures/cancun-devnet/out/Token.sol/Token.json'), 'utf8')) as { deployedBytecode: { object: string } }).deployedBytecode.object;
  const storage: Record<string, string> = { [toHex(word(2n))]: toHex(word(SENDER_TOKENS * BigInt(senders.length))) };
  for (const s of senders) storage[toHex(balanceSlot(hexBytes(s)))] = toHex(word(SENDER_TOKENS));
  const alloc: Record<string, unknown> = { [toHex(TOKEN)]: { balance: '0x0', code: tokenCode, storage } };
  for (const s of senders) alloc[s] = { balance: '0x' + SENDER_ETHER.toString(16) };
  return {
    config: {
      chainId: Number(CHAIN_ID), homesteadBlock: 0, eip150Block: 0, eip155Block: 0, eip158Block: 0, byzantiumBlock: 0,
      constantinopleBlock: 0, petersburgBlock: 0, istanbulBlock: 0, berlinBlock: 0, londonBlock: 0,
      mergeNetsplitBlock: 0, shanghaiTime: 0, cancunTime: 0, terminalTotalDifficulty: 0, terminalTotalDifficultyPassed: true,
      blobSchedule: { cancun: { target: 3, max: 6, baseFeeUpdateFraction: 3338477 } },
    },
    alloc,
    gasLimit: '0x1c9c380',
    difficulty: '0x0',
    timestamp: '0x0',
    extraData: '0x',
    baseFeePerGas: '0x7',
    excessBlobGas: '0x0',
    blobGasUsed: '0x0',
  } as unknown as GethGenesis;
}
