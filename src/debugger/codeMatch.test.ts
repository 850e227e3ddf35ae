import { expect, test } from 'bun:test';
import type { Build, BuildContract } from './builds.ts';
import { CodeMatcher, metadataTrailers } from './codeMatch.ts';

// a2 64 'ipfs' 58 22 <34 bytes> 64 'solc' 43 <3 bytes>, then its length 0x33: solc's trailer shape
const TRAILER = `a264697066735822${'11'.repeat(34)}64736f6c6343${'000818'}0033`;

const contract = (runtime: string, creation: string, immutables = [] as { start: number; length: number }[]): BuildContract => {
  const build = { origin: 'test', solcVersion: '0.8.30', viaIR: false, sources: new Map(), contracts: [], functions: [] } as Build;
  const code = (object: string, imm: typeof immutables) => ({ object, sourceMap: '', links: [], immutables: imm, generated: new Map() });
  return { name: 'C', file: 'src/C.sol', abi: [], selectors: new Map(), storage: undefined, creation: code(creation, []), runtime: code(runtime, immutables), build };
};

test('metadataTrailers finds solc trailers, also one inside a creation code', () => {
  const code = Buffer.from(`6080${TRAILER}fe6001${TRAILER}`, 'hex');
  expect(metadataTrailers(code)).toEqual([{ start: 2, length: 53 }, { start: 58, length: 53 }]);
});

test('runtime code matches with immutables and another metadata hash; a changed byte does not', () => {
  const runtime = `7f${'00'.repeat(32)}5060015b${TRAILER}`;
  const matcher = new CodeMatcher([contract(runtime, `6080${runtime}`, [{ start: 1, length: 32 }])]);
  const deployed = Buffer.from(`7f${'ab'.repeat(32)}5060015b${TRAILER.replace(/11/g, '22')}`, 'hex');
  expect(matcher.match(deployed, 'runtime')).toMatchObject({ kind: 'runtime', contract: { name: 'C' } });
  const changed = Buffer.from(deployed);
  changed[34] = 0x02;
  expect(matcher.match(changed, 'runtime')).toEqual({ reason: expect.stringMatching(/^code differs from C \(src\/C\.sol, 1 of 90 bytes\)/) });
  expect(matcher.match(Buffer.from('6001', 'hex'), 'runtime')).toEqual({ reason: 'no artifact matches this code' });
});

test('creation code matches with constructor arguments after it, and library placeholders linked', () => {
  const creation = `73__$0123456789abcdef0123456789abcdef01$__60805b`;
  const matcher = new CodeMatcher([{ ...contract('6001', creation), creation: { object: creation, sourceMap: '', links: [{ start: 1, length: 20 }], immutables: [], generated: new Map() } }]);
  const initcode = Buffer.from(`73${'cd'.repeat(20)}60805b${'00'.repeat(31)}fa`, 'hex');
  expect(matcher.match(initcode, 'creation')).toMatchObject({ kind: 'creation' });
});
