// Fixture blocks as ethereumjs Blocks: a block of the fixture decoded (with its recorded senders, and
// the node's sender and hash for the transactions whose signature does not give them: sentAs.ts),
// the genesis block the loader builds from a geth genesis, and the one block of a go-ethereum
// tracer test or a state test.
import { type Block, createBlock, createBlockFromRLP, createBlockFromRPC, createBlockHeader, createBlockHeaderFromRLP } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { createTxFromRLP } from '@ethereumjs/tx';
import { Address, createAddressFromString } from '@ethereumjs/util';
import { rlpItem } from './rlpItem.ts';
import { FixtureError } from '../errors/fixtureError.ts';
import type { ChainSpec, SentAs } from '../fixture/types.ts';
import { refusalAsExpected } from './expectedEnd.ts';
import { hasGivenSender, takeAsSent } from './sentAs.ts';

/**
 * Block `i` of the fixture, with its recorded senders if any. Sealed (frozen, as ethereumjs freezes
 * what it decodes, which is where it caches hashes and senders) unless `seal` is false: the replay
 * first lets the sender pool give each transaction its own methods (senders.ts), then seals it
 * (sealBlock).
 */
export function decodeBlock(spec: ChainSpec, common: Common, i: number, seal = true): Block {
  const entry = spec.blocks[i]!;
  const opts = { common, setHardfork: true, skipConsensusFormatValidation: true, freeze: false };
  let block: Block;
  try {
    block = entry instanceof Uint8Array ? createBlockFromRLP(entry, opts) : createBlockFromRPC(entry as never, [], opts);
  } catch (error) {
    throw new FixtureError(`${spec.path}: block ${i + 1} cannot be decoded (${(error as Error).message})`);
  }
  const sentAs = spec.sentAs?.get(i);
  if (sentAs !== undefined) takeRecordedAsSent(spec, block, sentAs);
  const senders = spec.senders?.get(i);
  if (senders !== undefined && senders.length === block.transactions.length) useRecordedSenders(block, senders);
  if (seal) sealBlock(block);
  return block;
}

/**
 * Block `i` of the fixture decoded again after the replay (storedBlock.ts): each transaction without
 * a sender of its own (taken as sent, recorded) takes the one `senderOf` gives, its receipt's `from`
 * as the replay found it, read when first asked for, so no signature is recovered again (pure-JS
 * secp256k1, half a millisecond each).
 */
export function decodeBlockAgain(spec: ChainSpec, common: Common, i: number, senderOf: (index: number) => Uint8Array): Block {
  const block = decodeBlock(spec, common, i, false);
  block.transactions.forEach((tx, j) => {
    if (hasGivenSender(tx)) return;
    let sender: Address | undefined;
    Object.defineProperty(tx, 'getSenderAddress', { value: () => (sender ??= new Address(senderOf(j))) });
  });
  sealBlock(block);
  return block;
}

/** Freezes a block decoded unfrozen: its transactions, header and itself. */
/**
 * How many transactions the block RLP holds, counted from the items' prefixes (the block is the list
 * [header, transactions, …]): no transaction decoded. Throws on RLP too short for what it says.
 */
export function transactionCount(rlp: Uint8Array): number {
  const txs = rlpItem(rlp, rlpItem(rlp, rlpItem(rlp, 0).start).end);
  if (txs.end > rlp.length) throw new Error('RLP is shorter than its lists say');
  let n = 0;
  for (let at = txs.start; at < txs.end; at = rlpItem(rlp, at).end) n++;
  return n;
}

export function sealBlock(block: Block): void {
  for (const tx of block.transactions) Object.freeze(tx);
  Object.freeze(block.header);
  Object.freeze(block);
}

/**
 * Signature recovery (pure-JS secp256k1) is the largest single cost of a load. A fixture that records
 * each transaction's sender spares it; the load's state-root check proves the senders, since a
 * wrong one debits another account and bumps another nonce.
 */
function useRecordedSenders(block: Block, senders: readonly string[]): void {
  block.transactions.forEach((tx, j) => {
    if (hasGivenSender(tx)) return;
    const sender = createAddressFromString(senders[j]!.toLowerCase());
    Object.defineProperty(tx, 'getSenderAddress', { value: () => sender });
  });
}

/** The transactions the fixture names with the node's sender and hash (a capture's "impersonated"). */
function takeRecordedAsSent(spec: ChainSpec, block: Block, sentAs: ReadonlyMap<number, SentAs>): void {
  for (const [j, sent] of sentAs) {
    const tx = block.transactions[j];
    if (tx === undefined) throw new FixtureError(`${spec.path}: block ${block.header.number} has no transaction ${j} (named by "impersonated")`);
    takeAsSent(tx, sent);
  }
}

export function buildGenesis(spec: ChainSpec, common: Common, stateRoot: Uint8Array): Block {
  if (spec.genesisHeaderRlp !== undefined) {
    const header = createBlockHeaderFromRLP(spec.genesisHeaderRlp, { common, setHardfork: true, skipConsensusFormatValidation: true });
    return createBlock({ header }, { common, setHardfork: true, skipConsensusFormatValidation: true });
  }
  const g = spec.genesis;
  const traceTest = spec.traceTest;
  const number = traceTest !== undefined ? traceTest.context.number - 1n : 0n;
  const header = createBlockHeader(
    {
      number,
      stateRoot,
      gasLimit: quantity(g['gasLimit']),
      timestamp: quantity(g['timestamp']),
      extraData: hexOr(g['extraData'], '0x'),
      difficulty: quantity(g['difficulty']),
      mixHash: hexOr(g['mixHash'], '0x' + '00'.repeat(32)),
      nonce: hexOr(g['nonce'], '0x0000000000000000', 8),
      coinbase: hexOr(g['coinbase'], '0x' + '00'.repeat(20)),
      ...(g['baseFeePerGas'] !== undefined && g['baseFeePerGas'] !== null ? { baseFeePerGas: quantity(g['baseFeePerGas']) } : {}),
      ...(g['excessBlobGas'] !== undefined && g['excessBlobGas'] !== null ? { excessBlobGas: quantity(g['excessBlobGas']) } : {}),
      ...(g['blobGasUsed'] !== undefined && g['blobGasUsed'] !== null ? { blobGasUsed: quantity(g['blobGasUsed']) } : {}),
    },
    { common, setHardfork: true, skipConsensusFormatValidation: true },
  );
  const atGenesis = common.copy();
  atGenesis.setHardforkBy({ blockNumber: number, timestamp: quantity(g['timestamp']) });
  const withdrawals = atGenesis.isActivatedEIP(4895) ? [] : undefined;
  return createBlock({ header, ...(withdrawals ? { withdrawals } : {}) }, { common, setHardfork: true, skipConsensusFormatValidation: true });
}

/** A go-ethereum tracer test or a state test: one block at context.number holding the test transaction. */
export function buildTraceTestBlock(spec: ChainSpec, common: Common, parent: Block): Block {
  const { context, rawTx } = spec.traceTest!;
  const c = common.copy();
  c.setHardforkBy({ blockNumber: context.number, timestamp: context.timestamp });
  let tx;
  try {
    tx = createTxFromRLP(rawTx, { common: c });
  } catch (error) {
    const message = (error as Error).message;
    throw new FixtureError(refusalAsExpected(spec, message) ?? `${spec.path}: ${spec.format === 'state-test' ? 'the transaction' : '"input"'} is not a valid transaction (${message})`);
  }
  const londonActive = c.isActivatedEIP(1559);
  const header = createBlockHeader(
    {
      number: context.number,
      parentHash: parent.hash(),
      timestamp: context.timestamp,
      gasLimit: context.gasLimit,
      // PREVRANDAO takes DIFFICULTY's place from the merge (EIP-4399)
      difficulty: c.isActivatedEIP(4399) ? 0n : context.difficulty,
      coinbase: context.coinbase as `0x${string}`,
      mixHash: context.mixHash as `0x${string}`,
      ...(londonActive ? { baseFeePerGas: context.baseFeePerGas ?? 0n } : {}),
      ...(c.isActivatedEIP(4844) ? { excessBlobGas: context.excessBlobGas ?? 0n, blobGasUsed: 0n } : {}),
    },
    { common: c, setHardfork: true, skipConsensusFormatValidation: true },
  );
  return createBlock({ header, transactions: [tx], ...(c.isActivatedEIP(4895) ? { withdrawals: [] } : {}) }, { common: c, setHardfork: true, skipConsensusFormatValidation: true });
}

function quantity(v: unknown): bigint {
  if (typeof v === 'number') return BigInt(v);
  if (typeof v === 'string' && v !== '' && v !== '0x') return BigInt(v);
  return 0n;
}

function hexOr(v: unknown, fallback: string, padTo?: number): `0x${string}` {
  if (typeof v !== 'string' || !v.startsWith('0x')) return fallback as `0x${string}`;
  if (padTo !== undefined) return `0x${v.slice(2).padStart(padTo * 2, '0')}`;
  return v as `0x${string}`;
}

