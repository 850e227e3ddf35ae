// The generated chain's blocks (bench/generate.ts), computed without a VM: its two kinds of
// transaction change the state in known ways, so the state is kept here and only the roots are
// tries (trie.ts). An ether transfer costs 21,000 gas and creates its payee; the token's
// transfer(holder, 1) costs its intrinsic gas and TOKEN_TRANSFER_GAS, lowers the sender's balance
// slot by one, sets the fresh holder's slot to one and logs Transfer. Fees: the sender pays
// gas × (base fee + tip), the coinbase gets gas × tip. The genesis root is checked against
// ethereumjs's; every header against a replay by the loader's checks (test/fixture/generate.test.ts).
import { type BlockHeader, createBlockHeader } from '@ethereumjs/block';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import type { GethGenesis } from '../../src/fixture/types.ts';
import { makeCommon } from '../../src/replay/common.ts';
import { writeGenesisAlloc } from '../../src/replay/genesisState.ts';
import { keccakNow } from '../../src/replay/keccak.ts';
import { lazyKzg } from '../../src/replay/kzg.ts';
import { unpack } from './sign.ts';
import { signedRanges } from './signPool.ts';
import { balanceSlot, COINBASE, ETHER_VALUE, hexBytes, MAX_FEE, PRIORITY_FEE, SENDER_ETHER, SENDER_TOKENS, SENDERS, TOKEN, toHex, txFields, word } from './spec.ts';
import { EMPTY_TRIE_ROOT, indexBytes, MemoryTrie, orderedTrieRoot, rlpBytes, rlpList } from './trie.ts';

/**
 * The gas the shipped Token's transfer(to, 1) uses past the intrinsic 21,000 and calldata: a cold
 * sender slot changed (2,100 + 2,900), a fresh holder slot set (2,100 + 20,000), the Transfer log
 * and the code around them. Read off ethereumjs's receipts of the generator it replaced.
 */
const TOKEN_TRANSFER_GAS = 29_876n;
const TRANSFER_TOPIC = keccakNow(new TextEncoder().encode('Transfer(address,address,uint256)'));
const EMPTY_CODE_HASH = keccakNow(new Uint8Array());
const EMPTY_LIST = Uint8Array.of(0xc0);
const ZERO32 = new Uint8Array(32);

interface Account {
  readonly key: Uint8Array;
  nonce: bigint;
  balance: bigint;
  storageRoot: Uint8Array;
  codeHash: Uint8Array;
}

function account(address: Uint8Array, balance: bigint, storageRoot = EMPTY_TRIE_ROOT, codeHash = EMPTY_CODE_HASH): Account {
  return { key: keccakNow(address), nonce: 0n, balance, storageRoot, codeHash };
}

function encodeAccount(a: Account): Uint8Array {
  return rlpList([rlpBytes(indexBytes(a.nonce)), rlpBytes(indexBytes(a.balance)), rlpBytes(a.storageRoot), rlpBytes(a.codeHash)]);
}

function storageValue(v: bigint): Uint8Array {
  return rlpBytes(indexBytes(v));
}

/** The values every fresh payee gets, shared by their leaves (a trie never changes a value it holds). */
const FRESH_ACCOUNT = encodeAccount({ key: ZERO32, nonce: 0n, balance: ETHER_VALUE, storageRoot: EMPTY_TRIE_ROOT, codeHash: EMPTY_CODE_HASH });
const FRESH_HOLDING = storageValue(1n);

function pad32(address: Uint8Array): Uint8Array {
  const out = new Uint8Array(32);
  out.set(address, 12);
  return out;
}

function addToBloom(bloom: Uint8Array, item: Uint8Array): void {
  const h = keccakNow(item);
  for (let i = 0; i < 6; i += 2) {
    const bit = ((h[i]! << 8) | h[i + 1]!) & 2047;
    bloom[255 - (bit >> 3)]! |= 1 << (bit & 7);
  }
}

function calldataGas(data: Uint8Array): bigint {
  let gas = 0;
  for (const b of data) gas += b === 0 ? 4 : 16;
  return BigInt(gas);
}

/** The blocks of `txCount` transactions, `perBlock` a block, as RLP, in order. */
export async function* generatedBlocks(genesis: GethGenesis, senders: readonly string[], txCount: number, perBlock: number, threads: number): AsyncGenerator<Uint8Array> {
  const common = makeCommon('generated', genesis, lazyKzg);
  const tokenCode = hexBytes((genesis.alloc[toHex(TOKEN)] as { code: string }).code);
  const senderAddresses = senders.map(hexBytes);
  const accounts = senderAddresses.map((a) => account(a, SENDER_ETHER));
  const coinbase = account(COINBASE, 0n);
  const storage = new MemoryTrie();
  storage.put(keccakNow(word(2n)), storageValue(SENDER_TOKENS * BigInt(SENDERS)));
  const tokenSlots = senderAddresses.map((a) => keccakNow(balanceSlot(a)));
  const tokens = tokenSlots.map((slot) => (storage.put(slot, storageValue(SENDER_TOKENS)), SENDER_TOKENS));
  const token = account(TOKEN, 0n, storage.root(), keccakNow(tokenCode));
  const state = new MemoryTrie();
  for (const a of [token, ...accounts]) state.put(a.key, encodeAccount(a));
  const reference = await writeGenesisAlloc('generated', new MerkleStateManager({ common }), genesis);
  if (toHex(state.root()) !== toHex(reference)) throw new Error(`generated genesis root ${toHex(state.root())} is not ethereumjs's ${toHex(reference)}`);

  // the genesis header the loader builds (replay/chain.ts buildGenesis)
  let parent: BlockHeader = createBlockHeader(
    { number: 0n, stateRoot: reference, gasLimit: 30_000_000n, timestamp: 0n, extraData: '0x', difficulty: 0n, mixHash: ZERO32, nonce: new Uint8Array(8), coinbase: new Uint8Array(20), baseFeePerGas: 7n, excessBlobGas: 0n, blobGasUsed: 0n, withdrawalsRoot: EMPTY_TRIE_ROOT },
    { common, setHardfork: true, skipConsensusFormatValidation: true },
  );
  const ranges = signedRanges(txCount, threads);
  let signed: Uint8Array[] = [];
  let n = 0;
  try {
    for (let number = 1n; n < txCount; number++) {
      const baseFee = parent.calcNextBaseFee();
      const price = baseFee + PRIORITY_FEE < MAX_FEE ? baseFee + PRIORITY_FEE : MAX_FEE;
      const tip = price - baseFee;
      const txs: Uint8Array[] = [];
      const receipts: Uint8Array[] = [];
      const blockBloom = new Uint8Array(256);
      const touched = new Set<number>();
      let gasUsed = 0n;
      for (let j = 0; j < perBlock && n < txCount; j++, n++) {
        if (signed.length === 0) {
          const next = await ranges.next();
          if (next.done === true) throw new Error('signing ended early');
          signed = unpack(next.value).reverse();
        }
        txs.push(signed.pop()!);
        const tx = txFields(n);
        const from = accounts[tx.sender]!;
        if (gasUsed + tx.gasLimit > parent.gasLimit) throw new Error(`transaction ${n}: ${perBlock} transactions a block pass the block gas limit`);
        if (from.balance < tx.gasLimit * MAX_FEE + tx.value) throw new Error(`transaction ${n}: sender ${tx.sender} cannot pay for it`);
        const gas = tx.token ? 21_000n + calldataGas(tx.data) + TOKEN_TRANSFER_GAS : 21_000n;
        gasUsed += gas;
        from.nonce++;
        from.balance -= tx.value + gas * price;
        coinbase.balance += gas * tip;
        touched.add(tx.sender);
        const bloom = new Uint8Array(256);
        const logs: Uint8Array[] = [];
        if (tx.token) {
          tokens[tx.sender]! -= 1n;
          storage.put(keccakNow(balanceSlot(tx.payee)), FRESH_HOLDING);
          const topics = [TRANSFER_TOPIC, pad32(senderAddresses[tx.sender]!), pad32(tx.payee)];
          logs.push(rlpList([rlpBytes(TOKEN), rlpList(topics.map(rlpBytes)), rlpBytes(word(1n))]));
          for (const item of [TOKEN, ...topics]) addToBloom(bloom, item);
          for (let i = 0; i < 256; i++) blockBloom[i]! |= bloom[i]!;
        } else {
          state.put(keccakNow(tx.payee), FRESH_ACCOUNT);
        }
        const receipt = rlpList([Uint8Array.of(1), rlpBytes(indexBytes(gasUsed)), rlpBytes(bloom), rlpList(logs)]);
        receipts.push(Uint8Array.of(2, ...receipt));
      }
      for (const s of touched) {
        if (tokens[s] !== SENDER_TOKENS) storage.put(tokenSlots[s]!, storageValue(tokens[s]!));
        state.put(accounts[s]!.key, encodeAccount(accounts[s]!));
      }
      token.storageRoot = storage.root();
      state.put(token.key, encodeAccount(token));
      state.put(coinbase.key, encodeAccount(coinbase));
      const header = createBlockHeader(
        {
          parentHash: parent.hash(), coinbase: COINBASE, stateRoot: state.root(), transactionsTrie: orderedTrieRoot(txs), receiptTrie: orderedTrieRoot(receipts),
          logsBloom: blockBloom, difficulty: 0n, number, gasLimit: parent.gasLimit, gasUsed, timestamp: number * 12n, extraData: new Uint8Array(), mixHash: ZERO32,
          nonce: new Uint8Array(8), baseFeePerGas: baseFee, withdrawalsRoot: EMPTY_TRIE_ROOT, blobGasUsed: 0n, excessBlobGas: parent.calcNextExcessBlobGas(common),
          parentBeaconBlockRoot: word(number),
        },
        { common, setHardfork: true, skipConsensusFormatValidation: true },
      );
      yield rlpList([header.serialize(), rlpList(txs.map(rlpBytes)), EMPTY_LIST, EMPTY_LIST]);
      parent = header;
    }
  } finally {
    // ends the signing workers, whether the chain is done or its consumer stopped
    await ranges.return(undefined);
  }
}
