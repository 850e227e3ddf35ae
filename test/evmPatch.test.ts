// patches/@ethereumjs+evm+10.1.3.patch (applied by `npm ci` through patch-package): the interpreter
// runs an opcode without a promise unless its gas handler or handler returns one. Unpatched, it
// awaits an async function for every opcode, so a loop of pure arithmetic gives the event loop's
// microtask queue a turn per opcode; patched, none. The same code must give the same result either
// way, and a `step` listener must still see every step (it takes the old path).
import { expect, test } from 'bun:test';
import { createEVM } from '@ethereumjs/evm';
import { hexToBytes } from '@ethereumjs/util';

// PUSH1 0; JUMPDEST; PUSH1 1; ADD; DUP1; PUSH2 0x03e8; GT; PUSH1 2; JUMPI; STOP:
// a counter from 0 to 1000, 8 opcodes and 29 gas an iteration
const LOOP = hexToBytes('0x60005b600101806103e8116002570000');
const ITERATIONS = 1000;
const OPCODES = 1 + ITERATIONS * 8 + 1;
const GAS = 3n + BigInt(ITERATIONS) * 29n;

/** Runs `code`, counting the microtask turns the event loop gets while it runs. */
async function runCounting(code: Uint8Array, onStep?: () => void) {
  const evm = await createEVM();
  if (onStep !== undefined) evm.events.on('step', onStep);
  let turns = 0;
  let running = true;
  const spin = (): void => {
    if (!running) return;
    turns++;
    queueMicrotask(spin);
  };
  queueMicrotask(spin);
  const result = await evm.runCode({ code, gasLimit: 1_000_000n });
  running = false;
  return { result, turns };
}

test('a loop of arithmetic runs without a microtask turn per opcode, with the gas it always used', async () => {
  const { result, turns } = await runCounting(LOOP);
  expect(result.exceptionError).toBeUndefined();
  expect(result.executionGasUsed).toBe(GAS);
  // unpatched: one turn or more per opcode (over 8,000 here)
  expect(turns).toBeLessThan(OPCODES / 100);
});

test('a step listener sees every opcode, and the result is the same', async () => {
  let steps = 0;
  const { result } = await runCounting(LOOP, () => steps++);
  expect(steps).toBe(OPCODES);
  expect(result.executionGasUsed).toBe(GAS);
});

test('out of gas inside the loop is still an out-of-gas halt', async () => {
  const evm = await createEVM();
  const result = await evm.runCode({ code: LOOP, gasLimit: 10_000n });
  expect(result.exceptionError?.error).toBe('out of gas');
  expect(result.executionGasUsed).toBe(10_000n);
});
