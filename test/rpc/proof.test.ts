// eth_getProof answers are real proofs: the account proof's first node hashes to the block's
// stateRoot and proves the account's RLP (or its absence); each storage proof proves its slot against
// the account's storageHash. Checked with ethereumjs's own verifier, at several blocks.
import { describe, expect, test } from 'bun:test';
import { createAccountFromRLP, equalsBytes, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import { verifyMerkleProof } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { loadKeccak } from '../../src/replay/keccak.ts';
import { loadChain } from '../../src/replay/loadChain.ts';
import { createContext } from '../../src/rpc/context.ts';
import { dispatch } from '../../src/rpc/dispatch.ts';
import { ROOT } from '../faces.ts';
import { join } from 'node:path';

// go-ethereum's chain (header roots are canonical there; anvil's are not)
const CHAIN = join(ROOT, 'golden/execution-apis/tests');

interface Proof {
  balance: string;
  nonce: string;
  storageHash: string;
  accountProof: string[];
  storageProof: { key: string; value: string; proof: string[] }[];
}

describe('eth_getProof verifies against the block state root', () => {
  test('present and absent accounts, set and unset slots, at the head and a past block', async () => {
    const keccak = await loadKeccak();
    const chain = await loadChain(CHAIN);
    const ctx = createContext(chain, { log: () => {} });
    const ask = async (params: unknown[]): Promise<Proof> => JSON.parse((await dispatch(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getProof', params }), ctx))!).result;
    const contract = '0x7dcd17433742f4c0ca53122ab541d0ba67fc27df';
    let checked = 0;
    for (const number of [chain.head.number >> 1n, chain.head.number]) {
      const block = chain.blockByNumber(number)!;
      for (const address of [contract, '0x1111111111111111111111111111111111111111']) {
        const proof = await ask([address, ['0x0', '0x1', '0x99'], `0x${number.toString(16)}`]);
        const nodes = proof.accountProof.map((n) => hexToBytes(n as `0x${string}`));
        expect(equalsBytes(keccak(nodes[0]!), block.block.header.stateRoot)).toBe(true);
        const leaf = await verifyMerkleProof(keccak(hexToBytes(address as `0x${string}`)), nodes, { useKeyHashing: false });
        if (leaf === null) {
          expect(proof.balance).toBe('0x0');
        } else {
          const account = createAccountFromRLP(leaf);
          expect(BigInt(proof.balance)).toBe(account.balance);
          expect(BigInt(proof.nonce)).toBe(account.nonce);
          expect(proof.storageHash).toBe(`0x${Buffer.from(account.storageRoot).toString('hex')}`);
          for (const slot of proof.storageProof) {
            const slotNodes = slot.proof.map((n) => hexToBytes(n as `0x${string}`));
            if (slotNodes.length > 0) expect(equalsBytes(keccak(slotNodes[0]!), account.storageRoot)).toBe(true);
            const stored = await verifyMerkleProof(keccak(setLengthLeft(hexToBytes(slot.key as `0x${string}`), 32)), slotNodes, { useKeyHashing: false });
            const value = stored === null ? 0n : BigInt(`0x${Buffer.from(RLP.decode(stored) as Uint8Array).toString('hex') || '0'}`);
            expect(value).toBe(BigInt(slot.value));
            checked++;
          }
        }
      }
    }
    expect(checked).toBe(6);
  });
});
