import { expect, test } from 'bun:test';
import { scanDeclarations } from './functionIndex.ts';

test('scanDeclarations finds functions, modifiers and constructors with their byte ranges, comments and strings left out', () => {
  const content = [
    '// function notMe() {}',
    'library Math { function min(uint256 a, uint256 b) internal pure returns (uint256) { return a < b ? a : b; } }',
    'contract Vault {',
    '  string s = "function nor() {";',
    '  modifier only(address who) { _; }',
    '  constructor(uint16 fee) { }',
    '  function _debit(address user, uint256 amount) internal returns (bool ok, string memory why) { if (true) { } }',
    '}',
  ].join('\n');
  const defs = scanDeclarations({ id: 3, path: 'src/Vault.sol', content, generated: false });
  expect(defs.map((d) => [d.contract, d.name, d.kind])).toEqual([
    ['Math', 'min', 'function'],
    ['Vault', 'only', 'modifier'],
    ['Vault', 'constructor', 'constructor'],
    ['Vault', '_debit', 'function'],
  ]);
  const debit = defs[3]!;
  expect(content.slice(debit.start, debit.start + debit.length)).toBe('function _debit(address user, uint256 amount) internal returns (bool ok, string memory why) { if (true) { } }');
  expect(debit.parameters).toEqual([{ name: 'user', type: 'address' }, { name: 'amount', type: 'uint256' }]);
  expect(debit.returns).toEqual([{ name: 'ok', type: 'bool' }, { name: 'why', type: 'string memory' }]);
  expect(defs.every((d) => d.file === 3)).toBe(true);
});
