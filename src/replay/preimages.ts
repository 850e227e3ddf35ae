// The keys behind the hashes of the state tries, as far as the chain names them: what go-ethereum
// keeps in its preimage store (an archive node records every key it writes through the trie). Here:
// the genesis allocation's addresses and slots, every account and slot a transaction of the chain
// touched (its state recording), block authors and withdrawal recipients, and the slots the block's
// system calls write (EIP-4788 beacon roots, EIP-2935 block hashes, EIP-7002/7251 queue heads). A
// key never named stays unknown: go-ethereum then leaves it out of a dump, or answers a null key.
import { bytesToUnprefixedHex, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import type { BlockRecording } from '../trace/types.ts';
import type { ChainBlock, Preimages } from './chainView.ts';

/** EIP-4788 and EIP-2935 ring buffer length. */
const RING = 8191n;

export class PreimageIndex implements Preimages {
  private readonly addresses = new Map<string, Uint8Array>();
  private readonly slots = new Map<string, Uint8Array>();

  constructor(private readonly keccak: (data: Uint8Array) => Uint8Array) {}

  addAddress(address: Uint8Array): void {
    this.addresses.set(bytesToUnprefixedHex(this.keccak(address)), address);
  }

  addSlot(slot: Uint8Array): void {
    const key = setLengthLeft(slot, 32);
    this.slots.set(bytesToUnprefixedHex(this.keccak(key)), key);
  }

  address(hash: Uint8Array): Uint8Array | undefined {
    return this.addresses.get(bytesToUnprefixedHex(hash));
  }

  slot(hash: Uint8Array): Uint8Array | undefined {
    return this.slots.get(bytesToUnprefixedHex(hash));
  }

  /** Addresses and slots of a genesis allocation (addresses and slot keys as hex). */
  addAlloc(alloc: Readonly<Record<string, { readonly storage?: Readonly<Record<string, string>> | undefined }>>): void {
    for (const [address, account] of Object.entries(alloc)) {
      this.addAddress(hexOf(address, 20));
      for (const slot of Object.keys(account.storage ?? {})) this.addSlot(hexOf(slot, 32));
    }
  }

  /** What one block's execution names. */
  addBlock(block: ChainBlock, recording: BlockRecording): void {
    const { header, withdrawals } = block.block;
    this.addAddress(header.coinbase.bytes);
    for (const w of withdrawals ?? []) this.addAddress(w.address.bytes);
    for (const tx of recording.txs) {
      for (const [address, touched] of tx.state.accounts) {
        this.addAddress(hexToBytes(`0x${address}`));
        for (const slot of touched.preStorage.keys()) this.addSlot(hexToBytes(`0x${slot}`));
        for (const slot of touched.postStorage.keys()) this.addSlot(hexToBytes(`0x${slot}`));
      }
    }
    // the system calls' writes (go-ethereum core/state_processor.go ProcessBeaconBlockRoot,
    // ProcessParentBlockHash, the EIP-7002/7251 dequeues), which no transaction recording holds
    if (header.parentBeaconBlockRoot !== undefined) {
      this.addSlot(bigBytes(header.timestamp % RING));
      this.addSlot(bigBytes((header.timestamp % RING) + RING));
    }
    if (header.number > 0n) this.addSlot(bigBytes((header.number - 1n) % RING));
    for (let i = 0n; i < 4n; i++) this.addSlot(bigBytes(i));
  }
}

function hexOf(text: string, size: number): Uint8Array {
  let hex = text.startsWith('0x') || text.startsWith('0X') ? text.slice(2) : text;
  if (hex.length % 2 === 1) hex = `0${hex}`;
  return setLengthLeft(hexToBytes(`0x${hex}`), size);
}

function bigBytes(n: bigint): Uint8Array {
  return hexToBytes(`0x${n.toString(16).padStart(64, '0')}`);
}
