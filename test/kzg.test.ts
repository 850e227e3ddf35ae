// The KZG trusted setup is loaded only when a replay really checks a proof. A block whose
// transaction calls the point-evaluation precompile with a valid proof must still replay (header
// checks passing) and trace right in a fresh process, where the setup is not loaded up front.
import { describe, expect, test } from 'bun:test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { bytesToHex, hexToBytes, setLengthLeft, bigIntToBytes } from '@ethereumjs/util';
import { preloadKzg } from '../src/replay/kzg.ts';
import { pointEvaluationFixture } from '../bench/pathological.ts';

const ROOT = join(import.meta.dir, '..');
const word = (n: bigint): Uint8Array => setLengthLeft(bigIntToBytes(n), 32);
const BLS_MODULUS = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n;

describe('point evaluation with a valid proof', () => {
  test('replays and traces in a fresh process (setup loaded on first use, block run again)', async () => {
    const kzg = await preloadKzg(); // the builder below executes the precompile too
    const blob = Array.from({ length: 4096 }, (_, i) => BigInt(i + 1));
    const micro = kzg as unknown as { blobToKzgCommitment(b: bigint[]): string; computeProof(b: bigint[], z: bigint): [string, string] };
    const commitment = hexToBytes(micro.blobToKzgCommitment(blob) as `0x${string}`);
    const z = 5n;
    const [proof, y] = micro.computeProof(blob, z);
    const versioned = new Uint8Array(createHash('sha256').update(commitment).digest());
    versioned[0] = 0x01;
    const input = bytesToHex(new Uint8Array([
      ...versioned, ...word(z), ...word(BigInt(y)), ...commitment, ...hexToBytes(proof as `0x${string}`),
    ]));
    const fixture = join(mkdtempSync(join(tmpdir(), 'blocktrace-kzg-')), 'fixture.json');
    writeFileSync(fixture, JSON.stringify(await pointEvaluationFixture(input)));

    const request = '{"jsonrpc":"2.0","id":1,"method":"debug_traceBlockByNumber","params":["0x1",{"tracer":"callTracer"}]}';
    const proc = Bun.spawn([process.execPath, join(ROOT, 'src/cli.ts'), '--replay-file', fixture, request], { stdout: 'pipe', stderr: 'pipe' });
    const [out, err, code] = [await new Response(proc.stdout).text(), await new Response(proc.stderr).text(), await proc.exited];
    expect(err).toBe('');
    expect(code).toBe(0);
    const frame = JSON.parse(out).result[0].result;
    expect(frame.error).toBeUndefined();
    expect(frame.to).toBe('0x000000000000000000000000000000000000000a');
    expect(frame.output).toBe(bytesToHex(new Uint8Array([...word(4096n), ...word(BLS_MODULUS)])));
  }, 120_000);
});
