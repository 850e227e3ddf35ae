// The debugger's terminal UI as a person uses it: `blocktrace debug` runs in a real terminal (tmux,
// Debian's package; .ci/run installs it), keys are typed with send-keys and the screen read with
// capture-pane. On the scenario's require failing inside an internal function (golden/debugger):
// jump to the revert, the line and the call stack; step back; run to a line and step over a call;
// jump to a step number; q ends it with status 0.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUN, CLI, ROOT } from './faces.ts';

const DIR = join(ROOT, 'golden/debugger');
const TXS = JSON.parse(readFileSync(join(DIR, 'transactions.json'), 'utf8')) as Record<string, { hash: string }>;
const SESSION = `blocktrace-debug-${process.pid}`;
const work = mkdtempSync(join(tmpdir(), 'blocktrace-tui-'));
const status = join(work, 'status');

const tmux = (...args: string[]): string => {
  const run = Bun.spawnSync(['tmux', ...args], { stdout: 'pipe', stderr: 'pipe' });
  if (run.exitCode !== 0) throw new Error(`tmux ${args[0]}: ${new TextDecoder().decode(run.stderr).trim()}`);
  return new TextDecoder().decode(run.stdout);
};
const screen = (): string => tmux('capture-pane', '-p', '-t', SESSION);

/** Waits until the screen shows `text` (a string or pattern); the screen, or a failure naming what it shows. */
async function until(text: string | RegExp, ms = 30_000): Promise<string> {
  const end = Date.now() + ms;
  let last = '';
  while (Date.now() < end) {
    last = screen();
    if (typeof text === 'string' ? last.includes(text) : text.test(last)) return last;
    await Bun.sleep(100);
  }
  throw new Error(`the screen never showed ${text}; it shows:\n${last}`);
}

const keys = (...k: string[]): void => {
  tmux('send-keys', '-t', SESSION, ...k);
};

beforeAll(() => {
  // the terminal UI reads a real terminal: the command runs in tmux's, in the foreground (timeout --foreground keeps it there)
  const command = `${BUN} ${CLI} debug ${join(DIR, 'fixture.json')} ${TXS['withdrawOverLimit']!.hash} --abi ${join(DIR, 'foundry/out')}; echo $? > ${status}; sleep 60`;
  tmux('new-session', '-d', '-s', SESSION, '-x', '110', '-y', '40', `timeout --foreground 120 sh -c '${command}'`);
});

afterAll(() => {
  try {
    tmux('kill-session', '-t', SESSION);
  } catch {}
  rmSync(work, { recursive: true, force: true });
});

describe('debug in a terminal', () => {
  test('revert, step back, run to a line, step over, jump to a step, quit', async () => {
    await until('step 0/507');
    expect(screen()).toContain('Vault.withdraw');

    keys('r');
    let shown = await until('step 507/507');
    expect(shown).toContain('src/Vault.sol:91:9');
    expect(shown).toMatch(/> *91 │ +require\(amount \+ fee <= limit, "Vault: over limit"\);/);
    expect(shown).toContain('Vault.withdraw › Vault._checkLimit');
    // the revert's memory (once the window of steps around it has run again): Error(string)'s selector, read by REVERT
    await until('r 0x0080  08c379a0');

    keys('k');
    shown = await until('step 506/507');
    expect(shown).toContain('Vault.withdraw › Vault._checkLimit');

    // from the start, run to line 90 (fee = _fee(amount)), then step over _fee to line 91
    keys('g', '@', '9', '0', 'Enter');
    shown = await until(/> *90 │ +fee = _fee\(amount\);/);
    expect(shown).toContain('Vault.withdraw › Vault._checkLimit');
    const at = Number(/step (\d+)\/507/.exec(shown)![1]);
    keys('o');
    shown = await until(/> *91 │ +require/);
    expect(shown).toContain('Vault.withdraw › Vault._checkLimit\n');
    expect(Number(/step (\d+)\/507/.exec(shown)![1])).toBeGreaterThan(at);

    // into _fee with n (the next line, entering calls), then out with u
    keys('g', '@', '9', '0', 'Enter');
    await until(/> *90 │ +fee = _fee\(amount\);/);
    keys('n');
    shown = await until('Vault.withdraw › Vault._checkLimit › Vault._fee');
    keys('u');
    shown = await until(/> *9[01] │/);
    expect(shown).not.toContain('Vault._fee');

    keys(':', '1', '2', '0', 'Enter');
    await until('step 120/507');

    keys('q');
    const end = Date.now() + 10_000;
    while (Date.now() < end && (await Bun.file(status).exists()) === false) await Bun.sleep(100);
    expect(readFileSync(status, 'utf8').trim()).toBe('0');
  }, 90_000);
});
