// The viewer with Foundry artifacts that carry solc's storageLayout (test/helpers/solc.ts writes them
// as Foundry does with extra_output = ["storageLayout"]), on the vault scenario mined by a real anvil:
// `serve --abi` starts and GET /abi.json answers (a state variable's slot is a bigint inside, a
// decimal string on the wire); in headless Chromium a creation shows its constructor's arguments,
// and the state changes show storage words whole (a phone wraps them), named and decoded by type.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { chromiumMissing, launchChromium, type Served, serveFixture } from './helpers/browser.ts';
import { buildVaultChain, type VaultChain } from './helpers/vaultChain.ts';

const SLOW = 120_000;
const work = mkdtempSync(join(tmpdir(), 'blocktrace-viewer-abi-'));
let chain: VaultChain;
let served: Served;
beforeAll(async () => {
  mkdirSync(join(work, 'v1'));
  chain = await buildVaultChain({ fee: 250, deterministic: true, dir: join(work, 'v1') });
  served = await serveFixture(chain.fixture, ['--abi', chain.abiDir, '--no-cache']);
}, SLOW);
afterAll(async () => {
  await served?.stop();
  rmSync(work, { recursive: true, force: true });
}, SLOW);

/** A 32-byte storage word. */
const word = (n: bigint): string => `0x${n.toString(16).padStart(64, '0')}`;

test('serve --abi with storage layouts starts, and GET /abi.json is the artifacts as JSON, slots as decimal strings', async () => {
  const res = await fetch(`${served.url}/abi.json`);
  expect([res.status, res.headers.get('content-type')]).toEqual([200, 'application/json']);
  const artifacts = (await res.json()) as { name: string; storage?: { label: string; slot: string }[] }[];
  const vault = artifacts.find((a) => a.name === 'Vault')!;
  expect(vault.storage?.map((v) => [v.label, v.slot])).toEqual([['token', '0'], ['feeBps', '1'], ['feesCollected', '2'], ['deposits', '3']]);
}, SLOW);

const missing = chromiumMissing();
if (missing !== undefined) console.warn(`test/viewerArtifacts.test.ts: browser tests skipped: ${missing}`);

describe.skipIf(missing !== undefined)('in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, SLOW);
  afterAll(async () => {
    await browser?.close();
  }, SLOW);

  const open = async (path: string, width = 1280): Promise<Page> => {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await page.goto(`${served.url}${path}`);
    await page.waitForSelector('#tree summary');
    return page;
  };

  test('a creation shows its constructor\'s arguments: the deployment and a CREATE from a contract', async () => {
    const { token, vault, receipt, user1 } = chain.addresses;
    const deploy = await open(`/tx/${chain.txHashes.deployVault}`);
    expect(await deploy.textContent('#tree summary')).toContain(`new Vault@${vault.toLowerCase()}(token_: ${token}, feeBps_: 250)`);
    const account = await open(`/tx/${chain.txHashes.openAccount}`);
    expect(await account.textContent('#tree')).toContain(`new Receipt@${receipt.toLowerCase()}(holder_: ${user1}, amount_: 87500000000000000000)`);
  }, SLOW);

  test('state changes: storage words whole, named by the storage layout and decoded; at 375 px they wrap, nothing scrolls sideways', async () => {
    const user = chain.addresses.user1;
    for (const width of [1280, 375]) {
      const page = await open(`/tx/${chain.txHashes.withdraw}`, width);
      await page.waitForSelector('#diff table.diff');
      // user1's deposit: 97.5 tokens after the 2.5% fee on 100, less the 10 withdrawn
      const row = page.locator('#diff tr', { hasText: `deposits[${user}]` });
      expect(await row.count()).toBe(1);
      const [before, after] = [await row.locator('td[data-label="before"]').textContent(), await row.locator('td[data-label="after"]').textContent()];
      expect(before).toBe(`${word(97_500_000_000_000_000_000n)}= 97500000000000000000`);
      expect(after).toBe(`${word(87_500_000_000_000_000_000n)}= 87500000000000000000`);
      // the token's balances change too, named by its own layout
      expect(await page.locator('#diff tr', { hasText: `balanceOf[${user}]` }).count()).toBe(1);
      // no value cut short (addresses in the account column are, as links)
      const values = await page.locator('#diff td[data-label="before"], #diff td[data-label="after"]').allTextContents();
      expect(values.filter((v) => v.includes('…'))).toEqual([]);
      const scroll = await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth);
      expect(scroll).toBeLessThanOrEqual(width);
      await page.close();
    }
  }, SLOW);
});
