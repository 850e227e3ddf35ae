// Call objects as go-ethereum reads them, in every method that takes one: an EIP-7702
// authorizationList applied before the call, blob hashes that BLOBHASH sees, a chainId checked.
import { beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import { bytesToBigInt, bytesToHex, createAddressFromPrivateKey, eoaCode7702SignAuthorization, hexToBytes } from '@ethereumjs/util';
import { loadChain } from '../../src/replay/loadChain.ts';
import { createContext, type RpcContext } from '../../src/rpc/context.ts';
import { dispatch } from '../../src/rpc/dispatch.ts';

const EXAPI = join(import.meta.dir, '../../golden/execution-apis/tests');
/** PUSH0 BLOBHASH PUSH0 MSTORE PUSH1 32 PUSH0 RETURN: returns blobhash(0). */
const RETURN_BLOBHASH = '0x5f495f5260205ff3';
/** PUSH1 42 PUSH0 MSTORE PUSH1 32 PUSH0 RETURN: returns 42. */
const RETURN_42 = '0x602a5f5260205ff3';
const CONTRACT = '0xc200000000000000000000000000000000000000';
const KEY = hexToBytes('0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318');
const HASH = '0x010657f37554c781402a22917dee2f75def7ab966d7b770905398eba3c444014';

let ctx: RpcContext;
let chainId: bigint;
beforeAll(async () => {
  ctx = createContext(await loadChain(EXAPI), { log: () => {} });
  chainId = ctx.chain.chainId;
}, 60_000);

const call = async (method: string, params: unknown[]) => JSON.parse((await dispatch(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), ctx))!);

test('an EIP-7702 authorization delegates the authority to the contract for eth_call, debug_traceCall and eth_simulateV1', async () => {
  const authority = createAddressFromPrivateKey(KEY).toString();
  const [c, address, nonce, yParity, r, s] = eoaCode7702SignAuthorization([hexToBytes(`0x${chainId.toString(16)}`), hexToBytes(CONTRACT), new Uint8Array()], KEY);
  const auth = { chainId: `0x${bytesToBigInt(c).toString(16)}`, address: bytesToHex(address), nonce: '0x0', yParity: `0x${bytesToBigInt(yParity).toString(16)}`, r: `0x${bytesToBigInt(r).toString(16)}`, s: `0x${bytesToBigInt(s).toString(16)}` };
  void nonce;
  const overrides = { [CONTRACT]: { code: RETURN_42 } };
  const args = { from: '0xc000000000000000000000000000000000000001', to: authority, authorizationList: [auth] };
  const forty2 = `0x${'2a'.padStart(64, '0')}`;
  expect((await call('eth_call', [args, 'latest', overrides])).result).toBe(forty2);
  // without the authorization the authority has no code
  expect((await call('eth_call', [{ ...args, authorizationList: undefined }, 'latest', overrides])).result).toBe('0x');
  const traced = await call('debug_traceCall', [args, 'latest', { tracer: 'callTracer', stateOverrides: overrides }]);
  expect(traced.result.output).toBe(forty2);
  const simulated = await call('eth_simulateV1', [{ blockStateCalls: [{ stateOverrides: overrides, calls: [args] }] }, 'latest']);
  expect(simulated.result[0].calls[0].returnData).toBe(forty2);
  expect(simulated.result[0].transactions.length).toBe(1);
});

test('blob hashes are what BLOBHASH reads, in eth_call, debug_traceCall and eth_simulateV1', async () => {
  const overrides = { [CONTRACT]: { code: RETURN_BLOBHASH } };
  const args = { from: '0xc000000000000000000000000000000000000001', to: CONTRACT, blobVersionedHashes: [HASH], maxFeePerBlobGas: '0x0' };
  expect((await call('eth_call', [args, 'latest', overrides])).result).toBe(HASH);
  expect((await call('debug_traceCall', [args, 'latest', { tracer: 'callTracer', stateOverrides: overrides }])).result.output).toBe(HASH);
  expect((await call('eth_simulateV1', [{ blockStateCalls: [{ stateOverrides: overrides, calls: [args] }] }, 'latest'])).result[0].calls[0].returnData).toBe(HASH);
});

test('a chainId other than the chain\'s is refused as go-ethereum words it', async () => {
  const args = { from: '0xc000000000000000000000000000000000000001', to: CONTRACT, chainId: '0x1' };
  for (const method of ['eth_call', 'eth_estimateGas']) {
    expect((await call(method, [args, 'latest'])).error).toEqual({ code: -32000, message: `chainId does not match node's (have=1, want=${chainId})` });
  }
  expect((await call('eth_call', [{ ...args, chainId: `0x${chainId.toString(16)}` }, 'latest'])).result).toBe('0x');
});
