import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeCommon } from '../replay/common.ts';
import { lazyKzg } from '../replay/kzg.ts';
import { type EthConfigFork, ethConfigFork, headerFork, scheduleFrom } from './forkInference.ts';
import { configUpTo } from './forkSchedule.ts';

const hardforkAt = (config: Record<string, unknown>, blockNumber: bigint, timestamp: bigint): string => {
  const common = makeCommon('test', { config, alloc: {} }, lazyKzg);
  common.setHardforkBy({ blockNumber, timestamp });
  return common.hardfork();
};

/** Genesis header fields of a Hardhat 2.29.1 node (EDR 0.3.8) per `hardfork` setting, as it answers eth_getBlockByNumber("0x0"). */
const HARDHAT_GENESIS: Record<string, Record<string, string>> = {
  istanbul: { difficulty: '0x1' },
  london: { difficulty: '0x1', baseFeePerGas: '0x3b9aca00' },
  merge: { difficulty: '0x0', baseFeePerGas: '0x3b9aca00' },
  shanghai: { difficulty: '0x0', baseFeePerGas: '0x3b9aca00', withdrawalsRoot: '0x56e8' },
  cancun: { difficulty: '0x0', baseFeePerGas: '0x3b9aca00', withdrawalsRoot: '0x56e8', blobGasUsed: '0x0', excessBlobGas: '0x0', parentBeaconBlockRoot: '0x00' },
  osaka: { difficulty: '0x0', baseFeePerGas: '0x3b9aca00', withdrawalsRoot: '0x56e8', blobGasUsed: '0x0', excessBlobGas: '0x0', parentBeaconBlockRoot: '0x00', requestsHash: '0xe3b0' },
};

test('header fields: each fork that adds one is proven by it; Osaka adds none (Prague is its lower bound)', () => {
  expect(headerFork(HARDHAT_GENESIS['istanbul']!)).toBeUndefined();
  expect(headerFork(HARDHAT_GENESIS['london']!)).toBe('london');
  expect(headerFork(HARDHAT_GENESIS['merge']!)).toBe('paris');
  expect(headerFork(HARDHAT_GENESIS['shanghai']!)).toBe('shanghai');
  expect(headerFork(HARDHAT_GENESIS['cancun']!)).toBe('cancun');
  expect(headerFork(HARDHAT_GENESIS['osaka']!)).toBe('prague');
});

test("eth_config: go-ethereum's answer (execution-apis get-config.io) is bpo2 at time 540", () => {
  const io = readFileSync(join(import.meta.dir, '../../golden/execution-apis/tests/eth_config/get-config.io'), 'utf8');
  const answer = JSON.parse(io.split('\n').find((line) => line.startsWith('<< '))!.slice(3)).result;
  expect(ethConfigFork(answer.current)).toBe('bpo2');
  const { last, times } = scheduleFrom(answer, 'bpo2');
  expect(last).toBe('bpo2');
  expect([...times]).toEqual([['bpo2', 540n]]);
  const config = configUpTo(1n, last, times);
  // the forks before the current one are stated at genesis: the answer gives no earlier time
  expect(hardforkAt(config, 5n, 539n)).toBe('bpo1');
  expect(hardforkAt(config, 5n, 540n)).toBe('bpo2');
});

test("eth_config: anvil 1.7.1 --hardfork shanghai's answer names Istanbul's precompiles, a lower bound the headers and probes raise", () => {
  const precompiles = Object.fromEntries(['BLAKE2F', 'BN254_ADD', 'BN254_MUL', 'BN254_PAIRING', 'ECREC', 'ID', 'MODEXP', 'RIPEMD160', 'SHA256'].map((name, i) => [name, `0x${i}`]));
  expect(ethConfigFork({ activationTime: 0, blobSchedule: { baseFeeUpdateFraction: 3338477, max: 6, target: 3 }, precompiles, systemContracts: {} })).toBe('istanbul');
});

test('eth_config: the next fork and the last scheduled get their times; a fork eth_config does not name between them gets the last one', () => {
  const entry = (fork: 'prague' | 'osaka' | 'bpo2', activationTime: number): EthConfigFork => ({
    activationTime,
    precompiles: { ECREC: '0x1', BLS12_G1ADD: '0xb', ...(fork === 'prague' ? {} : { P256VERIFY: '0x100' }) },
    blobSchedule: fork === 'bpo2' ? { target: 14, max: 21, baseFeeUpdateFraction: 11684671 } : { target: 6, max: 9, baseFeeUpdateFraction: 5007716 },
    systemContracts: { HISTORY_STORAGE_ADDRESS: '0x…' },
  });
  const { last, times } = scheduleFrom({ current: entry('prague', 0), next: entry('osaka', 100), last: entry('bpo2', 200) }, 'prague');
  expect(last).toBe('bpo2');
  expect(Object.fromEntries(times)).toEqual({ osaka: 100n, bpo1: 200n, bpo2: 200n });
  const config = configUpTo(7n, last, times);
  expect(config).toMatchObject({ pragueTime: 0, osakaTime: 100, bpo1Time: 200, bpo2Time: 200 });
  expect(hardforkAt(config, 1n, 99n)).toBe('prague');
  expect(hardforkAt(config, 1n, 100n)).toBe('osaka');
  expect(hardforkAt(config, 1n, 250n)).toBe('bpo2');
  // a next fork with the current one's precompiles (Paris → Shanghai) is at least the fork after it
  const paris = { activationTime: 0, precompiles: { BLAKE2F: '0x9' } };
  expect(scheduleFrom({ current: paris, next: { ...paris, activationTime: 50 }, last: null }, 'paris')).toEqual({ last: 'shanghai', times: new Map([['shanghai', 50n]]) });
});
