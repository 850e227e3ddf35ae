// go-ethereum's struct logger (the default tracer), behind --all-tracers. Byte for byte against its
// recordings (execution-apis main and PR #855: block, transaction and call traces; memory, storage,
// return data), refused as before without the flag; on the devnet fixtures, checked against facts
// that do not come from our renderer: the gas between two opcodes of a frame agrees with the
// callTracer tree (whose bytes are go-ethereum's), MLOAD reads what the memory shows, a call's
// return data is the callee's output, the refund counter explains the receipt's gas; and each
// option as logger.go applies it.
import { beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { readGolden } from '../../src/golden/layouts.ts';
import { checkExchange } from '../../src/golden/run.ts';
import type { ChainView } from '../../src/replay/chainView.ts';
import { loadChain } from '../../src/replay/loadChain.ts';
import { createContext, type RpcContext } from '../../src/rpc/context.ts';
import { dispatch } from '../../src/rpc/dispatch.ts';
import { ResultCache } from '../../src/rpc/resultCache.ts';
import type { OpcodeStep, StepSink, TxRecording } from '../../src/trace/types.ts';
import { walkSteps } from '../helpers/structLogWalk.ts';

const GOLDEN = join(import.meta.dir, '../../golden');
const EXAPI_CHAIN = join(GOLDEN, 'execution-apis/tests');
const PR855_CHAIN = join(GOLDEN, 'execution-apis-pr855');
const CANCUN = join(GOLDEN, 'fixtures/cancun-devnet/fixture.json');
const REFUSED = (id: string) => `{"jsonrpc":"2.0","id":${id},"error":{"code":-32602,"message":"tracer is required (supported: callTracer, prestateTracer)"}}`;

const req = (method: string, params: unknown[], id = 1): string => JSON.stringify({ jsonrpc: '2.0', id, method, params });

describe.each([
  ['main chain', EXAPI_CHAIN, join(GOLDEN, 'execution-apis/struct-log'), 9],
  ['PR #855 chain', PR855_CHAIN, join(GOLDEN, 'execution-apis/struct-log-pr855'), 2],
])('execution-apis struct-log recordings (%s)', (_name, chainPath, goldens, count) => {
  let chain: ChainView;
  beforeAll(async () => {
    chain = await loadChain(chainPath);
  }, 60_000);
  const { exchanges } = readGolden(goldens);
  test(`all ${count} exchanges are here, none names a tracer`, () => {
    expect(exchanges.length).toBe(count);
    for (const e of exchanges) expect(e.request).not.toContain('"tracer"');
  });
  for (const exchange of exchanges) {
    test(`${exchange.name}: byte for byte with --all-tracers`, async () => {
      expect(await checkExchange(createContext(chain, { log: () => {}, allTracers: true }), exchange, 'bytes')).toBeUndefined();
    });
    test(`${exchange.name}: refused as before without it`, async () => {
      const id = /"id":(\d+)/.exec(exchange.request)![1]!;
      expect(await dispatch(exchange.request, createContext(chain, { log: () => {} }))).toBe(REFUSED(id));
    });
  }
});

interface Step {
  pc: number;
  op: string;
  gas: number;
  gasCost: number;
  depth: number;
  error?: string;
  stack?: string[];
  returnData?: string;
  memory?: string[];
  storage?: Record<string, string>;
  refund?: number;
}
interface StructLog {
  gas: number;
  failed: boolean;
  returnValue: string;
  structLogs: Step[];
}
interface Frame {
  type: string;
  gas: string;
  gasUsed: string;
  output?: string;
  error?: string;
  calls?: Frame[];
}

const CALLS = ['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL'];
const CREATES = ['CREATE', 'CREATE2'];

describe('struct logs of every transaction of cancun-devnet', () => {
  let ctx: RpcContext;
  const blocks: { number: string; logs: StructLog[]; trees: Frame[]; raw: string }[] = [];
  const trace = async (block: string, config: Record<string, unknown>): Promise<StructLog[]> =>
    (JSON.parse((await dispatch(req('debug_traceBlockByNumber', [block, config]), ctx))!) as { result: { result: StructLog }[] }).result.map((r) => r.result);

  beforeAll(async () => {
    ctx = createContext(await loadChain(CANCUN), { log: () => {}, allTracers: true, cacheResults: false, maxResponse: 0 });
    for (let n = 1n; n <= ctx.chain.head.number; n++) {
      const number = `0x${n.toString(16)}`;
      const raw = (await dispatch(req('debug_traceBlockByNumber', [number, { enableMemory: true, enableReturnData: true }]), ctx))!;
      const logs = (JSON.parse(raw) as { result: { result: StructLog }[] }).result.map((r) => r.result);
      const trees = (JSON.parse((await dispatch(req('debug_traceBlockByNumber', [number, { tracer: 'callTracer' }]), ctx))!) as { result: { result: Frame }[] }).result.map((r) => r.result);
      blocks.push({ number, logs, trees, raw });
    }
  }, 120_000);

  test('the gas left from one opcode to the next of its frame: minus its cost, plus what a callee handed back (callTracer gas - gasUsed)', () => {
    let checked = 0;
    let calls = 0;
    for (const { logs, trees } of blocks) {
      logs.forEach((log, i) => {
        for (const { step, child, next } of walkSteps(log.structLogs, trees[i]!)) {
          if (next === undefined) continue;
          let expected = step.gas - step.gasCost;
          if (child !== undefined) {
            calls++;
            // a CALL's cost holds the gas handed over; a CREATE's does not (it is taken as it runs)
            expected += CREATES.includes(step.op) ? -Number(child.gasUsed) : Number(child.gas) - Number(child.gasUsed);
          }
          expect(next.gas).toBe(expected);
          checked++;
        }
      });
    }
    expect(checked).toBeGreaterThan(100_000);
    expect(calls).toBeGreaterThan(100);
  });

  test('failed and returnValue are the callTracer root\'s; a frame that fails before an opcode runs shows the error on it', () => {
    let errors = 0;
    for (const { logs, trees } of blocks) {
      logs.forEach((log, i) => {
        const root = trees[i]!;
        expect(log.failed).toBe(root.error !== undefined);
        if (root.error === undefined || root.error === 'execution reverted') expect(log.returnValue).toBe(root.output ?? '0x');
        for (const { step, frame, last } of walkSteps(log.structLogs, root)) {
          if (step.error !== undefined) {
            errors++;
            expect(last).toBe(true);
            expect(step.error).toBe(frame.error!);
          }
          // a frame that ends well ends on STOP (past the end of its code too), RETURN or SELFDESTRUCT
          if (last && frame.error === undefined) expect(['STOP', 'RETURN', 'SELFDESTRUCT']).toContain(step.op);
        }
      });
    }
    expect(errors).toBeGreaterThan(0);
  });

  test('MLOAD pushes the word the memory shows; after a call, returnData is the callee\'s output', () => {
    let loads = 0;
    let returns = 0;
    for (const { logs, trees } of blocks) {
      logs.forEach((log, i) => {
        for (const { step, child, next } of walkSteps(log.structLogs, trees[i]!)) {
          if (next === undefined) continue;
          if (step.op === 'MLOAD') {
            const offset = Number(BigInt(step.stack!.at(-1)!));
            const memory = (step.memory ?? []).map((w) => w.slice(2)).join('');
            if (offset % 32 === 0 && offset + 32 <= memory.length / 2) {
              expect(BigInt(next.stack!.at(-1)!)).toBe(BigInt(`0x${memory.slice(offset * 2, offset * 2 + 64)}`));
              loads++;
            }
          }
          if (child !== undefined && CALLS.includes(step.op)) {
            const output = child.error === undefined || child.error === 'execution reverted' ? (child.output ?? '0x') : '0x';
            expect(next.returnData ?? '0x').toBe(output);
            returns++;
          }
        }
      });
    }
    expect(loads).toBeGreaterThan(100);
    expect(returns).toBeGreaterThan(50);
  });

  test('the refund counter at the end explains the receipt gas: gas limit - gas left - min(refund, used / 5) (EIP-3529)', async () => {
    let withRefund = 0;
    let checked = 0;
    for (const { number, logs } of blocks) {
      const txs = (JSON.parse((await dispatch(req('eth_getBlockByNumber', [number, true]), ctx))!) as { result: { transactions: { gas: string; to: string | null }[] } }).result.transactions;
      logs.forEach((log, i) => {
        const end = log.structLogs.filter((s) => s.depth === 1).at(-1);
        if (end === undefined || log.failed || !['STOP', 'RETURN'].includes(end.op)) return;
        // a creation pays 200 gas a byte of the code it returns after its RETURN (code deposit)
        const deposit = txs[i]!.to === null ? 200n * BigInt((log.returnValue.length - 2) / 2) : 0n;
        const used = BigInt(txs[i]!.gas) - BigInt(end.gas - end.gasCost) + deposit;
        const refund = BigInt(end.refund ?? 0);
        const applied = refund < used / 5n ? refund : used / 5n;
        expect(BigInt(log.gas)).toBe(used - applied);
        checked++;
        if (refund > 0n) withRefund++;
      });
    }
    expect(checked).toBeGreaterThan(20);
    expect(withRefund).toBeGreaterThan(0);
  });

  /** The blocks whose answers are a few MB at most (the options are compared entry by entry). */
  const some = () => blocks.filter((b) => b.raw.length < 5_000_000);

  test('enableMemory, enableReturnData: off by default, and then the entries are the same but for them', async () => {
    expect(some().length).toBeGreaterThan(5);
    for (const { number, logs } of some()) {
      const plain = await trace(number, {});
      expect(plain).toEqual(logs.map((log) => ({ ...log, structLogs: log.structLogs.map(({ memory: _m, returnData: _r, ...rest }) => rest) })));
    }
  });

  test('disableStack: no stack key; disableStorage: no storage key (storage only on SLOAD and SSTORE)', async () => {
    let stores = 0;
    for (const { number, logs } of some()) {
      const noStack = await trace(number, { disableStack: true, enableMemory: true, enableReturnData: true });
      expect(noStack).toEqual(logs.map((log) => ({ ...log, structLogs: log.structLogs.map(({ stack: _s, ...rest }) => rest) })));
      const noStorage = await trace(number, { disableStorage: true, enableMemory: true, enableReturnData: true });
      expect(noStorage).toEqual(logs.map((log) => ({ ...log, structLogs: log.structLogs.map(({ storage: _s, ...rest }) => rest) })));
      for (const log of logs) {
        for (const step of log.structLogs) {
          if (step.storage !== undefined) {
            expect(['SLOAD', 'SSTORE']).toContain(step.op);
            stores++;
          }
        }
      }
    }
    expect(stores).toBeGreaterThan(10);
  });

  test('limit: entries are kept while their JSON adds up to no more than the limit (the one that passes it included)', async () => {
    const { number, raw } = blocks.find((b) => b.logs.some((l) => l.structLogs.length > 50))!;
    const entries = (JSON.parse(raw) as { result: { result: StructLog }[] }).result.map((r) => r.result.structLogs.map((s) => JSON.stringify(s)));
    for (const limit of [1, 500, 4000, -1]) {
      const limited = await trace(number, { limit, enableMemory: true, enableReturnData: true });
      limited.forEach((log, i) => {
        let size = 0;
        const kept = entries[i]!.filter((text) => {
          if (size > limit) return false;
          size += text.length;
          return true;
        });
        expect(log.structLogs.map((s) => JSON.stringify(s))).toEqual(kept);
      });
    }
  });

  test('debug_traceTransaction answers each transaction of a block as the block trace does', async () => {
    const { number, raw } = blocks.find((b) => b.logs.length > 1)!;
    const entries = (JSON.parse(raw) as { result: { txHash: string; result: unknown }[] }).result;
    for (const { txHash, result } of entries) {
      const answer = (await dispatch(req('debug_traceTransaction', [txHash, { enableMemory: true, enableReturnData: true }]), ctx))!;
      expect(answer).toBe(`{"jsonrpc":"2.0","id":1,"result":${JSON.stringify(result)}}`);
    }
    expect(number).toBeDefined();
  });
});

describe('options and answers', () => {
  let chain: ChainView;
  beforeAll(async () => {
    chain = await loadChain(CANCUN);
  }, 60_000);

  test('logger.Config fields are decoded as Go decodes them: a wrong kind or a non-integer limit is -32602', async () => {
    const ctx = createContext(chain, { log: () => {}, allTracers: true });
    const error = async (config: unknown) => JSON.parse((await dispatch(req('debug_traceBlockByNumber', ['0x1', config]), ctx))!).error;
    expect(await error({ enableMemory: 'yes' })).toEqual({ code: -32602, message: 'invalid argument 1: json: cannot unmarshal string into Go struct field TraceConfig.EnableMemory of type bool' });
    expect(await error({ limit: 1.5 })).toEqual({ code: -32602, message: 'invalid argument 1: json: cannot unmarshal number 1.5 into Go struct field TraceConfig.Limit of type int' });
    const tooLarge = await dispatch('{"jsonrpc":"2.0","id":1,"method":"debug_traceBlockByNumber","params":["0x1",{"limit":9223372036854775808}]}', ctx);
    expect(JSON.parse(tooLarge!).error).toEqual({ code: -32602, message: 'invalid argument 1: json: cannot unmarshal number 9223372036854775808 into Go struct field TraceConfig.Limit of type int' });
    const largest = await dispatch('{"jsonrpc":"2.0","id":1,"method":"debug_traceBlockByNumber","params":["0x1",{"limit":9223372036854775807}]}', ctx);
    expect(largest).toContain('"result"');
    // field names match case-insensitively, and a null leaves the default
    const a = await dispatch(req('debug_traceBlockByNumber', ['0x1', { DISABLESTACK: true, enableMemory: null }]), ctx);
    const b = await dispatch(req('debug_traceBlockByNumber', ['0x1', { disableStack: true }]), ctx);
    expect(a).toBe(b!);
    expect(a).not.toContain('"stack"');
  });

  test('an empty tracer name is the struct logger too; an unknown one lists the named tracers', async () => {
    const ctx = createContext(chain, { log: () => {}, allTracers: true });
    expect(await dispatch(req('debug_traceBlockByNumber', ['0x1', { tracer: '' }]), ctx)).toBe((await dispatch(req('debug_traceBlockByNumber', ['0x1']), ctx))!);
    expect(await dispatch(req('debug_traceBlockByNumber', ['0x1', { tracer: 'structLogger' }]), ctx)).toBe(
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"tracer \\"structLogger\\" is not supported (supported: 4byteTracer, callTracer, erc7562Tracer, flatCallTracer, muxTracer, noopTracer, prestateTracer)"}}',
    );
  });

  test('a struct log larger than 1 MiB is not kept by the result cache; a small one is', async () => {
    const ctx = createContext(chain, { log: () => {}, allTracers: true });
    // block 3: about 9 MB of struct log with memory
    const small = ['0x3', { disableStack: true, limit: 100 }];
    const large = ['0x3', { enableMemory: true, enableReturnData: true }];
    const key = (params: unknown[]) => ResultCache.key('debug_traceBlockByNumber', JSON.stringify(params))!;
    expect((await dispatch(req('debug_traceBlockByNumber', small), ctx))!.length).toBeLessThan(1024 * 1024);
    expect((await dispatch(req('debug_traceBlockByNumber', large), ctx))!.length).toBeGreaterThan(1024 * 1024);
    expect(ctx.results!.get(key(small))).toBeDefined();
    expect(ctx.results!.get(key(large))).toBeUndefined();
  });

  test('a run stopped at the size limit leaves no checkpoint open, and the chain answers as a fresh one', async () => {
    const fresh = createContext(await loadChain(CANCUN), { log: () => {}, cacheResults: false });
    const limited = createContext(chain, { log: () => {}, allTracers: true, cacheResults: false, maxResponse: 200_000 });
    const prestate = (n: number) => req('debug_traceBlockByNumber', [`0x${n.toString(16)}`, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]);
    for (let n = 2; n <= 10; n++) {
      expect(await dispatch(req('debug_traceBlockByNumber', [`0x${n.toString(16)}`, { enableMemory: true }]), limited)).toBe('{"jsonrpc":"2.0","id":1,"error":{"code":-32003,"message":"response too large"}}');
      // ethereumjs's state manager: one checkpoint per message frame the stopped run was in, unless undone
      expect((chain as unknown as { vm: { stateManager: { _checkpointCount: number } } }).vm.stateManager._checkpointCount).toBe(0);
    }
    (chain as unknown as { clearCaches(): void }).clearCaches();
    const same = createContext(chain, { log: () => {}, cacheResults: false });
    for (let n = 1; n <= 12; n++) expect(await dispatch(prestate(n), same)).toBe((await dispatch(prestate(n), fresh))!);
  });

  test('the recorder hands each transaction its steps between its begin and end, one after another', async () => {
    const block = chain.blockByNumber(4n)!;
    const events: string[] = [];
    let steps = 0;
    const sink: StepSink = {
      needs: { stack: false, memory: false, returnData: false, slotValues: false, codeSizes: false },
      watches: () => true,
      begin: (i) => events.push(`begin ${i}`),
      step: (s: OpcodeStep) => {
        if (events.at(-1) !== 'step') events.push('step');
        steps += s.depth >= 0 ? 1 : 0;
      },
      end: (tx: TxRecording) => events.push(`end ${tx.txIndex}`),
    };
    const recording = await chain.recordBlock(block, { steps: sink });
    expect(recording.txs.length).toBeGreaterThan(1);
    let open: number | undefined;
    const begun: number[] = [];
    for (const event of events) {
      const [what, index] = event.split(' ');
      if (what === 'begin') {
        expect(open).toBeUndefined();
        open = Number(index);
        begun.push(open);
      } else if (what === 'end') {
        expect(Number(index)).toBe(open!);
        open = undefined;
      } else expect(open).toBeDefined();
    }
    expect(begun).toEqual(recording.txs.map((tx) => tx.txIndex));
    expect(steps).toBeGreaterThan(0);
  });
});
