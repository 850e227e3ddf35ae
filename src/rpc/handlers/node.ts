// Node status as a synced, peerless, account-less go-ethereum node answers it, and the write
// methods, which a fixture chain refuses: its blocks are recorded, nothing can be added to them.
// (Upstream mode forwards all of these to the node: upstream/forward.ts.)
import { ReadOnlyChainError } from '../../errors/rpcErrors.ts';

/** internal/ethapi/api.go Syncing: `false` once synced. */
export const ethSyncing = (): false => false;
/** internal/ethapi/api.go Accounts: no keystore, no accounts. */
export const ethAccounts = (): string[] => [];
/** internal/ethapi/api.go NetAPI.Listening: always true. */
export const netListening = (): true => true;
/** NetAPI.PeerCount: hexutil.Uint of the peer count. */
export const netPeerCount = (): string => '0x0';

export { WRITE_METHODS } from '../methodNames.ts';

export const refuseWrite = (method: string) => (): never => {
  throw new ReadOnlyChainError(method);
};
