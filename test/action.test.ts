// The GitHub Action (action.yml, issue 36), run as the runner runs a composite action: each step's
// `run` in bash, its `env` with `${{ inputs.* }}` put in (the inputs given, else their defaults), and
// GITHUB_ACTION_PATH, GITHUB_WORKSPACE, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and RUNNER_TEMP set. It
// installs blocktrace from the action's own checkout (this one) and runs check in the workspace.
import { afterAll, expect, test } from 'bun:test';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './faces.ts';

const SLOW = 120_000;
const work = mkdtempSync(join(tmpdir(), 'blocktrace-action-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Action {
  inputs: Record<string, { required?: boolean; default?: string }>;
  runs: { using: string; steps: { id?: string; shell: string; run: string; env?: Record<string, string> }[] };
}
const action = Bun.YAML.parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action;

/** Runs the action's steps with `inputs` in a workspace; the exit status and what the runner would keep. */
async function runAction(workspace: string, inputs: Record<string, string>) {
  for (const [name, spec] of Object.entries(action.inputs)) if (spec.required === true && inputs[name] === undefined) throw new Error(`input ${name} is required`);
  const value = (name: string): string => inputs[name] ?? action.inputs[name]?.default ?? '';
  const files = { output: join(workspace, '.github-output'), summary: join(workspace, '.github-summary') };
  for (const f of Object.values(files)) writeFileSync(f, '');
  let stdout = '';
  let code = 0;
  for (const step of action.runs.steps) {
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      GITHUB_ACTION_PATH: ROOT, GITHUB_WORKSPACE: workspace, GITHUB_OUTPUT: files.output, GITHUB_STEP_SUMMARY: files.summary, RUNNER_TEMP: work,
    };
    for (const [key, template] of Object.entries(step.env ?? {})) env[key] = template.replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_m, name: string) => value(name));
    const proc = Bun.spawn([step.shell, '-c', step.run], { cwd: workspace, env, stdout: 'pipe', stderr: 'inherit' });
    stdout += await new Response(proc.stdout).text();
    code = await proc.exited;
    if (code !== 0) break;
  }
  return { code, stdout, output: readFileSync(files.output, 'utf8'), summary: readFileSync(files.summary, 'utf8') };
}

test('a composite action whose one step runs scripts/action.sh with the inputs', () => {
  expect(action.runs.using).toBe('composite');
  expect(Object.keys(action.inputs)).toEqual(['fixture', 'goldens', 'args', 'reporter', 'binary-url']);
});

test('goldens that pass: exit 0, the summary as the step output and in the job summary', async () => {
  const workspace = mkdtempSync(join(work, 'pass-'));
  cpSync(join(ROOT, 'golden/fixtures/prague-devnet'), join(workspace, 'chain'), { recursive: true });
  cpSync(join(ROOT, 'golden/anvil/prague-devnet'), join(workspace, 'goldens'), { recursive: true });
  const run = await runAction(workspace, { fixture: 'chain/fixture.json', goldens: 'goldens' });
  expect(run.code).toBe(0);
  expect(run.stdout).toBe('8 passed, 0 failed\n');
  expect(run.output).toBe('summary=8 passed, 0 failed\n');
  expect(run.summary).toBe('**blocktrace check**: 8 passed, 0 failed\n');
}, SLOW);

test('a golden that differs: exit 1, an ::error annotation on its file (relative to the workspace), extra args passed on', async () => {
  const workspace = mkdtempSync(join(work, 'fail-'));
  cpSync(join(ROOT, 'golden/fixtures/prague-devnet'), join(workspace, 'chain'), { recursive: true });
  cpSync(join(ROOT, 'golden/anvil/prague-devnet'), join(workspace, 'goldens'), { recursive: true });
  const file = join(workspace, 'goldens/block-0x1.trace_block.response.json');
  writeFileSync(file, readFileSync(file, 'utf8').replace('"blockNumber":1', '"blockNumber":9'));
  const run = await runAction(workspace, { fixture: 'chain/fixture.json', goldens: 'goldens goldens', args: '--filter block-0x1 --no-cache' });
  expect(run.code).toBe(1);
  const errors = run.stdout.split('\n').filter((l) => l.startsWith('::error '));
  expect(errors).toHaveLength(2);
  expect(errors[0]).toStartWith('::error file=goldens/block-0x1.trace_block.response.json,title=check%3A block-0x1.trace_block::');
  expect(run.output).toBe('summary=0 passed, 2 failed\n');
}, SLOW);
