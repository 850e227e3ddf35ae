// Impersonation as a user drives it (issue 39), through real clients and `blocktrace serve --upstream`
// beside a real anvil: `cast send --unlocked --from` an impersonated account, sent through blocktrace
// (forwarded to the node), then the block's traces asked by `cast rpc` and viem: they name the node's
// sender and hash, and are upstream mode's bytes as the harness face gives them.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import { createPublicClient, http } from 'viem';
import { startBlocktrace, type Server } from '../bench/blocktrace.ts';
import { ROOT, runHarness } from './faces.ts';
import { rpc } from './helpers/anvil.ts';
import { type DevNode, startDevAnvil } from './helpers/devNodes.ts';

const SLOW = 120_000;
const CAST = join(ROOT, 'node_modules/@foundry-rs/cast-linux-amd64/bin/cast');
/** An account no key of the node signs for. */
const WHALE = '0x1111111111111111111111111111111111111111';
const TO = '0x000000000000000000000000000000000000c0de';

let node: DevNode;
let bt: Server;
let hash = '';
beforeAll(async () => {
  node = await startDevAnvil();
  bt = await startBlocktrace([process.execPath, 'src/cli.ts'], '', ROOT, 'blocktrace-upstream', ['--upstream', node.url]);
  await rpc(node.url, 'anvil_impersonateAccount', [WHALE]);
  await rpc(node.url, 'anvil_setBalance', [WHALE, '0x56bc75e2d63100000']);
  const send = Bun.spawn([CAST, 'send', '--async', '--unlocked', '--from', WHALE, '--rpc-url', bt.url, TO, '--value', '12345'], { stdout: 'pipe', stderr: 'pipe' });
  const [out, err, code] = await Promise.all([new Response(send.stdout).text(), new Response(send.stderr).text(), send.exited]);
  if (code !== 0) throw new Error(`cast send --unlocked: ${err}`);
  hash = out.trim();
  await rpc(node.url, 'evm_mine');
}, SLOW);
afterAll(async () => {
  await bt?.child.stop();
  await node?.stop();
});

test('cast rpc debug_traceTransaction (callTracer) through blocktrace: the impersonated sender, upstream mode\'s bytes', async () => {
  expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
  const config = '{"tracer":"callTracer"}';
  const proc = Bun.spawn([CAST, 'rpc', '--rpc-url', bt.url, 'debug_traceTransaction', hash, config], { stdout: 'pipe', stderr: 'pipe' });
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  expect(code).toBe(0);
  const frame = JSON.parse(out) as { from: string; to: string; value: string; type: string };
  expect(frame).toMatchObject({ type: 'CALL', from: WHALE, to: TO, value: '0x3039' });
  const harness = await runHarness(['--upstream', node.url], JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'debug_traceTransaction', params: [hash, JSON.parse(config)] }));
  expect(JSON.parse(harness.stdout).result).toEqual(frame);
}, SLOW);

test('viem: trace_block names the node\'s hash and sender; the receipt (forwarded) agrees', async () => {
  const client = createPublicClient({ transport: http(bt.url) });
  const receipt = await client.getTransactionReceipt({ hash: hash as `0x${string}` });
  expect(receipt.from).toBe(WHALE);
  const traces = (await client.request({ method: 'trace_block' as never, params: [`0x${receipt.blockNumber.toString(16)}`] as never })) as { transactionHash: string; action: { from: string; value: string } }[];
  expect(traces).toHaveLength(1);
  expect(traces[0]).toMatchObject({ transactionHash: hash, action: { from: WHALE, value: '0x3039' } });
}, SLOW);
