// The same transactions on other hardforks: the prague-devnet chain's raw transactions mined by a
// real anvil told to run Shanghai or Osaka rules (genesis config to match), then every block's
// trace_block through upstream mode, byte for byte against anvil's own answer. Shanghai exercises
// Cancun opcodes that are not active yet (MCOPY: revm's NotActivated) and pre-EIP-6780
// SELFDESTRUCT deleting a contract that later transactions call again.
import { describe, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ANVIL, freePort, rpc, waitForRpc } from './helpers/anvil.ts';

const ROOT = join(import.meta.dir, '..');
const FIXTURE = join(ROOT, 'golden/fixtures/prague-devnet/fixture.json');
const SYSTEM_CONTRACTS = ['0x0000f90827f1c53a10cb7a02335b175320002935', '0x00000961ef480eb55e80d19ad83579a64c007002', '0x0000bbddc7ce488642fb579f8b00f3a590007251'];

function genesisFor(fork: 'shanghai' | 'osaka', genesis: Record<string, any>): Record<string, any> {
  const config = genesis['config'];
  if (fork === 'osaka') {
    config.osakaTime = 0;
    config.blobSchedule.osaka = { target: 6, max: 9, baseFeeUpdateFraction: 5007716 };
    return genesis;
  }
  delete config.pragueTime;
  delete config.cancunTime;
  delete config.blobSchedule;
  delete genesis['excessBlobGas'];
  delete genesis['blobGasUsed'];
  for (const a of SYSTEM_CONTRACTS) delete genesis['alloc'][a];
  return genesis;
}

describe('other hardforks against a real anvil', () => {
  for (const fork of ['shanghai', 'osaka'] as const) {
    test(`${fork}: trace_block of every block equals anvil's`, async () => {
      const fixture = JSON.parse(readFileSync(FIXTURE, 'utf8'));
      const dir = mkdtempSync(join(tmpdir(), `blocktrace-${fork}-`));
      const genesisPath = join(dir, 'genesis.json');
      writeFileSync(genesisPath, JSON.stringify(genesisFor(fork, fixture.genesis)));
      const port = await freePort();
      const args = (fixture.anvil.args as string[]).slice();
      args[args.indexOf('--init') + 1] = genesisPath;
      args[args.indexOf('--port') + 1] = String(port);
      args[args.indexOf('--hardfork') + 1] = fork;
      const anvil = Bun.spawn([ANVIL, ...args], { stdin: 'ignore', stdout: 'ignore', stderr: 'ignore' });
      const url = `http://127.0.0.1:${port}`;
      try {
        await waitForRpc(url, () => anvil.exitCode !== null);
        for (const entry of fixture.blocks as { block: { timestamp: string }; rawTransactions: string[] }[]) {
          await rpc(url, 'evm_setNextBlockTimestamp', [Number(BigInt(entry.block.timestamp))]);
          for (const raw of entry.rawTransactions) await rpc(url, 'eth_sendRawTransaction', [raw]);
          await rpc(url, 'evm_mine');
        }
        const requests = fixture.blocks.map((_: unknown, i: number) => `{"jsonrpc":"2.0","id":1,"method":"trace_block","params":["0x${(i + 1).toString(16)}"]}`);
        const ours = Bun.spawn([process.execPath, join(ROOT, 'src/cli.ts'), '--genesis', genesisPath, '--upstream', url, ...requests], { stdout: 'pipe', stderr: 'pipe' });
        const lines = (await new Response(ours.stdout).text()).split('\n');
        expect(await new Response(ours.stderr).text()).toBe('');
        expect(await ours.exited).toBe(0);
        let notActivated = 0;
        for (const [i, request] of requests.entries()) {
          const theirs = await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: request })).text();
          expect(lines[i]).toBe(theirs);
          notActivated += theirs.split('"NotActivated"').length - 1;
        }
        if (fork === 'shanghai') expect(notActivated).toBeGreaterThan(0);
      } finally {
        anvil.kill('SIGKILL');
        await anvil.exited;
      }
    }, 120_000);
  }
});
