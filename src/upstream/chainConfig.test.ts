import { expect, test } from 'bun:test';
import { makeCommon } from '../replay/common.ts';
import { lazyKzg } from '../replay/kzg.ts';
import { anvilConfig, wellKnownConfig } from './chainConfig.ts';

const hardforkAt = (config: Record<string, unknown>, blockNumber: bigint, timestamp: bigint): string => {
  const common = makeCommon('test', { config, alloc: {} }, lazyKzg);
  common.setHardforkBy({ blockNumber, timestamp });
  return common.hardfork();
};

test('mainnet: the schedule of ethereumjs, read back through the go-ethereum config path', () => {
  const mainnet = wellKnownConfig(1n)!;
  expect(mainnet).toMatchObject({ chainId: 1, homesteadBlock: 1150000, eip158Block: 2675000, londonBlock: 12965000, mergeForkBlock: 15537394, shanghaiTime: 1681338455 });
  expect(hardforkAt(mainnet, 12965000n, 0n)).toBe('london');
  // go-ethereum configs place ethereumjs's rule-less mergeNetsplitBlock with the merge
  expect(['paris', 'mergeNetsplitBlock']).toContain(hardforkAt(mainnet, 15537394n, 1663224179n));
  expect(hardforkAt(mainnet, 15537393n, 1663224162n)).toBe('grayGlacier');
  expect(hardforkAt(mainnet, 19000000n, 1710338135n)).toBe('cancun');
  expect(hardforkAt(mainnet, 22500000n, 1746612311n)).toBe('prague');
  expect(wellKnownConfig(31337n)).toBeUndefined();
});

test('anvil: every fork up to the one it reports, at genesis', () => {
  expect(hardforkAt(anvilConfig(31337n, 'Bpo1')!, 5n, 100n)).toBe('bpo1'); // anvil 1.7.1's default
  expect(hardforkAt(anvilConfig(31337n, 'Prague')!, 5n, 100n)).toBe('prague');
  expect(hardforkAt(anvilConfig(31337n, 'Cancun')!, 5n, 100n)).toBe('cancun');
  expect(hardforkAt(anvilConfig(31337n, 'london')!, 5n, 100n)).toBe('london');
  expect(anvilConfig(31337n, 'Amsterdam')).toBeUndefined();
});
