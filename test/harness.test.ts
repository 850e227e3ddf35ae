// The --replay-file contract: one stdout line per request, nothing else on stdout, exit 0 once
// the fixture loaded, exit 2 with one stderr line when it cannot be loaded.
import { describe, expect, test } from 'bun:test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PRAGUE, runHarness } from './faces.ts';

const CHAIN_ID = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}';
const CHAIN_ID_ANSWER = '{"jsonrpc":"2.0","id":1,"result":"0x6c5662"}';
const NOTIFICATION = '{"jsonrpc":"2.0","method":"eth_chainId","params":[]}';

describe('harness', () => {
  test('requests as arguments; a notification prints an empty line; blank arguments are skipped', async () => {
    const { code, stdout } = await runHarness(['--replay-file', PRAGUE, CHAIN_ID, '  ', NOTIFICATION, '--', 'nonsense']);
    expect(code).toBe(0);
    expect(stdout).toBe(`${CHAIN_ID_ANSWER}\n\n{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}\n`);
  });

  test('stdin: blank lines skipped, CRLF tolerated, answers in order', async () => {
    const { code, stdout } = await runHarness(['--replay-file', PRAGUE], `\n${CHAIN_ID}\r\n\n   \n${CHAIN_ID.replace('"id":1', '"id":2')}`);
    expect(code).toBe(0);
    expect(stdout).toBe(`${CHAIN_ID_ANSWER}\n${CHAIN_ID_ANSWER.replace('"id":1', '"id":2')}\n`);
  });

  test('missing fixture: exit 2, one stderr line, nothing on stdout', async () => {
    const { code, stdout, stderr } = await runHarness(['--replay-file', '/nonexistent/fixture.json'], CHAIN_ID);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toContain('/nonexistent/fixture.json');
  });

  test('unreadable fixture: exit 2, one stderr line, no stack trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'blocktrace-'));
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"not": "a fixture"');
    const { code, stdout, stderr } = await runHarness(['--replay-file', bad], CHAIN_ID);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).not.toContain('    at ');
  });

  test('options anywhere: after the fixture and between requests they are options, not requests', async () => {
    const batch = `[${CHAIN_ID},${CHAIN_ID.replace('"id":1', '"id":2')}]`;
    const { code, stdout } = await runHarness(['--replay-file', PRAGUE, '--max-batch', '1', batch, '--max-response=5', CHAIN_ID]);
    expect(code).toBe(0);
    expect(stdout).toBe('[{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"batch too large"}}]\n{"jsonrpc":"2.0","id":1,"error":{"code":-32003,"message":"response too large"}}\n');
  });

  test('an unknown option or a stray word among the requests is a usage error: exit 2, one line, nothing answered', async () => {
    for (const stray of ['--max-batchh', 'nonsense']) {
      const { code, stdout, stderr } = await runHarness(['--replay-file', PRAGUE, CHAIN_ID, stray]);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    }
  });

  test('--version prints the package version', async () => {
    const { code, stdout } = await runHarness(['--version']);
    expect(code).toBe(0);
    const { version } = JSON.parse(await Bun.file(`${import.meta.dir}/../package.json`).text()) as { version: string };
    expect(stdout).toBe(`blocktrace ${version}\n`);
  });

  test('--help documents both faces and exits 0', async () => {
    const { code, stdout } = await runHarness(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('--replay-file FIXTURE');
    expect(stdout).toContain('blocktrace serve');
  });

  test('a usage error exits 2 with one line', async () => {
    const { code, stderr } = await runHarness(['--bogus']);
    expect(code).toBe(2);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});
