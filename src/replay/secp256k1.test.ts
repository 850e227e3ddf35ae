// libsecp256k1's recovery (secp256k1.ts) against ethereumjs's: the same key for signatures of every
// kind the worker meets (typed, EIP-155 and pre-EIP-155 legacy), and null, never a key, for what
// cannot be recovered.
import { describe, expect, test } from 'bun:test';
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { createFeeMarket1559Tx, createLegacyTx, type TypedTransaction } from '@ethereumjs/tx';
import { bigIntToUnpaddedBytes, bytesToHex, hexToBytes } from '@ethereumjs/util';
import { loadKeccak } from './keccak.ts';
import { loadRecover } from './secp256k1.ts';

const recover = loadRecover()!;
const keccak = await loadKeccak();
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

function key(i: number): Uint8Array {
  return keccak(Uint8Array.of(i, i >> 8, 0x5e));
}

function id(tx: TypedTransaction): number {
  const v = tx.v!;
  if (v <= 1n) return Number(v);
  if (v === 27n || v === 28n) return Number(v - 27n);
  return Number(v - (tx.common.chainId() * 2n + 35n));
}

describe('libsecp256k1 recovery', () => {
  test('loads here (Bun, from source)', () => {
    expect(typeof recover).toBe('function');
  });

  test('300 signatures of three kinds: the key ethereumjs recovers', () => {
    const london = new Common({ chain: Mainnet, hardfork: Hardfork.London });
    const homestead = new Common({ chain: Mainnet, hardfork: Hardfork.Homestead });
    for (let i = 0; i < 100; i++) {
      const to = bytesToHex(key(i + 1000).subarray(0, 20));
      const txs = [
        createFeeMarket1559Tx({ nonce: i, maxFeePerGas: 10n ** 9n, maxPriorityFeePerGas: 1n, gasLimit: 21000n, to, value: BigInt(i), chainId: 1n }, { common: london }).sign(key(i)),
        createLegacyTx({ nonce: i, gasPrice: 10n ** 9n, gasLimit: 21000n, to, value: BigInt(i) }, { common: london }).sign(key(i)),
        createLegacyTx({ nonce: i, gasPrice: 10n ** 9n, gasLimit: 21000n, to, value: BigInt(i) }, { common: homestead }).sign(key(i)),
      ];
      for (const tx of txs) {
        const got = recover(tx.getMessageToVerifySignature(), bigIntToUnpaddedBytes(tx.r!), bigIntToUnpaddedBytes(tx.s!), id(tx));
        expect(got === null ? null : bytesToHex(got)).toBe(bytesToHex(tx.getSenderPublicKey()));
      }
    }
  });

  test('null for what cannot be recovered', () => {
    const tx = createFeeMarket1559Tx({ maxFeePerGas: 1n, gasLimit: 21000n, chainId: 1n }, { common: new Common({ chain: Mainnet, hardfork: Hardfork.London }) }).sign(key(1));
    const hash = tx.getMessageToVerifySignature();
    const r = bigIntToUnpaddedBytes(tx.r!);
    const s = bigIntToUnpaddedBytes(tx.s!);
    expect(recover(hash, r, s, 2)).toBeNull();
    expect(recover(hash, new Uint8Array(), s, 0)).toBeNull();
    expect(recover(hash, r, new Uint8Array(), 0)).toBeNull();
    expect(recover(hash, r, bigIntToUnpaddedBytes(N), 0)).toBeNull();
    expect(recover(hash, bigIntToUnpaddedBytes(N + 1n), s, 0)).toBeNull();
    expect(recover(hash, new Uint8Array(33), s, 0)).toBeNull();
    expect(recover(hash.subarray(1), r, s, 0)).toBeNull();
    // r = 5 is no point's x coordinate on secp256k1 (5³ + 7 = 132 is not a square mod p)
    expect(recover(hash, hexToBytes('0x05'), s, 0)).toBeNull();
    // and a good one again after the refusals
    expect(bytesToHex(recover(hash, r, s, id(tx))!)).toBe(bytesToHex(tx.getSenderPublicKey()));
  });
});
