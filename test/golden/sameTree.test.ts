// callTracer and trace_block of the same block must describe the same tree: for every transaction of
// the visible anvil chains, walking both depth first gives the same frames (kind, from, to, value).
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { loadChain } from '../../src/replay/loadChain.ts';
import { type CallFrameJson, renderCallTracer } from '../../src/trace/render/callTracer.ts';
import { type ParityTraceJson, renderParityTx } from '../../src/trace/render/parity.ts';

const GOLDEN = join(import.meta.dir, '../../golden');
const ZERO = '0x' + '00'.repeat(20);

/** kind, from, to, value of each frame; `to` only where both formats carry it. */
function fromCallTracer(f: CallFrameJson, out: string[] = []): string[] {
  const type = f.type.toLowerCase();
  const to = type === 'create' || type === 'create2' ? '' : f.to;
  out.push([type, f.from, to, f.value ?? '0x0'].join(' '));
  for (const c of f.calls ?? []) fromCallTracer(c, out);
  return out;
}

function fromParity(t: ParityTraceJson): string {
  const a = t.action as unknown as Record<string, string>;
  if (t.type === 'suicide') return ['selfdestruct', a.address, a.refundAddress, a.balance].join(' ');
  if (t.type === 'create') return [a.creationMethod, a.from, '', a.value].join(' ');
  return [a.callType, a.from, a.to, a.value].join(' ');
}

for (const chain of ['cancun-devnet', 'prague-devnet']) {
  describe(`${chain}: callTracer and trace_block agree`, () => {
    test('every transaction of every block', async () => {
      const view = await loadChain(join(GOLDEN, 'fixtures', chain, 'fixture.json'));
      let frames = 0;
      for (let n = 1n; n <= view.head.number; n++) {
        const block = await view.recordBlock(view.blockByNumber(n)!);
        block.txs.forEach((tx, i) => {
          const nested = fromCallTracer(renderCallTracer(tx, {}));
          const flat = [...renderParityTx(block, i)].map(fromParity);
          // anvil's revm zeroes a SELFDESTRUCT naming itself (parity.ts suicideAction): skip those rows.
          const keep = flat.map((row) => !row.startsWith(`selfdestruct ${ZERO}`));
          expect(flat.filter((_, k) => keep[k])).toEqual(nested.filter((_, k) => keep[k]));
          frames += nested.length;
        });
      }
      expect(frames).toBeGreaterThan(100);
    }, 120000);
  });
}
