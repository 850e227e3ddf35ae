// eth_simulateV1's engine (go-ethereum internal/ethapi/simulate.go): simulated blocks on top of a
// chain block, each built as a block is (system calls, transactions, requests, withdrawals, roots)
// with ethereumjs's BlockBuilder, its transactions run by runTx after go-ethereum's own checks so
// that a refused call carries go-ethereum's code and text. The caller runs this on the replay VM
// under its lock; the state is left at a root nothing points to (the next replay sets its own).
import { type Block, createBlock } from '@ethereumjs/block';
import { createBlob4844Tx, createEOACode7702Tx, createFeeMarket1559Tx, createLegacyTx, type TypedTransaction } from '@ethereumjs/tx';
import { authorizationTuple } from '../authorizations.ts';
import { buildBlock, runTx, type BlockBuilder, type RunTxResult, type VM } from '@ethereumjs/vm';
import { Account, Address, bytesToHex, bytesToUnprefixedHex, createAccount, equalsBytes, KECCAK256_NULL, toChecksumAddress } from '@ethereumjs/util';
import { ServerError } from '../../errors/rpcErrors.ts';
import { floorDataGas, intrinsicGas } from '../message.ts';
import { failureOf, sstoreGasLeftAtHalt } from '../failures.ts';
import { applyStateOverrides, type StateOverrides } from '../overrides.ts';
import type { TxRecording } from '../../trace/types.ts';
import type { Recorder } from '../recorder.ts';
import { ReplayStateManager } from '../replayState.ts';
import { sanitizeChain, type SimHeader } from './chainPlan.ts';
import { type SimBlockResult, type SimCall, type SimCallResult, SimulationError, type SimRequest } from './types.ts';

/** internal/ethapi/errors.go codes. */
const CODE = {
  nonceTooHigh: -38011,
  nonceTooLow: -38010,
  baseFeeTooLow: -38012,
  intrinsicGas: -38013,
  insufficientFunds: -38014,
  blockGasLimitReached: -38015,
  invalidParams: -32602,
  internal: -32603,
} as const;

/** What BlockBuilder keeps of the transactions it ran; we run them ourselves (runTx with our checks). */
interface BuilderInternals {
  transactions: TypedTransaction[];
  transactionResults: RunTxResult[];
  gasUsed: bigint;
  blobGasUsed: bigint;
  headerData: Record<string, unknown>;
}

/** Looks blocks up for BLOCKHASH: the chain's, then the simulated ones. */
export interface BlockLookup {
  getBlock(n: number | bigint | Uint8Array): Promise<unknown>;
}

export async function simulate(vm: VM, recorder: Recorder, base: Block, baseRoot: Uint8Array, request: SimRequest): Promise<SimBlockResult[]> {
  const plan = sanitizeChain(base, request.blocks);
  // the simulated blocks' nodes and code leave the chain's database when the simulation ends
  const state = vm.stateManager;
  return state instanceof ReplayStateManager ? state.scratch(() => simulateOn(vm, recorder, base, baseRoot, request, plan)) : simulateOn(vm, recorder, base, baseRoot, request, plan);
}

async function simulateOn(vm: VM, recorder: Recorder, base: Block, baseRoot: Uint8Array, request: SimRequest, plan: ReturnType<typeof sanitizeChain>): Promise<SimBlockResult[]> {
  const state = vm.stateManager;
  await state.setStateRoot(baseRoot);
  const simulated = new Map<bigint, Block>();
  const evm = vm.evm as unknown as { blockchain: BlockLookup };
  const blockchain = evm.blockchain;
  const lookup: BlockLookup = {
    getBlock: async (n) => (typeof n !== 'object' && simulated.get(BigInt(n))) || blockchain.getBlock(n),
  };
  evm.blockchain = { ...lookup, shallowCopy: () => lookup } as BlockLookup;
  let budget = request.gasCap;
  const results: SimBlockResult[] = [];
  try {
    let parent = base;
    for (const spec of plan) {
      const built = await simulateBlock(vm, recorder, parent, spec, request, budget);
      budget = built.budget;
      simulated.set(built.result.block.header.number, built.result.block);
      results.push(built.result);
      parent = built.result.block;
    }
  } finally {
    evm.blockchain = blockchain;
    usePrecompiles(vm, undefined);
  }
  return results;
}

type PrecompileMap = Map<string, unknown>;

/**
 * The overridden precompiles, iterated as the fork's own: runTx warms every address it iterates,
 * and go-ethereum warms the fork's precompile addresses (ActivePrecompiles(rules)) whatever the
 * overrides did to them.
 */
class PrecompileView extends Map<string, unknown> {
  constructor(private readonly fork: PrecompileMap) {
    super(fork);
  }
  override entries(): MapIterator<[string, unknown]> {
    return this.fork.entries();
  }
  override keys(): MapIterator<string> {
    return this.fork.keys();
  }
  override [Symbol.iterator](): MapIterator<[string, unknown]> {
    return this.fork.entries();
  }
}
/** The precompile maps made here; any other map the EVM holds is its own for the current fork. */
const overridden = new WeakMap<PrecompileMap, PrecompileMap>();

/**
 * The block's precompiles after its state overrides (internal/ethapi/override StateOverride.Apply):
 * an overridden precompile address loses its precompile, movePrecompileToAddress puts it at the new
 * address. The EVM's own map is never changed: a new one is set, and the fork's map again after.
 */
function usePrecompiles(vm: VM, overrides: StateOverrides | undefined): void {
  const evm = vm.evm as unknown as { _precompiles: PrecompileMap };
  const pristine = overridden.get(evm._precompiles) ?? evm._precompiles;
  if (overrides === undefined || overrides.size === 0) {
    evm._precompiles = pristine;
    return;
  }
  const map = new PrecompileView(pristine);
  const moved = new Set<string>();
  const who = (hex: string): string => toChecksumAddress(`0x${hex}`);
  for (const address of [...overrides.keys()].sort()) {
    const o = overrides.get(address)!;
    if (moved.has(address)) throw new ServerError(`account ${who(address)} has already been overridden by a precompile`);
    const precompile = map.get(address);
    if (o.movePrecompileToAddress !== undefined) {
      if (precompile === undefined) throw new ServerError(`account ${who(address)} is not a precompile`);
      const to = bytesToUnprefixedHex(o.movePrecompileToAddress);
      if (overrides.has(to)) throw new ServerError(`account ${who(to)} is already overridden`);
      map.set(to, precompile);
      moved.add(to);
    }
    if (precompile !== undefined) map.delete(address);
  }
  overridden.set(map, pristine);
  evm._precompiles = map;
}

async function simulateBlock(
  vm: VM,
  recorder: Recorder,
  parent: Block,
  spec: SimHeader,
  request: SimRequest,
  budgetIn: bigint,
): Promise<{ result: SimBlockResult; budget: bigint }> {
  const common = vm.common;
  common.setHardforkBy({ blockNumber: spec.number, timestamp: spec.time });
  usePrecompiles(vm, spec.stateOverrides);
  const o = spec.overrides;
  const london = common.isActivatedEIP(1559);
  let baseFee: bigint | undefined;
  if (london) baseFee = o?.baseFeePerGas ?? (request.validation ? parent.header.calcNextBaseFee() : 0n);
  const cancun = common.isActivatedEIP(4844);
  const excessBlobGas = cancun ? (parent.header.excessBlobGas !== undefined ? parent.header.calcNextExcessBlobGas(common) : 0n) : undefined;
  const shanghai = common.isActivatedEIP(4895);
  const merged = common.gteHardfork('paris');
  const headerData: Record<string, unknown> = {
    number: spec.number,
    timestamp: spec.time,
    parentHash: parent.hash(),
    coinbase: o?.feeRecipient ?? parent.header.coinbase.bytes,
    difficulty: merged ? 0n : (o?.difficulty ?? parent.header.difficulty),
    gasLimit: o?.gasLimit ?? parent.header.gasLimit,
    mixHash: o?.prevRandao ?? new Uint8Array(32),
    ...(baseFee !== undefined ? { baseFeePerGas: baseFee } : {}),
    ...(excessBlobGas !== undefined ? { excessBlobGas } : {}),
    ...(cancun ? { parentBeaconBlockRoot: o?.beaconRoot ?? new Uint8Array(32) } : {}),
  };
  // state overrides come before the block's system calls (simulate.go processBlock)
  if (spec.stateOverrides !== undefined) {
    await applyStateOverrides(vm.stateManager, spec.stateOverrides);
    // written to the trie now: the block's root is taken inside BlockBuilder's checkpoint, and a
    // cache flush there writes only what changed since that checkpoint
    await vm.stateManager.getStateRoot();
  }
  const withdrawals = shanghai
    ? (o?.withdrawals ?? []).map((w) => ({ index: w.index, validatorIndex: w.validatorIndex, address: w.address, amount: w.amount }))
    : undefined;
  const builder = await buildBlock(vm, {
    parentBlock: parent,
    headerData: headerData as never,
    ...(withdrawals !== undefined ? { withdrawals } : {}),
    blockOpts: { putBlockIntoBlockchain: false, skipConsensusFormatValidation: true, freeze: false, common },
  });
  const internals = builder as unknown as BuilderInternals;
  const gasLimit = headerData['gasLimit'] as bigint;
  const outcomes: Omit<SimCallResult, 'recording'>[] = [];
  const senders: Uint8Array[] = [];
  let budget = budgetIn;
  recorder.start(pendingBlock(internals, common), false);
  let recordings: TxRecording[];
  try {
    await runCalls();
  } finally {
    recordings = recorder.finish();
  }
  const calls = outcomes.map((o, i) => ({ ...o, recording: recordings[i]! }));
  const block = await assemble(builder, internals);
  return { result: { block, calls, senders }, budget };

  async function runCalls(): Promise<void> {
  for (const call of spec.calls) {
    const from = call.from ?? new Uint8Array(20);
    const sender = new Address(from);
    const account = (await vm.stateManager.getAccount(sender)) ?? createAccount({});
    // sanitizeCall: nonce from the state, gas the block's remaining gas, both capped
    const remaining = gasLimit - internals.gasUsed;
    const wanted = call.gas ?? remaining;
    if (remaining < wanted) throw new SimulationError(CODE.blockGasLimitReached, `block gas limit reached: remaining: ${remaining}, required: ${wanted}`);
    const gas = wanted > budget ? budget : wanted;
    const capped = gas < wanted;
    if (call.chainId !== undefined && call.chainId !== common.chainId()) {
      throw new SimulationError(CODE.internal, `chainId does not match node's (have=${call.chainId}, want=${common.chainId()})`);
    }
    const nonce = call.nonce ?? account.nonce;
    const message = messageOf(call, gas, nonce, baseFee);
    try {
      await preCheck(vm, message, account.nonce, account.balance, baseFee, blobBaseFeeOf(internals, common, o?.blobBaseFee), request.validation, sender);
    } catch (err) {
      // internal/ethapi/api.go applyMessageWithEVM wraps the state transition's error
      if (err instanceof SimulationError) throw new SimulationError(err.code, `err: ${err.message} (supplied gas ${gas})`);
      throw err;
    }
    // core/vm/evm.go NewEVM: with NoBaseFee a call without gas price sees a base fee of 0
    const block = pendingBlock(internals, common, !request.validation && message.gasPrice === 0n);
    // simulate.go: a blobBaseFee override sets the block context's; NewEVM zeroes it without validation and blob fee cap
    const blobPrice = !request.validation && message.blobFeeCap === 0n ? 0n : o?.blobBaseFee;
    if (blobPrice !== undefined) Object.defineProperty(block.header, 'getBlobGasPrice', { value: () => blobPrice });
    const tx = transactionOf(block, call, message, sender);
    const result = await asEoa(vm.stateManager, sender, () => runTx(vm, {
      tx,
      block,
      skipNonce: true,
      skipBalance: false,
      skipBlockGasLimitValidation: true,
      skipHardForkValidation: true,
      reportPreimages: false,
    }));
    await wrapNonce(vm.stateManager, sender);
    internals.transactions.push(tx);
    internals.transactionResults.push(result);
    internals.gasUsed += result.blockGasSpent;
    internals.blobGasUsed += result.blobGasUsed ?? 0n;
    budget -= result.totalGasSpent;
    senders.push(from);
    outcomes.push(callResult(block, message, result, capped));
  }
  }
}

/**
 * BlockBuilder.build (withdrawals, EIP-7685 requests, roots) with our transactions kept: build
 * makes the block's transactions anew from their fields, which refuses what go-ethereum's
 * simulation takes (a gas limit over the EIP-7825 cap, a nonce of 2^64-1) and loses their unsigned
 * hashes and senders. So their roots are taken first, and build sees none of them.
 */
async function assemble(builder: BlockBuilder, internals: BuilderInternals): Promise<Block> {
  const transactions = internals.transactions;
  const transactionsRoot = await builder.transactionsTrie();
  const receiptsRoot = await builder.receiptTrie();
  const roots = builder as unknown as { transactionsTrie(): Promise<Uint8Array>; receiptTrie(): Promise<Uint8Array> };
  roots.transactionsTrie = async () => transactionsRoot;
  roots.receiptTrie = async () => receiptsRoot;
  internals.transactions = [];
  let built: Block;
  try {
    built = (await builder.build()).block as Block;
  } finally {
    internals.transactions = transactions;
  }
  Object.defineProperty(built, 'transactions', { value: transactions });
  return built;
}

/** The message of a call after CallDefaults and ToMessage (transaction_args.go). */
interface Message {
  readonly from: Uint8Array;
  readonly to: Uint8Array | undefined;
  readonly gas: bigint;
  readonly nonce: bigint;
  readonly value: bigint;
  readonly data: Uint8Array;
  readonly gasPrice: bigint;
  readonly feeCap: bigint;
  readonly tip: bigint;
  /** The transaction type ToTransaction(DynamicFeeTxType) makes: legacy when a gasPrice is given. */
  readonly legacy: boolean;
  readonly accessList: SimCall['accessList'];
  readonly authorizations: SimCall['authorizations'];
  readonly blobHashes: SimCall['blobVersionedHashes'];
  readonly blobFeeCap: bigint;
}

function messageOf(call: SimCall, gas: bigint, nonce: bigint, baseFee: bigint | undefined): Message {
  const value = call.value ?? 0n;
  const data = call.data ?? new Uint8Array();
  const common = {
    from: call.from ?? new Uint8Array(20), to: call.to, gas, nonce, value, data, accessList: call.accessList, authorizations: call.authorizations,
    blobHashes: call.blobVersionedHashes, blobFeeCap: call.maxFeePerBlobGas ?? 0n,
  };
  if (call.gasPrice !== undefined || baseFee === undefined) {
    const price = call.gasPrice ?? 0n;
    return { ...common, gasPrice: price, feeCap: price, tip: price, legacy: call.gasPrice !== undefined };
  }
  const feeCap = call.maxFeePerGas ?? 0n;
  const tip = call.maxPriorityFeePerGas ?? 0n;
  let gasPrice = 0n;
  if (feeCap !== 0n || tip !== 0n) gasPrice = tip + baseFee < feeCap ? tip + baseFee : feeCap;
  return { ...common, gasPrice, feeCap, tip, legacy: false };
}

/** core/state_transition.go preCheck and buyGas, with go-ethereum's texts; eth_simulateV1's codes (errors.go txValidationError). */
async function preCheck(vm: VM, m: Message, stateNonce: bigint, balance: bigint, baseFee: bigint | undefined, blobBaseFee: bigint, validation: boolean, sender: Address): Promise<void> {
  const who = toChecksumAddress(sender.toString());
  if (validation) {
    if (stateNonce < m.nonce) throw new SimulationError(CODE.nonceTooHigh, `nonce too high: address ${who}, tx: ${m.nonce} state: ${stateNonce}`);
    if (stateNonce > m.nonce) throw new SimulationError(CODE.nonceTooLow, `nonce too low: address ${who}, tx: ${m.nonce} state: ${stateNonce}`);
    if (stateNonce === 2n ** 64n - 1n) throw new SimulationError(CODE.internal, `nonce has max value: address ${who}, nonce: ${stateNonce}`);
  }
  if (baseFee !== undefined) {
    const skip = !validation && m.feeCap === 0n && m.tip === 0n;
    if (!skip) {
      if (m.feeCap < m.tip) {
        throw new SimulationError(CODE.invalidParams, `max priority fee per gas higher than max fee per gas: address ${who}, maxPriorityFeePerGas: ${m.tip}, maxFeePerGas: ${m.feeCap}`);
      }
      if (m.feeCap < baseFee) {
        throw new SimulationError(CODE.baseFeeTooLow, `max fee per gas less than block base fee: address ${who}, maxFeePerGas: ${m.feeCap}, baseFee: ${baseFee}`);
      }
    }
  }
  const blobGas = BLOB_GAS_PER_BLOB * BigInt(m.blobHashes?.length ?? 0);
  if (m.blobHashes !== undefined) {
    if (m.to === undefined) throw new SimulationError(CODE.internal, 'blob transaction of type create');
    if (m.blobHashes.length === 0) throw new SimulationError(CODE.internal, 'blob transaction missing blob hashes');
    const bad = m.blobHashes.findIndex((h) => h[0] !== 0x01);
    if (bad !== -1) throw new SimulationError(CODE.internal, `blob ${bad} has invalid hash version`);
  }
  if (blobGas > 0n && !(!validation && m.blobFeeCap === 0n) && m.blobFeeCap < blobBaseFee) {
    throw new SimulationError(CODE.internal, `max fee per blob gas less than block blob gas fee: address ${who} blobGasFeeCap: ${m.blobFeeCap}, blobBaseFee: ${blobBaseFee}`);
  }
  const want = m.gas * m.feeCap + m.value + blobGas * m.blobFeeCap;
  if (balance < want) throw new SimulationError(CODE.insufficientFunds, `insufficient funds for gas * price + value: address ${who} have ${balance} want ${want}`);
  const block = { common: vm.common } as Block;
  const request = { from: m.from, to: m.to, gas: m.gas, gasPrice: m.gasPrice, value: m.value, data: m.data, accessList: m.accessList, authorizations: m.authorizations };
  const intrinsic = intrinsicGas(block, request);
  if (m.gas < intrinsic) throw new SimulationError(CODE.intrinsicGas, `intrinsic gas too low: have ${m.gas}, want ${intrinsic}`);
  const floor = floorDataGas(block, request);
  if (floor !== undefined && m.gas < floor) throw new SimulationError(CODE.internal, `insufficient gas for floor data gas cost: have ${m.gas}, want ${floor}`);
  if (m.value > 0n && balance - m.gas * m.gasPrice < m.value) throw new SimulationError(CODE.insufficientFunds, `insufficient funds for transfer: address ${who}`);
}

/** go-ethereum keeps nonces as uint64: a nonce of 2^64-1 overflows to 0 when incremented (SetNonce(n+1)). */
async function wrapNonce(state: VM['stateManager'], sender: Address): Promise<void> {
  const account = await state.getAccount(sender);
  if (account === undefined || account.nonce < 2n ** 64n) return;
  account.nonce %= 2n ** 64n;
  await state.putAccount(sender, account);
}

const BLOB_GAS_PER_BLOB = 131072n;

/** The block's blob base fee: the override, else the one of its excess blob gas. */
function blobBaseFeeOf(internals: BuilderInternals, common: VM['common'], override: bigint | undefined): bigint {
  if (override !== undefined) return override;
  if (internals.headerData['excessBlobGas'] === undefined) return 0n;
  return pendingBlock(internals, common).header.getBlobGasPrice();
}

/** The block a transaction runs in, as BlockBuilder.addTransaction makes it. */
function pendingBlock(internals: BuilderInternals, common: VM['common'], noBaseFee = false): Block {
  const header = { ...internals.headerData, gasUsed: internals.gasUsed, ...(noBaseFee && internals.headerData['baseFeePerGas'] !== undefined ? { baseFeePerGas: 0n } : {}) };
  return createBlock({ header: header as never }, { common, skipConsensusFormatValidation: true, freeze: false });
}

/**
 * Runs `fn` with the sender seen as an EOA by runTx's EIP-3607 check, which go-ethereum's simulation
 * skips ("EoA check is always skipped"): runTx's first read of the sender has no code hash, and the
 * account it writes back gets its code hash again.
 */
async function asEoa<T>(state: VM['stateManager'], sender: Address, fn: () => Promise<T>): Promise<T> {
  const real = await state.getAccount(sender);
  if (real === undefined || equalsBytes(real.codeHash, KECCAK256_NULL)) return fn();
  const code = await state.getCode(sender);
  if (code.length >= 3 && code[0] === 0xef && code[1] === 0x01 && code[2] === 0x00) return fn();
  const { getAccount, putAccount } = state;
  let first = true;
  state.getAccount = async (address) => {
    const account = await getAccount.call(state, address);
    if (!first || account === undefined || !address.equals(sender)) return account;
    first = false;
    return new Account(account.nonce, account.balance, account.storageRoot, KECCAK256_NULL);
  };
  state.putAccount = async (address, account) => {
    if (account !== undefined && address.equals(sender) && equalsBytes(account.codeHash, KECCAK256_NULL)) account.codeHash = real.codeHash;
    return putAccount.call(state, address, account);
  };
  try {
    return await fn();
  } finally {
    state.getAccount = getAccount;
    state.putAccount = putAccount;
  }
}

/**
 * ToTransaction(DynamicFeeTxType): unsigned (v = r = s = 0, so its hash is that of go-ethereum's
 * unsigned transaction), from the call's sender; the gas limit is set after construction, so no
 * EIP-7825 cap applies (SkipTransactionChecks).
 */
function transactionOf(block: Block, call: SimCall, m: Message, sender: Address): TypedTransaction {
  const common = block.common;
  const opts = { common, freeze: false, allowUnlimitedInitCodeSize: true };
  const accessList = (m.accessList ?? []).map((t): [Uint8Array, Uint8Array[]] => [t.address, [...t.storageKeys]]);
  const base = { nonce: 0n, gasLimit: 0n, ...(m.to === undefined ? {} : { to: m.to }), value: m.value, data: m.data };
  const dynamic = { ...base, chainId: call.chainId ?? common.chainId(), maxFeePerGas: m.feeCap, maxPriorityFeePerGas: m.tip, accessList };
  const tx =
    call.authorizations !== undefined
      ? createEOACode7702Tx({ ...dynamic, authorizationList: call.authorizations.map(authorizationTuple) }, opts)
      : m.blobHashes !== undefined
        ? createBlob4844Tx({ ...dynamic, blobVersionedHashes: m.blobHashes.map((h) => bytesToHex(h)), maxFeePerBlobGas: m.blobFeeCap }, opts)
      : m.legacy
        ? createLegacyTx({ ...base, gasPrice: m.gasPrice }, opts)
        : createFeeMarket1559Tx(dynamic, opts);
  // set after construction: ethereumjs refuses a nonce of 2^64-1 (go-ethereum's simulation takes it) and a gas limit over the EIP-7825 cap
  Object.defineProperty(tx, 'nonce', { value: m.nonce, writable: false });
  Object.defineProperty(tx, 'gasLimit', { value: m.gas, writable: false });
  Object.defineProperty(tx, 'getSenderAddress', { value: () => sender });
  const hash = common.customCrypto.keccak256!(tx.serialize());
  Object.defineProperty(tx, 'hash', { value: () => hash });
  return tx;
}

function callResult(block: Block, m: Message, result: RunTxResult, capped: boolean): Omit<SimCallResult, 'recording'> {
  const exec = result.execResult;
  const request = { from: m.from, to: m.to, gas: m.gas, gasPrice: m.gasPrice, value: m.value, data: m.data, accessList: m.accessList, authorizations: m.authorizations };
  const spent = intrinsicGas(block, request) + exec.executionGasUsed;
  const floor = floorDataGas(block, request);
  const maxUsedGas = floor !== undefined && spent < floor ? floor : spent;
  const error = exec.exceptionError?.error;
  // core.ExecutionResult.Return: no return data for a failed call (a revert's is the error's data)
  const base = { returnData: error === undefined ? exec.returnValue : new Uint8Array(), gasUsed: result.totalGasSpent, maxUsedGas };
  if (error === undefined) return base;
  if (error === 'revert') return { ...base, error: { kind: 'reverted', returnData: exec.returnValue } };
  const precompile = m.to !== undefined && block.common.isActivatedEIP(2929) && isPrecompile(m.to);
  const frame = { kind: m.to === undefined ? 'CREATE' : 'CALL', to: m.to, input: m.data, precompile } as const;
  const failure = failureOf(exec, frame, block.common, sstoreGasLeftAtHalt(exec)) ?? { kind: 'other' as const, message: error };
  return { ...base, error: { kind: 'failed', failure, capped } };
}

const isPrecompile = (to: Uint8Array): boolean => to.slice(0, 18).every((b) => b === 0) && to[18]! * 256 + to[19]! < 0x200 && to[18]! * 256 + to[19]! > 0;
