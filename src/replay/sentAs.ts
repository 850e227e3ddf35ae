// A transaction taken as the node says it was sent: its sender is the node's `from` and its hash the
// node's `hash`, whatever its signature holds, as anvil and Hardhat execute and trace it themselves.
// An account impersonated on anvil (anvil_impersonateAccount) sends with an empty signature
// (v = r = s = 0, ethereumjs's unsigned transaction) under a hash of anvil's own making; on Hardhat
// (hardhat_impersonateAccount) with a fake one (r = s = the sender's address; v = 0x1c, which
// ethereumjs refuses in a typed transaction, or a legacy EIP-155 v, from which it recovers another
// address). Of a transaction, runTx asks only getSenderAddress (hash and isSigned in its debug
// lines alone), and runBlock as the replay runs it (skipBlockValidation) asks for no signature at
// all; the recorder, the receipts and the indexes ask for hash().
import type { TypedTransaction } from '@ethereumjs/tx';
import { Address } from '@ethereumjs/util';
import type { SentAs } from '../fixture/types.ts';

/** Gives `tx` (decoded unfrozen) the node's sender and hash; the caller then seals it. */
export function takeAsSent(tx: TypedTransaction, sent: SentAs): void {
  const sender = new Address(sent.from);
  Object.defineProperty(tx, 'getSenderAddress', { value: () => sender });
  Object.defineProperty(tx, 'hash', { value: () => sent.hash });
}

/** Whether `tx` already has a sender of its own here (taken as sent, or recorded: blocks.ts), which nothing recovers again. */
export function hasGivenSender(tx: TypedTransaction): boolean {
  return Object.hasOwn(tx, 'getSenderAddress');
}
