// How the recorder sees opcodes: a few handlers of ethereumjs's opcode table are wrapped, never
// changing what they do, on every table the EVM builds (one per fork). Part of the recorder: the
// only other file that knows ethereumjs's interpreter shapes.
import type { EVM } from '@ethereumjs/evm';
import { type Address, bigIntToAddressBytes } from '@ethereumjs/util';
import { sliceUsed, yieldNow } from './cooperative.ts';
import { cacheJumpAnalysis } from './jumpAnalysisCache.ts';

export const OP = {
  BALANCE: 0x31, EXTCODESIZE: 0x3b, EXTCODECOPY: 0x3c, EXTCODEHASH: 0x3f, SLOAD: 0x54, SSTORE: 0x55,
  LOG0: 0xa0, LOG4: 0xa4, CREATE: 0xf0, CALL: 0xf1, CALLCODE: 0xf2, DELEGATECALL: 0xf4, CREATE2: 0xf5,
  STATICCALL: 0xfa, SELFDESTRUCT: 0xff,
} as const;

const ADDRESS_MASK = (1n << 160n) - 1n;

/** A stack word used as an address: the EVM keeps its low 160 bits (go-ethereum `common.Address(word.Bytes20())`). */
export function stackAddress(word: bigint): Uint8Array {
  return bigIntToAddressBytes(word & ADDRESS_MASK);
}

/** The parts of ethereumjs's interpreter run state the recorder reads. */
export interface RunState {
  opCode: number;
  programCounter: number;
  code: Uint8Array;
  stack: { length: number; peek(n?: number): bigint[]; getStack(): bigint[] };
  memory: { _store: Uint8Array; read(offset: number, size: number, avoidCopy?: boolean): Uint8Array };
  /** Memory size in words (the gas handlers raise it before the opcode extends the memory). */
  memoryWordCount: bigint;
  env: { address: Address; depth: number; callValue: bigint };
  messageGasLimit?: bigint;
  interpreter: { _result: { logs: [Uint8Array, Uint8Array[], Uint8Array][] } };
  gasLeft: bigint;
  gasRefund: bigint;
  /** Return data of the frame's last call (RETURNDATASIZE). */
  returnBytes: Uint8Array;
}
export type OpHandler = (runState: RunState, common: unknown) => unknown;
type GasHandler = (runState: RunState, gas: bigint, common: unknown) => Promise<bigint> | bigint;
export interface OpEntry {
  opcodeInfo: { code: number; isAsync: boolean; dynamicGas: boolean };
  opHandler: OpHandler;
  gasHandler: unknown;
}

export interface OpcodeHooks {
  /** While false the original handlers run alone. */
  recording(): boolean;
  /** Whether a recording needs to see this opcode (the state reads only when it records state). */
  wants(code: number): boolean;
  /** Runs in place of a hooked handler; must call `original` exactly once. */
  onOpcode(code: number, rs: RunState, common: unknown, original: OpHandler): Promise<unknown>;
  /** An SSTORE's gas check failed with this much gas left. */
  onSstoreGasFailure(gasLeft: bigint): void;
}

/** Hooks `codes` on the EVM's current opcode table and on every table it builds later. */
export function hookOpcodes(evm: EVM, codes: readonly number[], hooks: OpcodeHooks): void {
  onEveryTable(evm, (map) => {
    for (const code of codes) {
      const entry = map[code];
      if (entry === undefined || entry.opcodeInfo.code !== code) continue; // not active in this fork
      const original = entry.opHandler;
      const info = Object.assign(Object.create(Object.getPrototypeOf(entry.opcodeInfo)), entry.opcodeInfo, { isAsync: true });
      map[code] = {
        opcodeInfo: info,
        gasHandler: code === OP.SSTORE ? watchSstoreGas(entry.gasHandler as GasHandler, hooks) : entry.gasHandler,
        opHandler: async (runState, common) => {
          cacheJumpAnalysis(runState.interpreter);
          if (!hooks.recording() || !hooks.wants(code)) return original(runState, common);
          return hooks.onOpcode(code, runState, common, original);
        },
      };
    }
  });
}

/** Where a watched table's hooks find the EVM's own observer (watchOpcodes). */
const WATCHER = Symbol('opcode watcher');
type Watcher = (code: number, rs: RunState) => void;
/** Watched copies of each table, by the opcodes watched: shared, so the jump analyses cached per table serve them too. */
const watchedTables = new WeakMap<OpEntry[], Map<string, OpEntry[]>>();

/**
 * Calls `reached` as the interpreter reaches one of `codes`, before its gas is charged, so also when
 * the opcode then fails on gas or stack (go-ethereum's OnOpcode sees those too); the run is
 * unchanged. Only for opcodes with a dynamic gas handler: the state-access ones all have one. The
 * watched table is made once per table and opcodes; its hooks call the observer the running EVM
 * carries.
 */
export function watchOpcodes(evm: EVM, codes: readonly number[], reached: Watcher): void {
  (evm as unknown as { [WATCHER]?: Watcher })[WATCHER] = reached;
  const holder = evm as unknown as { _opcodeMap: OpEntry[] };
  const key = codes.join(',');
  const apply = (): void => {
    const base = holder._opcodeMap;
    let byCodes = watchedTables.get(base);
    if (byCodes === undefined) watchedTables.set(base, (byCodes = new Map()));
    let watched = byCodes.get(key);
    if (watched === undefined) {
      watched = [...base];
      for (const code of codes) {
        const entry = watched[code];
        if (entry === undefined || entry.opcodeInfo.code !== code || !entry.opcodeInfo.dynamicGas) continue;
        const original = entry.gasHandler as GasHandler;
        const gasHandler: GasHandler = (rs, gas, common) => {
          (rs.interpreter as unknown as { _evm: { [WATCHER]?: Watcher } })._evm[WATCHER]?.(code, rs);
          return original(rs, gas, common);
        };
        watched[code] = { ...entry, gasHandler };
      }
      byCodes.set(key, watched);
    }
    holder._opcodeMap = watched;
  };
  onEveryBuild(evm, apply);
}

const JUMPDEST = 0x5b;

/**
 * Lets the event loop in during long runs: every 256th JUMPDEST (each loop iteration passes one)
 * checks the clock; past the time slice the opcode is marked async for its next run, which then
 * yields (cooperative.ts) and marks it sync again. The opcode does what it did, and the interpreter
 * awaits it only on that one run. Its first run also installs the jump-analysis cache
 * (jumpAnalysisCache.ts), which a recorder's hooked opcode would otherwise install first.
 */
export function yieldOnJumps(evm: EVM): void {
  let count = 0;
  let cached = false;
  onEveryTable(evm, (map) => {
    const entry = map[JUMPDEST];
    if (entry === undefined || entry.opcodeInfo.code !== JUMPDEST) return;
    const original = entry.opHandler;
    const info: { isAsync: boolean } = Object.assign(Object.create(Object.getPrototypeOf(entry.opcodeInfo)), entry.opcodeInfo, { isAsync: false });
    map[JUMPDEST] = {
      ...entry,
      opcodeInfo: info as OpEntry['opcodeInfo'],
      opHandler: (runState, common) => {
        original(runState, common);
        // a chain started from its snapshot may answer calls before any block runs with the recorder
        if (!cached) {
          cacheJumpAnalysis(runState.interpreter);
          cached = true;
        }
        if (info.isAsync) {
          info.isAsync = false;
          return yieldNow();
        }
        if ((++count & 255) === 0 && sliceUsed()) info.isAsync = true;
        return undefined;
      },
    };
  });
}

/**
 * Runs in place of every opcode's gas computation in a stepping table: called as the interpreter
 * reaches the opcode, before its gas is charged; `dynamic` is the opcode's own gas handler (absent for
 * static-gas opcodes), to be called at most once, and the result is the gas to charge (static included):
 * a promise only when there is asynchronous work (the interpreter then awaits the step).
 */
export type SteppedGas = (rs: RunState, fee: bigint, common: unknown, dynamic: GasHandler | undefined, invalid: boolean) => Promise<bigint> | bigint;
export type { GasHandler };

/**
 * A copy of `table` in which every opcode, the undefined ones too, goes through `stepped`: all are
 * marked as having dynamic gas, so the interpreter calls a gas handler for each; what they do is
 * unchanged. The copies inherit the rest of each opcode's description (a JUMPDEST made async for a
 * turn of the event loop stays so, yieldOnJumps).
 */
export function steppingTable(table: readonly OpEntry[], stepped: SteppedGas): OpEntry[] {
  return table.map((entry) => {
    const info = entry.opcodeInfo;
    const dynamic = info.dynamicGas ? (entry.gasHandler as GasHandler) : undefined;
    const invalid = (info as { isInvalid?: boolean }).isInvalid === true;
    return {
      opcodeInfo: Object.create(info, { dynamicGas: { value: true } }) as OpEntry['opcodeInfo'],
      opHandler: entry.opHandler,
      gasHandler: ((rs: RunState, fee: bigint, common: unknown) => stepped(rs, fee, common, dynamic, invalid)) satisfies GasHandler,
    };
  });
}

/** The EVM's current opcode table (the one its interpreters look opcodes up in). */
export function opcodeTable(evm: EVM): OpEntry[] {
  return (evm as unknown as { _opcodeMap: OpEntry[] })._opcodeMap;
}

/** Makes `table` the EVM's current opcode table. */
export function useOpcodeTable(evm: EVM, table: OpEntry[]): void {
  (evm as unknown as { _opcodeMap: OpEntry[] })._opcodeMap = table;
}

const sharedTables = new WeakMap<object, Map<string, OpEntry[]>>();

/**
 * Lets EVMs made one per request (eth_call, eth_estimateGas) share one opcode table per owner and
 * fork instead of each building its own: the table is never changed in place (onEveryTable copies),
 * and the jump analyses cached per table (jumpAnalysisCache.ts) then serve every such call.
 */
export function shareOpcodeTable(evm: EVM, owner: object, fork: string): void {
  const holder = evm as unknown as { _opcodeMap: OpEntry[] };
  let byFork = sharedTables.get(owner);
  if (byFork === undefined) sharedTables.set(owner, (byFork = new Map()));
  const table = byFork.get(fork);
  if (table !== undefined) holder._opcodeMap = table;
  else byFork.set(fork, holder._opcodeMap);
}

/** Applies `hook` to a copy of the EVM's opcode table now and to every table it builds later. */
function onEveryTable(evm: EVM, hook: (map: OpEntry[]) => void): void {
  // A new table, never the old one changed in place: analyses cached per table (jumpAnalysisCache.ts)
  // hold the entries of the table they were made with.
  const holder = evm as unknown as { _opcodeMap: OpEntry[] };
  onEveryBuild(evm, () => {
    const map = [...holder._opcodeMap];
    hook(map);
    holder._opcodeMap = map;
  });
}

/** Runs `apply` now and after every opcode table the EVM builds later (a fork change). */
function onEveryBuild(evm: EVM, apply: () => void): void {
  const build = evm.getActiveOpcodes.bind(evm);
  evm.getActiveOpcodes = () => {
    const ops = build();
    apply();
    return ops;
  };
  apply();
}

function watchSstoreGas(original: GasHandler, hooks: OpcodeHooks): GasHandler {
  return async (rs, gas, common) => {
    const before = rs.gasLeft;
    try {
      return await original(rs, gas, common);
    } catch (error) {
      if (hooks.recording()) hooks.onSstoreGasFailure(before);
      throw error;
    }
  };
}

/** `size` bytes of the frame's memory at `offset` (empty for size 0): a view, valid until memory changes. */
export function memoryView(rs: RunState, offset: bigint, size: bigint): Uint8Array {
  if (size === 0n) return new Uint8Array();
  return rs.memory.read(Number(offset), Number(size), true);
}
