// Writes a genesis alloc into a state manager and returns the state root. Short storage keys and
// values are left-padded as go-ethereum does; numbers may be hex or decimal strings.
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, createAddressFromString, hexToBytes, setLengthLeft, unpadBytes } from '@ethereumjs/util';
import { FixtureError } from '../errors/fixtureError.ts';
import type { GethGenesis } from '../fixture/types.ts';

export async function writeGenesisAlloc(path: string, state: MerkleStateManager, genesis: GethGenesis): Promise<Uint8Array> {
  await state.checkpoint();
  for (const [rawAddress, entry] of Object.entries(genesis.alloc)) {
    const addrHex = rawAddress.startsWith('0x') || rawAddress.startsWith('0X') ? '0x' + rawAddress.slice(2) : '0x' + rawAddress;
    if (!/^0x[0-9a-fA-F]{40}$/.test(addrHex)) throw new FixtureError(`${path}: alloc key "${rawAddress}" is not an address`);
    const address = createAddressFromString(addrHex.toLowerCase());
    if (entry === null || typeof entry !== 'object') throw new FixtureError(`${path}: alloc ${rawAddress} is not an object`);
    const balance = quantity(path, `alloc ${rawAddress} balance`, entry.balance ?? '0x0');
    const nonce = quantity(path, `alloc ${rawAddress} nonce`, entry.nonce ?? 0);
    await state.putAccount(address, new Account(nonce, balance));
    if (typeof entry.code === 'string' && entry.code !== '' && entry.code !== '0x') {
      await state.putCode(address, bytesOf(path, `alloc ${rawAddress} code`, entry.code));
    }
    for (const [slot, value] of Object.entries(entry.storage ?? {})) {
      const key = setLengthLeft(bytesOf(path, `alloc ${rawAddress} storage key`, slot), 32);
      const val = unpadBytes(bytesOf(path, `alloc ${rawAddress} storage value`, value));
      if (val.length > 0) await state.putStorage(address, key, val);
    }
  }
  await state.commit();
  await state.flush();
  return state.getStateRoot();
}

function quantity(path: string, where: string, value: unknown): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'string' && /^(0x[0-9a-fA-F]*|[0-9]+)$/i.test(value)) return value === '0x' ? 0n : BigInt(value);
  throw new FixtureError(`${path}: ${where} is not a number`);
}

function bytesOf(path: string, where: string, hex: string): Uint8Array {
  const body = hex.startsWith('0x') || hex.startsWith('0X') ? hex.slice(2) : hex;
  if (!/^[0-9a-fA-F]*$/.test(body)) throw new FixtureError(`${path}: ${where} is not hex`);
  return hexToBytes(`0x${body.length % 2 === 1 ? '0' + body : body}`);
}

