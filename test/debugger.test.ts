// `blocktrace debug … --json` on the debugger scenario (golden/debugger: contracts built by real
// forge, Hardhat 2 and solc, mined on anvil and captured; golden/debugger/README.md). Every step of
// every transaction is checked against an independent walk of solc's own source maps, read here
// from each layout's compiler output (build-info, or solc's standard-JSON input and output): the
// file and line solc's map gives, or no source where it gives none. The failing transactions land
// on the line of their require, custom error or checked arithmetic, with the internal call stack
// the scenario expects (transactions.json, written when it was mined).
import { describe, expect, test } from 'bun:test';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUN, CLI, ROOT } from './faces.ts';
import { freePort } from './helpers/anvil.ts';

const DIR = join(ROOT, 'golden/debugger');
const FIXTURE = join(DIR, 'fixture.json');
const SLOW = 120_000;

interface ScenarioTx {
  readonly hash: string;
  readonly status: string;
  readonly to: string | null;
  readonly fails?: { file: string; line: number; internalStack: string[] };
}
const TXS = JSON.parse(readFileSync(join(DIR, 'transactions.json'), 'utf8')) as Record<string, ScenarioTx>;
const SCENARIO = JSON.parse(readFileSync(join(DIR, 'contracts.json'), 'utf8')) as { contracts: Record<string, { address: string; source: string }>; accounts: Record<string, string> };
const CONTRACTS = SCENARIO.contracts;
const CONTRACTS_USER2 = SCENARIO.accounts['user2']!.toLowerCase();

interface Step {
  step: number;
  pc: number;
  op: string;
  depth: number;
  address?: string;
  source?: { file: string; line: number; column: number };
  functions?: string[];
}
interface Doc {
  steps: Step[];
  revert: number | null;
  unmapped: string[];
}

async function debug(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn([BUN, CLI, 'debug', ...args], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr: stderr.replace(/npm warn.*\n/g, '') };
}

async function steps(tx: string, abi: string, extra: readonly string[] = []): Promise<Doc> {
  const { code, stdout, stderr } = await debug([FIXTURE, TXS[tx]!.hash, '--abi', abi, '--json', ...extra]);
  expect({ code, stderr: stderr.split('\n').filter((l) => l !== '' && !l.includes('no source for')) }).toEqual({ code: 0, stderr: [] });
  return JSON.parse(stdout) as Doc;
}

// ---- the independent walk: solc's documented source-map format, nothing of src/debugger ----------

interface Compiled {
  sources: Map<number, { path: string; content: string }>;
  codes: Map<string, { creation: [string, string]; runtime: [string, string] }>;
}

/** A layout's compiler runs as {input, output} pairs. */
function compilerRuns(layout: string): { input: any; output: any }[] {
  if (layout === 'solc') return [{ input: JSON.parse(readFileSync(join(DIR, 'solc/input.json'), 'utf8')), output: JSON.parse(readFileSync(join(DIR, 'solc/output.json'), 'utf8')) }];
  const dir = join(DIR, layout === 'foundry' ? 'foundry/out/build-info' : 'hardhat/artifacts/build-info');
  return readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')));
}

/** Per contract name, its creation and runtime [object, sourceMap], and every source by id, per run. */
function compiled(layout: string): Compiled[] {
  return compilerRuns(layout).map(({ input, output }) => {
    const sources = new Map<number, { path: string; content: string }>();
    for (const [path, s] of Object.entries<any>(output.sources)) sources.set(s.id, { path, content: input.sources[path].content });
    const codes = new Map<string, { creation: [string, string]; runtime: [string, string] }>();
    for (const byName of Object.values<any>(output.contracts)) {
      for (const [name, c] of Object.entries<any>(byName)) {
        codes.set(name, { creation: [c.evm.bytecode.object, c.evm.bytecode.sourceMap], runtime: [c.evm.deployedBytecode.object, c.evm.deployedBytecode.sourceMap] });
      }
    }
    return { sources, codes };
  });
}

function expectedLine(run: Compiled, [object, map]: [string, string], pc: number): { file: string; line: number; column: number } | undefined {
  const code = Buffer.from(object.replace(/__\$[0-9a-f]{34}\$__/g, '0'.repeat(40)), 'hex');
  let instruction = 0;
  for (let p = 0; p < pc; p++) {
    if (code[p]! >= 0x60 && code[p]! <= 0x7f) p += code[p]! - 0x5f;
    instruction++;
  }
  let s = -1;
  let f = -1;
  const entries = map.split(';');
  for (let i = 0; i <= instruction; i++) {
    const fields = entries[i]!.split(':');
    if (fields[0]) s = Number(fields[0]);
    if (fields[2]) f = Number(fields[2]);
  }
  const source = run.sources.get(f);
  if (source === undefined || s < 0) return undefined;
  const before = Buffer.from(source.content).subarray(0, s).toString().split('\n');
  return { file: source.path, line: before.length, column: before[before.length - 1]!.length + 1 };
}

const nameAt = (address: string): string | undefined => Object.entries(CONTRACTS).find(([, c]) => c.address.toLowerCase() === address)?.[0];

/** Checks every step of `doc` against the walk; returns how many had a source, and how many ran a contract of these builds. */
function checkAgainstWalk(doc: Doc, runs: readonly Compiled[], creates: boolean): { mapped: number; known: number } {
  let mapped = 0;
  let known = 0;
  const kinds: ('creation' | 'runtime')[] = [];
  let previous = '';
  for (const step of doc.steps) {
    // the frame's code: init code at depth 1 of a deployment and after a CREATE, else the runtime code
    if (step.depth > kinds.length) kinds.push(kinds.length === 0 ? (creates ? 'creation' : 'runtime') : previous === 'CREATE' || previous === 'CREATE2' ? 'creation' : 'runtime');
    kinds.length = step.depth;
    previous = step.op;
    const name = nameAt(step.address!);
    const run = runs.find((r) => name !== undefined && r.codes.has(name));
    const want = run === undefined ? undefined : expectedLine(run, run.codes.get(name!)![kinds[step.depth - 1]!], step.pc);
    expect({ step: step.step, source: step.source }).toEqual({ step: step.step, source: want });
    if (want !== undefined) mapped++;
    if (run !== undefined) known++;
  }
  return { mapped, known };
}

const LAYOUTS = [
  ['foundry', join(DIR, 'foundry/out')],
  ['hardhat', join(DIR, 'hardhat/artifacts')],
  ['solc', join(DIR, 'solc')],
] as const;

describe('debug --json: every step at the line of solc\'s source map', () => {
  for (const [layout, abi] of LAYOUTS) {
    const runs = compiled(layout);
    for (const [name, tx] of Object.entries(TXS)) {
      test(`${layout}: ${name}`, async () => {
        const doc = await steps(name, abi);
        expect(doc.steps.length).toBeGreaterThan(0);
        expect(doc.steps.map((s) => s.step)).toEqual(doc.steps.map((_, i) => i));
        const { mapped, known } = checkAgainstWalk(doc, runs, tx.to === null);
        // the plain solc run compiled the 0.8.30 sources only: Counter's steps have no source there
        if (layout !== 'solc' || !['deployCounter', 'counterHit'].includes(name)) expect(known).toBeGreaterThan(0);
        if (known > 0) expect(mapped).toBeGreaterThan(0);
      }, SLOW);
    }
  }
});

describe('debug --json: a failure lands on the user\'s line, with its call stack', () => {
  for (const [layout, abi] of LAYOUTS) {
    for (const [name, tx] of Object.entries(TXS).filter(([, t]) => t.fails !== undefined)) {
      test(`${layout}: ${name}`, async () => {
        const doc = await steps(name, abi);
        expect(doc.revert).not.toBeNull();
        const at = doc.steps[doc.revert!]!;
        expect({ file: at.source?.file, line: at.source?.line, functions: at.functions }).toEqual({ file: tx.fails!.file, line: tx.fails!.line, functions: tx.fails!.internalStack });
      }, SLOW);
    }
  }
});

describe('debug --json --values: the arguments of each frame where it fails', () => {
  const innermost = async (tx: string, abi: string): Promise<{ function: string; args: Record<string, string> | null }[]> => {
    const doc = (await steps(tx, abi, ['--values'])) as Doc & { steps: (Step & { frames: { function: string; args: Record<string, string> | null }[] })[] };
    return doc.steps[doc.revert!]!.frames;
  };
  for (const [layout, abi] of LAYOUTS) {
    test(`${layout}: the custom error's required amount is _debit's argument; mulDiv's are the amount, the fee in bps and 10,000`, async () => {
      const debit = await innermost('withdrawInsufficient', abi);
      expect(debit.map((f) => f.function)).toEqual(['Vault.withdraw', 'Vault._debit']);
      // Insufficient(500000000000000000, 922500000000000000): amount plus its 2.5% fee
      expect(debit[0]!.args).toEqual({ amount: '900000000000000000' });
      expect(debit[1]!.args).toEqual({ user: CONTRACTS_USER2, amount: '922500000000000000' });
      const overflow = await innermost('withdrawOverflow', abi);
      expect(overflow.map((f) => f.function)).toEqual(['Vault.withdraw', 'Vault._checkLimit', 'Vault._fee', 'Math.mulDiv']);
      const amount = overflow[0]!.args!['amount']!;
      expect(overflow.slice(1).map((f) => f.args)).toEqual([{ amount }, { amount }, { a: amount, b: '250', denominator: '10000' }]);
    }, SLOW);
  }
});

describe('debug --json: selections', () => {
  test('--from/--to keep the step numbers of the whole run; --only-lines keeps the first step of each line', async () => {
    const all = await steps('withdraw', join(DIR, 'foundry/out'));
    const some = await steps('withdraw', join(DIR, 'foundry/out'), ['--from', '100', '--to', '109']);
    expect(some.steps).toEqual(all.steps.slice(100, 110));
    const lines = await steps('withdraw', join(DIR, 'foundry/out'), ['--only-lines']);
    const key = (s: Step): string => `${s.depth}:${s.source?.file}:${s.source?.line}`;
    const firsts = all.steps.filter((s, i) => s.source !== undefined && key(s) !== key(all.steps.slice(0, i).findLast((p) => p.source !== undefined) ?? ({} as Step)));
    expect(lines.steps).toEqual(firsts);
    // withdraw → _checkLimit → _fee → Math.mulDiv, each on its own line
    expect(lines.steps.map((s) => s.functions!.join(' › '))).toContain('Vault.withdraw › Vault._checkLimit › Vault._fee › Math.mulDiv');
  }, SLOW);

  test('a linked library reached by DELEGATECALL is named from its methodIdentifiers (its ABI leaves the function out)', async () => {
    for (const [, abi] of LAYOUTS) {
      const doc = await steps('deposit', abi, ['--only-lines']);
      const inLibrary = doc.steps.filter((s) => s.depth === 2);
      expect(inLibrary.length).toBeGreaterThan(0);
      expect(inLibrary.every((s) => s.address === '0x5fbdb2315678afecb367f032d93f642f64180aa3' && s.source?.file === 'src/Ledger.sol')).toBe(true);
      expect(inLibrary.some((s) => s.functions!.join(' › ') === 'Vault.deposit › Ledger.record')).toBe(true);
    }
  }, SLOW);

  test('a contract created by another runs its constructor at the Receipt source', async () => {
    const doc = await steps('openReceipt', join(DIR, 'foundry/out'));
    const inner = doc.steps.filter((s) => s.depth === 2);
    expect(inner.length).toBeGreaterThan(0);
    expect(inner.every((s) => s.functions?.[0] === 'Vault.openReceipt' && s.functions[1] === 'Receipt.constructor')).toBe(true);
    expect(new Set(inner.filter((s) => s.source).map((s) => s.source!.file))).toEqual(new Set(['src/Receipt.sol']));
  }, SLOW);

  test('the 0.8.24 contract maps through its own build in the same out/', async () => {
    const doc = await steps('poke', join(DIR, 'foundry/out'));
    expect(new Set(doc.steps.filter((s) => s.source).map((s) => s.source!.file))).toEqual(new Set(['src/Vault.sol', 'src/Counter.sol']));
    expect(doc.unmapped).toEqual([]);
  }, SLOW);
});

describe('debug --upstream: the same steps from a live node', () => {
  test('beside a node (a blocktrace server of the same chain, over HTTP on 127.0.0.1), every step as from the fixture', async () => {
    const port = await freePort();
    const server = Bun.spawn([BUN, CLI, 'serve', FIXTURE, '--port', String(port), '--no-cache'], { cwd: ROOT, stdout: 'ignore', stderr: 'pipe' });
    try {
      const url = `http://127.0.0.1:${port}/`;
      const end = Date.now() + 30_000;
      for (;;) {
        const up = await fetch(url, { method: 'POST', body: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}', headers: { 'content-type': 'application/json' } }).then((r) => r.ok, () => false);
        if (up) break;
        if (Date.now() > end) throw new Error('the server did not start');
        await Bun.sleep(100);
      }
      const { code, stdout } = await debug(['--upstream', url, TXS['withdrawOverflow']!.hash, '--abi', join(DIR, 'foundry/out'), '--json']);
      expect(code).toBe(0);
      expect(JSON.parse(stdout)).toEqual(await steps('withdrawOverflow', join(DIR, 'foundry/out')));
    } finally {
      server.kill();
      await server.exited;
    }
  }, SLOW);
});

describe('debug: bad input, one line each', () => {
  test('a transaction not on the chain: exit 2', async () => {
    const { code, stdout, stderr } = await debug([FIXTURE, `0x${'ab'.repeat(32)}`, '--json']);
    expect({ code, stdout, stderr }).toEqual({ code: 2, stdout: '', stderr: `blocktrace: transaction 0x${'ab'.repeat(32)} is not on the chain\n` });
  }, SLOW);

  test('not a transaction hash, an --abi that is not there: usage and exit 2', async () => {
    expect((await debug([FIXTURE, '12', '--json'])).code).toBe(2);
    const missing = await debug([FIXTURE, TXS['withdraw']!.hash, '--abi', join(DIR, 'nothing-here'), '--json']);
    expect({ code: missing.code, stderr: missing.stderr }).toEqual({ code: 2, stderr: `blocktrace: cannot read --abi ${join(DIR, 'nothing-here')}: ENOENT\n` });
  }, SLOW);

  test('artifacts that match nothing: every step at opcode level, a note per contract', async () => {
    const { code, stdout, stderr } = await debug([FIXTURE, TXS['poke']!.hash, '--abi', join(ROOT, 'golden/fixtures/cancun-devnet/out'), '--json']);
    expect(code).toBe(0);
    const doc = JSON.parse(stdout) as Doc;
    expect(doc.steps.some((s) => s.source !== undefined)).toBe(false);
    expect(doc.unmapped).toEqual([
      '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512: no artifact matches this code',
      '0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0: no artifact matches this code',
    ]);
    expect(stderr.split('\n').filter((l) => l !== '')).toEqual([
      `blocktrace: no compiler output with source maps under ${join(ROOT, 'golden/fixtures/cancun-devnet/out')} (Foundry out/, Hardhat artifacts/ with build-info/, solc standard JSON): steps stay at opcode level`,
      ...doc.unmapped.map((n) => `blocktrace: no source for ${n}`),
    ]);
  }, SLOW);

  test('a source file missing and a corrupt source map: those contracts say why, the others still map', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'blocktrace-debugger-'));
    try {
      // Foundry artifacts without build-info and without the project's sources beside them...
      cpSync(join(DIR, 'foundry/out-no-build-info'), join(dir, 'out'), { recursive: true });
      rmSync(join(dir, 'out/build-info'), { recursive: true, force: true });
      // ...but Counter's source is there; Vault's map is cut short
      cpSync(join(DIR, 'src/Counter.sol'), join(dir, 'src/Counter.sol'));
      const vault = join(dir, 'out/Vault.sol/Vault.json');
      const artifact = JSON.parse(readFileSync(vault, 'utf8'));
      artifact.deployedBytecode.sourceMap = `${artifact.deployedBytecode.sourceMap.slice(0, 40)};x:y`;
      writeFileSync(vault, JSON.stringify(artifact));
      const { code, stdout } = await debug([FIXTURE, TXS['poke']!.hash, '--abi', join(dir, 'out'), '--json']);
      expect(code).toBe(0);
      const doc = JSON.parse(stdout) as Doc;
      expect(doc.unmapped).toHaveLength(1);
      expect(doc.unmapped[0]).toStartWith("0xe7f1725e7734ce288f8367e1bb143e90bb3f0512: Vault's source map cannot be read: source map entry");
      expect(new Set(doc.steps.filter((s) => s.source).map((s) => s.source!.file))).toEqual(new Set(['src/Counter.sol']));

      rmSync(join(dir, 'src/Counter.sol'));
      const without = JSON.parse((await debug([FIXTURE, TXS['counterHit']!.hash, '--abi', join(dir, 'out'), '--json'])).stdout) as Doc;
      expect(without.unmapped).toEqual([expect.stringMatching(/^0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0: no source file of Counter \(src\/Counter\.sol\) was found beside /)]);
      expect(without.steps.some((s) => s.source !== undefined)).toBe(false);
      expect(without.steps.some((s) => s.functions?.[0] === 'Counter.hit')).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, SLOW);
});

describe('show names a contract linked to a library (the same code match as the debugger\'s)', () => {
  test('Vault, whose code holds Ledger\'s address where its artifact has a placeholder', async () => {
    const proc = Bun.spawn([BUN, CLI, 'show', FIXTURE, TXS['deposit']!.hash, '--abi', join(DIR, 'foundry/out')], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
    const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(code).toBe(0);
    expect(stdout.split('\n')[1]).toBe('[94269] Vault::deposit{value: 2 ETH}()');
  }, SLOW);
});

test('w walks the writes of a deposit: the mapping entry, then the struct members the library writes through its storage pointer, each named with old and new values', async () => {
  const { serveFixture } = await import('./helpers/browser.ts');
  const served = await serveFixture(FIXTURE, ['--abi', join(DIR, 'foundry/out'), '--no-cache']);
  try {
    const rpc = async (params: unknown[]): Promise<{ step: number; op: string; contract: string | null; storage: { name: string | null; before: string; after: string | null } | null }> => {
      const res = await fetch(`${served.url}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'blocktrace_debugStep', params }) });
      return ((await res.json()) as { result: never }).result;
    };
    const hash = TXS['deposit2']!.hash;
    const writes: string[] = [];
    let at = await rpc([hash, 0]);
    for (let i = 0; i < 10; i++) {
      const next = await rpc([hash, at.step, { move: 'nextWrite' }]);
      if (next.step === at.step) break;
      at = next;
      expect(at.op).toBe('SSTORE');
      writes.push(`${at.contract}: ${at.storage!.name} ${BigInt(at.storage!.before)} → ${BigInt(at.storage!.after!)}`);
    }
    // deposit2 is the second deposit (0.5 ether): the book already counts the first one (1 entry, 2 ether)
    const user2 = SCENARIO.accounts['user2']!.toLowerCase();
    expect(writes).toEqual([
      `Vault: balances[${user2}] 0 → 500000000000000000`,
      'Ledger: book.entries 1 → 2',
      'Ledger: book.volume 2000000000000000000 → 2500000000000000000',
    ]);
  } finally {
    await served.stop();
  }
}, SLOW);
