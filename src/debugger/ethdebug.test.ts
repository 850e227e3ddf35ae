// Locals from ethdebug/format programs. golden/debugger/ethdebug holds solc 0.8.37's own output
// (test/helpers/ethdebugBuild.ts): its programs are read from the build, each instruction's source
// range is the one the source map gives, and, as solc locates no variable yet, a step says its locals
// are not recoverable. The variables themselves are read from that program with `variables`
// contexts added in the shapes the format's schema gives (program/context/variables, pointer/region).
import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type DebugTrace } from './debugTrace.ts';
import { readLocal, readProgram } from './ethdebug.ts';
import { localsAt, NO_ETHDEBUG } from './locals.ts';
import { readBuilds } from './readBuilds.ts';
import { StepTable } from './stepTable.ts';

const DIR = join(import.meta.dir, '../../golden/debugger/ethdebug');
const output = JSON.parse(readFileSync(join(DIR, 'output.json'), 'utf8'));
const deployed = output.contracts['src/Locals.sol'].Locals.evm.deployedBytecode;

test('solc 0.8.37\'s ethdebug programs are read from a plain solc build, one instruction per source map entry, the same ranges', () => {
  const [build, ...rest] = readBuilds([DIR]);
  expect(rest).toEqual([]);
  const locals = build!.contracts.find((c) => c.name === 'Locals')!;
  expect(locals.runtime!.ethdebug!.instructions).toBe(deployed.ethdebug.instructions.length);
  expect(locals.creation!.ethdebug!.instructions).toBe(output.contracts['src/Locals.sol'].Locals.evm.bytecode.ethdebug.instructions.length);
  // the map, walked here on its own: `s:l:f:j:m`, an empty field repeating the entry before
  let s = '';
  let l = '';
  const entries = (deployed.sourceMap as string).split(';').map((e) => {
    const f = e.split(':');
    if (f[0]) s = f[0];
    if (f[1]) l = f[1];
    return [Number(s), Number(l)];
  });
  expect(entries.length).toBe(deployed.ethdebug.instructions.length);
  for (const [k, instruction] of (deployed.ethdebug.instructions as { context?: { code?: { range: { offset: number; length: number } } } }[]).entries()) {
    const range = instruction.context?.code?.range;
    if (range !== undefined) expect([range.offset, range.length]).toEqual(entries[k]!);
  }
  // solc names no variable: the program holds none
  expect(locals.runtime!.ethdebug!.after.size).toBe(0);
});

/** A trace of one frame whose code's program is `program`, its steps at `pcs`. */
function traceWith(program: unknown, pcs: number[]): DebugTrace {
  const steps = new StepTable();
  for (const pc of pcs) steps.push(pc, 0x5b, 0, 100n, 1n, 0, -1, 0);
  const source = { compiled: { ethdebug: readProgram(program) } };
  return { steps, frames: new Map([[0, { index: 0, source }]]) } as unknown as DebugTrace;
}

test('variables of a context, or gathered ones, are read from the stack and memory by their type; the rest says why not', () => {
  const instructions = structuredClone(deployed.ethdebug.instructions) as { offset: number; context?: Record<string, unknown> }[];
  const [a, b] = [instructions[3]!, instructions[4]!];
  const at = (slot: number | string) => ({ location: 'stack', slot });
  a.context = {
    gather: [
      { code: a.context?.['code'] },
      {
        variables: [
          { identifier: 'amount', type: { kind: 'uint', bits: 256 }, pointer: at(0) },
          { identifier: 'delta', type: { kind: 'int', bits: 8 }, pointer: at('0x1') },
          { identifier: 'to', type: { kind: 'address' }, pointer: at(2) },
          { identifier: 'ok', type: { kind: 'bool' }, pointer: at(3) },
          { identifier: 'tag', type: { kind: 'bytes', size: 4 }, pointer: at(4) },
        ],
      },
    ],
  };
  b.context = {
    variables: [
      { identifier: 'name', type: { kind: 'string' }, pointer: { location: 'memory', offset: '0x80', length: 5 } },
      { identifier: 'word', type: { kind: 'uint', bits: 256 }, pointer: { location: 'memory', offset: 0, length: 32 } },
      { identifier: 'total', type: { kind: 'uint', bits: 256 }, pointer: { location: 'storage', slot: 0 } },
      { identifier: 'far', type: { kind: 'uint', bits: 256 }, pointer: at(9) },
      { identifier: 'computed', type: { kind: 'uint', bits: 256 }, pointer: { location: 'memory', offset: { $sum: [64, 32] }, length: 32 } },
      { identifier: 'parts', pointer: { group: [at(0), at(1)] } },
    ],
  };
  const program = { ...deployed.ethdebug, instructions };
  const memory = new Uint8Array(0xa0);
  memory[31] = 7;
  memory.set(new TextEncoder().encode('vault'), 0x80);
  const stack = [1000n, 0xfen, 0x70997970c51812dc3a010c7d01b50e0d17dc79c8n, 1n, 0xdeadbeefn << 224n];
  const state = { stack, memory };

  // step 1 runs after the instruction at a's offset: a's context holds
  const first = localsAt(traceWith(program, [a.offset, a.offset + 1]), 1, state);
  expect(first).toEqual({ values: [
    { name: 'amount', type: 'uint256', value: '1000' },
    { name: 'delta', type: 'int8', value: '-2' },
    { name: 'to', type: 'address', value: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' },
    { name: 'ok', type: 'bool', value: 'true' },
    { name: 'tag', type: 'bytes4', value: '0xdeadbeef' },
  ] });
  const second = localsAt(traceWith(program, [b.offset, b.offset + 1]), 1, state);
  expect(second).toEqual({ values: [
    { name: 'name', type: 'string', value: '"vault"' },
    { name: 'word', type: 'uint256', value: '7' },
    { name: 'total', type: 'uint256', value: undefined, note: 'its value is in storage: not read here' },
    { name: 'far', type: 'uint256', value: undefined, note: 'stack slot 9 is past the stack (5 words)' },
    { name: 'computed', type: 'uint256', value: undefined, note: 'a memory range computed at run time: not read' },
    { name: 'parts', type: '?', value: undefined, note: 'a pointer of several regions or computed at run time: not read' },
  ] });
  // a frame's first step: the program's own context (none here); an instruction naming none
  expect(localsAt(traceWith(program, [a.offset]), 0, state)).toEqual({ note: 'not recoverable: the build\'s ethdebug output locates no variable at this step' });
  expect(localsAt(traceWith(program, [instructions[5]!.offset, 0]), 1, state)).toEqual({ note: 'not recoverable: the build\'s ethdebug output locates no variable at this step' });
  // no program, no stack loaded
  expect(localsAt(traceWith(undefined, [0, 1]), 1, state)).toEqual({ note: NO_ETHDEBUG });
  expect(localsAt(traceWith(program, [a.offset, 0]), 1, undefined)).toEqual({ note: 'the step\'s stack and memory are not loaded' });
  expect(readLocal({ identifier: undefined, type: undefined, pointer: undefined }, state)).toEqual({ name: '(unnamed)', type: '?', value: undefined, note: 'no pointer: the compiler does not say where it is' });
});
