// eth_call where anvil and go-ethereum word a revert differently (the call-anvil-differs folders):
// the same code (3) and the same data as anvil; the message as go-ethereum writes it
// (internal/ethapi/errors.go newRevertError with accounts/abi UnpackRevert: Error(string) and
// Panic(uint256) are decoded, a custom error is not — anvil adds "custom error 0x…" and "panic: … (0x12)").
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadChain } from '../../src/replay/loadChain.ts';
import { createContext } from '../../src/rpc/context.ts';
import { dispatch } from '../../src/rpc/dispatch.ts';
import { ROOT } from '../faces.ts';

// go-ethereum accounts/abi/abi.go panicReasons
const PANIC_REASONS: Record<string, string> = {
  '0x00': 'generic panic', '0x01': 'assert(false)', '0x11': 'arithmetic underflow or overflow', '0x12': 'division or modulo by zero',
  '0x21': 'enum overflow', '0x22': 'invalid encoded storage byte array accessed', '0x31': 'out-of-bounds array access; popping on an empty array',
  '0x32': 'out-of-bounds access of an array or bytesN', '0x41': 'out of memory', '0x51': 'uninitialized function',
};

for (const chain of ['prague-devnet', 'cancun-devnet']) {
  describe(`eth_call reverts on ${chain}`, () => {
    test('anvil\'s code and data, go-ethereum\'s message', async () => {
      const ctx = createContext(await loadChain(join(ROOT, 'golden/fixtures', chain, 'fixture.json')), { log: () => {} });
      const dir = join(ROOT, 'golden/anvil-eth', chain, 'call-anvil-differs');
      const names = readdirSync(dir).filter((f) => f.endsWith('.request.json'));
      expect(names.length).toBeGreaterThan(10);
      for (const name of names) {
        const anvil = JSON.parse(readFileSync(join(dir, name.replace('.request.json', '.response.json')), 'utf8')).error;
        // anvil's -32603 "EVM error …" for other failures is revm's; blocktrace answers -32000 (see README)
        if (anvil === undefined || anvil.code !== 3) continue;
        const ours = JSON.parse((await dispatch(readFileSync(join(dir, name), 'utf8'), ctx))!).error;
        expect(ours.code).toBe(3);
        expect(ours.data).toBe(anvil.data);
        const panic = /^execution reverted: panic: .* \((0x[0-9a-f]+)\)$/.exec(anvil.message);
        if (panic !== null) expect(ours.message).toBe(`execution reverted: ${PANIC_REASONS[panic[1]!]}`);
        else expect({ name, message: ours.message }).toEqual({ name, message: 'execution reverted' });
      }
    });
  });
}

// Other failures: -32000 with result.Err's text (go-ethereum internal/ethapi/api.go Call; core/vm
// errors.go ErrInvalidOpCode, ErrStackUnderflow, ErrInvalidJump), the words of the callTracer's
// error table; anvil answers -32603 with revm's halt. (Its other halt here, ReentrancySentryOOG,
// burns the block's 30M gas in ethereumjs for seconds; its wording is the table's, which
// go-ethereum's recordings check.)
for (const chain of ['prague-devnet', 'cancun-devnet']) {
  describe(`eth_call and eth_estimateGas failures other than a revert on ${chain}`, () => {
    test('anvil\'s InvalidFEOpcode halt (-32603) is -32000 invalid opcode: INVALID for both', async () => {
      const ctx = createContext(await loadChain(join(ROOT, 'golden/fixtures', chain, 'fixture.json')), { log: () => {} });
      const dir = join(ROOT, 'golden/anvil-eth', chain, 'call-anvil-differs');
      let checked = 0;
      for (const name of readdirSync(dir).filter((f) => f.endsWith('.request.json'))) {
        const anvil = JSON.parse(readFileSync(join(dir, name.replace('.request.json', '.response.json')), 'utf8')).error;
        if (anvil?.message !== 'EVM error InvalidFEOpcode') continue;
        const request = readFileSync(join(dir, name), 'utf8');
        for (const body of [request, request.replace('"eth_call"', '"eth_estimateGas"')]) {
          expect({ name, error: JSON.parse((await dispatch(body, ctx))!).error }).toEqual({ name, error: { code: -32000, message: 'invalid opcode: INVALID' } });
        }
        checked++;
      }
      expect(checked).toBe(1);
    });

    test('code given by a state override: the failure of the top frame in go-ethereum\'s words', async () => {
      const ctx = createContext(await loadChain(join(ROOT, 'golden/fixtures', chain, 'fixture.json')), { log: () => {} });
      const at = '0x1111111111111111111111111111111111111111';
      const cases: [string, string][] = [
        ['0xfe', 'invalid opcode: INVALID'],
        ['0x01', 'stack underflow (0 <=> 2)'],
        ['0x60016000f0', 'stack underflow (2 <=> 3)'],
        ['0x600056', 'invalid jump destination'],
      ];
      for (const [code, message] of cases) {
        const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to: at, gas: '0x10000' }, 'latest', { [at]: { code } }] });
        expect({ code, error: JSON.parse((await dispatch(body, ctx))!).error }).toEqual({ code, error: { code: -32000, message } });
      }
    });
  });
}
