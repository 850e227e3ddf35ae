// The smallest capture file the loader reads a member of: blocks 0x5 and 0x6 after a parent header of
// block 0x4, with `extra` members (the tests of the capture's optional members and their refusals).

/** The RLP of a list of 9 empty strings but the 9th, `number` (enough for the loader's read of it). */
function headerRlp(number: number): string {
  const items = `${'80'.repeat(8)}${number.toString(16).padStart(2, '0')}`;
  return `0x${(0xc0 + items.length / 2).toString(16)}${items}`;
}

export const twoBlockCapture = (extra: Record<string, unknown>): Record<string, unknown> => ({
  format: 'blocktrace-capture/v1',
  config: { chainId: 1 },
  prestate: {},
  // a header of block 0x4 (number is its 9th field): the blocks are 0x5 and 0x6
  parentHeader: headerRlp(4),
  blocks: ['0x00', '0x00'],
  ...extra,
});
