// serve --warm: every block is traced in the background after the load; requests are answered
// meanwhile, and afterwards from the ready recordings, with the recorded bytes.
import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dir, '..');
const GOLDEN = join(ROOT, 'golden/anvil/prague-devnet');

test('serve --warm traces every block and answers the recorded bytes', async () => {
  const proc = Bun.spawn([process.execPath, join(ROOT, 'src/cli.ts'), 'serve', join(ROOT, 'golden/fixtures/prague-devnet/fixture.json'), '--port', '0', '--warm'], {
    stdout: 'pipe',
    stderr: 'pipe',
  });
  try {
    const reader = proc.stderr.getReader();
    let log = '';
    const deadline = Date.now() + 60_000;
    while (!/warm: \d+ blocks traced/.test(log) && Date.now() < deadline) {
      const { done, value } = await reader.read();
      if (done) break;
      log += new TextDecoder().decode(value);
    }
    expect(log).toMatch(/warm: 7 blocks traced in \d+ ms/);
    const url = log.match(/listening on (http:\/\/127\.0\.0\.1:\d+\/)/)![1]!;
    for (const n of ['0x3', '0x7']) {
      const request = readFileSync(join(GOLDEN, `block-${n}.trace_block.request.json`), 'utf8');
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: request });
      expect(await res.text()).toBe(readFileSync(join(GOLDEN, `block-${n}.trace_block.response.json`), 'utf8'));
    }
  } finally {
    proc.kill('SIGTERM');
    await proc.exited;
  }
}, 90_000);
