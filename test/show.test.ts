// `blocktrace show` as a person runs it: the real CLI in a subprocess, stdout piped (so plain text),
// on the shipped fixtures with the artifacts of their contracts (golden/fixtures/<chain>/out, made by
// test/helpers/fixtureArtifacts.ts). The expected text is our own output, checked by eye once and
// pinned as bun snapshots (test/__snapshots__/show.test.ts.snap): no reference client prints this.
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { AbiDecoder } from '../src/abi/decoder.ts';
import { readArtifacts } from '../src/abi/artifacts.ts';
import { wantsColour } from '../src/cli/show.ts';
import { COLOUR, renderTree } from '../src/show/render.ts';
import { BUN, CLI, ROOT } from './faces.ts';

const CANCUN = join(ROOT, 'golden/fixtures/cancun-devnet/fixture.json');
const PRAGUE = join(ROOT, 'golden/fixtures/prague-devnet/fixture.json');
const SLOW = 60_000;

async function show(args: readonly string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn([BUN, CLI, 'show', ...args], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe', env: { ...process.env, ...env } });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

const abi = (chain: string): string[] => ['--abi', join(ROOT, 'golden/fixtures', chain, 'out')];

describe('show, plain (piped)', () => {
  const cases: [string, string[]][] = [
    ['a revert with Error(string)', [CANCUN, '0x7f4f33f05dbe8dadbb928fc425c12ef256fd7da3d25ed82c75ec2320e673b852', ...abi('cancun-devnet')]],
    ['a custom error bubbled up through three frames', [CANCUN, '0xed0e2094a6074acdb79921eec0b97eb9c067dce9f0eb954fb293e37656f53500', ...abi('cancun-devnet')]],
    ['an ERC-20 transfer over balance (custom error of the artifact)', [CANCUN, '0xe1085c5338c93933f1ae3fbb909c909b2d709a2c92ed92f69f9c2621f7243fc7', ...abi('cancun-devnet')]],
    ['a whole block: every call kind, events, out of gas, write protection', [CANCUN, '3', ...abi('cancun-devnet')]],
    ['a block without --abi: only the built-in table decodes (ERC-20)', [CANCUN, '0x9']],
    ['prague: creations, self-destructs and delegations', [PRAGUE, '0x5', ...abi('prague-devnet')]],
    ['a block of failures: panics with their code, errors, custom errors, out of gas', [CANCUN, '4', ...abi('cancun-devnet')]],
  ];
  for (const [name, args] of cases) {
    test(name, async () => {
      const { code, stdout, stderr } = await show(args);
      expect({ code, stderr: stderr.replace(/npm warn.*\n/g, '') }).toEqual({ code: 0, stderr: '' });
      expect(stdout).not.toContain('\u001b[');
      expect(stdout).toMatchSnapshot();
    }, SLOW);
  }

  test('a panic keeps its code beside its meaning, as forge prints it (go-ethereum\'s revertReason has the meaning alone)', async () => {
    const { stdout } = await show([CANCUN, '4']);
    expect(stdout).toContain('[21531] 0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9::0x99b8d10a(0x0000000000000000000000000000000000000000000000000000000000000000)\n└─ ← [Revert] panic: division or modulo by zero (0x12)\n');
    expect(stdout).toContain('└─ ← [Revert] panic: assertion failed (0x01)\n');
    expect(stdout).toContain('└─ ← [Revert] panic: arithmetic underflow or overflow (0x11)\n');
    expect(stdout).toContain('└─ ← [Revert] panic: array out-of-bounds access (0x32)\n');
  }, SLOW);

  test('an unknown hash: exit 1, one line; a bad --abi path: exit 2', async () => {
    const unknown = await show([CANCUN, '0x' + '12'.repeat(32)]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim().split('\n').filter((l) => !l.startsWith('npm warn'))).toEqual([`blocktrace: no transaction or block 0x${'12'.repeat(32)} on the chain`]);
    // a block hash is taken as the other commands take it
    const byNumber = await show([CANCUN, '4']);
    const hash = /^block 4 (0x[0-9a-f]{64}):/.exec(byNumber.stdout)![1]!;
    const byHash = await show([CANCUN, hash]);
    expect(byHash.code).toBe(0);
    expect(byHash.stdout).toBe(byNumber.stdout);
    const badAbi = await show([CANCUN, '3', '--abi', '/nonexistent/out']);
    expect(badAbi.code).toBe(2);
    expect(badAbi.stderr).toContain('blocktrace: cannot read --abi /nonexistent/out');
  }, SLOW);
});

describe('colour', () => {
  test('only on a terminal, never with NO_COLOR or TERM=dumb', () => {
    expect(wantsColour({ stdout: { write: () => 0, isTTY: true }, env: {} })).toBe(true);
    expect(wantsColour({ stdout: { write: () => 0, isTTY: false }, env: {} })).toBe(false);
    expect(wantsColour({ stdout: { write: () => 0, isTTY: true }, env: { NO_COLOR: '1' } })).toBe(false);
    expect(wantsColour({ stdout: { write: () => 0, isTTY: true }, env: { TERM: 'dumb' } })).toBe(false);
  });

  test('the colour style marks the callee, the function, the result and events', () => {
    const decoder = new AbiDecoder(readArtifacts(join(ROOT, 'golden/fixtures/cancun-devnet/out')));
    const lines = renderTree(
      { type: 'CALL', from: '0x' + '11'.repeat(20), to: '0x' + '22'.repeat(20), gas: '0x5208', gasUsed: '0x5208', input: '0x68110b2f', output: '0x' + '00'.repeat(31) + '01' },
      { decoder, labels: new Map([['0x' + '22'.repeat(20), 'Probe']]), style: COLOUR },
    );
    expect(lines).toEqual(['\u001b[2m[21000]\u001b[0m \u001b[36mProbe\u001b[0m::\u001b[1mbump\u001b[0m()', '└─ \u001b[32m← [Return] 1\u001b[0m']);
  });
});
