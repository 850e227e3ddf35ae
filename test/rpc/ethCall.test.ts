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
