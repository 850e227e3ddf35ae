// blocktrace's own methods for the source-level debugger (the viewer's Debug view; docs/debugger.md):
// - blocktrace_debugTransaction(hash): the run's length, its revert step, its frames and the
//   source files its steps are in;
// - blocktrace_debugSteps(hash, from, count): a page of steps, compact, for the list of steps;
// - blocktrace_debugStep(hash, step, move?): one step as it shows (source, call stack with values,
//   stack, memory, storage), after a move from it (navigate.ts) or a run to a line.
// The same model as `blocktrace debug` in a terminal, through the dispatcher, so it works over
// HTTP, WebSocket and in upstream mode alike.
import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { bytesToHex } from 'viem';
import { DebugError, type DebugTrace, revertStep } from '../../debugger/debugTrace.ts';
import { type Move, MOVES } from '../../debugger/keys.ts';
import { move, runToLine } from '../../debugger/navigate.ts';
import { slotNamer } from '../../debugger/storageNames.ts';
import { stepView } from '../../debugger/stepView.ts';
import { codeAddress } from '../../debugger/debugTrace.ts';
import { gethOpcodeName } from '../../trace/render/errorStrings.ts';
import { InvalidParamsError, ServerError } from '../../errors/rpcErrors.ts';
import type { RpcContext } from '../context.ts';
import { toPlain, type JsonNode } from '../../encoding/rawJson.ts';
import { ParamDecodeError, type ParamCodec } from '../schemas.ts';

/** Steps one page may hold. */
export const MAX_PAGE = 5000;

const MoveSchema = Type.Union([
  Type.Object({ move: Type.Union(MOVES.map((m) => Type.Literal(m))) }, { additionalProperties: false }),
  Type.Object({ file: Type.String(), line: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
]);
type MoveParam = { move: Move } | { file: string; line: number };

/** blocktrace_debugStep's third parameter: `{"move": "stepOver"}` or `{"file": "src/Vault.sol", "line": 91}`; may be left out. */
export const debugMoveParam: ParamCodec<MoveParam | undefined> = {
  required: false,
  decode(node: JsonNode) {
    if (node.t === 'null') return undefined;
    const value = toPlain(node);
    if (!Value.Check(MoveSchema, value)) throw new ParamDecodeError(`a move is {"move": ${MOVES.map((m) => `"${m}"`).join('|')}} or {"file": PATH, "line": N}`);
    return value as MoveParam;
  },
};

async function traceOf(ctx: RpcContext, hash: Uint8Array): Promise<DebugTrace> {
  if (ctx.debugger === undefined) throw new ServerError('the debugger is not available here');
  try {
    return await ctx.debugger.trace(hash);
  } catch (err) {
    if (err instanceof DebugError) throw new ServerError(err.message);
    throw err;
  }
}

/** The source files of a trace's steps, in order of first use: a step names one by its index here. */
function sourceFiles(trace: DebugTrace): { path: string; content: string }[] {
  const files: { path: string; content: string }[] = [];
  const seen = new Set<unknown>();
  for (const where of trace.locations) {
    if (seen.has(where.file)) continue;
    seen.add(where.file);
    files.push({ path: where.file.path, content: where.file.content ?? '' });
  }
  return files;
}

const fileIndexes = new WeakMap<DebugTrace, Map<unknown, number>>();
function fileIndex(trace: DebugTrace, location: number): number | null {
  let table = fileIndexes.get(trace);
  if (table === undefined) {
    table = new Map();
    for (const where of trace.locations) if (!table.has(where.file)) table.set(where.file, table.size);
    fileIndexes.set(trace, table);
  }
  const where = trace.locations[location];
  return where === undefined ? null : table.get(where.file)!;
}

export async function blocktraceDebugTransaction([hash]: [Uint8Array], ctx: RpcContext): Promise<unknown> {
  const trace = await traceOf(ctx, hash);
  const frames = [...trace.frames.values()].sort((a, b) => a.index - b.index).map((f) => {
    const call = trace.tx.frames[f.index];
    const address = call === undefined ? undefined : codeAddress(call);
    return {
      frame: f.index,
      kind: f.kind,
      address: address === undefined ? null : bytesToHex(address),
      contract: f.contract?.name ?? null,
      input: call === undefined ? '0x' : bytesToHex(call.input),
      output: call === undefined ? '0x' : bytesToHex(call.output),
      failed: call?.failure !== undefined,
      unmapped: f.unmapped ?? null,
    };
  });
  return { hash: bytesToHex(hash), steps: trace.steps.length, revert: revertStep(trace) ?? null, frames, sources: sourceFiles(trace) };
}

/** `[step, pc, op, depth, gas, gasCost, file, line]` each; `file` indexes the transaction's sources, null with no source. */
export async function blocktraceDebugSteps([hash, from, count]: [Uint8Array, bigint, bigint], ctx: RpcContext): Promise<unknown> {
  if (count > BigInt(MAX_PAGE)) throw new InvalidParamsError(`a page holds at most ${MAX_PAGE} steps`);
  const trace = await traceOf(ctx, hash);
  const { steps } = trace;
  const out: unknown[] = [];
  for (let i = Number(from); i < Math.min(steps.length, Number(from + count)); i++) {
    const location = steps.location[i]!;
    out.push([i, steps.pc[i], gethOpcodeName(steps.op[i]!), steps.depth[i]! + 1, steps.gas[i], steps.cost[i], fileIndex(trace, location), trace.locations[location]?.line ?? null]);
  }
  return out;
}

const hexWord = (n: bigint): string => `0x${n.toString(16)}`;

export async function blocktraceDebugStep([hash, step, how]: [Uint8Array, bigint, MoveParam | undefined], ctx: RpcContext): Promise<unknown> {
  const trace = await traceOf(ctx, hash);
  if (step >= BigInt(trace.steps.length)) throw new InvalidParamsError(`the transaction has ${trace.steps.length} steps (0 to ${trace.steps.length - 1})`);
  let at = Number(step);
  if (how !== undefined) at = 'move' in how ? move(trace, at, how.move) : runToLine(trace, at, how.file, how.line);
  const { detail, preimages } = await ctx.debugger!.detail(hash, at);
  const view = stepView(trace, at, detail, slotNamer(trace, at, preimages));
  const d = view.detail;
  return {
    step: view.step,
    pc: view.pc,
    op: view.op,
    depth: view.depth,
    gas: view.gas,
    gasCost: view.gasCost,
    frame: trace.steps.frame[at],
    address: view.address ?? null,
    contract: view.contract ?? null,
    source: view.source === undefined ? null : { ...view.source, index: fileIndex(trace, trace.steps.location[at]!) },
    unmapped: view.unmapped ?? null,
    functions: view.functions,
    frames: view.frames,
    locals: 'note' in view.locals ? view.locals : { values: view.locals.values.map((v) => ({ name: v.name, type: v.type, ...(v.value !== undefined ? { value: v.value } : {}), ...(v.note !== undefined ? { note: v.note } : {}) })) },
    stack: d?.stack.map(hexWord) ?? [],
    memory: d === undefined ? '0x' : bytesToHex(d.memory),
    reads: d?.reads ?? null,
    writes: d?.writes ?? null,
    storage: d?.storage === undefined ? null : { slot: hexWord(d.storage.slot), name: d.storage.name ?? null, before: hexWord(d.storage.before), after: d.storage.after === undefined ? null : hexWord(d.storage.after) },
    says: d?.says ?? null,
  };
}
