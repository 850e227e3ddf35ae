// `blocktrace capture`: blocks N..M of a live chain as a self-contained fixture (fixture/captured.ts).
// The blocks are replayed one after another against the upstream's state at N−1, read lazily; every
// account, code, slot and ancestor hash the replay reads is what the fixture keeps. That covers what
// a per-transaction prestateTracer would miss: the block's system calls (EIP-2935/4788/7002/7251),
// withdrawals and rewards. Where the state a later block starts from is not what the blocks before
// it left (a cheatcode between them), the difference is kept beside the blocks (editFinder.ts). The
// transactions whose signature does not give the sender and hash the node reports (impersonated
// accounts) are named with both beside the blocks. The fixture is then loaded (replayed and
// checked) before it is returned.
import { type Block } from '@ethereumjs/block';
import type { TypedTransaction } from '@ethereumjs/tx';
import { createVM, runBlock } from '@ethereumjs/vm';
import { type Address, bytesToHex, createAddressFromString, equalsBytes, KECCAK256_NULL } from '@ethereumjs/util';
import { hexQuantity } from '../encoding/hex.ts';
import { UpstreamError } from '../errors/upstreamError.ts';
import { CAPTURE_FORMAT, fromCapture } from '../fixture/captured.ts';
import { stateEditsJson } from '../fixture/stateEdits.ts';
import type { AccountEdit, GethAllocAccount } from '../fixture/types.ts';
import { FixtureChain } from '../replay/chain.ts';
import { runOptions } from '../replay/runOptions.ts';
import type { UpstreamClient } from './client.ts';
import { EditFinder } from './editFinder.ts';
import { UpstreamBlocks, upstreamCommon } from './upstreamChain.ts';
import { StateAt, UpstreamStateManager } from './upstreamState.ts';

export interface Captured {
  readonly fixture: Record<string, unknown>;
  readonly accounts: number;
  readonly slots: number;
  /** How many blocks have state edits before them ("stateEdits"). */
  readonly editedBlocks: number;
}

export async function capture(client: UpstreamClient, genesisFile: string | undefined, from: bigint, to: bigint): Promise<Captured> {
  const { common, config } = await upstreamCommon(client, genesisFile);
  const source = new UpstreamBlocks(client, common);
  const blocks: Block[] = [];
  for (let n = from - 1n; n <= to; n++) {
    const block = await source.byNumber(hexQuantity(n));
    if (block === undefined) throw new UpstreamError(`upstream ${client.url}: block ${n} not found`);
    const previous = blocks[blocks.length - 1];
    if (previous !== undefined && !equalsBytes(block.header.parentHash, previous.hash())) {
      throw new UpstreamError(`upstream ${client.url}: block ${n} does not follow block ${n - 1n} (a reorg while capturing?)`);
    }
    blocks.push(block);
  }
  const parent = blocks.shift()!;
  const byNumber = new Map([parent, ...blocks].map((b) => [b.header.number, b]));

  const reads = new StateAt(client, parent.header.number, common.customCrypto.keccak256!);
  const state = new UpstreamStateManager(common, client.url);
  state.use(reads);
  const blockchain = {
    getBlock: async (n: number | bigint) => {
      const hash = byNumber.get(BigInt(n))?.hash() ?? (await reads.blockHash(BigInt(n), source));
      return { hash: () => hash };
    },
    shallowCopy() {
      return this;
    },
  };
  const vm = await createVM({ common, stateManager: state, blockchain: blockchain as never });
  const finder = await EditFinder.create(client, common, blockchain);
  const edits = new Map<bigint, AccountEdit[]>();
  for (const [i, block] of blocks.entries()) {
    // the first block's state is the prestate itself, read at its parent
    const before = i === 0 ? [] : await finder.before(block, state);
    if (before.length > 0) edits.set(block.header.number, before);
    // the state stays lazy: report the header's root (it is not checked here)
    state.getStateRoot = async () => new Uint8Array(block.header.stateRoot);
    try {
      await runBlock(vm, runOptions(block, undefined));
    } catch (err) {
      throw reads.failure ?? err;
    }
  }
  const prestate = await prestateOf(reads);
  const ancestorHashes: Record<string, string> = {};
  for (const [n, hash] of [...reads.blockHashes].sort((a, b) => (a[0] < b[0] ? -1 : 1))) ancestorHashes[hexQuantity(n)] = bytesToHex(await hash);
  const impersonated = blocks.flatMap((block) => sentAsTheNodeSays(block));
  const fixture = {
    format: CAPTURE_FORMAT,
    source: { rpc: client.url, client: await client.call<string>('web3_clientVersion', []).catch(() => null), blocks: [hexQuantity(from), hexQuantity(to)] },
    config,
    parentHeader: bytesToHex(parent.header.serialize()),
    prestate: prestate.alloc,
    ancestorHashes,
    blocks: blocks.map((b) => bytesToHex(b.serialize())),
    ...(impersonated.length > 0 ? { impersonated } : {}),
    ...(edits.size > 0 ? { stateEdits: stateEditsJson(edits) } : {}),
  };
  // The proof: it loads, replays, and each block's receipts, bloom and gas match its header.
  await FixtureChain.load(fromCapture(`capture of blocks ${from}..${to} from ${client.url}`, JSON.parse(JSON.stringify(fixture))));
  return { fixture, accounts: prestate.accounts, slots: prestate.slots, editedBlocks: edits.size };
}

/**
 * The transactions of `block` whose bytes do not give the sender and hash the node reports (an
 * empty or fake signature, which the block's RLP holds as ethereumjs decoded it, or none), with
 * what the node reports (the transaction's own methods: upstream/blockFromNode.ts).
 */
function sentAsTheNodeSays(block: Block): { blockNumber: string; transactionIndex: string; from: string; hash: string }[] {
  const keccak = block.common.customCrypto.keccak256!;
  return block.transactions.flatMap((tx, i) => {
    const from = tx.getSenderAddress();
    const hash = tx.hash();
    if (equalsBytes(keccak(tx.serialize()), hash) && recovered(tx)?.equals(from) === true) return [];
    return [{ blockNumber: hexQuantity(block.header.number), transactionIndex: hexQuantity(i), from: from.toString(), hash: bytesToHex(hash) }];
  });
}

/** The sender ethereumjs recovers from the signature (its own method, not the node's), or undefined. */
function recovered(tx: TypedTransaction): Address | undefined {
  try {
    return (Object.getPrototypeOf(tx) as TypedTransaction).getSenderAddress.call(tx);
  } catch {
    return undefined;
  }
}

/** What the replay read at N−1, as a genesis alloc. Accounts that do not exist are left out. */
async function prestateOf(reads: StateAt): Promise<{ alloc: Record<string, GethAllocAccount>; accounts: number; slots: number }> {
  const alloc: Record<string, GethAllocAccount> = {};
  let slots = 0;
  const addresses = new Set([...reads.accounts.keys(), ...reads.slots.keys()]);
  for (const address of [...addresses].sort()) {
    const account = await reads.accounts.get(address);
    const storage: Record<string, string> = {};
    for (const [slot, value] of [...(reads.slots.get(address) ?? [])].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      const bytes = await value;
      if (bytes.length > 0) storage[slot] = bytesToHex(bytes);
    }
    const hasCode = account !== undefined && !equalsBytes(account.codeHash, KECCAK256_NULL);
    const empty = account === undefined || (account.nonce === 0n && account.balance === 0n && !hasCode);
    if (empty && Object.keys(storage).length === 0) continue; // absent (EIP-161), or shown empty by the node
    const entry: GethAllocAccount = { balance: hexQuantity(account?.balance ?? 0n), nonce: hexQuantity(account?.nonce ?? 0n) };
    if (hasCode) entry.code = bytesToHex(await reads.code(createAddressFromString(address)));
    if (Object.keys(storage).length > 0) entry.storage = storage;
    slots += Object.keys(storage).length;
    alloc[address] = entry;
  }
  return { alloc, accounts: Object.keys(alloc).length, slots };
}
