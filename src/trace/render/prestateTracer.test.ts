import { describe, expect, test } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
import { bytesToHex, hexToBytes, KECCAK256_NULL } from '@ethereumjs/util';
import { goJson } from '../../encoding/json.ts';
import { findTracer, type TracerEntry } from '../registry.ts';
import type { AccountState, TouchedAccount, TxRecording } from '../types.ts';
import { type PrestateConfig, prestateTracer, renderPrestate } from './prestateTracer.ts';

const ZERO_HASH = '0x' + '00'.repeat(32);
const EMPTY_HASH = '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470';

const CODE = '0x6001600055';
const CODE_HASH = '0x7efcce47028dabcb0d42f3a7eda8820bf6f7f4e618398c2547d52f703cafb073';
const DELEGATION = '0xef0100' + '11'.repeat(20);
const DELEGATION_HASH = '0xdfe7c7677e3d245aaff2e3e94db902f5fb37475eb611959c71ee641508dcf49a';
// keccak256 of the code, precomputed (the renderer takes the recorder's hash as given).
const HASHES = new Map([['0x', bytesToHex(KECCAK256_NULL)], [CODE, CODE_HASH], [DELEGATION, DELEGATION_HASH]]);

function state(balance: bigint, nonce = 0n, code = '0x'): AccountState {
  const bytes = hexToBytes(code as `0x${string}`);
  return {
    balance,
    nonce,
    code: bytes,
    codeHash: hexToBytes(HASHES.get(code) as `0x${string}`),
    empty: balance === 0n && nonce === 0n && bytes.length === 0,
  };
}

const slot = (n: number) => n.toString(16).padStart(64, '0');

interface Spec {
  pre: AccountState;
  post?: AccountState | undefined; // defaults to pre
  exists?: boolean; // existsAfter, defaults to true
  slots?: [number, bigint, bigint][]; // slot, value at first touch, value at end
}

function tx(accounts: Record<string, Spec>, extra: { selfDestructed?: string[]; created?: string[]; eip6780?: boolean } = {}): TxRecording {
  const map = new Map<string, TouchedAccount>();
  for (const [address, spec] of Object.entries(accounts)) {
    const exists = spec.exists ?? true;
    map.set(address, {
      address: hexToBytes(`0x${address}`),
      pre: spec.pre,
      preStorage: new Map((spec.slots ?? []).map(([k, v]) => [slot(k), v])),
      post: exists ? (spec.post ?? spec.pre) : undefined,
      postStorage: new Map((spec.slots ?? []).map(([k, , v]) => [slot(k), exists ? v : 0n])),
      existsAfter: exists,
    });
  }
  return {
    txIndex: 0,
    txHash: new Uint8Array(32),
    txType: 0,
    gasLimit: 21000n,
    intrinsicGas: 21000n,
    gasUsed: 21000n,
    gasUsedBeforeRefund: 21000n,
    refund: 0n,
    frames: [],
    state: {
      accounts: map,
      selfDestructed: new Set(extra.selfDestructed ?? []),
      created: new Set(extra.created ?? []),
      eip6780: extra.eip6780 ?? false,
    },
  };
}

const A = 'aa'.repeat(20);
const B = 'bb'.repeat(20);
const C = '0c'.repeat(20);

const render = (t: TxRecording, config: PrestateConfig = {}) => goJson(renderPrestate(t, config));

describe('prestateTracer, plain mode', () => {
  test('sorted addresses, geth key order, nonce as a number, zero slots kept, slots sorted', () => {
    const t = tx({
      [B]: { pre: state(0x10n, 2n, CODE), slots: [[2, 0n, 5n], [1, 7n, 7n]] },
      [A]: { pre: state(1n) },
    });
    expect(render(t)).toBe(
      `{"0x${A}":{"balance":"0x1"},"0x${B}":{"balance":"0x10","code":"${CODE}","codeHash":"${CODE_HASH}","nonce":2,` +
        `"storage":{"0x${slot(1)}":"0x${slot(7)}","0x${slot(2)}":"0x${slot(0)}"}}}`,
    );
  });

  test('accounts empty at lookup are dropped, kept with includeEmpty (storage included)', () => {
    const t = tx({ [A]: { pre: state(1n) }, [C]: { pre: state(0n), post: state(0n, 1n, CODE), slots: [[0, 0n, 1n]] } });
    expect(render(t)).toBe(`{"0x${A}":{"balance":"0x1"}}`);
    expect(render(t, { includeEmpty: true })).toBe(
      `{"0x${C}":{"balance":"0x0","storage":{"0x${slot(0)}":"0x${slot(0)}"}},"0x${A}":{"balance":"0x1"}}`,
    );
  });

  test('zero balance on a non-empty account is printed', () => {
    expect(render(tx({ [A]: { pre: state(0n, 1n) } }))).toBe(`{"0x${A}":{"balance":"0x0","nonce":1}}`);
  });

  test('disableCode keeps codeHash; disableStorage drops storage', () => {
    const t = tx({ [B]: { pre: state(1n, 1n, CODE), slots: [[1, 3n, 3n]] } });
    expect(render(t, { disableCode: true })).toBe(
      `{"0x${B}":{"balance":"0x1","codeHash":"${CODE_HASH}","nonce":1,"storage":{"0x${slot(1)}":"0x${slot(3)}"}}}`,
    );
    expect(render(t, { disableStorage: true })).toBe(`{"0x${B}":{"balance":"0x1","code":"${CODE}","codeHash":"${CODE_HASH}","nonce":1}}`);
    expect(render(t, { disableCode: true, disableStorage: true })).toBe(`{"0x${B}":{"balance":"0x1","codeHash":"${CODE_HASH}","nonce":1}}`);
  });

  test('a nonce above 2^53 is written exactly', () => {
    expect(render(tx({ [A]: { pre: state(1n, 18446744073709551615n) } }))).toBe(`{"0x${A}":{"balance":"0x1","nonce":18446744073709551615}}`);
  });
});

describe('prestateTracer, diff mode', () => {
  test('post has only changed fields, unchanged accounts vanish, post comes first', () => {
    const t = tx({
      [A]: { pre: state(100n, 1n), post: state(40n, 2n) },
      [B]: { pre: state(5n, 1n, CODE), slots: [[1, 3n, 3n]] },
    });
    expect(render(t, { diffMode: true })).toBe(`{"post":{"0x${A}":{"balance":"0x28","nonce":2}},"pre":{"0x${A}":{"balance":"0x64","nonce":1}}}`);
  });

  test('storage: cleared slot in pre only, set-from-zero in post only, unchanged cut; pre keeps the whole account', () => {
    const t = tx({ [B]: { pre: state(5n, 1n, CODE), slots: [[1, 3n, 0n], [2, 0n, 9n], [3, 4n, 4n], [4, 6n, 8n]] } });
    expect(render(t, { diffMode: true })).toBe(
      `{"post":{"0x${B}":{"storage":{"0x${slot(2)}":"0x${slot(9)}","0x${slot(4)}":"0x${slot(8)}"}}},` +
        `"pre":{"0x${B}":{"balance":"0x5","code":"${CODE}","codeHash":"${CODE_HASH}","nonce":1,"storage":{"0x${slot(1)}":"0x${slot(3)}","0x${slot(4)}":"0x${slot(6)}"}}}}`,
    );
    // disableStorage: the account changed only in storage, which is then invisible.
    expect(render(t, { diffMode: true, disableStorage: true })).toBe(`{"post":{},"pre":{}}`);
  });

  test('an account empty before appears in post only, with code and codeHash', () => {
    const t = tx({ [C]: { pre: state(0n), post: state(0n, 1n, CODE), slots: [[0, 0n, 1n]] } });
    expect(render(t, { diffMode: true })).toBe(
      `{"post":{"0x${C}":{"code":"${CODE}","codeHash":"${CODE_HASH}","nonce":1,"storage":{"0x${slot(0)}":"0x${slot(1)}"}}},"pre":{}}`,
    );
    expect(render(t, { diffMode: true, disableCode: true })).toBe(
      `{"post":{"0x${C}":{"codeHash":"${CODE_HASH}","nonce":1,"storage":{"0x${slot(0)}":"0x${slot(1)}"}}},"pre":{}}`,
    );
  });

  test('cleared code is "0x" with the empty-code hash (7702 de-authorisation)', () => {
    const t = tx({ [A]: { pre: state(0n, 1n, DELEGATION), post: state(0n, 2n) } });
    expect(render(t, { diffMode: true })).toBe(
      `{"post":{"0x${A}":{"code":"0x","codeHash":"${EMPTY_HASH}","nonce":2}},"pre":{"0x${A}":{"balance":"0x0","code":"${DELEGATION}","codeHash":"${DELEGATION_HASH}","nonce":1}}}`,
    );
  });

  test('an account missing at tx end reads as zero with the zero code hash (geth after Finalise)', () => {
    const t = tx({ [A]: { pre: state(0n), exists: false }, [B]: { pre: state(0n), exists: true } });
    expect(render(t, { diffMode: true })).toBe(`{"post":{"0x${A}":{"codeHash":"${ZERO_HASH}"}},"pre":{}}`);
  });

  test('a nonce back to zero is a change that marshals as nothing', () => {
    const t = tx({ [A]: { pre: state(0n, 3n), post: state(0n, 0n) } });
    expect(render(t, { diffMode: true })).toBe(`{"post":{"0x${A}":{}},"pre":{"0x${A}":{"balance":"0x0","nonce":3}}}`);
  });

  const destroyed = (): TxRecording =>
    tx(
      { [B]: { pre: state(7n, 1n, CODE), post: state(0n, 1n, CODE), slots: [[1, 0n, 0n], [2, 5n, 6n]] }, [A]: { pre: state(1n), post: state(8n) } },
      { selfDestructed: [B] },
    );

  test('pre-Cancun: a self-destructed account stays whole in pre (zero slots too) and is left out of post', () => {
    expect(render(destroyed(), { diffMode: true })).toBe(
      `{"post":{"0x${A}":{"balance":"0x8"}},"pre":{"0x${A}":{"balance":"0x1"},` +
        `"0x${B}":{"balance":"0x7","code":"${CODE}","codeHash":"${CODE_HASH}","nonce":1,"storage":{"0x${slot(1)}":"0x${slot(0)}","0x${slot(2)}":"0x${slot(5)}"}}}}`,
    );
  });

  test('Cancun: SELFDESTRUCT of a pre-existing contract is diffed normally (EIP-6780)', () => {
    const t = destroyed();
    const cancun: TxRecording = { ...t, state: { ...t.state, eip6780: true } };
    expect(render(cancun, { diffMode: true })).toBe(
      `{"post":{"0x${A}":{"balance":"0x8"},"0x${B}":{"balance":"0x0","storage":{"0x${slot(2)}":"0x${slot(6)}"}}},` +
        `"pre":{"0x${A}":{"balance":"0x1"},"0x${B}":{"balance":"0x7","code":"${CODE}","codeHash":"${CODE_HASH}","nonce":1,"storage":{"0x${slot(2)}":"0x${slot(5)}"}}}}`,
    );
  });

  test('Cancun: created and destroyed in the same tx vanishes from both maps', () => {
    const t = tx({ [C]: { pre: state(0n), exists: false, slots: [[0, 0n, 0n]] }, [A]: { pre: state(1n), post: state(2n) } }, {
      selfDestructed: [C],
      created: [C],
      eip6780: true,
    });
    expect(render(t, { diffMode: true })).toBe(`{"post":{"0x${A}":{"balance":"0x2"}},"pre":{"0x${A}":{"balance":"0x1"}}}`);
  });
});

describe('prestateTracer entry', () => {
  test('is registered under its wire name', () => {
    expect(findTracer('prestateTracer')).toBe(prestateTracer as TracerEntry<unknown>);
  });

  test('config schema accepts the four flags and nothing else', () => {
    expect(Value.Check(prestateTracer.configSchema, {})).toBe(true);
    expect(Value.Check(prestateTracer.configSchema, { diffMode: true, disableCode: false, disableStorage: true, includeEmpty: false })).toBe(true);
    expect(Value.Check(prestateTracer.configSchema, { diffMode: 'yes' })).toBe(false);
    expect(Value.Check(prestateTracer.configSchema, { onlyTopCall: true })).toBe(false);
  });

  test('diffMode with includeEmpty is refused with geth text', () => {
    expect(prestateTracer.check!({ diffMode: true, includeEmpty: true })).toBe('cannot use diffMode with includeEmpty');
    expect(prestateTracer.check!({ diffMode: true })).toBeUndefined();
    expect(prestateTracer.check!({ includeEmpty: true })).toBeUndefined();
  });
});
