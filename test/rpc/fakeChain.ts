// A small ChainView for dispatcher tests: genesis + blocks 1..2 (two and zero transactions),
// recordings with fake tx hashes, and a fake tracer registry, so that the RPC layer is tested
// without replaying anything.
import { FilterRegistry } from '../../src/rpc/filters/registry.ts';
import { createBlock } from '@ethereumjs/block';
import { Type } from '@sinclair/typebox';
import { type ChainBlock, type ChainView, type ReceiptInfo, type TxLocation, chainBlockOf } from '../../src/replay/chainView.ts';
import type { RpcContext, TracerLookup } from '../../src/rpc/context.ts';
import type { TracerEntry } from '../../src/trace/registry.ts';
import type { BlockRecording, TxRecording } from '../../src/trace/types.ts';

const bytes = (fill: number, n = 32): Uint8Array => new Uint8Array(n).fill(fill);

export function chainBlock(number: bigint): ChainBlock {
  const block = createBlock({ header: { number, gasLimit: 30_000_000n } });
  return chainBlockOf(block, bytes(0xb0 + Number(number)));
}

export const FAKE_TX_HASHES = [bytes(0xa1), bytes(0xa2)];

function fakeTx(i: number): TxRecording {
  return { txIndex: i, txHash: FAKE_TX_HASHES[i]! } as unknown as TxRecording;
}

export interface FakeChainOptions {
  /** Make recordBlock throw this (an unexpected internal failure). */
  readonly recordError?: Error;
}

export function fakeChain(options: FakeChainOptions = {}): ChainView & { recordCalls: number } {
  const blocks = [chainBlock(0n), chainBlock(1n), chainBlock(2n)];
  const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
  const chain = {
    recordCalls: 0,
    chainId: 1337n,
    label: 'fake',
    genesis: blocks[0]!,
    head: blocks[2]!,
    finalized: blocks[1]!,
    safe: blocks[1]!,
    blockByNumber: (n: bigint) => blocks[Number(n)] && n >= 0n ? blocks[Number(n)] : undefined,
    blockByHash: (h: Uint8Array) => blocks.find((b) => hex(b.hash) === hex(h)),
    txByHash: (h: Uint8Array): TxLocation | undefined => {
      const i = FAKE_TX_HASHES.findIndex((t) => hex(t) === hex(h));
      return i === -1 ? undefined : { block: blocks[1]!, index: i };
    },
    receipts: (): readonly ReceiptInfo[] => [],
    async recordBlock(block: ChainBlock): Promise<BlockRecording> {
      chain.recordCalls++;
      if (options.recordError) throw options.recordError;
      const txs = block.number === 1n ? [fakeTx(0), fakeTx(1)] : [];
      return { number: block.number, hash: block.hash, txs, rewards: [] };
    },
  };
  return chain;
}

const fakeEntry = (name: string): TracerEntry<{ flag?: boolean }> => ({
  name,
  configSchema: Type.Object({ flag: Type.Optional(Type.Boolean()) }),
  check: (config) => (config.flag === false ? 'flag must not be false' : undefined),
  needs: () => ({ state: false, steps: undefined }),
  render: (tx, config) => ({ tracer: name, tx: tx.txIndex, flag: config.flag ?? null }),
});

export const fakeTracers: TracerLookup = {
  find: (name) => (name === 'callTracer' || name === 'prestateTracer' ? (fakeEntry(name) as TracerEntry<unknown>) : undefined),
  names: () => ['callTracer', 'prestateTracer'],
  unnamed: () => undefined,
};

export function fakeContext(chain: ChainView = fakeChain(), extra: Partial<RpcContext> = {}): RpcContext & { logged: string[]; refused: string[] } {
  const logged: string[] = [];
  /** What --all-tracers would have allowed (the context's once-only notices). */
  const refused: string[] = [];
  return {
    chain,
    tracers: fakeTracers,
    allTracers: false,
    filters: new FilterRegistry(),
    parity: {
      block: (rec) => rec.txs.map((t) => ({ transactionPosition: t.txIndex })),
      tx: (_rec, i) => [{ transactionPosition: i }],
      results: (t, types) => ({ output: '0x', txIndex: t.txIndex, ...types }),
    },
    maxBatch: 100,
    maxResponse: 0,
    traceTimeoutMs: 0,
    clientVersion: 'blocktrace/test',
    log: (line) => logged.push(line),
    optInRefused: (what) => refused.push(what),
    ...extra,
    logged,
    refused,
  };
}
