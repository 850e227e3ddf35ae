// The GitHub Action (action.yml, issue 47), run as a runner runs a JavaScript action: the runner's
// Node runs `runs.main` from the action's checkout, a fresh clone here (no node_modules; nothing is
// installed), with INPUT_* set from the inputs given (else their defaults), GITHUB_WORKSPACE,
// GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and RUNNER_TEMP, and no Bun on PATH.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT } from './faces.ts';

const SLOW = 120_000;
const work = mkdtempSync(join(tmpdir(), 'blocktrace-action-'));
afterAll(() => rmSync(work, { recursive: true, force: true }), 60_000);
const checkout = join(work, 'action');
/** Node's own directory (the runner's Node) and the system's (git): nothing of the checkout, no Bun. */
const PATH = `${dirname(Bun.which('node')!)}:/usr/bin:/bin`;

interface Action {
  inputs: Record<string, { required?: boolean; default?: string }>;
  outputs: Record<string, unknown>;
  runs: { using: string; main: string };
}
const action = Bun.YAML.parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action;

/** Runs the action with `inputs` in a workspace: its exit status, its log, and what the runner keeps. */
async function runAction(workspace: string, inputs: Record<string, string>) {
  for (const [name, spec] of Object.entries(action.inputs)) if (spec.required === true && inputs[name] === undefined) throw new Error(`input ${name} is required`);
  const runner = mkdtempSync(join(work, 'runner-'));
  const files = { output: join(runner, 'output'), summary: join(runner, 'step-summary') };
  for (const f of Object.values(files)) writeFileSync(f, '');
  const env: Record<string, string> = {
    PATH, HOME: work, XDG_CACHE_HOME: join(work, 'cache'),
    GITHUB_ACTIONS: 'true', GITHUB_ACTION_PATH: checkout, GITHUB_WORKSPACE: workspace, GITHUB_OUTPUT: files.output, GITHUB_STEP_SUMMARY: files.summary, RUNNER_TEMP: join(work, 'runner-temp'),
  };
  for (const [name, spec] of Object.entries(action.inputs)) env[`INPUT_${name.toUpperCase()}`] = inputs[name] ?? spec.default ?? '';
  const proc = Bun.spawn(['node', join(checkout, action.runs.main)], { cwd: workspace, env, stdout: 'pipe', stderr: 'pipe' });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr, output: readFileSync(files.output, 'utf8'), summary: readFileSync(files.summary, 'utf8') };
}

const REQUESTS = [
  '{"jsonrpc":"2.0","id":1,"method":"trace_block","params":["0x2"]}',
  '{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["0x3",false]}',
];
/** A workspace: the chain, and pretty goldens that `record` wrote from it. */
const base = join(work, 'base');

beforeAll(async () => {
  const clone = Bun.spawnSync(['git', 'clone', '-q', '--depth', '1', `file://${ROOT}`, checkout]);
  expect(clone.exitCode).toBe(0);
  Bun.spawnSync(['mkdir', '-p', join(base, 'chain'), join(work, 'runner-temp')]);
  cpSync(join(ROOT, 'golden/fixtures/prague-devnet/fixture.json'), join(base, 'chain/fixture.json'));
  writeFileSync(join(base, 'requests.txt'), `${REQUESTS.join('\n')}\n`);
  const record = Bun.spawnSync(['node', join(checkout, 'dist/blocktrace.mjs'), 'record', 'chain/fixture.json', 'requests.txt', '--out', 'goldens'], { cwd: base, env: { PATH, HOME: work, XDG_CACHE_HOME: join(work, 'cache') } });
  expect(record.exitCode).toBe(0);
}, SLOW);

function workspace(name: string): string {
  const dir = join(work, name);
  cpSync(base, dir, { recursive: true });
  return dir;
}

const BLOCK = 'goldens/0x3.eth_getBlockByNumber.response.json';
/** Changes the golden's `gasUsed` and `hash` (whose line it returns, from 1) of block 0x3. */
function breakBlock(dir: string): number {
  const file = join(dir, BLOCK);
  const lines = readFileSync(file, 'utf8').split('\n');
  const gas = lines.findIndex((l) => l.includes('"gasUsed"'));
  lines[gas] = lines[gas]!.replace(/"0x[0-9a-f]+"/, '"0x1"');
  const hash = lines.findIndex((l) => l.includes('"hash"'));
  lines[hash] = lines[hash]!.replace(/"0x[0-9a-f]+"/, `"0x${'ab'.repeat(32)}"`);
  writeFileSync(file, lines.join('\n'));
  return gas + 1;
}

test('a JavaScript action whose entry and bundle are in its checkout; no install step, no download', () => {
  expect(action.runs.using).toBe('node24');
  expect(Object.keys(action.inputs)).toEqual(['fixture', 'goldens', 'args', 'reporter']);
  expect(existsSync(join(checkout, action.runs.main))).toBe(true);
  expect(existsSync(join(checkout, 'dist/blocktrace.mjs'))).toBe(true);
  expect(existsSync(join(checkout, 'node_modules'))).toBe(false);
  expect(readFileSync(join(ROOT, 'scripts/action.mjs'), 'utf8')).not.toMatch(/npm|curl|fetch\(|https?:\/\//);
});

test('goldens that pass: exit 0, the summary as the output, the job summary in Markdown', async () => {
  const run = await runAction(workspace('pass'), { fixture: 'chain/fixture.json', goldens: 'goldens' });
  expect(run.code).toBe(0);
  expect(run.stdout).toBe('2 passed, 0 failed\n');
  expect(run.output).toBe('summary=2 passed, 0 failed\n');
  expect(run.summary).toStartWith('### blocktrace check: 2 passed, 0 failed\n');
  // the action's own report files are not mentioned in the log
  expect(run.stderr).toBe('');
}, SLOW);

describe('a golden that differs', () => {
  test("args as a shell splits them: a quoted --ignore path drops the hash; the annotation is on the file and line of gasUsed", async () => {
    const dir = workspace('fail');
    const line = breakBlock(dir);
    const run = await runAction(dir, { fixture: 'chain/fixture.json', goldens: 'goldens', args: `--ignore '$.result.hash' --no-cache\n  --filter "eth_getBlockByNumber"` });
    expect(run.code).toBe(1);
    const errors = run.stdout.split('\n').filter((l) => l.startsWith('::error '));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toStartWith(`::error file=${BLOCK},line=${line},title=check%3A 0x3.eth_getBlockByNumber::`);
    expect(errors[0]).toContain('gasUsed');
    expect(errors[0]).not.toContain('$.result.hash');
    expect(run.output).toBe('summary=0 passed, 1 failed\n');
    // the job summary: the counts, the failing case with its file and line, its first difference
    expect(run.summary).toStartWith('### blocktrace check: 0 passed, 1 failed\n');
    expect(run.summary).toContain(`#### \`0x3.eth_getBlockByNumber\`\n\`${BLOCK}\` line ${line}: 1 difference\n`);
    expect(run.summary).toContain('at $.result.gasUsed');
  }, SLOW);

  test('every reporter: the log in its format, the summary output the same', async () => {
    const dir = workspace('reporters');
    breakBlock(dir);
    for (const reporter of ['text', 'json', 'junit', 'github']) {
      const run = await runAction(dir, { fixture: 'chain/fixture.json', goldens: 'goldens', reporter });
      expect(run.code).toBe(1);
      expect(run.output).toBe('summary=1 passed, 1 failed\n');
      expect(run.summary).toStartWith('### blocktrace check: 1 passed, 1 failed\n');
      if (reporter === 'junit') expect(run.stdout).toEndWith('</testsuites>\n');
      if (reporter === 'json') expect((JSON.parse(run.stdout) as { failed: number }).failed).toBe(1);
      expect(run.stdout.includes('::error ')).toBe(reporter === 'github');
    }
  }, SLOW);
});

describe('a check that cannot run: an ::error annotation, and the output and job summary say why (exit 2)', () => {
  test('a wrong fixture path', async () => {
    const run = await runAction(workspace('nofixture'), { fixture: 'chain/missing.json', goldens: 'goldens' });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('::error title=blocktrace check::chain/missing.json: no such file or directory\n');
    expect(run.output).toBe('summary=error: chain/missing.json: no such file or directory\n');
    expect(run.summary).toBe('### blocktrace check could not run\n\nchain/missing.json: no such file or directory\n\n');
  }, SLOW);

  test('an unterminated quote in args; an unknown option', async () => {
    const quote = await runAction(workspace('quote'), { fixture: 'chain/fixture.json', goldens: 'goldens', args: "--ignore '$.result" });
    expect(quote.code).toBe(2);
    expect(quote.stdout).toStartWith("::error title=blocktrace check::the goldens or args input: unterminated ' in");
    const unknown = await runAction(workspace('unknown'), { fixture: 'chain/fixture.json', goldens: 'goldens', args: '--ignroe blockHash' });
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toStartWith('::error title=blocktrace check::check: unknown option --ignroe (did you mean --ignore?)');
    expect(unknown.output).toStartWith('summary=error: check: unknown option --ignroe (did you mean --ignore?)');
  }, SLOW);
});

test("the built-in chain needs no fixture in the workspace; nothing was written to the action's checkout", async () => {
  const dir = workspace('builtin');
  rmSync(join(dir, 'chain'), { recursive: true });
  const run = await runAction(dir, { fixture: 'builtin:prague-devnet', goldens: 'goldens' });
  expect([run.code, run.output]).toEqual([0, 'summary=2 passed, 0 failed\n']);
  const status = Bun.spawnSync(['git', 'status', '--porcelain', '--ignored'], { cwd: checkout });
  expect(status.stdout.toString()).toBe('');
  expect(readdirSync(join(work, 'runner-temp'))).toEqual([]);
}, SLOW);

describe("this repository's workflow (.github/workflows/traces.yml), shown in docs/ci.md", () => {
  interface Workflow {
    jobs: { check: { strategy: { matrix: { include: Record<string, string>[] } }; steps: { uses?: string; with?: Record<string, string> }[] } };
  }
  const text = readFileSync(join(ROOT, '.github/workflows/traces.yml'), 'utf8');
  const workflow = Bun.YAML.parse(text) as Workflow;

  test('docs/ci.md shows it as it is', () => {
    const shown = readFileSync(join(ROOT, 'docs/ci.md'), 'utf8');
    expect(shown).toContain(`\`\`\`yaml\n${text.replace(/^#.*\n/gm, '')}\`\`\``);
  });

  test.each(workflow.jobs.check.strategy.matrix.include)('runs the Action on %p of its own checkout: every golden passes', async (entry) => {
    const step = workflow.jobs.check.steps.find((s) => s.uses === './')!;
    const inputs = Object.fromEntries(Object.entries(step.with!).map(([k, v]) => [k, v.replace(/\$\{\{ matrix\.(\w+) \}\}/g, (_m, key: string) => entry[key]!)]));
    const run = await runAction(checkout, inputs);
    expect(run.code).toBe(0);
    expect(run.output).toMatch(/^summary=[1-9]\d* passed, 0 failed\n$/);
  }, SLOW);
});
