// A transaction at the source line: its block is replayed with the recorder's step stream on for that
// one transaction, each step placed in its source through the contract its code matches (codeMatch.ts,
// codeSource.ts), and the Solidity call stack followed from the source map's jump markers: a JUMP
// marked `i` enters the function whose definition the next instruction maps to, one marked `o`
// leaves it. A frame whose code matches no artifact, or whose map cannot be read, keeps its steps at
// opcode level, with one note saying why.
import { type ChainView, fetchTx, isGenesis, type TxLocation } from '../replay/chainView.ts';
import type { CallFrame, OpcodeStep, StepSink, TxRecording } from '../trace/types.ts';
import type { Build, BuildContract, FunctionDef } from './builds.ts';
import { CodeMatcher, type CodeKind } from './codeMatch.ts';
import { CodeSource, type SourceLocation } from './codeSource.ts';
import { FunctionIndex } from './functionIndex.ts';
import { SourceMapError } from './sourceMap.ts';
import { CallStacks, ENTRY_WORDS, StepTable } from './stepTable.ts';

const JUMP = 0x56;
const CREATE = 0xf0;
const CREATE2 = 0xf5;

/** One EVM frame of the transaction, as the debugger sees it. */
export interface DebugFrame {
  /** Index in TxRecording.frames. */
  readonly index: number;
  readonly kind: CodeKind;
  /** The code's contract, when an artifact matched it. */
  readonly contract: BuildContract | undefined;
  /** Why its steps have no source (no artifact, the code differs, the map is unreadable, no source text). */
  readonly unmapped: string | undefined;
  readonly source: CodeSource | undefined;
  readonly functions: FunctionIndex | undefined;
}

export interface DebugTrace {
  readonly location: TxLocation;
  readonly tx: TxRecording;
  readonly steps: StepTable;
  readonly locations: readonly SourceLocation[];
  readonly stacks: CallStacks;
  /** By TxRecording.frames index; absent for a frame that ran no code (a transfer, a precompile). */
  readonly frames: ReadonlyMap<number, DebugFrame>;
}

export class DebugError extends Error {}

/** What the run needs of the --abi directories: every build, and its contracts to match codes against. */
export class DebugArtifacts {
  readonly matcher: CodeMatcher;
  private readonly indexes = new Map<Build, FunctionIndex>();

  constructor(readonly builds: readonly Build[]) {
    this.matcher = new CodeMatcher(builds.flatMap((b) => b.contracts));
  }

  functionsOf(build: Build): FunctionIndex {
    let index = this.indexes.get(build);
    if (index === undefined) this.indexes.set(build, (index = new FunctionIndex(build)));
    return index;
  }
}

/** No jump, or a JUMP marked `i` (into a function) or `o` (out of one): OpenFrame.pendingJump, FramePlaces.jumps. */
const NO_JUMP = 0;
const JUMP_IN = 1;
const JUMP_OUT = 2;
/** FramePlaces.user: the pc's location not looked up yet. */
const UNPLACED = -2;

/**
 * What the steps of one code need per pc, in arrays filled as its pcs are first met: a loop's step
 * is then two array reads, not a source-map lookup and a search of the locations.
 */
interface FramePlaces {
  /** Index into the trace's locations; -1 no user source; UNPLACED not looked up yet. */
  readonly user: Int32Array;
  /** For a JUMP: NO_JUMP, JUMP_IN or JUMP_OUT (valid once `user` is placed). */
  readonly jumps: Uint8Array;
}

/** One open EVM frame while the transaction runs. */
interface OpenFrame {
  readonly frame: DebugFrame;
  readonly places: FramePlaces;
  readonly depth: number;
  /** Its current call-stack node. */
  node: number;
  /** The step before was a JUMP marked `i` or `o` (JUMP_IN, JUMP_OUT), else NO_JUMP. */
  pendingJump: number;
  /** Nodes of the internal functions entered, innermost last (its own node first). */
  readonly entered: number[];
}

function openFrame(artifacts: DebugArtifacts, index: number, kind: CodeKind, code: Uint8Array): DebugFrame {
  const found = artifacts.matcher.match(code, kind);
  if (!('contract' in found)) return { index, kind, contract: undefined, unmapped: found.reason, source: undefined, functions: undefined };
  const { contract } = found;
  try {
    const source = new CodeSource(contract.build, found.code, code);
    const own = [...contract.build.sources.values()].find((s) => s.path === contract.file);
    const unmapped = own?.content === undefined ? `no source file of ${contract.name} (${contract.file}) was found beside ${contract.build.origin}` : undefined;
    return { index, kind, contract, unmapped, source, functions: artifacts.functionsOf(contract.build) };
  } catch (err) {
    if (!(err instanceof SourceMapError)) throw err;
    return { index, kind, contract, unmapped: `${contract.name}'s source map cannot be read: ${err.message}`, source: undefined, functions: undefined };
  }
}

/** Replays the transaction's block with its steps watched; throws DebugError when the hash is not on the chain. */
export async function debugTransaction(chain: ChainView, hash: Uint8Array, artifacts: DebugArtifacts): Promise<DebugTrace> {
  const location = await fetchTx(chain, hash);
  if (location === undefined) throw new DebugError(`transaction 0x${Buffer.from(hash).toString('hex')} is not on the chain`);
  if (isGenesis(chain, location.block)) throw new DebugError('the transaction is in the chain\'s first block, which has no parent state to replay from');
  const creates = location.block.block.transactions[location.index]?.to === undefined;

  const steps = new StepTable();
  const stacks = new CallStacks();
  const locations: SourceLocation[] = [];
  const located = new Map<object, Map<number, number>>();
  const frames = new Map<number, DebugFrame>();
  const open: OpenFrame[] = [];
  let previousOp = -1;
  /** The step before was a JUMP into a function: the next one's stack holds its arguments. */
  let entering = false;
  let recording: TxRecording | undefined;

  const locationIndex = (where: SourceLocation): number => {
    let byStart = located.get(where.file);
    if (byStart === undefined) located.set(where.file, (byStart = new Map()));
    const key = where.start * 65536 + Math.min(where.length, 65535);
    let i = byStart.get(key);
    if (i === undefined) {
      byStart.set(key, (i = locations.length));
      locations.push(where);
    }
    return i;
  };

  const placesOf = new Map<DebugFrame, FramePlaces>();
  /** The frame `step` runs in, opened (and its callees closed) on the way. */
  const enter = (step: OpcodeStep): OpenFrame => {
    while (open.length > 0 && open[open.length - 1]!.depth > step.depth) open.pop();
    let top = open[open.length - 1];
    if (top !== undefined && top.frame.index === step.frame) return top;
    if (top !== undefined && top.depth === step.depth) open.pop();
    const kind: CodeKind = (open.length === 0 ? creates : previousOp === CREATE || previousOp === CREATE2) ? 'creation' : 'runtime';
    let frame = frames.get(step.frame);
    if (frame === undefined) frames.set(step.frame, (frame = openFrame(artifacts, step.frame, kind, step.code)));
    // a code run twice (a contract called again) places its pcs once
    let places = placesOf.get(frame);
    if (places === undefined) placesOf.set(frame, (places = { user: new Int32Array(step.code.length + 1).fill(UNPLACED), jumps: new Uint8Array(step.code.length + 1) }));
    const caller = open[open.length - 1];
    const node = stacks.add({ parent: caller?.node ?? -1, frame: step.frame, internal: undefined, entry: steps.length });
    open.push((top = { frame, places, depth: step.depth, node, pendingJump: NO_JUMP, entered: [node] }));
    return top;
  };
  /** A pc's first step in its code: its user location (or -1) and its jump kind. */
  const place = (top: OpenFrame, pc: number): number => {
    const mapped = top.frame.source?.at(pc);
    const where = mapped?.location;
    const user = where !== undefined && !where.file.generated ? locationIndex(where) : -1;
    // a pc past the code (the STOP a frame that runs off its end stops at) is not kept
    if (pc < top.places.user.length) {
      top.places.user[pc] = user;
      top.places.jumps[pc] = mapped?.jump === 'i' ? JUMP_IN : mapped?.jump === 'o' ? JUMP_OUT : NO_JUMP;
    }
    return user;
  };
  /** The step after a JUMP marked `i` enters a function (the one its location defines), after one marked `o` leaves it. */
  const jumped = (top: OpenFrame, step: OpcodeStep): void => {
    if (top.pendingJump === JUMP_IN) {
      const mapped = top.frame.source?.at(step.pc);
      const where = mapped?.location;
      const def = where === undefined || where.file.generated ? undefined : top.frame.functions?.at(mapped!.entry.file, where.start, where.length);
      const named = def !== undefined && def.kind !== 'modifier';
      const internal = named ? { contract: def.contract, name: def.name } : 'hidden';
      const stackAtEntry = named ? step.stack.slice(-ENTRY_WORDS).reverse() : undefined;
      top.node = stacks.add({ parent: top.node, frame: step.frame, internal, entry: steps.length, def: named ? def : undefined, stackAtEntry });
      top.entered.push(top.node);
    } else if (top.entered.length > 1) {
      top.entered.pop();
      top.node = top.entered[top.entered.length - 1]!;
    }
  };

  const sink: StepSink = {
    // the stack only where a function is entered, for its arguments: the step after a JUMP marked `i`
    needs: { stack: false, memory: false, returnData: false, slotValues: false, codeSizes: false, stackWhen: () => entering },
    watches: (i) => i === location.index,
    only: location.index,
    begin: () => {},
    step: (step) => {
      let top = open[open.length - 1];
      // a new frame, or back in a caller: the rare path
      if (top === undefined || top.depth !== step.depth || top.frame.index !== step.frame) top = enter(step);
      const pc = step.pc;
      let user = top.places.user[pc];
      if (user === undefined || user === UNPLACED) user = place(top, pc);
      if (top.pendingJump !== NO_JUMP) jumped(top, step);
      top.pendingJump = step.op === JUMP ? top.places.jumps[pc]! : NO_JUMP;
      entering = top.pendingJump === JUMP_IN;
      steps.push(pc, step.op, step.depth, step.gas, step.cost, step.frame, user, top.node);
      previousOp = step.op;
    },
    end: (tx) => {
      recording = tx;
    },
  };
  await chain.recordBlock(location.block, { steps: sink });
  if (recording === undefined) throw new Error(`the replay of block ${location.block.number} did not run transaction ${location.index}`);
  return { location, tx: recording, steps, locations, stacks, frames };
}

/** The account whose code a frame runs: the callee (a DELEGATECALL's too), or the created contract. */
export function codeAddress(frame: CallFrame): Uint8Array | undefined {
  return frame.to ?? frame.createAddress;
}

const modifiers = new WeakMap<DebugTrace, Map<number, FunctionDef | null>>();

/** The modifier whose body holds a step's location, if any. */
export function modifierAt(trace: DebugTrace, step: number): FunctionDef | undefined {
  const location = trace.steps.location[step]!;
  const where = trace.locations[location];
  const frame = trace.frames.get(trace.steps.frame[step]!);
  if (where === undefined || frame?.functions === undefined) return undefined;
  // a location is one build's (its file object is), so its modifier is the same whichever frame asks
  let known = modifiers.get(trace);
  if (known === undefined) modifiers.set(trace, (known = new Map()));
  let found = known.get(location);
  if (found === undefined) known.set(location, (found = frame.functions.modifierAt(where.file.id, where.start, where.length) ?? null));
  return found ?? undefined;
}

/**
 * The step a person wants at a failure: in the deepest frame that failed on its own (its failure is
 * not a callee's passed up), the last step placed in a user's source before it stopped. For a check
 * the compiler made (a Panic from checked arithmetic, in its own helper code), that is the user's
 * expression that ran it. undefined when the transaction did not fail or nothing in it maps.
 */
export function revertStep(trace: DebugTrace): number | undefined {
  const failing = trace.tx.frames.filter((f) => f.failure !== undefined);
  if (failing.length === 0) return undefined;
  const deepest = failing.reduce((a, b) => (b.depth > a.depth ? b : a));
  const { steps } = trace;
  let last = -1;
  for (let i = steps.length - 1; i >= 0; i--) {
    if (steps.frame[i] !== deepest.index) continue;
    if (last === -1) last = i;
    if (steps.location[i]! >= 0) return i;
  }
  return last === -1 ? undefined : last;
}
