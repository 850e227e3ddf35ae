// The EVMs made for messages share their opcode tables and let go of their Common when released.
import { expect, test } from 'bun:test';
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { messageEvm } from './opcodeTables.ts';

const tableOf = (evm: object): unknown => (evm as { _opcodeMap: unknown })._opcodeMap;

test('released EVMs leave no listener on their Common; EVMs of one Common and fork share one table', async () => {
  const common = new Common({ chain: Mainnet, hardfork: Hardfork.Cancun });
  const before = common.events.listenerCount('hardforkChanged');
  const first = await messageEvm({ common });
  const second = await messageEvm({ common });
  const third = await messageEvm({ common });
  expect(tableOf(third.evm)).toBe(tableOf(second.evm));
  expect(common.events.listenerCount('hardforkChanged')).toBe(before + 3);
  for (const m of [first, second, third]) m.release();
  expect(common.events.listenerCount('hardforkChanged')).toBe(before);
});

test('another fork of the same Common gets its own table, with that fork\'s opcodes', async () => {
  const common = new Common({ chain: Mainnet, hardfork: Hardfork.Cancun });
  const cancun = await messageEvm({ common });
  await messageEvm({ common }); // the table is now shared
  const shanghai = new Common({ chain: Mainnet, hardfork: Hardfork.Shanghai });
  const older = await messageEvm({ common: shanghai });
  expect(tableOf(older.evm)).not.toBe(tableOf(cancun.evm));
  // TSTORE (0x5d) exists from Cancun on
  expect(cancun.evm.getActiveOpcodes().has(0x5d)).toBe(true);
  expect(older.evm.getActiveOpcodes().has(0x5d)).toBe(false);
  common.setHardfork(Hardfork.Shanghai);
  const switched = await messageEvm({ common });
  expect(switched.evm.getActiveOpcodes().has(0x5d)).toBe(false);
});
