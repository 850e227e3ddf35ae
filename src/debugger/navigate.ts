// Moving through a debugged transaction: every move is a pure function from a step number to
// another (or to the same one where there is nowhere to go), shared by the terminal UI and the
// viewer, so that a key does the same thing in both.
import { type DebugTrace, revertStep } from './debugTrace.ts';
import type { Move } from './keys.ts';

const CALLS = new Set([0xf0, 0xf1, 0xf2, 0xf4, 0xf5, 0xfa]);
const SSTORE = 0x55;
const LOG0 = 0xa0;
const LOG4 = 0xa4;

export type { Move } from './keys.ts';

/** How deep a step is: EVM frames, then Solidity functions within the frame. */
function nesting(trace: DebugTrace, i: number): number {
  let n = 0;
  const nodes = trace.stacks.nodes;
  for (let node = trace.steps.node[i]!; node >= 0; node = nodes[node]!.parent) n++;
  return n;
}

/** The source line of a step as one comparable key ('' for a step with no source). */
function lineKey(trace: DebugTrace, i: number): string {
  const where = trace.locations[trace.steps.location[i]!];
  return where === undefined ? '' : `${trace.steps.frame[i]}:${where.file.path}:${where.line}`;
}

function find(trace: DebugTrace, from: number, step: 1 | -1, test: (i: number) => boolean): number {
  for (let i = from + step; i >= 0 && i < trace.steps.length; i += step) if (test(i)) return i;
  return from;
}

/** The step a move leads to from step `i`. */
export function move(trace: DebugTrace, i: number, how: Move): number {
  const { steps } = trace;
  const last = steps.length - 1;
  switch (how) {
    case 'next':
      return Math.min(i + 1, last);
    case 'previous':
      return Math.max(i - 1, 0);
    case 'first':
      return 0;
    case 'last':
      return last;
    case 'nextCall':
      return find(trace, i, 1, (j) => CALLS.has(steps.op[j]!));
    case 'previousCall':
      return find(trace, i, -1, (j) => CALLS.has(steps.op[j]!));
    case 'nextLine': {
      const here = lineKey(trace, i);
      return find(trace, i, 1, (j) => lineKey(trace, j) !== '' && lineKey(trace, j) !== here);
    }
    case 'previousLine': {
      // to the first step of the line before this one
      const here = lineKey(trace, i);
      const before = find(trace, i, -1, (j) => lineKey(trace, j) !== '' && lineKey(trace, j) !== here);
      const line = lineKey(trace, before);
      let first = before;
      while (first > 0 && (lineKey(trace, first - 1) === line || lineKey(trace, first - 1) === '')) first--;
      while (lineKey(trace, first) !== line) first++;
      return first;
    }
    case 'stepOver': {
      // the next line not inside a call or function entered from here
      const here = lineKey(trace, i);
      const depth = nesting(trace, i);
      return find(trace, i, 1, (j) => nesting(trace, j) <= depth && lineKey(trace, j) !== '' && lineKey(trace, j) !== here);
    }
    case 'stepOut': {
      const depth = nesting(trace, i);
      return find(trace, i, 1, (j) => nesting(trace, j) < depth && lineKey(trace, j) !== '');
    }
    case 'revert':
      return revertStep(trace) ?? i;
    case 'nextWrite':
      return find(trace, i, 1, (j) => steps.op[j] === SSTORE);
    case 'nextEvent':
      return find(trace, i, 1, (j) => steps.op[j]! >= LOG0 && steps.op[j]! <= LOG4);
  }
}

/** The next step from `i` on source line `line` of `file` (a breakpoint), or `i` when none. */
export function runToLine(trace: DebugTrace, i: number, file: string, line: number): number {
  return find(trace, i, 1, (j) => {
    const where = trace.locations[trace.steps.location[j]!];
    return where !== undefined && where.line === line && where.file.path === file;
  });
}
