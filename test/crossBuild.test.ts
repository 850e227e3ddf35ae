// Binaries for five platforms from one command (issue 36): `bun build.ts OUT --targets all` compiles
// blocktrace-<os>-<arch>[.exe] with each platform's Bun runtime from npm and writes SHA256SUMS; the
// linux-arm64 one, run under qemu-user (Debian's qemu-user-static, with libc6-arm64-cross for its C
// library), answers the harness requests with the bytes the native linux-x64 one answers.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PRAGUE, ROOT } from './faces.ts';

const SLOW = 600_000;
const out = mkdtempSync(join(tmpdir(), 'blocktrace-targets-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));
const FILES = ['blocktrace-linux-x64', 'blocktrace-linux-arm64', 'blocktrace-darwin-x64', 'blocktrace-darwin-arm64', 'blocktrace-windows-x64.exe'];
const QEMU = '/usr/bin/qemu-aarch64-static';
const ARM64_LIBC = '/usr/aarch64-linux-gnu';
const REQUESTS = [
  '{"jsonrpc":"2.0","id":1,"method":"debug_traceBlockByNumber","params":["0x3",{"tracer":"callTracer"}]}',
  '{"jsonrpc":"2.0","id":2,"method":"debug_traceBlockByNumber","params":["0x3",{"tracer":"prestateTracer"}]}',
  '{"jsonrpc":"2.0","id":3,"method":"trace_block","params":["0x3"]}',
];

let built: { code: number; stderr: string };
beforeAll(async () => {
  const proc = Bun.spawn([process.execPath, 'build.ts', out, '--targets', 'all'], { cwd: ROOT, stdout: 'ignore', stderr: 'pipe' });
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  built = { code, stderr };
}, SLOW);

async function answers(command: string[]): Promise<string> {
  const proc = Bun.spawn([...command, '--replay-file', PRAGUE, '--no-cache', ...REQUESTS], { cwd: out, stdout: 'pipe', stderr: 'pipe' });
  const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  expect(code).toBe(0);
  return stdout;
}

test('one command: five executables, each of its platform, and SHA256SUMS of them', () => {
  expect(built.code).toBe(0);
  const sums = readFileSync(join(out, 'SHA256SUMS'), 'utf8').trimEnd().split('\n');
  expect(sums.map((l) => l.split('  ')[1])).toEqual(FILES);
  for (const line of sums) {
    const [hash, file] = line.split('  ') as [string, string];
    expect(new Bun.CryptoHasher('sha256').update(readFileSync(join(out, file))).digest('hex')).toBe(hash);
  }
  const head = (file: string): Buffer => readFileSync(join(out, file)).subarray(0, 20);
  // ELF: e_machine at 18 (0x3e x86-64, 0xb7 aarch64); Mach-O 64: cputype at 4 (7 | ABI64 x86-64, 12 | ABI64 arm64); PE: MZ
  expect([head(FILES[0]!).readUInt32BE(0), head(FILES[0]!).readUInt16LE(18)]).toEqual([0x7f454c46, 0x3e]);
  expect([head(FILES[1]!).readUInt32BE(0), head(FILES[1]!).readUInt16LE(18)]).toEqual([0x7f454c46, 0xb7]);
  expect([head(FILES[2]!).readUInt32LE(0), head(FILES[2]!).readUInt32LE(4)]).toEqual([0xfeedfacf, 0x01000007]);
  expect([head(FILES[3]!).readUInt32LE(0), head(FILES[3]!).readUInt32LE(4)]).toEqual([0xfeedfacf, 0x0100000c]);
  expect(head(FILES[4]!).toString('latin1', 0, 2)).toBe('MZ');
}, SLOW);

test('the linux-arm64 executable under qemu answers the bytes of the native linux-x64 one', async () => {
  expect(built.code).toBe(0);
  if (!existsSync(QEMU) || !existsSync(ARM64_LIBC)) throw new Error(`needs ${QEMU} and ${ARM64_LIBC}: apt-get install qemu-user-static libc6-arm64-cross (.ci/run installs them)`);
  const native = await answers([join(out, FILES[0]!)]);
  expect(native.split('\n').filter((l) => l !== '')).toHaveLength(3);
  expect(await answers([QEMU, '-L', ARM64_LIBC, join(out, FILES[1]!)])).toBe(native);
}, SLOW);
