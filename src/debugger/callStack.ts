// The Solidity call stack at a step, outermost first: each EVM frame as `Contract.function` (named
// from its calldata's selector and the ABI, `constructor` for init code), the internal functions
// entered by jumps inside it, and the modifier whose body runs, if any.
import { type AbiFunction, toFunctionSelector } from 'viem';
import type { BuildContract, FunctionDef } from './builds.ts';
import { type DebugTrace, modifierAt } from './debugTrace.ts';

const selectors = new WeakMap<BuildContract, Map<string, string>>();

/** A function's name by selector: from the ABI, solc's methodIdentifiers, or the AST. */
function functionBySelector(contract: BuildContract, selector: string): string | undefined {
  let table = selectors.get(contract);
  if (table === undefined) {
    table = new Map(contract.selectors);
    for (const def of contract.build.functions) if (def.contract === contract.name && def.selector !== undefined) table.set(def.selector, def.name);
    for (const item of contract.abi) if (item.type === 'function') table.set(toFunctionSelector(item as AbiFunction).slice(2), item.name);
    selectors.set(contract, table);
  }
  return table.get(selector);
}

const frameFunctions = new WeakMap<DebugTrace, Map<number, { contract: string; name: string } | undefined>>();

/** `Contract.function` of an EVM frame whose code an artifact names; undefined for one that none does. */
export function frameFunction(trace: DebugTrace, frameIndex: number): { contract: string; name: string } | undefined {
  let known = frameFunctions.get(trace);
  if (known === undefined) frameFunctions.set(trace, (known = new Map()));
  if (!known.has(frameIndex)) known.set(frameIndex, nameFrame(trace, frameIndex));
  return known.get(frameIndex);
}

function nameFrame(trace: DebugTrace, frameIndex: number): { contract: string; name: string } | undefined {
  const frame = trace.frames.get(frameIndex);
  const contract = frame?.contract;
  if (frame === undefined || contract === undefined) return undefined;
  if (frame.kind === 'creation') return { contract: contract.name, name: 'constructor' };
  const input = trace.tx.frames[frameIndex]?.input ?? new Uint8Array();
  const has = (type: string): boolean => contract.abi.some((item) => item.type === type);
  if (input.length >= 4) {
    const name = functionBySelector(contract, Buffer.from(input.subarray(0, 4)).toString('hex'));
    if (name !== undefined) return { contract: contract.name, name };
  }
  if (input.length === 0 && has('receive')) return { contract: contract.name, name: 'receive' };
  return { contract: contract.name, name: 'fallback' };
}

/** Per trace, node and modifier: the stack, made once (the same few repeat over a loop's steps). */
const stacks = new WeakMap<DebugTrace, Map<number, Map<FunctionDef | undefined, readonly string[]>>>();

/** The call stack at step `i`, outermost first, as `Contract.function` strings (one array per node and modifier: not to be changed). */
export function functionsAt(trace: DebugTrace, i: number): readonly string[] {
  let byNode = stacks.get(trace);
  if (byNode === undefined) stacks.set(trace, (byNode = new Map()));
  const node = trace.steps.node[i]!;
  let byModifier = byNode.get(node);
  if (byModifier === undefined) byNode.set(node, (byModifier = new Map()));
  const modifier = modifierAt(trace, i);
  let functions = byModifier.get(modifier);
  if (functions === undefined) {
    const own = nodeStack(trace, node);
    byModifier.set(modifier, (functions = modifier === undefined ? own : [...own, `${modifier.contract}.${modifier.name}`]));
  }
  return functions;
}

/**
 * The nodes a call stack shows, from node `from` and its parents, outermost first, each with the node
 * whose function it is: an EVM frame an artifact names, and the internal functions entered in it,
 * the compiler's own helpers left out. The dispatcher's jump into a public function's body is the
 * frame's own function, not a second one: that node is folded into its frame's (`folded` names it).
 */
export function shownNodes(trace: DebugTrace, from: number): { node: number; label: string; folded?: number }[] {
  const out: { node: number; label: string; folded?: number }[] = [];
  const nodes = trace.stacks.nodes;
  let folded: number | undefined;
  for (let n = from; n >= 0; n = nodes[n]!.parent) {
    const node = nodes[n]!;
    if (node.internal === undefined) {
      const fn = frameFunction(trace, node.frame);
      if (fn !== undefined) out.push({ node: n, label: `${fn.contract}.${fn.name}`, ...(folded !== undefined ? { folded } : {}) });
      folded = undefined;
      continue;
    }
    if (node.internal === 'hidden') continue;
    const parent = nodes[node.parent];
    if (parent !== undefined && parent.internal === undefined && parent.frame === node.frame && frameFunction(trace, node.frame)?.name === node.internal.name) {
      folded = n;
      continue;
    }
    out.push({ node: n, label: `${node.internal.contract}.${node.internal.name}` });
  }
  return out.reverse();
}

/** The functions of a call-stack node and its parents, outermost first. */
function nodeStack(trace: DebugTrace, from: number): readonly string[] {
  return shownNodes(trace, from).map((shown) => shown.label);
}
