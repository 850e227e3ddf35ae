// go-ethereum's erc7562Tracer (--all-tracers). Its three tracer tests
// (golden/geth-tracetest/erc7562_tracer) compared as go-ethereum's erc7562_tracer_test.go compares
// them (require.JSONEq: keys in any order); on every transaction of cancun-devnet, facts from
// answers whose bytes are checked elsewhere: its tree is the callTracer tree, its opcode counts,
// first slot reads and keccak inputs are what the struct log of the transaction shows, its code
// sizes are eth_getCode's before the block.
import { beforeAll, describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadChain } from '../../src/replay/loadChain.ts';
import { createContext, type RpcContext } from '../../src/rpc/context.ts';
import { dispatch } from '../../src/rpc/dispatch.ts';
import { walkSteps } from '../helpers/structLogWalk.ts';

const GOLDEN = join(import.meta.dir, '../../golden');
const CASES = join(GOLDEN, 'geth-tracetest/erc7562_tracer');
const CANCUN = join(GOLDEN, 'fixtures/cancun-devnet/fixture.json');

const req = (method: string, params: unknown[]): string => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });

describe('go-ethereum erc7562Tracer tests', () => {
  const files = readdirSync(CASES).filter((f) => f.endsWith('.json')).sort();
  test('the folder holds its three cases', () => expect(files.length).toBe(3));
  for (const file of files) {
    test(file, async () => {
      const path = join(CASES, file);
      const c = JSON.parse(readFileSync(path, 'utf8')) as { context: { number: string }; result: unknown; tracerConfig?: unknown };
      const ctx = createContext(await loadChain(path), { log: () => {}, allTracers: true });
      const options = { tracer: 'erc7562Tracer', ...(c.tracerConfig === undefined ? {} : { tracerConfig: c.tracerConfig }) };
      const answer = JSON.parse((await dispatch(req('debug_traceBlockByNumber', [`0x${BigInt(c.context.number).toString(16)}`, options]), ctx))!) as { result: { result: unknown }[] };
      expect(answer.result.length).toBe(1);
      // toEqual ignores key order, as go-ethereum's JSONEq does
      expect(answer.result[0]!.result).toEqual(c.result);
    });
  }
});

interface Frame {
  type: string;
  to?: string;
  error?: string;
  calls?: Frame[];
  logs?: unknown[];
  accessedSlots: { reads: Record<string, string[]>; writes: Record<string, number>; transientReads: Record<string, number>; transientWrites: Record<string, number> };
  extCodeAccessInfo: string[];
  usedOpcodes: Record<string, number>;
  contractSize: Record<string, { contractSize: number; opcode: number }>;
  outOfGas: boolean;
  keccak?: string[];
  [key: string]: unknown;
}
interface Step {
  op: string;
  depth: number;
  error?: string;
  stack: string[];
  memory?: string[];
  storage?: Record<string, string>;
}

const OPCODE: Record<string, number> = {
  STOP: 0x00, ADD: 0x01, MUL: 0x02, SUB: 0x03, DIV: 0x04, LT: 0x10, GT: 0x11, SLT: 0x12, SGT: 0x13, EQ: 0x14, ISZERO: 0x15, AND: 0x16, OR: 0x17,
  NOT: 0x19, SHL: 0x1b, SHR: 0x1c, POP: 0x50, GAS: 0x5a,
};
const CALLS = ['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL'];
const ERC_KEYS = ['accessedSlots', 'extCodeAccessInfo', 'usedOpcodes', 'contractSize', 'outOfGas', 'keccak'];

describe('erc7562Tracer on every transaction of cancun-devnet', () => {
  let ctx: RpcContext;
  const blocks: { number: string; erc: Frame[]; calls: unknown[]; logs: Step[][] }[] = [];
  beforeAll(async () => {
    ctx = createContext(await loadChain(CANCUN), { log: () => {}, allTracers: true, cacheResults: false, maxResponse: 0 });
    for (let n = 1n; n <= ctx.chain.head.number; n++) {
      const number = `0x${n.toString(16)}`;
      const get = async (config: unknown) => (JSON.parse((await dispatch(req('debug_traceBlockByNumber', [number, config]), ctx))!) as { result: { result: unknown }[] }).result.map((r) => r.result);
      const erc = (await get({ tracer: 'erc7562Tracer' })) as Frame[];
      const calls = await get({ tracer: 'callTracer' });
      const logs = ((await get({ enableMemory: true })) as { structLogs: Step[] }[]).map((l) => l.structLogs);
      blocks.push({ number, erc, calls, logs });
    }
  }, 120_000);

  /** The erc7562 frames in the order their first opcode runs: the frames with code, depth first. */
  function* framesOf(frame: Frame): Generator<Frame> {
    yield frame;
    for (const child of frame.calls ?? []) yield* framesOf(child);
  }

  /** Each struct-log step with the erc7562 frame it ran in (frames entered in step order). */
  function stepsByFrame(root: Frame, steps: Step[]): Map<Frame, Step[]> {
    const out = new Map<Frame, Step[]>();
    for (const { step, frame } of walkSteps(steps, root)) {
      if (!out.has(frame)) out.set(frame, []);
      out.get(frame)!.push(step);
    }
    return out;
  }

  test('its tree is the callTracer tree, frame for frame', () => {
    const strip = (f: Frame): unknown => {
      const rest: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(f)) if (!ERC_KEYS.includes(k)) rest[k] = k === 'calls' ? (v as Frame[]).map(strip) : v;
      return rest;
    };
    let frames = 0;
    for (const { erc, calls } of blocks) {
      expect(erc.map(strip)).toEqual(calls);
      for (const root of erc) frames += [...framesOf(root)].length;
    }
    expect(frames).toBeGreaterThan(200);
  });

  test('usedOpcodes: the opcodes the struct log shows in each frame, without the default ignored ones, GAS only when no CALL follows; extCodeAccessInfo', () => {
    let counted = 0;
    let extCodes = 0;
    for (const { erc, logs } of blocks) {
      erc.forEach((root, i) => {
        const steps = logs[i]!;
        const byFrame = stepsByFrame(root, steps);
        const expected = new Map<Frame, Record<string, number>>();
        const ignored = (op: string): boolean => /^(PUSH|DUP|SWAP)\d+$/.test(op) || ['POP', 'ADD', 'SUB', 'MUL', 'DIV', 'EQ', 'LT', 'GT', 'SLT', 'SGT', 'SHL', 'SHR', 'AND', 'OR', 'NOT', 'ISZERO'].includes(op);
        const add = (frame: Frame, op: string) => {
          const counts = expected.get(frame) ?? {};
          const key = `0x${(OPCODE[op] ?? opcodeNumber(op)).toString(16)}`;
          counts[key] = (counts[key] ?? 0) + 1;
          expected.set(frame, counts);
        };
        // the previous opcode is the transaction's (go-ethereum's lastOpWithStack), not the frame's
        let previous: string | undefined;
        const frameOf = new Map<Step, Frame>();
        for (const [frame, list] of byFrame) for (const s of list) frameOf.set(s, frame);
        // and extCodeAccessInfo: the account an EXTCODE* named, unless an ISZERO only tests EXTCODESIZE's result
        const ext = new Map<Frame, string[]>();
        let previousStep: Step | undefined;
        for (const step of steps) {
          const frame = frameOf.get(step)!;
          if (step.op === 'RETURN' || step.op === 'REVERT') [previous, previousStep] = [undefined, undefined];
          if (previousStep !== undefined && ['EXTCODESIZE', 'EXTCODECOPY', 'EXTCODEHASH'].includes(previousStep.op) && !(previousStep.op === 'EXTCODESIZE' && step.op === 'ISZERO')) {
            ext.set(frame, [...(ext.get(frame) ?? []), `0x${BigInt(previousStep.stack.at(-1)!).toString(16).padStart(40, '0')}`]);
          }
          if (previous === 'GAS' && !CALLS.includes(step.op)) add(frame, 'GAS');
          if (step.op !== 'GAS' && !ignored(step.op)) add(frame, step.op);
          [previous, previousStep] = [step.op, step];
        }
        for (const frame of framesOf(root)) {
          expect(frame.usedOpcodes).toEqual(expected.get(frame) ?? {});
          expect(frame.extCodeAccessInfo).toEqual(ext.get(frame) ?? []);
          counted += Object.keys(frame.usedOpcodes).length;
          extCodes += frame.extCodeAccessInfo.length;
        }
      });
    }
    expect(counted).toBeGreaterThan(500);
    // the fixtures' EXTCODESIZEs are all Solidity's code checks (ISZERO after): see the next test
    expect(extCodes).toBe(0);
  });

  test('reads: the value a slot had at the frame\'s first SLOAD of it (unless written before); writes: its SSTOREs', () => {
    let reads = 0;
    for (const { erc, logs } of blocks) {
      erc.forEach((root, i) => {
        for (const [frame, steps] of stepsByFrame(root, logs[i]!)) {
          const want: Record<string, string[]> = {};
          const writes: Record<string, number> = {};
          for (const step of steps) {
            const slot = step.stack.at(-1) === undefined ? undefined : `0x${BigInt(step.stack.at(-1)!).toString(16).padStart(64, '0')}`;
            if (slot === undefined) continue;
            if (step.op === 'SLOAD' && want[slot] === undefined && writes[slot] === undefined) want[slot] = [step.storage![slot]!];
            if (step.op === 'SSTORE') writes[slot] = (writes[slot] ?? 0) + 1;
          }
          expect(frame.accessedSlots.reads).toEqual(want);
          expect(frame.accessedSlots.writes).toEqual(writes);
          reads += Object.keys(want).length;
        }
      });
    }
    expect(reads).toBeGreaterThan(50);
  });

  test('keccak: every KECCAK256 input of the transaction, from the memory the struct log shows, sorted', () => {
    let inputs = 0;
    for (const { erc, logs } of blocks) {
      erc.forEach((root, i) => {
        const set = new Set<string>();
        for (const step of logs[i]!) {
          if (step.op !== 'KECCAK256') continue;
          const memory = (step.memory ?? []).map((w) => w.slice(2)).join('');
          const [offset, size] = [Number(BigInt(step.stack.at(-1)!)), Number(BigInt(step.stack.at(-2)!))];
          set.add(`0x${memory.slice(offset * 2, (offset + size) * 2).padEnd(size * 2, '0')}`);
        }
        expect(root.keccak ?? []).toEqual([...set].sort());
        inputs += set.size;
      });
    }
    expect(inputs).toBeGreaterThan(20);
  });

  test('contractSize: the code size before the block of each account called, for accounts the block does not create', async () => {
    let sizes = 0;
    for (const { number, erc, calls } of blocks) {
      const created = new Set<string>();
      const collect = (f: { type: string; to?: string; calls?: unknown[] }) => {
        if (f.type.startsWith('CREATE') && f.to !== undefined) created.add(f.to);
        for (const c of f.calls ?? []) collect(c as typeof f);
      };
      for (const root of calls) collect(root as { type: string });
      const parent = `0x${(BigInt(number) - 1n).toString(16)}`;
      for (const root of erc) {
        for (const frame of framesOf(root)) {
          for (const [address, { contractSize, opcode }] of Object.entries(frame.contractSize)) {
            expect([0x3b, 0x3c, 0x3f, 0xf1, 0xf2, 0xf4, 0xfa]).toContain(opcode);
            if (created.has(address)) continue;
            const code = (JSON.parse((await dispatch(req('eth_getCode', [address, parent]), ctx))!) as { result: string }).result;
            expect(contractSize).toBe((code.length - 2) / 2);
            sizes++;
          }
        }
      }
    }
    expect(sizes).toBeGreaterThan(20);
  });

  test('withLog adds the logs callTracer shows; ignoredOpcodes [] counts every opcode', async () => {
    const get = async (number: string, config: unknown) => (JSON.parse((await dispatch(req('debug_traceBlockByNumber', [number, config]), ctx))!) as { result: { result: Frame }[] }).result.map((r) => r.result);
    let number = '';
    for (const b of blocks) {
      if (JSON.stringify(await get(b.number, { tracer: 'callTracer', tracerConfig: { withLog: true } })).includes('"logs"')) {
        number = b.number;
        break;
      }
    }
    const withLog = await get(number, { tracer: 'erc7562Tracer', tracerConfig: { withLog: true } });
    const callLogs = await get(number, { tracer: 'callTracer', tracerConfig: { withLog: true } });
    const logsOf = (f: Frame): unknown => ({ logs: f.logs, calls: (f.calls ?? []).map(logsOf) });
    expect(withLog.map(logsOf)).toEqual(callLogs.map(logsOf));
    expect(JSON.stringify(withLog)).toContain('"logs"');
    const all = await get(number, { tracer: 'erc7562Tracer', tracerConfig: { ignoredOpcodes: [] } });
    const plain = blocks.find((b) => b.number === number)!;
    all.forEach((root, i) => {
      const total = (f: Frame): number => Object.values(f.usedOpcodes).reduce((a, b) => a + b, 0) + (f.calls ?? []).reduce((a, c) => a + total(c), 0);
      // every opcode once, GAS when the opcode after it is counted as GAS is (not a CALL, no RETURN/REVERT)
      let expected = 0;
      let previous: string | undefined;
      for (const step of plain.logs[i]!) {
        if (step.op === 'RETURN' || step.op === 'REVERT') previous = undefined;
        if (previous === 'GAS' && !CALLS.includes(step.op)) expected++;
        if (step.op !== 'GAS') expected++;
        previous = step.op;
      }
      expect(total(root)).toBe(expected);
    });
  });

  test('extCodeAccessInfo and contractSize of a call that asks about code (debug_traceCall with its code overridden)', async () => {
    const contract = 'cf7ed3acca5a467e9e704c703e8d87f634fb0fc9';
    const nobody = 'bb'.repeat(20);
    // EXTCODESIZE(contract) POP; EXTCODESIZE(contract) ISZERO POP; EXTCODEHASH(nobody) POP; STOP
    const code = `0x73${contract}3b50` + `73${contract}3b1550` + `73${nobody}3f50` + '00';
    const at = '0x' + 'aa'.repeat(20);
    const answer = JSON.parse((await dispatch(req('debug_traceCall', [{ to: at, gas: '0x30000' }, '0x4', { tracer: 'erc7562Tracer', stateOverrides: { [at]: { code } } }]), ctx))!) as { result: Frame };
    const deployed = (JSON.parse((await dispatch(req('eth_getCode', [`0x${contract}`, '0x4']), ctx))!) as { result: string }).result;
    expect(answer.result.extCodeAccessInfo).toEqual([`0x${contract}`, `0x${nobody}`]);
    expect(answer.result.contractSize).toEqual({ [`0x${nobody}`]: { contractSize: 0, opcode: 0x3f }, [`0x${contract}`]: { contractSize: (deployed.length - 2) / 2, opcode: 0x3b } });
    expect(Object.keys(answer.result.contractSize)).toEqual([`0x${nobody}`, `0x${contract}`].sort());
    expect(answer.result.usedOpcodes).toEqual({ '0x0': 1, '0x3b': 2, '0x3f': 1 });
  });

  test('a bad tracerConfig is refused before anything runs', async () => {
    const error = async (config: unknown) => JSON.parse((await dispatch(req('debug_traceBlockByNumber', ['0x1', { tracer: 'erc7562Tracer', tracerConfig: config }]), ctx))!).error;
    expect(await error({ stackTopItemsSize: -1 })).toMatchObject({ code: -32602 });
    expect(await error({ ignoredOpcodes: [1] })).toMatchObject({ code: -32602 });
    // an unknown key is ignored, as json.Unmarshal ignores it
    const plain = await dispatch(req('debug_traceBlockByNumber', ['0x4', { tracer: 'erc7562Tracer' }]), ctx);
    expect(await dispatch(req('debug_traceBlockByNumber', ['0x4', { tracer: 'erc7562Tracer', tracerConfig: { nope: true } }]), ctx)).toBe(plain!);
  });

  test('muxTracer runs it beside recorded tracers: each part is its tracer\'s answer alone', async () => {
    for (const number of ['0x4', '0x6']) {
      const alone = async (tracer: string) => (JSON.parse((await dispatch(req('debug_traceBlockByNumber', [number, { tracer }]), ctx))!) as { result: { result: unknown }[] }).result.map((r) => r.result);
      const mux = (JSON.parse((await dispatch(req('debug_traceBlockByNumber', [number, { tracer: 'muxTracer', tracerConfig: { prestateTracer: null, erc7562Tracer: {}, callTracer: {} } }]), ctx))!) as { result: { result: Record<string, unknown> }[] }).result;
      const [erc, calls, prestate] = [await alone('erc7562Tracer'), await alone('callTracer'), await alone('prestateTracer')];
      mux.forEach(({ result }, i) => {
        expect(Object.keys(result)).toEqual(['callTracer', 'erc7562Tracer', 'prestateTracer']);
        expect(result).toEqual({ callTracer: calls[i], erc7562Tracer: erc[i], prestateTracer: prestate[i] });
      });
    }
  });
});

/** go-ethereum's opcode numbers of the names the struct log writes (core/vm/opcodes.go). */
function opcodeNumber(name: string): number {
  const push = /^PUSH(\d+)$/.exec(name);
  if (push) return 0x5f + Number(push[1]);
  const dup = /^DUP(\d+)$/.exec(name);
  if (dup) return 0x7f + Number(dup[1]);
  const swap = /^SWAP(\d+)$/.exec(name);
  if (swap) return 0x8f + Number(swap[1]);
  const log = /^LOG(\d)$/.exec(name);
  if (log) return 0xa0 + Number(log[1]);
  const names: Record<string, number> = {
    MOD: 0x06, SMOD: 0x07, ADDMOD: 0x08, MULMOD: 0x09, EXP: 0x0a, SIGNEXTEND: 0x0b, XOR: 0x18, BYTE: 0x1a, SAR: 0x1d, KECCAK256: 0x20,
    ADDRESS: 0x30, BALANCE: 0x31, ORIGIN: 0x32, CALLER: 0x33, CALLVALUE: 0x34, CALLDATALOAD: 0x35, CALLDATASIZE: 0x36, CALLDATACOPY: 0x37,
    CODESIZE: 0x38, CODECOPY: 0x39, GASPRICE: 0x3a, EXTCODESIZE: 0x3b, EXTCODECOPY: 0x3c, RETURNDATASIZE: 0x3d, RETURNDATACOPY: 0x3e,
    EXTCODEHASH: 0x3f, BLOCKHASH: 0x40, COINBASE: 0x41, TIMESTAMP: 0x42, NUMBER: 0x43, DIFFICULTY: 0x44, GASLIMIT: 0x45, CHAINID: 0x46,
    SELFBALANCE: 0x47, BASEFEE: 0x48, BLOBHASH: 0x49, BLOBBASEFEE: 0x4a, MLOAD: 0x51, MSTORE: 0x52, MSTORE8: 0x53, SLOAD: 0x54,
    SSTORE: 0x55, JUMP: 0x56, JUMPI: 0x57, PC: 0x58, MSIZE: 0x59, JUMPDEST: 0x5b, TLOAD: 0x5c, TSTORE: 0x5d, MCOPY: 0x5e,
    CREATE: 0xf0, CALL: 0xf1, CALLCODE: 0xf2, RETURN: 0xf3, DELEGATECALL: 0xf4, CREATE2: 0xf5, STATICCALL: 0xfa, REVERT: 0xfd,
    INVALID: 0xfe, SELFDESTRUCT: 0xff,
  };
  const n = names[name];
  if (n === undefined) throw new Error(`no opcode number for ${name}`);
  return n;
}
