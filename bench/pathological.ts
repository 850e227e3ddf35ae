// Builds small fixture chains whose blocks are hard on a tracer: a 1024-deep call chain, a block of
// failing CREATEs, a transaction with thousands of logs, a block filled to its gas limit with
// SSTOREs. Each block is built once with ethereumjs buildBlock (which fills stateRoot, receiptsRoot,
// logsBloom and gasUsed) and written as RLP into a blocktrace JSON fixture, {"genesis", "blocks"}.
import { type Block, createBlock } from '@ethereumjs/block';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { createLegacyTx, type LegacyTx } from '@ethereumjs/tx';
import { bytesToHex, hexToBytes, privateToAddress, setLengthLeft, bigIntToBytes } from '@ethereumjs/util';
import { buildBlock, createVM } from '@ethereumjs/vm';
import { fromBlocktraceJson } from '../src/fixture/blocktraceJson.ts';
import type { GethGenesis } from '../src/fixture/types.ts';
import { FixtureChain } from '../src/replay/chain.ts';
import { makeCommon } from '../src/replay/common.ts';
import { writeGenesisAlloc } from '../src/replay/genesisState.ts';
import { lazyKzg } from '../src/replay/kzg.ts';

/** A throwaway test key (never funded anywhere real). */
const KEY = hexToBytes('0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318');
export const SENDER = bytesToHex(privateToAddress(KEY));

export const RECURSE = '0x' + '1'.repeat(40);
export const LOGGER = '0x' + '2'.repeat(40);
export const FACTORY = '0x' + '3'.repeat(40);
export const FILLER = '0x' + '4'.repeat(40);

/** Calls itself with all but 128 of its gas until the depth limit refuses the call. */
const RECURSE_CODE = '0x' + '6000600060006000600030' + '6080' + '5a' + '03' + 'f1' + '00';
/** LOG1 of 32 bytes, `LOGS` times, topic = the countdown. */
export const LOGS = 5000;
const LOGGER_CODE = '0x61' + LOGS.toString(16).padStart(4, '0') + '5b' + '80' + '6020' + '6000' + 'a1' + '6001' + '90' + '03' + '80' + '6003' + '57' + '00';
/** CREATE of init code PUSH1 0 PUSH1 0 REVERT, `CREATES` times: every one fails. */
export const CREATES = 30;
const FACTORY_CODE = '0x' + '6460006000fd' + '6000' + '52' + '60' + CREATES.toString(16).padStart(2, '0') + '5b' + '6005' + '601b' + '6000' + 'f0' + '50' + '6001' + '90' + '03' + '80' + '600b' + '57' + '00';
/** SSTORE 1 into slots calldata[0], calldata[0]+1, … while more than 25000 gas is left. */
const FILLER_CODE = '0x' + '6000' + '35' + '5b' + '6001' + '81' + '55' + '6001' + '01' + '6161a8' + '5a' + '11' + '6003' + '57' + '00';

const ALLOC = {
  [SENDER]: { balance: '0x' + (10n ** 24n).toString(16) },
  [RECURSE]: { balance: '0x0', code: RECURSE_CODE },
  [LOGGER]: { balance: '0x0', code: LOGGER_CODE },
  [FACTORY]: { balance: '0x0', code: FACTORY_CODE },
  [FILLER]: { balance: '0x0', code: FILLER_CODE },
};

/** Homestead: no 63/64 rule, so a self-call chain really reaches depth 1024 (the "call depth attack"). */
const HOMESTEAD: GethGenesis = {
  config: { chainId: 1337, homesteadBlock: 0 },
  alloc: ALLOC,
  gasLimit: '0x7a1200',
  difficulty: '0x20000',
  timestamp: '0x0',
  extraData: '0x',
} as unknown as GethGenesis;

const SHANGHAI: GethGenesis = {
  config: {
    chainId: 1337, homesteadBlock: 0, eip150Block: 0, eip155Block: 0, eip158Block: 0, byzantiumBlock: 0,
    constantinopleBlock: 0, petersburgBlock: 0, istanbulBlock: 0, berlinBlock: 0, londonBlock: 0,
    mergeNetsplitBlock: 0, shanghaiTime: 0, terminalTotalDifficulty: 0, terminalTotalDifficultyPassed: true,
  },
  alloc: ALLOC,
  gasLimit: '0x1c9c380',
  difficulty: '0x0',
  timestamp: '0x0',
  extraData: '0x',
  baseFeePerGas: '0x7',
} as unknown as GethGenesis;

/** SHANGHAI plus Cancun: blob gas, the point-evaluation precompile (0x0a). */
const CANCUN: GethGenesis = {
  ...SHANGHAI,
  config: { ...SHANGHAI.config, cancunTime: 0, blobSchedule: { cancun: { target: 3, max: 6, baseFeeUpdateFraction: 3338477 } } },
  excessBlobGas: '0x0',
  blobGasUsed: '0x0',
} as unknown as GethGenesis;

interface TxSpec {
  readonly to: string | undefined;
  readonly gas: bigint;
  readonly data?: string;
}

type Fixture = { genesis: GethGenesis; blocks: string[] };

/** Builds the chain: one entry of `blocks` per block, each a list of transactions from SENDER. */
async function buildFixture(genesis: GethGenesis, blocks: readonly (readonly TxSpec[])[]): Promise<Fixture> {
  const common = makeCommon('pathological', genesis, lazyKzg);
  const stateManager = new MerkleStateManager({ common });
  const root = await writeGenesisAlloc('pathological', stateManager, genesis);
  const vm = await createVM({ common, stateManager });
  // the header the loader builds for a genesis (replay/chain.ts buildGenesis)
  const atGenesis = common.copy();
  atGenesis.setHardforkBy({ blockNumber: 0n, timestamp: 0n });
  const shanghai = atGenesis.isActivatedEIP(4895);
  let parent: Block = createBlock(
    {
      header: {
        number: 0n, stateRoot: root, gasLimit: BigInt(genesis['gasLimit'] as string), timestamp: 0n, extraData: '0x',
        difficulty: BigInt(genesis['difficulty'] as string), mixHash: '0x' + '00'.repeat(32) as `0x${string}`,
        nonce: '0x0000000000000000', coinbase: '0x' + '00'.repeat(20) as `0x${string}`,
        ...(genesis['baseFeePerGas'] !== undefined ? { baseFeePerGas: BigInt(genesis['baseFeePerGas'] as string) } : {}),
      },
      ...(shanghai ? { withdrawals: [] } : {}),
    },
    { common: atGenesis, setHardfork: true, skipConsensusFormatValidation: true },
  );
  let nonce = 0n;
  const out: string[] = [];
  for (const [i, txs] of blocks.entries()) {
    const number = BigInt(i + 1);
    const timestamp = number * 12n;
    vm.common.setHardforkBy({ blockNumber: number, timestamp });
    const builder = await buildBlock(vm, {
      parentBlock: parent,
      headerData: {
        number, timestamp, coinbase: '0x' + 'c0'.repeat(20) as `0x${string}`,
        ...(shanghai ? {} : { difficulty: parent.header.difficulty }),
      },
      ...(shanghai ? { withdrawals: [] } : {}),
      blockOpts: { putBlockIntoBlockchain: false, setHardfork: true, skipConsensusFormatValidation: true },
    });
    for (const spec of txs) {
      const tx: LegacyTx = createLegacyTx(
        { nonce: nonce++, gasPrice: 10n ** 9n, gasLimit: spec.gas, ...(spec.to ? { to: spec.to as `0x${string}` } : {}), data: (spec.data ?? '0x') as `0x${string}` },
        { common: vm.common },
      ).sign(KEY);
      await builder.addTransaction(tx, { skipHardForkValidation: true });
    }
    const { block } = await builder.build();
    out.push(bytesToHex(block.serialize()));
    parent = block;
  }
  return { genesis, blocks: out };
}

const word = (n: number): string => bytesToHex(setLengthLeft(bigIntToBytes(BigInt(n)), 32));

/** Block 1: one transaction whose self-calls go 1024 frames deep (Homestead rules). */
export function deepCallFixture(): Promise<Fixture> {
  return buildFixture(HOMESTEAD, [[{ to: RECURSE, gas: 1_000_000n }]]);
}

/**
 * Shanghai chain. Block 1: one transaction with LOGS logs. Block 2: 20 calls that each fail CREATES
 * creates, and 5 contract-creation transactions that fail. Block 3: ten transactions of SSTOREs to
 * fresh slots, filling the block to within 2% of its 30M gas limit.
 */
export function heavyFixture(): Promise<Fixture> {
  const creates: TxSpec[] = [
    ...Array.from({ length: 20 }, () => ({ to: FACTORY, gas: 1_200_000n })),
    ...Array.from({ length: 5 }, () => ({ to: undefined, gas: 100_000n, data: '0x60006000fd' })),
  ];
  const fills: TxSpec[] = Array.from({ length: 10 }, (_, i) => ({ to: FILLER, gas: 2_990_000n, data: word(i * 100_000) }));
  return buildFixture(SHANGHAI, [[{ to: LOGGER, gas: 6_000_000n }], creates, fills]);
}

/**
 * Shanghai chain (a 120M gas limit) of one block: forty SSTORE-filling transactions, about 5,400 new
 * slots (a slow block to trace: some 0.3 s).
 */
export function slowBlockFixture(): Promise<Fixture> {
  return buildFixture({ ...SHANGHAI, gasLimit: '0x' + (120_000_000).toString(16) }, [Array.from({ length: 40 }, (_, i) => ({ to: FILLER, gas: 2_990_000n, data: word(i * 100_000) }))]);
}

/** Cancun chain of one block: one transaction straight to the point-evaluation precompile with `input`. */
export function pointEvaluationFixture(input: string): Promise<Fixture> {
  return buildFixture(CANCUN, [[{ to: '0x' + '0'.repeat(38) + '0a', gas: 200_000n, data: input }]]);
}

/** Returns at once (the target of SPRAYER's calls). */
export const SINK = '0x' + '5'.repeat(40);
export const SPRAYER = '0x' + '6'.repeat(40);
/** Calls SINK `SPRAY_CALLS` times, each with the same `SPRAY_BYTES` bytes of (zero) memory as input. */
export const SPRAY_CALLS = 12_000;
export const SPRAY_BYTES = 24_000;
const SPRAYER_CODE = '0x61' + SPRAY_CALLS.toString(16).padStart(4, '0') + '5b' +
  '6000' + '6000' + '61' + SPRAY_BYTES.toString(16).padStart(4, '0') + '6000' + '6000' + '73' + SINK.slice(2) + '5a' + 'f1' + '50' +
  '6001' + '90' + '03' + '80' + '6003' + '57' + '00';

/**
 * Shanghai chain of one block: one transaction to SPRAYER. Its callTracer result is about
 * SPRAY_CALLS × 2 × SPRAY_BYTES = 576 MB, from a recording that holds the input bytes once.
 */
export function hugeResultFixture(): Promise<Fixture> {
  const genesis = { ...SHANGHAI, alloc: { ...ALLOC, [SINK]: { balance: '0x0', code: '0x00' }, [SPRAYER]: { balance: '0x0', code: SPRAYER_CODE } } } as unknown as GethGenesis;
  return buildFixture(genesis, [[{ to: SPRAYER, gas: 3_000_000n }]]);
}

/** Loops (JUMPDEST PUSH2 50000 GAS GT JUMPI) while more than 50,000 gas is left. */
export const LOOPER = '0x' + '7'.repeat(40);
const LOOPER_CODE = '0x5b61c3505a1160005700';

/**
 * Shanghai chain (a 300M gas limit) of one block: one transaction of `gas` gas that only loops, a
 * load of some seconds that never leaves the interpreter (the case of ethereum/tests loopMul).
 */
export function loopFixture(gas = 100_000_000n): Promise<Fixture> {
  const genesis = { ...SHANGHAI, gasLimit: '0x' + (300_000_000).toString(16), alloc: { ...ALLOC, [LOOPER]: { balance: '0x0', code: LOOPER_CODE } } } as unknown as GethGenesis;
  return buildFixture(genesis, [[{ to: LOOPER, gas }]]);
}

/** Loads a built fixture through the ordinary loader (every block replayed and its header checked). */
export function loadFixture(name: string, fixture: Fixture): Promise<FixtureChain> {
  return FixtureChain.load(fromBlocktraceJson(name, fixture as unknown as Record<string, unknown>));
}

/** Sets a word at 64 KiB (65 KiB of memory), then loops as LOOPER does (JUMPDEST at 7). */
export const MEMORY_LOOPER = '0x' + '8'.repeat(40);
const MEMORY_LOOPER_CODE = '0x' + '6001' + '62010000' + '52' + '5b' + '61c350' + '5a' + '11' + '6007' + '57' + '00';
export const MEMORY_LOOPS = 9;

/**
 * Shanghai chain of one block: MEMORY_LOOPS transactions of 3M gas to MEMORY_LOOPER. Each loops some
 * 136,000 times with 65 KiB of memory: a struct log with memory of about 150 kB an opcode, some
 * 100 GB a transaction; without memory, some 60 MB a transaction.
 */
export function memoryLoopFixture(): Promise<Fixture> {
  const genesis = { ...SHANGHAI, alloc: { ...ALLOC, [MEMORY_LOOPER]: { balance: '0x0', code: MEMORY_LOOPER_CODE } } } as unknown as GethGenesis;
  return buildFixture(genesis, [Array.from({ length: MEMORY_LOOPS }, () => ({ to: MEMORY_LOOPER, gas: 3_000_000n }))]);
}
